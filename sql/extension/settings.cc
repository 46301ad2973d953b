// The minting GUCs. snowfleet.node_id and snowfleet.layout are PGC_POSTMASTER: they name
// the id space whose state word lives in shared memory and whose high-water mark is in the
// data directory; a reload that changed them would make backends mint for another space
// from this one's word. snowfleet.mode, .max_wait_ms and .max_drift_ms are PGC_SIGHUP: each
// backend remakes its generator on the same word at its next call (the core lets strict and
// monotonic generators share a space). snowfleet.node_source (PGC_POSTMASTER) leases the
// node id instead: the background worker claims it (shared_mint.cc, node_lease.cc).
//
// While the module is preloaded, each value is checked alone (the node id against no
// layout): the others may not be read yet, in whatever order postgresql.conf lists them.
// Then check_settings_at_start() checks them together and refuses to start the server,
// naming the rule. Later (ALTER SYSTEM, a reload) every value is checked by the core
// combined with the other settings as they are: a refused value keeps the old one and the
// message names the core's rule.
#include <cfloat>
#include <climits>
#include <cstdio>
#include <cstring>
#include <utility>

#include "bridge.hpp"
#include "mint.hpp"
#include "pg.hpp"
#include "snowfleet/generator.hpp"

extern "C" {
#include "miscadmin.h"
#include "utils/guc.h"
}

namespace snowfleet_pg {
namespace {

int node_id = -1;  // not set: next_id() refuses, naming the core's range
char* layout_text = nullptr;
char* node_source_text = nullptr;
char* mode_text = nullptr;
double max_wait_ms = 5.0;
int max_drift_ms = 1000;
int test_clock_offset_ms = 0;

Settings current() {
  return Settings{node_id,
                  node_source_text ? node_source_text : "",
                  layout_text ? layout_text : "default",
                  mode_text ? mode_text : "strict",
                  max_wait_ms,
                  max_drift_ms,
                  test_clock_offset_ms};
}

// Whether a generator could be made with `s`, by making one on a word of its own; with
// `alone`, the node id is not checked (against a layout that may not be read yet).
bool try_generator(const Settings& s, bool alone, Failure& f) {
  return attempt(f, [&] {
    snowfleet::GeneratorOptions o = options_of(s);
    // Not set yet: next_id() names it. Leased: the worker's claim is in the layout's range.
    if (o.node_id == -1 || alone || s.node_source[0] != '\0') o.node_id = 0;
    std::atomic<int64_t> word{-1};
    o.shared.state = &word;
    o.shared.where = "a settings check";
    snowfleet::Generator g(std::move(o));
  });
}

// The rule between the two ways to give the node id, as a message.
bool both_node_settings(const Settings& s, char* out, size_t size) {
  if (s.node_source[0] == '\0' || s.node_id == -1) return false;
  snprintf(out, size,
           "INVALID_ARGUMENT: give snowfleet.node_id or snowfleet.node_source, not both "
           "(node_id %d, node_source \"%s\")",
           s.node_id, s.node_source);
  return true;
}

// A server runs in $PGDATA: a relative local: registry would be one per data directory,
// and two servers of one host would lease the same node id from their own registries.
bool relative_registry(const Settings& s, char* out, size_t size) {
  static const char kLocal[] = "local:";
  if (strncmp(s.node_source, kLocal, sizeof kLocal - 1) != 0) return false;
  const char* path = s.node_source + sizeof kLocal - 1;
  if (*path == '\0' || *path == '?' || *path == '/') return false;
  snprintf(out, size,
           "INVALID_ARGUMENT: snowfleet.node_source \"%s\": a local: registry must be an "
           "absolute path (a relative one is read from the data directory, one registry per "
           "server)",
           s.node_source);
  return true;
}

// Rules between settings, as a message; checked when all are read (at start, or later).
bool settings_rule(const Settings& s, char* out, size_t size) {
  return both_node_settings(s, out, size) || relative_registry(s, out, size);
}

bool check(const Settings& s) {
  char both[1024];
  const bool alone = process_shared_preload_libraries_in_progress;
  if (!alone && settings_rule(s, both, sizeof both)) {
    GUC_check_errdetail("%s", both);
    return false;
  }
  Failure f;
  const bool ok = try_generator(s, alone, f);
  if (!ok) GUC_check_errdetail("%s: %s", snowfleet::error_code(f.kind), f.message);
  return ok;
}

bool check_node_id(int* v, void**, GucSource) {
  Settings s = current();
  s.node_id = *v;
  return check(s);
}
bool check_node_source(char** v, void**, GucSource) {
  Settings s = current();
  s.node_source = *v ? *v : "";
  return check(s);
}
bool check_layout(char** v, void**, GucSource) {
  Settings s = current();
  s.layout = *v;
  return check(s);
}
bool check_mode(char** v, void**, GucSource) {
  Settings s = current();
  s.mode = *v;
  return check(s);
}
bool check_max_wait(double* v, void**, GucSource) {
  Settings s = current();
  s.max_wait_ms = *v;
  return check(s);
}
bool check_max_drift(int* v, void**, GucSource) {
  Settings s = current();
  s.max_drift_ms = *v;
  return check(s);
}

}  // namespace

Settings settings() noexcept { return current(); }

void check_settings_at_start() {
  const Settings s = current();
  char both[1024];
  if (settings_rule(s, both, sizeof both))
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("snowfleet: %s", both)));
  Failure f;
  if (try_generator(s, false, f)) return;
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("snowfleet: the settings do not go together: %s: %s",
                         snowfleet::error_code(f.kind), f.message)));
}

snowfleet::GeneratorOptions options_of(const Settings& s) {
  snowfleet::GeneratorOptions o;
  o.layout = snowfleet::Layout::parse(s.layout);
  o.node_id = s.node_id;
  o.mode = snowfleet::parse_mode(s.mode);
  o.max_wait_ms = s.max_wait_ms;
  o.max_drift_ms = s.max_drift_ms;
  return o;
}

// The postmaster's settings can only be defined while preloading (PostgreSQL ends the
// backend otherwise): loaded later, the module reads ids and next_id() refuses.
static void define_postmaster_settings() {
  DefineCustomIntVariable("snowfleet.node_id", "The node id in every id this server mints.",
                          "One per server of a fleet; -1: not set (snowfleet.next_id() refuses).",
                          &node_id, -1, INT_MIN, INT_MAX, PGC_POSTMASTER, 0, check_node_id,
                          nullptr, nullptr);
  DefineCustomStringVariable("snowfleet.layout", "The layout of minted ids: a preset or a text.",
                             "default, twitter, discord, or e.g. 41.10.12@1704067200000.",
                             &layout_text, "default", PGC_POSTMASTER, 0, check_layout, nullptr,
                             nullptr);
  DefineCustomStringVariable(
      "snowfleet.node_source", "A leased node id, claimed by a background worker.",
      "e.g. local:/var/lib/snowfleet or postgres://...; empty: snowfleet.node_id.",
      &node_source_text, "", PGC_POSTMASTER, GUC_SUPERUSER_ONLY, check_node_source, nullptr,
      nullptr);
}

void define_settings() {
  // Wide bounds: the core names the range (PostgreSQL would only say "outside the valid range").
  if (process_shared_preload_libraries_in_progress) define_postmaster_settings();
  DefineCustomStringVariable("snowfleet.mode", "strict or monotonic.", nullptr, &mode_text,
                             "strict", PGC_SIGHUP, 0, check_mode, nullptr, nullptr);
  DefineCustomRealVariable("snowfleet.max_wait_ms",
                           "Rewinds up to this many ms are waited out, larger ones refused.",
                           nullptr, &max_wait_ms, 5.0, -DBL_MAX, DBL_MAX, PGC_SIGHUP, 0,
                           check_max_wait, nullptr, nullptr);
  DefineCustomIntVariable("snowfleet.max_drift_ms",
                          "Monotonic mode: how far ids may run ahead of the wall clock.", nullptr,
                          &max_drift_ms, 1000, INT_MIN, INT_MAX, PGC_SIGHUP, 0, check_max_drift,
                          nullptr, nullptr);
  DefineCustomIntVariable("snowfleet.test_clock_offset_ms",
                          "Tests only: moves this session's wall clock by this many ms.", nullptr,
                          &test_clock_offset_ms, 0, -86400000, 86400000, PGC_SUSET,
                          GUC_NOT_IN_SAMPLE | GUC_UNIT_MS, nullptr, nullptr, nullptr);
  MarkGUCPrefixReserved("snowfleet");
}

}  // namespace snowfleet_pg
