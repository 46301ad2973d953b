"""Scenario cases: strict mode beyond the seed (wait budgets, rewinds, batches, the ends of
the window, status), as data for scenario.build (the entry format is described there).
"""

from __future__ import annotations

E = 1704067200000  # the default epoch, 2024-01-01T00:00:00Z
TWITTER = "41.5.5.12@1288834974657"
SMALL = "33.10.20@1704067200000"  # a window that ends at E + 2^33 - 1
CMB = "CLOCK_MOVED_BACKWARDS"

STRICT_SCENARIOS = [
    {"id": "strict.max_wait_zero_refuses_any_rewind",
     "source": "001 section 11: with max_wait_ms = 0 every rewind is above the budget",
     "generators": [{"max_wait_ms": 0.0, "clock": [{"ms": E + 1000}, {"ms": E + 999},
                                                   {"ms": E + 1000}, {"ms": E + 1001}]}],
     "steps": [{"op": "next_id"},
               {"op": "next_id", "expect": {"error": CMB, "drift_ms": 1}},
               {"op": "next_id"}, {"op": "next_id"}, {"op": "stats"}]},

    {"id": "strict.max_wait_zero_still_rolls_over",
     "source": "a spent millisecond still gets up to 1 ms to roll over when max_wait_ms = 0",
     "generators": [{"max_wait_ms": 0.0, "clock": [{"ms": E + 1, "count": 4097},
                                                   {"ms": E + 2}]}],
     "steps": [{"op": "next_id", "repeat": 4096},
               {"op": "next_id", "decoded": {"timestamp_ms": E + 2}},
               {"op": "clock"}]},

    {"id": "strict.fractional_budget",
     "source": "max_wait_ms may be fractional: 2.5 waits out 2 ms and refuses 3 ms",
     "generators": [{"max_wait_ms": 2.5, "clock": [{"ms": E + 100}, {"ms": E + 98},
                                                   {"ms": E + 100}, {"ms": E + 97},
                                                   {"ms": E + 101}]}],
     "steps": [{"op": "next_id"}, {"op": "next_id"},
               {"op": "next_id", "expect": {"error": CMB, "drift_ms": 3}},
               {"op": "next_id"}, {"op": "stats"}, {"op": "clock"}]},

    {"id": "strict.rewind_then_advance",
     "source": "004: rewind then advance: ids refused during the rewind, then resume strictly "
               "above everything issued before",
     "generators": [{"clock": [{"ms": E + 500, "count": 3},
                               {"ms": E + 200, "count": 3, "step_ms": 1},
                               {"ms": E + 501, "step_ms": 1}]}],
     "steps": [{"op": "next_id", "repeat": 3}]
     + [{"op": "next_id", "with_drift": True}] * 3
     + [{"op": "next_id", "repeat": 3, "checks": ["above_earlier"]},
        {"op": "stats"}]},

    {"id": "strict.batch_crosses_milliseconds",
     "source": "next_ids(10000) on a ticking clock fills 4,096 per ms, ascending",
     "generators": [{"clock": [{"ms": E + 1000, "step_ms": 1}]}],
     "steps": [{"op": "next_ids", "n": 10_000, "checks": ["ascending", "unique"],
                "expect": {"max_sequence": 4095}},
               {"op": "stats"}, {"op": "clock"}]},

    {"id": "strict.batch_waits_for_next_ms",
     "source": "a batch larger than what is left of the ms waits (bounded) for the next ms",
     "generators": [{"clock": [{"ms": E + 7, "count": 3}, {"ms": E + 8, "count": 3},
                               {"ms": E + 9, "step_ms": 1}]}],
     "steps": [{"op": "next_id"},
               {"op": "next_ids", "n": 4096, "checks": ["ascending"]},
               {"op": "stats"}, {"op": "clock"}]},

    {"id": "strict.batch_frozen_clock_refused",
     "source": "a batch that cannot complete on a frozen clock is refused; its reserved ids "
               "are skipped, never reissued",
     "generators": [{"clock": [{"ms": E + 3, "count": 200}, {"ms": E + 4, "step_ms": 1}]}],
     "steps": [{"op": "next_ids", "n": 5000, "with_drift": True, "expect": {"error": CMB}},
               {"op": "next_id"}, {"op": "stats", "expect": {"ids_issued": 4096}}]},

    {"id": "strict.batch_sizes",
     "source": "next_ids(0) is empty; sizes above 2^24 or negative are invalid arguments",
     "generators": [{"clock": [{"ms": E + 1, "step_ms": 1}]}],
     "steps": [{"op": "next_ids", "n": 0, "expect": {"count": 0}},
               {"op": "next_ids", "n": 1, "expect": {"count": 1}},
               {"op": "next_ids", "n": (1 << 24) + 1, "expect": {"error": "INVALID_ARGUMENT"}},
               {"op": "next_ids", "n": -1, "expect": {"error": "INVALID_ARGUMENT"}},
               {"op": "stats"}]},

    {"id": "strict.clock_before_epoch",
     "source": "a wall clock before the layout's epoch refuses with TimestampOutOfRange",
     "generators": [{"clock": [{"ms": E - 1}, {"ms": E}]}],
     "steps": [{"op": "next_id", "expect": {"error": "TIMESTAMP_OUT_OF_RANGE"}},
               {"op": "next_id", "expect": {}}, {"op": "stats"}]},

    {"id": "strict.clock_past_window",
     "source": "past the end of the timestamp window the generator refuses, it never wraps",
     "generators": [{"layout": SMALL, "clock": [{"ms": E + (1 << 33) - 1},
                                                {"ms": E + (1 << 33)}]}],
     "steps": [{"op": "next_id", "expect": {}},
               {"op": "next_id", "expect": {"error": "TIMESTAMP_OUT_OF_RANGE"}},
               {"op": "status"}]},

    {"id": "strict.twitter_layout_generator",
     "source": "000: a generator on the Twitter layout as node 237 (datacenter 7, machine 13)",
     "generators": [{"layout": TWITTER, "node_id": 237, "clock": [{"ms": 1700000000000}]}],
     "steps": [{"op": "next_id", "decoded": {"datacenter_id": 7, "machine_id": 13}},
               {"op": "next_id", "repeat": 4095}]},

    {"id": "strict.status_tracks_the_clock",
     "source": "status(): healthy on a good clock, unhealthy while a rewind exceeds the "
               "budget, healthy again once the clock catches up",
     "generators": [{"clock": [{"ms": E + 1000}, {"ms": E + 1000}, {"ms": E + 900},
                               {"ms": E + 997}, {"ms": E + 1001}]}],
     "steps": [{"op": "next_id"},
               {"op": "status", "expect": {"healthy": True}},
               {"op": "status", "expect": {"healthy": False}},
               {"op": "status", "expect": {"healthy": True}},
               {"op": "status"}]},

    {"id": "strict.fresh_generator_status",
     "source": "a generator that has issued nothing is healthy with last_ms -1",
     "generators": [{"clock": [{"ms": E + 10}]}],
     "steps": [{"op": "status", "expect": {"healthy": True, "last_ms": -1}},
               {"op": "drift"}, {"op": "stats"}]},
]
