"""Hypothesis strategies for the differential test: scenarios in the conformance vector
format (without expectations) that reach the edges of layouts, clocks and budgets.

Layouts: presets, 0 node bits, 0 and 1 sequence bits, 1 and 52 timestamp bits, split
(datacenter.machine) spellings, epochs 0 and 9999-12-31, and windows whose last millisecond
a scripted clock can reach (epoch + 2^timestamp_bits - 1 <= INT64_MAX / 1e6 ms). Clocks:
up to four segments anchored at the window's start, its end, the clock's range ends or
anywhere, with freezes, steps, retreats, rewinds and jumps, and the pattern where a strict
call that waited out a rewind finds the millisecond it reached spent. Parameters: both
modes, max_wait_ms 0, fractional and at the half nanosecond, max_drift_ms 0, node ids 0 and
the maximum, and now and then a value out of range (the error must match too). Steps:
next_id, next_ids with small, millisecond-sized and large n, status, drift, stats, clock,
close, open. About one scenario in six has a second generator on the same clock: the same
id space (same or twin layout, either mode), another node, an overlapping shape, another
epoch, or a successor opened later.

Every choice is one Hypothesis draw (`choice`), as drawing dominates the cost of a
scenario, and shrinks towards its first option, so a failure shrinks to a short scenario on
the default layout where it can.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, List, Sequence, Tuple

from hypothesis import strategies as st

E = 1704067200000  # the default epoch
TWITTER_EPOCH = 1288834974657
DISCORD_EPOCH = 1420070400000
MAX_EPOCH_MS = 253402300799999
MAX_ABS_CLOCK_MS = 9223372036854  # INT64_MAX // 1e6: a scripted reading's bound
MAX_BATCH = 1 << 24
SMALL = (1 << 31) - 1  # vectors keep node ids, steps and counts below 2^31
LARGE_BATCH = 4000  # the largest n drawn (the model builds Python lists)
PRESETS = {"default": (E, 41, 0, 10, 12), "twitter": (TWITTER_EPOCH, 41, 5, 5, 12),
           "discord": (DISCORD_EPOCH, 41, 5, 5, 12)}
TIMESTAMP_BITS = (41, 52, 1, 2, 43, 42, 22, 12)
SPREAD = 1 << 62  # room for the index into an option's values
GOLDEN = 0x9E3779B97F4A7C15  # odd: spreads the small indexes Hypothesis favours over a range

_integers = functools.lru_cache(maxsize=256)(st.integers)


def choice(draw, *options: Tuple[int, Sequence[Any]]) -> Tuple[int, Any]:
    """One draw: option i, with probability proportional to its weight, and one of its
    values (a tuple or a range). Returns (i, value). The draw 0 is option 0's first value,
    and every draw below the total weight is some option's first value, so shrinking
    reaches the plain cases."""
    total = sum(weight for weight, _ in options)
    roll = draw(_integers(0, total * SPREAD - 1))
    which, k = roll % total, roll // total
    for index, (weight, values) in enumerate(options):
        if which < weight:
            # Hypothesis draws mostly small integers, so k is mostly small: a long range is
            # indexed through a multiplicative hash (still 0 for k = 0).
            n = len(values)
            return index, values[k % n if n <= 64 else k * GOLDEN % n]
        which -= weight
    raise AssertionError("unreachable")


def one_of(draw, *options: Tuple[int, Sequence[Any]]) -> Any:
    """The value of `choice`."""
    return choice(draw, *options)[1]


def span(low: int, high: int) -> range:
    """The integers low..high (inclusive)."""
    return range(low, high + 1)


# --------------------------------------------------------------------------- layouts


def layouts(draw) -> Dict[str, Any]:
    """A layout text and its fields (`valid` False for a text the parser must refuse)."""
    kind, name = choice(draw, (60, (None,)), (8, tuple(sorted(PRESETS))), (2, (0, 1, 2)))
    if kind == 1:
        epoch, ts, dc, machine, seq = PRESETS[name]
        return _layout(name, epoch, ts, dc, machine, seq)
    ts = one_of(draw, (3, TIMESTAMP_BITS), (1, span(1, 52)))
    rest = 63 - ts
    edges = tuple(sorted({min(10, rest), 0, rest, 1, rest - 1, max(rest - 12, 0)}))
    # The third option: 1 to 4 ids per ms, so milliseconds are spent and strict mode waits.
    node = one_of(draw, (6, edges), (2, span(0, rest)), (2, span(max(rest - 2, 0), rest)))
    seq = rest - node
    epoch = _epoch(draw, ts)
    if kind == 2:  # refused by the parser: 64 bits, 53 timestamp bits, an epoch past 9999
        bad = [(ts, node, seq + 1, epoch), (53, 0, 10, epoch), (ts, node, seq, MAX_EPOCH_MS + 1)]
        return {"text": "{}.{}.{}@{}".format(*bad[name]), "valid": False}
    if node == 0:
        return _layout(None, epoch, ts, 0, 0, seq)
    split, dc = choice(draw, (6, (0,)), (2, span(1, node)), (1, (0,)))
    if split == 2:  # four fields with no datacenter bits: the unsplit layout
        return dict(_layout(None, epoch, ts, 0, node, seq), text=f"{ts}.0.{node}.{seq}@{epoch}")
    return _layout(None, epoch, ts, dc, node - dc, seq)


EPOCHS = (E,) * 10 + (0,) * 3 + (TWITTER_EPOCH, DISCORD_EPOCH, MAX_EPOCH_MS) * 2


def _epoch(draw, ts: int) -> int:
    reach = MAX_ABS_CLOCK_MS - ((1 << ts) - 1)  # the latest epoch whose window a clock can end
    near_reach = span(max(0, reach - 5), max(0, reach)) if reach >= 0 else (0,)
    return one_of(draw, (19, EPOCHS), (3 if reach >= 0 else 0, near_reach),
                  (3, span(0, MAX_EPOCH_MS)))


def _layout(name, epoch, ts, dc, machine, seq) -> Dict[str, Any]:
    node = dc + machine
    mid = f"{dc}.{machine}" if dc else f"{machine}"
    return {"text": name or f"{ts}.{mid}.{seq}@{epoch}", "valid": True, "epoch": epoch,
            "ts": ts, "dc": dc, "machine": machine, "node_bits": node, "seq": seq,
            "max_node": (1 << node) - 1, "max_seq": (1 << seq) - 1,
            "max_timestamp": epoch + (1 << ts) - 1}


# --------------------------------------------------------------------------- parameters


def _node_id(draw, lay: Dict[str, Any]) -> int:
    top = lay["max_node"] if lay["valid"] else 1023
    return one_of(draw, (40, span(0, top)), (20, (top,)), (12, (0, 1, min(37, top), top // 2)),
                  (3, (top + 1, -1)))  # the last ones refused


HALF_NS = (2.0000005, 1.0000045, 1.0000125, 0.9999995, 2.5e-06)  # n + 0.5 ns exactly
FRACTIONS = (0.5, 1.5, 0.999999, 2.75, 1e-07, 0.0001, 3.3333333333, 5e-324,
             1.9999999999999998, 0.9999999999999999, 1.0000000000000002)
REFUSED_WAITS = (-1.0, 60000.5, -1e-9, float("nan"), float("inf"), 60000.000000000007)


def _max_wait_ms(draw) -> float:
    which, value = choice(draw, (20, (5.0,)), (20, span(0, 12)), (10, (0.0,)), (8, FRACTIONS),
                          (8, span(0, 20_000_000)), (4, HALF_NS), (6, span(0, 250)),
                          (1, (60000.0,)), (2, REFUSED_WAITS))
    if which == 4:
        return value / 1e6  # ns resolution up to 20 ms
    return float(value)


def _max_drift_ms(draw) -> int:
    return one_of(draw, (20, (1000,)), (10, (0,)), (12, span(0, 20)), (6, span(0, 5000)),
                  (1, (86_400_000,)), (2, (86_400_001, -1)))  # the last ones refused


def _mode(draw) -> str:
    return one_of(draw, (25, ("strict",)), (25, ("monotonic",)),
                  (1, ("Strict",)))  # refused: modes are spelled exactly


# --------------------------------------------------------------------------- clocks


def _clamp(ms: int) -> int:
    return max(-MAX_ABS_CLOCK_MS - 3, min(MAX_ABS_CLOCK_MS + 3, ms))


EXTREMES = (MAX_ABS_CLOCK_MS, -MAX_ABS_CLOCK_MS, MAX_ABS_CLOCK_MS + 1, -MAX_ABS_CLOCK_MS - 1, 0)


def _anchor(draw, lay: Dict[str, Any]) -> int:
    epoch = lay.get("epoch", E)
    end = min(lay.get("max_timestamp", E + 5000), MAX_ABS_CLOCK_MS)
    return one_of(draw, (12, span(epoch - 2, epoch + 50)), (8, span(end - 50, end + 2)),
                  (6, span(min(epoch, end), end)),
                  (3, (E + 5000,)),  # a realistic time (outside early or short windows)
                  (2, EXTREMES))


def _shape(count: int, step: int, every: int) -> Dict[str, int]:
    """A segment's fields other than `ms`, defaults left out."""
    fields = (("count", count, 1), ("step_ms", step, 0), ("every", every, 1))
    return {k: v for k, v, default in fields if v != default}


COUNTS = (1, 2, 3, 4, 5, 7, 10, 30, 200, 5000, 10002, SMALL)
STEPS = (0, 1, -1, 2, -2, 3, -4, 6, -6, 97, -1000, 100_000, -100_000, SMALL, -SMALL - 1)
EVERIES = (1, 2, 3, 4, 5000)
ANY_SHAPE = tuple(_shape(c, s, e) for c in COUNTS for s in STEPS for e in EVERIES)
FREEZES = tuple(_shape(c, 0, 1) for c in COUNTS)
STEPS_UP = tuple(_shape(c, 1, e) for c in COUNTS for e in (1, 2))
RETREATS = tuple(_shape(c, s, e) for c in COUNTS for s in (-1, -4) for e in (1, 2))


def _segment_shape(draw) -> Dict[str, int]:
    """How a segment moves: one reading (frozen if it is the last segment), a freeze, a
    step forward or back, or any of count x step_ms x every from edge values."""
    return dict(one_of(draw, (10, ({},)), (5, FREEZES), (8, STEPS_UP), (4, RETREATS),
                       (10, ANY_SHAPE)))


def _last_reading(seg: Dict[str, int]) -> int:
    return seg["ms"] + seg.get("step_ms", 0) * ((seg.get("count", 1) - 1) // seg.get("every", 1))


REWINDS = (600, 1000, 5, 6, 2, 1001)


def clocks(draw, lay: Dict[str, Any]) -> List[Dict[str, int]]:
    """A scripted clock: the first segment at an anchor, each next one a move away from
    where the previous one ended (a small step, a rewind, a jump, a new anchor, or back a
    little and forward a ms every read or two)."""
    segments = [dict(ms=_clamp(_anchor(draw, lay)), **_segment_shape(draw))]
    for _ in range(one_of(draw, (6, (0,)), (5, (1,)), (3, (2,)), (2, (3,)))):
        base = _last_reading(segments[-1])
        move, delta = choice(draw, (8, span(-8, 8)), (5, REWINDS), (3, span(-10**7, 10**7)),
                             (2, (None,)), (4, span(1, 4)))
        if move == 4:
            # A strict call that waited out this rewind finds the ms it reached spent and
            # reserves the next one ahead; if the clock then stalls, the ids stay ahead.
            count = one_of(draw, (1, span(1, 8)))
            every = one_of(draw, (1, (1, 2)))
            segments.append({"ms": _clamp(base - delta), "count": count, "step_ms": 1,
                             "every": every})
            stall = one_of(draw, (1, (None,)), (1, (0, 1)))
            if stall is not None:
                segments.append({"ms": _clamp(base + stall)})
            continue
        if move == 3:
            ms = _anchor(draw, lay)
        else:
            ms = base - delta if move == 1 else base + delta
        segments.append(dict(ms=_clamp(ms), **_segment_shape(draw)))
    return segments


# --------------------------------------------------------------------------- generators


MODES = ("strict", "monotonic")


def _params(draw, lay: Dict[str, Any]) -> Dict[str, Any]:
    return {"layout": lay["text"], "node_id": _node_id(draw, lay), "mode": _mode(draw),
            "max_wait_ms": _max_wait_ms(draw), "max_drift_ms": _max_drift_ms(draw)}


def _twin(draw, lay: Dict[str, Any]) -> str:
    """Another spelling of `lay`: its ids occupy the same bits."""
    ts, node, seq, epoch = lay["ts"], lay["node_bits"], lay["seq"], lay["epoch"]
    spellings = [f"{ts}.{node}.{seq}@{epoch}", f"{ts}.0.{node}.{seq}@{epoch}"]
    spellings += [f"{ts}.{dc}.{node - dc}.{seq}@{epoch}" for dc in (1, node // 2, node - 1)
                  if 1 <= dc < node]
    spellings += [name for name, f in PRESETS.items() if f[0] == epoch and f[1] == ts
                  and f[2] + f[3] == node]
    return one_of(draw, (1, tuple(spellings)))


def _second(draw, first: Dict[str, Any], lay: Dict[str, Any]) -> Dict[str, Any]:
    """A second generator on the first one's clock."""
    which, later = choice(draw, (6, (False, True)), (4, (False, True)), (3, (False,)),
                          (4, (True,)), (4, (True,)), (1, (False,)))
    spec = dict(first, clock_of="g", name="h")
    del spec["clock"]
    if later:
        spec["deferred"] = True  # opened by a step (refused while an overlapping g is open)
    node, top = first["node_id"], lay["max_node"]
    if which == 0:  # the same id space, perhaps another mode and budget
        spec.update(mode=one_of(draw, (1, MODES)), max_wait_ms=_max_wait_ms(draw),
                    max_drift_ms=_max_drift_ms(draw))
    elif which == 1:  # the same id space, spelled another way
        spec.update(layout=_twin(draw, lay), mode=one_of(draw, (1, MODES)))
    elif which == 2 and top >= 1 and 0 <= node <= top:  # another node of the layout
        spec["node_id"] = (node + one_of(draw, (1, span(1, top)))) % (top + 1)
    elif which == 3 and lay["seq"] >= 1 and lay["node_bits"] <= 61:
        # One bit moves from the sequence to the node: node 2n or 2n+1 of this shape mints
        # ids node n of the first can mint.
        spec["layout"] = f"{lay['ts']}.{lay['node_bits'] + 1}.{lay['seq'] - 1}@{lay['epoch']}"
        spec["node_id"] = 2 * node + one_of(draw, (1, (0, 1)))
    elif which == 5:  # the same bits under another epoch: another id space, nothing shared
        spec["layout"] = f"{lay['ts']}.{lay['node_bits']}.{lay['seq']}@{lay['epoch'] ^ 1}"
    else:  # a successor, opened later (after g closed, or beside it)
        spec["deferred"] = True
    return spec


# --------------------------------------------------------------------------- steps


INVALID_BATCHES = (-1, MAX_BATCH + 1)
OTHER_OPS = ("status", "drift", "stats", "clock")


def _step(draw, names: List[str], deferred: bool, lay: Dict[str, Any]) -> Dict[str, Any]:
    per_ms = lay["max_seq"] + 1 if lay["valid"] and lay["seq"] < 12 else 4096
    around = span(per_ms - 3, per_ms + 3) if per_ms + 3 <= LARGE_BATCH else span(1, LARGE_BATCH)
    op, value = choice(draw, (40, (None,)), (14, span(0, 8)), (6, around),
                       (4, span(1, min(LARGE_BATCH, 40 * per_ms))), (21, OTHER_OPS),
                       (6 if deferred else 2, ("close",)), (8 if deferred else 0, ("open",)),
                       (1, INVALID_BATCHES))
    gen = one_of(draw, (1, tuple(names))) if len(names) > 1 else names[0]
    if op == 0:
        return {"gen": gen, "op": "next_id"}
    if op in (1, 2, 3, 7):
        return {"gen": gen, "op": "next_ids", "n": value}
    if op == 6:
        return {"gen": "h", "op": "open"}
    return {"gen": gen, "op": value}


@st.composite
def scenarios(draw) -> Dict[str, Any]:
    lay = layouts(draw)
    first = dict(name="g", **_params(draw, lay), clock=clocks(draw, lay))
    gens = [first]
    if lay["valid"] and one_of(draw, (5, (False,)), (1, (True,))):
        gens.append(_second(draw, first, lay))
    names = [g["name"] for g in gens]
    if len(gens) == 1 or not gens[1].get("deferred"):
        count = one_of(draw, (1, span(1, 12)))
        return {"generators": gens, "steps": [_step(draw, names, False, lay)
                                              for _ in range(count)]}
    # A generator opened later: steps on g, g closed (usually), h opened, steps on both.
    steps = [_step(draw, ["g"], False, lay) for _ in range(one_of(draw, (1, span(0, 6))))]
    if one_of(draw, (2, (True,)), (1, (False,))):
        steps.append({"gen": "g", "op": "close"})
    steps.append({"gen": "h", "op": "open"})
    steps += [_step(draw, names, True, lay) for _ in range(one_of(draw, (1, span(1, 8))))]
    return {"generators": gens, "steps": steps}
