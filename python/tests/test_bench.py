"""python/bench/bench.py still runs (a tiny smoke run; no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT

BENCH = REPO_ROOT / "python" / "bench" / "bench.py"


def test_bench_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    proc = subprocess.run([sys.executable, str(BENCH), "--smoke", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for row in ("snowfleet strict next_id", "snowfleet monotonic next_id",
                "snowfleet next_ids(10_000)", "peer seed Snowflake.next_id",
                "ref bare pybind11 call", "ref time.time_ns()"):
        assert row in proc.stdout, row
    assert "ratios and targets" in proc.stdout
    assert out.stat().st_size > 0
