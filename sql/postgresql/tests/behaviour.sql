-- Behaviour of the snowfleet functions beyond the conformance vectors, the same for both
-- targets (run by scripts/test/sql.sh in a database holding the plain-SQL file, then in one
-- holding the extension): every function is IMMUTABLE and PARALLEL SAFE (the extension's
-- minting functions VOLATILE and PARALLEL RESTRICTED); NULL in, NULL
-- out for every argument of every function; time texts are read by the core's rules (a
-- leap second, a missing offset refused), timestamptz forms agree with the ms forms, naive
-- and sub-millisecond times are refused; errors carry the kind's SQLSTATE and prefix; and a
-- range scan over a bigint primary key uses its index. Any failed check raises, and psql
-- stops.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

DO $$
DECLARE bad text;
BEGIN
  SELECT string_agg(p.oid::regprocedure::text, ', ') INTO bad FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname = 'snowfleet' AND (p.provolatile <> 'i' OR p.proparallel <> 's')
     -- The extension's minting functions (the plain-SQL file has none) are volatile by
     -- nature: checked below.
     AND p.proname NOT IN ('next_id', 'next_uuid7');
  IF bad IS NOT NULL THEN RAISE EXCEPTION 'not IMMUTABLE PARALLEL SAFE: %', bad; END IF;
  SELECT string_agg(p.oid::regprocedure::text, ', ') INTO bad FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname = 'snowfleet' AND p.proname IN ('next_id', 'next_uuid7')
     AND (p.provolatile <> 'v' OR p.proparallel <> 'r');
  IF bad IS NOT NULL THEN RAISE EXCEPTION 'not VOLATILE PARALLEL RESTRICTED: %', bad; END IF;
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

-- A valid value for argument `name` of type `type` of function `fn` (so that a call made
-- of them succeeds), as SQL text.
CREATE FUNCTION pg_temp.sample(fn text, name text, type regtype) RETURNS text
LANGUAGE sql AS $$
  SELECT CASE
    WHEN type = 'bigint'::regtype THEN CASE name
      WHEN 'id' THEN '141264821508263936' WHEN 'node_id' THEN '37' WHEN 'sequence' THEN '5'
      WHEN 'datacenter_id' THEN '3' WHEN 'machine_id' THEN '5' WHEN 'slack_ms' THEN '0'
      WHEN 'end_ms' THEN '1737747358022' ELSE '1737747358021' END
    WHEN type = 'timestamptz'::regtype THEN CASE name
      WHEN 'end' THEN '''2025-01-24T19:35:58.022Z''::timestamptz'
      ELSE '''2025-01-24T19:35:58.021Z''::timestamptz' END
    WHEN type = 'timestamp'::regtype THEN '''2025-01-24T19:35:58.021''::timestamp'
    WHEN type = 'uuid'::regtype THEN '''019ae182-3c00-7486-9fd0-a2eefb32555e''::uuid'
    WHEN name = 'layout' THEN '''twitter''::text'
    WHEN name = 'uuid' THEN '''019ae182-3c00-7486-9fd0-a2eefb32555e''::text'
    WHEN name = 'end' THEN '''2025-01-24T19:35:58.022Z''::text'
    WHEN name IN ('time', 'start') OR fn LIKE 'parse_time%' THEN '''2025-01-24T19:35:58.021Z''::text'
    WHEN fn = 'parse_id' THEN '''141264821508263936''::text'
    WHEN fn = 'parse_base32' THEN '''03XEZKD8M4M00''::text'
    WHEN fn = 'parse_base62' THEN '''0AQzeOt0YV6''::text'
    WHEN fn = 'parse_id_text' THEN '''0AQzeOt0YV6''::text'
  END
$$;

-- NULL in, NULL out: every public function, called with valid arguments, returns a value
-- (or, for a timestamp without time zone, refuses it); with any one argument NULL, it
-- returns NULL (the whole value: NULL, not a row of NULLs) and raises nothing.
DO $$
DECLARE
  f record;
  args text[];
  call text;
  is_null boolean;
  calls integer := 0;
BEGIN
  FOR f IN SELECT p.oid, p.proname, ARRAY(SELECT unnest(p.proargtypes::regtype[])) AS types,
                  p.proargnames AS names
             FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'snowfleet' AND p.proname !~ '^_'
              -- no arguments, and they mint: sql/extension/tests/mint.sh tests them
              AND p.proname NOT IN ('next_id', 'next_uuid7') ORDER BY 1 LOOP
    args := ARRAY(SELECT pg_temp.sample(f.proname, f.names[i], f.types[i])
                    FROM generate_subscripts(f.types, 1) i ORDER BY i);
    IF array_position(args, NULL) IS NOT NULL THEN
      RAISE EXCEPTION 'no sample argument for %', f.oid::regprocedure;
    END IF;
    IF NOT 'timestamp'::regtype = ANY (f.types) THEN
      EXECUTE format('SELECT (snowfleet.%I(%s))::text IS NULL', f.proname,
                     array_to_string(args, ', ')) INTO is_null;
      IF is_null THEN RAISE EXCEPTION '%(%) is NULL', f.proname, array_to_string(args, ', '); END IF;
    END IF;
    FOR i IN 1 .. coalesce(array_length(args, 1), 0) LOOP
      call := format('snowfleet.%I(%s)', f.proname, array_to_string(
        args[:i - 1] || format('NULL::%s', f.types[i]) || args[i + 1:], ', '));
      BEGIN
        EXECUTE format('SELECT (%s)::text IS NULL', call) INTO is_null;
      EXCEPTION WHEN OTHERS THEN
        RAISE EXCEPTION '% raised %', call, SQLERRM;
      END;
      IF NOT is_null THEN RAISE EXCEPTION '% is not NULL', call; END IF;
      calls := calls + 1;
    END LOOP;
  END LOOP;
  IF calls < 60 THEN RAISE EXCEPTION 'only % NULL calls: no functions?', calls; END IF;
END $$;

DO $$
DECLARE r record;
BEGIN
  -- The API sketch literal: node 37 at 2025-01-24T19:35:58.021Z.
  IF snowfleet.compose('2025-01-24T19:35:58.021Z'::timestamptz, 37) <> 141264821508263936
     OR snowfleet.compose('2025-01-24T19:35:58.021Z', 37) <> 141264821508263936 THEN
    RAISE EXCEPTION 'compose(timestamptz), compose(text)';
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
     OR snowfleet.max_id('2025-01-24T19:35:58.021Z') <> 141264821508263936 - (37 << 12) + (1 << 22) - 1
     OR snowfleet.min_id('2025-01-24T20:35:58.021+01:00'::timestamptz)
        <> snowfleet.min_id('2025-01-24T20:35:58.021+01:00') THEN
    RAISE EXCEPTION 'min_id / max_id (text, timestamptz)';
  END IF;
  FOR r IN SELECT * FROM (VALUES
      (snowfleet.id_range('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z', 1000)),
      (snowfleet.id_range('2026-12-01T00:00:00Z'::timestamptz, '2026-12-02T00:00:00Z'::timestamptz, 1000)),
      (snowfleet.id_range('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'::timestamptz, 1000)),
      (snowfleet.id_range('2026-12-01T00:00:00Z'::timestamptz, '2026-12-02T00:00:00Z', 1000))) v(b) LOOP
    IF r.b IS DISTINCT FROM snowfleet.id_range_ms(1796083200000, 1796169600000, 1000) THEN
      RAISE EXCEPTION 'id_range %', r.b;
    END IF;
  END LOOP;
  -- from_ms / timestamp() are exact to the ms across every layout's window, up to the
  -- latest one (52 timestamp bits after the latest epoch, the year 152,711), and over the
  -- whole range of timestamptz, on both sides of each way from_ms computes it.
  FOR r IN SELECT x FROM unnest(ARRAY[0, -1, 1, 1704067200000, 1737747358021, 253402300799999,
      2899102924799999, 2899102924800000, -3600001, 9007199254740, 9007199254741,
      -9007199254740, -9007199254741, 4503599627370495,
      4503599627370495 + 253402300799999 - 1, 4503599627370495 + 253402300799999,
      -210866803200000, 9224318015999999]::bigint[]) x LOOP
    IF snowfleet.to_ms(snowfleet.from_ms(r.x)) IS DISTINCT FROM r.x THEN
      RAISE EXCEPTION 'from_ms(%) = %, not exact', r.x, snowfleet.from_ms(r.x);
    END IF;
  END LOOP;
  IF snowfleet.from_ms(0) <> 'epoch'::timestamptz
     OR snowfleet.from_ms(-210866803200000) <> '4714-11-24 00:00:00+00 BC'::timestamptz
     OR snowfleet.from_ms(9224318015999999) <> '294276-12-31 23:59:59.999+00'::timestamptz THEN
    RAISE EXCEPTION 'from_ms at the ends of timestamptz';
  END IF;
  IF snowfleet.to_ms(snowfleet.timestamp(9223372036854775807, '52.0.11@0')) <> 4503599627370495 THEN
    RAISE EXCEPTION 'timestamp(2^63 - 1, 52.0.11@0) = %', snowfleet.timestamp(9223372036854775807, '52.0.11@0');
  END IF;
  IF snowfleet.layout_text('twitter') <> '41.5.5.12@1288834974657' THEN
    RAISE EXCEPTION 'layout_text';
  END IF;
  IF snowfleet.format_base32(141264821508263936) <> '03XEZKD8M4M00'
     OR snowfleet.parse_base62(snowfleet.format_base62(9223372036854775807)) <> 9223372036854775807
     OR snowfleet.format_id(42) <> '42' THEN
    RAISE EXCEPTION 'text forms';
  END IF;
  IF snowfleet.uuid7_timestamp('019ae182-3c00-7486-9fd0-a2eefb32555e'::uuid)
     <> snowfleet.from_ms(1764720000000) THEN
    RAISE EXCEPTION 'uuid7_timestamp';
  END IF;
END $$;

-- Time texts: the core's rules, not PostgreSQL's reading of a timestamptz literal.
DO $$
BEGIN
  PERFORM pg_temp.expect_error(q, '22023',
    'INVALID_ARGUMENT: time must be RFC 3339 %got ''2026-12-31T23:59:60Z'': second 60 is a leap second%')
    FROM unnest(ARRAY[
      $q$SELECT snowfleet.min_id('2026-12-31T23:59:60Z')$q$,
      $q$SELECT snowfleet.max_id('2026-12-31T23:59:60Z')$q$,
      $q$SELECT snowfleet.compose('2026-12-31T23:59:60Z', 1)$q$,
      $q$SELECT snowfleet.id_range('2026-12-31T23:59:60Z', '2027-01-02T00:00:00Z')$q$,
      $q$SELECT snowfleet.id_range('2026-12-31T23:59:60Z', now())$q$,
      $q$SELECT snowfleet.parse_time('2026-12-31T23:59:60Z')$q$,
      $q$SELECT snowfleet.parse_time_ms('2026-12-31T23:59:60Z')$q$]) q;
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.min_id('2026-12-01')$q$, '22023',
    'INVALID_ARGUMENT: time must be RFC 3339 %: a time is required after the date%');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.min_id('2026-12-01T00:00:00')$q$, '22023',
    'INVALID_ARGUMENT: time must be RFC 3339 %: an offset is required%');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.id_range(now(), '2026-12-01 00:00:00Z')$q$, '22023',
    'INVALID_ARGUMENT: time must be RFC 3339 %: the date and the time must be separated by ''T''%');
  -- A timestamptz is an instant PostgreSQL has already read (it takes :60 as the next
  -- minute): the functions see the instant, whole ms and finite.
  IF snowfleet.min_id('2026-12-31T23:59:60Z'::timestamptz) <> snowfleet.min_id('2027-01-01T00:00:00Z') THEN
    RAISE EXCEPTION 'timestamptz :60';
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
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.max_id('2026-12-01T00:00:00.000001Z'::timestamptz)$q$,
    '22023', 'INVALID_ARGUMENT: time must be a whole millisecond%got 2026-12-01T00:00:00.000001Z');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.min_id('infinity'::timestamptz)$q$,
    '22008', 'TIMESTAMP_OUT_OF_RANGE: time must be finite, got infinity');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.min_id('2023-12-31T23:59:59.999Z')$q$,
    '22008', 'TIMESTAMP_OUT_OF_RANGE: timestamp_ms must be in [1704067200000, %got 1704067199999');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.from_ms(9224318016000000)$q$,
    '22008', 'TIMESTAMP_OUT_OF_RANGE: ms must be in [-210866803200000, 9224318015999999] %');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.node_id(1, '41.10.12')$q$,
    '22023', 'INVALID_ARGUMENT: layout ''41.10.12'' is not a preset%');
  -- A malformed layout is named before a negative id, with the layout given per row too.
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.timestamp_ms(-1, l) FROM (VALUES ('41.10.12')) v(l)$q$,
    '22023', 'INVALID_ARGUMENT: layout ''41.10.12'' is not a preset%');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.decode(-1, l) FROM (VALUES ('twitter')) v(l)$q$,
    '22023', 'INVALID_ARGUMENT: id must be non-negative, got -1');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.uuid7_timestamp('{019ae182-3c00-7486-9fd0-a2eefb32555e}')$q$,
    '22023', 'INVALID_ARGUMENT: not a UUID: %(38 characters;%');
  PERFORM pg_temp.expect_error($q$SELECT snowfleet.uuid7_decode(gen_random_uuid())$q$,
    '22023', 'INVALID_ARGUMENT: not a UUIDv7: % has version 4; want version 7, variant 10');
END $$;

-- A range scan over a bigint primary key: the bounds are constants folded at plan time
-- (IMMUTABLE), so the planner uses the primary key's index. 200,000 ids over 2 days.
CREATE TEMP TABLE events (id bigint PRIMARY KEY, payload text);
INSERT INTO events
SELECT snowfleet.compose_ms(1796083200000 + g * 864, g % 1024, 0), 'event ' || g
  FROM generate_series(0, 199999) g;
ANALYZE events;
-- IMMUTABLE all the way down: an index expression may not reach a merely STABLE function.
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
