// The C interface's Snowflake generators and scripted clocks.
#include <cstring>
#include <string>

#include "capi_util.hpp"

using namespace snowfleet;
using snowfleet::capi::guard;
using snowfleet::capi::need;

namespace {

// The caller's options as GeneratorArgs, expanded from SNOWFLEET_GENERATOR_ARGS: a field past
// the caller's size (an older, smaller struct) is absent.
GeneratorArgs args_of(const snowfleet_options* o) {
  capi::read_sized(o, "options");
  GeneratorArgs a;
#define SNOWFLEET_CAPI_I64(name) \
  if (SNOWFLEET_CAPI_HOLDS(snowfleet_options, o, has_##name) && o->has_##name) a.name = o->name;
#define SNOWFLEET_CAPI_F64(name) SNOWFLEET_CAPI_I64(name)
#define SNOWFLEET_CAPI_TEXT(name) \
  if (SNOWFLEET_CAPI_HOLDS(snowfleet_options, o, name) && o->name) a.name = std::string(o->name);
#define SNOWFLEET_CAPI_MODE(name) SNOWFLEET_CAPI_TEXT(name)
#define SNOWFLEET_CAPI_LAYOUT(name) \
  if (SNOWFLEET_CAPI_HOLDS(snowfleet_options, o, name) && o->name) a.name = Layout::parse(o->name);
#define SNOWFLEET_CAPI_CLOCK(name) \
  if (SNOWFLEET_CAPI_HOLDS(snowfleet_options, o, name) && o->name) a.name = o->name->clock;
#define SNOWFLEET_X_CAPI_ARG(name, camel, kind, doc) SNOWFLEET_CAPI_##kind(name)
  SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_X_CAPI_ARG)
#undef SNOWFLEET_X_CAPI_ARG
#undef SNOWFLEET_CAPI_CLOCK
#undef SNOWFLEET_CAPI_LAYOUT
#undef SNOWFLEET_CAPI_MODE
#undef SNOWFLEET_CAPI_TEXT
#undef SNOWFLEET_CAPI_F64
#undef SNOWFLEET_CAPI_I64
  return a;
}

Generator& gen_of(const snowfleet_generator* g) {
  return *need(const_cast<snowfleet_generator*>(g), "gen")->gen;
}

ScriptedClock& clock_of(const snowfleet_clock* c) {
  return *need(const_cast<snowfleet_clock*>(c), "clock")->clock;
}

}  // namespace

namespace snowfleet::capi {

Mode mode_of(const char* text) { return text ? parse_mode(text) : Mode::kStrict; }

#define SNOWFLEET_CAPI_PUT_U64(name) r.name = s.name;
#define SNOWFLEET_CAPI_PUT_I64(name) r.name = s.name;
#define SNOWFLEET_CAPI_PUT_BOOL(name) r.name = s.name ? 1 : 0;
#define SNOWFLEET_CAPI_PUT_MODE(name) r.name = static_cast<int32_t>(s.name);
#define SNOWFLEET_CAPI_PUT_LEASE_STATE(name) r.name = static_cast<int32_t>(s.name);
#define SNOWFLEET_CAPI_PUT_TEXT(name) copy_text(r.name, s.name);
#define SNOWFLEET_X_CAPI_PUT(name, camel, kind, init, doc) SNOWFLEET_CAPI_PUT_##kind(name)

void fill_stats(const Stats& s, snowfleet_stats* out) {
  snowfleet_stats r;
  std::memset(&r, 0, sizeof r);
  SNOWFLEET_STATS_FIELDS(SNOWFLEET_X_CAPI_PUT)
  deliver(out, r, "out");
}

void fill_status(const Status& s, snowfleet_status* out) {
  snowfleet_status r;
  std::memset(&r, 0, sizeof r);
  SNOWFLEET_STATUS_FIELDS(SNOWFLEET_X_CAPI_PUT)
  deliver(out, r, "out");
}

}  // namespace snowfleet::capi

extern "C" {

void snowfleet_options_init(snowfleet_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof *options);
  options->size = sizeof *options;
}

snowfleet_result snowfleet_generator_new(const snowfleet_options* options,
                                         snowfleet_generator** out, snowfleet_error* err) {
  return guard(err, [&] {
    need(out, "out");
    auto gen = std::make_unique<Generator>(resolve_options(args_of(options)));
    *out = new snowfleet_generator{std::move(gen)};
  });
}

snowfleet_result snowfleet_generator_next_id(snowfleet_generator* gen, int64_t* out,
                                             snowfleet_error* err) {
  return guard(err, [&] {
    Generator& g = gen_of(gen);
    int64_t* into = need(out, "out");  // checked before an id is issued
    *into = g.next_id();
  });
}

snowfleet_result snowfleet_generator_next_ids(snowfleet_generator* gen, int64_t* out, int64_t n,
                                              snowfleet_error* err) {
  return guard(err, [&] {
    Generator& g = gen_of(gen);
    const size_t count = g.batch_size(n);
    if (count == 0) return;
    g.next_ids(need(out, "out"), count);
  });
}

snowfleet_result snowfleet_generator_info_get(const snowfleet_generator* gen,
                                              snowfleet_generator_info* out,
                                              snowfleet_error* err) {
  return guard(err, [&] {
    const Generator& g = gen_of(gen);
    snowfleet_generator_info r;
    std::memset(&r, 0, sizeof r);
    r.mode = static_cast<int32_t>(g.mode());
    capi::copy_text(r.layout, g.layout().to_string());
    r.node_id = g.node_id();
    r.max_wait_ms = g.max_wait_ms();
    r.max_drift_ms = g.max_drift_ms();
    capi::deliver(out, r, "out");
  });
}

snowfleet_result snowfleet_generator_stats(const snowfleet_generator* gen, snowfleet_stats* out,
                                           snowfleet_error* err) {
  return guard(err, [&] { capi::fill_stats(gen_of(gen).stats(), out); });
}

snowfleet_result snowfleet_generator_status(snowfleet_generator* gen, snowfleet_status* out,
                                            snowfleet_error* err) {
  return guard(err, [&] {
    capi::sized(out, "out");
    capi::fill_status(gen_of(gen).status(), out);
  });
}

snowfleet_result snowfleet_generator_drift_ms(snowfleet_generator* gen, int64_t* out,
                                              snowfleet_error* err) {
  return guard(err, [&] {
    Generator& g = gen_of(gen);
    int64_t* into = need(out, "out");
    *into = g.drift_ms();
  });
}

snowfleet_result snowfleet_generator_close(snowfleet_generator* gen, snowfleet_error* err) {
  return guard(err, [&] { gen_of(gen).close(); });
}

int32_t snowfleet_generator_closed(const snowfleet_generator* gen) {
  return gen && gen->gen->closed() ? 1 : 0;
}

void snowfleet_generator_free(snowfleet_generator* gen) { delete gen; }

snowfleet_result snowfleet_clock_new(const snowfleet_clock_segment* segments, size_t n,
                                     snowfleet_clock** out, snowfleet_error* err) {
  return guard(err, [&] {
    need(out, "out");
    if (n > 0) need(segments, "segments");
    std::vector<ScriptedClock::Segment> script;
    for (size_t i = 0; i < n; ++i)
      script.push_back({segments[i].ms, segments[i].count, segments[i].step_ms, segments[i].every});
    auto clock = n == 0 ? std::make_shared<ScriptedClock>(0) : std::make_shared<ScriptedClock>(script);
    *out = new snowfleet_clock{std::move(clock)};
  });
}

snowfleet_result snowfleet_clock_set_wall_ms(snowfleet_clock* clock, int64_t ms,
                                             snowfleet_error* err) {
  return guard(err, [&] { clock_of(clock).set_wall_ms(ms); });
}

snowfleet_result snowfleet_clock_advance_wall_ms(snowfleet_clock* clock, int64_t delta_ms,
                                                 snowfleet_error* err) {
  return guard(err, [&] { clock_of(clock).advance_wall_ms(delta_ms); });
}

snowfleet_result snowfleet_clock_counters_get(const snowfleet_clock* clock,
                                              snowfleet_clock_counters* out,
                                              snowfleet_error* err) {
  return guard(err, [&] {
    const ScriptedClock& k = clock_of(clock);
    snowfleet_clock_counters r;
    std::memset(&r, 0, sizeof r);
    r.reads = k.reads();
    r.sleep_count = k.sleep_count();
    r.slept_ns = k.slept_ns();
    r.max_sleep_ns = k.max_sleep_ns();
    r.min_sleep_ns = k.min_sleep_ns();
    capi::deliver(out, r, "out");
  });
}

void snowfleet_clock_free(snowfleet_clock* clock) { delete clock; }

}  // extern "C"
