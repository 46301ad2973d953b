#!/usr/bin/env bash
# Builds the Python package from this checkout exactly as a user would and runs the whole
# pytest suite (every conformance case included) against the installed package.
#
#   bash scripts/test/python.sh                  # everything
#   bash scripts/test/python.sh --install-only   # prerequisites, venv and `pip install .`
#
# Steps: install build prerequisites if missing (apt), make a private venv (out/py-venv, or
# $SNOWFLEET_PY_VENV), `pip install .` with the test-only module _snowfleet_testing
# (-DSNOWFLEET_PYTHON_TEST_HOOKS=ON: the benchmark's pybind11 reference rows; scikit-build-core +
# pybind11 from PyPI build the core and the extension), run pytest with optional tools required (numpy, mypy: nothing is skipped),
# then prove the other two install routes: `pip install -e .` and an sdist built from the tree
# (it must carry core/). Set SNOWFLEET_PY_PACKAGING=0 to skip those two.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

ROOT="$(repo_root)"
VENV="${SNOWFLEET_PY_VENV:-$ROOT/out/py-venv}"
PYTHON="${PYTHON:-python3}"
log() { section "$*"; }

# ---- prerequisites (fresh Debian as root) -----------------------------------------------------
missing=()
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  PYTHON=python3
  missing+=(python3 python3-venv python3-dev)
else
  "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
  "$PYTHON" -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    >/dev/null 2>&1 || missing+=(python3-dev)
fi
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || command -v ninja >/dev/null 2>&1 || missing+=(make)
if ((${#missing[@]})); then
  apt_install "${missing[@]}"
fi
# CMake: scikit-build-core takes it (and ninja) from PyPI when the system has none >= 3.18.

# ---- venv -------------------------------------------------------------------------------------
if [[ ! -x "$VENV/bin/python" ]]; then
  log "creating venv $VENV"
  "$PYTHON" -m venv "$VENV"
fi
PY="$VENV/bin/python"
"$PY" -m pip install -q --disable-pip-version-check --upgrade pip

# ---- pip install . and the test suite ---------------------------------------------------------
# The three installs from the tree (., -e ., . again at the end) share one CMake build
# directory, so the core is compiled once, not three times; each names the test hooks'
# setting, which a shared CMake cache would otherwise carry over. The sdist's install below
# builds from scratch, in its own directory.
TREE_BUILD=("-Cbuild-dir=${SNOWFLEET_PY_BUILD:-$ROOT/out/py-build}")
NO_HOOKS=(-Ccmake.define.SNOWFLEET_PYTHON_TEST_HOOKS=OFF)
log "pip install $ROOT (with the test-only module)"
"$PY" -m pip install -q --disable-pip-version-check \
  "${TREE_BUILD[@]}" -Ccmake.define.SNOWFLEET_PYTHON_TEST_HOOKS=ON "$ROOT"
[[ "${1:-}" == --install-only ]] && exit 0
# Optional tools the suite uses (numpy: zero-copy check; mypy: stubs; build: sdist;
# snowflake-id: the benchmark's peer, smoke-run by the suite; hypothesis: the differential
# test).
"$PY" -m pip install -q --disable-pip-version-check pytest mypy numpy build snowflake-id gunicorn \
  hypothesis
log "pytest python/tests"
# From outside the tree, so `import snowfleet` is the installed package, not python/snowfleet.
(cd "$ROOT/python/tests" && SNOWFLEET_NO_SKIP=1 "$PY" -m pytest -q -p no:cacheprovider \
  --rootdir "$ROOT" -c "$ROOT/pyproject.toml" "$ROOT/python/tests")

log "the CLI tests against python -m snowfleet and the snowfleet console script"
SNOWFLEET_CLI="$PY -m snowfleet" bash "$ROOT/tests/cli_test.sh"
SNOWFLEET_CLI="$VENV/bin/snowfleet" bash "$ROOT/tests/cli_test.sh"
log "the sdist carries only what it builds from"
"$PY" "$ROOT/tests/packaging/check_archives.py" sdist | tail -n 1
log "the release checker refuses wheels pip would install wrong; dist/build.sh dates an exported tree"
# (scikit-build-core, as scripts/dist/build.sh pins it: the tests write a release wheel with it)
"$PY" -m pip install -q --disable-pip-version-check "packaging>=24.1" scikit-build-core==1.1.2
"$PY" -m pytest -q -p no:cacheprovider "$ROOT/tests/packaging/test_check_release.py" \
  "$ROOT/tests/packaging/test_dist_epoch.py"

# The suite above runs 3,000 differential scenarios; CI runs 50,000: 10 seeded shards (the
# same scenarios every run), two pytest processes at a time, about 80 s on 2 idle cores (a
# fixed budget: 100,000 took 161 s of a run that aims at 45 minutes in all). It prints scenarios, ids compared and time. The timeout only bounds a hang.
DIFF_EXAMPLES="${SNOWFLEET_DIFF_CI_EXAMPLES:-50000}"
log "differential test: core vs reference model, $DIFF_EXAMPLES scenarios"
(cd "$ROOT/python/tests" && SNOWFLEET_NO_SKIP=1 timeout 1200 "$PY" test_differential.py \
  --examples "$DIFF_EXAMPLES" --shards 10 --jobs 2)

if [[ "${SNOWFLEET_PY_PACKAGING:-1}" != 0 ]]; then
  log "pip install -e . (editable)"
  "$PY" -m pip install -q --disable-pip-version-check "${TREE_BUILD[@]}" "${NO_HOOKS[@]}" -e "$ROOT"
  (cd / && "$PY" -c 'import snowfleet, pathlib
p = pathlib.Path(snowfleet.__file__).resolve()
assert "python/snowfleet" in p.as_posix(), p  # the editable install points at the tree
assert snowfleet.decode(snowfleet.Generator(3).next_id()).node_id == 3
print("editable install ok:", p.parent)')

  log "sdist: build, check it carries core/, install from it"
  DIST="$(mktemp -d)"
  trap 'rm -rf "$DIST"' EXIT
  out="$("$PY" -m build --sdist --outdir "$DIST" "$ROOT" 2>&1)" || { echo "$out" >&2; exit 1; }
  SDIST="$(ls "$DIST"/snowfleet-*.tar.gz)"
  LISTING="$(tar -tzf "$SDIST")"
  for f in core/CMakeLists.txt core/include/snowfleet/snowfleet.hpp core/src/mint/generator.cc core/sources.txt \
           bindings/python/_snowfleet.cc python/snowfleet/__init__.py CMakeLists.txt; do
    grep -qx "snowfleet-[^/]*/$f" <<<"$LISTING" || { echo "sdist lacks $f" >&2; exit 1; }
  done
  "$PY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$SDIST"
  (cd / && "$PY" -c 'import snowfleet
assert "site-packages" in snowfleet.__file__
print("sdist install ok:", snowfleet.decode(snowfleet.Generator(4).next_id()))')
  # Leave the venv with the regular install, as after `pip install .`: it must not carry the
  # test-only module.
  "$PY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
    "${TREE_BUILD[@]}" "${NO_HOOKS[@]}" "$ROOT"
  (cd / && "$PY" -c 'import importlib.util, snowfleet
assert importlib.util.find_spec("snowfleet._snowfleet_testing") is None, "a plain install ships the test hooks"
print("plain install ok: no snowfleet._snowfleet_testing")')
fi
log "python: all tests passed"
