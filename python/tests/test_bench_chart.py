"""bench/chart.py draws docs/performance.svg from a data file alone, byte for byte the same
each time, and the committed chart and table are the ones their data file gives.

No benchmark runs here: the renders read python/tests/data/bench_chart_sample.json (fixed
figures) and docs/performance.json. The script runs matplotlib from its own venv
(out/chart-venv, made on first use from bench/chart-requirements.txt).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, List

from conftest import REPO_ROOT

CHART = REPO_ROOT / "bench" / "chart.py"
SAMPLE = Path(__file__).resolve().parent / "data" / "bench_chart_sample.json"


def chart(*args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(CHART), *args], capture_output=True, text=True,
                          timeout=900)


def render(data: Path, svg: Path) -> bytes:
    proc = chart("--data", str(data), "--svg", str(svg))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return svg.read_bytes()


def chart_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_chart", CHART)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sample_renders_the_same_bytes_twice(tmp_path: Path) -> None:
    first = render(SAMPLE, tmp_path / "a.svg")
    second = render(SAMPLE, tmp_path / "b.svg")
    assert first == second
    text = first.decode("utf-8")
    assert text.startswith("<?xml") and "<svg" in text
    # one panel per language, labelled with the machine and the date of the run
    for title in ("C++ (x86_64 Linux 6.1)", "Python (snowfleet 0.1.0, CPython 3.11.7)",
                  "Node (node v20.20.2)", "Java (Java 17.0.13"):
        assert title in text, title
    assert "Sample CPU, 2 CPUs, Linux 6.1; run 2026-01-02T03:04Z" in text
    # snowfleet's rows and each peer's are drawn, UUIDv7 ones in panels of their own;
    # reference and variant rows are not
    for label in ("monotonic next_id", "snowflake-id next(gen)", "@sapphire/snowflake",
                  "tsid-creator getTsid().toLong()", "mutex version, 2 threads", "1,212",
                  "Java, UUIDv7 (Java 17.0.13", "nextUuid7()",
                  "uuid-creator getTimeOrderedEpoch()"):
        assert label in text, label
    for label in ("time.time_ns()", "clock_gettime", "TSC window off"):
        assert label not in text, label


def test_committed_chart_and_table_are_drawn_from_docs_performance_json(tmp_path: Path) -> None:
    data = REPO_ROOT / "docs" / "performance.json"
    committed = (REPO_ROOT / "docs" / "performance.svg").read_bytes()
    assert render(data, tmp_path / "p.svg") == committed, \
        "docs/performance.svg is stale: `python3 bench/chart.py` redraws it from performance.json"
    table = chart_module().table(json.loads(data.read_text(encoding="utf-8")))
    assert table in (REPO_ROOT / "docs" / "performance.md").read_text(encoding="utf-8"), \
        "the chart's table is stale: `python3 bench/chart.py --markdown docs/performance.md`"


def test_a_row_without_a_positive_figure_is_refused(tmp_path: Path) -> None:
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    rows: List[Dict[str, object]] = data["benches"][1]["rows"]
    rows[0]["ns_per_id"] = 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    proc = chart("--data", str(bad), "--svg", str(tmp_path / "bad.svg"))
    assert proc.returncode == 2
    assert "row 's' has ns_per_id 0; it must be a positive finite number" in proc.stderr
    assert not (tmp_path / "bad.svg").exists()
