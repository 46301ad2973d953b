#!/usr/bin/env python3
"""A differential test of sql/postgresql/snowfleet.sql against the reference model
(conformance/model): random layouts (split and unsplit, 1 to 52 timestamp bits, epochs from
0 to the latest), times at and around their windows' edges, random fields, slacks up to
2^63 - 1 and mutated layout texts, each through the SQL functions and the model; every
result (a value, or the error code) must agree. Seeded, so a failure is reproducible:

    python3 sql/postgresql/tests/differential.py --psql "psql -h HOST -p PORT -U USER DB" [--seed N]

Expects snowfleet.sql loaded and the snowfleet_test.try wrapper of conformance_runner.py.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "conformance" / "model"))
sys.path.insert(0, str(ROOT / "sql" / "postgresql" / "tests"))

import snowfleet_model as m  # noqa: E402
import text_model as t  # noqa: E402
from conformance_runner import lit, run_all  # noqa: E402

INT64_MAX = 2**63 - 1


def random_layout(rng: random.Random) -> m.Layout:
    ts = rng.choice([1, 2, 22, 41, 42, 51, 52, rng.randint(1, 52)])
    epoch = rng.choice([0, 1, 1704067200000, m.MAX_EPOCH_MS, rng.randint(0, m.MAX_EPOCH_MS)])
    rest = 63 - ts
    seq = rng.randint(0, min(rest, 62))
    node = rest - seq
    if node > 62:  # ts = 1 and seq = 0: 62 node bits at most
        seq, node = seq + 1, node - 1
    if node >= 2 and rng.random() < 0.5:
        dc = rng.randint(1, node - 1) if node > 1 else 1
        return m.Layout.create_split(epoch, ts, dc, node - dc, seq)
    return m.Layout.create(epoch, ts, node, seq)


def times(rng: random.Random, lay: m.Layout):
    lo, hi = lay.epoch_ms, lay.max_timestamp_ms
    return [lo, hi, lo - 1, hi + 1, rng.randint(lo, hi), rng.randint(lo, hi), -1,
            INT64_MAX]


def outcome(fn):
    try:
        v = fn()
    except m.ModelError as e:
        return "ERROR: " + e.code
    return v


def mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        i = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice("0123456789.@ +-x\t"))
        elif op == 2 and chars:
            chars[min(i, len(chars) - 1)] = rng.choice("0123456789.@")
        else:
            chars.insert(i, "0")
    return "".join(chars)


def cases(seed: int, n_layouts: int):
    rng = random.Random(seed)
    out = []  # (what, sql, expected text)
    for _ in range(n_layouts):
        lay = random_layout(rng)
        lt = lay.text()
        L = lit(lt)
        for ms in times(rng, lay):
            out.append((f"min_id_ms({ms}, {lt})", f"SELECT snowfleet.min_id_ms({ms}, {L})::text",
                        outcome(lambda: t.min_id(lay, ms))))
            out.append((f"max_id_ms({ms}, {lt})", f"SELECT snowfleet.max_id_ms({ms}, {L})::text",
                        outcome(lambda: t.max_id(lay, ms))))
            node = rng.choice([0, lay.max_node_id, rng.randint(0, lay.max_node_id),
                               lay.max_node_id + 1])
            seq = rng.choice([0, lay.max_sequence, rng.randint(0, lay.max_sequence)])
            out.append((f"compose_ms({ms}, {node}, {seq}, {lt})",
                        f"SELECT snowfleet.compose_ms({ms}, {node}, {seq}, {L})::text",
                        outcome(lambda: m.compose(lay, ms, node, seq))))
        lo, hi = lay.epoch_ms, lay.max_timestamp_ms
        for _ in range(6):
            start = rng.choice([lo, hi, rng.randint(lo, hi), lo - 1])
            end = rng.choice([start + 1, hi + 1, hi + 2, start, rng.randint(lo, hi + 1)])
            slack = rng.choice([0, 1, hi - lo, INT64_MAX, -1, rng.randint(0, 1 << 20)])
            out.append((f"id_range_ms({start}, {end}, {slack}, {lt})",
                        f"SELECT r.first || ',' || r.last FROM snowfleet.id_range_ms({start}, "
                        f"{end}, {slack}, {L}) r",
                        outcome(lambda: "%d,%d" % t.id_range(lay, start, end, slack))))
        for value in (0, INT64_MAX, rng.randint(0, INT64_MAX), rng.randint(0, INT64_MAX)):
            def dec(value=value):
                d = m.decode(lay, value)
                return ",".join(str(d[k]) for k in ("timestamp_ms", "node_id", "datacenter_id",
                                                     "machine_id", "sequence", "timestamp_ms"))
            out.append((f"decode({value}, {lt})",
                        f"SELECT concat_ws(',', d.timestamp_ms, d.node_id, d.datacenter_id, "
                        f"d.machine_id, d.sequence, snowfleet.to_ms(d.\"time\")) "
                        f"FROM snowfleet.decode({value}, {L}) d", outcome(dec)))
        text = mutate(rng, lt)
        out.append((f"layout({text!r})",
                    f"SELECT concat_ws(',', l.epoch_ms, l.timestamp_bits, l.datacenter_bits, "
                    f"l.machine_bits, l.sequence_bits) FROM snowfleet.layout({lit(text)}) l",
                    outcome(lambda: ",".join(str(x) for x in _fields(m.Layout.parse(text))))))
    return out


def _fields(lay: m.Layout):
    return (lay.epoch_ms, lay.timestamp_bits, lay.datacenter_bits, lay.machine_bits,
            lay.sequence_bits)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--psql", required=True)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--layouts", type=int, default=300)
    args = ap.parse_args(argv)
    all_cases = cases(args.seed, args.layouts)
    got = run_all(args.psql, [sql for _, sql, _ in all_cases])
    if got is None:
        return 1
    failures = 0
    for i, (what, _, want) in enumerate(all_cases):
        have = got.get(i, "no result")
        want = str(want)
        ok = have.startswith(want + ":") if want.startswith("ERROR: ") else have == want
        if not ok:
            failures += 1
            if failures <= 20:
                print(f"FAIL {what}: sql {have[:160]!r}, model {want!r}")
    print(f"sql differential (seed {args.seed}): {len(all_cases) - failures} of "
          f"{len(all_cases)} agree with the model")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
