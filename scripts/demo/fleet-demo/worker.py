"""Polyglot fleet demo, Python worker: leases a node id from a node source, mints for a
few seconds, prints the fleet line protocol (see scripts/demo/fleet_summary.py).

    python worker.py SOURCE SECONDS [LAYOUT]
"""
import sys
import time

import snowfleet

source, seconds = sys.argv[1], float(sys.argv[2])
layout = sys.argv[3] if len(sys.argv) > 3 else None
out = sys.stdout
with snowfleet.Generator(node_source=source, layout=layout) as gen:
    out.write(f"node {gen.node_id} {gen.status().mark_ms}\n")
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        wall = time.time_ns() // 1_000_000
        try:
            ids = gen.next_ids(64)
        except snowfleet.SnowfleetError as e:
            out.write(f"error {e.code} {wall} {e}\n")
            time.sleep(0.01)
            continue
        out.write(f"ids {wall} {' '.join(map(str, ids))}\n")
        out.flush()
        time.sleep(0.0005)
    out.write(f"closed {gen.stats().ids_issued} {gen.stats().mark_writes}\n")
