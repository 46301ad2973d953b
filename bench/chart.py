#!/usr/bin/env python3
"""Draws docs/performance.svg: ns per id of snowfleet beside each peer, one panel per language.

    python3 bench/chart.py --from-dir out/bench   # collect a run's bench JSON, then draw
    python3 bench/chart.py                        # redraw from docs/performance.json
    python3 bench/chart.py --data D.json --svg S.svg [--markdown docs/performance.md]

scripts/bench/chart.sh runs the benches with --json into out/bench/ and then this
script with --from-dir. Collecting writes the run's data file (default docs/performance.json:
the benches' rows plus the machine, the date and the load averages read between benches);
drawing reads only that file, so the same data file always gives the same SVG bytes.
--markdown rewrites the chart's table (between two marker lines) from the same file, and
--summary the README's summary of the targets (between two marker lines of its own).

Collecting also divides each row RATIOS names by its basis row of the same bench (a clock
read, or the peer it must beat) and keeps the quotient and the target in the row's "ratio";
the table and the summary print them.

Bench JSON form (--json of bench/run.py, python/bench/bench.py and bench_uuid7.py,
node/bench/bench.js and bench_uuid7.js, and PairedBench): {"schema": "snowfleet-bench/1", "language", "runtime", "command", "rows": [{"key",
"label", "group": snowfleet | peer | reference | variant, "family": snowflake | uuid7,
"ns_per_id": median, ...}]}. The chart draws the rows of groups snowfleet and peer: a panel
per bench for the Snowflake ids, then one per bench that has UUIDv7 rows.

matplotlib runs from a venv this script makes (out/chart-venv, the exact versions in
bench/chart-requirements.txt), never the system's: the SVG depends on matplotlib's version, and
svg.hashsalt plus an empty Date keep it byte-identical from one render to the next.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(os.environ.get("SNOWFLEET_CHART_VENV", ROOT / "out" / "chart-venv"))
REQUIREMENTS = Path(__file__).with_name("chart-requirements.txt")
BENCH_FILES = ("cpp.json", "python.json", "python-uuid7.json", "node.json", "node-uuid7.json",
               "java.json")
FAMILIES = {"snowflake": "", "uuid7": ", UUIDv7"}  # panel order: every Snowflake panel first
CAP_NS = 1e9 / 4_096_000  # the format's 4,096 ids per ms: a strict generator's floor
COLORS = {"snowfleet": "#1f6fb4", "peer": "#e07b24"}


# (language, row key, basis row key, basis as the table names it, target: the most the ratio
# may be, or None for a ratio shown without a target). Rows and bases of one bench, so both
# figures come from the same process and minutes.
RATIOS = (
    ("C++", "mono", "clock", "one clock_gettime", 1.0),
    ("C++", "monoPlain", "clockPlain", "one clock_gettime", 1.3),
    ("C++", "uuid7", "clock", "one clock_gettime", 1.3),
    ("C++", "strict", "seed", "the mutex + spin peer", None),
    ("C++", "shared", "mutexShared", "the mutex version", None),
    ("Python", "snowfleet next_uuid7 (uuid.UUID)", "uuid_utils.uuid7() (Rust, its UUID)",
     "uuid_utils.uuid7()", 0.8),
    ("Python", "snowfleet next_uuid7_str (str)", "uuid_utils.uuid7() (Rust, its UUID)",
     "uuid_utils.uuid7()", None),
    ("Python", "snowfleet monotonic next_id", "ref time.time_ns()", "time.time_ns()", None),
    ("Node", "mono", "hrtime", "process.hrtime.bigint()", None),
    ("Java", "monotonicNextId", "tsidCreator", "tsid-creator", 0.7),
    ("Java", "monotonicNextId2Threads", "tsidCreator2Threads", "tsid-creator, 2 threads", 1.0),
    ("Java", "uuid7NextUuid7", "uuidCreatorV7Fast", "uuid-creator's fast variant", None),
)


class InputError(Exception):
    """A data or bench file that cannot be charted; the message names the file and the rule."""


def base_python() -> str:
    """A CPython the pinned versions install on (numpy 2.4 needs 3.11 or later): this one, or
    else the first python3.11, 3.12, 3.13 on PATH (a test may run under an older venv)."""
    if sys.version_info >= (3, 11):
        return sys.executable
    for name in ("python3.11", "python3.12", "python3.13", "/usr/bin/python3"):
        found = shutil.which(name)
        if found and subprocess.run([found, "-c", "import sys, venv; "
                                     "sys.exit(sys.version_info < (3, 11))"]).returncode == 0:
            return found
    raise SystemExit("chart: needs CPython 3.11 or later to make its venv (python3.11 on PATH)")


def ensure_venv() -> None:
    """Re-runs this script under out/chart-venv's Python, making the venv first if it is
    missing or holds other versions than chart-requirements.txt."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    python = VENV / "bin" / "python"
    stamp = VENV / "chart-requirements.txt"
    wanted = REQUIREMENTS.read_text(encoding="utf-8")
    if not python.exists() or not stamp.exists() or stamp.read_text(encoding="utf-8") != wanted:
        base = base_python()
        print(f"chart: making {VENV} with {base} (matplotlib, {REQUIREMENTS.name})",
              file=sys.stderr)
        subprocess.run([base, "-m", "venv", "--clear", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "--no-deps", "-r", str(REQUIREMENTS)], check=True)
        shutil.copyfile(REQUIREMENTS, stamp)
    os.execv(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]])


def load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not JSON ({e})") from None


def check_bench(doc: Any, where: str) -> Dict[str, Any]:
    """A bench JSON document, checked: every row has a label, a group and a positive,
    finite ns_per_id (the chart's axis is logarithmic)."""
    if not isinstance(doc, dict) or doc.get("schema") != "snowfleet-bench/1":
        schema = doc.get("schema") if isinstance(doc, dict) else doc
        raise InputError(f"{where}: schema is {schema!r}, expected snowfleet-bench/1")
    for key in ("language", "runtime", "command", "rows"):
        if key not in doc:
            raise InputError(f"{where}: no {key!r}")
    for i, row in enumerate(doc["rows"]):
        for key in ("key", "label", "group", "family", "ns_per_id"):
            if key not in row:
                raise InputError(f"{where}: row {i} has no {key!r}")
        ns = row["ns_per_id"]
        if not isinstance(ns, (int, float)) or not math.isfinite(ns) or ns <= 0:
            raise InputError(f"{where}: row {row['key']!r} has ns_per_id {ns!r}; it must be a "
                             "positive finite number")
    return doc


def read_loadavg(path: Path) -> float:
    """The 1-minute load average from a copy of /proc/loadavg."""
    try:
        return float(path.read_text(encoding="utf-8").split()[0])
    except (FileNotFoundError, IndexError, ValueError):
        raise InputError(f"{path}: not a copy of /proc/loadavg") from None


def machine() -> str:
    """CPU model, CPU count and kernel of this host (where the run was collected)."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, Linux {os.uname().release}"


def collect(run_dir: Path) -> Dict[str, Any]:
    """The data of one run of scripts/bench/chart.sh: its bench files, the start time it
    wrote to `started`, and the loadavg-* copies it took before and after each bench."""
    benches = [check_bench(load_json(run_dir / name), str(run_dir / name)) for name in BENCH_FILES]
    loads = [read_loadavg(p) for p in sorted(run_dir.glob("loadavg-*"))]
    if not loads:
        raise InputError(f"{run_dir}: no loadavg-* files (scripts/bench/chart.sh writes them)")
    try:
        started = (run_dir / "started").read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise InputError(f"{run_dir}/started: no such file (scripts/bench/chart.sh writes it)") \
            from None
    for bench in benches:
        add_ratios(bench)
    return {"schema": "snowfleet-bench-run/1", "machine": machine(), "date": started,
            "load_1min": {"min": min(loads), "max": max(loads), "readings": len(loads)},
            "benches": benches}


def add_ratios(bench: Dict[str, Any]) -> None:
    """Gives each row RATIOS names in this bench its "ratio": {"basis", "basis_label",
    "value", "target"} (value: the row's ns per id over the basis row's)."""
    by_key = {r["key"]: r for r in bench["rows"]}
    for language, key, basis, basis_label, target in RATIOS:
        if language != bench["language"] or key not in by_key or basis not in by_key:
            continue
        by_key[key]["ratio"] = {"basis": basis, "basis_label": basis_label,
                                "value": by_key[key]["ns_per_id"] / by_key[basis]["ns_per_id"],
                                "target": target}


def bases(bench: Dict[str, Any]) -> List[str]:
    """Keys of the rows some ratio of this bench is taken against."""
    return [r["ratio"]["basis"] for r in bench["rows"] if "ratio" in r]


def ratio_cell(row: Dict[str, Any]) -> Tuple[str, str]:
    """(ratio, target) cells of a table row: "0.48x one clock_gettime", "<= 1.0x: met"."""
    ratio = row.get("ratio")
    if not ratio:
        return "", ""
    target = ratio["target"]
    verdict = "" if target is None else \
        f"<= {target:.1f}x: {'met' if ratio['value'] <= target else 'missed'}"
    return f"{ratio['value']:.3f}x {ratio['basis_label']}", verdict


def check_data(data: Any, where: str) -> Dict[str, Any]:
    if not isinstance(data, dict) or data.get("schema") != "snowfleet-bench-run/1":
        raise InputError(f"{where}: schema is not snowfleet-bench-run/1")
    for key in ("machine", "date", "load_1min", "benches"):
        if key not in data:
            raise InputError(f"{where}: no {key!r}")
    for i, bench in enumerate(data["benches"]):
        check_bench(bench, f"{where}: benches[{i}]")
    return data


def charted(bench: Dict[str, Any], family: str) -> List[Dict[str, Any]]:
    """The rows a panel shows: snowfleet's, then its peers', in the bench's own order."""
    rows = [r for r in bench["rows"] if r["family"] == family]
    return ([r for r in rows if r["group"] == "snowfleet"] +
            [r for r in rows if r["group"] == "peer"])


def figure(ns: float) -> str:
    """A bar's value label: three significant digits, whole numbers with thousands commas."""
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.3g}"


def panels(data: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any], List[Dict[str, Any]]]]:
    """(title, bench, rows) of every panel: per family, each bench that has rows of it."""
    out = []
    for family, suffix in FAMILIES.items():
        for bench in data["benches"]:
            rows = charted(bench, family)
            if rows:
                out.append((f"{bench['language']}{suffix}", bench, rows))
    return out


def table_panels(data: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any], List[Dict[str, Any]]]]:
    """The chart's panels with, in the table only, the other rows a ratio needs (a clock
    read, the TSC window off) after each bench's first Snowflake panel."""
    out = []
    for title, bench, rows in panels(data):
        if rows[0]["family"] == "snowflake":
            needed = set(bases(bench)) | {r["key"] for r in bench["rows"] if "ratio" in r}
            rows = rows + [r for r in bench["rows"] if r["family"] == "snowflake" and
                           r["key"] in needed and r not in rows]
        out.append((title, bench, rows))
    return out


def summary(data: Dict[str, Any]) -> str:
    """The README's lines: each row with a target, its figure, ratio and verdict, from the
    same data file as the table."""
    load = data["load_1min"]
    lines = [SUMMARY_BEGIN,
             f"From one run of `bash scripts/bench/chart.sh` ({data['date']}, {data['machine']}, "
             f"1-min load {load['min']:.1f}-{load['max']:.1f}); medians, ns per id:", ""]
    for bench in data["benches"]:
        by_key = {r["key"]: r for r in bench["rows"]}
        for r in bench["rows"]:
            ratio = r.get("ratio")
            if not ratio or ratio["target"] is None:
                continue
            basis = by_key[ratio["basis"]]
            verdict = "met" if ratio["value"] <= ratio["target"] else "missed"
            lines.append(f"- {bench['language']} {r['label']}: {figure(r['ns_per_id'])} ns, "
                         f"{ratio['value']:.3f}x {ratio['basis_label']} "
                         f"({figure(basis['ns_per_id'])} ns); target <= {ratio['target']:.1f}x, "
                         f"{verdict}")
    strict = [(b["language"], r) for b in data["benches"] for r in b["rows"]
              if r["group"] == "snowfleet" and r["family"] == "snowflake" and
              r["label"].startswith("strict") and "next_ids" not in r["label"]]
    if strict:
        lines.append("- strict next_id (the format's cap, 4,096 ids per ms, is 244 ns/id): " +
                     ", ".join(f"{lang} {figure(r['ns_per_id'])}" for lang, r in strict))
    lines.append(SUMMARY_END)
    return "\n".join(lines)


SUMMARY_BEGIN = "<!-- bench/chart.py summary: begin -->"
SUMMARY_END = "<!-- bench/chart.py summary: end -->"
TABLE_BEGIN = "<!-- bench/chart.py table: begin -->"
TABLE_END = "<!-- bench/chart.py table: end -->"


def table(data: Dict[str, Any]) -> str:
    """The chart's figures as a Markdown table, with the run's machine, date, load and
    commands: what --markdown puts between the TABLE_BEGIN and TABLE_END lines."""
    load = data["load_1min"]
    lines = [TABLE_BEGIN,
             f"Run {data['date']} on {data['machine']}; 1-min load average "
             f"{load['min']:.1f}-{load['max']:.1f} over {load['readings']} readings "
             "(before and after each bench).", "",
             "| language | row | snowfleet or peer | ns/id | ratio | target |",
             "| --- | --- | --- | ---: | --- | --- |"]
    for title, _, rows in table_panels(data):
        for r in rows:
            ratio, target = ratio_cell(r)
            lines.append(f"| {title} | {r['label']} | {r['group']} | {figure(r['ns_per_id'])} "
                         f"| {ratio} | {target} |")
    lines.append("")
    counted = [(b["language"], r) for b in data["benches"] for r in b["rows"]
               if "instructions_per_id" in r]
    if counted:
        lines.append("Instructions per call (valgrind's callgrind, `bench/run.py`): " +
                     "; ".join(f"{lang} {r['label']} {r['instructions_per_id']:.1f}"
                               for lang, r in counted) + ".")
        lines.append("")
    lines.append("Commands: " + "; ".join(f"{b['language']} `{b['command']}` ({b['runtime']})"
                                          for b in data["benches"]) + ".")
    lines.append(TABLE_END)
    return "\n".join(lines)


def with_table(markdown: Path, data: Dict[str, Any], begin: str = TABLE_BEGIN,
               end: str = TABLE_END, block: Any = table) -> str:
    """The text of `markdown` with the block between its markers (one pair required)
    redrawn: the table, or with SUMMARY_BEGIN/END and summary the README's lines."""
    try:
        text = markdown.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{markdown}: no such file") from None
    if text.count(begin) != 1 or text.count(end) != 1:
        raise InputError(f"{markdown}: needs exactly one {begin!r} line and one "
                         f"{end!r} line")
    head, rest = text.split(begin)
    tail = rest.split(end)[1]
    return head + block(data) + tail


def render(data: Dict[str, Any], svg: Path) -> None:
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({
        "svg.hashsalt": "snowfleet-performance",  # fixed clip-path ids
        "svg.fonttype": "none",  # text stays text: diffable, and no glyph paths
        "font.family": "DejaVu Sans",
        "font.size": 9,
    })
    shown = panels(data)
    heights = [len(rows) for _, _, rows in shown]
    fig, axes = plt.subplots(len(shown), 1, figsize=(9, 1.2 + 0.3 * sum(heights)),
                             sharex=True, gridspec_kw={"height_ratios": heights})
    axes = list(axes) if len(shown) > 1 else [axes]
    values = [r["ns_per_id"] for _, _, rows in shown for r in rows]
    lo = 10 ** math.floor(math.log10(min(values + [CAP_NS])))
    hi = 10 ** math.ceil(math.log10(max(values + [CAP_NS]) * 3))  # room for the value labels
    for ax, (title, bench, rows) in zip(axes, shown):
        ys = list(range(len(rows)))
        ax.barh(ys, [r["ns_per_id"] for r in rows], color=[COLORS[r["group"]] for r in rows],
                height=0.7)
        for y, r in zip(ys, rows):
            ax.text(r["ns_per_id"] * 1.08, y, figure(r["ns_per_id"]), va="center", fontsize=8)
        ax.set_yticks(ys, [r["label"] for r in rows])
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlim(lo, hi)
        if rows[0]["family"] == "snowflake":
            ax.axvline(CAP_NS, color="#777777", linestyle=":", linewidth=1)
        ax.set_title(f"{title} ({bench['runtime']})", loc="left", fontsize=9, fontweight="bold")
        ax.grid(axis="x", which="major", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
    axes[-1].set_xlabel("ns per id, log scale (shorter is faster); medians")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in COLORS.values()]
    handles.append(plt.Line2D([], [], color="#777777", linestyle=":", linewidth=1))
    fig.legend(handles, [*COLORS, "4,096 ids/ms cap (244 ns/id)"], loc="upper right", ncol=3,
               frameon=False)
    load = data["load_1min"]
    fig.suptitle("snowfleet beside its peers, per language", x=0.01, ha="left",
                 fontweight="bold")
    fig.text(0.01, 0.005,
             f"{data['machine']}; run {data['date']}; 1-min load average "
             f"{load['min']:.1f}-{load['max']:.1f} (a shared machine)", fontsize=7,
             color="#555555")
    fig.tight_layout(rect=(0, 0.02, 1, 0.98))
    svg.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(svg, format="svg", metadata={"Date": None})
    plt.close(fig)


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--from-dir", type=Path, help="collect this run directory into --data first")
    ap.add_argument("--data", type=Path, default=ROOT / "docs" / "performance.json")
    ap.add_argument("--svg", type=Path, default=ROOT / "docs" / "performance.svg")
    ap.add_argument("--markdown", type=Path,
                    help="also rewrite the chart's table in this file (docs/performance.md)")
    ap.add_argument("--summary", type=Path,
                    help="also rewrite the summary of the targets in this file (README.md)")
    args = ap.parse_args(argv)
    ensure_venv()
    try:  # every input is checked before any file is written
        if args.from_dir:
            data = check_data(collect(args.from_dir), str(args.from_dir))
        else:
            data = check_data(load_json(args.data), str(args.data))
        if not panels(data):
            raise InputError(f"{args.data}: no snowfleet or peer rows to chart")
        markdown = with_table(args.markdown, data) if args.markdown else None
        readme = with_table(args.summary, data, SUMMARY_BEGIN, SUMMARY_END, summary) \
            if args.summary else None
    except InputError as e:
        print(f"chart: {e}", file=sys.stderr)
        return 2
    if args.from_dir:
        args.data.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.markdown and markdown is not None:
        args.markdown.write_text(markdown, encoding="utf-8")
    if args.summary and readme is not None:
        args.summary.write_text(readme, encoding="utf-8")
    render(data, args.svg)
    print(f"chart: wrote {args.svg} from {args.data}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
