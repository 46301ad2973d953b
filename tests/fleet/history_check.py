#!/usr/bin/env python3
"""Checks the histories fleet workers write (`fleet_worker --history FILE`, format in
tests/fleet_worker.cc), the one checker every fault test uses. Times are CLOCK_MONOTONIC
ns, comparable across processes and network namespaces.

Violations (any one fails the run):
  duplicate      an id minted twice (any processes)
  wrong node     an id whose node field is not the node its process claimed
  past deadline  an id whose call started at or after the holder's own local deadline: the
                 deadline bound of the first lease poll after the call returned (deadlines
                 only move forward while held, so a call that passed the fence saw a deadline
                 at most that one), or after a poll said the lease was lost or released
  overlap        two holders of one slot (same registry, same node) minting in overlapping
                 intervals: the old holder's last call must end before the new one's first
                 call starts
  below mark     a holder of a slot minting at or below what an earlier holder of the slot
                 issued, or (earlier holder not closed cleanly) at or below the last mark it
                 had persisted

Figures: processes, ids, refusals, the fencing gaps (old holder's last id returned to the
new holder's first call on a slot: count, min, p50, max), the slowest next_id call.

    python3 tests/fleet/history_check.py FILE...     (exit 1 on any violation)
"""
import bisect
import os
import sys
from urllib.parse import urlsplit


class Process:
    def __init__(self, path, pid, layout, max_wait_ms, source):
        self.path, self.pid, self.source = path, pid, source
        self.max_wait_ms = float(max_wait_ms)
        self.layout = layout
        body, _, epoch = layout.partition("@")
        bits = [int(x) for x in body.split(".")]
        self.seq_bits = bits[-1]
        self.node_bits = sum(bits[1:-1])
        self.epoch = int(epoch)
        self.claim_t = None
        self.node = None
        self.leases = []  # (t, state, deadline_ns, mark_ms)
        self.ids = []  # (a, b, id)
        self.refusals = []  # (a, b, code)
        self.closed_t = None

    def name(self):
        return f"pid {self.pid} ({self.path})"

    def node_of(self, id_):
        return (id_ >> self.seq_bits) & ((1 << self.node_bits) - 1)

    def ms_of(self, id_):
        return (id_ >> (self.node_bits + self.seq_bits)) + self.epoch

    def slot(self):
        """The registry and node this process held: etcd prefix (hosts dropped: a worker in
        a network namespace names the same cluster by another address) or local dir."""
        src = self.source.split("?")[0]
        if src.startswith("etcd://"):
            # As the spec parser reads it: trailing '/' dropped, "snowfleet" for none.
            reg = "etcd:" + (urlsplit(src).path[1:].rstrip("/") or "snowfleet")
        elif src.startswith("local:"):
            reg = "local:" + os.path.normpath(src[len("local:"):])
        else:
            reg = src
        return (reg, self.node)


def parse(paths):
    procs = []
    for path in paths:
        cur = None
        with open(path) as f:
            for line in f:
                p = line.split()
                if not p:
                    continue
                if p[0] == "start":
                    cur = Process(path, int(p[1]), p[2], p[3], " ".join(p[4:]))
                    procs.append(cur)
                elif cur is None:
                    continue
                elif p[0] == "id" and len(p) == 4:
                    cur.ids.append((int(p[1]), int(p[2]), int(p[3])))
                elif p[0] == "lease" and len(p) == 5:
                    cur.leases.append((int(p[1]), p[2], int(p[3]), int(p[4])))
                elif p[0] == "refuse" and len(p) == 4:
                    cur.refusals.append((int(p[1]), int(p[2]), p[3]))
                elif p[0] == "claim":
                    cur.claim_t, cur.node = int(p[1]), int(p[2])
                elif p[0] == "closed":
                    cur.closed_t = int(p[1])
                # a line cut short by SIGKILL matches none of the above and is ignored
    return procs


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else None


class Report:
    def __init__(self, procs):
        self.procs = procs
        self.violations = []
        self.gaps_ms = []
        self._check()

    def _bad(self, kind, text):
        self.violations.append(f"{kind}: {text}")

    def _check(self):
        seen = {}
        for p in self.procs:
            for a, b, i in p.ids:
                if i in seen:
                    self._bad("duplicate", f"id {i} by {seen[i]} and {p.name()}")
                else:
                    seen[i] = p.name()
                if p.node is not None and p.node_of(i) != p.node:
                    self._bad("wrong node", f"id {i} has node {p.node_of(i)}, {p.name()} "
                              f"claimed {p.node}")
            self._check_deadline(p)
        slots = {}
        for p in self.procs:
            if p.node is not None:
                slots.setdefault(p.slot(), []).append(p)
        for slot, holders in slots.items():
            holders.sort(key=lambda p: p.claim_t)
            self._check_slot(slot, holders)

    def _check_deadline(self, p):
        times = [t for t, *_ in p.leases]
        gone = next((t for t, state, _, _ in p.leases if state in ("lost", "released")), None)
        for a, b, i in p.ids:
            if gone is not None and a >= gone:
                self._bad("past deadline", f"{p.name()} minted {i} after its lease was "
                          f"reported lost/released ({(a - gone) / 1e6:.3f} ms after)")
                continue
            k = bisect.bisect_left(times, b)
            if k == len(times):
                continue
            _, state, deadline, _ = p.leases[k]
            if state in ("held", "unconfirmed") and deadline >= 0 and a >= deadline:
                self._bad("past deadline", f"{p.name()} minted {i} in a call that started "
                          f"{(a - deadline) / 1e6:.3f} ms after its local deadline")

    def _check_slot(self, slot, holders):
        # Overlap and the fencing gap, between holders that minted, in minting order.
        minting = sorted((p for p in holders if p.ids), key=lambda p: p.ids[0][0])
        for old, new in zip(minting, minting[1:]):
            gap = new.ids[0][0] - old.ids[-1][1]
            if gap <= 0:
                self._bad("overlap", f"slot {slot}: {old.name()} minted until "
                          f"{-gap / 1e6:.3f} ms after {new.name()} started")
            else:
                self.gaps_ms.append(gap / 1e6)
        # Marks, in claim order: nothing at or below what earlier holders covered: the ids
        # they issued and, for one that did not close cleanly (close() lowers the mark to
        # the last id issued), the last mark it reported persisted while holding.
        floor_id, floor_ms, by = -1, -1, None
        for p in holders:
            if p.ids and by is not None:
                low = min(i for _, _, i in p.ids)
                if low <= floor_id or p.ms_of(low) <= floor_ms:
                    self._bad("below mark", f"slot {slot}: {p.name()} minted {low} "
                              f"(ms {p.ms_of(low)}) at or below id {floor_id} / mark "
                              f"{floor_ms} of earlier holders (last {by})")
            if p.ids:
                top = max(i for _, _, i in p.ids)
                floor_id = max(floor_id, top)
                floor_ms = max(floor_ms, p.ms_of(top))
            if p.closed_t is None:
                floor_ms = max([floor_ms] + [m for _, state, _, m in p.leases
                                             if state in ("held", "unconfirmed")])
            by = p.name()

    def figures(self):
        calls = [(b - a, p) for p in self.procs for a, b, _ in p.ids]
        slow = max(calls, key=lambda c: c[0]) if calls else (0, None)
        return {
            "processes": len(self.procs),
            "ids": sum(len(p.ids) for p in self.procs),
            "refusals": sum(len(p.refusals) for p in self.procs),
            "duplicates": sum(v.startswith("duplicate") for v in self.violations),
            "past_deadline": sum(v.startswith("past deadline") for v in self.violations),
            "overlaps": sum(v.startswith("overlap") for v in self.violations),
            "below_mark": sum(v.startswith("below mark") for v in self.violations),
            "handovers": len(self.gaps_ms),
            "gap_min_ms": min(self.gaps_ms) if self.gaps_ms else None,
            "gap_p50_ms": pct(self.gaps_ms, 0.5),
            "gap_max_ms": max(self.gaps_ms) if self.gaps_ms else None,
            "slowest_call_ms": slow[0] / 1e6,
        }

    def slowest_call_ms(self, since_ns, until_ns):
        """The slowest next_id call that started in [since_ns, until_ns), in ms."""
        return max(((b - a) / 1e6 for p in self.procs for a, b, _ in p.ids
                    if since_ns <= a < until_ns), default=0.0)

    def summary(self):
        f = self.figures()
        gaps = ("no handover" if not f["handovers"] else
                f"{f['handovers']} handovers, fencing gap min {f['gap_min_ms']:.1f} ms, "
                f"p50 {f['gap_p50_ms']:.1f} ms, max {f['gap_max_ms']:.1f} ms")
        text = (f"{f['processes']} processes, {f['ids']:,} ids, {f['refusals']:,} refusals; "
                f"duplicates {f['duplicates']}, past deadline {f['past_deadline']}, "
                f"overlaps {f['overlaps']}, below mark {f['below_mark']}; {gaps}; slowest "
                f"next_id {f['slowest_call_ms']:.3f} ms")
        for v in self.violations[:10]:
            text += "\n  VIOLATION " + v
        if len(self.violations) > 10:
            text += f"\n  ... {len(self.violations) - 10} more"
        return text


def check(paths):
    return Report(parse(paths))


if __name__ == "__main__":
    report = check(sys.argv[1:])
    print(report.summary())
    sys.exit(1 if report.violations else 0)
