"""Scenario cases for id spaces and the edges of a layout's window (issue 10, items 2 to 5
and 15), appended to vectors/scenarios.json by generate.py.

Generators on one clock object (`clock_of`) share a time, so the ones whose ids occupy the
same bits share one state; `deferred` generators are opened by a step, after others closed.
Expected values come from model/snowfleet_model.py; the assertions here check them against
what the issue requires, so a vector cannot contradict it.
"""

from __future__ import annotations

import snowfleet_model as m

E = 1704067200000  # the default epoch
TWITTER_EPOCH = 1288834974657
INT64_MAX = (1 << 63) - 1


def id_space_cases(Scenario, seg):
    out = []

    # --- twin layouts: one id space however it is spelled ----------------------------------
    sc = Scenario("id_space.twin_layouts_share_one_state",
                  "issue 10 item 3: the twitter preset and 41.10.12 with Twitter's epoch put "
                  "node 37 (datacenter 1, machine 5) in the same bits: one state, one sequence")
    sc.gen("t", layout="twitter", node_id=37, clock=[seg(TWITTER_EPOCH + 5000)])
    sc.gen("u", layout=f"41.10.12@{TWITTER_EPOCH}", node_id=37, clock_of="t")
    a = int(sc.next_id("t")["id"])
    b = int(sc.next_id("u")["id"])
    c = int(sc.next_id("t")["id"])
    assert b == a + 1 and c == b + 1  # alternating calls continue one sequence
    sc.batch(5000, gen="u")  # spends the millisecond: the twitter twin must wait, then refuse
    r = sc.next_id("t")
    assert r["error"] == "CLOCK_MOVED_BACKWARDS"
    sc.status("t")
    out.append(sc.case)

    sc = Scenario("id_space.other_epoch_is_another_space",
                  "issue 10 item 3: the same bits under another epoch are another id space "
                  "(state not shared, nothing refused)")
    sc.gen("t", layout="twitter", node_id=37, clock=[seg(E + 5000)])
    sc.gen("d", layout="discord", node_id=37, clock_of="t")
    sc.next_id("t")
    r = sc.next_id("d")
    assert m.decode(m.Layout.parse("discord"), int(r["id"]))["sequence"] == 0
    out.append(sc.case)

    # --- overlapping shapes ----------------------------------------------------------------
    sc = Scenario("id_space.overlapping_shape_refused_while_open",
                  "issue 10 item 3: 41.11.11 node 10 mints ids 41.10.12 node 5 mints (bits "
                  "12..21 read 5); they cannot share one state, so the second is refused while "
                  "the first is open, and once it closed continues after its last millisecond")
    sc.gen("a", node_id=5, mode="monotonic", clock=[seg(E + 500)])
    sc.gen("b", layout=f"41.11.11@{E}", node_id=10, clock_of="a", deferred=True)
    sc.gen("c", layout=f"41.11.11@{E}", node_id=12, clock_of="a", deferred=True)
    sc.repeat(5000, gen="a")  # borrows E + 501
    r = sc.open("b", contains=["node 5 of layout 41.10.12@1704067200000",
                               "node 10 of layout 41.11.11@1704067200000"])
    assert r["error"] == "NODE_ID_UNAVAILABLE"
    assert sc.open("c") == {}  # node 12: bits 12..21 read 6, disjoint
    sc.next_id("c")
    sc.close("a")
    assert sc.open("b") == {}
    r = sc.next_id("b")  # strict at E + 500: E + 501 was spent by the other shape
    assert r["error"] == "CLOCK_MOVED_BACKWARDS"
    sc.status("b")
    out.append(sc.case)

    # --- successive generators -------------------------------------------------------------
    sc = Scenario("id_space.successor_continues_after_closed_generator",
                  "issue 10 item 5: a generator made after another one of its id space closed "
                  "continues after the last millisecond that one issued, even a borrowed one")
    # The wall clock stands at E + 100 for the first 10,002 readings, then moves 1 ms a read.
    sc.gen("g", node_id=37, mode="monotonic", clock=[seg(E + 100, count=10002),
                                                     seg(E + 101, step_ms=1)])
    sc.gen("h", node_id=37, mode="monotonic", clock_of="g", deferred=True)
    sc.gen("s", node_id=37, mode="strict", clock_of="g", deferred=True)
    last = sc.repeat(10000, gen="g")[-1]  # 10,000 ids in one wall ms: borrows 2 ms
    sc.close("g")
    r = sc.next_id("g")
    assert r["error"] == "GENERATOR_CLOSED"
    sc.open("h")
    r = sc.next_id("h")
    assert int(r["id"]) == last + 1
    sc.close("h")
    sc.open("s")
    r = sc.next_id("s")  # strict, 2 ms behind the borrowed ms: waits, then issues after them
    assert int(r["id"]) > last + 1
    assert m.decode(m.Layout.parse(f"41.10.12@{E}"), int(r["id"]))["timestamp_ms"] == E + 102
    sc.stats("s")
    sc.clock("s")
    out.append(sc.case)

    # --- strict beside a monotonic sibling -------------------------------------------------
    sc = Scenario("id_space.strict_never_ahead_of_its_clock",
                  "issue 10 item 4: after a monotonic sibling ran 500 ms ahead, a strict "
                  "generator of the node refuses instead of issuing ahead of its wall clock")
    sixteen = f"41.18.4@{E}"  # 16 ids per ms: 500 ms ahead in 8,000 ids
    sc.gen("mono", layout=sixteen, node_id=9, mode="monotonic", clock=[seg(E + 1000)])
    sc.gen("strict", layout=sixteen, node_id=9, mode="strict", clock_of="mono")
    sc.next_id("strict")
    sc.batch(16 * 500, gen="mono")
    r = sc.next_id("strict", drift=True)
    assert r["error"] == "CLOCK_MOVED_BACKWARDS" and r["drift_ms"] >= 499
    sc.status("strict")
    out.append(sc.case)

    # --- reserving ahead under contention ---------------------------------------------------
    sc = Scenario("strict.reserve_ahead.rewind_while_held_refused",
                  "issue 10 item 4: a call that found its millisecond taken after waiting "
                  "reserves the next one and holds it; when the clock goes back 40 ms meanwhile "
                  "it refuses (the held id is skipped) instead of returning an id 41 ms ahead")
    sc.gen(layout=f"41.21.1@{E}", node_id=0,
           clock=[seg(E + 50, count=2), seg(E + 48, count=2, step_ms=1), seg(E + 50),
                  seg(E + 10)])
    sc.batch(2)
    r = sc.next_id(drift=True)
    assert r == {"error": "CLOCK_MOVED_BACKWARDS", "drift_ms": 41}
    sc.status()
    sc.stats()
    sc.clock()
    out.append(sc.case)

    # --- the last millisecond of a window ---------------------------------------------------
    for layout in ("43.0.20@0", "41.0.22@1704067200000", "42.1.20@0"):
        lay = m.Layout.parse(layout)
        last_ms = lay.max_timestamp_ms
        for mode in ("strict", "monotonic"):
            cid = (f"edges.window_end.{layout.split('@')[0].replace('.', '_')}_{mode}")
            sc = Scenario(cid, "issue 10 item 2: timestamp + sequence = 63 bits: the window's "
                               "last millisecond ends at id 2^63 - 1 and nothing wraps")
            sc.gen(layout=layout, node_id=lay.max_node_id, mode=mode,
                   clock=[seg(last_ms - 1), seg(last_ms)])
            sc.batch(2)
            ids = sc.batch(lay.max_sequence + 1)
            assert ids[-1] == INT64_MAX and ids == sorted(ids)
            r = sc.next_id()
            assert "error" in r  # strict: the clock never reaches a next ms; monotonic: none left
            sc.status()
            sc.stats()
            out.append(sc.case)

    # --- scripted clocks must stay within an int64 of nanoseconds --------------------------
    sc = Scenario("clock.reading_outside_ns_range_refused",
                  "issue 10 item 15: a scripted clock at 9.3e12 ms would wrap in nanoseconds")
    sc.gen(clock=[seg(9_300_000_000_000)])
    assert sc.case["generators"][0]["expect_construct_error"]["error"] == "INVALID_ARGUMENT"
    sc.case["generators"][0]["expect_construct_error"]["message_contains"] = ["9300000000000"]
    sc.gen("h", node_id=8, clock=[seg(E + 1)])
    sc.next_id("h")
    out.append(sc.case)

    sc = Scenario("clock.pattern_leaving_ns_range_refused_at_the_reading",
                  "issue 10 item 15: a pattern that walks out of the range refuses the reading "
                  "that would leave it, and the generator issues nothing for it")
    top = m.MAX_ABS_CLOCK_MS
    sc.gen(layout="52.0.11@0", node_id=0, clock=[seg(top - 1, step_ms=1)])
    sc.next_id()
    sc.next_id()
    r = sc.next_id()
    assert r["error"] == "INVALID_ARGUMENT"
    sc.stats()
    out.append(sc.case)
    return out
