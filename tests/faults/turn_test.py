"""The per-process request limiter (8 claim or mark requests in flight per store) against an
etcd that hangs: the 8 turns are then held for a full request timeout each, and the waiting
was unbounded. Claims queued behind them, and a close() (whose keeper's mark write and give
back queue too, marks behind every waiting claim) waited for the whole queue.

    TURN_PROBE=out/b/tests/turn_probe python3 tests/faults/turn_test.py
"""
import os
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fake_etcd import FakeEtcd  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBE = os.environ.get("TURN_PROBE", os.path.join(ROOT, "out/b/tests/turn_probe"))


class LimiterAgainstHangingEtcd(unittest.TestCase):
    def run_probe(self, hung_path, fresh, delay_s=60):
        hang = {"on": False}

        def hanging(body):
            if hang["on"]:
                time.sleep(delay_s)
            return FakeEtcd.default(hung_path, body)

        fake = FakeEtcd({hung_path: hanging})
        self.addCleanup(fake.close)
        # TTL 3: each request's timeout is 1 s. 40 claimers: five rounds of 8 hung requests.
        p = subprocess.Popen([PROBE, f"etcd://{fake.endpoint}/p?ttl=3", "40"]
                             + (["fresh"] if fresh else []),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        self.assertEqual(p.stdout.readline().strip(), "ready")
        hang["on"] = True
        out = p.communicate("go\n", timeout=120)[0]
        fields = dict(kv.split("=") for kv in out.split())
        close_s = int(fields["close_us"]) / 1e6
        claim_s = int(fields["claim_max_us"]) / 1e6
        print(f"\n  {hung_path} answers in {delay_s} s{' (fresh)' if fresh else ''}: close() "
              f"{close_s:.1f} s, slowest claim {claim_s:.1f} s, claimed {fields['claimed']} "
              "of 40", flush=True)
        return fields, close_s, claim_s

    def check_hung(self, hung_path, fresh):
        fields, close_s, claim_s = self.run_probe(hung_path, fresh)
        self.assertEqual(fields["claimed"], "0")
        # About one request timeout each (1 s); the queue must not add one per 8 waiting.
        self.assertLess(close_s, 2.5)
        self.assertLess(claim_s, 2.5)

    def test_txn_hangs_while_holding(self):
        self.check_hung("/v3/kv/txn", fresh=False)

    def test_grant_hangs_for_the_first_claims(self):
        self.check_hung("/v3/lease/grant", fresh=True)

    def test_range_hangs_for_the_first_claims(self):
        self.check_hung("/v3/kv/range", fresh=True)

    def test_a_slow_etcd_that_answers_keeps_its_queue(self):
        # Each request answers in 0.3 s (its timeout is 1 s): 40 claims and their first
        # mark writes queue 8 at a time for about 3 s, and every claim succeeds.
        fields, _, _ = self.run_probe("/v3/kv/txn", fresh=False, delay_s=0.3)
        self.assertEqual(fields["claimed"], "40")


if __name__ == "__main__":
    unittest.main(verbosity=2)
