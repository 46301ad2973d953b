"""snowfleet.Uuid7Generator: the host forms, order and uniqueness counts (10 M UUIDs, and
across threads), fork(), decode_uuid7 and its refusals."""

from __future__ import annotations

import copy
import os
import pickle
import sys
import threading
import weakref
import uuid
from typing import List

import pytest

import snowfleet
from snowfleet.testing import ScriptedClock, ScriptedRandom

T = 1764720000000  # 2025-12-03T00:00:00Z


def test_the_three_forms_are_one_uuid() -> None:
    a = snowfleet.Uuid7Generator(clock=ScriptedClock(T), random=ScriptedRandom(1))
    b = snowfleet.Uuid7Generator(clock=ScriptedClock(T), random=ScriptedRandom(1))
    c = snowfleet.Uuid7Generator(clock=ScriptedClock(T), random=ScriptedRandom(1))
    u = a.next_uuid7()
    assert type(u) is uuid.UUID
    assert u == uuid.UUID("019ae182-3c00-7486-9fd0-a2eefb32555e")  # conformance uuid7.frozen
    assert u.version == 7 and u.variant == uuid.RFC_4122 and u.is_safe is uuid.SafeUUID.unknown
    assert b.next_uuid7_str() == str(u)
    assert c.next_uuid7_bytes() == u.bytes
    assert hash(u) == hash(uuid.UUID(str(u)))
    assert snowfleet.decode_uuid7(u) == (T, snowfleet.decode_uuid7(u).counter, u.int & (2**48 - 1))


def test_next_uuid7_is_a_stdlib_uuid_in_every_use() -> None:
    """The UUID is built in C without UUID.__init__: it must be what uuid.UUID(int=...) is."""
    gen = snowfleet.Uuid7Generator()
    unknown = uuid.SafeUUID.unknown
    before = sys.getrefcount(unknown)
    made = [gen.next_uuid7() for _ in range(1000)]
    assert sys.getrefcount(unknown) == before + 1000  # each UUID holds one reference
    del made
    assert sys.getrefcount(unknown) == before
    for u in [gen.next_uuid7(), *gen.next_uuid7s(3)]:
        same = uuid.UUID(int=u.int)
        assert type(u) is uuid.UUID and u == same and hash(u) == hash(same)
        assert {u: 1}[same] == 1 and not u != same and u <= same and u >= same
        assert str(u) == str(same) and repr(u) == repr(same) and u.bytes == same.bytes
        assert u.fields == same.fields and u.urn == same.urn and u.hex == same.hex
        assert u.is_safe is same.is_safe is uuid.SafeUUID.unknown
        assert pickle.loads(pickle.dumps(u)) == u and copy.deepcopy(u) == u
        assert pickle.dumps(u) == pickle.dumps(same)
        with pytest.raises(TypeError, match="immutable"):
            u.int = 0  # type: ignore[misc]
        assert weakref.ref(u)() is u
        assert not hasattr(u, "__dict__")
    # the int is built digit by digit: values of every length, the top digits zero too
    for ms in (1, 2**20, 2**40, T, 9_223_372_036_854):
        early = snowfleet.Uuid7Generator(clock=ScriptedClock(ms), random=ScriptedRandom(ms))
        for u in [early.next_uuid7(), *early.next_uuid7s(2)]:
            assert u.int == int.from_bytes(u.bytes, "big") and u == uuid.UUID(bytes=u.bytes)
            assert snowfleet.decode_uuid7(u).timestamp_ms == ms


def test_batches_in_each_form() -> None:
    gens = [snowfleet.Uuid7Generator(clock=ScriptedClock(T), random=ScriptedRandom(5)) for _ in range(3)]
    as_uuid = gens[0].next_uuid7s(600)
    assert [str(u) for u in as_uuid] == gens[1].next_uuid7s(600, form="str")
    assert [u.bytes for u in as_uuid] == gens[2].next_uuid7s(600, form="bytes")
    with pytest.raises(snowfleet.InvalidArgument, match="form must be"):
        gens[0].next_uuid7s(1, form="int")
    with pytest.raises(snowfleet.InvalidArgument, match="-1"):
        gens[0].next_uuid7s(-1)


def test_ten_million_strictly_increasing() -> None:
    gen = snowfleet.Uuid7Generator(mode="monotonic")
    last = b""
    not_increasing = 0
    for _ in range(10):
        chunk: List[bytes] = gen.next_uuid7s(1_000_000, form="bytes")  # type: ignore[assignment]
        not_increasing += sum(1 for a, b in zip([last] + chunk, chunk) if not a < b)
        last = chunk[-1]
    assert not_increasing == 0


def test_threads_share_no_uuid() -> None:
    gen = snowfleet.Uuid7Generator()
    per_thread: List[List[str]] = [[] for _ in range(4)]

    def run(out: List[str]) -> None:
        for _ in range(100_000):
            out.append(gen.next_uuid7_str())
        out.extend(gen.next_uuid7s(150_000, form="str"))  # type: ignore[arg-type]

    threads = [threading.Thread(target=run, args=(out,)) for out in per_thread]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(1 for out in per_thread for a, b in zip(out, out[1:]) if not a < b) == 0
    everything = [u for out in per_thread for u in out]
    assert len(set(everything)) == len(everything) == 1_000_000


def test_rewind_and_close() -> None:
    clock = ScriptedClock(T)
    gen = snowfleet.Uuid7Generator(clock=clock, random=ScriptedRandom(1))
    first = gen.next_uuid7()
    clock.set_wall_ms(T - 10)
    with pytest.raises(snowfleet.ClockMovedBackwards) as info:
        gen.next_uuid7()
    assert info.value.drift_ms == 10
    clock.set_wall_ms(T)
    assert gen.next_uuid7() > first
    with gen:
        pass
    assert gen.closed
    with pytest.raises(snowfleet.GeneratorClosed):
        gen.next_uuid7_str()


def test_bad_arguments() -> None:
    with pytest.raises(snowfleet.InvalidArgument, match="'fast'"):
        snowfleet.Uuid7Generator(mode="fast")
    with pytest.raises(snowfleet.InvalidArgument, match="-1"):
        snowfleet.Uuid7Generator(max_wait_ms=-1)
    with pytest.raises(TypeError):
        snowfleet.Uuid7Generator(random=1)  # type: ignore[arg-type]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_forked_child_mints_fresh_uuids() -> None:
    gen = snowfleet.Uuid7Generator()
    before = gen.next_uuid7()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        try:
            os.write(w, " ".join(gen.next_uuid7_str() for _ in range(8)).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        child = [uuid.UUID(x) for x in f.read().split()]
    os.waitpid(pid, 0)
    assert len(child) == 8 and before < child[0]
    parent = [gen.next_uuid7() for _ in range(8)]
    assert not {u.int & (2**48 - 1) for u in child} & {u.int & (2**48 - 1) for u in parent}


def test_decode_refuses_other_versions_naming_them() -> None:
    with pytest.raises(snowfleet.InvalidArgument,
                       match="550e8400-e29b-41d4-a716-446655440000 has version 4"):
        snowfleet.decode_uuid7(uuid.UUID("550e8400-e29b-41d4-a716-446655440000"))
    with pytest.raises(snowfleet.InvalidArgument, match="'nope'"):
        snowfleet.decode_uuid7("nope")
    with pytest.raises(snowfleet.InvalidArgument, match="16 bytes, got 3"):
        snowfleet.decode_uuid7(b"abc")
    with pytest.raises(TypeError):
        snowfleet.decode_uuid7(7)  # type: ignore[arg-type]


def test_stats_status_and_getters_are_generators() -> None:
    clock = ScriptedClock(1764720000000)
    with snowfleet.Uuid7Generator(clock=clock, mode="monotonic", max_wait_ms=7,
                                  max_drift_ms=250) as u:
        u.next_uuid7s(3)
        stats, status = u.stats(), u.status()
        assert isinstance(stats, snowfleet.Stats) and isinstance(status, snowfleet.Status)
        assert stats.ids_issued == 3
        assert status.healthy and status.mode == "monotonic"
        assert (u.max_wait_ms, u.max_drift_ms) == (7.0, 250)
