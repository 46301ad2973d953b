"""A holder at TTL 2 whose link to etcd takes 200 ms a round trip (a proxy delaying each
direction by 100 ms). Its confirmed deadline is (keepalive sent) + TTL - margin = 1.5 s;
a keepalive round is now three requests in a row (the lease's keepalive, then the holder
lease's keepalive and the genesis read, core/src/lease/etcd/etcd_genesis.hpp), about 0.6 s here, and
the next round started a full period (TTL/3) after the last one ended: the next
confirmation came 0.6 + 0.67 + 0.6 s after the last one was sent, past the deadline, and
every round the holder refused calls ("its local deadline passed") for a moment: 300
refusals in 10 s, 233 of them 2 s or more after the claim. Rounds now start a period
after the last one started (0 after the first 2 s; 19-30 refusals remain in the first
0.5 s after the claim).

    SNOWFLEET_TEST_ETCD=127.0.0.1:2379 FLEET_WORKER=out/b/tests/fleet_worker \\
      python3 tests/faults/slow_link_test.py
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fleet"))
import fleet_test as ft  # noqa: E402  (Worker)
from delay_proxy import DelayProxy  # noqa: E402

ETCD = os.environ.get("SNOWFLEET_TEST_ETCD")


class SlowLink(unittest.TestCase):
    def test_a_holder_at_ttl_2_over_a_200_ms_link_stays_confirmed(self):
        if not ETCD:
            self.fail("SNOWFLEET_TEST_ETCD is not set")
        host, port = ETCD.rsplit(":", 1)
        with DelayProxy(host, int(port), delay_ms=100) as link:
            w = ft.Worker(f"etcd://{link.endpoint}/slow-link-{os.getpid()}?ttl=2", "--seconds", 10,
                          "--burst", 16, "--pause-us", 5000, "--keep-going")
            w.node()
            w.finish()
        # The first second or two may refuse: the claim's own requests (six in a row for a
        # new prefix: 1.2 s here) leave little of the 1.5 s its deadline allows, and the
        # first confirming round comes after them. After that, every round must confirm
        # in time.
        lines = w.snapshot()
        start = next(t for t, line in lines if line.startswith("node "))
        errors = [line for t, line in lines if line.startswith("error ")]
        late = [line for t, line in lines if line.startswith("error ") and t > start + 2000]
        print(f"\n  {len(w.ids()):,} ids in 10 s, {len(errors)} refused, {len(late)} of them "
              f"2 s or more after the claim: {late[:1]}", flush=True)
        self.assertGreater(len(w.ids()), 0)
        self.assertEqual(late, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
