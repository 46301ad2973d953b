"""A genesis key whose fence lies past the layout's window (written by hand, a tool, a bit
flip: "<16 hex> <ms> <ms>" parses whatever the numbers). Every claim under it started above
the fence: its first mark write persisted the last millisecond of the window into the
slot's mark key, and the generator refused CLOCK_MOVED_BACKWARDS naming that mark, not the
genesis. The slot then stayed unusable after the genesis was put right: each claim ruined
another slot of the prefix. The claim must refuse, naming the genesis key and the rule,
and write nothing.

    SNOWFLEET_TEST_ETCD=127.0.0.1:2379 python3 tests/faults/genesis_fence_test.py
"""
import os
import subprocess
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("SNOWFLEET_CLI", os.path.join(ROOT, "out/b/core/snowfleet"))
ETCD = os.environ.get("SNOWFLEET_TEST_ETCD")


def etcdctl(*args):
    return subprocess.run(["etcdctl", "--endpoints", ETCD, *args], capture_output=True,
                          text=True, check=True, env=dict(os.environ, ETCDCTL_API="3")).stdout


class GenesisFencePastTheWindow(unittest.TestCase):
    def test_refused_naming_the_genesis_and_no_mark_written(self):
        if not ETCD:
            self.fail("SNOWFLEET_TEST_ETCD is not set")
        prefix = f"genesis-fence-{os.getpid()}"
        # Year 2100: past the default layout's last millisecond (2093).
        etcdctl("put", f"{prefix}/genesis", "0123456789abcdef 0 4102444800000")
        for _ in range(2):
            p = subprocess.run([CLI, "next", "--node-source", f"etcd://{ETCD}/{prefix}?ttl=2",
                                "-n", "1"], capture_output=True, text=True, timeout=60)
            self.assertNotEqual(p.returncode, 0, p.stdout)
            self.assertIn(f"{prefix}/genesis", p.stderr)
            self.assertIn("past the last millisecond", p.stderr)
        # Before: each run left marks/N at 3903090455551 (2093), that slot refused for good.
        self.assertEqual(etcdctl("get", "--prefix", "--keys-only", f"{prefix}/marks/"), "")
        self.assertEqual(etcdctl("get", "--prefix", "--keys-only", f"{prefix}/slots/"), "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
