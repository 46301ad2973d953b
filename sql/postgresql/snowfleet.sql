-- snowfleet for PostgreSQL: read, compose and range-scan snowfleet ids in SQL.
--
-- Plain SQL, so it installs on managed databases where extensions cannot be:
--   psql -d mydb -f sql/postgresql/snowfleet.sql        (re-running it replaces the functions)
-- Where you can install extensions, CREATE EXTENSION snowfleet (sql/extension/) gives the
-- same functions in C; the two are interchangeable: same names, arguments, answers and
-- errors (docs/postgresql.md). Use one or the other in a database: both live in the
-- schema "snowfleet".
--
-- Every function is IMMUTABLE (its result depends on its arguments only), so it can be used
-- in indexes and in range predicates the planner folds into an index scan:
--   SELECT * FROM events
--    WHERE id BETWEEN snowfleet.min_id('2026-12-01T00:00:00Z')
--                 AND snowfleet.max_id('2026-12-01T23:59:59.999Z');
-- The readers (timestamp_ms, timestamp, node_id, ..., decode) are single SQL expressions
-- that PostgreSQL inlines into the query; with the layout given as a constant (or left
-- out), the layout is parsed once, when the query is planned, and each row costs a few
-- integer operations. PL/pgSQL is used only to parse texts (layouts, times) and to raise
-- errors.
-- The rules are the C++ core's (conformance/vectors run through these functions):
--   * layout: a preset name (default, twitter, discord) or TIMESTAMP.NODE.SEQUENCE@EPOCH_MS /
--     TIMESTAMP.DATACENTER.MACHINE.SEQUENCE@EPOCH_MS, e.g. '41.10.12@1704067200000'; the
--     argument is last and defaults to 'default';
--   * NULL in, NULL out: any NULL argument makes the result NULL, and nothing is checked;
--   * nothing is masked: a field outside its range, a time outside the layout's window, a
--     malformed text raise an error whose message starts with the core's error code:
--     INVALID_ARGUMENT: ... (SQLSTATE 22023), TIMESTAMP_OUT_OF_RANGE: ... (22008);
--   * a time given as text is read by the core's RFC 3339 rules (offset required, no leap
--     second, no digit past the millisecond): min_id('2026-12-31T23:59:60Z') is refused;
--   * a timestamptz must be finite and a whole millisecond (timestamptz holds microseconds;
--     an id's timestamp is whole ms and nothing is rounded silently): truncate it first
--     with date_trunc('milliseconds', t); a timestamp without time zone is refused.

SET client_min_messages = warning;
CREATE SCHEMA IF NOT EXISTS snowfleet;

-- What an earlier version of this file created differently: helpers, and functions that
-- returned anonymous records (OUT parameters), which PostgreSQL does not inline.
DROP FUNCTION IF EXISTS snowfleet._invalid(text), snowfleet._out_of_range(text),
  snowfleet._check_id(bigint), snowfleet._last_ms(snowfleet.layout),
  snowfleet._check_time(snowfleet.layout, text, bigint, bigint, bigint),
  snowfleet._check_field(text, bigint, bigint);
DO $$
DECLARE f regprocedure;
BEGIN
  FOR f IN SELECT p.oid FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'snowfleet' AND p.prorettype = 'record'::regtype LOOP
    EXECUTE 'DROP FUNCTION ' || f;
  END LOOP;
END $$;

-- BEGIN COMMON TYPES: the result types, the same in the extension (its Makefile copies
-- this section into its install script). Created once: re-running the file keeps them.

-- A parsed layout: the node field is datacenter_bits + machine_bits (datacenter_bits 0 when
-- unsplit).
DO $$ BEGIN
  CREATE TYPE snowfleet.layout AS (epoch_ms bigint, timestamp_bits integer,
    datacenter_bits integer, machine_bits integer, sequence_bits integer);
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
-- The fields of an id (decode).
DO $$ BEGIN
  CREATE TYPE snowfleet.decoded AS (timestamp_ms bigint, "time" timestamptz, node_id bigint,
    datacenter_id bigint, machine_id bigint, sequence bigint);
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
-- Inclusive bounds of the ids of a time range (id_range): id BETWEEN first AND last.
DO $$ BEGIN
  CREATE TYPE snowfleet.id_bounds AS (first bigint, last bigint);
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
-- The fields of a UUIDv7 (uuid7_decode).
DO $$ BEGIN
  CREATE TYPE snowfleet.uuid7_fields AS (timestamp_ms bigint, "time" timestamptz,
    counter bigint, random bigint);
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

-- END COMMON TYPES

------------------------------------------------------------------------------------------
-- Errors: 'KIND: message' with the kind's SQLSTATE (the extension's sqlstate.cc).

-- Raises kind's error; returns the type of `result_type` so it can stand in any CASE arm.
-- COST 1: it runs only when a check fails, so the planner may inline expressions holding it.
CREATE OR REPLACE FUNCTION snowfleet._fail(kind text, message text, result_type anyelement)
RETURNS anyelement LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 1 AS $$
BEGIN
  RAISE EXCEPTION USING MESSAGE = kind || ': ' || message,
    ERRCODE = CASE kind WHEN 'INVALID_ARGUMENT' THEN '22023'
                        WHEN 'TIMESTAMP_OUT_OF_RANGE' THEN '22008' ELSE 'XX000' END;
END $$;

-- A text as the core quotes it in a message: in single quotes, control characters as \xNN,
-- cut after 60 bytes (a character is kept whole or left out) with "..." before the quote.
CREATE OR REPLACE FUNCTION snowfleet._quote(t text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
DECLARE
  out text := '';
  used integer := 0;
  c text;
  code integer;
BEGIN
  FOR i IN 1 .. length(t) LOOP
    c := substr(t, i, 1);
    IF used + octet_length(c) > 60 THEN
      RETURN '''' || out || '...''';
    END IF;
    code := ascii(c);
    IF octet_length(c) > 1 OR (code >= 32 AND code <> 127) THEN
      out := out || c;
    ELSE
      out := out || '\x' || lpad(to_hex(code), 2, '0');
    END IF;
    used := used + octet_length(c);
  END LOOP;
  RETURN '''' || out || '''';
END $$;

------------------------------------------------------------------------------------------
-- Layouts.

-- A decimal integer of 1 to 19 ASCII digits that fits in bigint, else NULL (the core's
-- parse_uint).
CREATE OR REPLACE FUNCTION snowfleet._uint(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN t ~ '^[0-9]{1,19}$' AND t::numeric <= 9223372036854775807
              THEN t::bigint END
$$;

-- Parses a layout text: a preset name or the text form. The rules and messages of the
-- core's Layout::parse / Layout::create.
CREATE OR REPLACE FUNCTION snowfleet._parse_layout(layout text)
RETURNS snowfleet.layout LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  q text := snowfleet._quote(layout);
  widths text := 'layout ' || q || ': bit widths must be 3 or 4 dot-separated integers';
  at_pos integer;
  epoch bigint;
  parts text[];
  bits bigint[] := '{}';
  b bigint;
  ts bigint; dc bigint; machine bigint; seq bigint;
  node_name text := 'node_bits';
BEGIN
  IF layout = 'default' THEN RETURN ROW(1704067200000, 41, 0, 10, 12)::snowfleet.layout; END IF;
  IF layout = 'twitter' THEN RETURN ROW(1288834974657, 41, 5, 5, 12)::snowfleet.layout; END IF;
  IF layout = 'discord' THEN RETURN ROW(1420070400000, 41, 5, 5, 12)::snowfleet.layout; END IF;
  at_pos := position('@' IN layout);
  IF at_pos = 0 THEN
    PERFORM snowfleet._fail('INVALID_ARGUMENT', 'layout ' || q || ' is not a preset (default, '
      'twitter, discord) nor of the form TIMESTAMP.NODE.SEQUENCE@EPOCH_MS or '
      'TIMESTAMP.DATACENTER.MACHINE.SEQUENCE@EPOCH_MS', NULL::bigint);
  END IF;
  epoch := snowfleet._uint(substr(layout, at_pos + 1));
  IF epoch IS NULL THEN
    PERFORM snowfleet._fail('INVALID_ARGUMENT', 'layout ' || q ||
      ': the epoch after ''@'' must be a non-negative integer of ms', NULL::bigint);
  END IF;
  parts := string_to_array(substr(layout, 1, at_pos - 1), '.');
  IF coalesce(array_length(parts, 1), 0) NOT BETWEEN 1 AND 4 THEN
    PERFORM snowfleet._fail('INVALID_ARGUMENT', widths, NULL::bigint);
  END IF;
  FOR i IN 1 .. array_length(parts, 1) LOOP
    b := snowfleet._uint(parts[i]);
    IF b IS NULL THEN PERFORM snowfleet._fail('INVALID_ARGUMENT', widths, NULL::bigint); END IF;
    bits := bits || b;
  END LOOP;
  IF array_length(bits, 1) < 3 THEN PERFORM snowfleet._fail('INVALID_ARGUMENT', widths, NULL::bigint); END IF;
  ts := bits[1];
  IF array_length(bits, 1) = 3 THEN
    dc := 0; machine := bits[2]; seq := bits[3];
  ELSE
    dc := bits[2]; machine := bits[3]; seq := bits[4];
    IF dc > 0 THEN node_name := 'machine_bits'; END IF;  -- a 0-bit datacenter is unsplit
  END IF;
  -- The core's checks, in its order; the first that fails is the error.
  PERFORM snowfleet._fail('INVALID_ARGUMENT', 'layout ' || q || ': layout ' || rule, NULL::bigint)
     FROM (VALUES
       (1, epoch > 253402300799999, 'epoch_ms must be in [0, 253402300799999], got ' || epoch),
       (2, ts < 1 OR ts > 52, 'timestamp_bits must be in [1, 52], got ' || ts),
       (3, dc > 62, 'datacenter_bits must be in [0, 62], got ' || dc),
       (4, machine > 62, node_name || ' must be in [0, 62], got ' || machine),
       (5, seq > 62, 'sequence_bits must be in [0, 62], got ' || seq),
       (6, ts + dc + machine + seq <> 63,
        'fields must add up to 63 bits (plus the sign bit), got ' || (ts + dc + machine + seq)))
       AS c(n, broken, rule)
    WHERE broken ORDER BY n LIMIT 1;
  RETURN ROW(epoch, ts, dc, machine, seq)::snowfleet.layout;
END $$;

-- A parsed layout (a preset name or the text form). The presets are an expression the
-- planner inlines, so a function whose layout is not a constant (a column, a parameter of
-- a generic plan) reads them without a PL/pgSQL call for each use.
CREATE OR REPLACE FUNCTION snowfleet.layout(layout text DEFAULT 'default')
RETURNS snowfleet.layout LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE layout
    WHEN 'default' THEN ROW(1704067200000, 41, 0, 10, 12)::snowfleet.layout
    WHEN 'twitter' THEN ROW(1288834974657, 41, 5, 5, 12)::snowfleet.layout
    WHEN 'discord' THEN ROW(1420070400000, 41, 5, 5, 12)::snowfleet.layout
    ELSE snowfleet._parse_layout(layout)
  END
$$;

-- The fields of a layout the functions below use, each a single expression: with a
-- constant layout text the planner evaluates them once, when it plans the query.
CREATE OR REPLACE FUNCTION snowfleet._given(layout text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT (snowfleet.layout(layout)).epoch_ms IS NOT NULL $$;
CREATE OR REPLACE FUNCTION snowfleet._epoch(layout text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (snowfleet.layout(layout)).epoch_ms $$;
CREATE OR REPLACE FUNCTION snowfleet._last_ms(layout text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (snowfleet.layout(layout)).epoch_ms +
         ((1::bigint << (snowfleet.layout(layout)).timestamp_bits) - 1)
$$;
CREATE OR REPLACE FUNCTION snowfleet._ts_shift(layout text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT 63 - (snowfleet.layout(layout)).timestamp_bits $$;
CREATE OR REPLACE FUNCTION snowfleet._seq_bits(layout text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (snowfleet.layout(layout)).sequence_bits $$;
CREATE OR REPLACE FUNCTION snowfleet._machine_bits(layout text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (snowfleet.layout(layout)).machine_bits $$;
CREATE OR REPLACE FUNCTION snowfleet._max_seq(layout text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT (1::bigint << (snowfleet.layout(layout)).sequence_bits) - 1 $$;
CREATE OR REPLACE FUNCTION snowfleet._max_machine(layout text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT (1::bigint << (snowfleet.layout(layout)).machine_bits) - 1 $$;
CREATE OR REPLACE FUNCTION snowfleet._max_datacenter(layout text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT (1::bigint << (snowfleet.layout(layout)).datacenter_bits) - 1 $$;
CREATE OR REPLACE FUNCTION snowfleet._max_node(layout text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (1::bigint << ((snowfleet.layout(layout)).datacenter_bits +
                        (snowfleet.layout(layout)).machine_bits)) - 1
$$;

-- The canonical text form of a layout, e.g. '41.10.12@1704067200000'.
CREATE OR REPLACE FUNCTION snowfleet.layout_text(layout text DEFAULT 'default') RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  RETURN l.timestamp_bits || '.' ||
         CASE WHEN l.datacenter_bits > 0 THEN l.datacenter_bits || '.' ELSE '' END ||
         l.machine_bits || '.' || l.sequence_bits || '@' || l.epoch_ms;
END $$;

-- TIMESTAMP_OUT_OF_RANGE: name's ms is not in [lo, hi] (the core's message).
CREATE OR REPLACE FUNCTION snowfleet._outside(name text, ms bigint, lo bigint, hi bigint,
  layout text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1 AS $$
  SELECT snowfleet._fail('TIMESTAMP_OUT_OF_RANGE', name || ' must be in [' || lo::text || ', ' ||
    hi::text || '] for layout ' || snowfleet.layout_text(layout) || ', got ' || ms::text,
    NULL::bigint)
$$;

-- INVALID_ARGUMENT: field `name` is not in [0, max] (the core's message).
CREATE OR REPLACE FUNCTION snowfleet._field(name text, v bigint, max bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1 AS $$
  SELECT snowfleet._fail('INVALID_ARGUMENT',
    name || ' must be in [0, ' || max::text || '], got ' || v::text, NULL::bigint)
$$;

CREATE OR REPLACE FUNCTION snowfleet._negative_id(id bigint, result_type anyelement)
RETURNS anyelement LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1 AS $$
  SELECT snowfleet._fail('INVALID_ARGUMENT', 'id must be non-negative, got ' || id::text,
    result_type)
$$;

------------------------------------------------------------------------------------------
-- Times.

-- Unix ms of a timestamptz, which must be finite and a whole millisecond. COST 1 (it takes
-- about a microsecond): compose, min_id, max_id and id_range of a timestamptz column are
-- inlined with it (the planner does not inline a function whose argument is costlier, and
-- then reads a non-constant layout for each use).
CREATE OR REPLACE FUNCTION snowfleet.to_ms(t timestamptz) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
DECLARE us numeric;
BEGIN
  IF NOT isfinite(t) THEN
    PERFORM snowfleet._fail('TIMESTAMP_OUT_OF_RANGE', 'time must be finite, got ' || t::text,
      NULL::bigint);
  END IF;
  us := (extract(epoch FROM t) * 1000000);
  IF us % 1000 <> 0 THEN
    PERFORM snowfleet._fail('INVALID_ARGUMENT', 'time must be a whole millisecond (an id''s '
      'timestamp is whole ms; use date_trunc(''milliseconds'', t)), got ' ||
      to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), NULL::bigint);
  END IF;
  RETURN (us / 1000)::bigint;
END $$;

-- The timestamptz of Unix ms that lies within 2^53 us of 1970, with no check: from_ms's
-- fast path, for the readers of a layout whose window lies there (their layout is known
-- when the query is planned).
CREATE OR REPLACE FUNCTION snowfleet._from_ms_near(ms bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT timezone(interval '0', timestamp '1970-01-01' + ms * interval '1 millisecond') $$;

-- The timestamptz of Unix ms, exact over the whole range of timestamptz. Within 2^53 us of
-- 1970 (the years 1685 to 2255) ms * interval '1 millisecond' is exact (a float product of
-- integers below 2^53); beyond, integer days and hours plus the seconds of the hour (the
-- days part is 0 until about the year 93,800, and only that part costs a calendar
-- computation). The arithmetic is on a timestamp without time zone (immutable, so the
-- expression can be inlined), read as UTC.
CREATE OR REPLACE FUNCTION snowfleet.from_ms(ms bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN ms BETWEEN -9007199254740 AND 9007199254740 THEN snowfleet._from_ms_near(ms)
    WHEN ms < -210866803200000 OR ms > 9224318015999999 THEN
      snowfleet._fail('TIMESTAMP_OUT_OF_RANGE', 'ms must be in [-210866803200000, ' ||
        '9224318015999999] (the range of timestamptz), got ' || ms::text, NULL::timestamptz)
    ELSE timezone(interval '0', timestamp '1970-01-01' + make_interval(
      days => (ms / 2899102924800000 * 33554432)::integer,
      hours => (ms % 2899102924800000 / 3600000)::integer,
      secs => (ms % 3600000)::double precision / 1000))
  END
$$;

-- The timestamptz of ms, a millisecond of layout's window.
CREATE OR REPLACE FUNCTION snowfleet._from_window_ms(ms bigint, layout text)
RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN snowfleet._last_ms(layout) <= 9007199254740 THEN snowfleet._from_ms_near(ms)
              ELSE snowfleet.from_ms(ms) END
$$;

CREATE OR REPLACE FUNCTION snowfleet._time_fail(t text, rule text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1 AS $$
  SELECT snowfleet._fail('INVALID_ARGUMENT', 'time must be RFC 3339 (YYYY-MM-DDTHH:MM:SS[.mmm] '
    'then Z, +HH:MM or -HH:MM), got ' || snowfleet._quote(t) || ': ' || rule, NULL::bigint)
$$;

-- n ASCII digits of t at position p (1-based), or NULL.
CREATE OR REPLACE FUNCTION snowfleet._digits(t text, p integer, n integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN substr(t, p, n) ~ ('^[0-9]{' || n::text || '}$') THEN substr(t, p, n)::integer END
$$;

-- A two-digit field of t at p in [lo, hi], or its error (the core's Reader::field2).
CREATE OR REPLACE FUNCTION snowfleet._field2(t text, p integer, name text, lo integer,
  hi integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE v integer := snowfleet._digits(t, p, 2);
BEGIN
  IF v IS NULL THEN PERFORM snowfleet._time_fail(t, 'the ' || name || ' must be 2 ASCII digits'); END IF;
  IF v < lo OR v > hi THEN
    PERFORM snowfleet._time_fail(t, name || ' ' || lpad(v::text, 2, '0') || ' is outside ' ||
      lpad(lo::text, 2, '0') || '-' || lpad(hi::text, 2, '0'));
  END IF;
  RETURN v;
END $$;

-- Parses an RFC 3339 date-time into Unix ms: the rules and messages of the core's
-- parse_iso8601 (offset required, years 0000-9999, the day must exist, no leap second,
-- digits past the millisecond must be 0).
CREATE OR REPLACE FUNCTION snowfleet.parse_time_ms(text text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  t text := text;
  p integer;
  year_rule text := 'the year must be 4 ASCII digits (0000-9999, no sign)';
  year bigint; month bigint; day bigint; hour bigint; minute bigint; second bigint;
  ms bigint := 0; last_day bigint; offset_min bigint := 0; east boolean;
  y bigint; era bigint; yoe bigint; doy bigint; days bigint;
BEGIN
  IF t = '' THEN PERFORM snowfleet._time_fail(t, 'the text is empty'); END IF;
  year := snowfleet._digits(t, 1, 4);
  IF year IS NULL OR substr(t, 5, 1) ~ '^[0-9]$' THEN PERFORM snowfleet._time_fail(t, year_rule); END IF;
  IF substr(t, 5, 1) <> '-' THEN
    PERFORM snowfleet._time_fail(t, 'expected ''-'' between the year and the month');
  END IF;
  month := snowfleet._field2(t, 6, 'month', 1, 12);
  IF substr(t, 8, 1) <> '-' THEN
    PERFORM snowfleet._time_fail(t, 'expected ''-'' between the month and the day');
  END IF;
  day := snowfleet._digits(t, 9, 2);
  IF day IS NULL THEN PERFORM snowfleet._time_fail(t, 'the day must be 2 ASCII digits'); END IF;
  last_day := CASE WHEN month = 2 AND year % 4 = 0 AND (year % 100 <> 0 OR year % 400 = 0) THEN 29
                   ELSE (ARRAY[31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])[month] END;
  IF day < 1 OR day > last_day THEN
    PERFORM snowfleet._time_fail(t, 'day ' || lpad(day::text, 2, '0') || ' is outside 01-' ||
      last_day || ' for ' || lpad(year::text, 4, '0') || '-' || lpad(month::text, 2, '0'));
  END IF;
  IF substr(t, 11, 1) NOT IN ('T', 't') THEN
    IF length(t) < 11 THEN
      PERFORM snowfleet._time_fail(t, 'a time is required after the date (THH:MM:SS and an offset)');
    ELSIF substr(t, 11, 1) = ' ' THEN
      PERFORM snowfleet._time_fail(t, 'the date and the time must be separated by ''T'', not a space');
    END IF;
    PERFORM snowfleet._time_fail(t, 'expected ''T'' between the date and the time');
  END IF;
  hour := snowfleet._field2(t, 12, 'hour', 0, 23);
  IF substr(t, 14, 1) <> ':' THEN
    PERFORM snowfleet._time_fail(t, 'expected '':'' between the hour and the minute');
  END IF;
  minute := snowfleet._field2(t, 15, 'minute', 0, 59);
  IF substr(t, 17, 1) <> ':' THEN
    PERFORM snowfleet._time_fail(t, 'expected '':'' and the seconds after the minute (HH:MM:SS)');
  END IF;
  second := snowfleet._digits(t, 18, 2);
  IF second IS NULL THEN PERFORM snowfleet._time_fail(t, 'the second must be 2 ASCII digits'); END IF;
  IF second = 60 THEN
    PERFORM snowfleet._time_fail(t, 'second 60 is a leap second, which Unix milliseconds (and '
      'so ids) cannot represent');
  END IF;
  IF second > 59 THEN
    PERFORM snowfleet._time_fail(t, 'second ' || lpad(second::text, 2, '0') || ' is outside 00-59');
  END IF;
  p := 20;
  IF substr(t, p, 1) = '.' THEN
    p := p + 1;
    IF substr(t, p, 1) !~ '^[0-9]$' THEN
      PERFORM snowfleet._time_fail(t, 'a fraction ''.'' must be followed by ASCII digits');
    END IF;
    FOR i IN 1 .. 3 LOOP
      IF substr(t, p, 1) ~ '^[0-9]$' THEN
        ms := ms * 10 + substr(t, p, 1)::integer;
        p := p + 1;
      ELSE
        ms := ms * 10;
      END IF;
    END LOOP;
    WHILE substr(t, p, 1) ~ '^[0-9]$' LOOP
      IF substr(t, p, 1) <> '0' THEN
        PERFORM snowfleet._time_fail(t, 'the fraction has a non-zero digit past the millisecond, '
          'and an id''s timestamp is whole milliseconds');
      END IF;
      p := p + 1;
    END LOOP;
  END IF;
  IF p > length(t) THEN
    PERFORM snowfleet._time_fail(t, 'an offset is required: Z, +HH:MM or -HH:MM (a local time '
      'is ambiguous)');
  END IF;
  IF substr(t, p, 1) IN ('Z', 'z') THEN
    p := p + 1;
  ELSE
    IF substr(t, p, 1) NOT IN ('+', '-') THEN
      PERFORM snowfleet._time_fail(t, 'expected Z, +HH:MM or -HH:MM after the time');
    END IF;
    east := substr(t, p, 1) = '+';
    offset_min := snowfleet._field2(t, p + 1, 'offset hour', 0, 23) * 60;
    IF substr(t, p + 3, 1) <> ':' THEN
      PERFORM snowfleet._time_fail(t, 'the offset must be +HH:MM or -HH:MM');
    END IF;
    offset_min := offset_min + snowfleet._field2(t, p + 4, 'offset minute', 0, 59);
    IF NOT east THEN offset_min := -offset_min; END IF;
    p := p + 6;
  END IF;
  IF p <= length(t) THEN PERFORM snowfleet._time_fail(t, 'unexpected text after the offset'); END IF;
  -- Days since 1970-01-01 of the proleptic Gregorian date (the core's days_from_civil).
  y := year - CASE WHEN month <= 2 THEN 1 ELSE 0 END;
  era := CASE WHEN y >= 0 THEN y ELSE y - 399 END / 400;
  yoe := y - era * 400;
  doy := (153 * CASE WHEN month > 2 THEN month - 3 ELSE month + 9 END + 2) / 5 + day - 1;
  days := era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
  RETURN ((days * 24 + hour) * 60 + minute) * 60000 + second * 1000 + ms - offset_min * 60000;
END $$;

-- parse_time_ms as a timestamptz.
CREATE OR REPLACE FUNCTION snowfleet.parse_time(text text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS
$$ SELECT snowfleet.from_ms(snowfleet.parse_time_ms(text)) $$;

------------------------------------------------------------------------------------------
-- Text forms of an id.

-- Parses a decimal id: 1 to 19 ASCII digits, at most 2^63 - 1 (the core's parse_id).
CREATE OR REPLACE FUNCTION snowfleet.parse_id(text text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN text ~ '^[0-9]{1,19}$' AND (length(text) < 19 OR text COLLATE "C" <= '9223372036854775807')
      THEN text::bigint
    WHEN text IS NOT NULL THEN snowfleet._fail('INVALID_ARGUMENT', 'id must be a decimal integer in '
      '[0, 9223372036854775807], got ' || snowfleet._quote(text), NULL::bigint)
  END
$$;

-- The decimal form of an id.
CREATE OR REPLACE FUNCTION snowfleet.format_id(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 THEN snowfleet._negative_id(id, NULL::text) ELSE id::text END
$$;

-- The digit of base32 / base62 for the low bits of v, and the value of one character.
CREATE OR REPLACE FUNCTION snowfleet._b32c(v bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (v & 31)::integer + 1, 1) $$;
CREATE OR REPLACE FUNCTION snowfleet._b32d(c text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ',
                translate(c, 'abcdefghjkmnpqrstvwxyzIiLlOo', 'ABCDEFGHJKMNPQRSTVWXYZ111100'))::bigint - 1
$$;
CREATE OR REPLACE FUNCTION snowfleet._b62c(v bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
                (v % 62)::integer + 1, 1)
$$;
CREATE OR REPLACE FUNCTION snowfleet._b62d(c text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT strpos('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', c)::bigint - 1
$$;

-- The error of a base32 / base62 text that is not an id (the core's text_id.cc): the first
-- byte outside the alphabet (its byte position), else a wrong length, else the value.
CREATE OR REPLACE FUNCTION snowfleet._text_id_fail(form text, t text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
DECLARE
  base32 boolean := form = 'base32';
  alphabet text := CASE WHEN base32 THEN 'Crockford base32 (0-9 A-Z without U; I, L, O as 1, 1, 0)'
                        ELSE '0-9 A-Z a-z' END;
  valid text := CASE WHEN base32 THEN '^[0-9A-TV-Za-tv-z]$' ELSE '^[0-9A-Za-z]$' END;
  rule text;
  at integer := 0;
BEGIN
  FOR i IN 1 .. length(t) LOOP
    IF substr(t, i, 1) !~ valid THEN
      rule := 'characters of ' || alphabet || ' (position ' || at || ' is not)';
      EXIT;
    END IF;
    at := at + octet_length(substr(t, i, 1));
  END LOOP;
  IF rule IS NULL AND octet_length(t) <> (CASE WHEN base32 THEN 13 ELSE 11 END) THEN
    rule := CASE WHEN base32 THEN '13 characters' ELSE '11 characters' END;
  END IF;
  rule := coalesce(rule, CASE WHEN base32 THEN 'at most 7ZZZZZZZZZZZZ (2^63 - 1): its first character 0-7'
                               ELSE 'at most AzL8n0Y58m7 (2^63 - 1)' END);
  RETURN snowfleet._fail('INVALID_ARGUMENT', 'a ' || form || ' id must be ' || rule || ', got ' ||
    snowfleet._quote(t), NULL::bigint);
END $$;

-- The 13-character Crockford base32 form of an id (TSID's text form).
CREATE OR REPLACE FUNCTION snowfleet.format_base32(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 THEN snowfleet._negative_id(id, NULL::text) ELSE
         snowfleet._b32c(id >> 60) ||
         snowfleet._b32c(id >> 55) ||
         snowfleet._b32c(id >> 50) ||
         snowfleet._b32c(id >> 45) ||
         snowfleet._b32c(id >> 40) ||
         snowfleet._b32c(id >> 35) ||
         snowfleet._b32c(id >> 30) ||
         snowfleet._b32c(id >> 25) ||
         snowfleet._b32c(id >> 20) ||
         snowfleet._b32c(id >> 15) ||
         snowfleet._b32c(id >> 10) ||
         snowfleet._b32c(id >> 5) ||
         snowfleet._b32c(id >> 0)
  END
$$;

-- Parses a base32 id: 13 characters, either case, I and L read as 1 and O as 0.
CREATE OR REPLACE FUNCTION snowfleet.parse_base32(text text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN text ~ '^[0-7IiLlOo][0-9A-TV-Za-tv-z]{12}$' THEN
         (snowfleet._b32d(substr(text, 1, 1)) << 60) |
         (snowfleet._b32d(substr(text, 2, 1)) << 55) |
         (snowfleet._b32d(substr(text, 3, 1)) << 50) |
         (snowfleet._b32d(substr(text, 4, 1)) << 45) |
         (snowfleet._b32d(substr(text, 5, 1)) << 40) |
         (snowfleet._b32d(substr(text, 6, 1)) << 35) |
         (snowfleet._b32d(substr(text, 7, 1)) << 30) |
         (snowfleet._b32d(substr(text, 8, 1)) << 25) |
         (snowfleet._b32d(substr(text, 9, 1)) << 20) |
         (snowfleet._b32d(substr(text, 10, 1)) << 15) |
         (snowfleet._b32d(substr(text, 11, 1)) << 10) |
         (snowfleet._b32d(substr(text, 12, 1)) << 5) |
         (snowfleet._b32d(substr(text, 13, 1)) << 0)
    WHEN text IS NOT NULL THEN snowfleet._text_id_fail('base32', text)
  END
$$;

-- The 11-character base62 form of an id (0-9A-Za-z, case-sensitive).
CREATE OR REPLACE FUNCTION snowfleet.format_base62(id bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 THEN snowfleet._negative_id(id, NULL::text) ELSE
         snowfleet._b62c(id / 839299365868340224) ||
         snowfleet._b62c(id / 13537086546263552) ||
         snowfleet._b62c(id / 218340105584896) ||
         snowfleet._b62c(id / 3521614606208) ||
         snowfleet._b62c(id / 56800235584) ||
         snowfleet._b62c(id / 916132832) ||
         snowfleet._b62c(id / 14776336) ||
         snowfleet._b62c(id / 238328) ||
         snowfleet._b62c(id / 3844) ||
         snowfleet._b62c(id / 62) ||
         snowfleet._b62c(id / 1)
  END
$$;

-- Parses a base62 id: 11 characters of 0-9A-Za-z, at most AzL8n0Y58m7 (2^63 - 1; the
-- alphabet is in byte order, so the texts compare as the ids do).
CREATE OR REPLACE FUNCTION snowfleet.parse_base62(text text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN text ~ '^[0-9A-Za-z]{11}$' AND text COLLATE "C" <= 'AzL8n0Y58m7' THEN
         snowfleet._b62d(substr(text, 1, 1)) * 839299365868340224 +
         snowfleet._b62d(substr(text, 2, 1)) * 13537086546263552 +
         snowfleet._b62d(substr(text, 3, 1)) * 218340105584896 +
         snowfleet._b62d(substr(text, 4, 1)) * 3521614606208 +
         snowfleet._b62d(substr(text, 5, 1)) * 56800235584 +
         snowfleet._b62d(substr(text, 6, 1)) * 916132832 +
         snowfleet._b62d(substr(text, 7, 1)) * 14776336 +
         snowfleet._b62d(substr(text, 8, 1)) * 238328 +
         snowfleet._b62d(substr(text, 9, 1)) * 3844 +
         snowfleet._b62d(substr(text, 10, 1)) * 62 +
         snowfleet._b62d(substr(text, 11, 1)) * 1
    WHEN text IS NOT NULL THEN snowfleet._text_id_fail('base62', text)
  END
$$;

-- Parses an id in whichever text form it is (the CLI's decode rule): ASCII digits only are
-- decimal whatever their length ('8000000000000' is never base32); else 13 characters are
-- base32 and 11 base62.
CREATE OR REPLACE FUNCTION snowfleet.parse_id_text(text text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN text ~ '^[0-9]+$' THEN snowfleet.parse_id(text)
    WHEN length(text) = 13 THEN snowfleet.parse_base32(text)
    WHEN length(text) = 11 THEN snowfleet.parse_base62(text)
    WHEN text IS NOT NULL THEN snowfleet._fail('INVALID_ARGUMENT', 'an id must be decimal digits, '
      '13 characters of base32 or 11 of base62, got ' || snowfleet._quote(text) || ' (' ||
      length(text) || ' characters)', NULL::bigint)
  END
$$;

------------------------------------------------------------------------------------------
-- Reading an id. A NULL id or layout gives NULL; a negative id is refused once the layout
-- has been read (`_given` parses it, so a malformed layout is the error named first).

-- Unix ms of an id's timestamp.
CREATE OR REPLACE FUNCTION snowfleet.timestamp_ms(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 AND snowfleet._given(layout) THEN snowfleet._negative_id(id, NULL::bigint)
              ELSE (id >> snowfleet._ts_shift(layout)) + snowfleet._epoch(layout) END
$$;

-- An id's timestamp as a timestamptz.
CREATE OR REPLACE FUNCTION snowfleet.timestamp(id bigint, layout text DEFAULT 'default')
RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 AND snowfleet._given(layout) THEN snowfleet._negative_id(id, NULL::timestamptz)
              ELSE snowfleet._from_window_ms((id >> snowfleet._ts_shift(layout)) + snowfleet._epoch(layout),
                                             layout) END
$$;

-- An id's node (datacenter and machine together).
CREATE OR REPLACE FUNCTION snowfleet.node_id(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 AND snowfleet._given(layout) THEN snowfleet._negative_id(id, NULL::bigint)
              ELSE (id >> snowfleet._seq_bits(layout)) & snowfleet._max_node(layout) END
$$;

-- The datacenter half of an id's node (0 for an unsplit layout).
CREATE OR REPLACE FUNCTION snowfleet.datacenter_id(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 AND snowfleet._given(layout) THEN snowfleet._negative_id(id, NULL::bigint)
              ELSE (id >> (snowfleet._seq_bits(layout) + snowfleet._machine_bits(layout))) &
                   snowfleet._max_datacenter(layout) END
$$;

-- The machine half of an id's node (the node id for an unsplit layout).
CREATE OR REPLACE FUNCTION snowfleet.machine_id(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 AND snowfleet._given(layout) THEN snowfleet._negative_id(id, NULL::bigint)
              ELSE (id >> snowfleet._seq_bits(layout)) & snowfleet._max_machine(layout) END
$$;

-- An id's sequence within its node's millisecond.
CREATE OR REPLACE FUNCTION snowfleet.sequence(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN id < 0 AND snowfleet._given(layout) THEN snowfleet._negative_id(id, NULL::bigint)
              ELSE id & snowfleet._max_seq(layout) END
$$;

-- Every field of an id at once.
CREATE OR REPLACE FUNCTION snowfleet.decode(id bigint, layout text DEFAULT 'default')
RETURNS snowfleet.decoded LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN id >= 0 AND snowfleet._given(layout) THEN ROW(
      (id >> snowfleet._ts_shift(layout)) + snowfleet._epoch(layout),
      snowfleet._from_window_ms((id >> snowfleet._ts_shift(layout)) + snowfleet._epoch(layout), layout),
      (id >> snowfleet._seq_bits(layout)) & snowfleet._max_node(layout),
      (id >> (snowfleet._seq_bits(layout) + snowfleet._machine_bits(layout))) &
        snowfleet._max_datacenter(layout),
      (id >> snowfleet._seq_bits(layout)) & snowfleet._max_machine(layout),
      id & snowfleet._max_seq(layout))::snowfleet.decoded
    WHEN id < 0 AND snowfleet._given(layout) THEN snowfleet._negative_id(id, NULL::snowfleet.decoded)
  END
$$;

------------------------------------------------------------------------------------------
-- Composing an id and the ids of a time. Any NULL argument gives NULL before anything is
-- checked; then the layout, the timestamp, the node and the sequence, in the core's order.

-- Packs fields into an id (the core's compose); nothing is masked.
CREATE OR REPLACE FUNCTION snowfleet.compose_ms(timestamp_ms bigint, node_id bigint,
  sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN timestamp_ms IS NULL OR node_id IS NULL OR sequence IS NULL
         OR NOT snowfleet._given(layout) THEN NULL
    WHEN timestamp_ms < snowfleet._epoch(layout) OR timestamp_ms > snowfleet._last_ms(layout) THEN
      snowfleet._outside('timestamp_ms', timestamp_ms, snowfleet._epoch(layout),
                         snowfleet._last_ms(layout), layout)
    WHEN node_id < 0 OR node_id > snowfleet._max_node(layout) THEN
      snowfleet._field('node_id', node_id, snowfleet._max_node(layout))
    WHEN sequence < 0 OR sequence > snowfleet._max_seq(layout) THEN
      snowfleet._field('sequence', sequence, snowfleet._max_seq(layout))
    ELSE ((timestamp_ms - snowfleet._epoch(layout)) << snowfleet._ts_shift(layout)) |
         (node_id << snowfleet._seq_bits(layout)) | sequence
  END
$$;

-- compose_ms with the node as datacenter + machine.
CREATE OR REPLACE FUNCTION snowfleet.compose_split_ms(timestamp_ms bigint, datacenter_id bigint,
  machine_id bigint, sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN timestamp_ms IS NULL OR datacenter_id IS NULL OR machine_id IS NULL OR sequence IS NULL
         OR NOT snowfleet._given(layout) THEN NULL
    WHEN timestamp_ms < snowfleet._epoch(layout) OR timestamp_ms > snowfleet._last_ms(layout) THEN
      snowfleet._outside('timestamp_ms', timestamp_ms, snowfleet._epoch(layout),
                         snowfleet._last_ms(layout), layout)
    WHEN datacenter_id < 0 OR datacenter_id > snowfleet._max_datacenter(layout) THEN
      snowfleet._field('datacenter_id', datacenter_id, snowfleet._max_datacenter(layout))
    WHEN machine_id < 0 OR machine_id > snowfleet._max_machine(layout) THEN
      snowfleet._field('machine_id', machine_id, snowfleet._max_machine(layout))
    WHEN sequence < 0 OR sequence > snowfleet._max_seq(layout) THEN
      snowfleet._field('sequence', sequence, snowfleet._max_seq(layout))
    ELSE ((timestamp_ms - snowfleet._epoch(layout)) << snowfleet._ts_shift(layout)) |
         (((datacenter_id << snowfleet._machine_bits(layout)) | machine_id)
           << snowfleet._seq_bits(layout)) | sequence
  END
$$;

-- The lowest id any node can mint in Unix millisecond ms (node 0, sequence 0).
CREATE OR REPLACE FUNCTION snowfleet.min_id_ms(ms bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN ms IS NULL OR NOT snowfleet._given(layout) THEN NULL
    WHEN ms < snowfleet._epoch(layout) OR ms > snowfleet._last_ms(layout) THEN
      snowfleet._outside('timestamp_ms', ms, snowfleet._epoch(layout), snowfleet._last_ms(layout),
                         layout)
    ELSE (ms - snowfleet._epoch(layout)) << snowfleet._ts_shift(layout)
  END
$$;

-- The highest id any node can mint in Unix millisecond ms (every node and sequence bit set).
CREATE OR REPLACE FUNCTION snowfleet.max_id_ms(ms bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN ms IS NULL OR NOT snowfleet._given(layout) THEN NULL
    WHEN ms < snowfleet._epoch(layout) OR ms > snowfleet._last_ms(layout) THEN
      snowfleet._outside('timestamp_ms', ms, snowfleet._epoch(layout), snowfleet._last_ms(layout),
                         layout)
    ELSE ((ms - snowfleet._epoch(layout)) << snowfleet._ts_shift(layout)) |
         ((1::bigint << snowfleet._ts_shift(layout)) - 1)
  END
$$;

-- Inclusive bounds (first, last) of the ids stamped in [start_ms, end_ms): WHERE id BETWEEN
-- first AND last. slack_ms widens the upper bound only, never past the layout's last ms: a
-- monotonic generator may stamp ids up to its max_drift_ms ahead of the wall clock, so pass
-- that to find every id minted in the range (strict generators need none). The core's rules:
-- start in the window, end after start (an empty range is refused as such, [epoch, epoch)
-- too), end in (epoch, last ms + 1], slack >= 0.
CREATE OR REPLACE FUNCTION snowfleet.id_range_ms(start_ms bigint, end_ms bigint,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS snowfleet.id_bounds LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN start_ms IS NULL OR end_ms IS NULL OR slack_ms IS NULL OR NOT snowfleet._given(layout)
      THEN NULL
    WHEN start_ms < snowfleet._epoch(layout) OR start_ms > snowfleet._last_ms(layout) THEN
      ROW(snowfleet._outside('start_ms', start_ms, snowfleet._epoch(layout),
                             snowfleet._last_ms(layout), layout), NULL::bigint)::snowfleet.id_bounds
    WHEN end_ms <= start_ms THEN
      ROW(snowfleet._fail('INVALID_ARGUMENT', 'end_ms must be after start_ms (the range '
        '[start_ms, end_ms) is half-open), got start_ms=' || start_ms::text || ' and end_ms=' ||
        end_ms::text, NULL::bigint), NULL::bigint)::snowfleet.id_bounds
    WHEN end_ms <= snowfleet._epoch(layout) OR end_ms > snowfleet._last_ms(layout) + 1 THEN
      ROW(snowfleet._outside('end_ms', end_ms, snowfleet._epoch(layout) + 1,
                             snowfleet._last_ms(layout) + 1, layout), NULL::bigint)::snowfleet.id_bounds
    WHEN slack_ms < 0 THEN
      ROW(snowfleet._fail('INVALID_ARGUMENT', 'slack_ms must be >= 0, got ' || slack_ms::text,
        NULL::bigint), NULL::bigint)::snowfleet.id_bounds
    ELSE ROW(
      (start_ms - snowfleet._epoch(layout)) << snowfleet._ts_shift(layout),
      ((CASE WHEN slack_ms >= snowfleet._last_ms(layout) - (end_ms - 1)
             THEN snowfleet._last_ms(layout) ELSE end_ms - 1 + slack_ms END
        - snowfleet._epoch(layout)) << snowfleet._ts_shift(layout)) |
      ((1::bigint << snowfleet._ts_shift(layout)) - 1))::snowfleet.id_bounds
  END
$$;

------------------------------------------------------------------------------------------
-- UUIDv7 (RFC 9562): unix_ts_ms (48) | ver 7 | counter (26, around the variant) | random (48).

-- The high and low 64 bits of a UUID, as bigint (two's complement).
CREATE OR REPLACE FUNCTION snowfleet._uuid_hi(u uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT ('x' || replace(substr(u::text, 1, 18), '-', ''))::bit(64)::bigint $$;
CREATE OR REPLACE FUNCTION snowfleet._uuid_lo(u uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT ('x' || replace(substr(u::text, 20), '-', ''))::bit(64)::bigint $$;
-- Its unix_ts_ms (the first 48 bits), in few enough operations for from_ms to be inlined
-- around it.
CREATE OR REPLACE FUNCTION snowfleet._uuid_ms(u uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT ('x' || substr(u::text, 1, 8) || substr(u::text, 10, 4))::bit(48)::bigint $$;

-- The core's decode_uuid7 error for a UUID that is not version 7 with variant 10.
CREATE OR REPLACE FUNCTION snowfleet._not_uuid7(u uuid, result_type anyelement)
RETURNS anyelement LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1 AS $$
  SELECT snowfleet._fail('INVALID_ARGUMENT', 'not a UUIDv7: ' || u::text || ' has version ' ||
    ((snowfleet._uuid_hi(u) >> 12) & 15)::text ||
    CASE WHEN (snowfleet._uuid_lo(u) >> 62) & 3 <> 2
         THEN ' and not the RFC 9562 variant (10)' ELSE '' END ||
    '; want version 7, variant 10', result_type)
$$;

-- The core's parse_uuid error for a text that is not a UUID (36 characters 8-4-4-4-12 or 32
-- hex digits); the length counts characters, and a non-ASCII character is named at its
-- character position (every character before it is ASCII), as the core does.
CREATE OR REPLACE FUNCTION snowfleet._not_uuid(t text, result_type anyelement)
RETURNS anyelement LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE COST 1 AS $$
DECLARE
  b bytea := convert_to(t, 'UTF8');
  n integer := length(t);
  why text;
  c integer;
BEGIN
  IF n NOT IN (32, 36) THEN
    why := n || ' characters';
  ELSIF octet_length(t) <> n THEN
    FOR i IN 1 .. n LOOP
      IF octet_length(substr(t, i, 1)) > 1 THEN
        why := 'bad character ' || snowfleet._quote(substr(t, i, 1)) || ' at position ' || (i - 1);
        EXIT;
      END IF;
    END LOOP;
  ELSE
    IF n = 36 THEN
      SELECT 'no ''-'' at position ' || p INTO why FROM unnest(ARRAY[8, 13, 18, 23]) p
       WHERE get_byte(b, p) <> 45 ORDER BY p LIMIT 1;
    END IF;
    IF why IS NULL THEN
      FOR i IN 0 .. n - 1 LOOP
        CONTINUE WHEN n = 36 AND i IN (8, 13, 18, 23);
        c := get_byte(b, i);
        IF NOT (c BETWEEN 48 AND 57 OR c BETWEEN 65 AND 70 OR c BETWEEN 97 AND 102) THEN
          why := 'bad character ' ||
            CASE WHEN c >= 32 AND c < 127 THEN '''' || chr(c) || ''''
                 ELSE '''\x' || lpad(to_hex(c), 2, '0') || '''' END ||
            ' at position ' || i;
          EXIT;
        END IF;
      END LOOP;
    END IF;
  END IF;
  RETURN snowfleet._fail('INVALID_ARGUMENT', 'not a UUID: ' || snowfleet._quote(t) || ' (' || why ||
    '; a UUID is 36 characters, 8-4-4-4-12 hex digits, or 32 hex digits)', result_type);
END $$;

CREATE OR REPLACE FUNCTION snowfleet._is_uuid_text(t text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT t ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
      OR t ~ '^[0-9a-fA-F]{32}$'
$$;

-- A UUIDv7's fields: its Unix ms (and as a timestamptz), the 26-bit counter, the 48 random bits.
CREATE OR REPLACE FUNCTION snowfleet.uuid7_decode(uuid uuid)
RETURNS snowfleet.uuid7_fields LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN (snowfleet._uuid_hi(uuid) >> 12) & 15 = 7 AND (snowfleet._uuid_lo(uuid) >> 62) & 3 = 2
      THEN ROW(snowfleet._uuid_ms(uuid),
               snowfleet.from_ms(snowfleet._uuid_ms(uuid)),
               ((snowfleet._uuid_hi(uuid) & 4095) << 14) | ((snowfleet._uuid_lo(uuid) >> 48) & 16383),
               snowfleet._uuid_lo(uuid) & 281474976710655)::snowfleet.uuid7_fields
    WHEN uuid IS NOT NULL THEN snowfleet._not_uuid7(uuid, NULL::snowfleet.uuid7_fields)
  END
$$;

-- uuid7_decode of a UUID text, read by the core's rules (not PostgreSQL's uuid input,
-- which also takes braces and other groupings).
CREATE OR REPLACE FUNCTION snowfleet.uuid7_decode(uuid text)
RETURNS snowfleet.uuid7_fields LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN snowfleet._is_uuid_text(uuid) THEN snowfleet.uuid7_decode(uuid::uuid)
    WHEN uuid IS NOT NULL THEN snowfleet._not_uuid(uuid, NULL::snowfleet.uuid7_fields)
  END
$$;

-- A UUIDv7's time.
CREATE OR REPLACE FUNCTION snowfleet.uuid7_timestamp(uuid uuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN (snowfleet._uuid_hi(uuid) >> 12) & 15 = 7 AND (snowfleet._uuid_lo(uuid) >> 62) & 3 = 2
      THEN snowfleet.from_ms(snowfleet._uuid_ms(uuid))
    WHEN uuid IS NOT NULL THEN snowfleet._not_uuid7(uuid, NULL::timestamptz)
  END
$$;

CREATE OR REPLACE FUNCTION snowfleet.uuid7_timestamp(uuid text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN snowfleet._is_uuid_text(uuid) THEN snowfleet.uuid7_timestamp(uuid::uuid)
    WHEN uuid IS NOT NULL THEN snowfleet._not_uuid(uuid, NULL::timestamptz)
  END
$$;

-- BEGIN COMMON OVERLOADS: the overloads over the functions above, the same in the
-- extension (its Makefile copies this section into its install script).

-- A time as a timestamptz, as an RFC 3339 text (read by the core's rules, so a leap second
-- or a missing offset is refused: an untyped literal is text), or as a timestamp without
-- time zone (refused: it names no instant, and PostgreSQL would cast it with the session's
-- TimeZone).
CREATE OR REPLACE FUNCTION snowfleet._naive(name text, t timestamp) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'INVALID_ARGUMENT: ' || name ||
    ' must be a timestamptz (an instant), got the timestamp without time zone ' || t::text ||
    ': add its offset or write t AT TIME ZONE ''UTC''';
END $$;

CREATE OR REPLACE FUNCTION snowfleet.compose("time" timestamptz, node_id bigint,
  sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT snowfleet.compose_ms(snowfleet.to_ms("time"), node_id, sequence, layout)
$$;
CREATE OR REPLACE FUNCTION snowfleet.compose("time" text, node_id bigint,
  sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT snowfleet.compose_ms(snowfleet.parse_time_ms("time"), node_id, sequence, layout)
$$;
CREATE OR REPLACE FUNCTION snowfleet.compose("time" timestamp, node_id bigint,
  sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN node_id IS NOT NULL AND sequence IS NOT NULL AND layout IS NOT NULL
              THEN snowfleet._naive('time', "time") END
$$;

CREATE OR REPLACE FUNCTION snowfleet.min_id("time" timestamptz, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT snowfleet.min_id_ms(snowfleet.to_ms("time"), layout) $$;
CREATE OR REPLACE FUNCTION snowfleet.min_id("time" text, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT snowfleet.min_id_ms(snowfleet.parse_time_ms("time"), layout) $$;
CREATE OR REPLACE FUNCTION snowfleet.min_id("time" timestamp, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT CASE WHEN layout IS NOT NULL THEN snowfleet._naive('time', "time") END $$;

CREATE OR REPLACE FUNCTION snowfleet.max_id("time" timestamptz, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT snowfleet.max_id_ms(snowfleet.to_ms("time"), layout) $$;
CREATE OR REPLACE FUNCTION snowfleet.max_id("time" text, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT snowfleet.max_id_ms(snowfleet.parse_time_ms("time"), layout) $$;
CREATE OR REPLACE FUNCTION snowfleet.max_id("time" timestamp, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT CASE WHEN layout IS NOT NULL THEN snowfleet._naive('time', "time") END $$;

-- id_range over instants: both bounds timestamptz, both texts, or one of each (so a text
-- bound is read by the core's rules however the other is given); a timestamp without time
-- zone as either bound is refused (unless an argument is NULL: then the result is NULL).
CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamptz, "end" timestamptz,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS snowfleet.id_bounds LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT snowfleet.id_range_ms(snowfleet.to_ms(start), snowfleet.to_ms("end"), slack_ms, layout)
$$;
CREATE OR REPLACE FUNCTION snowfleet.id_range(start text, "end" text,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS snowfleet.id_bounds LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT snowfleet.id_range_ms(snowfleet.parse_time_ms(start), snowfleet.parse_time_ms("end"),
                               slack_ms, layout)
$$;
CREATE OR REPLACE FUNCTION snowfleet.id_range(start text, "end" timestamptz,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS snowfleet.id_bounds LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT snowfleet.id_range_ms(snowfleet.parse_time_ms(start), snowfleet.to_ms("end"),
                               slack_ms, layout)
$$;
CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamptz, "end" text,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS snowfleet.id_bounds LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT snowfleet.id_range_ms(snowfleet.to_ms(start), snowfleet.parse_time_ms("end"),
                               slack_ms, layout)
$$;
CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamp, "end" timestamp,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS snowfleet.id_bounds LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN start IS NOT NULL AND "end" IS NOT NULL AND slack_ms IS NOT NULL
              AND layout IS NOT NULL
              THEN ROW(snowfleet._naive('start', start), NULL)::snowfleet.id_bounds END
$$;
CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamp, "end" timestamptz,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS snowfleet.id_bounds LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN start IS NOT NULL AND "end" IS NOT NULL AND slack_ms IS NOT NULL
              AND layout IS NOT NULL
              THEN ROW(snowfleet._naive('start', start), NULL)::snowfleet.id_bounds END
$$;
CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamptz, "end" timestamp,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS snowfleet.id_bounds LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN start IS NOT NULL AND "end" IS NOT NULL AND slack_ms IS NOT NULL
              AND layout IS NOT NULL
              THEN ROW(snowfleet._naive('end', "end"), NULL)::snowfleet.id_bounds END
$$;

-- END COMMON OVERLOADS
