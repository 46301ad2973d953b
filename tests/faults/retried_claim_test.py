"""A claim that etcd applied but answered "request timed out" (HTTP 503, gRPC code 14: the
proposal's outcome unknown, so the request moves on to the next member). The next member
finds the slot key already created, by this very claim: the claim must take the slot it
holds, not lose the race against itself, pick another slot and leave the first one held
by its lease, unused, until the process ends.

A fake member listed first forwards every request to a real etcd and answers the first
claim transaction with the 503 after etcd has applied it.

The claims of one process made at once share a transaction (a batch, core/src/lease/etcd/
etcd_claim_batch.hpp): the same for a batch, with the fake member listed first (the batch
moves on to the real etcd) and with the fake member the only one (no other member to ask:
the request gets no answer). Each claimant must get the slot the applied batch created for
it, and no slot may stay held by the process's lease with no generator on it.

    SNOWFLEET_TEST_ETCD=127.0.0.1:2379 STORM_WORKER=out/b/tests/storm_worker \
        python3 tests/faults/retried_claim_test.py
"""
import base64
import os
import signal
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fake_etcd import TIMED_OUT, in_front_of, post  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("SNOWFLEET_CLI", os.path.join(ROOT, "out/b/core/snowfleet"))
STORM = os.environ.get("STORM_WORKER", os.path.join(ROOT, "out/b/tests/storm_worker"))
ETCD = os.environ.get("SNOWFLEET_TEST_ETCD")


def keys_under(prefix):
    start = prefix + "/slots/"
    end = start[:-1] + chr(ord(start[-1]) + 1)
    r = post(ETCD, "/v3/kv/range", {"key": base64.b64encode(start.encode()).decode(),
                              "range_end": base64.b64encode(end.encode()).decode(),
                              "keys_only": True})
    return sorted(base64.b64decode(kv["key"]).decode() for kv in r.get("kvs", []))


def single_claim(path, body):
    """A slot's claim on its own compare, not the genesis's creation (also create_revision
    == 0)."""
    return path == "/v3/kv/txn" and any(
        c.get("create_revision") == "0" and b"/slots/" in base64.b64decode(c.get("key", ""))
        for c in body.get("compare", []))


class RetriedClaim(unittest.TestCase):
    def run_cli(self, layout, prefix):
        timed_out = []

        def answer(path, body):
            applied = post(ETCD, path, body)
            if single_claim(path, body) and not timed_out:
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


def batch_size(path, body):
    """How many claims a batch of claims holds (0: not a batch): one nested transaction
    each."""
    if path != "/v3/kv/txn" or body.get("compare"):
        return 0
    return sum(1 for op in body.get("success", []) if "request_txn" in op)


class RetriedBatch(unittest.TestCase):
    GENERATORS = 4

    def run_worker(self, prefix, fake_only, lost):
        """A storm worker whose generators claim at once through a fake member in front of
        etcd: the first claim's answer waits 0.3 s, so the others gather in a batch; the first
        batch of two or more claims is applied, then answered "request timed out" (`lost`:
        answered 2 s later, past the time the request gives the member). Returns the nodes
        claimed, the refusals and the slot keys held meanwhile."""
        state = {"first": True, "batch": 0}

        def answer(path, body):
            if single_claim(path, body) and state["first"]:
                state["first"] = False
                applied = post(ETCD, path, body)
                time.sleep(0.3)
                return applied
            n = batch_size(path, body)
            if n >= 2 and not state["batch"]:
                applied = post(ETCD, path, body)
                state["batch"] = n
                if lost:
                    time.sleep(2)
                    return applied
                return (503, TIMED_OUT)
            return None

        fake = in_front_of(ETCD, answer)
        self.addCleanup(fake.close)
        members = fake.endpoint if fake_only else f"{fake.endpoint},{ETCD}"
        p = subprocess.Popen([STORM, "--source", f"etcd://{members}/{prefix}?ttl=5",
                              "--generators", str(self.GENERATORS), "--hold-seconds", "60"],
                             stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        claimed, refused = [], []
        for line in p.stdout:
            if line.startswith("claimed "):
                claimed.append(int(line.split()[1]))
            elif line.startswith("error "):
                refused.append(line.strip())
            elif line.startswith("ready "):
                break
        held = keys_under(prefix)
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=30)
        where = "the only member" if fake_only else "the first of two members"
        how = "its answer lost" if lost else "answered 503"
        print(f"\n  a batch of {state['batch']} applied, {how} on {where}: {len(claimed)} claimed, "
              f"{len(refused)} refused, {len(held)} slot keys held {refused[:1]}", flush=True)
        self.assertGreaterEqual(state["batch"], 2, "a batch was applied, its answer held back")
        return sorted(claimed), refused, held

    def check(self, fake_only, lost=False):
        if not ETCD:
            self.fail("SNOWFLEET_TEST_ETCD is not set")
        prefix = (f"retried-batch-{'one' if fake_only else 'two'}{'-lost' if lost else ''}-"
                  f"{os.getpid()}")
        claimed, refused, held = self.run_worker(prefix, fake_only, lost)
        self.assertEqual(refused, [])
        self.assertEqual(len(claimed), self.GENERATORS)
        # Every slot key held is a generator's: none held by the lease with no holder.
        self.assertEqual(held, [f"{prefix}/slots/{n:04d}" for n in claimed])
        self.assertEqual(keys_under(prefix), [])  # released at exit

    def test_a_batch_applied_then_timed_out_on_the_first_member_takes_its_slots(self):
        self.check(fake_only=False)

    def test_a_batch_applied_then_timed_out_on_the_only_member_takes_its_slots(self):
        self.check(fake_only=True)

    def test_a_batch_applied_with_its_answer_lost_on_the_first_member_takes_its_slots(self):
        self.check(fake_only=False, lost=True)

    def test_a_batch_applied_with_its_answer_lost_on_the_only_member_takes_its_slots(self):
        self.check(fake_only=True, lost=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
