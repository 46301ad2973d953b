"""A claim on the process's shared etcd lease after etcd let that lease go (expired while
the process was paused or cut off, or revoked): etcd refuses the put with "requested lease
not found", and every claim of the process failed so, with free slots, until the lease's
next keepalive (up to TTL/3 later) noticed.

    LATE_CLAIM_PROBE=out/b/tests/late_claim_probe python3 tests/faults/lease_gone_test.py
"""
import base64
import json
import os
import subprocess
import sys
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fleet"))
import fleet_test as ft  # noqa: E402  (Etcd)

ROOT = os.path.dirname(os.path.dirname(HERE))
PROBE = os.environ.get("LATE_CLAIM_PROBE", os.path.join(ROOT, "out/b/tests/late_claim_probe"))


def post(endpoint, path, body):
    req = urllib.request.Request(f"http://{endpoint}{path}", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(req, timeout=5) as r:
        return json.loads(r.read())


class ClaimAfterTheLeaseWentAway(unittest.TestCase):
    def test_claim_gets_a_new_lease(self):
        etcd = ft.Etcd()
        etcd.start()
        self.addCleanup(etcd.close)
        # TTL 60: the keepalive that would notice comes 20 s later.
        p = subprocess.Popen([PROBE, f"etcd://{etcd.endpoint}/gone?ttl=60"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        self.assertEqual(p.stdout.readline().strip(), "ready")
        b64 = lambda s: base64.b64encode(s.encode()).decode()  # noqa: E731
        kvs = post(etcd.endpoint, "/v3/kv/range",
                   {"key": b64("gone/slots/"), "range_end": b64("gone/slots0")})["kvs"]
        self.assertEqual(len(kvs), 1)
        post(etcd.endpoint, "/v3/lease/revoke", {"ID": kvs[0]["lease"]})
        out = p.communicate("claim\n", timeout=30)[0].strip()
        print(f"\n  second claim after the lease was revoked: {out}", flush=True)
        self.assertTrue(out.startswith("claimed "), out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
