"""A k8s-lease:// claim that takes a Lease whose mark annotation is not a decimal integer
gives it back with the annotation left as it is (the slot's history is unknown:
K8sLease::adopt in core/src/lease/k8s/k8s_claim.cc). That give-back answered 401 while the
token file is missing (the kubelet swapping it) must still leave the annotation alone and
refuse the claim: the claim must not end holding the slot and then write a readable mark
over the unreadable one when it is released.

A fake API server (plain HTTP, in memory): merge patches, resourceVersions, a genesis.

    SNOWFLEET_CLI=out/release/core/snowfleet python3 tests/faults/k8s_giveback_test.py
"""
import json
import os
import subprocess
import tempfile
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("SNOWFLEET_CLI", os.path.join(ROOT, "out/release/core/snowfleet"))
MARK = "snowfleet.dev/mark-ms"
BASE = "/apis/coordination.k8s.io/v1/namespaces/default/leases"


def merge(a, b):
    for k, v in b.items():
        if v is None:
            a.pop(k, None)
        elif isinstance(v, dict) and isinstance(a.get(k), dict):
            merge(a[k], v)
        else:
            a[k] = v
    return a


class Fake:
    def __init__(self, token_path):
        self.token_path = token_path
        self.leases = {}
        self.rv = 100
        self.log = []  # (method, name, token, status, body)
        self.slot_patches = 0
        fake = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def reply(self, status, obj):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def handle_any(self, method):
                n = int(self.headers.get("Content-Length", 0) or 0)
                body = json.loads(self.rfile.read(n) or b"null")
                token = self.headers.get("Authorization", "").replace("Bearer ", "")
                path = self.path.split("?")[0]
                name = path[len(BASE) + 1:] if path.startswith(BASE + "/") else ""
                status, obj = fake.serve(method, name, token, body)
                fake.log.append((method, name, token, status, body))
                self.reply(status, obj)

            def do_GET(self):
                self.handle_any("GET")

            def do_POST(self):
                self.handle_any("POST")

            def do_PATCH(self):
                self.handle_any("PATCH")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def bump(self, lease):
        self.rv += 1
        lease["metadata"]["resourceVersion"] = str(self.rv)
        return lease

    def serve(self, method, name, token, body):
        unauthorized = (401, {"kind": "Status", "status": "Failure", "reason": "Unauthorized",
                              "message": "Unauthorized", "code": 401})
        if method == "GET" and name:
            if name not in self.leases:
                return 404, {"kind": "Status", "reason": "NotFound", "code": 404,
                             "message": f'leases.coordination.k8s.io "{name}" not found'}
            return 200, self.leases[name]
        if method == "GET":
            return 200, {"kind": "LeaseList", "metadata": {"resourceVersion": str(self.rv)},
                         "items": list(self.leases.values())}
        if method == "POST":
            n = body["metadata"]["name"]
            if n in self.leases:
                return 409, {"kind": "Status", "reason": "AlreadyExists", "code": 409}
            self.leases[n] = self.bump(body)
            return 201, self.leases[n]
        if method == "PATCH":
            if name == "bk-5":
                self.slot_patches += 1
                if self.slot_patches == 2:  # the give-back: the token file is mid-swap
                    os.remove(self.token_path)
                    return unauthorized
                if self.slot_patches > 2 and token == "first":  # refused; the rotated token is in place now
                    with open(self.token_path, "w") as f:
                        f.write("second")
                    return unauthorized
            lease = self.leases[name]
            body = dict(body)
            body.get("metadata", {}).pop("resourceVersion", None)
            return 200, self.bump(merge(lease, body))
        return 405, {}


class GiveBack(unittest.TestCase):
    def test_unreadable_mark_is_never_overwritten(self):
        d = tempfile.mkdtemp(prefix="snowfleet-k8s-giveback-")
        token = os.path.join(d, "token")
        with open(token, "w") as f:
            f.write("first")
        fake = Fake(token)
        self.addCleanup(fake.server.shutdown)
        fake.leases["bk-5"] = {
            "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": "bk-5", "resourceVersion": "10",
                         "labels": {"snowfleet.dev/prefix": "bk"},
                         "annotations": {MARK: "garbage"}},
            "spec": {"leaseDurationSeconds": 10}}
        kc = os.path.join(d, "kubeconfig")
        with open(kc, "w") as f:
            f.write(f"""apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: http://127.0.0.1:{fake.port}
users:
- name: u
  user:
    tokenFile: {token}
contexts:
- name: x
  context:
    cluster: c
    user: u
    namespace: default
current-context: x
""")
        p = subprocess.run([CLI, "next", "--node-source",
                            f"k8s-lease://bk?node=5&ttl=10&kubeconfig={kc}", "-n", "1"],
                           capture_output=True, text=True, timeout=60)
        for m, n, t, s, b in fake.log:
            print(f"  {m} {n or '(list/create)'} token={t} -> {s} {json.dumps(b)[:160]}")
        print("  CLI:", p.returncode, p.stderr.strip()[:300])
        print("  bk-5 annotations now:", fake.leases["bk-5"]["metadata"].get("annotations"))
        self.assertEqual(fake.leases["bk-5"]["metadata"]["annotations"].get(MARK), "garbage",
                         "the unreadable mark (the slot's unknown history) was overwritten")


if __name__ == "__main__":
    unittest.main(verbosity=2)
