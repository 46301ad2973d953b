// snowfleet: Snowflake-style 64-bit ids with a clock-rewind guard and deadlines.
//
// This is the whole public API of the core. The Python, Node.js and Java packages are
// thin bindings over it; the CLI (`snowfleet`) is built from it too.
//
//   #include <snowfleet/snowfleet.hpp>
//
//   snowfleet::GeneratorOptions opts;
//   opts.node_id = 37;                                // default layout 41.10.12@1704067200000
//   snowfleet::Generator gen(opts);                   // strict mode, max_wait_ms = 5
//   int64_t id = gen.next_id();
//   snowfleet::Decoded d = snowfleet::decode(snowfleet::Layout(), id);
//   // d.timestamp_ms, d.node_id == 37, d.sequence
//
//   // Deterministic tests: the clock is an input.
//   auto clock = std::make_shared<snowfleet::ScriptedClock>(
//       std::vector<snowfleet::ScriptedClock::Segment>{{1737747358021}});   // frozen
//   opts.clock = clock;
//   snowfleet::Generator frozen(opts);
//   frozen.next_id();  // == 141264821508263936
//
// An id is `0 | timestamp | node | sequence` from the most significant bit down, where
// timestamp counts milliseconds since the layout's epoch and node may be split into
// datacenter and machine. Every failure is a snowfleet::Error carrying one ErrorKind from
// the closed list in errors.hpp; bindings map each kind to one host exception class.
//
// The API is split by concern into the headers below; including this one gives all of it.
#pragma once

#include "snowfleet/errors.hpp"     // ErrorKind, Error
#include "snowfleet/layout.hpp"     // Layout
#include "snowfleet/codec.hpp"      // compose, decode, parse_id, RFC 3339 times
#include "snowfleet/range.hpp"      // min_id, max_id, id_range: the ids of a time
#include "snowfleet/text_id.hpp"    // base32 / base62 text forms of an id
#include "snowfleet/clock.hpp"      // Clock, system_clock, ScriptedClock
#include "snowfleet/options.hpp"    // Mode, GeneratorOptions, GeneratorArgs, Stats, Status
#include "snowfleet/generator.hpp"  // Generator
#include "snowfleet/version.hpp"    // version()
#include "snowfleet/cli.hpp"        // run_cli (the snowfleet command line)
#include "snowfleet/uuid7.hpp"      // RandomSource, Uuid, Uuid7Generator (RFC 9562)
