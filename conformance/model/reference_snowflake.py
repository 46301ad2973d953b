# The reference's section 11 "Working Python", verbatim (001_3b9ba6afee246b17.txt, the code block
# and the assertion block that follows it). Running this file proves the reference's assertions
# hold for the reference's own code; conformance/generate.py asserts the same claims against the
# reference model, and the vectors carry them to every language.
#
# Known defect kept verbatim: Snowflake._wait_next_ms is reached after the sequence has
# already been bumped to 0, so when it raises on a frozen clock the state has changed and a
# retry reissues sequence 1 of a spent millisecond (the shape of Twitter snowflake issue #6).
# The reference model and the core do not do this; see the vector
# strict.exhaustion.refusal_changes_nothing.
"""Snowflake-style 64-bit ID generator: 1 | 41 | 10 | 12."""
import threading
import time

CUSTOM_EPOCH_MS = 1704067200000          # 2024-01-01T00:00:00Z

TIMESTAMP_BITS = 41
NODE_BITS = 10
SEQUENCE_BITS = 12
assert 1 + TIMESTAMP_BITS + NODE_BITS + SEQUENCE_BITS == 64

MAX_NODE = (1 << NODE_BITS) - 1          # 1023
MAX_SEQUENCE = (1 << SEQUENCE_BITS) - 1  # 4095
NODE_SHIFT = SEQUENCE_BITS               # 12
TIMESTAMP_SHIFT = SEQUENCE_BITS + NODE_BITS   # 22


class ClockMovedBackwards(RuntimeError):
    """The wall clock is behind a millisecond we have already issued from.

    Continuing would reissue sequence values inside a (ts, node) pair that
    is already spent -- a silent duplicate primary key.
    """


class Snowflake:
    def __init__(self, node_id, epoch_ms=CUSTOM_EPOCH_MS,
                 max_wait_ms=5.0, clock=None, sleep=None):
        if not 0 <= node_id <= MAX_NODE:
            raise ValueError(f"node_id must be in [0, {MAX_NODE}]")
        self.node_id = node_id
        self.epoch_ms = epoch_ms
        self.max_wait_ms = max_wait_ms          # wait below this, refuse above
        self._clock = clock or (lambda: int(time.time() * 1000))
        self._sleep = sleep or time.sleep
        self._lock = threading.Lock()
        self._last_ms = -1
        self._seq = 0

    def next_id(self):
        with self._lock:
            now = self._clock()

            # ---- the clock-rewind guard --------------------------------
            if now < self._last_ms:
                drift = self._last_ms - now
                if drift > self.max_wait_ms:
                    # A rewind bigger than the wait budget is a real event:
                    # an NTP step, a leap second, a migrated VM. Refuse and
                    # fail the health check so traffic moves to another node.
                    raise ClockMovedBackwards(
                        f"clock went back {drift} ms on node {self.node_id}")
                # Below the budget this is slew jitter. Wait it out: a few
                # milliseconds of latency beats a few milliseconds of 5xx.
                #
                # `max_wait_ms` has to bound the CALL, not one sample of the
                # drift. A clock that keeps retreating while we sleep passes
                # the drift test on every iteration and blocks forever, which
                # is exactly the unbounded hang section 8 refuses. One
                # monotonic deadline, checked every time round the loop.
                deadline = time.monotonic() + self.max_wait_ms / 1000.0
                while now < self._last_ms:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise ClockMovedBackwards(
                            f"clock still {self._last_ms - now} ms behind "
                            f"after waiting {self.max_wait_ms} ms on node "
                            f"{self.node_id}")
                    self._sleep(min((self._last_ms - now) / 1000.0, remaining))
                    now = self._clock()

            if now == self._last_ms:
                self._seq = (self._seq + 1) & MAX_SEQUENCE
                if self._seq == 0:                  # 4,096 spent in this ms
                    now = self._wait_next_ms()
            else:
                self._seq = 0

            self._last_ms = now
            elapsed = now - self.epoch_ms
            if not 0 <= elapsed < (1 << TIMESTAMP_BITS):
                raise OverflowError("timestamp outside the 41-bit window")
            return ((elapsed << TIMESTAMP_SHIFT)
                    | (self.node_id << NODE_SHIFT)
                    | self._seq)

    def _wait_next_ms(self):
        """Sleep to the next millisecond. Do NOT busy-spin.

        The mutex is held here and must be: `_last_ms` and `_seq` are one
        piece of state and releasing it mid-update lets a second thread
        reissue this millisecond. But a spin loop under a held lock is the
        worst of both -- every other thread in the process is blocked on the
        lock AND descheduled by the spinner burning its core, for up to a
        full millisecond. Yielding costs one context switch and gives the
        core back. If a thread genuinely cannot afford to wait, the fix is a
        generator per thread with its own node id (section 13), not a spin.

        And this loop needs the same monotonic deadline the rewind guard
        above needs, for the same reason. A clock that does not ADVANCE is
        the same fault as one that RETREATS: both leave the generator inside
        a (timestamp, node) pair it has already spent, and both make the
        exit condition something the wall clock may never satisfy. A frozen
        clock -- a suspended VM, a failing TSC, both rows of section 14's
        table -- lets exactly 4,096 IDs out and then blocks call 4,097 for
        ever, HOLDING THE MUTEX, which stops every thread in the process. A
        healthy clock leaves this loop inside one millisecond, so bound the
        wait at that and refuse past it.
        """
        now = self._clock()
        deadline = time.monotonic() + max(self.max_wait_ms, 1.0) / 1000.0
        while now <= self._last_ms:
            if time.monotonic() >= deadline:
                raise ClockMovedBackwards(
                    f"clock stuck at {now} ms on node {self.node_id}: the "
                    f"sequence for this millisecond is spent and the clock "
                    f"has not advanced")
            self._sleep(0.0002)          # 200 us, well inside the 1 ms wait
            now = self._clock()
        return now

    @staticmethod
    def decode(value, epoch_ms=CUSTOM_EPOCH_MS):
        return {
            "epoch_ms": (value >> TIMESTAMP_SHIFT) + epoch_ms,
            "node_id": (value >> NODE_SHIFT) & MAX_NODE,
            "sequence": value & MAX_SEQUENCE,
        }


class MonotonicSnowflake(Snowflake):
    """Section 8's third fix, implemented rather than described.

    A logical clock that tracks the wall clock upward and never follows it
    down. It never blocks and never duplicates; the price is that the
    embedded timestamp is an upper bound on creation time, not the time.
    """

    def next_id(self):
        with self._lock:
            ts = max(self._last_ms, self._clock())
            if ts == self._last_ms:
                self._seq = (self._seq + 1) & MAX_SEQUENCE
                if self._seq == 0:              # borrow from the next ms
                    ts += 1
            else:
                self._seq = 0                   # the line the pseudocode lost
            self._last_ms = ts                  # ...and so is this one
            elapsed = ts - self.epoch_ms
            if not 0 <= elapsed < (1 << TIMESTAMP_BITS):
                raise OverflowError("timestamp outside the 41-bit window")
            return ((elapsed << TIMESTAMP_SHIFT)
                    | (self.node_id << NODE_SHIFT)
                    | self._seq)


def scripted_clock(values):
    """A clock that returns `values` in order, then ticks forward by 1 ms."""
    it = iter(values)
    state = [0]

    def clock():
        try:
            state[0] = next(it)
        except StopIteration:
            state[0] += 1
        return state[0]

    return clock


# --- bit layout -------------------------------------------------------
assert MAX_NODE == 1023 and MAX_SEQUENCE == 4095
assert (1 << TIMESTAMP_BITS) - 1 == 2_199_023_255_551
assert TIMESTAMP_SHIFT == 22 and NODE_SHIFT == 12

g = Snowflake(node_id=1023, clock=lambda: CUSTOM_EPOCH_MS + 1)
one = g.next_id()
assert one < (1 << 63), "must stay positive in a signed BIGINT"
assert Snowflake.decode(one)["node_id"] == 1023
assert Snowflake.decode(one)["epoch_ms"] == CUSTOM_EPOCH_MS + 1

# --- monotonicity inside one millisecond ------------------------------
g = Snowflake(node_id=7, clock=scripted_clock([CUSTOM_EPOCH_MS] * 5))
ids = [g.next_id() for _ in range(5)]
assert ids == sorted(ids) and len(set(ids)) == 5
assert [Snowflake.decode(i)["sequence"] for i in ids] == [0, 1, 2, 3, 4]

# --- monotonicity across milliseconds ---------------------------------
g = Snowflake(node_id=7, clock=scripted_clock(
    [CUSTOM_EPOCH_MS, CUSTOM_EPOCH_MS, CUSTOM_EPOCH_MS + 1]))
ids = [g.next_id() for _ in range(3)]
assert ids == sorted(ids) and len(set(ids)) == 3

# --- the literal printed in section 4 ---------------------------------
# 141264821508263936, and nothing else, decodes to node 37 at sequence 0.
g = Snowflake(node_id=37, clock=lambda: 1_737_747_358_021)
first = g.next_id()
assert first == 141264821508263936
assert Snowflake.decode(first) == {"epoch_ms": 1_737_747_358_021,
                                   "node_id": 37, "sequence": 0}
# The plausible-looking constant that ends in "37" is a different ID.
assert Snowflake.decode(141264821510144037) == {"epoch_ms": 1_737_747_358_021,
                                                "node_id": 496, "sequence": 37}

# --- a large rewind is REFUSED ----------------------------------------
g = Snowflake(node_id=7, max_wait_ms=5.0, clock=scripted_clock(
    [CUSTOM_EPOCH_MS + 1000, CUSTOM_EPOCH_MS + 400]))
g.next_id()
try:
    g.next_id()
    raise AssertionError("a 600 ms rewind must not be silently absorbed")
except ClockMovedBackwards:
    pass

# --- a small rewind is WAITED OUT, and then succeeds -------------------
# max_wait_ms must be > 0 here. At max_wait_ms = 0.0 every rewind is
# larger than the budget, so such a test exercises the refuse path twice
# and the wait path never.
g = Snowflake(node_id=7, max_wait_ms=5.0, clock=scripted_clock(
    [CUSTOM_EPOCH_MS + 1000, CUSTOM_EPOCH_MS + 998, CUSTOM_EPOCH_MS + 1000]))
one, two = g.next_id(), g.next_id()
assert two > one                              # no error, and still monotone
assert Snowflake.decode(two)["epoch_ms"] == CUSTOM_EPOCH_MS + 1000
assert Snowflake.decode(two)["sequence"] == 1

# --- max_wait_ms bounds the CALL, not one sample of the drift ----------
# A clock retreating 4 ms per read passes the `drift > max_wait_ms` test
# every single time, so without a deadline this loop never returns: it
# stays blocked past 6 seconds, having absorbed 212 ms of rewind against
# a 5 ms budget.
state = {"ms": CUSTOM_EPOCH_MS + 1_000_000, "reads": 0}


def retreating_clock():
    state["reads"] += 1
    if state["reads"] > 1:
        state["ms"] -= 4
    return state["ms"]


g = Snowflake(node_id=7, max_wait_ms=5.0, clock=retreating_clock)
g.next_id()
started = time.monotonic()
try:
    g.next_id()
    raise AssertionError("a clock that keeps retreating must not block forever")
except ClockMovedBackwards:
    pass
waited_ms = (time.monotonic() - started) * 1000
assert waited_ms < 50, waited_ms          # 5 ms budget, generous slack

# --- sequence exhaustion yields the CPU, it does not spin --------------
naps = []
ticks = iter([CUSTOM_EPOCH_MS + 9] * 3 + [CUSTOM_EPOCH_MS + 10] * 4)
g = Snowflake(node_id=7, clock=lambda: next(ticks), sleep=naps.append)
g._last_ms, g._seq = CUSTOM_EPOCH_MS + 9, MAX_SEQUENCE - 1
assert Snowflake.decode(g.next_id())["sequence"] == MAX_SEQUENCE  # last one
rolled = g.next_id()                                   # must roll to the ms
assert Snowflake.decode(rolled)["epoch_ms"] == CUSTOM_EPOCH_MS + 10
assert Snowflake.decode(rolled)["sequence"] == 0
assert naps, "the exhaustion path must sleep, not busy-spin under the lock"
assert all(0 < s <= 0.001 for s in naps), naps

# --- a clock that does not ADVANCE must refuse, not block --------------
# The rewind guard bounds its wait; the exhaustion path has to as well,
# because a frozen clock never satisfies `now > _last_ms` either. Exactly
# 4,096 IDs fit in one millisecond, so a stopped clock -- a suspended VM,
# a failing TSC -- issues 4,096 and then reaches `_wait_next_ms`. Without
# the deadline there, call 4,097 never returns AND it is holding the
# mutex, so every other thread in the process stops with it.
g = Snowflake(node_id=1, clock=lambda: CUSTOM_EPOCH_MS + 5)
frozen_ids = [g.next_id() for _ in range(MAX_SEQUENCE + 1)]   # 4,096
assert len(set(frozen_ids)) == 4096 and frozen_ids == sorted(frozen_ids)
started = time.monotonic()
try:
    g.next_id()                                   # the 4,097th
    raise AssertionError("a frozen clock must raise, not block for ever")
except ClockMovedBackwards:
    pass
assert (time.monotonic() - started) * 1000 < 100  # 1 ms budget, wide slack

# MonotonicSnowflake is immune to the same input by construction: it never
# reads the wall clock for an exit condition, so there is no loop to be
# stuck in. Same frozen clock, 50,000 IDs, no error and no duplicate.
m = MonotonicSnowflake(node_id=1, clock=lambda: CUSTOM_EPOCH_MS + 5)
immune = [m.next_id() for _ in range(50_000)]
assert len(set(immune)) == 50_000 and immune == sorted(immune)

# --- section 8's third fix: implemented, and both ways it breaks -------
def third_fix(n, clock, reset_seq, assign_last):
    """Section 8's pseudocode, with each of the two easy-to-omit lines
    switchable, so 'broken as written' is a number rather than a claim."""
    last_ms, seq, out = -1, 0, []
    for _ in range(n):
        ts = max(last_ms, clock())
        if ts == last_ms:
            seq = (seq + 1) & MAX_SEQUENCE
            if seq == 0:
                ts += 1
        elif reset_seq:
            seq = 0
        if assign_last:
            last_ms = ts
        out.append((ts, 9, seq))
    return out


# (a) `last_ms` never assigned: ts == last_ms is never true, so seq is
#     pinned at 0 and a frozen clock reissues one identical ID forever.
frozen = lambda: CUSTOM_EPOCH_MS + 77
assert len(set(third_fix(5, frozen, reset_seq=True, assign_last=False))) == 1

# (b) no `else: seq = 0`: the sequence stops being per-millisecond and
#     becomes a global counter, spent after 4,096 IDs in total.
two_per_ms = iter([CUSTOM_EPOCH_MS + i // 2 for i in range(9_000)])
no_reset = third_fix(9_000, lambda: next(two_per_ms),
                     reset_seq=False, assign_last=True)
assert max(s for _, _, s in no_reset) == MAX_SEQUENCE   # on 2 IDs/ms

# (c) both lines present -- which is what MonotonicSnowflake implements.
two_per_ms = iter([CUSTOM_EPOCH_MS + i // 2 for i in range(9_000)])
m = MonotonicSnowflake(node_id=9, clock=lambda: next(two_per_ms))
seqs = [Snowflake.decode(m.next_id())["sequence"] for _ in range(9_000)]
assert max(seqs) == 1                                   # resets every ms

# It never blocks and never duplicates, even on a frozen clock: it borrows
# from the sequence space and runs ahead of real time.
m = MonotonicSnowflake(node_id=9, clock=frozen)
ids = [m.next_id() for _ in range(10_000)]              # 2.4x the seq space
assert len(set(ids)) == 10_000 and ids == sorted(ids)
assert Snowflake.decode(ids[0])["epoch_ms"] == CUSTOM_EPOCH_MS + 77
assert Snowflake.decode(ids[-1])["epoch_ms"] == CUSTOM_EPOCH_MS + 79
assert max(Snowflake.decode(i)["sequence"] for i in ids) == MAX_SEQUENCE

# ...and it absorbs a rewind with no error and no duplicate.
back = iter([CUSTOM_EPOCH_MS + 1000, CUSTOM_EPOCH_MS + 400,
             CUSTOM_EPOCH_MS + 401])
m = MonotonicSnowflake(node_id=9, clock=lambda: next(back))
a, b, c = m.next_id(), m.next_id(), m.next_id()
assert a < b < c
assert Snowflake.decode(b)["epoch_ms"] == CUSTOM_EPOCH_MS + 1000  # ahead
assert Snowflake.decode(b)["sequence"] == 1

# --- two nodes never collide even at the same millisecond -------------
a = Snowflake(node_id=1, clock=lambda: CUSTOM_EPOCH_MS + 99)
b = Snowflake(node_id=2, clock=lambda: CUSTOM_EPOCH_MS + 99)
assert a.next_id() != b.next_id()

