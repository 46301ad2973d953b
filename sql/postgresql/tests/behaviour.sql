-- Behaviour of sql/postgresql/snowfleet.sql beyond the conformance vectors (run by
-- scripts/test-sql.sh after loading it): every function is IMMUTABLE, timestamptz forms
-- agree with the ms forms, naive and sub-millisecond times are refused, and a range scan
-- over a bigint primary key uses its index. Any failed check raises, and psql stops.
\set ON_ERROR_STOP 1

DO $$
DECLARE bad text;
BEGIN
  SELECT string_agg(p.proname, ', ') INTO bad FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname = 'snowfleet' AND p.provolatile <> 'i';
  IF bad IS NOT NULL THEN RAISE EXCEPTION 'not IMMUTABLE: %', bad; END IF;
END $$;

-- Runs q, which must fail with SQLSTATE state and a message LIKE pattern.
CREATE FUNCTION pg_temp.expect_error(q text, state text, pattern text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE msg text; got text;
BEGIN
  BEGIN
    EXECUTE q;
  EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, got = RETURNED_SQLSTATE;
    IF got <> state OR msg NOT LIKE pattern THEN
      RAISE EXCEPTION '%: got % %, expected % %', q, got, msg, state, pattern;
    END IF;
    RETURN;
  END;
  RAISE EXCEPTION '%: no error, expected % %', q, state, pattern;
END $$;

DO $$
DECLARE r record;
BEGIN
  -- The API sketch literal: node 37 at 2025-01-24T19:35:58.021Z.
  IF snowfleet.compose('2025-01-24T19:35:58.021Z', 37) <> 141264821508263936 THEN
    RAISE EXCEPTION 'compose(timestamptz)';
  END IF;
  IF snowfleet.timestamp(141264821508263936) <> '2025-01-24T19:35:58.021Z'::timestamptz THEN
    RAISE EXCEPTION 'timestamp()';
  END IF;
  IF snowfleet.node_id(141264821508263936) <> 37 OR snowfleet.sequence(141264821510144037) <> 37
     OR snowfleet.datacenter_id(1724551110457221119, 'twitter') <> 7
     OR snowfleet.machine_id(1724551110457221119, 'twitter') <> 13 THEN
    RAISE EXCEPTION 'node / sequence';
  END IF;
  IF snowfleet.min_id('2025-01-24T20:35:58.021+01:00') <> 141264821508263936 - (37 << 12)
     OR snowfleet.max_id('2025-01-24T19:35:58.021Z') <> 141264821508263936 - (37 << 12) + (1 << 22) - 1 THEN
    RAISE EXCEPTION 'min_id / max_id (timestamptz)';
  END IF;
  SELECT * INTO r FROM snowfleet.id_range('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z', 1000);
  IF ROW(r.first, r.last) IS DISTINCT FROM
     (SELECT ROW(x.first, x.last) FROM snowfleet.id_range_ms(1796083200000, 1796169600000, 1000) x) THEN
    RAISE EXCEPTION 'id_range (timestamptz)';
  END IF;
  -- from_ms / timestamp() are exact to the ms across every layout's window, up to the
  -- latest one (52 timestamp bits after the latest epoch, the year 152,711): a float product
  -- of ms and an interval lost microseconds past about the year 4250.
  FOR r IN SELECT x FROM unnest(ARRAY[0, 1704067200000, 1737747358021, 253402300799999,
      4503599627370495, 4503599627370495 + 253402300799999 - 1,
      4503599627370495 + 253402300799999]::bigint[]) x LOOP
    IF snowfleet.to_ms(snowfleet.from_ms(r.x)) IS DISTINCT FROM r.x THEN
      RAISE EXCEPTION 'from_ms(%) = %, not exact', r.x, snowfleet.from_ms(r.x);
    END IF;
  END LOOP;
  IF snowfleet.to_ms(snowfleet.timestamp(9223372036854775807, '52.0.11@0')) <> 4503599627370495 THEN
    RAISE EXCEPTION 'timestamp(2^63 - 1, 52.0.11@0) = %', snowfleet.timestamp(9223372036854775807, '52.0.11@0');
  END IF;
  IF snowfleet.layout_text('twitter') <> '41.5.5.12@1288834974657' THEN
    RAISE EXCEPTION 'layout_text';
  END IF;
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.min_id('2026-12-01T00:00:00'::timestamp)$q$,
    '22023', 'INVALID_ARGUMENT: time must be a timestamptz%2026-12-01 00:00:00%');
  -- One naive bound is refused like two: an exact overload, not PostgreSQL's implicit cast
  -- of the naive one with the session's TimeZone.
  PERFORM pg_temp.expect_error(
    $q$SELECT * FROM snowfleet.id_range('2026-12-01T00:00:00'::timestamp, '2026-12-02T00:00:00Z'::timestamptz)$q$,
    '22023', 'INVALID_ARGUMENT: start must be a timestamptz%2026-12-01 00:00:00%');
  PERFORM pg_temp.expect_error(
    $q$SELECT * FROM snowfleet.id_range('2026-12-01T00:00:00Z'::timestamptz, '2026-12-02T00:00:00'::timestamp)$q$,
    '22023', 'INVALID_ARGUMENT: end must be a timestamptz%2026-12-02 00:00:00%');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.max_id('2026-12-01T00:00:00.000001Z')$q$,
    '22023', 'INVALID_ARGUMENT: time must be a whole millisecond%.000001Z');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.min_id('2023-12-31T23:59:59.999Z')$q$,
    '22008', 'TIMESTAMP_OUT_OF_RANGE: timestamp_ms must be in [1704067200000, %got 1704067199999');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.node_id(1, '41.10.12')$q$,
    '22023', 'INVALID_ARGUMENT: layout ''41.10.12'' is not a preset%');
END $$;

-- A range scan over a bigint primary key: the bounds are constants folded at plan time
-- (IMMUTABLE), so the planner uses the primary key's index. 200,000 ids over 2 days.
CREATE TEMP TABLE events (id bigint PRIMARY KEY, payload text);
INSERT INTO events
SELECT snowfleet.compose_ms(1796083200000 + g * 864, g % 1024, 0), 'event ' || g
  FROM generate_series(0, 199999) g;
ANALYZE events;
-- IMMUTABLE all the way down: PostgreSQL inlines the SQL functions and refuses an index
-- expression that reaches a merely STABLE one.
CREATE INDEX events_time ON events (snowfleet.timestamp(id));
DROP INDEX events_time;
\pset format unaligned
\pset tuples_only on
\echo 'EXPLAIN of a one-hour range scan:'
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
 WHERE id BETWEEN snowfleet.min_id('2026-12-01T10:00:00Z')
              AND snowfleet.max_id('2026-12-01T10:59:59.999Z');
DO $$
DECLARE line text; plan text := ''; n bigint;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id BETWEEN '
      'snowfleet.min_id(''2026-12-01T10:00:00Z'') AND snowfleet.max_id(''2026-12-01T10:59:59.999Z'')' LOOP
    plan := plan || line || E'\n';
  END LOOP;
  IF plan NOT LIKE '%Index%events_pkey%' THEN RAISE EXCEPTION 'no index scan: %', plan; END IF;
  IF plan LIKE '%snowfleet.%' THEN RAISE EXCEPTION 'bounds not folded to constants: %', plan; END IF;
  SELECT count(*) INTO n FROM events WHERE id BETWEEN snowfleet.min_id('2026-12-01T10:00:00Z')
                                              AND snowfleet.max_id('2026-12-01T10:59:59.999Z');
  -- Row g is at 1796083200000 + 864 g ms: 10:00 <= t < 11:00 is g in [41667, 45833].
  IF n <> 4167 THEN RAISE EXCEPTION 'range scan found % rows, expected 4167', n; END IF;
END $$;
