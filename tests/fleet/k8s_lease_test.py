#!/usr/bin/env python3
"""k8s-lease:// node ids on a real kube-apiserver (tests/fleet/kube.py), through the real
engine (fleet_worker and the CLI): claim, renew and release; holders never sharing a slot,
claimants racing for the same slots; every credential a holder may be given (token and
client-certificate kubeconfigs, relative paths, a context chosen by name, in-cluster); a
missing RBAC permission refused with the documented error; the mark surviving an API server
restart; and faults: a holder SIGSTOPped past its TTL, the API server restarted, the Lease
deleted under a live holder (also re-created at once by a newcomer: fenced). Every worker
writes a history; tests/fleet/history_check.py checks them all: zero duplicates, zero ids
past a deadline, zero overlapping holders.

    KUBE_APISERVER=... ETCD_BIN=... FLEET_WORKER=out/fleet/tests/fleet_worker \
      SNOWFLEET_CLI=out/fleet/core/snowfleet python3 tests/fleet/k8s_lease_test.py
(scripts/test/fleet.sh runs it, unless SNOWFLEET_K8S=0.)
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import history_check  # noqa: E402
from fleet_test import Worker, decode  # noqa: E402
from kube import KubeApiserver  # noqa: E402

CLI = os.path.abspath(os.environ.get("SNOWFLEET_CLI", "out/fleet/core/snowfleet"))
# Renewals every 1.66 s; local deadline = renewal sent + 4 s (margin 1 s).
TTL = 5
MARK = "snowfleet.dev/mark-ms"


def mono_ns():
    return time.monotonic_ns()


class K8sLeases(unittest.TestCase):
    maxDiff = 600
    kube = None

    @classmethod
    def setUpClass(cls):
        cls.kube = KubeApiserver()
        cls.kube.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.kube.close()

    def setUp(self):
        # A prefix per test: its own slots, Leases ids-<test>-N.
        self.prefix = "t" + self.id().split(".")[-1][5:30].replace("_", "-").rstrip("-")
        self.hist_dir = tempfile.mkdtemp(prefix="k8slease-hist-")
        self.addCleanup(shutil.rmtree, self.hist_dir, True)
        self.workers = []

    def source(self, query="", kubeconfig="token"):
        return (f"k8s-lease://{self.prefix}?ttl={TTL}"
                f"&kubeconfig={self.kube.kubeconfigs[kubeconfig]}{query}")

    def worker(self, query="", seconds=60, kubeconfig="token"):
        w = Worker(self.source(query, kubeconfig), "--seconds", seconds, "--burst", 4,
                   "--pause-us", 1000, "--keep-going", "--max-wait-ms", 5.0, "--history",
                   os.path.join(self.hist_dir, f"w{len(self.workers) + 1}"))
        self.workers.append(w)
        self.addCleanup(lambda: w.proc.poll() is None and w.proc.kill())
        return w

    def cli(self, source, n=3, env=None, cmd=None):
        p = subprocess.run((cmd or []) + [CLI, "next", "--node-source", source, "-n", str(n)],
                           capture_output=True, text=True, timeout=60, env=env)
        ids = [int(x) for x in p.stdout.split()] if p.returncode == 0 else []
        return p, ids

    def lease(self, n):
        return self.kube.get_lease(f"{self.prefix}-{n}")

    def check(self):
        """Stops every worker and checks every history; returns the report."""
        for w in self.workers:
            if w.proc.poll() is None:
                os.kill(w.proc.pid, signal.SIGCONT)
            w.stop()
        paths = [os.path.join(self.hist_dir, f) for f in sorted(os.listdir(self.hist_dir))]
        report = history_check.check(paths)
        print("\n  " + report.summary(), flush=True)
        self.assertEqual(report.violations, [], report.summary())
        ids = [i for w in self.workers for i in w.ids()]
        self.assertEqual(len(ids), len(set(ids)), "an id minted twice")
        return report

    def refusals_since(self, t):
        paths = [os.path.join(self.hist_dir, f) for f in os.listdir(self.hist_dir)]
        return [r for p in history_check.parse(paths) for r in p.refusals if r[0] >= t]

    def ids_after(self, w, t_ms):
        return [line for at, line in w.snapshot() if line.startswith("ids ") and at > t_ms]

    # --- claim, renew, release ----------------------------------------------------------
    def test_two_holders_and_the_cli_get_different_slots(self):
        ws = [self.worker(), self.worker(kubeconfig="cert")]
        nodes = [w.node() for w in ws]
        self.assertNotIn(None, nodes, [w.snapshot()[:2] for w in ws])
        p, ids = self.cli(self.source(kubeconfig="cert-files"))
        self.assertEqual(p.returncode, 0, p.stderr)
        cli_node = decode(ids[0])["node"]
        self.assertEqual(len({*nodes, cli_node}), 3, (nodes, cli_node))
        # The CLI gave its Lease back: no holder, its mark kept.
        released = self.lease(cli_node)
        self.assertIsNone(released["spec"].get("holderIdentity"), released)
        self.assertGreaterEqual(int(released["metadata"]["annotations"][MARK]),
                                decode(ids[-1])["ms"])
        self.assertEqual(released["metadata"]["labels"]["snowfleet.dev/prefix"], self.prefix)
        time.sleep(TTL)  # several renewals
        self.assertEqual(self.refusals_since(0), [])
        for w, n in zip(ws, nodes):
            held = self.lease(n)["spec"]
            self.assertIn(" pid ", held["holderIdentity"])
            self.assertEqual(held["leaseDurationSeconds"], TTL)
        self.check()

    def test_claimants_racing_for_the_same_slots_each_get_their_own(self):
        # Six at once: all try the lowest slot never created first; the losers (409
        # AlreadyExists) move on, nobody overwrites.
        procs = [subprocess.Popen([CLI, "next", "--node-source", self.source(), "-n", "2"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(6)]
        outs = [p.communicate(timeout=60) for p in procs]
        self.assertEqual([p.returncode for p in procs], [0] * 6, [e for _, e in outs])
        nodes = [decode(int(o.split()[0]))["node"] for o, _ in outs]
        # Each released its slot at exit, so a later one may reuse a slot; the ids differ.
        ids = [int(x) for o, _ in outs for x in o.split()]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertTrue(all(0 <= n < 1024 for n in nodes), nodes)
        # Concurrent holders (workers started together) get distinct slots.
        ws = [self.worker() for _ in range(4)]
        nodes = [w.node() for w in ws]
        self.assertNotIn(None, nodes)
        self.assertEqual(len(set(nodes)), 4, nodes)
        self.check()

    def test_a_pinned_slot_that_is_held_is_refused_clearly(self):
        w = self.worker()
        node = w.node()
        p, _ = self.cli(self.source(f"&node={node}"))
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(f"Lease {self.prefix}-{node} in namespace ids is held by another process",
                      p.stderr)
        self.check()

    # --- credentials ----------------------------------------------------------------------
    def test_a_context_chosen_by_name_and_kubeconfig_from_the_environment(self):
        p, ids = self.cli(self.source("&context=cert", kubeconfig="multi"))
        self.assertEqual(p.returncode, 0, p.stderr)
        env = dict(os.environ, KUBECONFIG="/nonexistent:" + self.kube.kubeconfigs["token"])
        p, ids = self.cli(f"k8s-lease://{self.prefix}?ttl={TTL}", env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        p, _ = self.cli(self.source("&context=nope", kubeconfig="multi"))
        self.assertIn("has no context 'nope'", p.stderr)

    @unittest.skipUnless(os.getuid() == 0 and shutil.which("unshare"), "needs root (unshare)")
    def test_in_cluster_with_the_pods_service_account(self):
        env = {k: v for k, v in os.environ.items() if k != "KUBECONFIG"}
        env.update(self.kube.in_cluster_env(), HOME=self.hist_dir)
        p, ids = self.cli(f"k8s-lease://{self.prefix}?ttl={TTL}", env=env,
                          cmd=self.kube.in_cluster_command([]))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(ids), 3)

    def test_a_missing_permission_is_refused_naming_verb_resource_and_namespace(self):
        p, _ = self.cli(self.source(kubeconfig="norole"))
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(f'k8s-lease://{self.prefix}: user "ids-norole" may not list leases '
                      '(coordination.k8s.io) in namespace "ids" (HTTP 403); grant the Role in '
                      'docs/fleet.md', p.stderr)
        self.assertIn("NODE_ID_UNAVAILABLE", p.stderr)

    # --- the mark and faults ----------------------------------------------------------------
    def test_the_mark_survives_an_api_server_restart(self):
        p, before = self.cli(self.source("&node=3"), n=50)
        self.assertEqual(p.returncode, 0, p.stderr)
        mark = int(self.lease(3)["metadata"]["annotations"][MARK])
        self.assertGreaterEqual(mark, decode(before[-1])["ms"])
        self.kube.restart_apiserver(signal.SIGKILL)
        self.assertEqual(int(self.lease(3)["metadata"]["annotations"][MARK]), mark)
        p, after = self.cli(self.source("&node=3"), n=50)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertGreater(min(after), max(before))
        self.assertGreater(decode(min(after))["ms"], mark)

    def test_a_holder_paused_past_its_ttl_refuses_and_a_newcomer_takes_the_slot(self):
        a = self.worker()
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(1.0)
        transitions = self.lease(node)["spec"].get("leaseTransitions", 0)
        os.kill(a.proc.pid, signal.SIGSTOP)
        time.sleep(TTL + 1.5)  # past renewTime + TTL + margin
        b = self.worker(f"&node={node}")
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        self.assertEqual(self.lease(node)["spec"]["leaseTransitions"], transitions + 1)
        time.sleep(1.0)
        os.kill(a.proc.pid, signal.SIGCONT)
        time.sleep(2.5)  # a's deadline has passed: it refuses; its renewal finds the Lease taken
        self.assertTrue(any("LEASE" in e for e in a.errors()), a.snapshot()[-3:])
        self.check()
        self.assertGreater(len(b.ids()), 1000)

    def test_the_api_server_restarted_under_holders(self):
        ws = [self.worker(), self.worker()]
        self.assertNotIn(None, [w.node() for w in ws])
        time.sleep(1.0)
        self.kube.restart_apiserver()
        time.sleep(TTL)
        back = int(time.time() * 1000)
        time.sleep(1.5)
        for w in ws:  # nobody took their Leases: the next renewals confirm
            self.assertTrue(self.ids_after(w, back), w.snapshot()[-3:])
        self.check()

    def test_etcd_stopped_under_the_api_server_then_continued(self):
        # Writes hang; the holder's renewals time out (unconfirmed), it refuses from its
        # deadline on. A write that timed out may still be applied once etcd continues: the
        # next renewal then gets 409, reads the Lease, finds itself the holder and goes on.
        w = self.worker()
        node = w.node()
        self.assertIsNotNone(node, w.why_no_node())
        time.sleep(1.0)
        t0 = mono_ns()
        self.kube.etcd.stop(0)
        try:
            time.sleep(TTL + 1.0)
        finally:
            self.kube.etcd.cont(0)
        self.assertTrue(self.refusals_since(t0), "the holder minted past its deadline")
        time.sleep(TTL)
        back = int(time.time() * 1000)
        time.sleep(1.5)
        self.assertTrue(self.ids_after(w, back), w.snapshot()[-3:])
        self.assertFalse(any("LEASE_LOST" in e and "held by" in e for e in w.errors()))
        self.check()

    def test_the_binding_revoked_under_a_holder_then_granted(self):
        w = self.worker()
        self.assertIsNotNone(w.node(), w.why_no_node())
        time.sleep(1.0)
        t0 = mono_ns()
        self.kube.revoke_binding()
        try:
            time.sleep(TTL + 1.0)  # renewals: 403, unconfirmed; refusals from the deadline
        finally:
            self.kube.grant_binding()
        self.assertTrue(self.refusals_since(t0), "the holder minted past its deadline")
        time.sleep(TTL / 3 + 1.0)
        back = int(time.time() * 1000)
        time.sleep(1.5)
        self.assertTrue(self.ids_after(w, back), w.snapshot()[-3:])
        self.check()

    def test_the_lease_deleted_under_a_holder_stops_it(self):
        a = self.worker()
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(1.0)
        self.kube.delete_lease(f"{self.prefix}-{node}")
        time.sleep(TTL / 3 + 1.0)  # the next renewal: 404
        self.assertTrue(any("LEASE_LOST" in e for e in a.errors()), a.snapshot()[-3:])
        b = self.worker(f"&node={node}")
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        time.sleep(1.0)
        self.check()

    def test_the_lease_deleted_under_a_holder_and_recreated_at_once_is_fenced(self):
        # The newcomer re-creates the deleted slot (201) before the holder's next renewal
        # (up to TTL/3 later) finds it gone: the holder still mints until then. The prefix's
        # genesis Lease lists the slot as created before, so the newcomer's first id comes
        # after the holder's deadline must be past (now + TTL + margin).
        a = self.worker()
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(0.2)  # just after the claim: the next renewal is ~1.4 s away
        t_ms = int(time.time() * 1000)
        self.kube.delete_lease(f"{self.prefix}-{node}")
        b = self.worker(f"&node={node}")
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        time.sleep(TTL + 3.0)  # past the fence: the newcomer mints
        self.assertTrue(any("LEASE_LOST" in e for e in a.errors()), a.snapshot()[-3:])
        self.check()
        self.assertTrue(b.ids(), b.snapshot()[-3:])
        first_ms = min(decode(i)["ms"] for i in b.ids())
        self.assertGreater(first_ms, t_ms + TTL * 1000, "the newcomer minted inside the fence")
        # A fresh prefix is not fenced: its first id comes at once.
        self.prefix += "-fresh"
        t_ms = int(time.time() * 1000)
        p, ids = self.cli(self.source())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertLess(decode(ids[0])["ms"], t_ms + 3000)


if __name__ == "__main__":
    unittest.main(verbosity=2)
