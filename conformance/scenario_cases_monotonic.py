"""Scenario cases: monotonic mode beyond the seed (the drift limit, batches that borrow, the
end of the window), and generator arguments refused at construction, as data for
scenario.build (the entry format is described there).
"""

from __future__ import annotations

E = 1704067200000  # the default epoch, 2024-01-01T00:00:00Z
TWITTER = "41.5.5.12@1288834974657"
SMALL = "33.10.20@1704067200000"  # a window that ends at E + 2^33 - 1
CMB = "CLOCK_MOVED_BACKWARDS"
MONO = "monotonic"

MONOTONIC_SCENARIOS = [
    {"id": "monotonic.drift_limit_waits_then_refuses",
     "source": "max_drift_ms bounds how far the logical clock runs ahead; on a frozen "
               "clock it waits out the budget, then refuses",
     "generators": [{"mode": MONO, "max_drift_ms": 2, "clock": [{"ms": E + 50}]}],
     "steps": [{"op": "next_id", "repeat": 3 * 4096, "checks": ["ascending"]},
               {"op": "next_id", "expect": {"error": CMB, "drift_ms": 3}},
               {"op": "stats"}, {"op": "drift"}, {"op": "clock"}]},

    {"id": "monotonic.drift_limit_waits_for_clock",
     "source": "at the drift limit on a moving clock the generator waits for the wall clock "
               "and continues",
     "generators": [{"mode": MONO, "max_drift_ms": 1,
                     "clock": [{"ms": E + 50, "count": 2 * 4096 + 1},
                               {"ms": E + 51, "step_ms": 1}]}],
     "steps": [{"op": "next_id", "repeat": 2 * 4096 + 10, "checks": ["ascending", "unique"]},
               {"op": "stats"}, {"op": "clock"}]},

    {"id": "monotonic.large_rewind_beyond_drift_refused",
     "source": "a rewind larger than max_drift_ms + max_wait_ms is refused at once",
     "generators": [{"mode": MONO, "max_drift_ms": 10,
                     "clock": [{"ms": E + 1000}, {"ms": E + 400}, {"ms": E + 995},
                               {"ms": E + 1000}]}],
     "steps": [{"op": "next_id"},
               {"op": "next_id", "expect": {"error": CMB, "drift_ms": 600}},
               {"op": "next_id"}, {"op": "next_id"}, {"op": "stats"}, {"op": "status"}]},

    {"id": "monotonic.leap_second_absorbed",
     "source": "the default max_drift_ms (1000) absorbs a 1-second step back",
     "generators": [{"mode": MONO, "clock": [{"ms": E + 5000}, {"ms": E + 4000, "step_ms": 1}]}],
     "steps": [{"op": "next_id"}, {"op": "next_id", "repeat": 10},
               {"op": "status", "expect": {"healthy": True}},
               {"op": "stats"}]},

    {"id": "monotonic.batch_borrows_within_drift",
     "source": "next_ids(10000) on a frozen clock borrows 2 ms with one state update",
     "generators": [{"mode": MONO, "clock": [{"ms": E + 20}]}],
     "steps": [{"op": "next_ids", "n": 10_000, "checks": ["ascending"]},
               {"op": "stats"}, {"op": "clock"}]},

    {"id": "monotonic.batch_at_drift_limit_waits",
     "source": "a batch that would run past max_drift_ms takes what fits, waits for the clock, "
               "then continues",
     "generators": [{"mode": MONO, "max_drift_ms": 1,
                     "clock": [{"ms": E + 20, "count": 2}, {"ms": E + 21, "step_ms": 1}]}],
     "steps": [{"op": "next_ids", "n": 20_000, "checks": ["ascending", "unique"]},
               {"op": "stats"}, {"op": "clock"}]},

    {"id": "monotonic.window_end_refused",
     "source": "the logical clock cannot borrow past the end of the window",
     "generators": [{"layout": SMALL, "mode": MONO, "clock": [{"ms": E + (1 << 33) - 1}]}],
     "steps": [{"op": "next_id", "repeat": 1 << 20},
               {"op": "next_id", "expect": {"error": "TIMESTAMP_OUT_OF_RANGE"}},
               {"op": "stats"}]},

    {"id": "monotonic.two_generators_same_node_differ_in_time_only",
     "source": "two monotonic nodes at the same frozen ms issue disjoint ids",
     "generators": [{"name": "a", "node_id": 3, "mode": MONO, "clock": [{"ms": E + 42}]},
                    {"name": "b", "node_id": 4, "mode": MONO, "clock": [{"ms": E + 42}]}],
     "steps": [{"gen": "a", "op": "next_id", "repeat": 5000},
               {"gen": "b", "op": "next_id", "repeat": 5000, "checks": ["unique"]}]},
]

_BAD = {"expect": {"error": "INVALID_ARGUMENT"}, "clock": [{"ms": E}]}

CONSTRUCT_SCENARIOS = [
    {"id": "construct.invalid_arguments",
     "source": "bad generator arguments are rejected with InvalidArgument",
     "generators": [
         dict(_BAD, name="node_too_large", node_id=1024, message_contains=["1024"]),
         dict(_BAD, name="node_negative", node_id=-1),
         dict(_BAD, name="bad_mode", mode="fast"),
         dict(_BAD, name="negative_wait", max_wait_ms=-1.0),
         dict(_BAD, name="huge_wait", max_wait_ms=60001.0),
         dict(_BAD, name="negative_drift", mode=MONO, max_drift_ms=-1),
         dict(_BAD, name="twitter_node_too_large", layout=TWITTER, node_id=1024),
         dict(_BAD, name="single_node_layout", layout="41.0.22@1704067200000", node_id=1),
     ],
     "steps": []},
]
