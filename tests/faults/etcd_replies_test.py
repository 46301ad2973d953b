"""Malformed etcd replies (a fake etcd JSON gateway, tests/faults/fake_etcd.py) must never
be read as "this slot has no history".

    SNOWFLEET_CLI=out/b/core/snowfleet python3 tests/faults/etcd_replies_test.py
"""
import os
import resource
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from fake_etcd import FakeEtcd, b64  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("SNOWFLEET_CLI", os.path.join(ROOT, "out/b/core/snowfleet"))
EPOCH = 1704067200000


def now_ms():
    return time.time_ns() // 1_000_000


def mint(endpoint, extra="", n=1, timeout=60):
    """Runs the CLI against the fake; returns (exit code, stdout, stderr)."""
    p = subprocess.run([CLI, "next", "--node-source", f"etcd://{endpoint}/p?ttl=5&node=7{extra}",
                        "-n", str(n)], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def id_ms(i):
    return (int(i) >> 22) + EPOCH


HEADER = {"cluster_id": "1", "member_id": "1", "revision": "5", "raft_term": "2"}


class MarkHiddenByReplyShape(unittest.TestCase):
    """The claim transaction puts the slot key and reads <prefix>/marks/N in one revision.
    If the reply carries the range result anywhere but responses[1].response_range.kvs
    (camelCase from a JSON transcoder, a missing responses array), the core reads "no
    mark" and mints at once, under a mark an hour ahead."""

    def run_with_txn_reply(self, reply):
        fake = FakeEtcd({"/v3/kv/txn": reply})
        self.addCleanup(fake.close)
        code, out, err = mint(fake.endpoint)
        minted = [int(x) for x in out.split()]
        return code, minted, err

    def check(self, reply, what):
        mark = now_ms() + 3_600_000
        reply = reply(b64(str(mark)))
        code, minted, err = self.run_with_txn_reply(reply)
        below = [i for i in minted if id_ms(i) <= mark]
        self.assertEqual(below, [], f"{what}: minted {minted} (ms {[id_ms(i) for i in minted]}) "
                                    f"under the slot's mark {mark}; exit {code}, stderr {err.strip()}")

    def test_camel_case_response_range(self):
        self.check(lambda v: {"header": HEADER, "succeeded": True,
                              "responses": [{"responsePut": {"header": HEADER}},
                                            {"responseRange": {"header": HEADER,
                                                               "kvs": [{"value": v}], "count": "1"}}]},
                   "responseRange (camelCase)")

    def test_no_responses_array(self):
        self.check(lambda v: {"header": HEADER, "succeeded": True}, "no responses array")


class TtlOutOfRange(unittest.TestCase):
    """A granted TTL of 99,999,999,999 s (more than etcd's own maximum, 9e9 s) is multiplied
    by 1e9 into int64 nanoseconds: signed overflow (UBSan: node_source_etcd.cc "signed
    integer overflow"; the keepalive path has the same product). In a release build the
    deadline wraps 246 years ahead, so the local fence never fires. Now the grant is capped
    to the TTL the spec asked for."""

    def test_huge_granted_ttl_is_not_believed(self):
        # The core asked for the spec's TTL: a larger grant is capped to it (the local
        # deadline stays conservative), with no overflow on the way.
        # The ID asked for is granted (it carries the prefix's holder tag).
        fake = FakeEtcd({"/v3/lease/grant": lambda b: {"ID": b.get("ID", "5"),
                                                       "TTL": "99999999999"}})
        self.addCleanup(fake.close)
        code, out, err = mint(fake.endpoint)
        self.assertNotIn("runtime error", err)
        self.assertEqual(code, 0, err)


class UnboundedReply(unittest.TestCase):
    """A reply's body is collected without a size limit until the request timeout: an
    endpoint (or anything answering on its port) streaming bytes makes the claiming process
    hold gigabytes. Measured as the child's peak RSS."""

    def test_streamed_grant_reply_stays_bounded(self):
        def endless(_body):
            def chunks():
                block = b" " * (1 << 20)  # JSON whitespace: still "a reply being read"
                while True:
                    yield block
            return chunks()

        fake = FakeEtcd({"/v3/lease/grant": endless})
        self.addCleanup(fake.close)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        code, out, err = mint(fake.endpoint)
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"\n  streamed grant reply: exit {code}, child peak RSS {peak_mb:.0f} MB "
              f"({err.strip()[:120]})", flush=True)
        self.assertNotEqual(code, 0)
        self.assertLess(peak_mb, 64, "a reply of unbounded size is read into memory")


class PasswordScrub(unittest.TestCase):
    """Every message of an authentication passes through a scrub that writes the password
    as "***". A password that is a part of "***" ("*", "**", "***") found itself again in
    what it had just written: the scrub looped for ever, the claim hung."""

    def test_a_star_password_neither_hangs_nor_shows(self):
        for pw in ("*", "**", "***"):
            fake = FakeEtcd({"/v3/auth/authenticate": (
                401, {"error": "etcdserver: authentication failed, invalid user ID or password"
                      " (got *)", "code": 3, "message": "etcdserver: authentication failed, "
                      "invalid user ID or password (got *)"})})
            try:
                try:
                    code, out, err = mint(fake.endpoint, f"&user=u&password={pw}", timeout=20)
                except subprocess.TimeoutExpired:
                    self.fail(f"password {pw!r}: the claim hung")
            finally:
                fake.close()
            self.assertNotEqual(code, 0)
            self.assertIn("wrong password", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
