"""A restore from a snapshot older than a live holder's lease (etcd loses the holder's keys
and its lease at once), while the holder cannot reach etcd: simulated as `etcdctl lease
revoke` of the holder's lease plus `etcdctl del --prefix`, with the holder cut off (its
keepalives and mark writes fail, so it mints on until its local deadline, TTL - margin
after its last keepalive). The newcomer finds no genesis and, since the holder's lease is
gone, no holder lease in the list: a store that looks new. Without a stated bound it
created the genesis unfenced and minted on the holder's slot while the holder still did
(164,026 ids minted by both). The prefix states max_ttl=12 (its genesis put ahead by the
operator, unfenced, for a new fleet), so every member's TTL is at most 12 s and a genesis
re-created after the restore fences past now + 12 s + 2 s. A newcomer at TTL 2 stating no
bound, the setup that duplicated, is refused while the genesis says 12.

    SNOWFLEET_CLI=out/b/core/snowfleet FLEET_WORKER=out/b/tests/fleet_worker \
        python3 tests/faults/restore_lease_test.py
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

ROOT = os.path.dirname(os.path.dirname(HERE))
CLI = os.environ.get("SNOWFLEET_CLI", os.path.join(ROOT, "out/b/core/snowfleet"))


def etcdctl(endpoint, *args):
    return subprocess.run(["etcdctl", "--endpoints", endpoint, *args], check=True,
                          capture_output=True, text=True,
                          env=dict(os.environ, ETCDCTL_API="3")).stdout


class RestoreWithoutTheHoldersLease(unittest.TestCase):
    def test_a_cut_off_holder_whose_lease_the_restore_lost_and_a_newcomer_mint_no_id_twice(self):
        etcd = ft.Etcd()
        etcd.start()
        self.addCleanup(etcd.close)
        link = cut_link(etcd.endpoint)
        self.addCleanup(link.close)
        # The operator's step for a new fleet: the genesis, unfenced, stating the bound.
        etcdctl(etcd.endpoint, "put", "restore/genesis",
                f"0123456789abcdef {int(time.time() * 1000)} 0 12")
        holder = ft.Worker(f"etcd://{link.endpoint}/restore?ttl=12&max_ttl=12&node=7",
                           "--seconds", 10, "--burst", 64, "--pause-us", 2000, "--keep-going")
        self.assertEqual(holder.node(), 7)
        # The setup that duplicated: a member at TTL 2 stating no bound. Refused, since a
        # genesis it re-created after a restore would fence for 2 s only.
        for query in ("ttl=2&node=8", "ttl=20&max_ttl=20&node=8"):
            p = subprocess.run([CLI, "next", "--node-source",
                                f"etcd://{etcd.endpoint}/restore?{query}", "-n", "1"],
                               capture_output=True, text=True, timeout=60)
            self.assertNotEqual(p.returncode, 0, p.stdout)
            self.assertIn("restore/genesis states max_ttl=12", p.stderr)
        time.sleep(1.0)
        link.cut.set()  # the holder's link to etcd fails from now on
        # What a restore of a snapshot taken before the holder's lease leaves: neither its
        # lease nor the prefix's keys.
        for line in etcdctl(etcd.endpoint, "lease", "list").splitlines()[1:]:
            etcdctl(etcd.endpoint, "lease", "revoke", line.strip())
        etcdctl(etcd.endpoint, "del", "--prefix", "restore/")
        # Its genesis fences 14 s ahead: it mints for the last 6 s of its 20.
        newcomer = ft.Worker(f"etcd://{etcd.endpoint}/restore?ttl=2&max_ttl=12&node=7",
                             "--seconds", 20, "--burst", 64, "--pause-us", 2000, "--keep-going")
        self.assertEqual(newcomer.node(), 7)
        mine, theirs, twice = minted_by_both(holder, newcomer)
        print(f"\n  holder (TTL 12, cut off, lease gone) {len(mine):,} ids, newcomer (TTL 2, "
              f"max_ttl 12) "
              f"{len(theirs):,} ids, minted by both: {twice:,}", flush=True)
        self.assertGreater(len(theirs), 0)
        self.assertEqual(twice, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
