// The C interface's free functions: results, layouts, decode/compose, text forms, ranges,
// time text and the field lists.
#include <cstring>
#include <string>

#include "capi_util.hpp"

using namespace snowfleet;
using snowfleet::capi::guard;
using snowfleet::capi::need;

namespace {

const ErrorKindInfo* kind_of(snowfleet_result result) {
  const auto& kinds = error_kinds();
  if (result < 1 || static_cast<size_t>(result) > kinds.size()) return nullptr;
  return &kinds[static_cast<size_t>(result) - 1];
}

snowfleet_layout describe(const Layout& l) {
  snowfleet_layout d;
  std::memset(&d, 0, sizeof d);
  capi::copy_text(d.text, l.to_string());
  capi::copy_text(d.preset, l.preset_name());
#define SNOWFLEET_X_DESCRIBE(name, camel, kind, doc) d.name = static_cast<int64_t>(l.name());
  SNOWFLEET_LAYOUT_FIELDS(SNOWFLEET_X_DESCRIBE)
#undef SNOWFLEET_X_DESCRIBE
  return d;
}

snowfleet_decoded decoded(const Decoded& x) {
  snowfleet_decoded d;
  std::memset(&d, 0, sizeof d);
  d.timestamp_ms = x.timestamp_ms;
  d.node_id = x.node_id;
  d.datacenter_id = x.datacenter_id;
  d.machine_id = x.machine_id;
  d.sequence = x.sequence;
  return d;
}

IdFormat format_of(int32_t format) {
  switch (format) {
    case SNOWFLEET_DECIMAL: return IdFormat::kDecimal;
    case SNOWFLEET_BASE32: return IdFormat::kBase32;
    case SNOWFLEET_BASE62: return IdFormat::kBase62;
    case SNOWFLEET_ANY: return IdFormat::kAny;
  }
  capi::invalid("format " + std::to_string(format) +
                " is not an id format (0 decimal, 1 base32, 2 base62, 3 any)");
}

const std::vector<FieldInfo>* fields_of(std::string_view record) {
  if (record == "stats") return &stats_fields();
  if (record == "status") return &status_fields();
  if (record == "layout") return &layout_fields();
  if (record == "generator") return &generator_arg_fields();
  return nullptr;
}

}  // namespace

extern "C" {

const char* snowfleet_result_code(snowfleet_result result) {
  if (result == SNOWFLEET_OK) return "OK";
  const ErrorKindInfo* k = kind_of(result);
  return k ? k->code : nullptr;
}

const char* snowfleet_result_name(snowfleet_result result) {
  if (result == SNOWFLEET_OK) return "OK";
  const ErrorKindInfo* k = kind_of(result);
  return k ? k->name : nullptr;
}

const char* snowfleet_result_category(snowfleet_result result) {
  if (result == SNOWFLEET_OK) return "";
  const ErrorKindInfo* k = kind_of(result);
  return k ? k->category : nullptr;
}

const char* snowfleet_version(void) { return snowfleet::version(); }

snowfleet_result snowfleet_layout_parse(const char* text, size_t len, snowfleet_layout* out,
                                        snowfleet_error* err) {
  return guard(err, [&] {
    capi::sized(out, "out");
    capi::deliver(out, describe(Layout::parse(capi::text_of(text, len))), "out");
  });
}

snowfleet_result snowfleet_layout_create(const snowfleet_layout_args* args,
                                         snowfleet_layout* out, snowfleet_error* err) {
  return guard(err, [&] {
    capi::read_sized(args, "args");
    capi::sized(out, "out");
    LayoutArgs la;
#define SNOWFLEET_CAPI_TAKE(name)                                                      \
  if (SNOWFLEET_CAPI_HOLDS(snowfleet_layout_args, args, name) && args->has_##name) \
    la.name = args->name;
    SNOWFLEET_CAPI_TAKE(epoch_ms)
    SNOWFLEET_CAPI_TAKE(timestamp_bits)
    SNOWFLEET_CAPI_TAKE(node_bits)
    SNOWFLEET_CAPI_TAKE(datacenter_bits)
    SNOWFLEET_CAPI_TAKE(machine_bits)
    SNOWFLEET_CAPI_TAKE(sequence_bits)
#undef SNOWFLEET_CAPI_TAKE
    capi::deliver(out, describe(Layout::create(la)), "out");
  });
}

snowfleet_result snowfleet_decode(const char* layout, int64_t id, snowfleet_decoded* out,
                                  snowfleet_error* err) {
  return guard(err, [&] {
    capi::sized(out, "out");
    capi::deliver(out, decoded(decode(capi::layout_of(layout), id)), "out");
  });
}

snowfleet_result snowfleet_decode_text(const char* layout, const char* id_text, size_t len,
                                       snowfleet_decoded* out, snowfleet_error* err) {
  return guard(err, [&] {
    capi::sized(out, "out");
    const Layout l = capi::layout_of(layout);
    capi::deliver(out, decoded(decode(l, capi::text_of(id_text, len))), "out");
  });
}

snowfleet_result snowfleet_compose(const char* layout, const snowfleet_compose_args* args,
                                   int64_t* out, snowfleet_error* err) {
  return guard(err, [&] {
    capi::read_sized(args, "args");
    need(out, "out");
    NodeArgs node;
    std::optional<int64_t> sequence;
#define SNOWFLEET_CAPI_TAKE(into, name)                                                   \
  if (SNOWFLEET_CAPI_HOLDS(snowfleet_compose_args, args, name) && args->has_##name) \
    into = args->name;
    SNOWFLEET_CAPI_TAKE(node.node_id, node_id)
    SNOWFLEET_CAPI_TAKE(node.datacenter_id, datacenter_id)
    SNOWFLEET_CAPI_TAKE(node.machine_id, machine_id)
    SNOWFLEET_CAPI_TAKE(sequence, sequence)
#undef SNOWFLEET_CAPI_TAKE
    *out = compose(capi::layout_of(layout), args->timestamp_ms, node, sequence);
  });
}

snowfleet_result snowfleet_compose_node(const char* layout, int64_t timestamp_ms,
                                        int64_t node_id, int64_t sequence, int64_t* out,
                                        snowfleet_error* err) {
  return guard(err, [&] {
    need(out, "out");
    *out = compose(capi::layout_of(layout), timestamp_ms, node_id, sequence);
  });
}

snowfleet_result snowfleet_format_id(int64_t id, int32_t format, char* buf, size_t cap,
                                     snowfleet_error* err) {
  return guard(err, [&] { capi::put_text(format_id_as(id, format_of(format)), buf, cap, "buf"); });
}

snowfleet_result snowfleet_parse_id(const char* text, size_t len, int32_t format, int64_t* out,
                                    snowfleet_error* err) {
  return guard(err, [&] {
    need(out, "out");
    *out = parse_id_as(capi::text_of(text, len), format_of(format));
  });
}

snowfleet_result snowfleet_min_id(const char* layout, int64_t timestamp_ms, int64_t* out,
                                  snowfleet_error* err) {
  return guard(err, [&] {
    need(out, "out");
    *out = min_id(capi::layout_of(layout), timestamp_ms);
  });
}

snowfleet_result snowfleet_max_id(const char* layout, int64_t timestamp_ms, int64_t* out,
                                  snowfleet_error* err) {
  return guard(err, [&] {
    need(out, "out");
    *out = max_id(capi::layout_of(layout), timestamp_ms);
  });
}

snowfleet_result snowfleet_id_range(const char* layout, int64_t start_ms, int64_t end_ms,
                                    int64_t slack_ms, int64_t* first, int64_t* last,
                                    snowfleet_error* err) {
  return guard(err, [&] {
    need(first, "first");
    need(last, "last");
    const IdRange r = id_range(capi::layout_of(layout), start_ms, end_ms, slack_ms);
    *first = r.first;
    *last = r.last;
  });
}

snowfleet_result snowfleet_format_time(int64_t unix_ms, char* buf, size_t cap,
                                       snowfleet_error* err) {
  return guard(err, [&] { capi::put_text(format_iso8601(unix_ms), buf, cap, "buf"); });
}

snowfleet_result snowfleet_parse_time(const char* text, size_t len, int64_t* unix_ms,
                                      snowfleet_error* err) {
  return guard(err, [&] {
    need(unix_ms, "unix_ms");
    *unix_ms = parse_iso8601(capi::text_of(text, len));
  });
}

const char* snowfleet_field_name(const char* record, size_t index) {
  if (!record) return nullptr;
  const std::vector<FieldInfo>* fields = fields_of(record);
  return fields && index < fields->size() ? (*fields)[index].name : nullptr;
}

}  // extern "C"
