#!/usr/bin/env bash
# Proves the aarch64 glibc wheel for CPython 3.11 that scripts/dist/build.sh wrote (out/dist/):
# Debian 12's own arm64 CPython 3.11 runs under qemu-aarch64 (Debian's qemu-user) from a
# sysroot of unpacked arm64 packages; the wheel is installed into a fresh venv of it by pip,
# mints ids, and a subset of the Python suite runs against it.
#
# The arm64 packages are fetched with a private apt state (out/dist-arm64/apt,
# scripts/dist/apt-sysroot.sh), so the machine's own apt configuration (its
# architectures, its package lists) is left as it is.
#
# The subset leaves out the tests that start a Python subprocess (test_exit, test_fork,
# test_prefork, the CLI and doc runners): sys.executable is an aarch64 file the host kernel
# cannot exec without a binfmt_misc registration, which a container does not have. Under
# emulation the subset takes minutes, not seconds, and one test that assumes less than the
# mark keeper's half-second period passes between two calls is deselected: under a loaded
# qemu it saw the keeper's extra write (mark_writes 3, not 2).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/apt-sysroot.sh"
cd "$(repo_root)"
root=$PWD
dist=${1:-out/dist}
shopt -s nullglob
wheels=("$dist"/snowfleet-*-cp311-cp311-manylinux*_aarch64.whl)
[ ${#wheels[@]} = 1 ] || { echo "want one cp311 aarch64 manylinux wheel in $dist" >&2; exit 1; }
whl=${wheels[0]}

section "dist-verify (aarch64): Debian's arm64 CPython 3.11 in a sysroot, qemu-user"
apt_install qemu-user
work=$root/out/dist-arm64
apt_dir=$work/apt
sysroot=$work/sysroot
apt_private "$apt_dir" arm64
# CPython 3.11 and the libraries its interpreter and stdlib extension modules load (what
# `apt-cache depends --recurse python3.11` lists, less the tools a package install runs).
pkgs=(python3.11 python3.11-minimal libpython3.11-minimal libpython3.11-stdlib python3.11-venv
  python3-pip-whl python3-setuptools-whl media-types libc6 libgcc-s1 libexpat1 zlib1g libssl3
  libffi8 libbz2-1.0 liblzma5 libcrypt1 libsqlite3-0 libuuid1 libncursesw6 libtinfo6
  libreadline8 libnsl2 libtirpc3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0
  libcom-err2 libkeyutils1 libdb5.3 libgdbm6 libgdbm-compat4)
[ -x "$sysroot/usr/bin/python3.11" ] || apt_sysroot "$apt_dir" "$sysroot" "${pkgs[@]}"
py() { qemu-aarch64 -L "$sysroot" "$@"; }
py "$sysroot/usr/bin/python3.11" -c 'import platform, sys; print(" ", platform.machine(), sys.version.split()[0])'

section "dist-verify (aarch64): $(basename "$whl") in a fresh venv"
venv=$work/venv
rm -rf "$venv"
# No ensurepip: it runs pip in a subprocess (see above); pip runs from its wheel instead.
py "$sysroot/usr/bin/python3.11" -m venv --without-pip "$venv"
pip=("$venv/bin/python" "$(ls "$sysroot"/usr/share/python-wheels/pip-*.whl)/pip")
py "${pip[@]}" install -q --disable-pip-version-check pytest hypothesis
py "${pip[@]}" install -q --disable-pip-version-check --no-index --no-deps "$whl"
(cd "$work" && py "$venv/bin/python" -c '
import platform, snowfleet
gen = snowfleet.Generator(node_id=37)
ids = list(gen.next_ids(10000))  # an array.array('q')
assert len(set(ids)) == len(ids) == 10000 and ids == sorted(ids), "ids not unique and increasing"
print(" ", platform.machine(), "first id:", ids[0], "from", snowfleet.__file__)')

section "dist-verify (aarch64): Python suite subset against the installed wheel"
(cd "$root/python/tests" && py "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  --rootdir "$root" -c "$root/pyproject.toml" \
  "$root"/python/tests/{test_generator,test_conformance,test_errors,test_layout_codec}.py \
  --deselect python/tests/test_generator.py::test_a_leased_generator_reports_its_lease_and_mark_writes)
