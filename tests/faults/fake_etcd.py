"""A fake etcd v3 JSON gateway for adversarial tests: answers each path with what a test
scripts (a dict, raw bytes, or a callable), and records every request. Also a fake member in
front of a real etcd (in_front_of, cut_link): it forwards what the test does not answer
itself, so a test can make one member time out, apply late, or fail, while etcd stays real."""
import base64
import json
import socket
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# What an etcd member answers when it cannot serve now (HTTP 503, gRPC code 14): the client
# tries the next member. "request timed out" leaves the outcome unknown: etcd may still
# apply the request.
UNAVAILABLE = {"error": "etcdserver: no leader", "message": "etcdserver: no leader", "code": 14}
TIMED_OUT = {"error": "etcdserver: request timed out", "message": "etcdserver: request timed out",
             "code": 14}

# The paths the etcd node source posts to (core/src/lease/etcd/), but for authentication
# (/v3/auth/authenticate: none of these tests has an etcd user).
ETCD_PATHS = ("/v3/lease/grant", "/v3/lease/keepalive", "/v3/lease/revoke", "/v3/lease/leases",
              "/v3/kv/range", "/v3/kv/txn")


def b64(text):
    return base64.b64encode(text.encode()).decode()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeEtcd:
    """replies: path -> dict (sent as JSON), bytes (sent raw), a (status, dict or bytes)
    tuple (sent with that HTTP status), or callable(request) -> any of these.
    Paths without a reply get a plausible default."""

    def __init__(self, replies=None):
        self.replies = dict(replies or {})
        self.requests = []
        self.headers = []  # each request's headers, in the order of self.requests
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(n) or b"{}")
                fake.requests.append((self.path, body))
                fake.headers.append(dict(self.headers))
                reply = fake.replies.get(self.path, fake.default(self.path, body))
                if callable(reply):
                    reply = reply(body)
                status = 200
                if isinstance(reply, tuple):  # (HTTP status, reply)
                    status, reply = reply
                if isinstance(reply, dict):
                    reply = json.dumps(reply).encode()
                if isinstance(reply, bytes):
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(reply)))
                    self.end_headers()
                    self.wfile.write(reply)
                else:  # a generator of chunks: stream without a length
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    try:
                        for chunk in reply:
                            self.wfile.write(chunk)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    self.close_connection = True

        self.port = free_port()
        class Server(ThreadingHTTPServer):
            request_queue_size = 128  # a storm of claimants connects at once

        self.server = Server(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.endpoint = f"127.0.0.1:{self.port}"

    # Every prefix has this genesis (core/src/lease/etcd/etcd_genesis.hpp), so claims never
    # create one.
    GENESIS = "00000000000fa4e0 0 0"

    @staticmethod
    def default(path, body):
        header = {"cluster_id": "1", "member_id": "1", "revision": "5", "raft_term": "2"}
        genesis = {"response_range": {"header": header, "kvs": [
            {"key": b64("genesis"), "value": b64(FakeEtcd.GENESIS)}]}}
        if path == "/v3/lease/grant":
            return {"header": header, "ID": body.get("ID", "7587861231"),
                    "TTL": body.get("TTL", "10")}
        if path == "/v3/lease/keepalive":
            return {"result": {"header": header, "ID": body.get("ID"), "TTL": "10"}}
        if path == "/v3/kv/range":
            if base64.b64decode(body.get("key", "")).endswith(b"/genesis"):
                return genesis["response_range"]
            return {"header": header}
        if path == "/v3/kv/txn" and any("request_txn" in op for op in body.get("success", [])):
            # A process's claims in one transaction (etcd_claim_batch.hpp): every one wins,
            # then the genesis and the slots created since.
            won = {"response_txn": {"header": header, "succeeded": True, "responses": [
                {"response_put": {"header": header}}, {"response_range": {"header": header}}]}}
            claims = sum(1 for op in body["success"] if "request_txn" in op)
            return {"header": header, "succeeded": True,
                    "responses": [won] * claims + [genesis, {"response_range": {"header": header}}]}
        if path == "/v3/kv/txn":
            return {"header": header, "succeeded": True,
                    "responses": [{"response_put": {"header": header}},
                                  {"response_range": {"header": header}}, genesis]}
        if path == "/v3/lease/revoke":
            return {"header": header}
        return {"header": header}

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def post(endpoint, path, body, timeout=10):
    """POSTs `body` to the etcd JSON gateway at `endpoint` (host:port, no proxy); returns the
    reply's JSON."""
    req = urllib.request.Request(f"http://{endpoint}{path}", data=json.dumps(body).encode(),
                                 method="POST")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(req, timeout=timeout) as r:
        return json.loads(r.read())


def in_front_of(endpoint, answer=None):
    """A fake member in front of the real etcd at `endpoint`: every request on ETCD_PATHS is
    forwarded, except where `answer(path, body)` returns a reply of its own (anything
    FakeEtcd sends; None: forward). The caller closes it."""
    def reply(path):
        def on(body):
            mine = answer(path, body) if answer else None
            return post(endpoint, path, body) if mine is None else mine
        return on
    return FakeEtcd({p: reply(p) for p in ETCD_PATHS})


def cut_link(endpoint):
    """A holder's link to the real etcd at `endpoint` that the test can cut: forwards every
    request until `link.cut.set()`, then answers each with a 503 (no leader), so the
    holder's keepalives and mark writes fail and it mints on until its local deadline."""
    cut = threading.Event()
    link = in_front_of(endpoint, lambda path, body: (503, UNAVAILABLE) if cut.is_set() else None)
    link.cut = cut
    return link


def minted_by_both(holder, newcomer):
    """Waits for two workers (tests/fleet/fleet_test.py Worker) to end; returns the holder's
    ids, the newcomer's, and how many ids both minted."""
    holder.finish()
    newcomer.finish()
    mine = set(holder.ids())
    theirs = newcomer.ids()
    return mine, theirs, sum(1 for i in theirs if i in mine)
