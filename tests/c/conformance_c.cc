// The C interface's conformance runner: every case of conformance/vectors/*.json through
// snowfleet.h alone (no C++ API of the core is included), as the C++, Python, Node, Java
// and SQL runners run them. C++ only for reading JSON (nlohmann-json).
//   conformance_c VECTORS_DIR
#include <snowfleet.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

using json = nlohmann::json;

namespace {

std::string g_dir;
std::string g_case;  // the case being run, for failure messages
int g_failed_checks = 0;
bool g_case_ok = true;

void check(bool ok, const std::string& what) {
  if (ok) return;
  ++g_failed_checks;
  g_case_ok = false;
  std::fprintf(stderr, "FAIL %s: %s\n", g_case.c_str(), what.c_str());
}

template <class A, class B>
void check_eq(const A& got, const B& want, const std::string& what) {
  if (got == want) return;
  std::string g, w;
  if constexpr (std::is_same_v<A, json>) g = got.dump(); else g = json(got).dump();
  if constexpr (std::is_same_v<B, json>) w = want.dump(); else w = json(want).dump();
  check(false, what + ": got " + g + ", expected " + w);
}

json load(const std::string& name, const char* kind) {
  std::ifstream f(g_dir + "/" + name);
  if (!f.good()) throw std::runtime_error("cannot read " + g_dir + "/" + name);
  json doc = json::parse(f);
  if (doc.at("schema_version") != 1 || doc.at("kind") != kind)
    throw std::runtime_error(name + ": unexpected schema_version or kind");
  return doc;
}

// 64-bit values travel as decimal text, read here by the C interface itself; nullopt past
// int64 (no int64_t can hold it).
std::optional<int64_t> i64_of_text(const std::string& s) {
  const bool negative = !s.empty() && s[0] == '-';
  int64_t v = 0;
  if (snowfleet_parse_id(s.data() + (negative ? 1 : 0), s.size() - (negative ? 1 : 0), SNOWFLEET_DECIMAL, &v, nullptr) !=
      SNOWFLEET_OK)
    return std::nullopt;
  return negative ? -v : v;
}
int64_t i64(const json& v) {
  auto got = i64_of_text(v.get<std::string>());
  if (!got) throw std::runtime_error("not an int64: " + v.dump());
  return *got;
}
std::string str(int64_t v) { return std::to_string(v); }

// Checks a call's result against `expect`: true when it succeeded and expect holds no error.
bool outcome(const json& expect, snowfleet_result rc, const snowfleet_error& err) {
  if (!expect.contains("error")) {
    check(rc == SNOWFLEET_OK, std::string("unexpected ") + snowfleet_result_code(rc) + ": " +
                                  (rc ? err.message : ""));
    return rc == SNOWFLEET_OK;
  }
  if (rc == SNOWFLEET_OK) {
    check(false, "expected error " + expect["error"].dump() + " but the call succeeded");
    return false;
  }
  check_eq(std::string(snowfleet_result_code(rc)), expect["error"].get<std::string>(), "error");
  check_eq(err.result, rc, "err.result");
  if (expect.contains("drift_ms")) check_eq(err.drift_ms, expect["drift_ms"].get<int64_t>(), "drift_ms");
  if (expect.contains("message_contains"))
    for (const auto& part : expect["message_contains"])
      check(std::strstr(err.message, part.get<std::string>().c_str()) != nullptr,
            "message '" + std::string(err.message) + "' lacks " + part.dump());
  return false;
}

void check_subset(const json& expect, const json& actual) {
  for (auto it = expect.begin(); it != expect.end(); ++it) {
    if (!actual.contains(it.key())) {
      check(false, "no key " + it.key());
      continue;
    }
    check_eq(actual[it.key()], it.value(), it.key());
  }
}

const char* layout_text(const json& v) { return v.get_ref<const std::string&>().c_str(); }
// A vector's text as (text, len): NUL bytes included.
#define TEXT(v) (v).get_ref<const std::string&>().data(), (v).get_ref<const std::string&>().size()

template <class T>
T sized() {
  T t;
  std::memset(&t, 0, sizeof t);
  t.size = sizeof t;
  return t;
}

json describe(const snowfleet_layout& l) {
  json d = {{"text", l.text}, {"preset", l.preset}};
#define X(name, camel, kind, doc) d[#name] = l.name;
  SNOWFLEET_LAYOUT_FIELDS(X)
#undef X
  for (const char* big : {"epoch_ms", "max_elapsed_ms", "max_timestamp_ms"})
    d[big] = str(d[big].get<int64_t>());
  return d;
}

json decoded(const snowfleet_decoded& d) {
  return {{"timestamp_ms", str(d.timestamp_ms)}, {"node_id", d.node_id},
          {"datacenter_id", d.datacenter_id},    {"machine_id", d.machine_id},
          {"sequence", d.sequence}};
}

// ---- layout, codec, time, text, range ---------------------------------------------------

void run_layout(const json& c) {
  snowfleet_error err;
  snowfleet_layout l = sized<snowfleet_layout>();
  snowfleet_result rc;
  if (c.at("op") == "parse") {
    rc = snowfleet_layout_parse(TEXT(c.at("text")), &l, &err);
  } else {
    snowfleet_layout_args a = sized<snowfleet_layout_args>();
    a.has_epoch_ms = 1, a.epoch_ms = i64(c.at("epoch_ms"));
    a.has_timestamp_bits = 1, a.timestamp_bits = c.at("timestamp_bits");
    if (c.contains("datacenter_bits")) {
      a.has_datacenter_bits = 1, a.datacenter_bits = c.at("datacenter_bits");
      a.has_machine_bits = 1, a.machine_bits = c.at("machine_bits");
    } else {
      a.has_node_bits = 1, a.node_bits = c.at("node_bits");
    }
    a.has_sequence_bits = 1, a.sequence_bits = c.at("sequence_bits");
    rc = snowfleet_layout_create(&a, &l, &err);
  }
  if (!outcome(c.at("expect"), rc, err)) return;
  check_subset(c.at("expect"), describe(l));
  snowfleet_layout again = sized<snowfleet_layout>();
  check(snowfleet_layout_parse(l.text, std::strlen(l.text), &again, &err) == SNOWFLEET_OK &&
            std::strcmp(again.text, l.text) == 0,
        "the text form round-trips");
}

bool run_codec(const json& c) {
  snowfleet_error err;
  const json& expect = c.at("expect");
  const std::string op = c.at("op");
  if (op == "parse_id") {
    int64_t id = 0;
    if (outcome(expect, snowfleet_parse_id(TEXT(c.at("text")), SNOWFLEET_DECIMAL, &id, &err), err))
      check_eq(str(id), expect.at("id").get<std::string>(), "id");
    return true;
  }
  const char* layout = layout_text(c.at("layout"));
  if (op == "compose") {
    snowfleet_compose_args a = sized<snowfleet_compose_args>();
    a.timestamp_ms = i64(c.at("timestamp_ms"));
    if (c.contains("datacenter_id")) {
      a.has_datacenter_id = 1, a.datacenter_id = c.at("datacenter_id");
      a.has_machine_id = 1, a.machine_id = c.at("machine_id");
    } else {
      a.has_node_id = 1, a.node_id = c.at("node_id");
    }
    a.has_sequence = 1, a.sequence = c.at("sequence");
    int64_t id = 0;
    if (outcome(expect, snowfleet_compose(layout, &a, &id, &err), err))
      check_eq(str(id), expect.at("id").get<std::string>(), "id");
    return true;
  }
  const auto value = i64_of_text(c.at("value").get<std::string>());
  if (!value) return false;  // past int64: no int64_t argument holds it
  snowfleet_decoded d = sized<snowfleet_decoded>();
  if (outcome(expect, snowfleet_decode(layout, *value, &d, &err), err))
    check_subset(expect, decoded(d));
  return true;
}

void run_time(const json& c) {
  snowfleet_error err;
  const json& expect = c.at("expect");
  int64_t ms = 0;
  if (!outcome(expect, snowfleet_parse_time(TEXT(c.at("text")), &ms, &err), err)) return;
  check_eq(str(ms), expect.at("timestamp_ms").get<std::string>(), "timestamp_ms");
  if (ms >= -62167219200000 && ms <= 253402300799999) {  // years 0000-9999: the text reads back
    char text[SNOWFLEET_TIME_TEXT_MAX];
    int64_t back = 0;
    check(snowfleet_format_time(ms, text, sizeof text, &err) == SNOWFLEET_OK &&
              snowfleet_parse_time(text, std::strlen(text), &back, &err) == SNOWFLEET_OK && back == ms,
          "format_time reads back");
  }
}

int32_t format_named(const std::string& name) {
  return name == "base32"   ? SNOWFLEET_BASE32
         : name == "base62" ? SNOWFLEET_BASE62
         : name == "any"    ? SNOWFLEET_ANY
                            : SNOWFLEET_DECIMAL;
}

void run_text(const json& c) {
  snowfleet_error err;
  const json& expect = c.at("expect");
  const int32_t format = format_named(c.at("encoding"));
  if (c.at("op") == "parse") {
    int64_t id = 0;
    if (outcome(expect, snowfleet_parse_id(TEXT(c.at("text")), format, &id, &err), err))
      check_eq(str(id), expect.at("id").get<std::string>(), "id");
    return;
  }
  const int64_t value = i64(c.at("value"));
  char text[SNOWFLEET_ID_TEXT_MAX];
  if (!outcome(expect, snowfleet_format_id(value, format, text, sizeof text, &err), err)) return;
  check_eq(std::string(text), expect.at("text").get<std::string>(), "text");
  if (c.at("op") == "round_trip") {
    int64_t back = 0;
    check(snowfleet_parse_id(text, std::strlen(text), format, &back, &err) == SNOWFLEET_OK && back == value,
          "round trip");
  }
}

void run_range(const json& c) {
  snowfleet_error err;
  const json& expect = c.at("expect");
  const char* layout = layout_text(c.at("layout"));
  if (c.at("op") == "id_range") {
    const int64_t slack = c.contains("slack_ms") ? i64(c.at("slack_ms")) : 0;
    int64_t first = 0, last = 0;
    if (outcome(expect, snowfleet_id_range(layout, i64(c.at("start_ms")), i64(c.at("end_ms")), slack, &first, &last, &err), err)) {
      check_eq(str(first), expect.at("first").get<std::string>(), "first");
      check_eq(str(last), expect.at("last").get<std::string>(), "last");
    }
    return;
  }
  const int64_t ms = i64(c.at("timestamp_ms"));
  int64_t id = 0;
  const snowfleet_result rc = c.at("op") == "min_id" ? snowfleet_min_id(layout, ms, &id, &err)
                                                     : snowfleet_max_id(layout, ms, &id, &err);
  if (outcome(expect, rc, err)) check_eq(str(id), expect.at("id").get<std::string>(), "id");
}

// ---- scenarios ----------------------------------------------------------------------------

std::vector<snowfleet_clock_segment> segments(const json& script) {
  std::vector<snowfleet_clock_segment> out;
  for (const auto& s : script)
    out.push_back({s.at("ms").is_string() ? i64(s.at("ms")) : s.at("ms").get<int64_t>(), s.value("count", int64_t{1}), s.value("step_ms", int64_t{0}),
                   s.value("every", int64_t{1})});
  return out;
}

snowfleet_result new_clock(const json& script, snowfleet_clock** clock, snowfleet_error* err) {
  const auto segs = segments(script);
  return snowfleet_clock_new(segs.data(), segs.size(), clock, err);
}
snowfleet_clock* new_clock(const json& script) {
  snowfleet_clock* clock = nullptr;
  snowfleet_error err;
  if (new_clock(script, &clock, &err) != SNOWFLEET_OK)
    throw std::runtime_error(std::string("clock: ") + err.message);
  return clock;
}

struct Live {
  snowfleet_clock* clock = nullptr;  // shared by generators with clock_of: freed by its maker
  bool owns_clock = false;
  snowfleet_generator* gen = nullptr;
  int64_t max_sequence = 0;
};

json summarize(const std::vector<int64_t>& ids, int64_t max_sequence) {
  json out = {{"count", ids.size()}};
  bool increasing = true;
  uint64_t sum = 0;
  int64_t max_seq = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0 && ids[i] <= ids[i - 1]) increasing = false;
    sum += static_cast<uint64_t>(ids[i]);
    max_seq = std::max(max_seq, ids[i] & max_sequence);
  }
  out["strictly_increasing"] = increasing;
  out["sum"] = std::to_string(sum);
  if (!ids.empty()) {
    out["first"] = str(ids.front());
    out["last"] = str(ids.back());
    out["max_sequence"] = max_seq;
  }
  return out;
}

void run_scenario(const json& c) {
  std::map<std::string, Live> gens;
  std::map<std::string, json> deferred;
  std::string first;
  auto construct = [&](const json& g, Live* live, snowfleet_error* err) {
    snowfleet_options o;
    snowfleet_options_init(&o);
    o.layout = layout_text(g.at("layout"));
    o.has_node_id = 1, o.node_id = g.at("node_id");
    o.mode = g.at("mode").get_ref<const std::string&>().c_str();
    o.has_max_wait_ms = 1, o.max_wait_ms = g.at("max_wait_ms");
    o.has_max_drift_ms = 1, o.max_drift_ms = g.at("max_drift_ms");
    if (g.contains("clock_of")) {
      live->clock = gens.at(g["clock_of"].get<std::string>()).clock;
    } else {
      const snowfleet_result rc = new_clock(g.at("clock"), &live->clock, err);
      if (rc != SNOWFLEET_OK) return rc;
      live->owns_clock = true;
    }
    o.clock = live->clock;
    snowfleet_layout l = sized<snowfleet_layout>();
    if (snowfleet_layout_parse(o.layout, std::strlen(o.layout), &l, nullptr) == SNOWFLEET_OK) live->max_sequence = l.max_sequence;
    return snowfleet_generator_new(&o, &live->gen, err);
  };
  auto open = [&](const json& g, const json& expect) {
    Live live;
    snowfleet_error err;
    const snowfleet_result rc = construct(g, &live, &err);
    outcome(expect, rc, err);
    gens[g.at("name").get<std::string>()] = live;  // kept for its clock even when refused
  };
  for (const auto& g : c.at("generators")) {
    const std::string name = g.at("name");
    if (first.empty()) first = name;
    if (g.value("deferred", false)) {
      deferred[name] = g;
      continue;
    }
    open(g, g.contains("expect_construct_error") ? g["expect_construct_error"] : json::object());
  }
  int index = 0;
  for (const auto& step : c.at("steps")) {
    const std::string saved = g_case;
    g_case += " step " + std::to_string(index++);
    const std::string name = step.value("gen", first);
    const json& expect = step.at("expect");
    const std::string op = step.at("op");
    snowfleet_error err;
    if (op == "open") {
      Live& old = gens[name];
      if (old.owns_clock) snowfleet_clock_free(old.clock);
      open(deferred.at(name), expect);
      g_case = saved;
      continue;
    }
    Live& live = gens.at(name);
    snowfleet_generator* gen = live.gen;
    if (op == "next_id" && step.value("repeat", 1) == 1) {
      int64_t id = 0;
      if (outcome(expect, snowfleet_generator_next_id(gen, &id, &err), err))
        check_eq(str(id), expect.at("id").get<std::string>(), "id");
    } else if (op == "next_id") {
      std::vector<int64_t> ids(step.at("repeat").get<size_t>());
      for (auto& id : ids)
        check(snowfleet_generator_next_id(gen, &id, &err) == SNOWFLEET_OK, "next_id");
      check_subset(expect, summarize(ids, live.max_sequence));
    } else if (op == "next_ids") {
      const int64_t n = step.at("n");
      std::vector<int64_t> ids(n > 0 ? static_cast<size_t>(n) : 0);
      if (outcome(expect, snowfleet_generator_next_ids(gen, ids.data(), n, &err), err))
        check_subset(expect, summarize(ids, live.max_sequence));
    } else if (op == "stats") {
      snowfleet_stats st = sized<snowfleet_stats>();
      check(snowfleet_generator_stats(gen, &st, &err) == SNOWFLEET_OK, "stats");
      check_subset(expect, json{{"ids_issued", st.ids_issued},
                                {"rewinds_seen", st.rewinds_seen},
                                {"waits", st.waits},
                                {"waited_ns_total", std::to_string(st.waited_ns_total)},
                                {"waited_ns_max", std::to_string(st.waited_ns_max)},
                                {"refusals", st.refusals},
                                {"ms_borrowed", st.ms_borrowed}});
    } else if (op == "status") {
      snowfleet_status st = sized<snowfleet_status>();
      check(snowfleet_generator_status(gen, &st, &err) == SNOWFLEET_OK, "status");
      check_subset(expect, json{{"healthy", st.healthy != 0},
                                {"wall_ms", str(st.wall_ms)},
                                {"last_ms", str(st.last_ms)},
                                {"drift_ms", st.drift_ms},
                                {"node_id", st.node_id}});
      check((st.healthy != 0) == (st.reason[0] == '\0'), "healthy == reason empty");
    } else if (op == "drift") {
      int64_t drift = 0;
      check(snowfleet_generator_drift_ms(gen, &drift, &err) == SNOWFLEET_OK, "drift");
      check_subset(expect, json{{"drift_ms", drift}});
    } else if (op == "close") {
      check(snowfleet_generator_close(gen, &err) == SNOWFLEET_OK, "close");
    } else {
      check_eq(op, std::string("clock"), "op");
      snowfleet_clock_counters k = sized<snowfleet_clock_counters>();
      check(snowfleet_clock_counters_get(live.clock, &k, &err) == SNOWFLEET_OK, "clock");
      check_subset(expect, json{{"reads", k.reads},
                                {"sleep_count", k.sleep_count},
                                {"slept_ns", str(k.slept_ns)},
                                {"max_sleep_ns", str(k.max_sleep_ns)},
                                {"min_sleep_ns", str(k.min_sleep_ns)}});
    }
    g_case = saved;
  }
  for (auto& [name, live] : gens) snowfleet_generator_free(live.gen);
  for (auto& [name, live] : gens)
    if (live.owns_clock) snowfleet_clock_free(live.clock);
}

// ---- uuid7 ----------------------------------------------------------------------------------

std::string uuid_text(const uint8_t* b) {
  char text[SNOWFLEET_UUID_TEXT_MAX];
  snowfleet_uuid_format(b, text, sizeof text, nullptr);
  return text;
}

void run_uuid7(const json& c) {
  snowfleet_error err;
  if (c.at("op") == "decode") {
    const json& expect = c.at("expect");
    uint8_t b[16];
    snowfleet_uuid7_fields f = sized<snowfleet_uuid7_fields>();
    snowfleet_result rc = snowfleet_uuid_parse(TEXT(c.at("text")), b, &err);
    if (rc == SNOWFLEET_OK) rc = snowfleet_uuid7_decode(b, &f, &err);
    if (!outcome(expect, rc, err)) return;
    check_eq(uuid_text(b), expect.at("canonical").get<std::string>(), "canonical");
    check_eq(str(f.timestamp_ms), expect.at("timestamp_ms").get<std::string>(), "timestamp_ms");
    check_eq(f.counter, expect.at("counter").get<int64_t>(), "counter");
    check_eq(str(f.random), expect.at("random").get<std::string>(), "random");
    return;
  }
  snowfleet_uuid7_options o;
  snowfleet_uuid7_options_init(&o);
  o.mode = c.at("mode").get_ref<const std::string&>().c_str();
  o.has_max_wait_ms = 1, o.max_wait_ms = c.at("max_wait_ms");
  o.has_random_seed = 1, o.random_seed = static_cast<uint64_t>(i64(c.at("seed")));
  o.clock = new_clock(c.at("clock"));
  snowfleet_uuid7_generator* g = nullptr;
  check(snowfleet_uuid7_new(&o, &g, &err) == SNOWFLEET_OK, "uuid7_new");
  snowfleet_clock_free(o.clock);  // the generator holds it
  for (const auto& step : c.at("steps")) {
    const json& expect = step.at("expect");
    const bool one = step.at("op") == "next";
    const int64_t n = one ? 1 : step.at("n").get<int64_t>();
    std::vector<uint8_t> bytes(16 * static_cast<size_t>(n > 0 ? n : 0));
    const snowfleet_result rc = one ? snowfleet_uuid7_next(g, bytes.data(), &err)
                                    : snowfleet_uuid7_next_many(g, bytes.data(), n, &err);
    if (!outcome(expect, rc, err)) continue;
    std::vector<std::string> text;
    for (int64_t i = 0; i < n; ++i) text.push_back(uuid_text(&bytes[16 * i]));
    if (expect.contains("uuids")) {
      check_eq(json(text), expect.at("uuids"), "uuids");
    } else {
      check_eq(static_cast<int64_t>(text.size()), expect.at("count").get<int64_t>(), "count");
      if (!text.empty()) {
        check_eq(text.front(), expect.at("first").get<std::string>(), "first");
        check_eq(text.back(), expect.at("last").get<std::string>(), "last");
      }
    }
  }
  snowfleet_uuid7_free(g);
}

// ---- arguments --------------------------------------------------------------------------------
// C is statically typed: a case expecting the host's type error ("TYPE"), or a value of a type
// the parameter cannot hold (a float or text for an integer, an integer past int64), cannot
// be written in C and is skipped, as in the C++ runner.

constexpr int64_t kFrozenMs = 1737747358021;

std::optional<int64_t> as_int(const json& v) {
  if (!v.contains("int")) return std::nullopt;
  return i64_of_text(v["int"].get<std::string>());
}
std::optional<std::string> as_text(const json& v) {
  if (!v.contains("text")) return std::nullopt;
  return v["text"].get<std::string>();
}
std::optional<double> as_number(const json& v) {
  if (v.contains("float")) return v["float"].get<double>();
  if (auto i = as_int(v)) return static_cast<double>(*i);
  return std::nullopt;
}

// Fills the options by expanding SNOWFLEET_GENERATOR_ARGS (a key no entry has fails); texts
// are kept alive in `keep`. false when C cannot express a value.
bool build_options(const json& args, snowfleet_options* o, std::vector<std::string>* keep) {
  keep->reserve(16);
  for (const auto& [key, value] : args.items()) {
    bool known = false;
#define X(name, camel, kind, doc) known = known || key == #name;
    SNOWFLEET_GENERATOR_ARGS(X)
#undef X
    check(known && key != "clock", "argument '" + key + "' is not a vector's generator argument");
  }
  bool ok = true;
#define TAKE_I64(name)                                             \
  if (args.contains(#name)) {                                      \
    auto v = as_int(args[#name]);                                  \
    ok = ok && v.has_value();                                      \
    if (v) o->name = *v, o->has_##name = 1;                        \
  }
#define TAKE_F64(name)                                             \
  if (args.contains(#name)) {                                      \
    auto v = as_number(args[#name]);                               \
    ok = ok && v.has_value();                                      \
    if (v) o->name = *v, o->has_##name = 1;                        \
  }
#define TAKE_TEXT(name)                                            \
  if (args.contains(#name)) {                                      \
    auto v = as_text(args[#name]);                                 \
    ok = ok && v.has_value();                                      \
    if (v) keep->push_back(*v), o->name = keep->back().c_str();    \
  }
#define TAKE_MODE(name) TAKE_TEXT(name)
#define TAKE_LAYOUT(name) TAKE_TEXT(name)
#define TAKE_CLOCK(name)
#define X(name, camel, kind, doc) TAKE_##kind(name)
  SNOWFLEET_GENERATOR_ARGS(X)
#undef X
  return ok;
}

bool take(const json& args, const char* key, int64_t* out, int32_t* has) {
  if (!args.contains(key)) return true;
  auto v = as_int(args[key]);
  if (!v) return false;
  *out = *v;
  *has = 1;
  return true;
}

snowfleet_generator* batch_generator(snowfleet_clock* clock) {
  snowfleet_options o;
  snowfleet_options_init(&o);
  o.has_node_id = 1, o.node_id = 9;
  o.clock = clock;
  snowfleet_generator* g = nullptr;
  snowfleet_error err;
  if (snowfleet_generator_new(&o, &g, &err) != SNOWFLEET_OK)
    throw std::runtime_error(std::string("generator: ") + err.message);
  return g;
}

// Runs one case; false when C cannot express it (skipped).
bool run_argument(const json& c) {
  const std::string op = c.at("op");
  const json& args = c.at("args");
  const json& expect = c.at("expect");
  if (expect.value("error", "") == "TYPE") return false;
  snowfleet_error err;
  const snowfleet_clock_segment frozen{kFrozenMs, 1, 0, 1};
  snowfleet_clock* clock = nullptr;
  snowfleet_clock_new(&frozen, 1, &clock, nullptr);
  struct Free {
    snowfleet_clock* c;
    ~Free() { snowfleet_clock_free(c); }
  } free_clock{clock};
  if (op == "generator") {
    snowfleet_options o;
    snowfleet_options_init(&o);
    std::vector<std::string> keep;
    if (!build_options(args, &o, &keep)) return false;
    o.clock = clock;
    snowfleet_generator* g = nullptr;
    if (outcome(expect, snowfleet_generator_new(&o, &g, &err), err)) {
      snowfleet_generator_info info = sized<snowfleet_generator_info>();
      check(snowfleet_generator_info_get(g, &info, &err) == SNOWFLEET_OK, "info");
      check_eq(info.node_id, expect.at("node_id").get<int64_t>(), "node_id");
      check_eq(std::string(info.layout), expect.at("layout").get<std::string>(), "layout");
      check_eq(std::string(info.mode ? "monotonic" : "strict"), expect.at("mode").get<std::string>(), "mode");
      check_eq(info.max_wait_ms, expect.at("max_wait_ms").get<double>(), "max_wait_ms");
      check_eq(info.max_drift_ms, expect.at("max_drift_ms").get<int64_t>(), "max_drift_ms");
    }
    snowfleet_generator_free(g);
    return true;
  }
  if (op == "next_ids" || op == "next_id" || op == "status" || op == "close") {
    int64_t n = 0;
    int32_t has_n = 0;
    if (op == "next_ids" && !take(args, "n", &n, &has_n)) return false;
    snowfleet_generator* g = batch_generator(clock);
    struct FreeGen {
      snowfleet_generator* g;
      ~FreeGen() { snowfleet_generator_free(g); }
    } free_gen{g};
    int64_t before = 0;
    check(snowfleet_generator_next_id(g, &before, &err) == SNOWFLEET_OK, "first id");
    if (c.value("closed", false)) snowfleet_generator_close(g, &err);
    snowfleet_stats st = sized<snowfleet_stats>();
    snowfleet_generator_stats(g, &st, &err);
    const uint64_t issued = st.ids_issued;
    if (op == "status") {
      snowfleet_status s = sized<snowfleet_status>();
      check(snowfleet_generator_status(g, &s, &err) == SNOWFLEET_OK, "status");
      check_eq(s.healthy != 0, expect.at("healthy").get<bool>(), "healthy");
      check_eq(std::string(s.reason), expect.at("reason").get<std::string>(), "reason");
      return true;
    }
    if (op == "close") {
      check(snowfleet_generator_close(g, &err) == SNOWFLEET_OK, "close");
      check(snowfleet_generator_closed(g) == 1, "closed");
      return true;
    }
    snowfleet_result rc;
    std::vector<int64_t> ids;
    if (op == "next_id") {
      int64_t id = 0;
      rc = snowfleet_generator_next_id(g, &id, &err);
      if (rc == SNOWFLEET_OK) check(id > before, "next_id continues");
    } else {
      // The C caller sizes its buffer from n; a negative or huge n gets a small one, which
      // the library never writes (it refuses n first).
      ids.resize(n >= 0 && n <= (int64_t{1} << 24) ? static_cast<size_t>(n) : 1);
      rc = snowfleet_generator_next_ids(g, ids.data(), n, &err);
    }
    if (outcome(expect, rc, err)) {
      if (op == "next_ids") {
        check_eq(static_cast<int64_t>(ids.size()), expect.at("count").get<int64_t>(), "count");
        for (int64_t id : ids) check(id > before, "batch continues");
      }
    } else if (!snowfleet_generator_closed(g)) {
      snowfleet_generator_stats(g, &st, &err);
      check_eq(st.ids_issued, issued, "nothing issued by a refused call");
      int64_t after = 0;
      check(snowfleet_generator_next_id(g, &after, &err) == SNOWFLEET_OK && after > before,
            "the generator continues after a refused call");
    }
    return true;
  }
  if (op == "decode") {
    const std::string layout = args.at("layout").at("text");
    const json& id = args.at("id");
    snowfleet_decoded d = sized<snowfleet_decoded>();
    snowfleet_result rc;
    if (id.contains("int")) {
      auto v = as_int(id);
      if (!v) return false;
      rc = snowfleet_decode(layout.c_str(), *v, &d, &err);
    } else if (id.contains("text")) {
      rc = snowfleet_decode_text(layout.c_str(), TEXT(id.at("text")), &d, &err);
    } else {
      return false;
    }
    if (outcome(expect, rc, err)) {
      check_eq(str(d.timestamp_ms), expect.at("timestamp_ms").get<std::string>(), "timestamp_ms");
      check_eq(d.node_id, expect.at("node_id").get<int64_t>(), "node_id");
      check_eq(d.datacenter_id, expect.at("datacenter_id").get<int64_t>(), "datacenter_id");
      check_eq(d.machine_id, expect.at("machine_id").get<int64_t>(), "machine_id");
      check_eq(d.sequence, expect.at("sequence").get<int64_t>(), "sequence");
    }
    return true;
  }
  if (op == "compose") {
    const std::string layout = args.at("layout").at("text");
    snowfleet_compose_args a = sized<snowfleet_compose_args>();
    int32_t has_ts = 0;
    if (!take(args, "timestamp_ms", &a.timestamp_ms, &has_ts) ||
        !take(args, "sequence", &a.sequence, &a.has_sequence) ||
        !take(args, "node_id", &a.node_id, &a.has_node_id) ||
        !take(args, "datacenter_id", &a.datacenter_id, &a.has_datacenter_id) ||
        !take(args, "machine_id", &a.machine_id, &a.has_machine_id))
      return false;
    int64_t id = 0;
    if (outcome(expect, snowfleet_compose(layout.c_str(), &a, &id, &err), err))
      check_eq(str(id), expect.at("id").get<std::string>(), "id");
    return true;
  }
  if (op == "layout_create") {
    snowfleet_layout_args a = sized<snowfleet_layout_args>();
    if (!take(args, "epoch_ms", &a.epoch_ms, &a.has_epoch_ms) ||
        !take(args, "timestamp_bits", &a.timestamp_bits, &a.has_timestamp_bits) ||
        !take(args, "node_bits", &a.node_bits, &a.has_node_bits) ||
        !take(args, "datacenter_bits", &a.datacenter_bits, &a.has_datacenter_bits) ||
        !take(args, "machine_bits", &a.machine_bits, &a.has_machine_bits) ||
        !take(args, "sequence_bits", &a.sequence_bits, &a.has_sequence_bits))
      return false;
    snowfleet_layout l = sized<snowfleet_layout>();
    if (outcome(expect, snowfleet_layout_create(&a, &l, &err), err))
      check_eq(std::string(l.text), expect.at("text").get<std::string>(), "text");
    return true;
  }
  if (op == "fields") {
    std::string record = args.at("record").at("text");
    // A UUIDv7 generator reports in the same snowfleet_stats / snowfleet_status records.
    if (record.rfind("uuid7_", 0) == 0) record.erase(0, 6);
    const std::string name =
        record == "stats" || record == "status" || record == "layout" ? record : "generator";
    json names = json::array();
    for (size_t i = 0; const char* f = snowfleet_field_name(name.c_str(), i); ++i) names.push_back(f);
    check_eq(names, expect.at("names"), "names");
    return true;
  }
  check(false, "unknown op " + op);
  return false;
}

// ---- the files ------------------------------------------------------------------------------

struct Tally {
  int ran = 0, passed = 0, skipped = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: conformance_c VECTORS_DIR\n");
    return 2;
  }
  g_dir = argv[1];
  const std::map<std::string, std::pair<const char*, std::function<bool(const json&)>>> files = {
      {"arguments.json", {"arguments", run_argument}},
      {"codec.json", {"codec", run_codec}},
      {"layout.json", {"layout", [](const json& c) { return run_layout(c), true; }}},
      {"range.json", {"range", [](const json& c) { return run_range(c), true; }}},
      {"scenarios.json", {"scenario", [](const json& c) { return run_scenario(c), true; }}},
      {"text.json", {"text", [](const json& c) { return run_text(c), true; }}},
      {"time.json", {"time", [](const json& c) { return run_time(c), true; }}},
      {"uuid7.json", {"uuid7", [](const json& c) { return run_uuid7(c), true; }}},
  };
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(g_dir))
    if (entry.path().extension() == ".json") on_disk.insert(entry.path().filename().string());
  for (const auto& name : on_disk)
    if (!files.count(name)) {
      std::fprintf(stderr, "FAIL: %s has no runner here\n", name.c_str());
      ++g_failed_checks;
    }
  Tally total;
  for (const auto& [name, kind_run] : files) {
    Tally t;
    try {
      const json doc = load(name, kind_run.first);
      for (const auto& c : doc.at("cases")) {
        g_case = c.at("id").get<std::string>();
        g_case_ok = true;
        bool ran = false;
        try {
          ran = kind_run.second(c);
        } catch (const std::exception& e) {
          check(false, std::string("runner: ") + e.what());
          ran = true;
        }
        if (!ran) {
          ++t.skipped;
          continue;
        }
        ++t.ran;
        if (g_case_ok) ++t.passed;
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "FAIL %s: %s\n", name.c_str(), e.what());
      ++g_failed_checks;
    }
    std::printf("%-15s %3d cases passed of %3d run (%d skipped: not expressible in C)\n",
                name.c_str(), t.passed, t.ran, t.skipped);
    total.ran += t.ran, total.passed += t.passed, total.skipped += t.skipped;
  }
  std::printf("C interface: %d of %d cases passed, %d skipped, %d failed checks\n", total.passed,
              total.ran, total.skipped, g_failed_checks);
  return g_failed_checks == 0 && total.passed == total.ran ? 0 : 1;
}
