"""A restore from a snapshot older than a live holder's lease (etcd loses the holder's keys
and its lease at once), while the holder cannot reach etcd: simulated as `etcdctl lease
revoke` of the holder's lease plus `etcdctl del --prefix`, with the holder cut off (its
keepalives and mark writes fail, so it mints on until its local deadline, TTL - margin
after its last keepalive). The newcomer finds no genesis and, since the holder's lease is
gone, no holder lease in the list: it creates the genesis unfenced and mints on the
holder's slot while the holder still does. docs/fleet.md counts "a restore from an older
snapshot" among the wipes the fence covers; the fence sees only leases etcd still has.
Expected failure (not fixed): a restore needs the operator step fleet.md names (delete the
genesis) AND a wait of the longest TTL, or a fence that does not rest on leases.

    FLEET_WORKER=out/b/tests/fleet_worker python3 tests/breaker/restore_lease_test.py
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


def etcdctl(endpoint, *args):
    return subprocess.run(["etcdctl", "--endpoints", endpoint, *args], check=True,
                          capture_output=True, text=True,
                          env=dict(os.environ, ETCDCTL_API="3")).stdout


class RestoreWithoutTheHoldersLease(unittest.TestCase):
    @unittest.expectedFailure
    def test_a_cut_off_holder_whose_lease_the_restore_lost_and_a_newcomer_mint_no_id_twice(self):
        etcd = ft.Etcd()
        etcd.start()
        self.addCleanup(etcd.close)
        link = cut_link(etcd.endpoint)
        self.addCleanup(link.close)
        holder = ft.Worker(f"etcd://{link.endpoint}/restore?ttl=12&node=7", "--seconds", 10,
                           "--burst", 64, "--pause-us", 2000, "--keep-going")
        self.assertEqual(holder.node(), 7)
        time.sleep(1.0)
        link.cut.set()  # the holder's link to etcd fails from now on
        # What a restore of a snapshot taken before the holder's lease leaves: neither its
        # lease nor the prefix's keys.
        for line in etcdctl(etcd.endpoint, "lease", "list").splitlines()[1:]:
            etcdctl(etcd.endpoint, "lease", "revoke", line.strip())
        etcdctl(etcd.endpoint, "del", "--prefix", "restore/")
        newcomer = ft.Worker(f"etcd://{etcd.endpoint}/restore?ttl=2&node=7", "--seconds", 8,
                             "--burst", 64, "--pause-us", 2000, "--keep-going")
        self.assertEqual(newcomer.node(), 7)
        mine, theirs, twice = minted_by_both(holder, newcomer)
        print(f"\n  holder (TTL 12, cut off, lease gone) {len(mine):,} ids, newcomer (TTL 2) "
              f"{len(theirs):,} ids, minted by both: {twice:,}", flush=True)
        self.assertGreater(len(theirs), 0)
        self.assertEqual(twice, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
