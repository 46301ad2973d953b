-- The plain-SQL file's functions are inlined (run by scripts/test/sql.sh in a database
-- holding sql/postgresql/snowfleet.sql): EXPLAIN VERBOSE of each, over a table's columns
-- with the layout a constant, shows its body as an expression of the columns, with the
-- layout folded to constants. What remains of snowfleet in the plan is only what runs on
-- an error path (_fail and the PL/pgSQL that writes the core's messages) and to_ms (the
-- ms of a timestamptz column). (A time *text* per row, min_id(text_column), is parsed by
-- PL/pgSQL and the call is not inlined: docs/postgresql.md says to convert such a column.)
-- Any other function left as a call raises, and psql stops.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

CREATE TEMP TABLE inline_rows (id bigint, t timestamptz, s text, u uuid);

DO $$
DECLARE
  q text;
  line text;
  plan text;
  called text;
  allowed text[] := ARRAY['_fail', '_quote', '_text_id_fail', '_not_uuid', 'to_ms'];
  names text[] := ARRAY(SELECT DISTINCT p.proname::text FROM pg_proc p
                          JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'snowfleet');
BEGIN
  FOREACH q IN ARRAY ARRAY[
      'snowfleet.timestamp_ms(id)', 'snowfleet.timestamp(id)', 'snowfleet.node_id(id)',
      'snowfleet.datacenter_id(id, ''twitter'')', 'snowfleet.machine_id(id, ''twitter'')',
      'snowfleet.sequence(id)', 'snowfleet.decode(id)',
      'snowfleet.decode(id, ''41.5.5.12@1288834974657'')', '(snowfleet.decode(id)).node_id',
      'snowfleet.from_ms(id)', 'snowfleet.format_id(id)', 'snowfleet.format_base32(id)',
      'snowfleet.format_base62(id)', 'snowfleet.parse_id(s)', 'snowfleet.parse_base32(s)',
      'snowfleet.parse_base62(s)', 'snowfleet.parse_id_text(s)', 'snowfleet.compose_ms(id, 1, 2)',
      'snowfleet.compose_split_ms(id, 1, 2, 3, ''twitter'')', 'snowfleet.compose(t, 1)',
      'snowfleet.min_id_ms(id)', 'snowfleet.max_id_ms(id)', 'snowfleet.min_id(t)',
      'snowfleet.max_id(t)', 'snowfleet.id_range_ms(id, id + 1, 5)', 'snowfleet.id_range(t, t)',
      'snowfleet.uuid7_decode(u)', 'snowfleet.uuid7_timestamp(u)', 'snowfleet.uuid7_decode(s)',
      'snowfleet.uuid7_timestamp(s)'] LOOP
    -- A UUID's unix_ts_ms takes more operations to extract than the planner substitutes
    -- into from_ms's several uses of it: from_ms stays a call there (a few microseconds).
    allowed[6] := CASE WHEN q LIKE 'snowfleet.uuid7%' THEN 'from_ms' END;
    plan := '';
    FOR line IN EXECUTE 'EXPLAIN VERBOSE SELECT ' || q || ' FROM inline_rows' LOOP
      plan := plan || line || E'\n';
    END LOOP;
    FOR called IN SELECT DISTINCT m[1] FROM regexp_matches(plan, '([a-z_0-9]+)\(', 'g') m LOOP
      IF called = ANY (names) AND NOT called = ANY (allowed) THEN
        RAISE EXCEPTION '% is not inlined: % is called in%', q, called, E'\n' || plan;
      END IF;
    END LOOP;
  END LOOP;
END $$;

\pset format unaligned
\pset tuples_only on
\echo 'EXPLAIN VERBOSE of snowfleet.timestamp_ms(id) and snowfleet.decode(id) with the plain-SQL file:'
EXPLAIN VERBOSE SELECT snowfleet.timestamp_ms(id), (snowfleet.decode(id)).node_id FROM inline_rows;
