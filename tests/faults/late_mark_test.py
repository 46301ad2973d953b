"""A mark write that etcd answered "request timed out" (HTTP 503, gRPC code 14: the outcome
unknown) and applied later, after the write the request then sent to the next member and
after the keeper's later, higher marks. etcd says of that answer that the request may
still be applied; a proposal a follower forwarded over a slow peer link is appended behind
writes made meanwhile through another member.

The mark is the promise a slot's next holder starts from ("the previous holders may have
issued ids up to the claimed mark", core/src/mint/generator.cc): a stale write that lands late
puts it back below ids the holder already issued. If the holder then dies, the mark stays
there, and a successor whose clock runs behind by more than the gap mints the same ids.

A fake member listed first forwards every request to a real etcd, answers the first mark
transaction 503 without forwarding it, and sends that very transaction to etcd DELAY
seconds later (the late landing); the holder is killed at once. Before the mark write's
compare on the mark key's mod_revision: the mark ended 2,023 ms below ids issued.

    SNOWFLEET_TEST_ETCD=127.0.0.1:2379 python3 tests/faults/late_mark_test.py
"""
import base64
import os
import signal
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fake_etcd import TIMED_OUT, in_front_of, post  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKER = os.environ.get("FLEET_WORKER", os.path.join(ROOT, "out/b/tests/fleet_worker"))
ETCD = os.environ.get("SNOWFLEET_TEST_ETCD")
DELAY = 5.0  # the TTL is 2: the first mark covers about 3 s past the claim


def mark_of(prefix, node):
    key = f"{prefix}/marks/{node:04d}"
    r = post(ETCD, "/v3/kv/range", {"key": base64.b64encode(key.encode()).decode()})
    return int(base64.b64decode(r["kvs"][0]["value"]))


def is_mark_write(path, body):
    return path == "/v3/kv/txn" and any(
        "/marks/" in base64.b64decode(op.get("request_put", {}).get("key", "")).decode()
        for op in body.get("success", []))


class LateMark(unittest.TestCase):
    def test_a_mark_write_applied_late_never_leaves_the_mark_below_issued_ids(self):
        if not ETCD:
            self.fail("SNOWFLEET_TEST_ETCD is not set")
        landed = threading.Event()
        held = []

        def answer(path, body):
            if is_mark_write(path, body) and not held:
                held.append(body)

                def late():
                    time.sleep(DELAY)
                    post(ETCD, path, body)  # etcd applies the proposal now
                    landed.set()
                threading.Thread(target=late, daemon=True).start()
                return (503, TIMED_OUT)
            return None  # forwarded

        fake = in_front_of(ETCD, answer)
        self.addCleanup(fake.close)
        prefix = f"late-mark-{os.getpid()}"
        src = f"etcd://{fake.endpoint},{ETCD}/{prefix}?ttl=2"
        w = subprocess.Popen([WORKER, "--source", src, "--seconds", "30", "--burst", "10",
                              "--pause-us", "20000"], stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: (w.poll() is None and w.kill(), w.wait()))
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(w.stdout), daemon=True)
        reader.start()
        self.assertTrue(landed.wait(DELAY + 20), "the held mark write was never sent")
        w.send_signal(signal.SIGKILL)  # the holder dies: the mark stays as it is now
        w.wait()
        reader.join(5)
        node = next(int(l.split()[1]) for l in lines if l.startswith("node "))
        # wall_ms read before each burst: the ids of the burst are at or past it.
        issued_ms = max(int(l.split()[1]) for l in lines if l.startswith("ids "))
        mark = mark_of(prefix, node)
        print(f"\nslot {node}: mark {mark} after the late write, ids issued at {issued_ms} ms "
              f"or later (mark {mark - issued_ms:+d} ms)", file=sys.stderr)
        self.assertGreaterEqual(mark, issued_ms, "the late write moved the mark below issued ids")


if __name__ == "__main__":
    unittest.main(verbosity=2)
