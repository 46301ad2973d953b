#!/usr/bin/env bash
# Proves the x86_64 glibc wheels scripts/dist/build.sh wrote (out/dist/): each is installed into a
# fresh venv of its CPython (pyenv) with no compiler on PATH, the time from `pip install` to
# the first id is printed, and the Python suite runs against the installed wheel.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$(repo_root)"
root=$PWD
dist=${1:-out/dist}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A PATH with everything from /usr/bin except compilers, linkers and build tools.
nocc=$work/bin
mkdir "$nocc"
for f in /usr/bin/*; do
  case ${f##*/} in
    cc | c++ | gcc* | g++* | cpp* | clang* | *-linux-gnu-* | ld | ld.* | as | cmake | ninja | make | zig) ;;
    *) ln -s "$f" "$nocc/" ;;
  esac
done

shopt -s nullglob
wheels=("$dist"/snowfleet-*-manylinux*_x86_64*.whl)
[ ${#wheels[@]} -gt 0 ] || { echo "no x86_64 manylinux wheel in $dist" >&2; exit 1; }
for whl in "${wheels[@]}"; do
  tag=$(basename "$whl" | cut -d- -f3)            # cp311
  v=${tag#cp}; v=${v:0:1}.${v:1}                  # 3.11
  py=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/python3 | tail -n 1)
  section "dist-verify: $(basename "$whl") in a fresh CPython $v venv, no compiler on PATH"
  venv=$work/venv-$v
  "$py" -m venv "$venv"
  PATH="$venv/bin:$nocc" "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    pytest hypothesis numpy
  ! PATH="$venv/bin:$nocc" command -v cc gcc c++ g++ clang >/dev/null ||
    { echo "a compiler is on PATH" >&2; exit 1; }
  start=$(date +%s%N)
  PATH="$venv/bin:$nocc" "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-index --no-deps "$whl"
  (cd "$work" && PATH="$venv/bin:$nocc" "$venv/bin/python" -c \
    'import snowfleet; print("  first id:", snowfleet.Generator(node_id=37).next_id())')
  echo "  wheel install + first id: $(( ($(date +%s%N) - start) / 1000000 )) ms"
  # From outside the tree, so `import snowfleet` is the installed wheel. The bench smoke run
  # needs the test-hooks module, which a release wheel never carries.
  (cd "$root/python/tests" && PATH="$venv/bin:$nocc" "$venv/bin/python" -m pytest -q \
    -p no:cacheprovider --rootdir "$root" -c "$root/pyproject.toml" "$root/python/tests" \
    --deselect python/tests/test_bench.py::test_bench_smoke_run)
done
