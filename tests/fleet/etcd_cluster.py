"""A real etcd cluster on private ports for fault tests: start N members (Debian's
etcd-server) in a temp directory, then kill, stop (SIGSTOP), continue, restart (with its
data) any member, find the leader, wait for health. Reusable by every fault test:

    with EtcdCluster(3) as c:
        src = f"etcd://{c.endpoints()}/prefix?ttl=4"
        c.kill(c.leader()); c.restart(...); c.wait_healthy()

`client_hosts` adds addresses the members also listen on (a veth's host side, for workers
in a network namespace); `scheme` and `member_args` let a caller start a TLS cluster
(`scheme="https"`, `member_args=lambda i: ["--cert-file", ...]`, `curl_args` for the
probes). Every member gets its own free client and peer port and its own data dir; close()
kills them all and removes the directory, whatever state they are in.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

ETCD_BIN = os.environ.get("ETCD_BIN", shutil.which("etcd") or "etcd")


def free_ports(n):
    """n distinct free loopback TCP ports (held open together so none repeats)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


class EtcdCluster:
    def __init__(self, size=3, client_hosts=("127.0.0.1",), scheme="http", member_args=None,
                 curl_args=(), heartbeat_ms=100, election_ms=1000, member_hosts=None,
                 member_wrap=None):
        """member_hosts(i): (peer host, [client hosts]) of member i, to place members on
        different addresses (default: peers on 127.0.0.1, clients on client_hosts);
        member_wrap(i): a command prefix (a network namespace's `ip netns exec NAME`)."""
        self.size = size
        self.dir = tempfile.mkdtemp(prefix="snowfleet-cluster-")
        self.hosts = list(client_hosts)
        self.member_hosts = member_hosts or (lambda i: ("127.0.0.1", self.hosts))
        self.member_wrap = member_wrap or (lambda i: [])
        self.scheme = scheme
        self.member_args = member_args or (lambda i: [])
        self.curl_args = list(curl_args)
        self.timing = ["--heartbeat-interval", str(heartbeat_ms),
                       "--election-timeout", str(election_ms)]
        ports = free_ports(2 * size)
        self.client = ports[:size]
        self.peer = ports[size:]
        self.procs = [None] * size
        self.stopped = [False] * size
        self.token = f"snowfleet-{os.getpid()}-{time.monotonic_ns()}"
        self.logs = [open(os.path.join(self.dir, f"m{i}.log"), "ab") for i in range(size)]

    # --- addresses -------------------------------------------------------------------
    def endpoint(self, i, host=None):
        """host:port of member i: on `host` if given, else its first client address."""
        return f"{host or self.member_hosts(i)[1][0]}:{self.client[i]}"

    def endpoints(self, host=None, members=None):
        """Comma-separated host:port list, as an etcd:// source takes it."""
        return ",".join(self.endpoint(i, host) for i in (members or range(self.size)))

    def _initial_cluster(self):
        return ",".join(f"m{i}=http://{self.member_hosts(i)[0]}:{self.peer[i]}"
                        for i in range(self.size))

    # --- lifecycle -------------------------------------------------------------------
    def start(self, timeout=30):
        for i in range(self.size):
            self._spawn(i, "new")
        self.wait_healthy(timeout)
        return self

    def _spawn(self, i, state):
        peer_host, client_hosts = self.member_hosts(i)
        listen = ",".join(f"{self.scheme}://{h}:{self.client[i]}" for h in client_hosts)
        peer = f"http://{peer_host}:{self.peer[i]}"
        cmd = [*self.member_wrap(i), ETCD_BIN, "--name", f"m{i}", "--data-dir", os.path.join(self.dir, f"m{i}"),
               "--listen-client-urls", listen,
               "--advertise-client-urls", f"{self.scheme}://{self.endpoint(i)}",
               "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
               "--initial-cluster", self._initial_cluster(),
               "--initial-cluster-token", self.token,
               "--initial-cluster-state", state, *self.timing, *self.member_args(i)]
        self.procs[i] = subprocess.Popen(cmd, stdout=self.logs[i], stderr=subprocess.STDOUT,
                                         cwd=self.dir)
        self.stopped[i] = False

    def alive(self, i):
        return self.procs[i] is not None and self.procs[i].poll() is None

    def kill(self, i):
        """SIGKILL member i (its data dir stays for restart())."""
        p = self.procs[i]
        if p is not None and p.poll() is None:
            if self.stopped[i]:
                p.send_signal(signal.SIGCONT)
            p.kill()
            p.wait()
        self.procs[i] = None
        self.stopped[i] = False

    def stop(self, i):
        """SIGSTOP member i: its sockets accept connections, nothing answers."""
        self.procs[i].send_signal(signal.SIGSTOP)
        self.stopped[i] = True

    def cont(self, i):
        self.procs[i].send_signal(signal.SIGCONT)
        self.stopped[i] = False

    def restart(self, i):
        """Start member i again on its old data dir (after kill())."""
        self.kill(i)
        self._spawn(i, "existing")

    def close(self):
        for i in range(self.size):
            try:
                self.kill(i)
            except ProcessLookupError:
                pass
        for f in self.logs:
            f.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # --- probes ----------------------------------------------------------------------
    def post(self, i, path, body, timeout=1.0):
        """POST JSON to member i's gateway; the reply as a dict, None if it did not answer."""
        try:
            out = subprocess.run(
                ["curl", "-s", "--noproxy", "*", "-m", str(timeout), *self.curl_args,
                 "-X", "POST", f"{self.scheme}://{self.endpoint(i)}{path}",
                 "-d", json.dumps(body)],
                capture_output=True, text=True, timeout=timeout + 2)
            return json.loads(out.stdout) if out.returncode == 0 and out.stdout else None
        except (subprocess.TimeoutExpired, ValueError):
            return None

    def status(self, i):
        """(member_id, leader_id) as member i sees them, or None."""
        r = self.post(i, "/v3/maintenance/status", {})
        if not r or "header" not in r:
            return None
        return r["header"].get("member_id"), r.get("leader")

    def leader(self, timeout=10):
        """Index of the member the running members agree leads, waiting up to timeout."""
        end = time.time() + timeout
        while time.time() < end:
            seen = {i: self.status(i) for i in range(self.size)
                    if self.alive(i) and not self.stopped[i]}
            ids = {s[0]: i for i, s in seen.items() if s}
            leaders = {s[1] for s in seen.values() if s}
            if len(leaders) == 1 and next(iter(leaders)) in ids:
                return ids[next(iter(leaders))]
            time.sleep(0.05)
        raise TimeoutError(f"no leader agreed within {timeout} s: {self.tail()}")

    def followers(self):
        lead = self.leader()
        return [i for i in range(self.size) if i != lead and self.alive(i)]

    def healthy(self, i):
        """Member i answers a linearizable read (it is part of a quorum with a leader)."""
        r = self.post(i, "/v3/kv/range", {"key": "AA=="})
        return bool(r and "header" in r and "error" not in r)

    def wait_healthy(self, timeout=30, members=None):
        members = [i for i in (members if members is not None else range(self.size))
                   if self.alive(i) and not self.stopped[i]]
        end = time.time() + timeout
        while time.time() < end:
            if all(self.healthy(i) for i in members):
                return
            time.sleep(0.1)
        raise TimeoutError(f"etcd members {members} not healthy in {timeout} s: {self.tail()}")

    def tail(self, n=5):
        out = []
        for i in range(self.size):
            try:
                with open(os.path.join(self.dir, f"m{i}.log"), "rb") as f:
                    lines = f.read().decode(errors="replace").splitlines()[-n:]
                out.append(f"m{i}: " + " | ".join(lines))
            except OSError:
                pass
        return "\n".join(out)


if __name__ == "__main__":  # smoke test: python3 tests/fleet/etcd_cluster.py
    with EtcdCluster(3) as c:
        lead = c.leader()
        print("endpoints", c.endpoints(), "leader m%d" % lead)
        c.kill(lead)
        print("after killing the leader: new leader m%d" % c.leader())
        c.restart(lead)
        c.wait_healthy()
        print("restarted m%d with its data: all healthy" % lead)
