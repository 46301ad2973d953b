"""The package's version: one value (the repository's VERSION file) for the Python layer and
its native module, and a clear ImportError when an install pairs them from two releases."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import snowfleet
from snowfleet import _snowfleet


def copy_of_the_package(tmp_path: Path) -> Path:
    """A copy of the installed package under tmp_path, for a test to damage."""
    package = tmp_path / "snowfleet"
    shutil.copytree(Path(snowfleet.__file__).parent, package)
    return package


def import_error_of_the_copy(tmp_path: Path, why: str) -> str:
    """Imports the damaged copy in a fresh interpreter; the last stderr line, which must be
    one ImportError (why: what the import would have missed, if it succeeded)."""
    run = subprocess.run(
        [sys.executable, "-c", "import snowfleet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode != 0, f"import succeeded: {why}"
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: "), run.stderr
    assert "pip install --force-reinstall" in last, last
    return last


def test_python_layer_and_native_module_agree() -> None:
    assert snowfleet.__version__ == _snowfleet.__version__
    parts = snowfleet.__version__.split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts), snowfleet.__version__


def test_a_native_module_from_another_release_is_refused_on_import(tmp_path: Path) -> None:
    # A copy of the installed package whose Python layer says 9.9.9: the state a half-upgraded
    # install or a stale extension left in a source tree is in.
    package = copy_of_the_package(tmp_path)
    (package / "_version.py").write_text('__version__ = "9.9.9"\n')
    last = import_error_of_the_copy(tmp_path, "the version mismatch went unnoticed")
    assert "9.9.9" in last and _snowfleet.__version__ in last, last


def test_a_missing_native_module_is_one_import_error_naming_it_and_the_fix(tmp_path: Path) -> None:
    # A copy of the installed package without its extension module: what a wheel of another
    # CPython (its .so carries that interpreter's suffix), a source checkout on sys.path or an
    # interrupted install leaves. The error must name the missing module and how to get it,
    # not blame a circular import.
    package = copy_of_the_package(tmp_path)
    for so in package.glob("_snowfleet*.so"):
        so.unlink()
    last = import_error_of_the_copy(tmp_path, "without the native module")
    assert "circular import" not in last, last
    assert "_snowfleet" in last, last


def test_an_unloadable_native_module_is_one_import_error_with_the_loaders_reason(
    tmp_path: Path,
) -> None:
    # The module is there but the dynamic loader refuses it (a truncated download, a wheel for
    # another libc or CPU): the loader's reason must survive, with the way out beside it.
    package = copy_of_the_package(tmp_path)
    for so in package.glob("_snowfleet.*.so"):
        so.write_bytes(b"not an ELF file\n" * 16)
    last = import_error_of_the_copy(tmp_path, "with a broken native module")
    assert "snowfleet._snowfleet" in last, last
    assert "ELF header" in last, last


def test_a_native_module_for_another_python_is_named_in_the_import_error(tmp_path: Path) -> None:
    # A wheel for another CPython installed by hand, or a build directory copied between
    # interpreters: the module is there under a name this interpreter does not load.
    package = copy_of_the_package(tmp_path)
    for so in package.glob("_snowfleet.*.so"):
        so.rename(package / "_snowfleet.cpython-27-x86_64-linux-gnu.so")
    last = import_error_of_the_copy(tmp_path, "without a loadable native module")
    assert "_snowfleet.cpython-27-x86_64-linux-gnu.so" in last, last
    assert "another Python" in last, last


def test_a_missing_version_file_is_not_blamed_on_the_native_module(tmp_path: Path) -> None:
    # _version.py is missing (a source tree whose build never wrote it, a half-removed
    # install) while the native module is there and loads. The error must name
    # snowfleet._version, not say "cannot import its native module snowfleet._snowfleet".
    package = copy_of_the_package(tmp_path)
    (package / "_version.py").unlink()
    last = import_error_of_the_copy(tmp_path, "without _version.py")
    assert "snowfleet._version" in last, last
    assert "native module snowfleet._snowfleet" not in last, last


def test_the_pip_command_in_the_import_error_survives_a_path_with_spaces(tmp_path: Path) -> None:
    # An interpreter under a directory with a space ("/opt/my apps/venv/bin/python"): the pip
    # command the ImportError offers must paste into a shell as is.
    import shlex

    package = copy_of_the_package(tmp_path)
    for so in package.glob("_snowfleet*.so"):
        so.unlink()
    bindir = tmp_path / "my python"
    bindir.mkdir()
    python = bindir / "python3"
    python.symlink_to(sys.executable)
    run = subprocess.run(
        [str(python), "-c", "import snowfleet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: "), run.stderr
    command = last[last.index("Install the build for this Python: ") :].split(": ", 1)[1]
    assert shlex.split(command)[:3] == [str(python), "-m", "pip"], command
