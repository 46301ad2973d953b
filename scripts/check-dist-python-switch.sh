#!/usr/bin/env bash
# scripts/dist.sh builds every CPython's wheel of a target in one build directory, switching
# the interpreter with python_module_args (scripts/packaging/python-module-args.sh). The
# extension module's name must stay the one those arguments give for the target
# (.cpython-310-x86_64-linux-musl.so), not the build machine's interpreter's: this configures
# the project twice in one directory (CPython 3.9 then 3.10, named for x86_64 musl, with the
# host compiler: only the name is checked) and reads PYTHON_MODULE_EXTENSION (and the headers
# found) from the cache.
# Configure only; a private venv holds the pinned pybind11.
#
#   bash scripts/check-dist-python-switch.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$(repo_root)"
. scripts/packaging/python-module-args.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check pybind11==2.13.6
pybind11_dir=$("$work/venv/bin/python" -m pybind11 --cmakedir)
fail=0
for v in 3.9 3.10; do
  py=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/python3 | tail -n 1)
  python_module_args "$v" x86_64 musl "$py" "$pybind11_dir"
  cmake -S . -B "$work/b" -G Ninja -DSNOWFLEET_ETCD=OFF -DSNOWFLEET_BUILD_CLI=OFF \
    "${pyargs[@]}" >"$work/configure-$v.log" 2>&1 || { cat "$work/configure-$v.log" >&2; exit 1; }
  got=$(sed -n 's/^PYTHON_MODULE_EXTENSION:[A-Z]*=//p' "$work/b/CMakeCache.txt")
  want=".cpython-${v/./}-x86_64-linux-musl.so"
  inc=$(sed -n 's/^_Python_INCLUDE_DIR:[A-Z]*=//p' "$work/b/CMakeCache.txt")
  case $inc in
    */python$v) ;;
    *) echo "FAIL CPython $v: the headers are $inc" >&2; fail=1 ;;
  esac
  if [ "$got" = "$want" ]; then
    echo "CPython $v: $got, headers $inc"
  else
    echo "FAIL CPython $v after $([ "$v" = 3.9 ] && echo nothing || echo 3.9): the module is named $got, not $want" >&2
    fail=1
  fi
done
[ "$fail" = 0 ] && echo "check-dist-python-switch: each CPython's module named for the target"
exit "$fail"
