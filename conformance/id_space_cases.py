"""Scenario cases for id spaces and the edges of a layout's window, appended to
vectors/scenarios.json by generate.py.

Written as data for scenario.build (the entry format is described there). Generators on
one clock object (`clock_of`) share a time, so the ones whose ids occupy the same bits share
one state; `deferred` generators are opened by a step, after others closed. Expected values
come from model/snowfleet_model.py; the `expect`, `decoded` and `checks` here assert what
the project requires against them, so a vector cannot contradict it.
"""

from __future__ import annotations

import snowfleet_model as m

E = 1704067200000  # the default epoch
TWITTER_EPOCH = 1288834974657
INT64_MAX = (1 << 63) - 1


CMB = "CLOCK_MOVED_BACKWARDS"
MONO = "monotonic"
SHAPE_41_11_11 = f"41.11.11@{E}"
SIXTEEN = f"41.18.4@{E}"  # 16 ids per ms: 500 ms ahead in 8,000 ids


def _window_end(layout: str, mode: str) -> dict:
    lay = m.Layout.parse(layout)
    last_ms = lay.max_timestamp_ms
    return {
        "id": f"edges.window_end.{layout.split('@')[0].replace('.', '_')}_{mode}",
        "source": "timestamp + sequence = 63 bits: the window's last "
                  "millisecond ends at id 2^63 - 1 and nothing wraps",
        "generators": [{"layout": layout, "node_id": lay.max_node_id, "mode": mode,
                        "clock": [{"ms": last_ms - 1}, {"ms": last_ms}]}],
        "steps": [{"op": "next_ids", "n": 2},
                  {"op": "next_ids", "n": lay.max_sequence + 1, "checks": ["ascending"],
                   "expect": {"last": INT64_MAX}},
                  # strict: the clock never reaches a next ms; monotonic: no ms is left
                  {"op": "next_id",
                   "expect": {"error": CMB if mode == "strict" else "TIMESTAMP_OUT_OF_RANGE"}},
                  {"op": "status"}, {"op": "stats"}]}


ID_SPACE_SCENARIOS = [
    # --- twin layouts: one id space however it is spelled ----------------------------------
    {"id": "id_space.twin_layouts_share_one_state",
     "source": "the twitter preset and 41.10.12 with Twitter's epoch put "
               "node 37 (datacenter 1, machine 5) in the same bits: one state, one sequence",
     "generators": [{"name": "t", "layout": "twitter", "node_id": 37,
                     "clock": [{"ms": TWITTER_EPOCH + 5000}]},
                    {"name": "u", "layout": f"41.10.12@{TWITTER_EPOCH}", "node_id": 37,
                     "clock_of": "t"}],
     # alternating calls continue one sequence; the batch spends the millisecond, so the
     # twitter twin must wait, then refuse
     "steps": [{"gen": "t", "op": "next_id"},
               {"gen": "u", "op": "next_id", "checks": ["follows_earlier"]},
               {"gen": "t", "op": "next_id", "checks": ["follows_earlier"]},
               {"gen": "u", "op": "next_ids", "n": 5000},
               {"gen": "t", "op": "next_id", "expect": {"error": CMB}},
               {"gen": "t", "op": "status"}]},

    {"id": "id_space.other_epoch_is_another_space",
     "source": "the same bits under another epoch are another id space "
               "(state not shared, nothing refused)",
     "generators": [{"name": "t", "layout": "twitter", "node_id": 37,
                     "clock": [{"ms": E + 5000}]},
                    {"name": "d", "layout": "discord", "node_id": 37, "clock_of": "t"}],
     "steps": [{"gen": "t", "op": "next_id"},
               {"gen": "d", "op": "next_id", "decoded": {"sequence": 0}}]},

    # --- overlapping shapes ----------------------------------------------------------------
    {"id": "id_space.overlapping_shape_refused_while_open",
     "source": "41.11.11 node 10 mints ids 41.10.12 node 5 mints (bits "
               "12..21 read 5); they cannot share one state, so the second is refused while "
               "the first is open, and once it closed continues after its last millisecond",
     "generators": [{"name": "a", "node_id": 5, "mode": MONO, "clock": [{"ms": E + 500}]},
                    {"name": "b", "layout": SHAPE_41_11_11, "node_id": 10, "clock_of": "a",
                     "deferred": True},
                    {"name": "c", "layout": SHAPE_41_11_11, "node_id": 12, "clock_of": "a",
                     "deferred": True}],
     "steps": [{"gen": "a", "op": "next_id", "repeat": 5000},  # borrows E + 501
               {"gen": "b", "op": "open", "expect": {"error": "NODE_ID_UNAVAILABLE"},
                "message_contains": ["node 5 of layout 41.10.12@1704067200000",
                                     "node 10 of layout 41.11.11@1704067200000"]},
               {"gen": "c", "op": "open", "expect": {}},  # node 12: bits 12..21 read 6
               {"gen": "c", "op": "next_id"},
               {"gen": "a", "op": "close"},
               {"gen": "b", "op": "open", "expect": {}},
               # strict at E + 500: E + 501 was spent by the other shape
               {"gen": "b", "op": "next_id", "expect": {"error": CMB}},
               {"gen": "b", "op": "status"}]},

    # --- successive generators -------------------------------------------------------------
    {"id": "id_space.successor_continues_after_closed_generator",
     "source": "a generator made after another one of its id space closed "
               "continues after the last millisecond that one issued, even a borrowed one",
     # The wall clock stands at E + 100 for the first 10,002 readings, then moves 1 ms a read.
     "generators": [{"name": "g", "node_id": 37, "mode": MONO,
                     "clock": [{"ms": E + 100, "count": 10002}, {"ms": E + 101, "step_ms": 1}]},
                    {"name": "h", "node_id": 37, "mode": MONO, "clock_of": "g",
                     "deferred": True},
                    {"name": "s", "node_id": 37, "mode": "strict", "clock_of": "g",
                     "deferred": True}],
     "steps": [{"gen": "g", "op": "next_id", "repeat": 10000},  # one wall ms: borrows 2 ms
               {"gen": "g", "op": "close"},
               {"gen": "g", "op": "next_id", "expect": {"error": "GENERATOR_CLOSED"}},
               {"gen": "h", "op": "open"},
               {"gen": "h", "op": "next_id", "checks": ["follows_earlier"]},
               {"gen": "h", "op": "close"},
               {"gen": "s", "op": "open"},
               # strict, 2 ms behind the borrowed ms: waits, then issues after them
               {"gen": "s", "op": "next_id", "checks": ["above_earlier"],
                "decoded": {"timestamp_ms": E + 102}},
               {"gen": "s", "op": "stats"},
               {"gen": "s", "op": "clock"}]},

    # --- strict beside a monotonic sibling -------------------------------------------------
    {"id": "id_space.strict_never_ahead_of_its_clock",
     "source": "after a monotonic sibling ran 500 ms ahead, a strict "
               "generator of the node refuses instead of issuing ahead of its wall clock",
     "generators": [{"name": "mono", "layout": SIXTEEN, "node_id": 9, "mode": MONO,
                     "clock": [{"ms": E + 1000}]},
                    {"name": "strict", "layout": SIXTEEN, "node_id": 9, "mode": "strict",
                     "clock_of": "mono"}],
     "steps": [{"gen": "strict", "op": "next_id"},
               {"gen": "mono", "op": "next_ids", "n": 16 * 500},
               {"gen": "strict", "op": "next_id",
                "expect": {"error": CMB, "drift_ms": {"min": 499}}},
               {"gen": "strict", "op": "status"}]},

    # --- reserving ahead under contention ---------------------------------------------------
    {"id": "strict.reserve_ahead.rewind_while_held_refused",
     "source": "a call that found its millisecond taken after waiting "
               "reserves the next one and holds it; when the clock goes back 40 ms meanwhile "
               "it refuses (the held id is skipped) instead of returning an id 41 ms ahead",
     "generators": [{"layout": f"41.21.1@{E}", "node_id": 0,
                     "clock": [{"ms": E + 50, "count": 2},
                               {"ms": E + 48, "count": 2, "step_ms": 1},
                               {"ms": E + 50}, {"ms": E + 10}]}],
     "steps": [{"op": "next_ids", "n": 2},
               {"op": "next_id", "expect": {"error": CMB, "drift_ms": 41}},
               {"op": "status"}, {"op": "stats"}, {"op": "clock"}]},

    # --- the last millisecond of a window ---------------------------------------------------
    *[_window_end(layout, mode) for layout in ("43.0.20@0", "41.0.22@1704067200000", "42.1.20@0")
      for mode in ("strict", "monotonic")],

    # --- scripted clocks must stay within an int64 of nanoseconds --------------------------
    {"id": "clock.reading_outside_ns_range_refused",
     "source": "a scripted clock at 9.3e12 ms would wrap in nanoseconds",
     "generators": [{"clock": [{"ms": 9_300_000_000_000}],
                     "expect": {"error": "INVALID_ARGUMENT"},
                     "message_contains": ["9300000000000"]},
                    {"name": "h", "node_id": 8, "clock": [{"ms": E + 1}]}],
     "steps": [{"gen": "h", "op": "next_id"}]},

    {"id": "clock.pattern_leaving_ns_range_refused_at_the_reading",
     "source": "a pattern that walks out of the range refuses the reading "
               "that would leave it, and the generator issues nothing for it",
     "generators": [{"layout": "52.0.11@0", "node_id": 0,
                     "clock": [{"ms": m.MAX_ABS_CLOCK_MS - 1, "step_ms": 1}]}],
     "steps": [{"op": "next_id"}, {"op": "next_id"},
               {"op": "next_id", "expect": {"error": "INVALID_ARGUMENT"}},
               {"op": "stats"}]},
]
