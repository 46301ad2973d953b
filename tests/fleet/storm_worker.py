"""Claim-storm worker, Python: N threads each construct a generator on one node source at
one agreed instant and hold the slots until SIGTERM (or 120 s). Same line protocol
as tests/storm_worker.cc:

    python storm_worker.py SOURCE GENERATORS LAYOUT START_AT_UNIX_MS
"""
import signal
import sys
import threading
import time

import snowfleet

source, count, layout, start_at = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
lock = threading.Lock()
gens, refused = [], 0


def out(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def claim():
    global refused
    t0 = time.perf_counter()
    try:
        g = snowfleet.Generator(node_source=source, layout=layout)
    except snowfleet.SnowfleetError as e:
        with lock:
            refused += 1
        out(f"error {e.code} {int((time.perf_counter() - t0) * 1e6)} {e}")
        return
    with lock:
        gens.append(g)
    out(f"claimed {g.node_id} {int((time.perf_counter() - t0) * 1e6)}")


time.sleep(max(0.0, start_at / 1000 - time.time()))
threads = [threading.Thread(target=claim) for _ in range(count)]
for t in threads:
    t.start()
for t in threads:
    t.join()
out(f"ready {len(gens)} {refused}")
for g in gens:
    try:
        out(f"ids {time.time_ns() // 1_000_000} {' '.join(map(str, g.next_ids(4)))}")
    except snowfleet.SnowfleetError as e:  # a held slot refusing (fenced); keep holding
        out(f"error {e.code} 0 {e}")
stop.wait(120)
for g in gens:
    g.close()
out("closed")
