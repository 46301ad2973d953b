"""Host-shared node id worker, Python: joins a node source (local:DIR?share=NAME), says
which node id it got, waits for `go END_UNIX_MS` on stdin, then mints in batches as fast as
it can until END_UNIX_MS. Every batch's ids go to RUNFILE as runs of consecutive ids, one
`FIRST COUNT` line each, written (unbuffered) after each batch, so a SIGKILLed worker leaves
every id it was handed but the batch in flight. Same protocol as share_worker.js and
ShareWorker.java (tests/fleet/share_test.py):

    python share_worker.py SOURCE RUNFILE BATCH

stdout: `node N MARK`, `minting UNIX_MS`, `error CODE UNIX_MS MESSAGE` (a refused call; it
tries again), `closed IDS MARK_WRITES MARK_WRITE_FAILURES` (ids this process was handed, and
its generator's counters).
"""
import os
import sys
import time

import snowfleet

source, runfile, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def runs(ids):
    """`FIRST COUNT` lines for the runs of consecutive ids in `ids`; an id not above the one
    before it starts a run of its own, so the test sees it."""
    lines, first, prev, count = [], None, None, 0
    for i in ids:
        if prev is not None and i == prev + 1:
            count += 1
        else:
            if first is not None:
                lines.append(f"{first} {count}\n")
            first, count = i, 1
        prev = i
    if first is not None:
        lines.append(f"{first} {count}\n")
    return "".join(lines).encode()


fd = os.open(runfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
with snowfleet.Generator(node_source=source) as gen:
    out(f"node {gen.node_id} {gen.status().mark_ms}")
    end_ms = int(sys.stdin.readline().split()[1])
    out(f"minting {time.time_ns() // 1_000_000}")
    handed = 0
    while time.time_ns() // 1_000_000 < end_ms:
        try:
            ids = gen.next_ids(batch)
        except snowfleet.SnowfleetError as e:
            out(f"error {e.code} {time.time_ns() // 1_000_000} {e}")
            time.sleep(0.001)
            continue
        os.write(fd, runs(ids))
        handed += len(ids)
    st = gen.stats()
    out(f"closed {handed} {st.mark_writes} {st.mark_write_failures}")
os.close(fd)
