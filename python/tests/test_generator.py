"""snowfleet.Generator: construction, minting, batches, stats/status, closing."""

from __future__ import annotations

import array
import pathlib
import pickle
import sys
import time
from typing import Callable, List, NamedTuple, Tuple

import pytest

import snowfleet
from snowfleet import Generator, InvalidArgument, decode
from snowfleet.testing import ScriptedClock

from conftest import EPOCH, require

SEED_MS = 1737747358021  # 001 section 4: node 37 at this ms mints 141264821508263936


def test_seed_literal_on_a_frozen_clock() -> None:
    gen = Generator(37, clock=ScriptedClock(SEED_MS))
    assert gen.next_id() == 141264821508263936
    assert gen.next_id() == 141264821508263937


def test_system_clock_ids_are_positive_increasing_and_decode_to_the_node() -> None:
    gen = Generator(node_id=37)
    ids = [gen.next_id() for _ in range(10_000)]
    assert all(0 < a < b < (1 << 63) for a, b in zip(ids, ids[1:]))
    assert {decode(i).node_id for i in ids} == {37}
    stats = gen.stats()
    assert stats.ids_issued == 10_000 and stats.refusals == 0


def test_defaults_and_properties() -> None:
    gen = Generator(5)
    assert gen.node_id == 5
    assert gen.mode == "strict"
    assert gen.max_wait_ms == 5.0
    assert gen.max_drift_ms == 1000
    assert gen.layout == snowfleet.Layout.DEFAULT
    assert not gen.closed
    assert repr(gen) == "Generator(node_id=5, layout='41.10.12@1704067200000', mode='strict')"
    gen = Generator(3, layout="twitter", mode="monotonic", max_wait_ms=2, max_drift_ms=10)
    assert (gen.layout, gen.mode, gen.max_wait_ms, gen.max_drift_ms) == (
        snowfleet.Layout.TWITTER, "monotonic", 2.0, 10)
    assert Generator(3, layout=snowfleet.Layout.DISCORD).layout.preset == "discord"


def test_next_id_is_the_native_method_itself() -> None:
    # No Python frame on the hot path: the attribute is the C method descriptor installed by
    # _snowfleet.cc, inherited unchanged by snowfleet.Generator.
    assert "next_id" not in Generator.__dict__
    method = snowfleet._snowfleet.Generator.__dict__["next_id"]
    assert type(method).__name__ == "method_descriptor"
    assert Generator.next_id is method
    assert Generator(1).next_id.__self__ is not None


@pytest.mark.parametrize("bad", [True, False, 1.0, 37.5, "37", b"37", [37]])
def test_node_id_must_be_an_int(bad: object) -> None:
    with pytest.raises(TypeError) as info:
        Generator(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)


def test_a_generator_needs_a_node_and_the_core_says_so() -> None:
    # The rule is the core's (resolve_options), the same words in every language.
    with pytest.raises(InvalidArgument, match="node_id, datacenter_id \\+ machine_id, or node_source"):
        Generator()


def test_datacenter_and_machine_make_the_node_of_a_split_layout() -> None:
    gen = Generator(layout="twitter", datacenter_id=3, machine_id=5, clock=ScriptedClock(SEED_MS))
    assert gen.node_id == 3 << 5 | 5
    d = decode(gen.next_id(), layout="twitter")
    assert (d.datacenter_id, d.machine_id) == (3, 5)
    with pytest.raises(InvalidArgument, match="machine_id"):
        Generator(layout="twitter", datacenter_id=3)
    with pytest.raises(TypeError):
        Generator(layout="twitter", datacenter_id=3, machine_id=True)


@pytest.mark.parametrize("bad", [-1, 1024, 1 << 63, 1 << 64, -(1 << 70)])
def test_node_id_out_of_range_is_invalid_argument(bad: int) -> None:
    with pytest.raises(InvalidArgument) as info:
        Generator(bad)
    assert isinstance(info.value, ValueError)
    assert info.value.code == "INVALID_ARGUMENT"
    assert str(bad) in str(info.value)


def test_node_id_accepts_integer_like_objects() -> None:
    class Index:
        def __index__(self) -> int:
            return 12

    assert Generator(Index()).node_id == 12  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs, exc",
    [
        ({"mode": "fast"}, InvalidArgument),
        ({"mode": 1}, TypeError),
        ({"max_wait_ms": -1}, InvalidArgument),
        ({"max_wait_ms": float("nan")}, InvalidArgument),
        ({"max_wait_ms": 10**400}, InvalidArgument),
        ({"max_wait_ms": True}, TypeError),
        ({"max_wait_ms": "5"}, TypeError),
        ({"max_drift_ms": -1}, InvalidArgument),
        ({"max_drift_ms": 1.5}, TypeError),
        ({"layout": "41.10.11@0"}, InvalidArgument),
        ({"layout": 41}, TypeError),
        ({"clock": object()}, TypeError),
        ({"node_source": "static:1"}, InvalidArgument),  # node_id given too
        ({"node_source": ""}, InvalidArgument),  # empty, whatever else is given
        ({"datacenter_id": 0, "machine_id": 1}, InvalidArgument),  # node_id given too
    ],
)
def test_bad_generator_arguments(kwargs: dict, exc: type) -> None:  # type: ignore[type-arg]
    with pytest.raises(exc):
        Generator(1, **kwargs)


def test_max_wait_ms_may_be_fractional() -> None:
    assert Generator(1, max_wait_ms=2.5).max_wait_ms == 2.5


def test_node_source_static_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Generator(node_source="static:37").node_id == 37
    monkeypatch.setenv("SNOWFLEET_TEST_NODE", "44")
    gen = Generator(node_source="env:SNOWFLEET_TEST_NODE")
    assert gen.node_id == 44 and decode(gen.next_id()).node_id == 44
    monkeypatch.delenv("SNOWFLEET_TEST_NODE")
    with pytest.raises(snowfleet.NodeIdUnavailable) as info:
        Generator(node_source="env:SNOWFLEET_TEST_NODE")
    assert isinstance(info.value, RuntimeError) and info.value.code == "NODE_ID_UNAVAILABLE"
    with pytest.raises(InvalidArgument):
        Generator(node_source="static:1024")
    with pytest.raises(InvalidArgument):
        Generator(node_source="nonsense")
    with pytest.raises(InvalidArgument):
        Generator(node_source="")
    with pytest.raises(TypeError):
        Generator(node_source=37)  # type: ignore[arg-type]


def test_next_ids_returns_an_int64_array() -> None:
    gen = Generator(9, mode="monotonic", clock=ScriptedClock(EPOCH + 5))
    ids = gen.next_ids(10_000)
    assert type(ids) is array.array and ids.typecode == "q" and ids.itemsize == 8
    assert len(ids) == 10_000
    assert list(ids) == sorted(set(ids))
    assert {decode(i).node_id for i in ids} == {9}
    view = memoryview(ids)
    assert view.format == "q" and view.nbytes == 80_000
    assert gen.next_id() == ids[-1] + 1
    assert gen.stats().ids_issued == 10_001


def test_next_ids_small_and_empty() -> None:
    gen = Generator(1, clock=ScriptedClock([(EPOCH, 1, 1)]))
    assert gen.next_ids(0) == array.array("q")
    assert len(gen.next_ids(1)) == 1
    assert len(gen.next_ids(100)) == 100


def test_next_ids_is_zero_copy_into_numpy() -> None:
    np = require("numpy")
    gen = Generator(2, mode="monotonic", clock=ScriptedClock(EPOCH))
    ids = gen.next_ids(1000)
    arr = np.frombuffer(ids, dtype=np.int64)
    assert arr.shape == (1000,) and int(arr[0]) == ids[0]
    ids[0] = 42  # the numpy array views the same memory
    assert int(arr[0]) == 42
    assert np.all(np.diff(arr[1:]) == 1)


@pytest.mark.parametrize("bad, exc", [(-1, InvalidArgument), (snowfleet.MAX_BATCH + 1, InvalidArgument),
                                      (1 << 64, InvalidArgument), (True, TypeError), (10.0, TypeError),
                                      ("10", TypeError)])
def test_next_ids_rejects_bad_sizes(bad: object, exc: type) -> None:
    gen = Generator(1, clock=ScriptedClock(EPOCH))
    with pytest.raises(exc):
        gen.next_ids(bad)  # type: ignore[arg-type]
    assert gen.stats().ids_issued == 0


def test_stats_and_status_are_named_tuples() -> None:
    clock = ScriptedClock([EPOCH + 1000, EPOCH + 998, (EPOCH + 1000, 1, 1)])
    gen = Generator(7, clock=clock)
    gen.next_id()
    gen.next_id()  # a 2 ms rewind, waited out on the scripted clock
    stats = gen.stats()
    assert isinstance(stats, snowfleet.Stats) and isinstance(stats, tuple)
    assert stats == snowfleet.Stats(ids_issued=2, rewinds_seen=1, waits=1, waited_ns_total=2_000_000,
                                    waited_ns_max=2_000_000, refusals=0, ms_borrowed=0,
                                    mark_writes=0, lease_refusals=0, mark_write_failures=0,
                                    lease_renewal_failures=0)
    status = gen.status()
    assert isinstance(status, snowfleet.Status)
    assert status.healthy and status.reason == "" and status.node_id == 7 and status.mode == "strict"
    assert status.last_ms == EPOCH + 1000
    # No lease: nothing to lose, no mark, no deadline.
    assert (status.lease_state, status.mark_ms, status.lease_expires_in_ms,
            status.mark_headroom_ms) == ("none", -1, -1, -1)
    with pytest.raises(AttributeError):
        stats.waits = 0  # type: ignore[misc]


def test_a_leased_generator_reports_its_lease_and_mark_writes(tmp_path: pathlib.Path) -> None:
    gen = Generator(node_source=f"local:{tmp_path}")
    status = gen.status()
    assert status.lease_state == "held" and status.healthy
    assert status.lease_expires_in_ms == -1  # a local lease cannot expire while we live
    before = time.time_ns() // 1_000_000
    ids = gen.next_ids(1000)
    status = gen.status()
    # The mark is written ahead of the ids it covers: at or above the last one's ms.
    assert status.mark_ms >= decode(ids[-1]).timestamp_ms >= before
    assert (tmp_path / f"slot-{gen.node_id:04d}.mark").exists()
    stats = gen.stats()
    assert stats.mark_writes >= 1 and stats.lease_refusals == 0
    assert stats.mark_write_failures == 0 and stats.lease_renewal_failures == 0
    # The mark runs ahead of the ids (about a second, written again at half that).
    assert 0 < status.mark_headroom_ms <= 2000
    gen.close()  # lowers the mark to the last issued ms: one more write
    status = gen.status()
    assert status.lease_state == "released" and not status.healthy
    assert status.mark_ms == decode(ids[-1]).timestamp_ms
    assert gen.stats().mark_writes == stats.mark_writes + 1


def test_drift_ms_reports_how_far_ahead_a_monotonic_generator_runs() -> None:
    clock = ScriptedClock(EPOCH + 1000)
    gen = Generator(1, mode="monotonic", clock=clock)
    gen.next_id()
    clock.advance_wall_ms(-300)
    gen.next_id()  # absorbed: the logical clock stays at +1000
    assert gen.drift_ms == 300
    assert not gen.status().healthy or gen.status().drift_ms == 300


def test_close_and_context_manager() -> None:
    with Generator(1) as gen:
        gen.next_id()
    assert gen.closed
    assert "closed" in repr(gen)
    with pytest.raises(snowfleet.GeneratorClosed) as info:
        gen.next_id()
    assert info.value.code == "GENERATOR_CLOSED" and isinstance(info.value, RuntimeError)
    for n in (10, 0, -1):  # closed answers first, whatever n is
        with pytest.raises(snowfleet.GeneratorClosed):
            gen.next_ids(n)
    gen.close()  # idempotent
    assert not gen.status().healthy


def test_generators_do_not_pickle() -> None:
    with pytest.raises(TypeError):
        pickle.dumps(Generator(1))


def test_uninitialised_subclass_instance_is_refused() -> None:
    class Broken(Generator):
        def __init__(self) -> None:  # never calls Generator.__init__
            pass

    for obj in (Broken(), Generator.__new__(Generator)):
        for call in (obj.next_id, lambda: obj.next_ids(1), obj.stats, obj.status, obj.close):
            with pytest.raises(TypeError, match="__init__"):
                call()
        with pytest.raises(TypeError, match="__init__"):
            obj.node_id


def test_init_runs_once() -> None:
    gen = Generator(1, clock=ScriptedClock(EPOCH))
    with pytest.raises(TypeError, match="only once"):
        gen.__init__(2)  # type: ignore[misc]
    assert gen.node_id == 1


def test_refcounts_do_not_leak_on_the_hot_path() -> None:
    gen = Generator(1, mode="monotonic", clock=ScriptedClock(EPOCH))
    before = sys.getrefcount(gen)
    for _ in range(1000):
        gen.next_id()
    assert sys.getrefcount(gen) == before


def test_successive_generators_of_one_node_never_repeat_an_id() -> None:
    # A generator per call (`with Generator(node_id=...) as g:`), per request or per config
    # reload: each new one continues after the last millisecond the previous one issued
    # (135,000 of 150,000 ids repeated before).
    seen: set = set()
    total = 0
    for mode in ("strict", "monotonic"):
        node = 61 if mode == "strict" else 62
        for i in range(150):
            if i % 2:
                with Generator(node_id=node, mode=mode) as g:
                    ids = g.next_ids(1000)
            else:
                ids = Generator(node_id=node, mode=mode).next_ids(1000)  # collected at once
            seen.update(ids)
            total += len(ids)
    assert len(seen) == total == 300_000


def test_a_monotonic_burst_outlives_its_generator() -> None:
    g = Generator(node_id=63, mode="monotonic", max_drift_ms=86_400_000)
    first = set(g.next_ids(1_000_000))  # runs ~240 ms ahead of the wall clock
    del g
    second = set(Generator(node_id=63, mode="monotonic", max_drift_ms=86_400_000).next_ids(1_000_000))
    assert not first & second


@pytest.mark.parametrize("record, fields", [(snowfleet.Stats, snowfleet._snowfleet.stats_fields),
                                            (snowfleet.Status, snowfleet._snowfleet.status_fields)])
def test_stats_and_status_fields_are_the_cores(record: type, fields: Callable[[], List[Tuple[str, str]]]) -> None:
    core = fields()
    assert list(record._fields) == [name for name, _ in core]  # type: ignore[attr-defined]
    for name, doc in core:
        assert getattr(record, name).__doc__ == doc and doc


def test_a_record_that_drifts_from_the_core_is_refused_at_import() -> None:
    from snowfleet._generator import _adopt_core_fields

    class Swapped(NamedTuple):
        rewinds_seen: int
        ids_issued: int

    with pytest.raises(ImportError, match="rewinds_seen"):
        _adopt_core_fields(Swapped, [("ids_issued", "a"), ("rewinds_seen", "b")])
