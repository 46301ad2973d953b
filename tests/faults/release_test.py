"""A generator closed while its mark keeper's write is in flight: close() cancels that
write, which counted as a store failure, so release() kept the slot key (it expects the
store to fail a give-back too) and left it to the shared lease, which the process's other
generators keep alive: the slot stayed locked, unused, until the process ended.

    RELEASE_PROBE=out/b/tests/release_probe python3 tests/faults/release_test.py
"""
import base64
import os
import subprocess
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fake_etcd import FakeEtcd  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBE = os.environ.get("RELEASE_PROBE", os.path.join(ROOT, "out/b/tests/release_probe"))


def key_of(op):
    return base64.b64decode(op["key"]).decode()


class ReleaseAfterCancelledWrite(unittest.TestCase):
    def test_slot_given_back(self):
        claims = []  # slot keys, in claim order
        slow_started = threading.Event()

        def txn(body):
            cmp = body["compare"][0]
            if cmp.get("create_revision") == "0":
                claims.append(key_of(cmp))
            elif (len(claims) == 2 and key_of(cmp) == claims[1]
                  and "request_put" in body["success"][0]
                  and sum(1 for p, b in fake.requests if p == "/v3/kv/txn"
                          and key_of(b["compare"][0]) == claims[1]) > 2):
                # The second generator's keeper writes its mark ahead: hold it.
                slow_started.set()
                time.sleep(2)
            return FakeEtcd.default("/v3/kv/txn", body)

        fake = FakeEtcd({"/v3/kv/txn": txn})
        self.addCleanup(fake.close)
        p = subprocess.Popen([PROBE, f"etcd://{fake.endpoint}/p?ttl=10"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: p.poll() is None and p.kill())
        self.assertEqual(p.stdout.readline().strip(), "ready")
        self.assertTrue(slow_started.wait(10), "the keeper never wrote ahead")
        p.stdin.write("close b\n")
        p.stdin.flush()
        self.assertEqual(p.stdout.readline().strip(), "closed")
        given_back = [b for path, b in list(fake.requests) if path == "/v3/kv/txn"
                      and "request_delete_range" in b["success"][0]
                      and key_of(b["success"][0]["request_delete_range"]) == claims[1]]
        p.communicate("close a\n", timeout=30)
        print(f"\n  slot key {claims[1]} given back at close(): {bool(given_back)}", flush=True)
        self.assertTrue(given_back, "the closed generator's slot key stays with the shared lease")


if __name__ == "__main__":
    unittest.main(verbosity=2)
