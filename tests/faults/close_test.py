"""close() against an etcd that hangs (SIGSTOP, a network black hole): docs/fleet.md says
close() "also waits for an in-flight keepalive: up to ~3 s against an etcd that hangs".
Measured: one endpoint ~4-5 s, three endpoints ~17 s (the final mark write and the revoke
try every endpoint in turn, each for a full request timeout).

    CLOSE_PROBE=out/b/tests/close_probe python3 tests/faults/close_test.py
"""
import os
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fake_etcd import FakeEtcd  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBE = os.environ.get("CLOSE_PROBE", os.path.join(ROOT, "out/b/tests/close_probe"))


class CloseAgainstHangingEtcd(unittest.TestCase):
    def close_us(self, endpoints):
        hang = {"on": False}

        def hanging(path):
            def reply(body):
                if hang["on"]:
                    time.sleep(60)
                return FakeEtcd.default(path, body)
            return reply

        fakes = [FakeEtcd({p: hanging(p) for p in ("/v3/kv/txn", "/v3/lease/keepalive",
                                                    "/v3/lease/revoke")})
                 for _ in range(endpoints)]
        for f in fakes:
            self.addCleanup(f.close)
        eps = ",".join(f.endpoint for f in fakes)
        p = subprocess.Popen([PROBE, f"etcd://{eps}/p?ttl=10&node=1"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        self.assertEqual(p.stdout.readline().strip(), "ready")
        hang["on"] = True
        out = p.communicate("go\n", timeout=120)[0]
        us = int(out.split("close_us=")[1])
        print(f"\n  {endpoints} hanging endpoint(s): close() took {us / 1e6:.1f} s", flush=True)
        return us

    def test_one_endpoint(self):
        self.assertLess(self.close_us(1), 3_500_000)

    def test_three_endpoints(self):
        self.assertLess(self.close_us(3), 3_500_000)


if __name__ == "__main__":
    unittest.main(verbosity=2)
