// The C interface's UUIDv7 generators and UUID text.
#include <array>
#include <cstring>
#include <string>

#include "capi_util.hpp"

using namespace snowfleet;
using snowfleet::capi::guard;
using snowfleet::capi::need;

namespace {

Uuid7Options options_of(const snowfleet_uuid7_options* o) {
  Uuid7Options u;
  if (!o) return u;
  capi::read_sized(o, "options");
#define SNOWFLEET_CAPI_HAS(name) \
  (SNOWFLEET_CAPI_HOLDS(snowfleet_uuid7_options, o, name) && o->has_##name)
  if (SNOWFLEET_CAPI_HOLDS(snowfleet_uuid7_options, o, mode)) u.mode = capi::mode_of(o->mode);
  if (SNOWFLEET_CAPI_HAS(max_wait_ms)) u.max_wait_ms = o->max_wait_ms;
  if (SNOWFLEET_CAPI_HAS(max_drift_ms)) u.max_drift_ms = o->max_drift_ms;
  if (SNOWFLEET_CAPI_HAS(random_seed)) u.random = std::make_shared<ScriptedRandom>(o->random_seed);
  if (SNOWFLEET_CAPI_HOLDS(snowfleet_uuid7_options, o, clock) && o->clock) u.clock = o->clock->clock;
#undef SNOWFLEET_CAPI_HAS
  return u;
}

Uuid7Generator& gen_of(const snowfleet_uuid7_generator* g) {
  return *need(const_cast<snowfleet_uuid7_generator*>(g), "gen")->gen;
}

void put_bytes(const Uuid& u, uint8_t* out) {
  const std::array<uint8_t, 16> b = u.bytes();
  std::memcpy(out, b.data(), 16);
}

}  // namespace

extern "C" {

void snowfleet_uuid7_options_init(snowfleet_uuid7_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof *options);
  options->size = sizeof *options;
}

snowfleet_result snowfleet_uuid7_new(const snowfleet_uuid7_options* options,
                                     snowfleet_uuid7_generator** out, snowfleet_error* err) {
  return guard(err, [&] {
    need(out, "out");
    auto gen = std::make_unique<Uuid7Generator>(options_of(options));
    *out = new snowfleet_uuid7_generator{std::move(gen)};
  });
}

snowfleet_result snowfleet_uuid7_next(snowfleet_uuid7_generator* gen, uint8_t out[16],
                                      snowfleet_error* err) {
  return guard(err, [&] {
    Uuid7Generator& g = gen_of(gen);
    need(out, "out");
    put_bytes(g.next(), out);
  });
}

snowfleet_result snowfleet_uuid7_next_text(snowfleet_uuid7_generator* gen, char* buf, size_t cap,
                                           snowfleet_error* err) {
  return guard(err, [&] {
    Uuid7Generator& g = gen_of(gen);
    need(buf, "buf");
    if (cap < SNOWFLEET_UUID_TEXT_MAX)
      capi::invalid("buf holds " + std::to_string(cap) + " bytes; " +
                    std::to_string(SNOWFLEET_UUID_TEXT_MAX) + " are needed");
    format_uuid(g.next(), buf);
    buf[36] = '\0';
  });
}

snowfleet_result snowfleet_uuid7_next_many(snowfleet_uuid7_generator* gen, uint8_t* out,
                                           int64_t n, snowfleet_error* err) {
  return guard(err, [&] {
    Uuid7Generator& g = gen_of(gen);
    const size_t count = g.batch_size(n);
    if (count == 0) return;
    need(out, "out");
    std::vector<Uuid> got(count);
    g.next(got.data(), count);
    for (size_t i = 0; i < count; ++i) put_bytes(got[i], out + 16 * i);
  });
}

snowfleet_result snowfleet_uuid7_stats(const snowfleet_uuid7_generator* gen,
                                       snowfleet_stats* out, snowfleet_error* err) {
  return guard(err, [&] { capi::fill_stats(gen_of(gen).stats(), out); });
}

snowfleet_result snowfleet_uuid7_status(snowfleet_uuid7_generator* gen, snowfleet_status* out,
                                        snowfleet_error* err) {
  return guard(err, [&] {
    capi::sized(out, "out");
    capi::fill_status(gen_of(gen).status(), out);
  });
}

snowfleet_result snowfleet_uuid7_close(snowfleet_uuid7_generator* gen, snowfleet_error* err) {
  return guard(err, [&] { gen_of(gen).close(); });
}

void snowfleet_uuid7_free(snowfleet_uuid7_generator* gen) { delete gen; }

snowfleet_result snowfleet_uuid_format(const uint8_t bytes[16], char* buf, size_t cap,
                                       snowfleet_error* err) {
  return guard(err, [&] {
    capi::put_text(format_uuid(Uuid::from_bytes(need(bytes, "bytes"))), buf, cap, "buf");
  });
}

snowfleet_result snowfleet_uuid_parse(const char* text, size_t len, uint8_t out[16],
                                      snowfleet_error* err) {
  return guard(err, [&] {
    need(out, "out");
    put_bytes(parse_uuid(capi::text_of(text, len)), out);
  });
}

snowfleet_result snowfleet_uuid7_decode(const uint8_t bytes[16], snowfleet_uuid7_fields* out,
                                        snowfleet_error* err) {
  return guard(err, [&] {
    capi::sized(out, "out");
    const Uuid7Fields f = decode_uuid7(Uuid::from_bytes(need(bytes, "bytes")));
    snowfleet_uuid7_fields r;
    std::memset(&r, 0, sizeof r);
    r.timestamp_ms = f.timestamp_ms;
    r.counter = f.counter;
    r.random = f.random;
    capi::deliver(out, r, "out");
  });
}

}  // extern "C"
