# Sourced by scripts/dist.sh and scripts/check-dist-python-switch.sh.
#
# python_module_args V ARCH LIBC PYTHON PYBIND11_DIR: sets the array pyargs, the CMake
# arguments that point a build directory at CPython V (the interpreter PYTHON) and name its
# extension module for ARCH and LIBC (_snowfleet.cpython-311-aarch64-linux-musl.so). One
# build directory per target serves every CPython in turn, so the previous one's cache
# entries go (-U). PYBIND11_PYTHON_EXECUTABLE_LAST too: pybind11 2.13 drops a cached
# PYTHON_MODULE_EXTENSION when the interpreter differs from it, and then names the module for
# the build machine's interpreter (x86_64-linux-gnu) whatever the target.
python_module_args() {
  local v=$1 arch=$2 libc=$3 py=$4 pybind11_dir=$5
  pyargs=(-U 'Python_*' -U '_Python_*' -U PYBIND11_PYTHON_EXECUTABLE_LAST -DSNOWFLEET_BUILD_PYTHON=ON
    -DPython_EXECUTABLE="$py" -Dpybind11_DIR="$pybind11_dir"
    -DPYTHON_IS_DEBUG=OFF -DPYTHON_MODULE_DEBUG_POSTFIX=
    -DPYTHON_MODULE_EXTENSION=".cpython-${v/./}-$arch-linux-$libc.so")
}
