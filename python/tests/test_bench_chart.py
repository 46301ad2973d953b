"""bench/chart.py draws docs/performance.svg from a data file alone, byte for byte the same
each time, and the committed chart and table are the ones their data file gives.

No benchmark runs here: the renders read python/tests/data/bench_chart_sample.json (fixed
figures) and docs/performance.json; the README's summary is checked against the latter too.
The script runs matplotlib from its own venv
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
    module = chart_module()
    run = json.loads(data.read_text(encoding="utf-8"))
    doc = (REPO_ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert module.table(run) in doc, \
        "the chart's table is stale: `python3 bench/chart.py --markdown docs/performance.md`"
    assert module.summary(run) in (REPO_ROOT / "README.md").read_text(encoding="utf-8"), \
        "the README's performance summary is stale: `python3 bench/chart.py --summary README.md`"


def test_the_committed_run_has_every_target_row_with_its_ratio() -> None:
    run = json.loads((REPO_ROOT / "docs" / "performance.json").read_text(encoding="utf-8"))
    targets = {(b["language"], r["key"]): r["ratio"] for b in run["benches"] for r in b["rows"]
               if r.get("ratio", {}).get("target") is not None}
    wanted = {(lang, key) for lang, key, _, _, target in chart_module().RATIOS if target}
    assert set(targets) == wanted
    for ratio in targets.values():
        assert ratio["value"] > 0


def test_collecting_divides_each_row_by_its_basis_of_the_same_bench(tmp_path: Path) -> None:
    module = chart_module()
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    cpp, python, node, java = data["benches"]
    cpp["rows"].append({"key": "uuid7", "label": "UUIDv7 next", "group": "snowfleet",
                        "family": "uuid7", "ns_per_id": 30.0})
    files = {"cpp.json": cpp, "python.json": python, "node.json": node, "java.json": java,
             # the sample has no UUIDv7 benches of its own
             "python-uuid7.json": {**python, "rows": []}, "node-uuid7.json": {**node, "rows": []}}
    assert set(files) == set(module.BENCH_FILES)
    for name, bench in files.items():
        (tmp_path / name).write_text(json.dumps(bench), encoding="utf-8")
    (tmp_path / "loadavg-0").write_text("0.50 0.40 0.30 1/100 1\n", encoding="utf-8")
    (tmp_path / "started").write_text("2026-01-02T03:04Z\n", encoding="utf-8")
    run = module.collect(tmp_path)
    rows = {(b["language"], r["key"]): r for b in run["benches"] for r in b["rows"]}
    clock = rows[("C++", "clock")]["ns_per_id"]
    mono = rows[("C++", "mono")]
    assert mono["ratio"]["basis"] == "clock" and mono["ratio"]["target"] == 1.0
    assert mono["ratio"]["value"] == mono["ns_per_id"] / clock
    assert rows[("C++", "uuid7")]["ratio"]["value"] == 30.0 / clock
    java = rows[("Java", "monotonicNextId")]["ratio"]
    assert java["value"] == rows[("Java", "monotonicNextId")]["ns_per_id"] / \
        rows[("Java", "tsidCreator")]["ns_per_id"] and java["target"] == 0.7
    assert "ratio" not in rows[("Node", "mono")]  # its basis row is not in the sample
    table = module.table(run)
    assert "| C++ | clock_gettime(CLOCK_REALTIME) | reference |" in table  # a basis is listed
    met = "met" if mono["ratio"]["value"] <= 1.0 else "missed"
    assert f"| {mono['ratio']['value']:.3f}x one clock_gettime | <= 1.0x: {met} |" in table
    summary = module.summary(run)
    assert summary.startswith(module.SUMMARY_BEGIN) and summary.endswith(module.SUMMARY_END)
    assert f"- C++ {mono['label']}: " in summary and "target <= 1.0x" in summary


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
