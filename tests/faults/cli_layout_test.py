"""`snowfleet layout` figures for layouts whose rates exceed an int64: every layout the
parser accepts must get correct figures.

    SNOWFLEET_CLI=out/b/core/snowfleet python3 tests/faults/cli_layout_test.py
"""
import os
import re
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("SNOWFLEET_CLI", os.path.join(ROOT, "out/b/core/snowfleet"))


class LayoutRates(unittest.TestCase):
    def check(self, layout, ts, node, seq):
        out = subprocess.run([CLI, "layout", layout], capture_output=True, text=True).stdout
        line = next(l for l in out.splitlines() if l.startswith("ids"))
        per_ms = 2 ** seq
        want = (per_ms, per_ms * 1000, per_ms * 1000 * 2 ** node)
        got = tuple(int(x) for x in re.findall(r"-?\d+", line))
        self.assertEqual(got, want, f"{layout}: {line!r}")

    def test_one_node_62_sequence_bits(self):
        self.check("1.0.62@0", 1, 0, 62)

    def test_60_node_bits(self):
        self.check("2.60.1@0", 2, 60, 1)

    def test_52_timestamp_bits(self):  # fits: a control that passes
        self.check("52.0.11@0", 52, 0, 11)


if __name__ == "__main__":
    unittest.main(verbosity=2)
