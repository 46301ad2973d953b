"""A plain-HTTP proxy in front of the test kube-apiserver (https), for fault injection on the
k8s-lease:// engine: the engine accepts an http:// server URL, so the proxy sees (and may
delay, rewrite or answer) every request and reply. Every exchange is logged:

    p = FaultProxy(kube)                   # kube: tests/fleet/kube.KubeApiserver
    p.kubeconfig                           # a kubeconfig: server http://127.0.0.1:PORT, token user
    p.fault = lambda ex: None              # ex: Exchange; set ex.delay / ex.answer / ex.mutate
    p.log                                  # [Exchange], after the fact
"""
import http.client
import http.server
import json
import os
import ssl
import threading
import time


class Exchange:
    def __init__(self, method, path, body):
        self.t = time.monotonic()
        self.method, self.path, self.body = method, path, body
        self.delay = 0.0            # seconds before forwarding
        self.delay_reply = 0.0      # seconds after the server answered, before replying
        self.answer = None          # (status, bytes, headers): answered by the proxy, not forwarded
        self.mutate = None          # fn(status, json) -> (status, json) on the server's reply
        self.hang = False           # read the request, never answer
        self.status = None
        self.reply = None

    def req_json(self):
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None


class FaultProxy:
    def __init__(self, kube, user="ids-token"):
        self.kube = kube
        self.fault = lambda ex: None
        self.log = []
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def _any(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                ex = Exchange(self.command, self.path, body)
                proxy.fault(ex)
                with proxy.lock:
                    proxy.log.append(ex)
                if ex.hang:
                    time.sleep(3600)
                    return
                if ex.delay:
                    time.sleep(ex.delay)
                if ex.answer:
                    status, data, headers = ex.answer
                else:
                    status, data, headers = proxy._forward(self, ex, body)
                    if ex.mutate:
                        try:
                            j = json.loads(data)
                        except ValueError:
                            j = None
                        status, j = ex.mutate(status, j)
                        data = json.dumps(j).encode() if not isinstance(j, (bytes, str)) else (
                            j.encode() if isinstance(j, str) else j)
                if ex.delay_reply:
                    time.sleep(ex.delay_reply)
                ex.status, ex.reply = status, data
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _any

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda *a: None  # a client that timed out
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.kubeconfig = os.path.join(kube.dir, f"proxy-{self.port}.kubeconfig")
        with open(self.kubeconfig, "w") as f:
            f.write(f"""apiVersion: v1
kind: Config
clusters:
- name: proxy
  cluster:
    server: http://127.0.0.1:{self.port}
users:
- name: u
  user:
    token: {kube.tokens[user]}
contexts:
- name: c
  context:
    cluster: proxy
    user: u
    namespace: {kube.namespace}
current-context: c
""")

    def _forward(self, handler, ex, body):
        ctx = ssl.create_default_context(cafile=os.path.join(self.kube.dir, "ca.pem"))
        c = http.client.HTTPSConnection("127.0.0.1", self.kube.port, context=ctx, timeout=60)
        headers = {k: v for k, v in handler.headers.items()
                   if k.lower() in ("authorization", "content-type", "accept")}
        try:
            c.request(ex.method, ex.path, body=body or None, headers=headers)
            r = c.getresponse()
            return r.status, r.read(), {}
        except OSError as e:
            return 502, json.dumps({"message": f"proxy: {e}"}).encode(), {}
        finally:
            c.close()

    def close(self):
        self.server.shutdown()
