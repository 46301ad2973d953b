"""The lease table the postgres:// node source is built on (docs/fleet.md, "The PostgreSQL
lease table"), tried against a real PostgreSQL through psql sessions, so the SQL the engine
sends (core/src/lease/postgres/pg_protocol.cc) is proven statement by statement:

  - a claim is one statement on server time; of many sessions claiming one expired slot at
    once exactly one gets the row; a claim behind a holder's uncommitted claim waits for it
    and then loses, or gives up at lock_timeout;
  - a renewal moves only the claim's own row (holder and epoch) and the mark only grows;
  - rows a dump restored, and rows deleted, are told apart from rows snowfleet wrote
    (written_xid is not xmin; the insert branch), and the holder's renewal fails on them.

    SNOWFLEET_PG_URL=postgres://snowfleet@127.0.0.1:PORT/postgres python3 tests/fleet/pg_lease_protocol_test.py
(scripts/lib.sh's pg_private_start exports it.)
"""
import csv
import io
import os
import subprocess
import threading
import time
import unittest

URL = os.environ.get("SNOWFLEET_PG_URL", "")
PG_BIN = "/usr/lib/postgresql/15/bin"

DDL = """
DROP TABLE IF EXISTS snowfleet_slots;
CREATE TABLE snowfleet_slots (
  slot        integer     PRIMARY KEY CHECK (slot >= 0),
  holder      text        NOT NULL DEFAULT '',
  expires_at  timestamptz NOT NULL DEFAULT '-infinity',
  ttl_ms      integer     NOT NULL DEFAULT 0 CHECK (ttl_ms >= 0),
  mark_ms     bigint      NOT NULL DEFAULT 0 CHECK (mark_ms >= 0),
  epoch       bigint      NOT NULL DEFAULT 0 CHECK (epoch >= 0),
  written_xid xid8        NOT NULL DEFAULT pg_current_xact_id(),
  timeline    bigint      NOT NULL DEFAULT 0
);
"""

TIMELINE = "('x' || left(pg_walfile_name(pg_current_wal_lsn()), 8))::bit(32)::bigint"

CLAIM = f"""
WITH prev AS (
  SELECT epoch, written_xid::xid = xmin AS intact, timeline FROM snowfleet_slots WHERE slot = :slot)
INSERT INTO snowfleet_slots AS s (slot, holder, expires_at, ttl_ms, epoch, written_xid, timeline)
VALUES (:slot, :'holder', now() + :ttl_ms * interval '1 millisecond', :ttl_ms, 1,
        pg_current_xact_id(), {TIMELINE})
ON CONFLICT (slot) DO UPDATE
   SET holder = excluded.holder, expires_at = excluded.expires_at, ttl_ms = excluded.ttl_ms,
       epoch = s.epoch + 1, written_xid = excluded.written_xid, timeline = excluded.timeline
 WHERE s.expires_at < now() AND s.epoch < 9223372036854775807
RETURNING s.epoch, s.mark_ms, s.xmax = 0 AS inserted,
          (SELECT epoch FROM prev) AS prev_epoch, (SELECT intact FROM prev) AS prev_intact,
          (SELECT timeline FROM prev) AS prev_timeline, s.timeline,
          (extract(epoch FROM now()) * 1000)::bigint AS server_ms;
"""

RENEW = f"""
UPDATE snowfleet_slots
   SET expires_at = now() + ttl_ms * interval '1 millisecond', mark_ms = greatest(mark_ms, :mark),
       written_xid = pg_current_xact_id(), timeline = {TIMELINE}
 WHERE slot = :slot AND holder = :'holder' AND epoch = :epoch AND written_xid::xid = xmin
RETURNING mark_ms;
"""


def psql(sql, *, setup="", **variables):
    """Run `setup` then `sql` in one psql session; the rows of the last statement as dicts."""
    args = ["psql", "-X", "-q", "--csv", "-v", "ON_ERROR_STOP=1"]
    for k, v in variables.items():
        args += ["-v", f"{k}={v}"]
    args.append(URL)
    p = subprocess.run(args, input=setup + sql, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    out = p.stdout.strip()
    return list(csv.DictReader(io.StringIO(out))) if out else []


def claim(slot, holder, ttl_ms=60000, setup=""):
    return psql(CLAIM, setup=setup, slot=slot, holder=holder, ttl_ms=ttl_ms)


def renew(slot, holder, epoch, mark):
    return psql(RENEW, slot=slot, holder=holder, epoch=epoch, mark=mark)


@unittest.skipUnless(URL, "SNOWFLEET_PG_URL is not set (scripts/lib.sh pg_private_start)")
class LeaseTable(unittest.TestCase):
    def setUp(self):
        psql(DDL + "INSERT INTO snowfleet_slots (slot) SELECT generate_series(0, 7);")

    def test_of_many_sessions_claiming_one_slot_at_once_exactly_one_wins(self):
        results = []
        start = threading.Barrier(8)

        def one(i):
            start.wait()
            results.append(claim(3, f"claimant-{i}"))
        threads = [threading.Thread(target=one, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        winners = [r for r in results if r]
        self.assertEqual(len(results), 8)
        self.assertEqual(len(winners), 1, results)
        row = winners[0][0]
        self.assertEqual((row["epoch"], row["inserted"], row["prev_epoch"]), ("1", "f", "0"))
        self.assertEqual(row["prev_intact"], "t")

    def test_a_claim_behind_an_uncommitted_claim_waits_then_loses_or_stops_at_lock_timeout(self):
        holder = subprocess.Popen(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-v", "slot=5",
                                   "-v", "holder=first", "-v", "ttl_ms=60000", URL],
                                  stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        holder.stdin.write("BEGIN;\n" + CLAIM + "SELECT pg_sleep(1.5);\nCOMMIT;\n")
        holder.stdin.close()
        self.addCleanup(holder.wait)
        time.sleep(0.5)
        with self.assertRaisesRegex(RuntimeError, "lock timeout"):
            claim(5, "impatient", setup="SET lock_timeout = '100ms';")
        t = time.monotonic()
        self.assertEqual(claim(5, "second"), [])
        self.assertGreater(time.monotonic() - t, 0.3, "the claim did not wait for the lock")
        self.assertEqual(holder.wait(10), 0)
        self.assertEqual(psql("SELECT holder FROM snowfleet_slots WHERE slot = 5")[0]["holder"], "first")

    def test_only_the_holder_renews_and_its_mark_only_grows(self):
        row = claim(2, "h1", ttl_ms=1)[0]
        epoch = row["epoch"]
        self.assertEqual(renew(2, "h1", epoch, 5000), [{"mark_ms": "5000"}])
        self.assertEqual(renew(2, "h1", epoch, 10), [{"mark_ms": "5000"}])
        self.assertEqual(renew(2, "h2", epoch, 9000), [])
        self.assertEqual(renew(2, "h1", int(epoch) + 1, 9000), [])
        time.sleep(0.05)  # the TTL of 1 ms has passed: the slot is free to claim
        taken = claim(2, "h2")[0]
        self.assertEqual((taken["epoch"], taken["mark_ms"]), (str(int(epoch) + 1), "5000"))
        self.assertEqual(renew(2, "h1", epoch, 9000), [], "the old holder renewed a taken slot")

    def test_a_row_restored_from_a_dump_is_told_from_one_snowfleet_wrote(self):
        def dump():
            return subprocess.run([f"{PG_BIN}/pg_dump", "--data-only", "-t", "snowfleet_slots", URL],
                                  capture_output=True, text=True, check=True, timeout=60).stdout
        before = dump()
        row = claim(4, "live", ttl_ms=60000)[0]
        self.assertEqual(row["prev_intact"], "t")
        while_held = dump()
        # Restored to a state this very holder wrote: same holder and epoch, yet not ours.
        psql("TRUNCATE snowfleet_slots;\n" + while_held)
        self.assertEqual(renew(4, "live", row["epoch"], 1), [], "the holder renewed a restored row")
        psql("TRUNCATE snowfleet_slots;\n" + before)
        self.assertEqual(renew(4, "live", row["epoch"], 1), [])
        after = claim(4, "newcomer")[0]
        self.assertEqual(after["prev_intact"], "f", "the restore went unnoticed")

    def test_a_deleted_row_is_claimed_by_the_insert_branch(self):
        row = claim(6, "live")[0]
        psql("DELETE FROM snowfleet_slots WHERE slot = 6;")
        self.assertEqual(renew(6, "live", row["epoch"], 1), [])
        again = claim(6, "newcomer")[0]
        self.assertEqual((again["inserted"], again["prev_epoch"]), ("t", ""))


if __name__ == "__main__":
    unittest.main(verbosity=2)
