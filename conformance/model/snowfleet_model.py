"""Reference model of snowfleet, in plain Python, for producing conformance vectors.

It implements the reference's algorithm (001, section 11) as the project specifies it, with the
fixes the project requires, independently of the C++ core:

* one bit layout type (epoch, timestamp bits, optional datacenter/machine split, sequence);
* compose/decode that reject, never mask, out-of-field values;
* a scripted clock: wall readings from segments, virtual monotonic time advanced by sleeps;
* the strict generator (wait out a rewind up to max_wait_ms, refuse a larger one; wait for
  the next millisecond when 2^sequence_bits ids are spent) where ONE monotonic deadline,
  set at the first wait and worth max(max_wait_ms, 1 ms), bounds all waiting in a call, and
  where no error path changes the state (unlike the reference's _wait_next_ms, which bumps the
  sequence before it may raise: Twitter snowflake issue #6's shape);
* the monotonic generator (logical clock max(last, now), borrowing the next millisecond on
  overflow) with max_drift_ms: beyond it the generator waits, inside the same deadline, or
  refuses;
* id spaces: generators whose ids occupy the same bits in one clock's time (same epoch and
  timestamp position, same node range and sequence width) share one state, a generator made
  after another one of its space closed continues after it, and an open generator whose
  ids overlap another open one's but cannot share its state is refused (docs/id-spaces.md);
* under contention (the clock reached what a call waited for, and the state had moved
  past it) a call reserves ahead within what is left of its budget plus a millisecond (a
  whole budget if it woke up past its deadline) instead of waiting again: the deadline is
  never renewed.

Speed is irrelevant here; clarity and exactness are the point. Every wall reading, sleep
and counter is reproduced, because scenario vectors pin them.
"""

from __future__ import annotations

import dataclasses
import decimal
from typing import Dict, List, Optional, Tuple

from slow_decision_model import decide

NS_PER_MS = 1_000_000
INT64_MAX = (1 << 63) - 1
MAX_EPOCH_MS = 253402300799999
MAX_BATCH = 1 << 24

PRESETS = {
    "default": (1704067200000, 41, 0, 10, 12),
    "twitter": (1288834974657, 41, 5, 5, 12),
    "discord": (1420070400000, 41, 5, 5, 12),
}


class ModelError(Exception):
    """An error the core would raise: `code` is the stable code."""

    def __init__(self, code: str, message: str, drift_ms: int = 0):
        super().__init__(message)
        self.code = code
        self.drift_ms = drift_ms


def invalid(message: str) -> ModelError:
    return ModelError("INVALID_ARGUMENT", message)


# --------------------------------------------------------------------------- layout


@dataclasses.dataclass(frozen=True)
class Layout:
    epoch_ms: int = 1704067200000
    timestamp_bits: int = 41
    datacenter_bits: int = 0
    machine_bits: int = 10
    sequence_bits: int = 12

    @staticmethod
    def create(epoch_ms, timestamp_bits, node_bits, sequence_bits) -> "Layout":
        _check(epoch_ms, timestamp_bits, 0, node_bits, sequence_bits)
        return Layout(epoch_ms, timestamp_bits, 0, node_bits, sequence_bits)

    @staticmethod
    def create_split(epoch_ms, timestamp_bits, datacenter_bits, machine_bits,
                     sequence_bits) -> "Layout":
        if datacenter_bits < 1:
            raise invalid("a split layout needs datacenter_bits >= 1")
        _check(epoch_ms, timestamp_bits, datacenter_bits, machine_bits, sequence_bits)
        return Layout(epoch_ms, timestamp_bits, datacenter_bits, machine_bits, sequence_bits)

    @staticmethod
    def parse(text: str) -> "Layout":
        if text in PRESETS:
            return Layout(*PRESETS[text])
        if "@" not in text:
            raise invalid(f"layout '{text}' is not a preset nor T.N.S@EPOCH")
        bits_text, epoch_text = text.split("@", 1)
        if not _is_uint(epoch_text):
            raise invalid(f"layout '{text}': bad epoch")
        parts = bits_text.split(".")
        if len(parts) not in (3, 4) or not all(_is_uint(p) for p in parts):
            raise invalid(f"layout '{text}': bit widths must be 3 or 4 integers")
        epoch = int(epoch_text)
        b = [int(p) for p in parts]
        if len(b) == 3:
            return Layout.create(epoch, b[0], b[1], b[2])
        if b[1] == 0:
            return Layout.create(epoch, b[0], b[2], b[3])
        return Layout.create_split(epoch, b[0], b[1], b[2], b[3])

    @property
    def node_bits(self) -> int:
        return self.datacenter_bits + self.machine_bits

    @property
    def node_shift(self) -> int:
        return self.sequence_bits

    @property
    def timestamp_shift(self) -> int:
        return self.sequence_bits + self.node_bits

    @property
    def max_node_id(self) -> int:
        return (1 << self.node_bits) - 1

    @property
    def max_datacenter_id(self) -> int:
        return (1 << self.datacenter_bits) - 1

    @property
    def max_machine_id(self) -> int:
        return (1 << self.machine_bits) - 1

    @property
    def max_sequence(self) -> int:
        return (1 << self.sequence_bits) - 1

    @property
    def max_packed(self) -> int:
        """The packed (elapsed << sequence_bits | sequence) of the window's last id."""
        return (self.max_elapsed_ms << self.sequence_bits) | self.max_sequence

    @property
    def max_elapsed_ms(self) -> int:
        return (1 << self.timestamp_bits) - 1

    @property
    def max_timestamp_ms(self) -> int:
        return self.epoch_ms + self.max_elapsed_ms

    def text(self) -> str:
        mid = (f"{self.datacenter_bits}.{self.machine_bits}" if self.datacenter_bits
               else f"{self.machine_bits}")
        return f"{self.timestamp_bits}.{mid}.{self.sequence_bits}@{self.epoch_ms}"

    def preset(self) -> str:
        for name, fields in PRESETS.items():
            if Layout(*fields) == self:
                return name
        return ""

    def describe(self) -> dict:
        """The LAYOUT object of the vector format."""
        return {
            "text": self.text(),
            "preset": self.preset(),
            "epoch_ms": str(self.epoch_ms),
            "timestamp_bits": self.timestamp_bits,
            "node_bits": self.node_bits,
            "datacenter_bits": self.datacenter_bits,
            "machine_bits": self.machine_bits,
            "sequence_bits": self.sequence_bits,
            "timestamp_shift": self.timestamp_shift,
            "node_shift": self.node_shift,
            "max_node_id": self.max_node_id,
            "max_datacenter_id": self.max_datacenter_id,
            "max_machine_id": self.max_machine_id,
            "max_sequence": self.max_sequence,
            "max_elapsed_ms": str(self.max_elapsed_ms),
            "max_timestamp_ms": str(self.max_timestamp_ms),
        }


def _is_uint(s: str) -> bool:
    # The core's parse_uint: 1 to 19 ASCII digits (leading zeros too) worth at most 2^63 - 1.
    return 0 < len(s) <= 19 and s.isdigit() and s.isascii() and int(s) <= INT64_MAX


def _check(epoch, ts, dc, machine, seq):
    if not 0 <= epoch <= MAX_EPOCH_MS:
        raise invalid("epoch_ms out of range")
    if not 1 <= ts <= 52:
        raise invalid("timestamp_bits out of range")
    for v in (dc, machine, seq):
        if not 0 <= v <= 62:
            raise invalid("bit width out of range")
    if ts + dc + machine + seq != 63:
        raise invalid("fields must add up to 63 bits")


# --------------------------------------------------------------------------- codec


def compose(layout: Layout, timestamp_ms: int, node_id: int, sequence: int) -> int:
    _check_timestamp(layout, timestamp_ms)
    _check_field(node_id, layout.max_node_id)
    _check_field(sequence, layout.max_sequence)
    return _pack(layout, timestamp_ms, node_id, sequence)


def compose_split(layout: Layout, timestamp_ms: int, datacenter_id: int, machine_id: int,
                  sequence: int) -> int:
    _check_timestamp(layout, timestamp_ms)
    _check_field(datacenter_id, layout.max_datacenter_id)
    _check_field(machine_id, layout.max_machine_id)
    _check_field(sequence, layout.max_sequence)
    node = (datacenter_id << layout.machine_bits) | machine_id
    return _pack(layout, timestamp_ms, node, sequence)


def decode(layout: Layout, value: int) -> dict:
    if not 0 <= value <= INT64_MAX:
        raise invalid(f"id must be in [0, 2^63 - 1], got {value}")
    node = (value >> layout.node_shift) & layout.max_node_id
    return {
        "timestamp_ms": (value >> layout.timestamp_shift) + layout.epoch_ms,
        "node_id": node,
        "datacenter_id": node >> layout.machine_bits,
        "machine_id": node & layout.max_machine_id,
        "sequence": value & layout.max_sequence,
    }


def parse_id(text: str) -> int:
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 19 and int(text) <= INT64_MAX):
        raise invalid(f"id must be a decimal integer in [0, 2^63 - 1], got '{text}'")
    return int(text)


def _check_timestamp(layout, ts):
    if not layout.epoch_ms <= ts <= layout.max_timestamp_ms:
        raise ModelError("TIMESTAMP_OUT_OF_RANGE", f"timestamp_ms {ts} outside the window")


def _check_field(value, maximum):
    if not 0 <= value <= maximum:
        raise invalid(f"value {value} outside [0, {maximum}]")


def _pack(layout, ts, node, seq):
    return ((ts - layout.epoch_ms) << layout.timestamp_shift) | (node << layout.node_shift) | seq


# --------------------------------------------------------------------------- clock


MAX_ABS_CLOCK_MS = INT64_MAX // NS_PER_MS  # a reading must fit an int64 of nanoseconds


def _check_reading(ms: int) -> int:
    if not -MAX_ABS_CLOCK_MS <= ms <= MAX_ABS_CLOCK_MS:
        raise invalid(f"scripted clock reading must be in [-{MAX_ABS_CLOCK_MS}, "
                      f"{MAX_ABS_CLOCK_MS}] ms (nanoseconds in an int64), got {ms}")
    return ms


class ScriptedClock:
    """Wall readings from segments {ms, count, step_ms, every}; after the last segment its
    pattern continues for ever. Monotonic time is virtual and moves only by sleeps. Each
    clock is a time of its own: `spaces` are the id spaces of the generators on it."""

    def __init__(self, segments: List[dict]):
        if not segments:
            raise invalid("a scripted clock needs at least one segment")
        self.segments = [
            (int(s["ms"]), int(s.get("count", 1)), int(s.get("step_ms", 0)), int(s.get("every", 1)))
            for s in segments
        ]
        for ms, count, step, every in self.segments:
            if count < 1 or every < 1:
                raise invalid("segment count and every must be >= 1")
            _check_reading(ms)
            _check_reading(ms + step * ((count - 1) // every))
        self.spaces: List["Space"] = []
        self.segment = 0
        self.index = 0
        self.reads = 0
        self.mono_ns = 0
        self.sleeps: List[int] = []

    def wall_ns(self) -> int:
        ms, count, step, every = self.segments[self.segment]
        value = _check_reading(ms + step * (self.index // every))  # consumes nothing if not
        self.reads += 1
        self.index += 1
        if self.index >= count and self.segment + 1 < len(self.segments):
            self.segment += 1
            self.index = 0
        return value * NS_PER_MS

    def monotonic_ns(self) -> int:
        return self.mono_ns

    def sleep_ns(self, ns: int) -> None:
        ns = max(ns, 0)
        self.mono_ns += ns
        self.sleeps.append(ns)

    def describe(self) -> dict:
        return {
            "reads": self.reads,
            "sleep_count": len(self.sleeps),
            "slept_ns": str(self.mono_ns),
            "max_sleep_ns": str(max(self.sleeps, default=0)),
            "min_sleep_ns": str(min(self.sleeps, default=0)),
        }


# --------------------------------------------------------------------------- id spaces


@dataclasses.dataclass
class Space:
    epoch_ms: int
    shift: int
    sequence_bits: int
    low_first: int
    low_last: int
    state: int = -1  # packed (elapsed_ms << sequence_bits | sequence) of the last id
    open: int = 0
    exclusive: bool = False
    description: str = ""


def open_space(clock: ScriptedClock, layout: Layout, node_id: int, description: str,
               exclusive: bool = False) -> Space:
    """The space of `node_id` under `layout` in `clock`'s time, opened for one generator."""
    low_first = node_id << layout.node_shift
    low_last = low_first | layout.max_sequence
    found, start = None, -1
    for sp in list(clock.spaces):
        if (sp.epoch_ms, sp.shift) != (layout.epoch_ms, layout.timestamp_shift):
            continue
        if sp.low_last < low_first or low_last < sp.low_first:
            continue
        exact = (sp.sequence_bits, sp.low_first, sp.low_last) == (
            layout.sequence_bits, low_first, low_last)
        if sp.open > 0:
            if not exact or sp.exclusive or exclusive:
                raise ModelError("NODE_ID_UNAVAILABLE",
                                 f"{description} would mint ids that {sp.description}, open in "
                                 "this process, can mint too")
            found = sp
        elif exact:
            found = sp
        else:  # a closed space of another shape: take over its last millisecond, spent
            if sp.state >= 0:
                ms = sp.state >> sp.sequence_bits
                start = max(start, (ms << layout.sequence_bits) | layout.max_sequence)
            clock.spaces.remove(sp)
    if found is None:
        found = Space(layout.epoch_ms, layout.timestamp_shift, layout.sequence_bits, low_first,
                      low_last, start)
        clock.spaces.append(found)
    found.state = max(found.state, start)
    if found.open == 0 or exclusive:
        found.description = description
    found.exclusive = exclusive
    found.open += 1
    return found


# --------------------------------------------------------------------------- generator


def wait_ns(max_wait_ms: float) -> int:
    """The wait budget in ns: max_wait_ms * 1e6 (a double product, as in the core), rounded
    to the nearest ns with halves away from zero (the core's llround; Python's round() would
    take halves to even, 2.0000005 ms -> 2000000 ns instead of 2000001)."""
    product = decimal.Decimal(float(max_wait_ms) * NS_PER_MS)  # exact value of the double
    return int(product.to_integral_value(rounding=decimal.ROUND_HALF_UP))


class Generator:
    def __init__(self, layout: Layout, node_id: int, mode: str = "strict",
                 max_wait_ms: float = 5.0, max_drift_ms: int = 1000,
                 clock: Optional[ScriptedClock] = None):
        if mode not in ("strict", "monotonic"):
            raise invalid(f"mode must be 'strict' or 'monotonic', got '{mode}'")
        if not (isinstance(max_wait_ms, (int, float)) and 0 <= max_wait_ms <= 60000):
            raise invalid(f"max_wait_ms must be in [0, 60000], got {max_wait_ms}")
        if not 0 <= max_drift_ms <= 86_400_000:
            raise invalid(f"max_drift_ms must be in [0, 86400000], got {max_drift_ms}")
        if not 0 <= node_id <= layout.max_node_id:
            raise invalid(f"node_id must be in [0, {layout.max_node_id}], got {node_id}")
        self.layout = layout
        self.node_id = node_id
        self.mode = mode
        self.max_wait_ns = wait_ns(max_wait_ms)
        self.budget_ns = max(self.max_wait_ns, NS_PER_MS)
        self.max_drift_ms = max_drift_ms
        self.clock = clock
        self.space = open_space(clock, layout, node_id,
                                f"generator for node {node_id} of layout {layout.text()} "
                                f"({mode}, on a scripted clock)")
        self.closed = False
        self.high = None  # highest wall reading seen (ms since epoch)
        self.stats = {
            "ids_issued": 0, "rewinds_seen": 0, "waits": 0, "waited_ns_total": 0,
            "waited_ns_max": 0, "refusals": 0, "ms_borrowed": 0,
        }

    @property
    def state(self) -> int:
        return self.space.state

    @state.setter
    def state(self, value: int) -> None:
        self.space.state = value

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.space.open -= 1
            if self.space.open == 0:
                self.space.exclusive = False

    # -- helpers
    def _read(self) -> Tuple[int, int]:
        wall_ns = self.clock.wall_ns()
        return wall_ns // NS_PER_MS - self.layout.epoch_ms, wall_ns

    def _note(self, now: int) -> None:
        if self.high is None or now > self.high:
            self.high = now
        elif now < self.high:
            self.stats["rewinds_seen"] += 1

    def id_of(self, packed: int) -> int:
        bits = self.layout.sequence_bits
        return (((packed >> bits) << self.layout.timestamp_shift)
                | (self.node_id << self.layout.node_shift)
                | (packed & self.layout.max_sequence))

    # -- the algorithm
    def reserve(self, want: int) -> Tuple[int, int]:
        """Reserve up to `want` consecutive packed values; returns (first, count)."""
        if self.closed:
            raise ModelError("GENERATOR_CLOSED", f"generator for node {self.node_id} is closed")
        lay = self.layout
        bits = lay.sequence_bits
        epoch = lay.epoch_ms
        wait_ms = self.max_wait_ns // NS_PER_MS  # drift * 1e6 > max_wait_ns <=> drift > this
        waited = reserving = noted = False
        wait_started = deadline = waited_for = 0

        def finish_wait():
            if waited:
                w = self.clock.monotonic_ns() - wait_started
                self.stats["waited_ns_total"] += w
                self.stats["waited_ns_max"] = max(self.stats["waited_ns_max"], w)

        def refuse(code, message, drift):
            self.stats["refusals"] += 1
            finish_wait()
            raise ModelError(code, message, drift)

        def refusal(d):  # a refusing decision's error code and message
            if d[1] == "out_of_window":
                return "TIMESTAMP_OUT_OF_RANGE", "wall clock outside the window"
            if d[1] == "window_spent":
                return "TIMESTAMP_OUT_OF_RANGE", "the last id of the window is issued"
            if d[1] == "behind":
                return "CLOCK_MOVED_BACKWARDS", f"clock moved backwards by {d[2]} ms"
            return "CLOCK_MOVED_BACKWARDS", f"would run {d[2]} ms ahead"

        def decide_at(s, now, reserving_ahead, extra_ms=0):  # slow_decision_model.decide
            return decide(bits, lay.max_elapsed_ms, self.mode == "strict", self.max_drift_ms,
                          wait_ms, s, now, want, reserving_ahead, extra_ms)

        now, wall_ns = self._read()
        while True:
            s = self.state
            if not noted:
                self._note(now)
                noted = True
            d = decide_at(s, now, False)
            if d[0] == "refuse":
                refuse(*refusal(d), d[2])
            # Under contention, reserve ahead within the budget plus a millisecond instead of
            # waiting again, and hold the ids until their time.
            if d[0] == "wait" and reserving:
                left = deadline - self.clock.monotonic_ns()
                extra = (left if left > 0 else self.budget_ns) // NS_PER_MS + 1
                d = decide_at(s, now, True, extra)

            if d[0] == "issue":
                _, first, count, hold_until = d
                self.state = first + count - 1
                self.stats["ids_issued"] += count
                if self.mode == "monotonic":
                    borrowed = (self.state >> bits) - max(s >> bits, now)
                    if borrowed > 0:
                        self.stats["ms_borrowed"] += borrowed
                if hold_until is not None:
                    hold_deadline = max(deadline, self.clock.monotonic_ns()) + NS_PER_MS
                    at = now
                    while at < hold_until:
                        left = hold_deadline - self.clock.monotonic_ns()
                        if left <= 0:
                            break
                        need = (left if hold_until - at > left // NS_PER_MS + 1
                                else (hold_until + epoch) * NS_PER_MS - wall_ns)
                        self.clock.sleep_ns(max(1, min(need, left)))
                        at, wall_ns = self._read()
                    if hold_until - at > wait_ms:  # the clock went back while they were held:
                        refuse("CLOCK_MOVED_BACKWARDS",  # refused and skipped, never issued
                               f"clock moved backwards by {hold_until - at} ms while this "
                               "call held ids reserved ahead", hold_until - at)
                finish_wait()
                return first, count

            # One deadline per call, set at the first wait and never renewed. When the clock
            # did reach what this call waited for and the state had moved past it, the call
            # reserves ahead (above) instead of waiting again.
            _, wait, wait_until, drift = d
            mono = self.clock.monotonic_ns()
            if not waited:
                waited = True
                wait_started = mono
                deadline = mono + self.budget_ns
                self.stats["waits"] += 1
            elif now >= waited_for and not reserving:
                reserving = True
                continue
            waited_for = wait_until
            remaining = deadline - mono
            if remaining <= 0:
                if reserving:
                    refuse("CLOCK_MOVED_BACKWARDS", "every id up to there is taken",
                           max(0, (s >> bits) - now))
                refuse("CLOCK_MOVED_BACKWARDS",
                       "clock stuck" if wait == "spent" else f"clock still {drift} ms behind",
                       drift)
            need = (wait_until + epoch) * NS_PER_MS - wall_ns
            self.clock.sleep_ns(max(1, min(need, remaining)))
            now, wall_ns = self._read()
            noted = False

    def next_id(self) -> int:
        first, _ = self.reserve(1)
        return self.id_of(first)

    def next_ids(self, n: int) -> List[int]:
        # A closed generator answers first, whatever n is (the core's batch_size).
        if self.closed:
            raise ModelError("GENERATOR_CLOSED", f"generator for node {self.node_id} is closed")
        if not 0 <= n <= MAX_BATCH:
            raise invalid(f"batch size n must be in [0, {MAX_BATCH}], got {n}")
        out: List[int] = []
        while len(out) < n:
            first, count = self.reserve(n - len(out))
            out.extend(self.id_of(first + i) for i in range(count))
        return out

    def status(self) -> dict:
        now, _ = self._read()
        s = self.state
        lay = self.layout
        ahead = 0 if s < 0 else (s >> lay.sequence_bits) - now
        healthy = True
        if self.closed:
            healthy = False
        elif not 0 <= now <= lay.max_elapsed_ms:
            healthy = False
        elif self.mode == "strict" and ahead * NS_PER_MS > self.max_wait_ns:
            healthy = False
        elif self.mode == "monotonic" and (ahead - self.max_drift_ms) * NS_PER_MS > self.max_wait_ns:
            healthy = False
        elif s == lay.max_packed:  # every id of the window is issued
            healthy = False
        return {
            "healthy": healthy,
            "wall_ms": str(now + lay.epoch_ms),
            "last_ms": str(-1 if s < 0 else (s >> lay.sequence_bits) + lay.epoch_ms),
            "drift_ms": max(0, ahead),
            "node_id": self.node_id,
        }

    def drift(self) -> int:
        now, _ = self._read()
        s = self.state
        return 0 if s < 0 else max(0, (s >> self.layout.sequence_bits) - now)

    def stats_view(self) -> Dict[str, object]:
        st = dict(self.stats)
        st["waited_ns_total"] = str(st["waited_ns_total"])
        st["waited_ns_max"] = str(st["waited_ns_max"])
        return st
