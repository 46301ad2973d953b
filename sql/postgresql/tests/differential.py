#!/usr/bin/env python3
"""A differential test of the SQL functions against the reference model (conformance/model),
for either target of conformance_runner.py (the plain-SQL file or the extension): random
layouts (split and unsplit, 1 to 52 timestamp bits, epochs from 0 to the latest), times at
and around their windows' edges, random fields, slacks up to 2^63 - 1, mutated layout texts,
base32 and base62 texts of random ids and mutations of them, and RFC 3339 texts of random
instants (offsets, fractions) and mutations of them, each through the SQL functions and the
model; every result (a value, or the error code; for a time text, the whole message) must
agree. Seeded, so a failure is reproducible:

    python3 sql/postgresql/tests/differential.py --psql "psql -h HOST -p PORT -U USER DB" \
        [--target extension] [--seed N] [--results OUT.json] [--same-as OTHER.json]

--results and --same-as compare the raw results of two targets, message for message.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "conformance" / "model"))
sys.path.insert(0, str(ROOT / "sql" / "postgresql" / "tests"))

import snowfleet_model as m  # noqa: E402
import text_model as t  # noqa: E402
import time_model  # noqa: E402
from conformance_runner import LOAD, SQLSTATE, compare, lit, run_all  # noqa: E402

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


def outcome(fn, message: bool = False):
    """fn's value, or its error as SQL shows it: 'ERROR <SQLSTATE>: CODE' (a prefix of the
    SQL error), with the whole message when `message`."""
    try:
        v = fn()
    except m.ModelError as e:
        return f"ERROR {SQLSTATE[e.code]}: {e.code}" + (f": {e}" if message else "")
    return v


def mutate(rng: random.Random, text: str, alphabet: str = "0123456789.@") -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        i = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice(alphabet + " +-x\té"))
        elif op == 2 and chars:
            chars[min(i, len(chars) - 1)] = rng.choice(alphabet)
        else:
            chars.insert(i, "0")
    return "".join(chars)


TIME_CHARS = "0123456789-:TtZz.+"
MIN_TIME_MS = -62167219200000  # 0000-01-01T00:00:00Z
MAX_TIME_MS = 253402300799999  # 9999-12-31T23:59:59.999Z


def time_text(rng: random.Random, ms: int) -> str:
    """An RFC 3339 text of Unix ms: a random offset, fraction form and letter case."""
    offset = rng.choice([0, 0, rng.randint(-1439, 1439), 1439, -1439])
    if not MIN_TIME_MS <= ms + offset * 60000 <= MAX_TIME_MS:
        offset = 0
    days, rest = divmod(ms + offset * 60000 - MIN_TIME_MS, 86_400_000)
    year = 0
    while True:
        n = 366 if time_model.is_leap(year) else 365
        if days < n:
            break
        days, year = days - n, year + 1
    month = 1
    while days >= time_model.month_days(year, month):
        days, month = days - time_model.month_days(year, month), month + 1
    hms, frac = divmod(rest, 1000)
    text = (f"{year:04d}-{month:02d}-{days + 1:02d}{rng.choice('Tt')}"
            f"{hms // 3600:02d}:{hms // 60 % 60:02d}:{hms % 60:02d}")
    text += rng.choice(["", f".{frac:03d}", f".{frac:03d}000", f".{frac:03d}".rstrip("0")]) \
        if frac else rng.choice(["", ".0", ".000"])
    if offset == 0 and rng.random() < 0.7:
        return text + rng.choice("Zz")
    sign = "+" if offset >= 0 else "-"
    return text + f"{sign}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"


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
        for form, alphabet in (("base32", t.B32), ("base62", t.B62)):
            value = rng.choice([0, INT64_MAX, rng.randint(0, INT64_MAX)])
            out.append((f"format_{form}({value})", f"SELECT snowfleet.format_{form}({value})",
                        outcome(lambda: t.format_text(form, value))))
            text = mutate(rng, t.format_text(form, value), alphabet + alphabet.lower())
            out.append((f"parse_{form}({text!r})", f"SELECT snowfleet.parse_{form}({lit(text)})::text",
                        outcome(lambda: str(t.parse_text(form, text)))))
        ms = rng.choice([MIN_TIME_MS, MAX_TIME_MS, 0, rng.randint(MIN_TIME_MS, MAX_TIME_MS),
                         rng.randint(1704067200000, 1900000000000)])
        text = time_text(rng, ms)
        if rng.random() < 0.5:
            text = mutate(rng, text, TIME_CHARS)
        out.append((f"parse_time_ms({text!r})", f"SELECT snowfleet.parse_time_ms({lit(text)})::text",
                    outcome(lambda: str(time_model.parse_time(text)), message=True)))
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
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--psql", required=True)
    ap.add_argument("--target", choices=sorted(LOAD), default="plain")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--layouts", type=int, default=300)
    ap.add_argument("--results", help="write the raw results here (JSON)")
    ap.add_argument("--same-as", help="fail unless the raw results equal this file's")
    args = ap.parse_args(argv)
    all_cases = cases(args.seed, args.layouts)
    got = run_all(args.psql, [sql for _, sql, _ in all_cases], args.target)
    if got is None:
        return 1
    failures, raw = 0, {}
    for i, (what, _, want) in enumerate(all_cases):
        have = got.get(i, "no result")
        raw[f"{i:05d} {what}"] = have
        want = str(want)
        ok = (have == want or have.startswith(want + ": ")) if want.startswith("ERROR ") else have == want
        if not ok:
            failures += 1
            if failures <= 20:
                print(f"FAIL {what}: sql {have[:300]!r}, model {want!r}")
    print(f"sql differential ({args.target}, seed {args.seed}): {len(all_cases) - failures} of "
          f"{len(all_cases)} agree with the model")
    if args.results:
        pathlib.Path(args.results).write_text(json.dumps(raw, indent=1, sort_keys=True) + "\n",
                                              encoding="utf-8")
    if args.same_as:
        failures += compare(raw, args.same_as, f"sql differential ({args.target})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
