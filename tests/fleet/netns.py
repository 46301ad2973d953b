"""A network namespace joined to the host by veth pairs, for partition tests: run a process
inside it (`wrap(cmd)`), then cut a link both ways or one way, and heal it.

Cuts use the neighbour table, not tc: this VM's kernel has no netem, no tc filters or
actions and no iptables. A side whose neighbour entry for the other end names a MAC
address nobody has sends frames the other veth end silently drops (not its address):
exactly a one-way loss, with no error to the sender (a blackhole route would fail
connect() at once instead). `cut(link, "out")` loses what the namespace sends, "in" what
the host sends into it, "both" both; `heal()` restores the real addresses.

Needs root and `ip` (iproute2); `Netns.unavailable()` says why not, so a test can skip
loudly. Addresses are random free /30s in 10.213.0.0/16; names are short (interface names
are at most 15 bytes) and carry the pid, so tests running in parallel do not collide.
"""
import ipaddress
import os
import random
import shutil
import subprocess

BOGUS_MAC = "02:00:5e:00:53:01"  # locally administered, on no interface


def run(*cmd, check=True):
    return subprocess.run(cmd, capture_output=True, text=True, check=check)


class Link:
    def __init__(self, host_dev, ns_dev, host_ip, ns_ip):
        self.host_dev, self.ns_dev = host_dev, ns_dev
        self.host_ip, self.ns_ip = host_ip, ns_ip


class Netns:
    _count = 0

    @staticmethod
    def unavailable():
        """None when namespaces, veth and neighbour cuts work here, else why not."""
        if os.geteuid() != 0:
            return "not root"
        if not shutil.which("ip"):
            return "no ip binary (iproute2)"
        try:
            ns = Netns()
        except (OSError, subprocess.CalledProcessError) as e:
            return f"cannot create a network namespace with a veth: {getattr(e, 'stderr', e)}"
        try:
            ns.cut(ns.links[0], "both")
            ns.heal()
        except subprocess.CalledProcessError as e:
            return f"cannot set neighbour entries: {e.stderr.strip()}"
        finally:
            ns.close()
        return None

    def __init__(self, links=1):
        Netns._count += 1
        self.tag = f"{os.getpid() % 100000}{Netns._count}"
        self.name = f"sf{self.tag}"
        self.links = []
        self.closed = False
        run("ip", "netns", "add", self.name)
        try:
            self.exec("ip", "link", "set", "lo", "up")
            for _ in range(links):
                self.add_link()
        except subprocess.CalledProcessError:
            self.close()
            raise

    @property
    def host_ip(self):
        return self.links[0].host_ip

    @property
    def ns_ip(self):
        return self.links[0].ns_ip

    def add_link(self):
        k = len(self.links)
        host_dev, ns_dev = f"sfh{self.tag}{k}", f"sfn{self.tag}{k}"
        used = run("ip", "-o", "addr").stdout
        while True:
            net = ipaddress.ip_network(
                f"10.213.{random.randrange(256)}.{4 * random.randrange(64)}/30")
            host_ip, ns_ip = (str(h) for h in net.hosts())
            if f" {host_ip}/" not in used and f" {ns_ip}/" not in used:
                break
        run("ip", "link", "add", host_dev, "type", "veth", "peer", "name", ns_dev)
        run("ip", "link", "set", ns_dev, "netns", self.name)
        run("ip", "addr", "add", f"{host_ip}/30", "dev", host_dev)
        run("ip", "link", "set", host_dev, "up")
        self.exec("ip", "addr", "add", f"{ns_ip}/30", "dev", ns_dev)
        self.exec("ip", "link", "set", ns_dev, "up")
        link = Link(host_dev, ns_dev, host_ip, ns_ip)
        self.links.append(link)
        return link

    def wrap(self, cmd):
        """cmd run inside the namespace (ip netns exec execs it: same pid for signals)."""
        return ["ip", "netns", "exec", self.name, *cmd]

    def exec(self, *cmd):
        return run(*self.wrap(list(cmd)))

    def cut(self, link, direction="both"):
        """Lose what crosses `link`: "out" (sent by the namespace), "in" (sent into it) or
        "both". Connections stay open; their packets vanish, as on a broken network."""
        if direction in ("out", "both"):
            self.exec("ip", "neigh", "replace", link.host_ip, "lladdr", BOGUS_MAC, "dev",
                      link.ns_dev, "nud", "permanent")
        if direction in ("in", "both"):
            run("ip", "neigh", "replace", link.ns_ip, "lladdr", BOGUS_MAC, "dev", link.host_dev,
                "nud", "permanent")

    def heal(self):
        """Forget every cut: the next packets resolve the real addresses again."""
        for link in self.links:
            self.exec("ip", "neigh", "flush", "dev", link.ns_dev)
            run("ip", "neigh", "flush", "dev", link.host_dev)
            # A permanent entry survives a flush; delete it if present.
            run(*self.wrap(["ip", "neigh", "del", link.host_ip, "dev", link.ns_dev]), check=False)
            run("ip", "neigh", "del", link.ns_ip, "dev", link.host_dev, check=False)

    def close(self):
        if self.closed:
            return
        self.closed = True
        for link in self.links:
            run("ip", "link", "del", link.host_dev, check=False)  # takes its peer with it
        run("ip", "netns", "del", self.name, check=False)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
