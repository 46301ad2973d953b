-- The extension's C functions (sql/extension/*.cc, over the core). The Makefile writes the
-- install script snowfleet--VERSION.sql from this file and the two common sections of the
-- plain-SQL file (sql/postgresql/snowfleet.sql): its result types before these functions,
-- its overloads written in SQL over them after. Every function has the name, arguments and
-- results of its plain-SQL namesake; each is IMMUTABLE, STRICT and PARALLEL SAFE, except the
-- minting functions at the end, which the plain-SQL file does not have.
\echo Use "CREATE EXTENSION snowfleet" to load this file. \quit

CREATE FUNCTION snowfleet.layout(layout text DEFAULT 'default') RETURNS snowfleet.layout
AS 'MODULE_PATHNAME', 'snowfleet_layout' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.layout_text(layout text DEFAULT 'default') RETURNS text
AS 'MODULE_PATHNAME', 'snowfleet_layout_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION snowfleet.to_ms(t timestamptz) RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_to_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.from_ms(ms bigint) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'snowfleet_from_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.parse_time_ms(text text) RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_parse_time_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.parse_time(text text) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'snowfleet_parse_time' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION snowfleet.parse_id(text text) RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_parse_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.format_id(id bigint) RETURNS text
AS 'MODULE_PATHNAME', 'snowfleet_format_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.parse_base32(text text) RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_parse_base32' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.format_base32(id bigint) RETURNS text
AS 'MODULE_PATHNAME', 'snowfleet_format_base32' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.parse_base62(text text) RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_parse_base62' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.format_base62(id bigint) RETURNS text
AS 'MODULE_PATHNAME', 'snowfleet_format_base62' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.parse_id_text(text text) RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_parse_id_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION snowfleet.timestamp_ms(id bigint, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_timestamp_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.timestamp(id bigint, layout text DEFAULT 'default')
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'snowfleet_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.node_id(id bigint, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_node_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.datacenter_id(id bigint, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_datacenter_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.machine_id(id bigint, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_machine_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.sequence(id bigint, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_sequence' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.decode(id bigint, layout text DEFAULT 'default')
RETURNS snowfleet.decoded
AS 'MODULE_PATHNAME', 'snowfleet_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION snowfleet.compose_ms(timestamp_ms bigint, node_id bigint,
  sequence bigint DEFAULT 0, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_compose_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.compose_split_ms(timestamp_ms bigint, datacenter_id bigint,
  machine_id bigint, sequence bigint DEFAULT 0, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_compose_split_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION snowfleet.min_id_ms(ms bigint, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_min_id_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.max_id_ms(ms bigint, layout text DEFAULT 'default') RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_max_id_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.id_range_ms(start_ms bigint, end_ms bigint,
  slack_ms bigint DEFAULT 0, layout text DEFAULT 'default') RETURNS snowfleet.id_bounds
AS 'MODULE_PATHNAME', 'snowfleet_id_range_ms' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION snowfleet.uuid7_decode(uuid uuid) RETURNS snowfleet.uuid7_fields
AS 'MODULE_PATHNAME', 'snowfleet_uuid7_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.uuid7_decode(uuid text) RETURNS snowfleet.uuid7_fields
AS 'MODULE_PATHNAME', 'snowfleet_uuid7_decode_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.uuid7_timestamp(uuid uuid) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'snowfleet_uuid7_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowfleet.uuid7_timestamp(uuid text) RETURNS timestamptz
AS 'MODULE_PATHNAME', 'snowfleet_uuid7_timestamp_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Minting (extension only: the plain-SQL file cannot mint). VOLATILE; PARALLEL RESTRICTED:
-- a parallel worker would mint correct ids from its own generator, but a session's ids
-- then would not come from one generator in statement order.
CREATE FUNCTION snowfleet.next_id() RETURNS bigint
AS 'MODULE_PATHNAME', 'snowfleet_next_id' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
-- A UUIDv7 for uuid columns (a generator per backend: no shared memory needed).
CREATE FUNCTION snowfleet.next_uuid7() RETURNS uuid
AS 'MODULE_PATHNAME', 'snowfleet_next_uuid7' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
