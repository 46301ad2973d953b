"""A fake etcd v3 JSON gateway for adversarial tests: answers each path with what a test
scripts (a dict, raw bytes, or a callable), and records every request."""
import base64
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


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

    # Every prefix has this genesis (core/src/etcd_genesis.hpp), so claims never create one.
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
