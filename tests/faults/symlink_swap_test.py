"""A registry directory reached through a symbolic link that is re-pointed to an empty
directory (a deploy switching `current -> releases/N`, an admin moving the registry) while
holders mint: the abstract-socket guard is named after realpath(DIR), so a newcomer spelling
the same DIR binds another name and, until the holders' next maintain() (~100 ms), only the
file lock guards the slot: it finds fresh files with no mark, takes a held slot and mints
the holder's ids. Multi-process version of the Catch2 test "fault: a registry directory
replaced by a symbolic link gives a held slot away" (tests/test_fault_reproductions.cc).

    FLEET_WORKER=out/b/tests/fleet_worker python3 tests/faults/symlink_swap_test.py
"""
import os
import shutil
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fleet"))
import fleet_test as ft  # noqa: E402  (Worker)

LAYOUT = "41.1.21@1704067200000"  # two slots


class SymlinkRepointed(unittest.TestCase):
    def test_repointed_registry_link_gives_no_held_slot_away(self):
        base = tempfile.mkdtemp(prefix="snowfleet-link-")
        self.addCleanup(shutil.rmtree, base, True)
        os.mkdir(f"{base}/a")
        os.mkdir(f"{base}/b")
        os.symlink(f"{base}/a", f"{base}/reg")
        src = f"local:{base}/reg"
        # Holders that mint a burst every 300 ms (a quiet service): their keepers check the
        # registry every 100 ms.
        holders = [ft.Worker(src, "--layout", LAYOUT, "--seconds", 3, "--burst", 4096,
                             "--pause-us", 300_000, "--keep-going") for _ in range(2)]
        self.assertEqual(sorted(h.node() for h in holders), [0, 1])
        time.sleep(1.0)
        os.symlink(f"{base}/b", f"{base}/reg.new")
        os.replace(f"{base}/reg.new", f"{base}/reg")  # atomic re-point, as deploy tools do
        newcomers = [ft.Worker(src, "--layout", LAYOUT, "--seconds", 1, "--burst", 64,
                               "--pause-us", 300, "--keep-going") for _ in range(2)]
        for w in holders + newcomers:
            w.finish()
        got = [w.node() for w in newcomers]
        ids = [i for w in holders + newcomers for i in w.ids()]
        twice = len(ids) - len(set(ids))
        print(f"\n  newcomers got slots {got}; {len(ids):,} ids, minted twice: {twice:,}; "
              f"holders: {[w.errors()[:1] for w in holders]}", flush=True)
        self.assertEqual(got, [None, None], "a newcomer took a held slot")
        self.assertEqual(twice, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
