#!/usr/bin/env python3
"""k8s-lease:// under faults injected through a plain-HTTP proxy (tests/fleet/k8s_fault_proxy.py)
in front of a real kube-apiserver, and under hand edits of the Leases by an admin. Each test
states the fault. Those marked expectedFailure are known limits (docs/fleet.md,
docs/lease-engines.md): a re-created Lease without the genesis fence, every create
conflicting, the write rate. A slot Lease restored from an older copy is a known limit too,
asserted as measured (its race is decided in the test, so the outcome is not left to timing).

    k=/root/.cache/snowfleet/kube-ea30db9e29e0794e
    KUBE_APISERVER=$k/kube-apiserver KUBECLIENT=$k/kubeclient ETCD_BIN=$(command -v etcd) \
      FLEET_WORKER=out/fleet/tests/fleet_worker SNOWFLEET_CLI=out/fleet/core/snowfleet \
      python3 tests/fleet/k8s_edit_test.py [-k name]
"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import history_check  # noqa: E402
from fleet_test import Worker, decode  # noqa: E402
from k8s_fault_proxy import FaultProxy  # noqa: E402
from kube import KubeApiserver  # noqa: E402

CLI = os.path.abspath(os.environ.get("SNOWFLEET_CLI", "out/fleet/core/snowfleet"))
MARK = "snowfleet.dev/mark-ms"


class K8sEdits(unittest.TestCase):
    maxDiff = 2000
    kube = None

    @classmethod
    def setUpClass(cls):
        cls.kube = KubeApiserver()
        cls.kube.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.kube.close()

    def setUp(self):
        # Each test its own prefix: a short form of its name and a hash of the whole name
        # (two names may share their first 25 characters).
        name = self.id().split(".")[-1]
        self.prefix = ("b" + name[5:30].replace("_", "-").rstrip("-") + "-" +
                       format(zlib.crc32(name.encode()) & 0xffff, "04x"))
        self.hist_dir = tempfile.mkdtemp(prefix="k8sedit-hist-")
        self.addCleanup(shutil.rmtree, self.hist_dir, True)
        self.workers = []
        self.proxy = None

    def tearDown(self):
        if self.proxy:
            self.proxy.close()

    def make_proxy(self):
        self.proxy = FaultProxy(self.kube)
        return self.proxy

    def source(self, ttl, query="", kubeconfig=None):
        kc = kubeconfig or self.kube.kubeconfigs["token"]
        return f"k8s-lease://{self.prefix}?ttl={ttl}&kubeconfig={kc}{query}"

    def worker(self, ttl, query="", seconds=60, kubeconfig=None, extra=()):
        w = Worker(self.source(ttl, query, kubeconfig), "--seconds", seconds, "--burst", 4,
                   "--pause-us", 1000, "--keep-going", "--max-wait-ms", 5.0, "--history",
                   os.path.join(self.hist_dir, f"w{len(self.workers) + 1}"), *extra)
        self.workers.append(w)
        self.addCleanup(lambda: w.proc.poll() is None and w.proc.kill())
        return w

    def cli(self, source, n=3, timeout=120):
        t0 = time.monotonic()
        p = subprocess.run([CLI, "next", "--node-source", source, "-n", str(n)],
                           capture_output=True, text=True, timeout=timeout)
        return p, time.monotonic() - t0

    def report(self):
        for w in self.workers:
            if w.proc.poll() is None:
                os.kill(w.proc.pid, signal.SIGCONT)
            w.stop()
        paths = [os.path.join(self.hist_dir, f) for f in sorted(os.listdir(self.hist_dir))]
        r = history_check.check(paths)
        print("\n  " + r.summary(), flush=True)
        ids = [i for w in self.workers for i in w.ids()]
        dups = len(ids) - len(set(ids))
        return r, dups

    def assertClean(self):
        r, dups = self.report()
        self.assertEqual((r.violations[:5], dups), ([], 0), r.summary())

    def lease(self, name):
        return self.kube.get_lease(name)

    def patch(self, name, body):
        return self.kube.must("PATCH", self.kube.lease_path(name), body)

    # --- 1. a renewal carrying a stale mark lowers the persisted mark -------------------
    def test_the_persisted_mark_never_goes_down(self):
        """The renewal thread reads mark_ms_ before it takes http_mu_; a mark write holding
        the mutex completes first, then the renewal writes the older mark over it (a merge
        patch overwrites the annotation; the PostgreSQL engine uses greatest()). Replies are
        slowed (250 ms) so a mark write's round trip is long, as on a loaded API server."""
        p = self.make_proxy()

        def fault(ex):
            if ex.method == "PATCH":
                ex.delay_reply = float(os.environ.get("MARK_DELAY_S", "0.25"))
        p.fault = fault
        w = self.worker(2, kubeconfig=p.kubeconfig, seconds=40)
        node = w.node()
        self.assertIsNotNone(node, w.snapshot()[:3])
        time.sleep(30)
        w.proc.kill()  # no release: the Lease keeps what was last written
        w.finish()
        confirmed = []
        for ex in list(p.log):
            if ex.method != "PATCH" or ex.status != 200 or f"{self.prefix}-{node}" not in ex.path:
                continue
            rep = json.loads(ex.reply)
            req = ex.req_json() or {}
            mark = rep["metadata"].get("annotations", {}).get(MARK)
            sent = (req.get("metadata", {}).get("annotations") or {}).get(MARK)
            confirmed.append((int(rep["metadata"]["resourceVersion"]), int(mark or -1),
                              sent is not None and "spec" in req and "holderIdentity" not in req["spec"]))
        confirmed.sort()
        drops = [(a, b) for a, b in zip(confirmed, confirmed[1:]) if b[1] < a[1]]
        final = int(self.lease(f"{self.prefix}-{node}")["metadata"]["annotations"][MARK])
        print(f"\n  {len(confirmed)} confirmed patches, {len(drops)} lowered the mark; "
              f"first drops (rv, mark): {drops[:3]}; final annotation {final}, "
              f"highest confirmed mark {max(c[1] for c in confirmed)}", flush=True)
        self.assertEqual(drops, [], "a confirmed write lowered the persisted mark")

    # --- 2. one Lease with a garbage mark annotation ------------------------------------
    def test_one_garbage_annotation_does_not_block_the_prefix(self):
        """A hand-edited Lease of the prefix (not a slot the claimant wants) with a mark that
        is not a decimal int64: the whole list is refused, so no process can claim any slot."""
        p0, _ = self.cli(self.source(5))
        self.assertEqual(p0.returncode, 0, p0.stderr)
        for bad in ("abc", "99999999999999999999"):
            name = f"{self.prefix}-77"
            self.kube.request("DELETE", self.kube.lease_path(name))
            self.kube.must("POST", self.kube.lease_path(), {
                "metadata": {"name": name, "labels": {"snowfleet.dev/prefix": self.prefix},
                             "annotations": {MARK: bad}},
                "spec": {}})
            p, _ = self.cli(self.source(5))
            print(f"\n  mark {bad!r} on {name}: rc {p.returncode} {p.stderr.strip()[:200]}",
                  flush=True)
            # Claimed (a strict CLI may then wait out the slot's fence: not a refusal of the claim).
            self.assertNotIn("NODE_ID_UNAVAILABLE", p.stderr, "one odd Lease refused every claim")

    def test_garbage_annotation_on_a_held_lease_the_holder_recovers(self):
        """The holder's own Lease gets a non-integer mark annotation (a hand edit): its next
        renewal is a 409 (the edit moved the resourceVersion), after_conflict() GETs the Lease
        and parse_lease() refuses it, so the resourceVersion is never adopted and every later
        renewal is a 409 again: the holder stays unconfirmed for good."""
        a = self.worker(3, seconds=30)
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(0.5)
        self.patch(f"{self.prefix}-{node}", {"metadata": {"annotations": {MARK: "oops"}}})
        time.sleep(8)
        t = time.time() * 1000
        time.sleep(3)
        recent = [l for at, l in a.snapshot() if at > t]
        ids = [l for l in recent if l.startswith("ids ")]
        errs = [l for l in recent if l.startswith("error ")]
        ann = self.lease(f"{self.prefix}-{node}")["metadata"]["annotations"][MARK]
        print(f"\n  8-11 s after the edit: {len(ids)} id bursts, {len(errs)} refusals "
              f"(last: {errs[-1:]}); annotation now {ann!r}", flush=True)
        self.assertTrue(ids, "the holder never recovered from a garbage annotation")
        self.assertClean()

    # --- 3. hand edits of the holder's Lease --------------------------------------------
    def _two_holders_after(self, edit):
        a = self.worker(30, seconds=40)
        node = a.node()
        self.assertIsNotNone(node, a.snapshot()[:3])
        time.sleep(0.5)
        edit(f"{self.prefix}-{node}")
        time.sleep(2.5)
        b = self.worker(5, f"&node={node}", seconds=15)
        got = b.node()
        time.sleep(12)
        r, dups = self.report()
        print(f"  newcomer got node {got}; holder errors: {a.errors()[:2]}", flush=True)
        return r, dups, got, node

    def test_lease_duration_lowered_by_hand(self):
        """leaseDurationSeconds lowered by hand (kubectl edit) under a holder of TTL 30: a
        newcomer judges the Lease expired by the edited duration and takes it over while the
        holder (deadline ~24 s ahead, next renewal up to 10 s away) still mints."""
        r, dups, got, node = self._two_holders_after(
            lambda name: self.patch(name, {"spec": {"leaseDurationSeconds": 1}}))
        self.assertEqual((r.violations[:4], dups), ([], 0), r.summary())

    def test_lease_duration_lowered_by_hand_is_restated(self):
        """leaseDurationSeconds lowered by hand under a holder of TTL 30: the holder's next
        renewals (the mark's, twice a second while it mints) write its TTL back, so the
        Lease does not stay looking expired to claimants."""
        a = self.worker(30, seconds=20)
        node = a.node()
        self.assertIsNotNone(node, a.snapshot()[:3])
        name = f"{self.prefix}-{node}"
        self.patch(name, {"spec": {"leaseDurationSeconds": 1}})
        deadline, spec = time.monotonic() + 12, {}
        while time.monotonic() < deadline:
            spec = self.lease(name)["spec"]
            if spec.get("leaseDurationSeconds") == 30:
                break
            time.sleep(0.2)
        self.assertEqual(spec.get("leaseDurationSeconds"), 30, spec)
        self.assertEqual(a.errors(), [])
        self.assertClean()

    def test_genesis_max_ttl_lowered_then_slot_deleted(self):
        """The genesis's max-ttl lowered by hand (30 -> 2) under a holder of TTL 30, then
        its slot Lease deleted: a newcomer of TTL 2 re-creates it fenced by 2 s + 0.5 s only;
        the holder mints until its next renewal (up to 10 s)."""
        a = self.worker(30, seconds=40)
        node = a.node()
        self.assertIsNotNone(node, a.snapshot()[:3])
        time.sleep(0.3)
        self.patch(f"{self.prefix}-genesis",
                   {"metadata": {"annotations": {"snowfleet.dev/max-ttl-s": "2"}}})
        self.kube.delete_lease(f"{self.prefix}-{node}")
        b = self.worker(2, f"&node={node}", seconds=15)
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        time.sleep(12)
        r, dups = self.report()
        print(f"  holder errors: {a.errors()[:2]}", flush=True)
        self.assertEqual((r.violations[:4], dups), ([], 0), r.summary())

    def test_genesis_max_ttl_past_any_ttl_refuses(self):
        """The genesis's max-ttl raised by hand past any TTL a holder may take (int64's
        largest), then a holder's slot deleted: the newcomer that re-creates it is refused
        naming the annotation, never left unfenced by an overflowing fence."""
        a = self.worker(10, seconds=20)
        node = a.node()
        self.assertIsNotNone(node, a.snapshot()[:3])
        self.patch(f"{self.prefix}-genesis",
                   {"metadata": {"annotations": {"snowfleet.dev/max-ttl-s": str(2**63 - 1)}}})
        self.kube.delete_lease(f"{self.prefix}-{node}")
        p, dt = self.cli(self.source(10, f"&node={node}"))
        print(f"\n  newcomer: rc {p.returncode} in {dt:.1f} s: {p.stderr.strip()[:240]}", flush=True)
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn("snowfleet.dev/max-ttl-s is 9223372036854775807, above the longest TTL",
                      p.stderr)
        self.assertClean()

    def test_renewals_answered_429_keep_their_deadline(self):
        """Each renewal of a holder of TTL 3 is turned away three times (429, Retry-After 2)
        before it goes through: the Lease's renewTime is the first sending's, so the
        holder's deadline counts from the first sending too, and the newcomers that take
        the slot as soon as it looks expired never overlap it."""
        p = self.make_proxy()
        seen = {}

        def fault(ex):
            if ex.method == "PATCH" and b"renewTime" in ex.body and b"holderIdentity" not in ex.body:
                seen[ex.body] = seen.get(ex.body, 0) + 1
                if seen[ex.body] <= 3:
                    ex.answer = (429, b'{"kind":"Status","reason":"TooManyRequests","message":'
                                      b'"Too many requests"}', {"Retry-After": "2"})
        a = self.worker(3, seconds=30, kubeconfig=p.kubeconfig)
        node = a.node()
        self.assertIsNotNone(node, a.snapshot()[:3])
        p.fault = fault
        got, t0 = None, time.monotonic()
        while got is None and time.monotonic() - t0 < 20:
            b = self.worker(3, f"&node={node}", seconds=8)
            if b.node() is None:
                b.stop()
                time.sleep(0.3)
            else:
                got = time.monotonic() - t0
        print(f"\n  a newcomer took the slot after {got} s", flush=True)
        self.assertIsNotNone(got)
        time.sleep(9)
        self.assertClean()

    def test_lease_transitions_at_the_api_maximum(self):
        """A free Lease whose leaseTransitions was set by hand to 2^31 - 1, the largest the
        API takes: a takeover keeps it there instead of sending a count the API server
        refuses (422), so the slot can still be taken, listed or pinned."""
        p, _ = self.cli(self.source(3))
        self.assertEqual(p.returncode, 0, p.stderr)
        node = decode(int(p.stdout.split()[0]))["node"]
        self.patch(f"{self.prefix}-{node}", {"spec": {"leaseTransitions": 2**31 - 1}})
        for query in ("", f"&node={node}"):
            p, _ = self.cli(self.source(3, query))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(decode(int(p.stdout.split()[0]))["node"], node)
        self.assertEqual(self.lease(f"{self.prefix}-{node}")["spec"]["leaseTransitions"], 2**31 - 1)

    def test_takeover_refused_as_invalid_moves_on(self):
        """The takeover of a free Lease answered 422 (an edit no takeover can make valid, or
        an admission policy): the claim gives that slot up and takes another, and says why
        when pinned to it."""
        p, _ = self.cli(self.source(3))
        self.assertEqual(p.returncode, 0, p.stderr)
        node = decode(int(p.stdout.split()[0]))["node"]
        proxy = self.make_proxy()

        def fault(ex):
            if ex.method == "PATCH" and b"holderIdentity" in ex.body and b"acquireTime" in ex.body:
                ex.answer = (422, b'{"kind":"Status","reason":"Invalid","message":'
                                  b'"Lease.coordination.k8s.io is invalid: spec: refused here"}', {})
        proxy.fault = fault
        p, _ = self.cli(self.source(3, kubeconfig=proxy.kubeconfig))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotEqual(decode(int(p.stdout.split()[0]))["node"], node)
        p, _ = self.cli(self.source(3, f"&node={node}", kubeconfig=proxy.kubeconfig))
        self.assertNotEqual(p.returncode, 0, p.stdout)
        self.assertIn(f"cannot be taken: Lease {self.prefix}-{node}: the API server refused the "
                      "takeover as invalid (HTTP 422: Lease.coordination.k8s.io is invalid",
                      p.stderr)

    @unittest.expectedFailure  # known: without the genesis nothing fences a re-created slot (docs/fleet.md)
    def test_genesis_deleted_then_slot_deleted(self):
        """Documented as unsafe (fleet.md): the genesis deleted while holders live, then a slot."""
        a = self.worker(10, seconds=30)
        node = a.node()
        self.assertIsNotNone(node, a.snapshot()[:3])
        time.sleep(0.3)
        self.kube.delete_lease(f"{self.prefix}-genesis")
        self.kube.delete_lease(f"{self.prefix}-{node}")
        b = self.worker(10, f"&node={node}", seconds=10)
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        time.sleep(5)
        r, dups = self.report()
        self.assertEqual((r.violations[:4], dups), ([], 0), r.summary())

    def test_genesis_garbage_refuses_claims_holders_live_on(self):
        a = self.worker(5, seconds=20)
        node = a.node()
        self.assertIsNotNone(node, a.snapshot()[:3])
        self.patch(f"{self.prefix}-genesis",
                   {"metadata": {"annotations": {"snowfleet.dev/slots-created": "0-,x"}}})
        p, dt = self.cli(self.source(5))
        print(f"\n  claim with garbage genesis: rc {p.returncode} in {dt:.1f} s: "
              f"{p.stderr.strip()[:200]}", flush=True)
        self.assertNotEqual(p.returncode, 0)
        time.sleep(6)
        self.assertEqual([e for e in a.errors() if "LEASE_LOST" in e], [])
        self.assertClean()

    def test_holder_identity_rewritten_by_hand(self):
        a = self.worker(5, seconds=20)
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(0.3)
        self.patch(f"{self.prefix}-{node}", {"spec": {"holderIdentity": "someone else"}})
        time.sleep(3)
        self.assertTrue(any("LEASE_LOST" in e for e in a.errors()), a.snapshot()[-3:])
        self.assertClean()

    def test_mark_lowered_by_hand_is_rewritten(self):
        a = self.worker(5, seconds=20)
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(0.3)
        self.patch(f"{self.prefix}-{node}", {"metadata": {"annotations": {MARK: "5"}}})
        time.sleep(3)
        m = int(self.lease(f"{self.prefix}-{node}")["metadata"]["annotations"][MARK])
        self.assertGreater(m, int(time.time() * 1000), "the holder did not restore its mark")
        self.assertClean()

    def test_slot_lease_restored_from_an_older_copy(self):
        """A known limit, asserted as documented (docs/lease-engines.md: a Lease restored to
        an older holder that looks expired is indistinguishable from a real expiry). A
        restore (Velero-style: delete, then create the saved object) puts back the holder's
        own Lease as it was TTL + 2.5 s ago: same holder, an old renewTime, a lower mark. A
        newcomer takes it over (a takeover: no fence) while the holder mints on until its
        next write gets 409: ids below the holder's persisted mark, and two holders at once.

        The restore lands just after one of the holder's writes, and the holder's next
        writes are held back (in a proxy) until the newcomer has claimed: the race the
        restore opens is decided for the newcomer. Left to itself, the holder's next write
        (at most about 0.5 s later) finds its own restored Lease, adopts it, and the
        newcomer finds the slot held, about half the time. If this test fails, the limit is
        gone: update lease-engines.md, and assert a clean history here."""
        p = self.make_proxy()
        armed, release = threading.Event(), threading.Event()
        let_through = []  # the holder's one write after arming, before the restore

        def fault(ex):
            if ex.method != "PATCH" or not armed.is_set():
                return
            if not let_through:
                let_through.append(ex)
            else:
                release.wait(30)
        p.fault = fault
        a = self.worker(3, seconds=30, kubeconfig=p.kubeconfig)
        node = a.node()
        self.assertIsNotNone(node, a.snapshot()[:3])
        name = f"{self.prefix}-{node}"
        saved = self.lease(name)
        time.sleep(3 + 2.5)
        armed.set()
        deadline = time.monotonic() + 10
        while not (let_through and let_through[0].status) and time.monotonic() < deadline:
            time.sleep(0.005)
        self.assertTrue(let_through and let_through[0].status == 200, "the holder wrote nothing")
        md = saved["metadata"]
        copy = {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
                "metadata": {"name": md["name"], "labels": md.get("labels", {}),
                             "annotations": md.get("annotations", {})},
                "spec": saved["spec"]}
        self.kube.delete_lease(name)
        self.kube.must("POST", self.kube.lease_path(), copy)
        b = self.worker(3, f"&node={node}", seconds=6)
        got = b.node()
        time.sleep(0.5)  # the newcomer mints while the holder's write waits
        release.set()
        time.sleep(3)
        r, dups = self.report()
        print(f"  newcomer got {got}; holder errors {a.errors()[:1]}", flush=True)
        self.assertEqual(got, node, b.snapshot()[:3])
        self.assertTrue(any("LEASE_LOST" in e for e in a.errors()), a.snapshot()[-3:])
        kinds = {v.split(":")[0] for v in r.violations}
        self.assertLessEqual({"below mark", "overlap"}, kinds, r.summary())

    def test_token_file_rotated_and_ca_mismatch(self):
        d = tempfile.mkdtemp(dir=self.kube.dir)
        tok = os.path.join(d, "token")
        with open(tok, "w") as f:
            f.write("wrong-token\n")
        kc = os.path.join(d, "kc")
        with open(kc, "w") as f:
            f.write(f"""apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: {self.kube.server}
    certificate-authority: {os.path.join(self.kube.dir, 'ca.pem')}
users:
- name: u
  user:
    tokenFile: {tok}
contexts:
- name: c
  context:
    cluster: c
    user: u
    namespace: {self.kube.namespace}
current-context: c
""")
        p, _ = self.cli(self.source(5, kubeconfig=kc))
        print(f"\n  wrong token: rc {p.returncode}: {p.stderr.strip()[:160]}", flush=True)
        self.assertNotEqual(p.returncode, 0)
        with open(tok, "w") as f:
            f.write(self.kube.tokens["ids-token"] + "\n")
        a = self.worker(3, seconds=15, kubeconfig=kc)
        self.assertIsNotNone(a.node(), a.snapshot()[:2])
        os.remove(tok)  # the kubelet's rotation is a rename; a gap: no file for a while
        time.sleep(2)
        with open(tok + ".new", "w") as f:
            f.write(self.kube.tokens["ids-token"] + "\n")
        os.rename(tok + ".new", tok)
        time.sleep(4)
        t = time.time() * 1000
        time.sleep(1.5)
        self.assertTrue([l for at, l in a.snapshot() if at > t and l.startswith("ids ")],
                        a.snapshot()[-2:])
        self.assertClean()
        # CA mismatch: another CA file
        other = os.path.join(d, "other-ca.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                        os.path.join(d, "k"), "-out", other, "-subj", "/CN=x", "-days", "1"],
                       capture_output=True, check=True)
        with open(kc) as f:
            text = f.read().replace(os.path.join(self.kube.dir, "ca.pem"), other)
        with open(kc, "w") as f:
            f.write(text)
        p, dt = self.cli(self.source(5, kubeconfig=kc))
        print(f"  CA mismatch: rc {p.returncode} in {dt:.1f} s: {p.stderr.strip()[:200]}", flush=True)
        self.assertNotEqual(p.returncode, 0)

    def test_server_url_with_a_path(self):
        p = self.make_proxy()

        def fault(ex):
            if ex.path.startswith("/k8s/"):
                ex.path = ex.path[4:]
            else:
                ex.answer = (404, b'{"message":"not under /k8s"}', {})
        p.fault = fault
        with open(p.kubeconfig) as f:
            text = f.read().replace(f"127.0.0.1:{p.port}", f"127.0.0.1:{p.port}/k8s/")
        kc = p.kubeconfig + ".path"
        with open(kc, "w") as f:
            f.write(text)
        pr, _ = self.cli(self.source(5, kubeconfig=kc))
        print(f"\n  server with a path: rc {pr.returncode}: {pr.stderr.strip()[:200]}", flush=True)
        self.assertEqual(pr.returncode, 0, pr.stderr)

    def test_renewal_reply_with_odd_fields(self):
        """The API server (a proxy here) answers renewals with odd Leases: another holder,
        no resourceVersion, a huge leaseDurationSeconds, renewTime unparsable. None may
        extend the deadline of a holder that the store does not confirm."""
        p = self.make_proxy()
        state = {"mode": None}

        def fault(ex):
            m = state["mode"]
            if m is None or ex.method != "PATCH":
                return

            def mut(status, j):
                if status != 200 or not isinstance(j, dict):
                    return status, j
                if m == "other":
                    j["spec"]["holderIdentity"] = "another process"
                elif m == "norv":
                    j["metadata"].pop("resourceVersion", None)
                elif m == "huge":
                    j["spec"]["leaseDurationSeconds"] = 2 ** 62
                elif m == "badtime":
                    j["spec"]["renewTime"] = "yesterday"
                return status, j
            ex.mutate = mut
        p.fault = fault
        w = self.worker(3, kubeconfig=p.kubeconfig, seconds=40)
        self.assertIsNotNone(w.node(), w.why_no_node())
        for mode in ("other", None, "norv", None, "huge", None, "badtime", None):
            state["mode"] = mode
            time.sleep(4)
        t = time.time() * 1000
        time.sleep(2)
        self.assertTrue([l for at, l in w.snapshot() if at > t and l.startswith("ids ")],
                        w.snapshot()[-2:])
        self.assertClean()

    # --- 4. the API server misbehaving ---------------------------------------------------
    def test_api_server_hangs_then_recovers(self):
        p = self.make_proxy()
        state = {"mode": None}

        def fault(ex):
            m = state["mode"]
            if m == "hang":
                ex.hang = True
            elif m == "429":
                ex.answer = (429, b'{"kind":"Status","reason":"TooManyRequests","message":"slow down"}',
                             {"Retry-After": "1"})
            elif m == "500":
                ex.answer = (500, b"<html>oops", {})
            elif m == "garbage200":
                ex.answer = (200, b'{"metadata": 5}', {})
            elif m == "slow":
                ex.delay = 1.9
        p.fault = fault
        w = self.worker(3, kubeconfig=p.kubeconfig, seconds=60)
        self.assertIsNotNone(w.node(), w.snapshot()[:3])
        for mode in ("hang", None, "429", None, "500", None, "garbage200", None, "slow", None):
            state["mode"] = mode
            time.sleep(5 if mode else 4)
        t = time.time() * 1000
        time.sleep(2)
        self.assertTrue([l for a, l in w.snapshot() if l.startswith("ids ") and a > t],
                        f"no ids after the faults: {w.snapshot()[-3:]}")
        state["mode"] = None
        self.assertClean()

    @unittest.expectedFailure  # known: the mark keeper writes about twice a second, not every TTL/3
    def test_write_rate_of_one_holder(self):
        """fleet.md: the holder renews every TTL/3. Count the Lease writes one holder of TTL
        10 sends in 10 s, minting and idle (the mark keeper writes when under 0.5 s of
        headroom is left, and each write gives 1 s)."""
        p = self.make_proxy()
        counts = {}
        for label, args in (("minting", ()), ("idle", ("--pause-us", 500000, "--burst", 1))):
            w = Worker(self.source(10, kubeconfig=p.kubeconfig), "--seconds", 14, *args)
            self.addCleanup(lambda w=w: w.proc.poll() is None and w.proc.kill())
            self.assertIsNotNone(w.node(), w.why_no_node())
            time.sleep(2)
            t0 = time.monotonic()
            time.sleep(10)
            n = sum(1 for ex in list(p.log) if ex.method == "PATCH" and t0 <= ex.t < t0 + 10)
            w.stop()
            print(f"\n  {label}: {n} PATCHes in 10 s at TTL 10 (TTL/3 renewals: 3)", flush=True)
            counts[label] = n
        self.assertLessEqual(max(counts.values()), 6, counts)

    def test_claim_through_one_429(self):
        """API Priority and Fairness answers 429 with Retry-After under load (many pods
        starting at once): one 429 on the claim's list."""
        p = self.make_proxy()
        n = {"left": 1}

        def fault(ex):
            if n["left"] > 0:
                n["left"] -= 1
                ex.answer = (429, b'{"kind":"Status","reason":"TooManyRequests","message":'
                                  b'"Too many requests, please try again later."}', {"Retry-After": "1"})
        p.fault = fault
        pr, dt = self.cli(self.source(5, kubeconfig=p.kubeconfig))
        print(f"\n  one 429: rc {pr.returncode} in {dt:.1f} s: {pr.stderr.strip()[:200]}", flush=True)
        self.assertEqual(pr.returncode, 0, pr.stderr)

    def test_claim_against_only_429s_is_bounded(self):
        """A server that turns every request away (429, Retry-After 30): the claim retries
        within its request timeout, then is refused naming the answer."""
        p = self.make_proxy()

        def fault(ex):
            ex.answer = (429, b'{"kind":"Status","reason":"TooManyRequests","message":'
                              b'"Too many requests, please try again later."}', {"Retry-After": "30"})
        p.fault = fault
        pr, dt = self.cli(self.source(5, kubeconfig=p.kubeconfig), timeout=60)
        n = sum(1 for ex in p.log)
        print(f"\n  only 429s: rc {pr.returncode} in {dt:.1f} s, {n} requests: "
              f"{pr.stderr.strip()[:200]}", flush=True)
        self.assertNotEqual(pr.returncode, 0)
        self.assertIn("429", pr.stderr)
        self.assertLess(dt, 15)
        self.assertLessEqual(n, 4 * 4)

    def test_claim_against_a_hung_server_is_bounded(self):
        p = self.make_proxy()
        p.fault = lambda ex: setattr(ex, "hang", True)
        pr, dt = self.cli(self.source(30, kubeconfig=p.kubeconfig), timeout=60)
        print(f"\n  hung: rc {pr.returncode} in {dt:.1f} s: {pr.stderr.strip()[:160]}", flush=True)
        self.assertLess(dt, 10)

    @unittest.expectedFailure  # known: unlabelled Leases make every create a 409, one per slot
    def test_claim_when_every_create_conflicts(self):
        """Leases named like slots but without the prefix label (a restore that dropped
        labels): the list shows none, every create is 409; how long does a claim take?"""
        p = self.make_proxy()

        def fault(ex):
            if ex.method == "POST" and b'"holderIdentity"' in ex.body:
                ex.delay = 0.05
                ex.answer = (409, b'{"kind":"Status","reason":"AlreadyExists","message":"exists"}', {})
        p.fault = fault
        pr, dt = self.cli(self.source(30, kubeconfig=p.kubeconfig), timeout=600)
        n = sum(1 for ex in p.log)
        print(f"\n  rc {pr.returncode} in {dt:.1f} s, {n} requests: {pr.stderr.strip()[:200]}",
              flush=True)
        self.assertLess(dt, 30)

    # --- 5. claimants and permissions ----------------------------------------------------
    def test_more_claimants_than_slots(self):
        layout = "41.2.20@1704067200000"  # 4 slots
        ws = [self.worker(3, seconds=12, extra=("--layout", layout)) for _ in range(8)]
        nodes = [w.node() for w in ws]
        got = sorted(n for n in nodes if n is not None)
        print(f"\n  nodes {nodes}", flush=True)
        self.assertEqual(got, [0, 1, 2, 3])
        time.sleep(4)
        self.assertClean()

    def test_get_list_only(self):
        self.kube.set_role_verbs(["get", "list"])
        try:
            p, dt = self.cli(self.source(5))
        finally:
            self.kube.set_role_verbs(["get", "list", "create", "patch"])
        print(f"\n  get/list only: rc {p.returncode} in {dt:.1f} s: {p.stderr.strip()[:240]}",
              flush=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("may not create", p.stderr)

    def test_sigstop_past_ttl(self):
        a = self.worker(3, seconds=40)
        node = a.node()
        self.assertIsNotNone(node, a.why_no_node())
        time.sleep(0.5)
        os.kill(a.proc.pid, signal.SIGSTOP)
        time.sleep(5)
        b = self.worker(3, f"&node={node}", seconds=10)
        self.assertEqual(b.node(), node, b.snapshot()[:3])
        os.kill(a.proc.pid, signal.SIGCONT)
        time.sleep(5)
        self.assertClean()


if __name__ == "__main__":
    unittest.main(verbosity=2)
