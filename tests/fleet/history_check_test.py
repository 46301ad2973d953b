#!/usr/bin/env python3
"""The history checker finds each kind of violation in a forged history, and none in a
clean handover (so a fault test that reports 0 violations could have reported some).

    python3 tests/fleet/history_check_test.py
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import history_check  # noqa: E402

LAYOUT = "41.10.12@1704067200000"
MS = 1_000_000  # ns


EPOCH = 1704067200000


def make_id(ms, node, seq=0):
    """ms: since the epoch (marks in the forged leases are too)."""
    return (ms << 22) | (node << 12) | seq


class Hist:
    """Writes one process's history in fleet_worker's format."""

    def __init__(self, pid, node=7, source="etcd://h1:1,h2:2/p?ttl=4"):
        self.lines = [f"start {pid} {LAYOUT} 5 {source}"]
        self.node = node

    def claim(self, t):
        self.lines.append(f"claim {t} {self.node}")
        return self

    def lease(self, t, deadline, mark=-1, state="held"):
        self.lines.append(f"lease {t} {state} {deadline} {mark + EPOCH if mark >= 0 else -1}")
        return self

    def id(self, a, ms, seq=0, node=None, b=None):
        self.lines.append(f"id {a} {b or a + 1000} {make_id(ms, self.node if node is None else node, seq)}")
        return self

    def closed(self, t):
        self.lines.append(f"closed {t}")
        return self


class HistoryCheck(unittest.TestCase):
    def run_check(self, *hists):
        d = tempfile.mkdtemp(prefix="snowfleet-hist-")
        paths = []
        for k, h in enumerate(hists):
            paths.append(os.path.join(d, f"h{k}"))
            with open(paths[-1], "w") as f:
                f.write("\n".join(h.lines) + "\n")
        report = history_check.check(paths)
        for p in paths:
            os.unlink(p)
        os.rmdir(d)
        return report

    def clean_pair(self):
        old = Hist(1).claim(0).lease(1, 100 * MS, 2000).id(10 * MS, 1000).id(20 * MS, 1001)
        old.lease(30 * MS, 100 * MS, 2000)
        # A different host spelling of the same cluster: the same slot.
        new = Hist(2, source="etcd://10.0.0.1:1/p?ttl=4&node=7").claim(200 * MS)
        new.lease(201 * MS, 300 * MS, 3000).id(210 * MS, 2001).lease(211 * MS, 300 * MS, 3000)
        return old, new

    def test_clean_handover_passes_and_reports_the_gap(self):
        report = self.run_check(*self.clean_pair())
        self.assertEqual(report.violations, [])
        f = report.figures()
        self.assertEqual(f["handovers"], 1)
        self.assertAlmostEqual(f["gap_min_ms"], 210 - 20 - 0.001, places=3)

    def test_duplicate(self):
        a = Hist(1).claim(0).id(10 * MS, 1000)
        b = Hist(2, source="local:/x").claim(0).id(10 * MS, 1000)
        self.assertIn("duplicate", " ".join(self.run_check(a, b).violations))

    def test_wrong_node(self):
        a = Hist(1).claim(0).id(10 * MS, 1000, node=8)
        self.assertIn("wrong node", " ".join(self.run_check(a).violations))

    def test_past_own_deadline(self):
        a = Hist(1).claim(0).lease(1, 50 * MS).id(10 * MS, 1000).id(60 * MS, 1001)
        a.lease(61 * MS, 50 * MS, state="unconfirmed")
        v = self.run_check(a).violations
        self.assertEqual(len(v), 1, v)
        self.assertIn("past deadline", v[0])

    def test_a_keepalive_before_the_next_poll_is_not_a_violation(self):
        a = Hist(1).claim(0).lease(1, 50 * MS).id(60 * MS, 1000).lease(61 * MS, 150 * MS)
        self.assertEqual(self.run_check(a).violations, [])

    def test_after_lost(self):
        a = Hist(1).claim(0).lease(1, 50 * MS).lease(5 * MS, -1, state="lost").id(10 * MS, 1000)
        self.assertIn("past deadline", " ".join(self.run_check(a).violations))

    def test_overlapping_holders(self):
        old, new = self.clean_pair()
        old.id(220 * MS, 1002)  # old holder still minting after the new one started
        v = " ".join(self.run_check(old, new).violations)
        self.assertIn("overlap", v)

    def test_overlap_under_other_spellings_of_one_slot(self):
        # The parser strips a prefix's trailing '/' and takes "snowfleet" for none; a local
        # registry's trailing '/' names the same directory. Each is one slot.
        for first, second in (("etcd://h1:1/p?ttl=4", "etcd://h1:1/p/?ttl=4"),
                              ("etcd://h1:1?ttl=4", "etcd://h1:1/snowfleet"),
                              ("local:/tmp/reg", "local:/tmp/reg/?node=7")):
            old = Hist(1, source=first).claim(0).lease(1, 100 * MS, 2000).id(10 * MS, 1000)
            old.id(220 * MS, 1002)
            new = Hist(2, source=second).claim(200 * MS).lease(201 * MS, 300 * MS, 3000)
            new.id(210 * MS, 2001).lease(211 * MS, 300 * MS, 3000)
            v = " ".join(self.run_check(old, new).violations)
            self.assertIn("overlap", v, (first, second))

    def test_below_the_old_holders_mark(self):
        old, new = self.clean_pair()
        new.lines = [l for l in new.lines if not l.startswith("id ")]
        new.id(210 * MS, 1500)  # above the old holder's ids, below its persisted mark 2000
        v = self.run_check(old, new).violations
        self.assertEqual(len(v), 1, v)
        self.assertIn("below mark", v[0])

    def test_after_a_clean_close_only_the_issued_ids_count(self):
        old, new = self.clean_pair()
        old.closed(40 * MS)
        new.lines = [l for l in new.lines if not l.startswith("id ")]
        new.id(210 * MS, 1500)
        self.assertEqual(self.run_check(old, new).violations, [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
