"""Interpreter exit while daemon threads mint: the process exits cleanly (status 0, nothing on
stderr), as it does when daemon threads run only standard-library code.

Before CPython 3.14, a thread that re-takes the GIL once finalization has started is ended with
pthread_exit(), which unwinds through the C++ frames below it (aborting in a catch(...) or a
noexcept destructor, or dropping Python references without the GIL). The binding parks such a
thread instead, and runs no Python code under its C++ frames where a thread could reach that
point another way (building ClockMovedBackwards ran its Python __init__ there, and the
zig-built wheels crashed in the unwind). Each scenario runs in a fresh interpreter several
times, because the crash needs a daemon thread to be inside a wait at the moment the main
thread exits."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict

import pytest

from conftest import EPOCH

RUNS = 5

# Every script starts daemon threads, lets them mint for 0.2 s, prints what shows that they
# did wait (the GIL changed hands inside the core) and falls off the end of the module.
PRELUDE = """\
import sys, threading, time
from snowfleet import ClockMovedBackwards, Generator
from snowfleet.testing import ScriptedClock

def start(count, target):
    for _ in range(count):
        threading.Thread(target=target, daemon=True).start()
"""

SCENARIOS: Dict[str, str] = {
    # The reference's strict mode at the 4,096 ids/ms cap: single ids wait for the next ms.
    "strict_single_ids": """
        gen = Generator(7)
        def mint():
            while True:
                gen.next_id()
        start(2, mint)
        time.sleep(0.2)
        print(gen.stats().waits)
    """,
    # Batches below the GIL-release size: the GIL is released only by the wait hooks.
    "four_threads_next_ids_100": """
        gen = Generator(7)
        def mint():
            while True:
                gen.next_ids(100)
        start(4, mint)
        time.sleep(0.2)
        print(gen.stats().waits)
    """,
    # Monotonic with a tight drift limit: waits inside large batches, run without the GIL.
    "monotonic_batches": """
        gen = Generator(7, mode="monotonic", max_drift_ms=2)
        def mint_batches():
            while True:
                gen.next_ids(1000)
        def mint_single():
            while True:
                gen.next_id()
        start(2, mint_batches)
        start(1, mint_single)
        time.sleep(0.2)
        print(gen.stats().waits)
    """,
    # A scripted clock that advances 1 ms every 5,000 readings: the waits take no real time,
    # so the GIL is released and re-taken as fast as the threads can go.
    "scripted_clock": f"""
        gen = Generator(7, clock=ScriptedClock([({EPOCH} + 86400000, 1, 1, 5000)]))
        def mint():
            while True:
                try:
                    gen.next_ids(100)
                    gen.next_id()
                except ClockMovedBackwards:
                    pass
        start(3, mint)
        time.sleep(0.2)
        print(gen.stats().waits)
    """,
    # A leased node id: lease steps (mark writes, waiting for another thread's) call the
    # hooks too, and the lease must not hang the exit.
    "leased_node_id": """
        gen = Generator(node_source="local:" + sys.argv[1])
        def mint():
            while True:
                gen.next_ids(100)
                gen.next_id()
        start(3, mint)
        time.sleep(0.2)
        print(gen.stats().waits)
    """,
    # An atexit callback registered after the import runs before the binding's own, while
    # threads may still come back from a wait: it can stop and join them.
    "atexit_joins_threads": """
        import atexit, os
        gen = Generator(7)
        stop = threading.Event()
        def mint():
            while not stop.is_set():
                gen.next_ids(100)
        threads = [threading.Thread(target=mint, daemon=True) for _ in range(4)]
        for t in threads:
            t.start()
        def stop_and_join():
            stop.set()
            for t in threads:
                t.join(10)
                if t.is_alive():
                    os._exit(3)
        atexit.register(stop_and_join)
        time.sleep(0.2)
        print(gen.stats().waits)
    """,
    # Whole generator lifetimes in daemon threads: construction and batches release the GIL
    # for a scope (not through the hooks), close() runs at any moment.
    "lifetimes_in_threads": """
        waits = []
        def live():
            while True:
                with Generator(7) as g:
                    g.next_ids(600)
                    g.next_ids(5000)
                    waits.append(g.stats().waits)
        start(3, live)
        time.sleep(0.2)
        print(sum(waits))
    """,
}


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_exit_with_daemon_threads_minting_is_clean(scenario: str, tmp_path: Path) -> None:
    script = tmp_path / f"{scenario}.py"
    script.write_text(PRELUDE + textwrap.dedent(SCENARIOS[scenario]))
    failures = []
    waited = 0
    for run in range(RUNS):
        # A registry of its own per run: a slot the previous run held keeps a high-water mark
        # about 1 s ahead of the clock, and a run that claimed it again would be refused
        # (ClockMovedBackwards, as docs/fleet.md says) instead of testing the exit.
        lease_dir = tmp_path / f"leases-{run}"
        lease_dir.mkdir()
        # cwd outside the tree: `import snowfleet` is the installed package.
        p = subprocess.run(
            [sys.executable, str(script), str(lease_dir)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if p.returncode != 0 or p.stderr:
            failures.append(f"run {run}: status {p.returncode}, stderr {p.stderr[-300:]!r}")
        elif int(p.stdout) > 0:
            waited += 1
    assert not failures, "\n".join(failures)
    # The scenario exercised what it is about: threads were inside the core's waits.
    assert waited > 0
