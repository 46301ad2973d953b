"""Writes a wheel byte-for-byte reproducibly (scripts/dist.sh): sorted entries, every
timestamp SOURCE_DATE_EPOCH, fixed permissions, METADATA, the console script
(entry_points.txt) and the license file from pyproject.toml and LICENSE: what a wheel built
from the sdist (scikit-build-core) carries, so pip gives the same `snowfleet` command.
A manylinux_2_17 wheel is also tagged manylinux2014 (the name `auditwheel repair` gives):
pip before 20.3 (RHEL 8's python39-pip is 20.2.4) knows only the legacy name.

usage: make_wheel.py STAGING_DIR OUT_DIR PYTHON_TAG PLATFORM_TAG
STAGING_DIR holds the files of the wheel's root (snowfleet/...). Prints the wheel's path.
"""
import base64
import hashlib
import os
import sys
import time
import zipfile
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]


def metadata(project: dict) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    lic = project.get("license", {})
    if isinstance(lic, dict) and "text" in lic:
        lines.append(f"License: {lic['text']}")
    if project.get("keywords"):
        lines.append(f"Keywords: {','.join(project['keywords'])}")
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    lines += [f"Project-URL: {label}, {url}" for label, url in project.get("urls", {}).items()]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f"Requires-Dist: {d}; extra == \"{extra}\"" for d in deps]
    lines.append("Description-Content-Type: text/markdown")
    readme = (ROOT / project["readme"]).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + readme


def entry_points(project: dict) -> str:
    scripts = project.get("scripts", {})
    return "[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in scripts.items()) if scripts else ""


def platform_tags(plat_tag: str) -> list:
    """The platform tags a wheel is named by: manylinux_2_17_ARCH also as manylinux2014_ARCH
    (PEP 600's alias; pip < 20.3 reads only the legacy name)."""
    tags = [plat_tag]
    if plat_tag.startswith("manylinux_2_17_"):
        tags.append("manylinux2014_" + plat_tag[len("manylinux_2_17_"):])
    return tags


def main() -> None:
    staging, out_dir, py_tag, plat_tag = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # The version is written once, in VERSION (pyproject.toml's is dynamic); _version.py is
    # what scikit-build-core's [[tool.scikit-build.generate]] writes into its wheels.
    version = (ROOT / "VERSION").read_text(encoding="utf-8").strip()
    project["version"] = version
    name = project["name"]
    dist_info = f"{name}-{version}.dist-info"
    files = {}
    for path in sorted(p for p in staging.rglob("*") if p.is_file()):
        files[path.relative_to(staging).as_posix()] = path.read_bytes()
    files["snowfleet/_version.py"] = f'\n__version__ = "{version}"\n'.encode()
    files[f"{dist_info}/METADATA"] = metadata(project).encode()
    files[f"{dist_info}/LICENSE"] = (ROOT / "LICENSE").read_bytes()
    if entry_points(project):
        files[f"{dist_info}/entry_points.txt"] = entry_points(project).encode()
    plats = platform_tags(plat_tag)
    files[f"{dist_info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: snowfleet scripts/packaging/make_wheel.py\n"
        "Root-Is-Purelib: false\n" + "".join(f"Tag: {py_tag}-{py_tag}-{p}\n" for p in plats)
    ).encode()
    record = []
    for arc, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{arc},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip cannot store dates before 1980
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{name}-{version}-{py_tag}-{py_tag}-{'.'.join(plats)}.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        # dist-info last, as installers expect; the rest sorted.
        for arc in sorted(files, key=lambda a: (a.startswith(dist_info), a)):
            info = zipfile.ZipInfo(arc, stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if arc.endswith(".so") or ".so." in arc else 0o644) << 16
            info.create_system = 3
            z.writestr(info, files[arc], compresslevel=9)
    print(wheel)


if __name__ == "__main__":
    main()
