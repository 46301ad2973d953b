"""A claim that etcd applied but answered "request timed out" (HTTP 503, gRPC code 14: the
proposal's outcome unknown, so the request moves on to the next member). The next member
finds the slot key already created, by this very claim: the claim must take the slot it
holds, not lose the race against itself, pick another slot and leave the first one held
by its lease, unused, until the process ends.

A fake member listed first forwards every request to a real etcd and answers the first
claim transaction with the 503 after etcd has applied it.

    SNOWFLEET_TEST_ETCD=127.0.0.1:2379 python3 tests/faults/retried_claim_test.py
"""
import base64
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fake_etcd import TIMED_OUT, in_front_of, post  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("SNOWFLEET_CLI", os.path.join(ROOT, "out/b/core/snowfleet"))
ETCD = os.environ.get("SNOWFLEET_TEST_ETCD")


def keys_under(prefix):
    start = prefix + "/slots/"
    end = start[:-1] + chr(ord(start[-1]) + 1)
    r = post(ETCD, "/v3/kv/range", {"key": base64.b64encode(start.encode()).decode(),
                              "range_end": base64.b64encode(end.encode()).decode(),
                              "keys_only": True})
    return sorted(base64.b64decode(kv["key"]).decode() for kv in r.get("kvs", []))


class RetriedClaim(unittest.TestCase):
    def run_cli(self, layout, prefix):
        timed_out = []

        def answer(path, body):
            applied = post(ETCD, path, body)
            # A slot's claim, not the genesis's creation (also create_revision == 0).
            claim = path == "/v3/kv/txn" and any(
                c.get("create_revision") == "0" and
                b"/slots/" in base64.b64decode(c.get("key", ""))
                for c in body.get("compare", []))
            if claim and not timed_out:
                timed_out.append(applied.get("succeeded", False))
                return (503, TIMED_OUT)
            return applied

        fake = in_front_of(ETCD, answer)
        self.addCleanup(fake.close)
        src = f"etcd://{fake.endpoint},{ETCD}/{prefix}?ttl=5"
        p = subprocess.run([CLI, "next", "--node-source", src, "--layout", layout, "-n", "2"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(timed_out, [True], "the first claim was applied, then answered 503")
        return p

    def test_the_only_slot_applied_then_timed_out_is_taken(self):
        if not ETCD:
            self.fail("SNOWFLEET_TEST_ETCD is not set")
        prefix = f"retried-one-{os.getpid()}"
        p = self.run_cli("41.0.22@1704067200000", prefix)
        # Before: "no free node id ... (1 of 1 slots held)": the claim lost to itself.
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.split()), 2)
        self.assertEqual(keys_under(prefix), [])  # released at exit


if __name__ == "__main__":
    unittest.main(verbosity=2)
