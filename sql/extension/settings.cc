// The minting GUCs. snowfleet.node_id and snowfleet.layout are PGC_POSTMASTER: they name
// the id space whose state word lives in shared memory and whose high-water mark is in the
// data directory; a reload that changed them would make backends mint for another space
// from this one's word. snowfleet.mode, .max_wait_ms and .max_drift_ms are PGC_SIGHUP: each
// backend remakes its generator on the same word at its next call (the core lets strict and
// monotonic generators share a space). Every value is checked by the core, combined with the
// other settings as they are, when it is set: a refused value keeps the old one and the
// message names the core's rule.
#include <cfloat>
#include <climits>
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
char* mode_text = nullptr;
double max_wait_ms = 5.0;
int max_drift_ms = 1000;
int test_clock_offset_ms = 0;

Settings current() {
  return Settings{node_id, layout_text ? layout_text : "default", mode_text ? mode_text : "strict",
                  max_wait_ms, max_drift_ms, test_clock_offset_ms};
}

// Whether a generator could be made with `s`, by making one on a word of its own.
bool check(const Settings& s) {
  Failure f;
  const bool ok = attempt(f, [&] {
    snowfleet::GeneratorOptions o = options_of(s);
    if (o.node_id == -1) o.node_id = 0;  // not set yet: next_id() names it
    std::atomic<int64_t> word{-1};
    o.shared.state = &word;
    o.shared.where = "a settings check";
    snowfleet::Generator g(std::move(o));
  });
  if (!ok) GUC_check_errdetail("%s: %s", snowfleet::error_code(f.kind), f.message);
  return ok;
}

bool check_node_id(int* v, void**, GucSource) {
  Settings s = current();
  s.node_id = *v;
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
