"""A prefix wiped while a holder with a longer TTL than the newcomer's cannot reach etcd
(cut off: its keepalives and mark writes fail, so it mints on up to its persisted mark
until its local deadline, TTL - margin after its last keepalive). The newcomer finds no
genesis but the holder's tagged holder lease, and fences the genesis it creates at
now + its own TTL + 2 s (core/src/lease/etcd/etcd_genesis.cc, claim_genesis): with the holder at
TTL 30 and the newcomer at TTL 2, the newcomer minted from 4 s after the wipe while the
holder still minted for about 20 s more, on the same slot (115,076 ids minted by both).
Fixed: a holder lease's ID carries its TTL, and the fence covers the longest TTL among the
listed holders (and the claimant's own).

    FLEET_WORKER=out/b/tests/fleet_worker python3 tests/faults/wipe_ttl_test.py
"""
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "fleet"))
import fleet_test as ft  # noqa: E402  (Worker, Etcd)
from fake_etcd import cut_link, minted_by_both  # noqa: E402


class WipeWithMixedTtls(unittest.TestCase):
    def test_a_cut_off_holder_with_a_longer_ttl_and_a_newcomer_mint_no_id_twice(self):
        etcd = ft.Etcd()
        etcd.start()
        self.addCleanup(etcd.close)
        link = cut_link(etcd.endpoint)
        self.addCleanup(link.close)
        # TTL 12 (not longer): the newcomer's fence, 12 + 2 s past the wipe, must pass
        # within the test's time for it to mint at all.
        holder = ft.Worker(f"etcd://{link.endpoint}/wipe?ttl=12&node=7", "--seconds", 14,
                           "--burst", 64, "--pause-us", 2000, "--keep-going")
        self.assertEqual(holder.node(), 7)
        time.sleep(1.0)
        link.cut.set()  # the holder's link to etcd fails from now on
        subprocess.run(["etcdctl", "--endpoints", etcd.endpoint, "del", "--prefix", "wipe/"],
                       check=True, capture_output=True)
        newcomer = ft.Worker(f"etcd://{etcd.endpoint}/wipe?ttl=2&node=7", "--seconds", 17,
                             "--burst", 64, "--pause-us", 2000, "--keep-going")
        self.assertEqual(newcomer.node(), 7)
        mine, theirs, twice = minted_by_both(holder, newcomer)
        print(f"\n  holder (TTL 12, cut off) {len(mine):,} ids, newcomer (TTL 2) "
              f"{len(theirs):,} ids, minted by both: {twice:,}", flush=True)
        self.assertGreater(len(theirs), 0)
        self.assertEqual(twice, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
