"""A real kube-apiserver on a private etcd on loopback, for the Kubernetes Lease tests: the
binary scripts/test/kube-apiserver.sh builds (KUBE_APISERVER, or built on first use), certificates
made here with openssl, RBAC on, and the credentials a Lease holder would be given:

    with KubeApiserver() as k:
        k.kubeconfigs["token"]           # a token user with the Role (CA by file path)
        k.kubeconfigs["cert"]            # a client-certificate user with the Role (inline data)
        k.kubeconfigs["cert-files"]      # the same by relative file paths
        k.kubeconfigs["norole"]          # a token user without the Role (403s)
        k.kubeconfigs["multi"]           # every user as a context, current-context "token"
        k.in_cluster_env(), k.in_cluster_command(cmd)   # a pod's service account
        k.request("GET", k.lease_path("ids-7"))        # (HTTP status, JSON) as the admin
        k.stop_apiserver(); k.start_apiserver(); k.etcd.stop(0); k.etcd.cont(0)
        k.delete_lease("ids-7"); k.revoke_binding(); k.grant_binding()

Users: `admin` (group system:masters, for set-up and fault injection only), `ids-token` and
the certificate user `ids-cert` (bound to the Role), `ids-norole` (authenticated, no Role),
and the service account `NAMESPACE/ids` (bound). The Role grants on coordination.k8s.io
leases exactly LEASE_VERBS. Everything lives in one temp directory that close() removes,
after stopping the API server and its etcd, whatever state they are in.

    KUBE_APISERVER=$(bash scripts/test/kube-apiserver.sh | tail -1) python3 tests/fleet/kube.py
"""
import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from etcd_cluster import EtcdCluster, free_ports  # noqa: E402
from kube_credentials import make_pki, write_kubeconfigs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# What a Lease holder needs: get (a pinned slot), list (the prefix's slots, one request),
# create (a slot never used), patch (claim an expired Lease, renew, write the mark, release:
# JSON merge patches with a resourceVersion precondition). Not update (a PUT with a
# resourceVersion re-creates a deleted Lease: 201), nor delete (a Lease keeps its slot's mark).
LEASE_VERBS = ["get", "list", "create", "patch"]
SA_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"


def kube_binaries():
    """(kube-apiserver, kubeclient) paths: KUBE_APISERVER / KUBECLIENT, else the build
    script's cached ones (built on first use: minutes)."""
    server, client = os.environ.get("KUBE_APISERVER"), os.environ.get("KUBECLIENT")
    if not (server and client):
        out = subprocess.run(["bash", os.path.join(ROOT, "scripts/test/kube-apiserver.sh")],
                             check=True, stdout=subprocess.PIPE, text=True).stdout.split()
        server, client = server or out[-2], client or out[-1]
    return server, client


class KubeApiserver:
    def __init__(self, namespace="ids", binary=None, log_level=0):
        self.namespace = namespace
        self.binary = binary
        self.log_level = log_level
        self.dir = tempfile.mkdtemp(prefix="snowfleet-kube-")
        self.port = None
        self.proc = None
        self.etcd = None
        self.log = None
        self.tokens = {user: f"{user}-{os.urandom(12).hex()}"
                       for user in ("admin", "ids-token", "ids-norole")}
        self.kubeconfigs = {}
        self.timings = {}
        self.verbs = list(LEASE_VERBS)
        self.bound = False

    @property
    def server(self):
        return f"https://127.0.0.1:{self.port}"

    # --- lifecycle -------------------------------------------------------------------
    def start(self, timeout=90):
        t0 = time.monotonic()
        if not self.binary:
            self.binary = kube_binaries()[0]
        make_pki(self.dir)
        with open(os.path.join(self.dir, "tokens.csv"), "w") as f:
            f.write(f'{self.tokens["admin"]},admin,uid-admin,"system:masters"\n'
                    f'{self.tokens["ids-token"]},ids-token,uid-ids-token,"snowfleet-ids"\n'
                    f'{self.tokens["ids-norole"]},ids-norole,uid-ids-norole\n')
        self.timings["pki"] = time.monotonic() - t0
        self.etcd = EtcdCluster(1).start()
        self.timings["etcd"] = time.monotonic() - t0
        self.port = free_ports(1)[0]
        self.log = open(os.path.join(self.dir, "kube-apiserver.log"), "ab")
        self.start_apiserver(timeout)
        self.timings["ready"] = time.monotonic() - t0
        self._set_up_namespace()
        self._write_credentials()
        self.timings["total"] = time.monotonic() - t0
        return self

    def _args(self):
        d = self.dir
        return [self.binary,
                f"--etcd-servers=http://{self.etcd.endpoint(0)}",
                "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
                f"--secure-port={self.port}", f"--cert-dir={d}/certs",
                f"--tls-cert-file={d}/server.pem", f"--tls-private-key-file={d}/server.key",
                f"--client-ca-file={d}/ca.pem", f"--token-auth-file={d}/tokens.csv",
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc",
                f"--service-account-key-file={d}/sa.pub",
                f"--service-account-signing-key-file={d}/sa.key",
                "--service-cluster-ip-range=10.0.0.0/24",
                # No endpoints of its own for the `kubernetes` Service: one process, and
                # no periodic writes of its own to etcd beside the tests' traffic.
                "--endpoint-reconciler-type=none",
                "--profiling=false", f"--v={self.log_level}"]

    def start_apiserver(self, timeout=90):
        """Start (or start again, on the same port and etcd) and wait for /readyz."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.proc = subprocess.Popen(self._args(), stdout=self.log, stderr=subprocess.STDOUT,
                                     cwd=self.dir)
        self.wait_ready(timeout)

    def wait_ready(self, timeout=90):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"kube-apiserver exited {self.proc.returncode}:\n{self.tail()}")
            status, _ = self.request("GET", "/readyz", timeout=2, raw=True)
            if status == 200:
                return
            time.sleep(0.2)
        raise TimeoutError(f"kube-apiserver not ready in {timeout} s:\n{self.tail()}")

    def stop_apiserver(self, sig=signal.SIGTERM, timeout=20):
        """Stop it (SIGTERM: a graceful shutdown; SIGKILL: a crash) and wait for the exit."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGCONT)
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def restart_apiserver(self, sig=signal.SIGTERM):
        self.stop_apiserver(sig)
        self.start_apiserver()

    def pause_apiserver(self):
        """SIGSTOP: connections are accepted, nothing answers."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume_apiserver(self):
        self.proc.send_signal(signal.SIGCONT)

    def close(self):
        self.stop_apiserver(signal.SIGKILL)
        if self.etcd:
            self.etcd.close()
        if self.log:
            self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc):
        self.close()

    def tail(self, n=15):
        try:
            with open(os.path.join(self.dir, "kube-apiserver.log"), "rb") as f:
                return "\n".join(f.read().decode(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    # --- requests (Python's own client: set-up, fault injection, smoke tests) ---------
    def request(self, method, path, body=None, user="admin", timeout=10, raw=False,
                content_type=None):
        """(HTTP status, parsed JSON body, or the text with raw) as `user`: a token user
        of tokens.csv, or "ids-cert" (the client certificate). Status 0: no answer."""
        ctx = ssl.create_default_context(cafile=os.path.join(self.dir, "ca.pem"))
        headers = {"Accept": "application/json"}
        if user == "ids-cert":
            ctx.load_cert_chain(os.path.join(self.dir, "client.pem"),
                                os.path.join(self.dir, "client.key"))
        else:
            headers["Authorization"] = f"Bearer {self.tokens[user]}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = content_type or (
                "application/merge-patch+json" if method == "PATCH" else "application/json")
        req = urllib.request.Request(self.server + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, context=ctx, timeout=timeout) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        except (OSError, TimeoutError):
            return 0, None
        if raw:
            return status, text
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def must(self, method, path, body=None, ok=(200, 201), retry_s=10):
        """request() as the admin, retried while the server is still settling (a fresh
        server answers 403/429/5xx until its admission informers have synced)."""
        end = time.monotonic() + retry_s
        while True:
            status, reply = self.request(method, path, body)
            if status in ok or time.monotonic() > end:
                break
            time.sleep(0.1)
        if status not in ok:
            raise RuntimeError(f"{method} {path}: HTTP {status}: {reply}")
        return reply

    def lease_path(self, name=""):
        base = f"/apis/coordination.k8s.io/v1/namespaces/{self.namespace}/leases"
        return f"{base}/{name}" if name else base

    # --- the namespace, its Role and binding --------------------------------------------
    def _set_up_namespace(self):
        ns = self.namespace
        self.must("POST", "/api/v1/namespaces", {"metadata": {"name": ns}})
        self.must("POST", f"/api/v1/namespaces/{ns}/serviceaccounts", {"metadata": {"name": "ids"}})
        self.set_role_verbs(LEASE_VERBS)
        self.grant_binding()

    def _rbac(self, kind, name=""):
        return f"/apis/rbac.authorization.k8s.io/v1/namespaces/{self.namespace}/{kind}/{name}".rstrip("/")

    def allowed(self, verb, user="ids-token", groups=("snowfleet-ids",)):
        """Whether the authorizer lets `user` do `verb` on leases in the namespace now."""
        review = self.must("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
            "spec": {"user": user, "groups": list(groups), "resourceAttributes": {
                "namespace": self.namespace, "verb": verb, "group": "coordination.k8s.io",
                "resource": "leases"}}})
        return review["status"].get("allowed", False)

    def _wait_authorized(self, verbs, timeout=10):
        """RBAC changes reach the authorizer through an informer: wait until they have."""
        end = time.monotonic() + timeout
        want = {v: v in verbs for v in set(LEASE_VERBS) | set(verbs)}
        while {v: self.allowed(v) for v in want} != want:
            if time.monotonic() > end:
                raise TimeoutError(f"RBAC change not effective in {timeout} s: want {want}")
            time.sleep(0.05)

    def set_role_verbs(self, verbs):
        """Create or replace the Role `snowfleet-ids` with these verbs on leases (effective
        when this returns, if the binding exists)."""
        role = {"metadata": {"name": "snowfleet-ids"},
                "rules": [{"apiGroups": ["coordination.k8s.io"], "resources": ["leases"],
                           "verbs": list(verbs)}]}
        status, _ = self.request("PUT", self._rbac("roles", "snowfleet-ids"), role)
        if status == 404:
            self.must("POST", self._rbac("roles"), role)
        elif status != 200:
            self.must("PUT", self._rbac("roles", "snowfleet-ids"), role)
        self.verbs = list(verbs)
        if self.bound:
            self._wait_authorized(self.verbs)

    def grant_binding(self):
        self.must("POST", self._rbac("rolebindings"), {
            "metadata": {"name": "snowfleet-ids"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "snowfleet-ids"},
            "subjects": [
                {"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "snowfleet-ids"},
                {"kind": "ServiceAccount", "name": "ids", "namespace": self.namespace}]})
        self.bound = True
        self._wait_authorized(self.verbs)

    def revoke_binding(self):
        """Delete the RoleBinding: every holder's next request is a 403 (when this returns)."""
        self.must("DELETE", self._rbac("rolebindings", "snowfleet-ids"))
        self.bound = False
        self._wait_authorized([])

    # --- Leases -------------------------------------------------------------------------
    def get_lease(self, name):
        status, reply = self.request("GET", self.lease_path(name))
        return reply if status == 200 else None

    def delete_lease(self, name):
        self.must("DELETE", self.lease_path(name))

    # --- credentials, the way clients are given them ------------------------------------
    def _write_credentials(self):
        self.kubeconfigs = write_kubeconfigs(self.dir, self.server, self.namespace, self.tokens)
        # The service account's token, as the kubelet projects it into a pod.
        token = self.must("POST", f"/api/v1/namespaces/{self.namespace}/serviceaccounts/ids/token",
                          {"spec": {"expirationSeconds": 3600}})["status"]["token"]
        self.serviceaccount = os.path.join(self.dir, "serviceaccount")
        os.makedirs(self.serviceaccount)
        for name, text in (("token", token), ("namespace", self.namespace)):
            with open(os.path.join(self.serviceaccount, name), "w") as f:
                f.write(text)
        shutil.copy(os.path.join(self.dir, "ca.pem"), os.path.join(self.serviceaccount, "ca.crt"))

    def in_cluster_env(self):
        """What the kubelet puts in a pod's environment for the API server."""
        return {"KUBERNETES_SERVICE_HOST": "127.0.0.1", "KUBERNETES_SERVICE_PORT": str(self.port)}

    def in_cluster_command(self, cmd):
        """cmd run as if in a pod: in a private mount namespace whose /run (so /var/run) is a
        fresh tmpfs with the service account directory bound at its real path (root only;
        the host's /run is untouched). Pair it with in_cluster_env()."""
        script = (f'mount -t tmpfs snowfleet-pod /run && mkdir -p {SA_DIR} && '
                  f'mount --bind "$0" {SA_DIR} && exec "$@"')
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script,
                self.serviceaccount, *cmd]


if __name__ == "__main__":  # smoke test and start-up figures
    with KubeApiserver() as k:
        t = k.timings
        print(f"kube-apiserver on {k.server}, etcd {k.etcd.endpoint(0)}: certificates "
              f"{t['pki']:.2f} s, etcd {t['etcd'] - t['pki']:.2f} s, /readyz "
              f"{t['ready'] - t['etcd']:.2f} s, namespace+RBAC+credentials "
              f"{t['total'] - t['ready']:.2f} s, total {t['total']:.2f} s")
        t0 = time.monotonic()
        k.restart_apiserver()
        print(f"restarted (SIGTERM, start, /readyz) in {time.monotonic() - t0:.2f} s")
