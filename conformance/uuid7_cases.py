"""The cases of conformance/vectors/uuid7.json (written by generate.py): UUIDv7 generators
on a scripted clock and a scripted random source, so every UUID is pinned, and the text
form's and decode's refusals. Expected values come from model/uuid7_model.py.

A "generate" case: {mode, max_wait_ms, clock (segments), seed, steps}; a step is
{"op": "next"} or {"op": "next_batch", "n": N}, and expects {"uuids": [...]} or
{"error": CODE}. A "decode" case: {"text"} expects the fields or an error.
"""

from __future__ import annotations

import snowfleet_model as m
import uuid7_model as u
from scenario import error_of

T = 1764720000000  # 2025-12-03T00:00:00Z


def _generate(cid, source, clock, steps, seed=1, mode="strict", max_wait_ms=5.0):
    gen = u.Uuid7Generator(mode, max_wait_ms, 1000, m.ScriptedClock(clock), seed)
    out = []
    for step in steps:
        step = dict(step)
        try:
            if step["op"] == "next":
                got = [gen.next()]
            else:
                got = gen.next_batch(step["n"])
            step["expect"] = {"uuids": [u.format_uuid(x) for x in got]}
        except m.ModelError as e:
            step["expect"] = error_of(e)
        out.append(step)
    return {"id": cid, "source": source, "op": "generate", "mode": mode,
            "max_wait_ms": max_wait_ms, "clock": clock, "seed": str(seed), "steps": out}


def _decode(cid, source, text, contains=None):
    case = {"id": cid, "source": source, "op": "decode", "text": text}
    try:
        value = u.parse_uuid(text)
        f = u.decode_uuid7(value)
        case["expect"] = {"timestamp_ms": str(f["timestamp_ms"]), "counter": f["counter"],
                          "random": str(f["random"]), "canonical": u.format_uuid(value)}
    except m.ModelError as e:
        case["expect"] = error_of(e, contains=([text] if text else []) + (contains or []) or None)
    return case


def uuid7_cases():
    nexts = [{"op": "next"}] * 3
    cases = [
        _generate("uuid7.frozen", "three UUIDs in one millisecond: one seed, counter + 1",
                  [{"ms": T}], nexts),
        _generate("uuid7.batch_equals_singles", "the batch form gives what single calls give",
                  [{"ms": T}], [{"op": "next_batch", "n": 3}]),
        _generate("uuid7.ticking", "a new seed each millisecond",
                  [{"ms": T, "count": 1, "step_ms": 1}], nexts, seed=2),
        _generate("uuid7.seed_zero", "seed 0, the scripted random source's first words",
                  [{"ms": T}], [{"op": "next"}], seed=0),
        _generate("uuid7.strict_rewind", "strict: a 10 ms rewind past the 5 ms budget is "
                  "refused and nothing is drawn; the clock's return continues the counter",
                  [{"ms": T}, {"ms": T - 10}, {"ms": T}], nexts),
        _generate("uuid7.monotonic_rewind", "monotonic: a rewind keeps the last millisecond",
                  [{"ms": T}, {"ms": T - 600}], nexts, mode="monotonic"),
        _generate("uuid7.monotonic_borrow", "monotonic: a spent millisecond (2^15 UUIDs) "
                  "borrows the next one",
                  [{"ms": T}], [{"op": "next_batch", "n": 32767}, {"op": "next_batch", "n": 2}],
                  mode="monotonic"),
        _generate("uuid7.strict_spent", "strict: a spent millisecond on a frozen clock is "
                  "refused after the budget",
                  [{"ms": T}], [{"op": "next_batch", "n": 32767}, {"op": "next_batch", "n": 1},
                                {"op": "next"}], max_wait_ms=0.0),
        _generate("uuid7.before_1970", "a clock before the Unix epoch is outside 48-bit ms",
                  [{"ms": -1}], [{"op": "next"}]),
    ]
    # The big batches are pinned by their first and last UUIDs only.
    for case in cases:
        for step in case["steps"]:
            got = step["expect"].get("uuids")
            if got and len(got) > 4:
                step["expect"] = {"count": len(got), "first": got[0], "last": got[-1]}
    cases += [
        _decode("uuid7.decode.ours", "a UUID of uuid7.frozen",
                cases[0]["steps"][0]["expect"]["uuids"][0]),
        _decode("uuid7.decode.upper", "upper case and no hyphens are accepted",
                cases[0]["steps"][0]["expect"]["uuids"][0].replace("-", "").upper()),
        _decode("uuid7.decode.rfc_example", "RFC 9562 appendix A.6's example UUIDv7",
                "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"),
        _decode("uuid7.decode.v4", "a version 4 UUID is refused naming it",
                "550e8400-e29b-41d4-a716-446655440000"),
        _decode("uuid7.decode.nil", "the nil UUID is refused", "00000000-0000-0000-0000-000000000000"),
        _decode("uuid7.decode.variant", "version 7 with another variant is refused",
                "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f"),
        _decode("uuid7.decode.short", "35 characters", "017f22e2-79b0-7cc3-98c4-dc0c0c07398"),
        _decode("uuid7.decode.hyphen", "a hyphen out of place", "017f22e279b0-7cc3-98c4-dc0c0c07-398f"),
        _decode("uuid7.decode.char", "a character that is not hex", "017f22e2-79b0-7cc3-98c4-dc0c0c07398g"),
        _decode("uuid7.decode.empty", "the empty text", ""),
        _decode("uuid7.decode.non_ascii_length", "a length counts characters, not UTF-8 bytes",
                "017f22e2-79b0-7cc3-98c4-dc0c0c07398\u00e9f", contains=["37 characters"]),
        _decode("uuid7.decode.non_ascii_char", "36 characters, one not a hex digit",
                "017f22e2-79b0-7cc3-98c4-dc0c0c07398\u00e9", contains=["bad character"]),
    ]
    # The seeds of the ticking case differ per millisecond; the frozen one's counters step by 1.
    frozen = [u.decode_uuid7(u.parse_uuid(x)) for x in
              (s["expect"]["uuids"][0] for s in cases[0]["steps"])]
    assert [f["counter"] - frozen[0]["counter"] for f in frozen] == [0, 1, 2]
    assert cases[1]["steps"][0]["expect"]["uuids"] == [
        s["expect"]["uuids"][0] for s in cases[0]["steps"]]
    return cases
