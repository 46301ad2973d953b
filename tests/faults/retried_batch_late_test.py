"""An etcd claim batch that got no answer goes out once more (core/src/lease/etcd/
etcd_claim_batch.cc): here its first request is applied late, after the second was answered,
and a batch meets silence twice. A storm worker's generators claim at once through a fake
member, the only one, in front of a real etcd.

    SNOWFLEET_TEST_ETCD=127.0.0.1:2379 STORM_WORKER=out/release/tests/storm_worker \
        python3 tests/faults/retried_batch_late_test.py
"""
import os
import signal
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fake_etcd import in_front_of, post  # noqa: E402
from retried_claim_test import batch_size, keys_under, single_claim  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STORM = os.environ.get("STORM_WORKER", os.path.join(ROOT, "out/release/tests/storm_worker"))
ETCD = os.environ.get("SNOWFLEET_TEST_ETCD")
GENERATORS = 4


def run(prefix, answer, generators=GENERATORS, ttl=5, settle=lambda: None):
    fake = in_front_of(ETCD, answer)
    p = subprocess.Popen([STORM, "--source", f"etcd://{fake.endpoint}/{prefix}?ttl={ttl}",
                          "--generators", str(generators), "--hold-seconds", "60"],
                         stdout=subprocess.PIPE, text=True)
    claimed, refused, times = [], [], []
    t0 = time.monotonic()
    try:
        for line in p.stdout:
            if line.startswith("claimed "):
                claimed.append(int(line.split()[1]))
                times.append(int(line.split()[2]) / 1e6)
            elif line.startswith("error "):
                refused.append(line.strip())
                times.append(int(line.split()[2]) / 1e6)
            elif line.startswith("ready "):
                break
        settle()
        held = keys_under(prefix)
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
        fake.close()
    after = keys_under(prefix)
    print(f"\n  {prefix}: claimed {sorted(claimed)}, refused {len(refused)} {refused[:1]}, "
          f"held {held}, slowest {max(times):.2f} s, after exit {after}, "
          f"run {time.monotonic() - t0:.1f} s", flush=True)
    return sorted(claimed), refused, held, max(times), after


class RetriedBatchLate(unittest.TestCase):
    def setUp(self):
        if not ETCD:
            self.fail("SNOWFLEET_TEST_ETCD is not set")

    def first_alone(self, state, path, body):
        # The first claim goes alone and waits 0.3 s, so that the others gather in a batch.
        if single_claim(path, body) and state.setdefault("first", True):
            state["first"] = False
            applied = post(ETCD, path, body)
            time.sleep(0.3)
            return applied
        return None

    def test_first_request_late_applied_after_the_second(self):
        """The batch's first request hangs unapplied past the timeout and is applied late,
        after its re-ask was answered: every claim held, no key without a generator."""
        state, late = {}, []

        def answer(path, body):
            mine = self.first_alone(state, path, body)
            if mine is not None:
                return mine
            if batch_size(path, body) >= 2 and not state.get("batch"):
                state["batch"] = True
                time.sleep(2.5)  # past the claim's 1.67 s
                late.append(post(ETCD, path, body))  # applied now: after the re-ask
                return late[-1]
            return None

        prefix = f"late-batch-{os.getpid()}"

        def settle():
            for _ in range(100):
                if late:
                    return
                time.sleep(0.05)

        claimed, refused, held, _, after = run(prefix, answer, settle=settle)
        self.assertEqual(refused, [])
        self.assertEqual(len(claimed), GENERATORS)
        self.assertEqual(len(set(claimed)), GENERATORS)
        self.assertEqual(held, [f"{prefix}/slots/{n:04d}" for n in claimed])
        self.assertTrue(late and all(not r["responses"][0]["response_txn"].get("succeeded")
                                     for r in late), "the late request lost every compare")
        self.assertEqual(after, [])

    def test_two_silences_refuse_within_two_timeouts(self):
        """Every batch applied, then no answer in time: the claims in it are refused after
        two requests (about two request timeouts); what do the slots do?"""
        state = {}

        def answer(path, body):
            mine = self.first_alone(state, path, body)
            if mine is not None:
                return mine
            if batch_size(path, body) >= 1 or single_claim(path, body):
                applied = post(ETCD, path, body)
                time.sleep(2.5)
                return applied
            return None

        prefix = f"silent-batch-{os.getpid()}"
        claimed, refused, held, slowest, after = run(prefix, answer)
        self.assertEqual(len(claimed) + len(refused), GENERATORS)
        self.assertLess(slowest, 0.3 + 3 * 1.67 + 1.0)
        self.assertEqual(after, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
