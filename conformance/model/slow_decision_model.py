"""The reference model's slow-path decision, with no clock: from a state, one wall reading
and what is left of the budget, issue a run, wait for the wall clock, or refuse (strict and
monotonic, the window's ends, the reserve-ahead under contention). Generator.reserve() in
snowfleet_model.py carries it out (reads, sleeps, the deadline, the counters); the core's
decide_slow() (core/src/mint/slow_decision.hpp) is checked against it over many random
states (tests/slow_decision_cases.py)."""
from typing import Optional, Tuple

Decision = Tuple  # ("issue", first, count, hold_until|None) | ("wait", why, until, drift)
#                   | ("refuse", why, drift)


def decide(sequence_bits: int, max_elapsed: int, strict: bool, max_drift_ms: int,
           wait_ms: int, state: int, now: int, want: int, reserving: bool,
           extra_ms: int) -> Decision:
    bits, mask = sequence_bits, (1 << sequence_bits) - 1
    max_packed = (max_elapsed << bits) | mask
    s = state
    if not 0 <= now <= max_elapsed:
        return ("refuse", "out_of_window", 0)
    wait: Optional[str] = None
    drift = 0
    if strict:
        last = s >> bits
        if now < last:
            drift = last - now
            if drift > wait_ms:
                return ("refuse", "behind", drift)
            wait, wait_until = "rewind", last
        elif now == last and (s & mask) == mask:
            wait, wait_until = "spent", now + 1
        elif now == last:
            first, count = s + 1, min(want, mask - (s & mask))
        else:
            first, count = now << bits, min(want, mask + 1)
    else:
        if s >= max_packed:
            return ("refuse", "window_spent", 0)
        first = max(s + 1, now << bits)
        first_ms = first >> bits
        drift = first_ms - now
        if drift > max_drift_ms:
            if drift - max_drift_ms > wait_ms:
                return ("refuse", "ahead", drift)
            wait, wait_until = "drift", first_ms - max_drift_ms
        else:
            limit_ms = min(now + max_drift_ms, max_elapsed)
            count = min(want, ((limit_ms << bits) | mask) - first + 1)
    if wait is not None and reserving:
        if strict:
            spent = (s & mask) == mask
            target = (s >> bits) + (1 if spent else 0)
            rfirst = target << bits if spent else s + 1
            rcount = min(want, mask + 1 if spent else mask - (s & mask))
            allowed = target
        else:
            target = first >> bits
            rfirst = first
            rcount = min(want, ((target << bits) | mask) - first + 1)
            allowed = target - max_drift_ms
        if target <= max_elapsed and allowed - now <= extra_ms:
            return ("issue", rfirst, rcount, allowed)
    if wait is not None:
        return ("wait", wait, wait_until, 0 if wait == "spent" else drift)
    return ("issue", first, count, None)
