"""Scenario cases: the reference's section 11 Working Python assertions, in its order, as
data for scenario.build (the entry format is described there). Every expected value comes
from the model; the `expect`, `decoded` and `checks` below are the reference's own claims,
asserted against the model's results.
"""

from __future__ import annotations

import snowfleet_model as m
from scenario import scripted

E = 1704067200000  # the default epoch, 2024-01-01T00:00:00Z
NS = m.NS_PER_MS
INT64_MAX = (1 << 63) - 1
CMB = "CLOCK_MOVED_BACKWARDS"


def _frozen_reads() -> int:
    """How many readings 4,096 ids and two refused calls take on a frozen clock (the model's
    count), so the clock of the case below moves right after the second refusal."""
    probe = m.Generator(m.Layout.parse(f"41.10.12@{E}"), 1,
                        clock=m.ScriptedClock([{"ms": str(E + 5)}]))
    for _ in range(4096):
        probe.next_id()
    for _ in range(2):
        try:
            probe.next_id()
        except m.ModelError:
            pass
    return probe.clock.reads


REFERENCE_SCENARIOS = [
    {"id": "reference.node_1023_positive",
     "source": "001 section 11: node 1023 on a clock at epoch + 1 stays positive and decodes",
     "generators": [{"node_id": 1023, "clock": [{"ms": E + 1}]}],
     "steps": [{"op": "next_id", "expect": {"id": {"max": INT64_MAX}},
                "decoded": {"node_id": 1023, "timestamp_ms": E + 1}}]},

    {"id": "reference.monotone_within_ms",
     "source": "001 section 11: five ids in one ms, sequence 0..4",
     "generators": [{"clock": scripted([E] * 5)}],
     "steps": [{"op": "next_id", "decoded": {"sequence": 0}}]
     + [{"op": "next_id", "decoded": {"sequence": k}, "checks": ["above_earlier"]}
        for k in range(1, 5)]
     + [{"op": "stats"}]},

    {"id": "reference.monotone_across_ms",
     "source": "001 section 11: monotonicity across milliseconds",
     "generators": [{"clock": scripted([E, E, E + 1])}],
     "steps": [{"op": "next_id"},
               {"op": "next_id", "checks": ["above_earlier"]},
               {"op": "next_id", "checks": ["above_earlier"]}]},

    {"id": "reference.api_sketch_literal",
     "source": "001 section 11: node 37 at 1737747358021 issues 141264821508263936",
     "generators": [{"node_id": 37, "clock": [{"ms": 1737747358021}]}],
     "steps": [{"op": "next_id", "expect": {"id": "141264821508263936"}}]},

    {"id": "reference.large_rewind_refused",
     "source": "001 section 11: a 600 ms rewind is refused, not absorbed; the refusal changes "
               "no state, so the next call is refused too (Twitter snowflake issue #6)",
     "generators": [{"max_wait_ms": 5.0, "clock": scripted([E + 1000, E + 400])}],
     "steps": [{"op": "next_id"},
               {"op": "next_id", "expect": {"error": CMB, "drift_ms": 600},
                "message_contains": ["600"]},
               {"op": "next_id", "expect": {"error": CMB, "drift_ms": 599}},
               {"op": "stats"}, {"op": "status"}, {"op": "clock"}]},

    {"id": "reference.small_rewind_waited_out",
     "source": "001 section 11: a 2 ms rewind is waited out and continues at sequence 1",
     "generators": [{"max_wait_ms": 5.0, "clock": scripted([E + 1000, E + 998, E + 1000])}],
     "steps": [{"op": "next_id"},
               {"op": "next_id", "checks": ["above_earlier"],
                "decoded": {"timestamp_ms": E + 1000, "sequence": 1}},
               {"op": "stats"},
               {"op": "clock", "expect": {"sleep_count": 1, "slept_ns": 2 * NS}}]},

    {"id": "reference.retreating_clock_bounded",
     "source": "001 section 11: a clock retreating 4 ms per read passes every per-sample drift "
               "test; the call still ends within the 5 ms budget instead of hanging",
     "generators": [{"max_wait_ms": 5.0, "clock": [{"ms": E + 1_000_000, "step_ms": -4}]}],
     "steps": [{"op": "next_id"},
               {"op": "next_id", "with_drift": True, "expect": {"error": CMB}},
               # the reference allows < 50 ms of real time
               {"op": "clock", "expect": {"slept_ns": {"max": 5 * NS}}},
               {"op": "stats"}]},

    {"id": "reference.retreating_clock_deadline",
     "source": "001 section 8: a clock retreating 1 ms per 2 reads stays inside the per-sample "
               "budget for a while; the one deadline ends the call after 5 ms of waiting",
     "generators": [{"max_wait_ms": 5.0,
                     "clock": [{"ms": E + 1000, "count": 1},
                               {"ms": E + 999, "step_ms": -1, "every": 3}]}],
     "steps": [{"op": "next_id"},
               {"op": "next_id", "with_drift": True, "expect": {"error": CMB}},
               {"op": "clock", "expect": {"slept_ns": 5 * NS}},
               {"op": "stats"}]},

    {"id": "reference.exhaustion_rolls_to_next_ms",
     "source": "001 section 11: the last sequence of a ms is issued, then the next call sleeps "
               "(never spins) until the clock reaches the next ms and restarts at sequence 0",
     "generators": [{"clock": [{"ms": E + 9, "count": 4095 + 3}, {"ms": E + 10, "count": 4}]}],
     "steps": [{"op": "next_id", "repeat": 4095},
               {"op": "next_id", "decoded": {"sequence": 4095}},
               {"op": "next_id", "decoded": {"timestamp_ms": E + 10, "sequence": 0}},
               {"op": "clock", "expect": {"sleep_count": {"min": 1},
                                          "max_sleep_ns": {"min": 1, "max": NS},
                                          "min_sleep_ns": {"min": 1}}},
               {"op": "stats"}]},

    {"id": "reference.frozen_clock_refuses_call_4097",
     "source": "001 section 11: a frozen clock issues 4,096 ids, then call 4,097 raises "
               "ClockMovedBackwards within the budget instead of blocking",
     "generators": [{"node_id": 1, "clock": [{"ms": E + 5}]}],
     "steps": [{"op": "next_id", "repeat": 4096, "checks": ["unique", "ascending"]},
               {"op": "next_id", "expect": {"error": CMB, "drift_ms": 0}},
               {"op": "clock", "expect": {"slept_ns": 5 * NS}},
               {"op": "stats"}, {"op": "status"}]},

    # Same, then the clock moves: the refused calls changed nothing (the reference's own
    # _wait_next_ms bumps the sequence before raising; a retry would reissue sequence 1).
    {"id": "strict.exhaustion.refusal_changes_nothing",
     "source": "004 / Twitter snowflake issue #6: after call 4,097 is refused on a frozen "
               "clock, a retry is refused again (not sequence 1 reissued) and once the clock "
               "moves the next id starts the new ms at sequence 0",
     "generators": [{"node_id": 1, "clock": [{"ms": E + 5, "count": _frozen_reads()},
                                             {"ms": E + 6, "step_ms": 1}]}],
     "steps": [{"op": "next_id", "repeat": 4096},
               {"op": "next_id", "with_drift": True, "expect": {"error": CMB}},
               {"op": "next_id", "with_drift": True, "expect": {"error": CMB}},
               {"op": "next_id", "decoded": {"timestamp_ms": E + 6, "sequence": 0}},
               {"op": "stats"}]},

    {"id": "reference.monotonic_frozen_50000",
     "source": "001 section 11: MonotonicSnowflake on a frozen clock: 50,000 unique sorted ids, "
               "no error, about 12 ms ahead of the wall clock",
     "generators": [{"node_id": 1, "mode": "monotonic", "clock": [{"ms": E + 5}]}],
     "steps": [{"op": "next_id", "repeat": 50_000, "checks": ["unique", "ascending"]},
               {"op": "stats", "expect": {"ms_borrowed": 12}},
               {"op": "drift", "expect": {"drift_ms": 12}}]},

    {"id": "reference.monotonic_frozen_10000_borrows",
     "source": "001 section 11: 10,000 ids on a frozen clock run from +77 to +79 ms and use the "
               "whole sequence space",
     "generators": [{"node_id": 9, "mode": "monotonic", "clock": [{"ms": E + 77}]}],
     "steps": [{"op": "next_id", "repeat": 10_000, "checks": ["unique", "ascending"],
                "expect": {"max_sequence": 4095},
                "decoded_first": {"timestamp_ms": E + 77},
                "decoded_last": {"timestamp_ms": E + 79}},
               {"op": "stats"}]},

    {"id": "reference.monotonic_sequence_resets_each_ms",
     "source": "001 section 11 (c): two ids per ms for 9,000 calls: the sequence resets every "
               "ms, so it never exceeds 1",
     "generators": [{"node_id": 9, "mode": "monotonic",
                     "clock": [{"ms": E, "step_ms": 1, "every": 2}]}],
     "steps": [{"op": "next_id", "repeat": 9000, "expect": {"max_sequence": 1}},
               {"op": "stats"}]},

    {"id": "reference.monotonic_absorbs_rewind",
     "source": "001 section 11: MonotonicSnowflake absorbs a 600 ms rewind with no error and no "
               "duplicate, running ahead of the wall clock",
     "generators": [{"node_id": 9, "mode": "monotonic",
                     "clock": [{"ms": E + 1000}, {"ms": E + 400}, {"ms": E + 401}]}],
     "steps": [{"op": "next_id"},
               {"op": "next_id", "checks": ["above_earlier"],
                "decoded": {"timestamp_ms": E + 1000, "sequence": 1}},
               {"op": "next_id", "checks": ["above_earlier"]},
               {"op": "stats"},
               {"op": "status", "expect": {"healthy": True, "drift_ms": 599}}]},

    {"id": "reference.two_nodes_same_ms",
     "source": "001 section 11: two nodes at the same millisecond never collide",
     "generators": [{"name": "a", "node_id": 1, "clock": [{"ms": E + 99}]},
                    {"name": "b", "node_id": 2, "clock": [{"ms": E + 99}]}],
     "steps": [{"gen": "a", "op": "next_id"},
               {"gen": "b", "op": "next_id", "checks": ["unique"]}]},
]
