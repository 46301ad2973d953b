"""Writes tests/slow_decision_cases.json: random slow-path moments (a layout's window, a
mode, a budget, a state, a clock reading, a want, contention) with the reference model's
decision for each (conformance/model/slow_decision_model.py). The C++ suite checks
decide_slow() against every case (tests/test_slow_decision.cc). --check: fail when the
file is not what this script writes."""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "conformance", "model"))
from slow_decision_model import decide  # noqa: E402

OUT = os.path.join(HERE, "slow_decision_cases.json")
COUNT = 10000


def one(rng: random.Random) -> list:
    # A layout the core accepts: 1 to 52 timestamp bits, the fields adding up to 63.
    seq_bits = rng.choice([0, 1, 2, 3, 4, 8, 12, 22, 40, 62])
    ts_bits = min(rng.choice([1, 3, 5, 8, 12, 20, 41, 52]), 63 - seq_bits)
    max_elapsed = (1 << ts_bits) - 1
    mask = (1 << seq_bits) - 1
    strict = rng.random() < 0.5
    max_drift = rng.choice([0, 1, 2, 5, 1000, 86_400_000])
    wait_ms = rng.choice([0, 1, 2, 5, 100, 60000])
    # A reading near the window's ends or anywhere, and a state near the reading.
    now = rng.choice([rng.randint(-3, 4), rng.randint(max_elapsed - 4, max_elapsed + 3),
                      rng.randint(0, max_elapsed)])
    near = min(max(now, 0), max_elapsed)
    ms = min(max(near + rng.randint(-8, 8) + rng.choice([0, 0, max_drift, -max_drift]), 0),
             max_elapsed)
    seq = rng.choice([0, mask, rng.randint(0, mask), max(mask - 1, 0)])
    state = rng.choice([(ms << seq_bits) | seq, (ms << seq_bits) | seq, -1])
    want = rng.choice([1, 1, 2, rng.randint(1, min(mask + 3, 1 << 24)), 1 << 24])  # a batch
    reserving = rng.random() < 0.4
    extra = rng.choice([1, 2, 3, 10, 60001])
    d = decide(seq_bits, max_elapsed, strict, max_drift, wait_ms, state, now, want, reserving,
               extra)
    return [seq_bits, max_elapsed, strict, max_drift, wait_ms, state, now, want, reserving,
            extra, list(d)]


def render() -> str:
    rng = random.Random(20261205)
    rows = [json.dumps(one(rng), separators=(",", ":")) for _ in range(COUNT)]
    return "[\n" + ",\n".join(rows) + "\n]\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        with open(OUT) as f:
            if f.read() != text:
                print(f"{OUT} is stale: run python3 tests/slow_decision_cases.py")
                return 1
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
