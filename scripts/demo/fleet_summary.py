#!/usr/bin/env python3
"""Summarises a fleet run: per process its node id, ids minted, first/last id decoded, and
a verdict on whether any id was minted twice across the fleet.

    python3 scripts/demo/fleet_summary.py [--layout 41.10.12@1704067200000] LABEL=FILE ...

Each FILE holds one process's output in the fleet line protocol (tests/fleet_worker.cc
writes it; a worker in any language only needs these lines):
    node <node_id> <claimed_mark_ms>
    ids <wall_ms> <id> <id> ...
    error <CODE> <wall_ms> <message>
Exit status 0 when every process got its own node id and no id appears twice, else 1.
"""
import argparse
import datetime
import sys


def parse_layout(text):
    bits, epoch = text.split("@")
    ts, node, seq = (int(x) for x in bits.split("."))
    return node, seq, int(epoch)


def describe(id_, layout):
    node_bits, seq_bits, epoch = layout
    ms = (id_ >> (node_bits + seq_bits)) + epoch
    when = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return (f"{id_} ({when.strftime('%Y-%m-%dT%H:%M:%S')}.{ms % 1000:03d}Z "
            f"node {(id_ >> seq_bits) & ((1 << node_bits) - 1)} seq {id_ & ((1 << seq_bits) - 1)})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layout", default="41.10.12@1704067200000")
    ap.add_argument("runs", nargs="+", metavar="LABEL=FILE")
    args = ap.parse_args()
    layout = parse_layout(args.layout)
    seen, dups, nodes, ok = set(), 0, {}, True
    print(f"{'process':10} {'node':>5} {'ids':>9}  first / last")
    for run in args.runs:
        label, path = run.split("=", 1)
        node, ids, errors = None, [], []
        with open(path) as f:
            for line in f:
                parts = line.split()
                if not parts:
                    continue
                if parts[0] == "node":
                    node = int(parts[1])
                elif parts[0] == "ids":
                    ids.extend(int(x) for x in parts[2:])
                elif parts[0] == "error":
                    errors.append(" ".join(parts[1:2] + parts[3:])[:100])
        for i in ids:
            if i in seen:
                dups += 1
            seen.add(i)
        if node is not None:
            nodes.setdefault(node, []).append(label)
        first = describe(ids[0], layout) if ids else "-"
        last = describe(ids[-1], layout) if ids else "-"
        print(f"{label:10} {node if node is not None else '-':>5} {len(ids):>9,}  {first}")
        print(f"{'':10} {'':>5} {'':>9}  {last}")
        for e in errors[:3]:
            print(f"{'':10} {'':>5} {'':>9}  error: {e}")
        ok = ok and node is not None and bool(ids)
    shared = {n: labels for n, labels in nodes.items() if len(labels) > 1}
    ok = ok and not dups and not shared
    print(f"\n{len(seen):,} distinct ids from {len(args.runs)} processes; node ids "
          f"{'all distinct' if not shared else 'SHARED: ' + str(shared)}; "
          f"ids minted twice: {dups}")
    print("verdict: " + ("OK, no id was minted twice across the fleet" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
