"""The tags a release wheel carries (scripts/dist/build.sh writes them through scikit-build-core's
wheel.tags; tests/packaging/check_release.py checks a wheel's name against them): the
platform tag auditwheel computes, and for manylinux_2_17 also its legacy alias
manylinux2014 (PEP 600), which `auditwheel repair` adds too: pip before 20.3 (RHEL 8's
python39-pip is 20.2.4) knows only the legacy name.

    python3 wheel_tags.py cp311 manylinux_2_17_x86_64          # one tag a line
    python3 wheel_tags.py --name cp311 manylinux_2_17_x86_64   # the file name's tag part
"""

from __future__ import annotations

import sys


def platform_tags(plat_tag: str) -> list[str]:
    """The platform tags a wheel is named by, auditwheel's first."""
    tags = [plat_tag]
    if plat_tag.startswith("manylinux_2_17_"):
        tags.append("manylinux2014_" + plat_tag[len("manylinux_2_17_"):])
    return tags


def main(argv: list[str]) -> int:
    name = argv[:1] == ["--name"]
    py_tag, plat_tag = argv[1:] if name else argv
    plats = platform_tags(plat_tag)
    if name:
        print(f"{py_tag}-{py_tag}-{'.'.join(plats)}")
    else:
        print("\n".join(f"{py_tag}-{py_tag}-{p}" for p in plats))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
