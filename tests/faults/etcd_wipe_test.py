"""The etcd analogue of a local registry wiped under a live holder: a prefix
deleted in etcd (`etcdctl del --prefix`, a restore from an older snapshot) while a holder
mints. The holder's lease lives on (keepalives succeed); before the prefix had a genesis
key it noticed only at its next mark write (the compare on the slot key's create_revision
fails), which the keeper makes about every 500 ms while minting, and a newcomer that
claimed the slot meanwhile found no mark and minted the holder's ids (1,000s of them).

Now (core/src/lease/etcd/etcd_genesis.hpp): the newcomer finds no genesis but the holder's lease,
tagged with the prefix, so the genesis it creates carries a fence (now + TTL + 2 s) and it
starts above it; the holder turns lost at its next mark write or keepalive (the genesis
changed). The newcomer runs past the fence, so it does mint.

    FLEET_WORKER=out/b/tests/fleet_worker python3 tests/faults/etcd_wipe_test.py
"""
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fleet"))
import fleet_test as ft  # noqa: E402  (Worker, Etcd, assert_unique)


class EtcdPrefixWiped(unittest.TestCase):
    def test_prefix_deleted_under_a_live_holder_gives_no_ids_twice(self):
        etcd = ft.Etcd()
        etcd.start()
        self.addCleanup(etcd.close)
        ttl = 3
        src = f"etcd://{etcd.endpoint}/wipe?ttl={ttl}&node=7"
        holder = ft.Worker(src, "--seconds", 4, "--burst", 64, "--pause-us", 200, "--keep-going")
        self.assertEqual(holder.node(), 7)
        time.sleep(1.0)
        wiped_ms = time.time() * 1000
        subprocess.run(["etcdctl", "--endpoints", etcd.endpoint, "del", "--prefix", "wipe/"],
                       check=True, capture_output=True)
        # Past the fence (TTL + 2 s after the wipe): the newcomer mints too.
        newcomer = ft.Worker(src, "--seconds", ttl + 4, "--burst", 64, "--pause-us", 200,
                             "--keep-going")
        got = newcomer.node()
        holder.finish()
        newcomer.finish()
        mine = set(holder.ids())
        theirs = newcomer.ids()
        twice = sum(1 for i in theirs if i in mine)
        lost = [e for e in holder.errors() if e.split()[1] == "LEASE_LOST"]
        print(f"\n  holder {len(mine):,} ids, newcomer (node {got}) {len(theirs):,} ids, "
              f"minted by both: {twice:,}; newcomer's first mark "
              f"{newcomer.claimed_mark() - wiped_ms:+.0f} ms from the wipe; "
              f"holder errors: {lost[:1]}", flush=True)
        self.assertEqual(twice, 0)
        self.assertEqual(got, 7)
        self.assertGreater(len(theirs), 0)
        self.assertTrue(lost, "the holder never turned lost")

if __name__ == "__main__":
    unittest.main(verbosity=2)
