-- Every error path of the extension leaves nothing behind (run by scripts/test/sql.sh in a
-- database holding the extension, as a superuser: it reads the backend's /proc status).
-- PostgreSQL raises an ERROR by longjmp: had a C++ object been alive where the module
-- called ereport, its destructor would be skipped and its memory lost on every error
-- (a std::string of 200 bytes left alive in the layout parser loses 43 MB per 200,000
-- errors here). 20,000 failing calls of each of 7 kinds, each caught, after a warm-up round:
-- the backend's resident memory may not grow by more than 2 MB.
\set ON_ERROR_STOP 1
SET client_min_messages = notice;

CREATE FUNCTION pg_temp.rss_kb() RETURNS bigint LANGUAGE sql AS
$$ SELECT substring(pg_read_file('/proc/self/status') FROM 'VmRSS:\s+(\d+) kB')::bigint $$;

-- n calls of each failing query, each in its own subtransaction.
CREATE FUNCTION pg_temp.fail_calls(n integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE q text;
BEGIN
  FOR i IN 1 .. n LOOP
    FOREACH q IN ARRAY ARRAY[
        format('SELECT snowfleet.timestamp_ms(1, %L)', repeat('x', 80) || i),  -- layout text
        format('SELECT snowfleet.decode(%s)', -i),                             -- negative id
        format('SELECT snowfleet.compose_ms(1, %s)', 1024 + i),                -- field range
        format('SELECT snowfleet.parse_time_ms(%L)', '2026-12-31T23:59:60Z' || i),
        format('SELECT snowfleet.parse_base62(%L)', 'zzzzzzzzzz' || (i % 10)),
        format('SELECT snowfleet.uuid7_timestamp(%L)', 'not a uuid ' || i),
        format('SELECT snowfleet.to_ms(%L::timestamptz)', '2026-12-01T00:00:00.000001Z')] LOOP
      BEGIN
        EXECUTE q;
        RAISE EXCEPTION 'no error: %', q USING ERRCODE = 'P0002';
      EXCEPTION WHEN invalid_parameter_value OR datetime_field_overflow THEN NULL;
      END;
    END LOOP;
  END LOOP;
END $$;

DO $$
DECLARE before bigint; after bigint;
BEGIN
  PERFORM pg_temp.fail_calls(5000);
  before := pg_temp.rss_kb();
  PERFORM pg_temp.fail_calls(20000);
  after := pg_temp.rss_kb();
  RAISE NOTICE 'resident memory over 140,000 failing calls: % kB -> % kB', before, after;
  IF after - before > 2048 THEN
    RAISE EXCEPTION 'resident memory grew by % kB over 140,000 failing calls', after - before;
  END IF;
END $$;
