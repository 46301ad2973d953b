"""The Kubernetes Lease protocol the k8s-lease:// node source is built on, against a real
kube-apiserver on a private etcd (tests/fleet/kube.py), so each fact the design in
docs/lease-engines.md rests on fails here if a Kubernetes release changes it:

  - every credential a holder may be given (token and client-certificate kubeconfigs, by
    file and inline, relative paths, current-context, KUBECONFIG, ~/.kube/config, the
    pod's service account) reads with client-go's own loader and authenticates as the user
    the Role is bound to;
  - a slot Lease is created once (a second create: 409 AlreadyExists), renewed and taken
    over by a JSON merge patch carrying metadata.resourceVersion (a stale one: 409
    Conflict), its mark in an annotation, renewTime in MicroTime (exactly 6 digits);
  - a missing permission is a 403 whose message names verb, resource and namespace;
  - a Lease deleted under its holder: the holder's patch gets 404 (a PUT would re-create it);
  - the API server restarted: the Lease and its resourceVersion chain survive.

    KUBE_APISERVER=... KUBECLIENT=... python3 tests/fleet/kube_protocol_test.py
"""
import datetime
import json
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kube import LEASE_VERBS, KubeApiserver, kube_binaries  # noqa: E402

MARK = "snowfleet.dev/mark-ms"


def micro_time(t=None):
    """Kubernetes MicroTime: RFC 3339 in UTC with exactly six fractional digits."""
    t = t or datetime.datetime.now(datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Cluster:
    k = None
    client = None


def setUpModule():
    server, Cluster.client = kube_binaries()
    Cluster.k = KubeApiserver(binary=server)
    Cluster.k.__enter__()
    t = Cluster.k.timings
    print(f"\n  kube-apiserver ready in {t['ready']:.2f} s, with namespace, RBAC and "
          f"credentials {t['total']:.2f} s", flush=True)


def tearDownModule():
    if Cluster.k:
        Cluster.k.close()


def lease(name, holder, mark_ms, ttl=10):
    return {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": name, "labels": {"snowfleet.dev/prefix": "ids"},
                         "annotations": {MARK: str(mark_ms)}},
            "spec": {"holderIdentity": holder, "leaseDurationSeconds": ttl,
                     "acquireTime": micro_time(), "renewTime": micro_time(), "leaseTransitions": 0}}


class Credentials(unittest.TestCase):
    def whoami(self, *args, env=None, wrap=lambda c: c):
        p = subprocess.run(wrap([Cluster.client, *args, "whoami"]), capture_output=True, text=True,
                           timeout=30, env=dict(os.environ, **(env or {})))
        self.assertEqual(p.returncode, 0, p.stderr)
        return json.loads(p.stdout)

    def test_every_kubeconfig_reads_with_client_go_as_its_user(self):
        k = Cluster.k
        expected = {"token": "ids-token", "cert": "ids-cert", "cert-files": "ids-cert",
                    "norole": "ids-norole", "multi": "ids-token"}
        for name, user in expected.items():
            with self.subTest(kubeconfig=name):
                me = self.whoami("--kubeconfig", k.kubeconfigs[name])
                self.assertEqual(me["user"], user)
                self.assertEqual(me["namespace"], k.namespace)
                self.assertEqual("snowfleet-ids" in me["groups"], name != "norole")
        for context, user in (("cert", "ids-cert"), ("insecure", "ids-token")):
            with self.subTest(context=context):
                me = self.whoami("--kubeconfig", k.kubeconfigs["multi"], "--context", context)
                self.assertEqual(me["user"], user)

    def test_kubeconfig_from_the_environment_then_the_home_directory(self):
        k = Cluster.k
        self.assertEqual(self.whoami(env={"KUBECONFIG": k.kubeconfigs["cert"]})["user"], "ids-cert")
        home = os.path.join(k.dir, "home")
        os.makedirs(os.path.join(home, ".kube"), exist_ok=True)
        shutil.copy(k.kubeconfigs["token"], os.path.join(home, ".kube", "config"))
        self.assertEqual(self.whoami(env={"HOME": home, "KUBECONFIG": ""})["user"], "ids-token")

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("unshare"),
                         "needs root and unshare for a private mount namespace")
    def test_the_pods_service_account(self):
        k = Cluster.k
        before = os.path.exists("/var/run/secrets/kubernetes.io")
        me = self.whoami("--in-cluster", env=k.in_cluster_env(), wrap=k.in_cluster_command)
        self.assertEqual(me["user"], f"system:serviceaccount:{k.namespace}:ids")
        self.assertEqual(me["namespace"], k.namespace)
        self.assertEqual(os.path.exists("/var/run/secrets/kubernetes.io"), before,
                         "the host's /run was changed")


class LeaseProtocol(unittest.TestCase):
    def create(self, name, user="ids-token", holder="web-1 pid 1 a1", mark=1000):
        return Cluster.k.request("POST", Cluster.k.lease_path(), lease(name, holder, mark), user=user)

    def patch(self, name, rv, body, user="ids-token"):
        body = dict(body, metadata=dict(body.get("metadata", {}), resourceVersion=rv))
        return Cluster.k.request("PATCH", Cluster.k.lease_path(name), body, user=user)

    def test_create_once_then_renew_and_take_over_with_resource_version_preconditions(self):
        status, first = self.create("ids-0")
        self.assertEqual(status, 201, first)
        rv = first["metadata"]["resourceVersion"]
        status, lost = self.create("ids-0", user="ids-cert", holder="web-2 pid 2 b2")
        self.assertEqual((status, lost["reason"]), (409, "AlreadyExists"), lost)

        renew = {"metadata": {"annotations": {MARK: "2000"}}, "spec": {"renewTime": micro_time()}}
        status, renewed = self.patch("ids-0", rv, renew)
        self.assertEqual(status, 200, renewed)
        self.assertNotEqual(renewed["metadata"]["resourceVersion"], rv)
        self.assertEqual(renewed["metadata"]["annotations"][MARK], "2000")
        self.assertEqual(renewed["metadata"]["labels"], {"snowfleet.dev/prefix": "ids"})

        take = {"spec": {"holderIdentity": "web-2 pid 2 b2", "acquireTime": micro_time(),
                         "renewTime": micro_time(), "leaseTransitions": 1}}
        status, stale = self.patch("ids-0", rv, take, user="ids-cert")
        self.assertEqual((status, stale["reason"]), (409, "Conflict"), stale)
        status, taken = self.patch("ids-0", renewed["metadata"]["resourceVersion"], take, user="ids-cert")
        self.assertEqual(status, 200, taken)

        p = subprocess.run([Cluster.client, "--kubeconfig", Cluster.k.kubeconfigs["cert"], "lease", "ids-0"],
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)
        seen = json.loads(p.stdout)
        self.assertEqual(seen["spec"]["holderIdentity"], "web-2 pid 2 b2")
        self.assertEqual(seen["metadata"]["annotations"][MARK], "2000")

    def test_renew_time_is_micro_time_with_exactly_six_digits(self):
        status, created = self.create("ids-1")
        self.assertEqual(status, 201, created)
        self.assertRegex(created["spec"]["renewTime"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")
        rv = created["metadata"]["resourceVersion"]
        for bad in ("2026-12-04T16:35:34.681Z", "2026-12-04T16:35:34Z", "2026-12-04T16:35:34.681362123Z"):
            with self.subTest(renewTime=bad):
                status, reply = self.patch("ids-1", rv, {"spec": {"renewTime": bad}})
                # A patch is refused as 422 Invalid (a PUT or POST: 400 BadRequest).
                self.assertEqual((status, reply["reason"]), (422, "Invalid"), reply)
                self.assertIn('as "2006-01-02T15:04:05.000000Z07:00"', reply["message"])

    def test_a_missing_permission_names_verb_resource_and_namespace(self):
        k = Cluster.k
        status, reply = self.create("ids-2", user="ids-norole")
        self.assertEqual((status, reply["reason"]), (403, "Forbidden"), reply)
        self.assertIn('User "ids-norole" cannot create resource "leases" in API group '
                      f'"coordination.k8s.io" in the namespace "{k.namespace}"', reply["message"])
        status, created = self.create("ids-2")
        self.assertEqual(status, 201, created)
        k.revoke_binding()
        try:
            status, reply = self.patch("ids-2", created["metadata"]["resourceVersion"],
                                       {"spec": {"renewTime": micro_time()}})
            self.assertEqual(status, 403, reply)
            self.assertIn('cannot patch resource "leases"', reply["message"])
        finally:
            k.grant_binding()
        k.set_role_verbs([v for v in LEASE_VERBS if v != "list"])
        try:
            status, reply = k.request("GET", k.lease_path(), user="ids-cert")
            self.assertEqual(status, 403, reply)
            self.assertIn('User "ids-cert" cannot list resource "leases"', reply["message"])
        finally:
            k.set_role_verbs(LEASE_VERBS)

    def test_a_lease_deleted_under_its_holder_is_not_found_by_its_patch(self):
        k = Cluster.k
        status, created = self.create("ids-3")
        self.assertEqual(status, 201, created)
        rv = created["metadata"]["resourceVersion"]
        k.delete_lease("ids-3")
        status, reply = self.patch("ids-3", rv, {"spec": {"renewTime": micro_time()}})
        self.assertEqual((status, reply["reason"]), (404, "NotFound"), reply)
        self.assertIsNone(k.get_lease("ids-3"))
        # Why holders must not PUT: an update carrying a resourceVersion re-creates it.
        body = lease("ids-3", "web-1 pid 1 a1", 1000)
        body["metadata"]["resourceVersion"] = rv
        status, reply = k.request("PUT", k.lease_path("ids-3"), body, user="admin")
        self.assertEqual(status, 201, reply)

    def test_z_leases_survive_an_api_server_restart(self):
        k = Cluster.k
        status, created = self.create("ids-4")
        self.assertEqual(status, 201, created)
        k.restart_apiserver()
        status, renewed = self.patch("ids-4", created["metadata"]["resourceVersion"],
                                     {"spec": {"renewTime": micro_time()}})
        self.assertEqual(status, 200, renewed)


if __name__ == "__main__":
    unittest.main(verbosity=2)
