-- snowfleet for PostgreSQL: read, compose and range-scan snowfleet ids in SQL.
--
-- Plain SQL and PL/pgSQL, no C extension, so it installs on managed databases too:
--   psql -d mydb -f sql/postgresql/snowfleet.sql        (re-running it replaces the functions)
-- Everything lives in the schema "snowfleet". Every function is IMMUTABLE (its result
-- depends on its arguments only), so it can be used in indexes and in range predicates that
-- the planner folds into an index scan:
--   SELECT * FROM events
--    WHERE id BETWEEN snowfleet.min_id('2026-12-01T00:00:00Z')
--                 AND snowfleet.max_id('2026-12-01T23:59:59.999Z');
-- The same rules as the C++ core (conformance/vectors run through these functions):
--   * layout: a preset name (default, twitter, discord) or TIMESTAMP.NODE.SEQUENCE@EPOCH_MS /
--     TIMESTAMP.DATACENTER.MACHINE.SEQUENCE@EPOCH_MS, e.g. '41.10.12@1704067200000'; the
--     argument is last and defaults to 'default';
--   * nothing is masked: a field outside its range, a time outside the layout's window, a
--     malformed layout raise an error whose message starts with the core's error code
--     (INVALID_ARGUMENT: ... with SQLSTATE 22023, TIMESTAMP_OUT_OF_RANGE: ... with 22008);
--   * a timestamptz must be a whole millisecond (timestamptz holds microseconds; an id's
--     timestamp is whole ms and nothing is rounded silently): truncate it first with
--     date_trunc('milliseconds', t).

SET client_min_messages = warning;
CREATE SCHEMA IF NOT EXISTS snowfleet;

-- A parsed layout: the node field is datacenter_bits + machine_bits (datacenter_bits 0 when
-- unsplit).
-- (Created once: re-running the file keeps it, as the functions that use it.)
DO $$
BEGIN
  CREATE TYPE snowfleet.layout AS (
    epoch_ms bigint,
    timestamp_bits integer,
    datacenter_bits integer,
    machine_bits integer,
    sequence_bits integer
  );
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

CREATE OR REPLACE FUNCTION snowfleet._invalid(message text) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RAISE EXCEPTION 'INVALID_ARGUMENT: %', message USING ERRCODE = '22023';
END $$;

CREATE OR REPLACE FUNCTION snowfleet._out_of_range(message text) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RAISE EXCEPTION 'TIMESTAMP_OUT_OF_RANGE: %', message USING ERRCODE = '22008';
END $$;

-- A decimal integer of 1 to 19 ASCII digits that fits in bigint, else NULL (the core's
-- parse_uint).
CREATE OR REPLACE FUNCTION snowfleet._uint(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN t ~ '^[0-9]{1,19}$' AND t::numeric <= 9223372036854775807
              THEN t::bigint END
$$;

-- Parses a layout text: a preset name or the text form. The rules and messages of the
-- core's Layout::parse / Layout::create.
CREATE OR REPLACE FUNCTION snowfleet.layout(layout text DEFAULT 'default')
RETURNS snowfleet.layout LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  q text := '''' || coalesce(layout, '') || '''';
  at_pos integer;
  epoch bigint;
  parts text[];
  bits bigint[] := '{}';
  b bigint;
  ts bigint; dc bigint; machine bigint; seq bigint;
  node_name text := 'node_bits';
BEGIN
  IF layout IS NULL THEN
    PERFORM snowfleet._invalid('layout must be a preset or a layout text, got NULL');
  END IF;
  IF layout = 'default' THEN RETURN ROW(1704067200000, 41, 0, 10, 12)::snowfleet.layout; END IF;
  IF layout = 'twitter' THEN RETURN ROW(1288834974657, 41, 5, 5, 12)::snowfleet.layout; END IF;
  IF layout = 'discord' THEN RETURN ROW(1420070400000, 41, 5, 5, 12)::snowfleet.layout; END IF;
  at_pos := position('@' IN layout);
  IF at_pos = 0 THEN
    PERFORM snowfleet._invalid('layout ' || q || ' is not a preset (default, twitter, discord) '
      'nor of the form TIMESTAMP.NODE.SEQUENCE@EPOCH_MS or '
      'TIMESTAMP.DATACENTER.MACHINE.SEQUENCE@EPOCH_MS');
  END IF;
  epoch := snowfleet._uint(substr(layout, at_pos + 1));
  IF epoch IS NULL THEN
    PERFORM snowfleet._invalid('layout ' || q ||
      ': the epoch after ''@'' must be a non-negative integer of ms');
  END IF;
  parts := string_to_array(substr(layout, 1, at_pos - 1), '.');
  IF array_length(parts, 1) IS NULL OR array_length(parts, 1) > 4 THEN
    PERFORM snowfleet._invalid('layout ' || q || ': bit widths must be 3 or 4 dot-separated integers');
  END IF;
  FOR i IN 1 .. array_length(parts, 1) LOOP
    b := snowfleet._uint(parts[i]);
    IF b IS NULL OR b > 63 THEN
      PERFORM snowfleet._invalid('layout ' || q || ': bit widths must be 3 or 4 dot-separated integers');
    END IF;
    bits := bits || b;
  END LOOP;
  IF array_length(bits, 1) < 3 THEN
    PERFORM snowfleet._invalid('layout ' || q || ': bit widths must be 3 or 4 dot-separated integers');
  END IF;
  ts := bits[1];
  IF array_length(bits, 1) = 3 THEN
    dc := 0; machine := bits[2]; seq := bits[3];
  ELSE
    dc := bits[2]; machine := bits[3]; seq := bits[4];
    IF dc > 0 THEN node_name := 'machine_bits'; END IF;  -- a 0-bit datacenter is unsplit
  END IF;
  IF epoch > 253402300799999 THEN
    PERFORM snowfleet._invalid('layout ' || q || ': layout epoch_ms must be in [0, 253402300799999], got ' || epoch);
  END IF;
  IF ts < 1 OR ts > 52 THEN
    PERFORM snowfleet._invalid('layout ' || q || ': layout timestamp_bits must be in [1, 52], got ' || ts);
  END IF;
  IF dc > 62 THEN
    PERFORM snowfleet._invalid('layout ' || q || ': layout datacenter_bits must be in [0, 62], got ' || dc);
  END IF;
  IF machine > 62 THEN
    PERFORM snowfleet._invalid('layout ' || q || ': layout ' || node_name || ' must be in [0, 62], got ' || machine);
  END IF;
  IF seq > 62 THEN
    PERFORM snowfleet._invalid('layout ' || q || ': layout sequence_bits must be in [0, 62], got ' || seq);
  END IF;
  IF ts + dc + machine + seq <> 63 THEN
    PERFORM snowfleet._invalid('layout ' || q ||
      ': layout fields must add up to 63 bits (plus the sign bit), got ' || (ts + dc + machine + seq));
  END IF;
  RETURN ROW(epoch, ts, dc, machine, seq)::snowfleet.layout;
END $$;

-- The canonical text form of a layout, e.g. '41.10.12@1704067200000'.
CREATE OR REPLACE FUNCTION snowfleet.layout_text(layout text DEFAULT 'default') RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  RETURN l.timestamp_bits || '.' ||
         CASE WHEN l.datacenter_bits > 0 THEN l.datacenter_bits || '.' ELSE '' END ||
         l.machine_bits || '.' || l.sequence_bits || '@' || l.epoch_ms;
END $$;

-- Unix ms of a timestamptz, which must be a whole millisecond.
CREATE OR REPLACE FUNCTION snowfleet.to_ms(t timestamptz) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE us numeric;
BEGIN
  IF t IS NULL THEN RETURN NULL; END IF;
  IF NOT isfinite(t) THEN
    PERFORM snowfleet._out_of_range('time must be finite, got ' || t::text);
  END IF;
  us := (extract(epoch FROM t) * 1000000);
  IF us % 1000 <> 0 THEN
    PERFORM snowfleet._invalid('time must be a whole millisecond (an id''s timestamp is whole ms; '
      'use date_trunc(''milliseconds'', t)), got ' || to_char(t AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'));
  END IF;
  RETURN (us / 1000)::bigint;
END $$;

-- The timestamptz of Unix ms, exact: whole hours are int64 arithmetic in make_interval (ms *
-- interval '1 millisecond' is a float product, which loses microseconds past the year 4250).
-- The interval has no day or month part, so adding it does not depend on the TimeZone.
CREATE OR REPLACE FUNCTION snowfleet.from_ms(ms bigint) RETURNS timestamptz
LANGUAGE sql IMMUTABLE AS $$
  SELECT to_timestamp(0) + make_interval(hours => (ms / 3600000)::integer,
                                         secs => (ms % 3600000) / 1000.0)
$$;

CREATE OR REPLACE FUNCTION snowfleet._check_id(id bigint) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF id < 0 THEN PERFORM snowfleet._invalid('id must be non-negative, got ' || id); END IF;
END $$;

-- Parses a decimal id: 1 to 19 ASCII digits, at most 2^63 - 1 (the core's parse_id).
CREATE OR REPLACE FUNCTION snowfleet.parse_id(text text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE v bigint := snowfleet._uint(text);
BEGIN
  IF v IS NULL THEN
    PERFORM snowfleet._invalid('id must be a decimal integer in [0, 9223372036854775807], got ''' ||
      coalesce(text, 'NULL') || '''');
  END IF;
  RETURN v;
END $$;

-- Unix ms of an id's timestamp.
CREATE OR REPLACE FUNCTION snowfleet.timestamp_ms(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  PERFORM snowfleet._check_id(id);
  RETURN (id >> (63 - l.timestamp_bits)) + l.epoch_ms;
END $$;

-- An id's timestamp as a timestamptz.
CREATE OR REPLACE FUNCTION snowfleet.timestamp(id bigint, layout text DEFAULT 'default')
RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT snowfleet.from_ms(snowfleet.timestamp_ms(id, layout))
$$;

-- An id's node (datacenter and machine together).
CREATE OR REPLACE FUNCTION snowfleet.node_id(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  PERFORM snowfleet._check_id(id);
  RETURN (id >> l.sequence_bits) & ((1::bigint << (l.datacenter_bits + l.machine_bits)) - 1);
END $$;

-- The datacenter half of an id's node (0 for an unsplit layout).
CREATE OR REPLACE FUNCTION snowfleet.datacenter_id(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  RETURN snowfleet.node_id(id, layout) >> l.machine_bits;
END $$;

-- The machine half of an id's node (the node id for an unsplit layout).
CREATE OR REPLACE FUNCTION snowfleet.machine_id(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  RETURN snowfleet.node_id(id, layout) & ((1::bigint << l.machine_bits) - 1);
END $$;

-- An id's sequence within its node's millisecond.
CREATE OR REPLACE FUNCTION snowfleet.sequence(id bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  PERFORM snowfleet._check_id(id);
  RETURN id & ((1::bigint << l.sequence_bits) - 1);
END $$;

-- Every field of an id at once.
CREATE OR REPLACE FUNCTION snowfleet.decode(id bigint, layout text DEFAULT 'default',
  OUT timestamp_ms bigint, OUT "time" timestamptz, OUT node_id bigint,
  OUT datacenter_id bigint, OUT machine_id bigint, OUT sequence bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT snowfleet.timestamp_ms(id, layout), snowfleet.timestamp(id, layout),
         snowfleet.node_id(id, layout), snowfleet.datacenter_id(id, layout),
         snowfleet.machine_id(id, layout), snowfleet.sequence(id, layout)
$$;

-- TIMESTAMP_OUT_OF_RANGE unless name's ms is in [lo, hi].
CREATE OR REPLACE FUNCTION snowfleet._check_time(l snowfleet.layout, name text, ms bigint,
  lo bigint, hi bigint) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF ms < lo OR ms > hi THEN
    PERFORM snowfleet._out_of_range(name || ' must be in [' || lo || ', ' || hi || '] for layout ' ||
      l.timestamp_bits || '.' ||
      CASE WHEN l.datacenter_bits > 0 THEN l.datacenter_bits || '.' ELSE '' END ||
      l.machine_bits || '.' || l.sequence_bits || '@' || l.epoch_ms || ', got ' || ms);
  END IF;
END $$;

CREATE OR REPLACE FUNCTION snowfleet._last_ms(l snowfleet.layout) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT l.epoch_ms + ((1::bigint << l.timestamp_bits) - 1)
$$;

CREATE OR REPLACE FUNCTION snowfleet._check_field(name text, v bigint, max bigint) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF v < 0 OR v > max THEN
    PERFORM snowfleet._invalid(name || ' must be in [0, ' || max || '], got ' || v);
  END IF;
END $$;

-- Packs fields into an id (the core's compose): the timestamp, then the node, then the
-- sequence is checked; nothing is masked.
CREATE OR REPLACE FUNCTION snowfleet.compose_ms(timestamp_ms bigint, node_id bigint,
  sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  PERFORM snowfleet._check_time(l, 'timestamp_ms', timestamp_ms, l.epoch_ms, snowfleet._last_ms(l));
  PERFORM snowfleet._check_field('node_id', node_id,
    (1::bigint << (l.datacenter_bits + l.machine_bits)) - 1);
  PERFORM snowfleet._check_field('sequence', sequence, (1::bigint << l.sequence_bits) - 1);
  RETURN ((timestamp_ms - l.epoch_ms) << (63 - l.timestamp_bits)) |
         (node_id << l.sequence_bits) | sequence;
END $$;

-- compose_ms with the node as datacenter + machine.
CREATE OR REPLACE FUNCTION snowfleet.compose_split_ms(timestamp_ms bigint, datacenter_id bigint,
  machine_id bigint, sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  PERFORM snowfleet._check_time(l, 'timestamp_ms', timestamp_ms, l.epoch_ms, snowfleet._last_ms(l));
  PERFORM snowfleet._check_field('datacenter_id', datacenter_id, (1::bigint << l.datacenter_bits) - 1);
  PERFORM snowfleet._check_field('machine_id', machine_id, (1::bigint << l.machine_bits) - 1);
  PERFORM snowfleet._check_field('sequence', sequence, (1::bigint << l.sequence_bits) - 1);
  RETURN ((timestamp_ms - l.epoch_ms) << (63 - l.timestamp_bits)) |
         (((datacenter_id << l.machine_bits) | machine_id) << l.sequence_bits) | sequence;
END $$;

CREATE OR REPLACE FUNCTION snowfleet.compose("time" timestamptz, node_id bigint,
  sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT snowfleet.compose_ms(snowfleet.to_ms("time"), node_id, sequence, layout)
$$;

-- The lowest id any node can mint in Unix millisecond ms (node 0, sequence 0).
CREATE OR REPLACE FUNCTION snowfleet.min_id_ms(ms bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  PERFORM snowfleet._check_time(l, 'timestamp_ms', ms, l.epoch_ms, snowfleet._last_ms(l));
  RETURN (ms - l.epoch_ms) << (63 - l.timestamp_bits);
END $$;

-- The highest id any node can mint in Unix millisecond ms (every node and sequence bit set).
CREATE OR REPLACE FUNCTION snowfleet.max_id_ms(ms bigint, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE l snowfleet.layout := snowfleet.layout(layout);
BEGIN
  PERFORM snowfleet._check_time(l, 'timestamp_ms', ms, l.epoch_ms, snowfleet._last_ms(l));
  RETURN ((ms - l.epoch_ms) << (63 - l.timestamp_bits)) |
         ((1::bigint << (63 - l.timestamp_bits)) - 1);
END $$;

CREATE OR REPLACE FUNCTION snowfleet.min_id("time" timestamptz, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT snowfleet.min_id_ms(snowfleet.to_ms("time"), layout)
$$;

CREATE OR REPLACE FUNCTION snowfleet.max_id("time" timestamptz, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT snowfleet.max_id_ms(snowfleet.to_ms("time"), layout)
$$;

-- Inclusive bounds (first, last) of the ids stamped in [start_ms, end_ms): WHERE id BETWEEN
-- first AND last. slack_ms widens the upper bound only, never past the layout's last ms: a
-- monotonic generator may stamp ids up to its max_drift_ms ahead of the wall clock, so pass
-- that to find every id minted in the range (strict generators need none). The core's rules:
-- start in the window, end in (epoch, last ms + 1], end after start, slack >= 0.
CREATE OR REPLACE FUNCTION snowfleet.id_range_ms(start_ms bigint, end_ms bigint,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default', OUT first bigint, OUT last bigint)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  l snowfleet.layout := snowfleet.layout(layout);
  last_ms bigint := snowfleet._last_ms(l);
  upper bigint;
BEGIN
  PERFORM snowfleet._check_time(l, 'start_ms', start_ms, l.epoch_ms, last_ms);
  PERFORM snowfleet._check_time(l, 'end_ms', end_ms, l.epoch_ms + 1, last_ms + 1);
  IF end_ms <= start_ms THEN
    PERFORM snowfleet._invalid('end_ms must be after start_ms (the range [start_ms, end_ms) is '
      'half-open), got start_ms=' || start_ms || ' and end_ms=' || end_ms);
  END IF;
  IF slack_ms < 0 THEN
    PERFORM snowfleet._invalid('slack_ms must be >= 0, got ' || slack_ms);
  END IF;
  upper := CASE WHEN slack_ms >= last_ms - (end_ms - 1) THEN last_ms ELSE end_ms - 1 + slack_ms END;
  first := snowfleet.min_id_ms(start_ms, layout);
  last := snowfleet.max_id_ms(upper, layout);
END $$;

CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamptz, "end" timestamptz,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default', OUT first bigint, OUT last bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT * FROM snowfleet.id_range_ms(snowfleet.to_ms(start), snowfleet.to_ms("end"), slack_ms, layout)
$$;

-- A timestamp without time zone names no instant (its meaning depends on the session's
-- TimeZone), like a naive datetime: these overloads refuse it rather than let PostgreSQL
-- cast it with the session's zone. An untyped literal ('2026-12-01T00:00:00Z') resolves to
-- the timestamptz functions above (timestamptz is the preferred type of its category).
CREATE OR REPLACE FUNCTION snowfleet._naive(name text, t timestamp) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  PERFORM snowfleet._invalid(name || ' must be a timestamptz (an instant), got the timestamp '
    'without time zone ' || t::text || ': add its offset or write t AT TIME ZONE ''UTC''');
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION snowfleet.min_id("time" timestamp, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT snowfleet._naive('time', "time") $$;

CREATE OR REPLACE FUNCTION snowfleet.max_id("time" timestamp, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT snowfleet._naive('time', "time") $$;

CREATE OR REPLACE FUNCTION snowfleet.compose("time" timestamp, node_id bigint,
  sequence bigint DEFAULT 0, layout text DEFAULT 'default')
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT snowfleet._naive('time', "time") $$;

CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamp, "end" timestamp,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default', OUT first bigint, OUT last bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT snowfleet._naive('start', start), NULL::bigint
$$;

-- One naive bound is refused too: without these, PostgreSQL casts it to timestamptz with the
-- session's TimeZone to call the timestamptz form.
CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamp, "end" timestamptz,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default', OUT first bigint, OUT last bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT snowfleet._naive('start', start), NULL::bigint
$$;

CREATE OR REPLACE FUNCTION snowfleet.id_range(start timestamptz, "end" timestamp,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default', OUT first bigint, OUT last bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT snowfleet._naive('end', "end"), NULL::bigint
$$;
