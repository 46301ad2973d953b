"""etcd over TLS with client certificates, and with user/password authentication, plus the
bad input around them. Starts two private etcds (Debian's etcd-server, free loopback ports,
a temp dir) with a CA and certificates made by openssl here:

  - tls:  https only, --client-cert-auth --trusted-ca-file (a client certificate is required);
  - auth: plaintext, `auth enable` with a user whose role may read and write one prefix, and
          --auth-token-ttl=1 so that simple tokens expire during the tests.

Then runs the Catch2 lease tests ([.etcd]: claim, mint, mark writes, release, deadline) over
both, [.etcd-auth] (expired tokens renewed) over the second, and checks every refusal the
CLI gives for a wrong setup: exit code, no id, the endpoint named, and never the password.

    SNOWFLEET_CLI=out/fleet/core/snowfleet SNOWFLEET_TESTS=out/fleet/tests/snowfleet_tests \\
      python3 tests/fleet/etcd_tls_auth_test.py
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "faults"))
from fake_etcd import FakeEtcd  # noqa: E402

CLI = os.environ.get("SNOWFLEET_CLI", os.path.join(ROOT, "out/fleet/core/snowfleet"))
WORKER = os.environ.get("FLEET_WORKER", os.path.join(ROOT, "out/fleet/tests/fleet_worker"))
TESTS = os.environ.get("SNOWFLEET_TESTS", os.path.join(ROOT, "out/fleet/tests/snowfleet_tests"))
ETCD = os.environ.get("ETCD_BIN", shutil.which("etcd") or "etcd")
ETCDCTL = shutil.which("etcdctl") or "etcdctl"
PASSWORD = "Zq7-ids-pw-4711"  # the user's password: must never appear in any output
PREFIX = "authtest/"


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=60, **kw)


def make_certs(d):
    """A CA, a server certificate for 127.0.0.1 and a client certificate signed by it, and a
    second CA that signed nothing here (the wrong CA)."""
    def ossl(*args):
        run(["openssl", *args], cwd=d)
    for ca in ("ca", "other-ca"):
        ossl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={ca}",
             "-keyout", f"{ca}.key", "-out", f"{ca}.pem")
    with open(os.path.join(d, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                "extendedKeyUsage=serverAuth,clientAuth\n")
    for who in ("server", "client"):
        ossl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={who}", "-keyout",
             f"{who}.key", "-out", f"{who}.csr")
        ossl("x509", "-req", "-in", f"{who}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", f"{who}.pem")


class Etcd:
    """A private single-member etcd; `tls`: certificates dir for an https-only, client-cert
    etcd; extra: more flags."""

    def __init__(self, d, name, tls=None, extra=()):
        client, peer = free_ports(2)
        self.endpoint = f"127.0.0.1:{client}"
        scheme = "https" if tls else "http"
        args = [ETCD, "--name", name, "--data-dir", os.path.join(d, name),
                "--listen-client-urls", f"{scheme}://{self.endpoint}",
                "--advertise-client-urls", f"{scheme}://{self.endpoint}",
                "--listen-peer-urls", f"http://127.0.0.1:{peer}",
                "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}",
                "--initial-cluster", f"{name}=http://127.0.0.1:{peer}", *extra]
        self.ctl = [ETCDCTL, "--endpoints", f"{scheme}://{self.endpoint}"]
        if tls:
            args += ["--cert-file", f"{tls}/server.pem", "--key-file", f"{tls}/server.key",
                     "--client-cert-auth", "--trusted-ca-file", f"{tls}/ca.pem"]
            self.ctl += ["--cacert", f"{tls}/ca.pem", "--cert", f"{tls}/client.pem",
                         "--key", f"{tls}/client.key"]
        self.log = open(os.path.join(d, name + ".log"), "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        env = dict(os.environ, ETCDCTL_API="3")
        for _ in range(100):
            if subprocess.run(self.ctl + ["endpoint", "health"], capture_output=True,
                              env=env).returncode == 0:
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"etcd {name} did not start: see {d}/{name}.log")

    def etcdctl(self, *args, user=None):
        cmd = self.ctl + ([f"--user={user}"] if user else []) + list(args)
        return run(cmd, env=dict(os.environ, ETCDCTL_API="3"))

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        self.log.close()


def mint(spec, n=2, env=None, timeout=30):
    """The CLI against `spec`: (exit code, stdout, stderr, seconds)."""
    t = time.monotonic()
    p = subprocess.run([CLI, "next", "--node-source", spec, "-n", str(n)], capture_output=True,
                       text=True, timeout=timeout, env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t


class Setup:
    dir = None
    tls = None
    auth = None


def setUpModule():
    Setup.dir = tempfile.mkdtemp(prefix="snowfleet-tls-auth-")
    make_certs(Setup.dir)
    Setup.tls = Etcd(Setup.dir, "tls", tls=Setup.dir)
    Setup.auth = Etcd(Setup.dir, "auth", extra=["--auth-token", "simple", "--auth-token-ttl", "1"])
    a = Setup.auth
    a.etcdctl("user", "add", "root:rootpw")
    a.etcdctl("role", "add", "ids")
    a.etcdctl("role", "grant-permission", "ids", "--prefix=true", "readwrite", PREFIX)
    a.etcdctl("user", "add", f"ids:{PASSWORD}")
    a.etcdctl("user", "grant-role", "ids", "ids")
    a.etcdctl("user", "add", f"nobody:{PASSWORD}")  # no role: no permission anywhere
    a.etcdctl("auth", "enable")
    with open(os.path.join(Setup.dir, "pw"), "w") as f:
        f.write(PASSWORD + "\n")


def tearDownModule():
    for e in (Setup.tls, Setup.auth):
        if e:
            e.stop()
    shutil.rmtree(Setup.dir, ignore_errors=True)


def tls_query(ca="ca.pem", cert="client.pem", key="client.key"):
    d = Setup.dir
    parts = [f"cacert={d}/{ca}"] if ca else []
    if cert:
        parts.append(f"cert={d}/{cert}")
    if key:
        parts.append(f"key={d}/{key}")
    return "&".join(parts)


class LeaseTestsOverTlsAndAuth(unittest.TestCase):
    """The Catch2 etcd lease tests, unchanged, over each setup."""

    def catch2(self, tags, endpoint, query, ctl, prefix=""):
        env = dict(os.environ, SNOWFLEET_TEST_ETCD=endpoint, SNOWFLEET_TEST_ETCD_QUERY=query,
                   SNOWFLEET_TEST_ETCD_PREFIX=prefix, SNOWFLEET_TEST_ETCDCTL=ctl)
        t = time.monotonic()
        p = subprocess.run([TESTS, tags], capture_output=True, text=True, env=env, timeout=300)
        out = p.stdout + p.stderr
        print(f"\n  {tags} ({query.split('&')[0]}...): {out.strip().splitlines()[-1]} "
              f"in {time.monotonic() - t:.1f} s", flush=True)
        self.assertEqual(p.returncode, 0, out[-3000:])
        self.assertNotIn(PASSWORD, out)

    def test_client_certificates(self):
        ctl = "ETCDCTL_API=3 " + " ".join(Setup.tls.ctl)
        self.catch2("[.etcd]", Setup.tls.endpoint, tls_query(), ctl)

    def test_user_and_password(self):
        ctl = "ETCDCTL_API=3 " + " ".join(Setup.auth.ctl) + " --user=root:rootpw"
        query = f"user=ids&password_file={Setup.dir}/pw"
        self.catch2("[.etcd],[.etcd-auth]", Setup.auth.endpoint, query, ctl, PREFIX)


class Refusals(unittest.TestCase):
    """Each wrong setup: a non-zero exit, no id, a message naming the endpoint (and what to
    fix), within a few seconds, and never the password."""

    def refused(self, spec, *expected, env=None, endpoint=None, n=2):
        code, out, err, took = mint(spec, n=n, env=env)
        print(f"\n  {err.strip()[:300]}", flush=True)
        self.assertNotEqual(code, 0, f"{spec}: exit 0, printed {out!r}")
        self.assertEqual(out.strip(), "", f"{spec}: printed ids")
        self.assertLess(took, 10, f"{spec}: took {took:.1f} s")
        self.assertNotIn(PASSWORD, err + out)
        if endpoint:
            self.assertIn(endpoint, err)
        for e in expected:
            self.assertIn(e, err)
        return err

    # ---- TLS ----
    def test_tls_ok(self):
        code, out, err, _ = mint(f"etcd://{Setup.tls.endpoint}/cli?ttl=5&{tls_query()}")
        self.assertEqual(code, 0, err)
        self.assertEqual(len(out.split()), 2)

    def test_plaintext_to_tls_endpoint(self):
        ep = Setup.tls.endpoint
        self.refused(f"etcd://{ep}/cli?ttl=2", "NODE_ID_UNAVAILABLE", "TLS endpoint", endpoint=ep)

    def test_wrong_ca(self):
        ep = Setup.tls.endpoint
        self.refused(f"etcd://{ep}/cli?ttl=2&{tls_query(ca='other-ca.pem')}",
                     "does not verify against the CA", endpoint=ep)

    def test_no_client_certificate(self):
        ep = Setup.tls.endpoint
        self.refused(f"etcd://{ep}/cli?ttl=2&{tls_query(cert=None, key=None)}",
                     "client certificate", endpoint=ep)

    def test_missing_certificate_file(self):
        ep = Setup.tls.endpoint
        spec = f"etcd://{ep}/cli?ttl=2&{tls_query(cert='nonexistent.pem')}"
        self.refused(spec, "cert file", "nonexistent.pem", "No such file", endpoint=ep)

    def test_tls_to_plaintext_endpoint(self):
        ep = Setup.auth.endpoint
        self.refused(f"etcd://{ep}/{PREFIX}cli?ttl=2&tls=1&user=ids&password_file={Setup.dir}/pw",
                     "a plaintext endpoint?", endpoint=ep)

    # ---- authentication ----
    def test_password_from_file_env_and_inline(self):
        ep = Setup.auth.endpoint
        for query, env in ((f"password_file={Setup.dir}/pw", None),
                           ("password_env=SNOWFLEET_TEST_PW", {"SNOWFLEET_TEST_PW": PASSWORD}),
                           (f"password={PASSWORD}", None)):
            # ttl=5: requests get 1.6 s (ttl/3); etcd's bcrypt alone took up to 0.3 s here,
            # more on a loaded machine.
            code, out, err, _ = mint(f"etcd://{ep}/{PREFIX}cli?ttl=5&user=ids&{query}", env=env)
            self.assertEqual(code, 0, f"{query}: {err}")
            self.assertEqual(len(out.split()), 2)

    def test_password_file_that_is_a_fifo(self):
        # A FIFO with no writer would block the claim for ever inside the read.
        ep = Setup.auth.endpoint
        fifo = os.path.join(Setup.dir, "pw-fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        self.refused(f"etcd://{ep}/{PREFIX}cli?user=ids&password_file={fifo}",
                     "password_file", "is not a regular file")

    def test_password_that_is_not_utf8(self):
        # The JSON gateway would get it changed, and the refusal would blame the password.
        ep = Setup.auth.endpoint
        path = os.path.join(Setup.dir, "pw-latin1")
        with open(path, "wb") as f:
            f.write(b"p\xe9w\n")
        self.refused(f"etcd://{ep}/{PREFIX}cli?user=ids&password_file={path}",
                     "not valid UTF-8")

    def test_wrong_password(self):
        ep = Setup.auth.endpoint
        self.refused(f"etcd://{ep}/{PREFIX}cli?user=ids&password=not-{PASSWORD}",
                     "wrong password or no such user", "'ids'", endpoint=ep)

    def test_unknown_user(self):
        ep = Setup.auth.endpoint
        self.refused(f"etcd://{ep}/{PREFIX}cli?user=ghost&password_file={Setup.dir}/pw",
                     "wrong password or no such user", "'ghost'", endpoint=ep)

    def test_user_without_permission_on_the_prefix(self):
        ep = Setup.auth.endpoint
        self.refused(f"etcd://{ep}/{PREFIX}cli?user=nobody&password_file={Setup.dir}/pw",
                     "permission denied", "user 'nobody' needs read and write on the prefix",
                     endpoint=ep)
        # ids may write authtest/ only
        self.refused(f"etcd://{ep}/elsewhere?user=ids&password_file={Setup.dir}/pw",
                     "permission denied", "'elsewhere/'", endpoint=ep)

    def test_no_user_against_an_etcd_that_checks_users(self):
        ep = Setup.auth.endpoint
        self.refused(f"etcd://{ep}/{PREFIX}cli", "give user=", endpoint=ep)

    def test_user_against_an_etcd_without_auth(self):
        ep = Setup.tls.endpoint
        self.refused(f"etcd://{ep}/cli?{tls_query()}&user=ids&password_file={Setup.dir}/pw",
                     "does not check users", endpoint=ep)

    def test_password_file_and_variable_missing(self):
        ep = Setup.auth.endpoint
        self.refused(f"etcd://{ep}/{PREFIX}cli?user=ids&password_file={Setup.dir}/nope",
                     "password_file", "No such file")
        self.refused(f"etcd://{ep}/{PREFIX}cli?user=ids&password_env=SNOWFLEET_NO_SUCH_VAR",
                     "SNOWFLEET_NO_SUCH_VAR", "is not set")
        empty = os.path.join(Setup.dir, "empty-pw")
        open(empty, "w").close()
        self.refused(f"etcd://{ep}/{PREFIX}cli?user=ids&password_file={empty}",
                     "password_file", "is empty")

    def test_inline_password_is_redacted_from_refusals(self):
        # A spec error quotes the spec: the password is shown as ***.
        err = self.refused(f"etcd://127.0.0.1:1/p?user=ids&password={PASSWORD}&ttl=1",
                           "INVALID_ARGUMENT", "password=***")
        self.assertNotIn(PASSWORD, err)

    # ---- endpoints and replies ----
    def test_unreachable_endpoints(self):
        a, b = free_ports(2)
        self.refused(f"etcd://127.0.0.1:{a},127.0.0.1:{b}/p?ttl=2", "unreachable",
                     endpoint=f"127.0.0.1:{b}")

    def test_malformed_endpoint_lists(self):
        for spec in ("etcd://127.0.0.1:2379,,127.0.0.1:2380/p", "etcd://ids:pw@127.0.0.1:2379/p",
                     "etcd://127.0.0.1:2379 /p", "etcd://127.0.0.1:2379,127.0.0.1:2379/p"):
            self.refused(spec, "INVALID_ARGUMENT", "endpoint")

    def test_reply_cut_short(self):
        srv = RawServer(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 400\r\n\r\n{\"header\":{\"revision\":")
        self.addCleanup(srv.close)
        self.refused(f"etcd://{srv.endpoint}/p?ttl=2", "cut short", endpoint=srv.endpoint)

    def test_reply_not_http(self):
        srv = RawServer(b"\x00\x01garbage that is not HTTP\r\n\r\n")
        self.addCleanup(srv.close)
        self.refused(f"etcd://{srv.endpoint}/p?ttl=2", endpoint=srv.endpoint)

    def test_go_https_server_answering_plaintext(self):
        # What Go's net/http writes when its TLS listener reads plain HTTP.
        srv = RawServer(b"HTTP/1.0 400 Bad Request\r\n\r\n"
                        b"Client sent an HTTP request to an HTTPS server.\n")
        self.addCleanup(srv.close)
        self.refused(f"etcd://{srv.endpoint}/p?ttl=2", "is a TLS endpoint", "add cacert=",
                     endpoint=srv.endpoint)

    def test_endpoint_that_accepts_and_never_answers(self):
        srv = RawServer(None)
        self.addCleanup(srv.close)
        self.refused(f"etcd://{srv.endpoint}/p?ttl=2", endpoint=srv.endpoint)

    def test_reply_not_json(self):
        fake = FakeEtcd({"/v3/lease/grant": b"<html>gateway error</html>"})
        self.addCleanup(fake.close)
        self.refused(f"etcd://{fake.endpoint}/p?ttl=2", "not JSON", endpoint=fake.endpoint)

    def test_authenticate_reply_without_token_or_echoing_the_password(self):
        fake = FakeEtcd({"/v3/auth/authenticate": lambda body: {"header": {}}})
        self.addCleanup(fake.close)
        self.refused(f"etcd://{fake.endpoint}/p?user=ids&password_file={Setup.dir}/pw",
                     "without a token")
        echo = FakeEtcd({"/v3/auth/authenticate": lambda body: {
            "error": f"bad password {body.get('password')}", "code": 3}})
        self.addCleanup(echo.close)
        self.refused(f"etcd://{echo.endpoint}/p?user=ids&password_file={Setup.dir}/pw",
                     "bad password ***", endpoint=echo.endpoint)


class TokenUse(unittest.TestCase):
    """Against a fake gateway that records headers: one authentication per process (the
    claim's and the keepalive thread's handles share the token), and the token on every
    other request, keepalives included."""

    def test_one_token_per_process_on_every_request(self):
        fake = FakeEtcd({"/v3/auth/authenticate": lambda body: {"header": {}, "token": "tok.1"}})
        self.addCleanup(fake.close)
        spec = f"etcd://{fake.endpoint}/p?ttl=2&node=3&user=ids&password_file={Setup.dir}/pw"
        p = subprocess.run([WORKER, "--source", spec, "--seconds", "2"], capture_output=True,
                           text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)
        paths = [path for path, _ in fake.requests]
        print(f"\n  requests: {', '.join(f'{x} x{paths.count(x)}' for x in sorted(set(paths)))}",
              flush=True)
        self.assertEqual(paths.count("/v3/auth/authenticate"), 1)
        self.assertGreaterEqual(paths.count("/v3/lease/keepalive"), 2)
        for (path, _), headers in zip(fake.requests, fake.headers):
            if path != "/v3/auth/authenticate":
                self.assertEqual(headers.get("Authorization"), "tok.1", path)
        self.assertNotIn(PASSWORD, p.stdout + p.stderr)


class RawServer:
    """Accepts connections and answers each with `reply` bytes then closes (None: reads and
    never answers)."""

    def __init__(self, reply):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.endpoint = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.reply = reply
        self.conns = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)
            if self.reply is not None:
                try:
                    c.recv(65536)
                    c.sendall(self.reply)
                    c.close()
                except OSError:
                    pass

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
