// The C++ runner of conformance/vectors/arguments.json: the argument rulebook, applied by
// resolve_options(), compose(NodeArgs), decode(text), Generator::batch_size and the field
// lists. C++ is statically typed: a case expecting the host's type error ("TYPE"), or
// giving a value of a type the parameter cannot hold (a float or text for an integer, an
// integer past int64), is a compile-time error here and is skipped.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "conformance_util.hpp"
#include "snowfleet/snowfleet.hpp"

using namespace snowfleet;
using conformance::expect_outcome;
using conformance::json;

namespace {

constexpr int64_t kFrozenMs = 1737747358021;

// A host value as C++ would receive it; nullopt when C++ cannot even express the call.
std::optional<int64_t> as_int(const json& v) {
  if (!v.contains("int")) return std::nullopt;
  const std::string text = v["int"].get<std::string>();
  try {
    return text[0] == '-' ? -parse_id(text.substr(1)) : parse_id(text);
  } catch (const Error&) {
    return std::nullopt;  // past int64: no int64_t argument can hold it
  }
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

// Fills `out` from args[key] if present; false when C++ cannot express the value.
template <class T, class Conv>
bool take(const json& args, const char* key, std::optional<T>* out, Conv conv) {
  if (!args.contains(key)) return true;
  *out = conv(args[key]);
  return out->has_value();
}

// A vector's value as GeneratorArgs holds an argument of each kind (lists.h); the layout
// is parsed inside the checked call, so a vector's layout text stays text here.
std::optional<std::string> as_mode(const json& v) { return as_text(v); }

// Fills GeneratorArgs by expanding SNOWFLEET_GENERATOR_ARGS, so a vector's argument names are
// the list's: a key no entry has fails the case. false when C++ cannot express a value.
// The layout and the clock are the caller's (LAYOUT and CLOCK values are host objects).
bool build_args(const json& args, GeneratorArgs* a, std::optional<std::string>* layout) {
  for (const auto& [key, value] : args.items()) {
    bool known = false;
#define SNOWFLEET_X_KNOWN(name, camel, kind, doc) known = known || key == #name;
    SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_X_KNOWN)
#undef SNOWFLEET_X_KNOWN
    if (!known) FAIL("argument '" << key << "' is not in SNOWFLEET_GENERATOR_ARGS");
    if (key == "clock") FAIL("a vector cannot give a clock");
  }
  bool ok = take(args, "layout", layout, as_text);
#define SNOWFLEET_X_I64(name) ok = ok && take(args, #name, &a->name, as_int);
#define SNOWFLEET_X_F64(name) ok = ok && take(args, #name, &a->name, as_number);
#define SNOWFLEET_X_TEXT(name) ok = ok && take(args, #name, &a->name, as_text);
#define SNOWFLEET_X_MODE(name) ok = ok && take(args, #name, &a->name, as_mode);
#define SNOWFLEET_X_LAYOUT(name)
#define SNOWFLEET_X_CLOCK(name)
#define SNOWFLEET_X_TAKE(name, camel, kind, doc) SNOWFLEET_X_##kind(name)
  SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_X_TAKE)
#undef SNOWFLEET_X_TAKE
#undef SNOWFLEET_X_CLOCK
#undef SNOWFLEET_X_LAYOUT
#undef SNOWFLEET_X_MODE
#undef SNOWFLEET_X_TEXT
#undef SNOWFLEET_X_F64
#undef SNOWFLEET_X_I64
  return ok;
}

std::unique_ptr<Generator> batch_generator(std::shared_ptr<ScriptedClock> clock) {
  GeneratorArgs a;
  a.node_id = 9;
  a.clock = std::move(clock);
  return std::make_unique<Generator>(resolve_options(std::move(a)));
}

json fields_of(const std::vector<FieldInfo>& fields) {
  json names = json::array();
  for (const FieldInfo& f : fields) names.push_back(f.name);
  return names;
}

// Runs one case; false when C++ cannot express it (skipped).
bool run_case(const json& c) {
  const std::string op = c.at("op");
  const json& args = c.at("args");
  const json& expect = c.at("expect");
  if (expect.value("error", "") == "TYPE") return false;
  auto clock = std::make_shared<ScriptedClock>(kFrozenMs);

  if (op == "generator") {
    GeneratorArgs a;
    std::optional<std::string> layout;
    if (!build_args(args, &a, &layout)) return false;
    auto made = expect_outcome(expect, [&] {
      // The layout text is parsed first, as every binding converts it before the call.
      if (layout) a.layout = Layout::parse(*layout);
      a.clock = clock;
      return std::make_shared<Generator>(resolve_options(std::move(a)));
    });
    if (made) {
      const Generator& g = **made;
      CHECK(g.node_id() == expect.at("node_id").get<int64_t>());
      CHECK(g.layout().to_string() == expect.at("layout").get<std::string>());
      CHECK(std::string(mode_name(g.mode())) == expect.at("mode").get<std::string>());
      CHECK(g.max_wait_ms() == expect.at("max_wait_ms").get<double>());
      CHECK(g.max_drift_ms() == expect.at("max_drift_ms").get<int64_t>());
    }
    return true;
  }

  if (op == "next_ids" || op == "next_id" || op == "status" || op == "close") {
    std::optional<int64_t> n;
    if (op == "next_ids" && !take(args, "n", &n, as_int)) return false;
    auto gen = batch_generator(clock);
    const int64_t before = gen->next_id();
    if (c.value("closed", false)) gen->close();
    const uint64_t issued = gen->stats().ids_issued;
    if (op == "status") {
      const Status st = gen->status();
      CHECK(st.healthy == expect.at("healthy").get<bool>());
      CHECK(st.reason == expect.at("reason").get<std::string>());
      return true;
    }
    if (op == "close") {
      gen->close();
      CHECK(gen->closed());
      return true;
    }
    auto got = expect_outcome(expect, [&]() -> int64_t {
      if (op == "next_id") return gen->next_id() > before ? 1 : -1;
      const size_t count = gen->batch_size(*n);
      std::vector<int64_t> ids(count);
      gen->next_ids(ids.data(), count);
      for (int64_t id : ids) CHECK(id > before);
      return static_cast<int64_t>(count);
    });
    if (got) {
      if (op == "next_ids") CHECK(*got == expect.at("count").get<int64_t>());
    } else if (!gen->closed()) {
      // Refused: nothing was issued and the generator still continues after `before`.
      CHECK(gen->stats().ids_issued == issued);
      CHECK(gen->next_id() > before);
    }
    return true;
  }

  if (op == "decode") {
    const Layout layout = Layout::parse(args.at("layout").at("text").get<std::string>());
    const json& id = args.at("id");
    std::optional<int64_t> as_number_id;
    if (id.contains("int") && !(as_number_id = as_int(id))) return false;
    if (!id.contains("int") && !id.contains("text")) return false;
    auto d = expect_outcome(expect, [&] {
      return as_number_id ? decode(layout, *as_number_id)
                          : decode(layout, id.at("text").get<std::string>());
    });
    if (d) {
      CHECK(std::to_string(d->timestamp_ms) == expect.at("timestamp_ms").get<std::string>());
      CHECK(d->node_id == expect.at("node_id").get<int64_t>());
      CHECK(d->datacenter_id == expect.at("datacenter_id").get<int64_t>());
      CHECK(d->machine_id == expect.at("machine_id").get<int64_t>());
      CHECK(d->sequence == expect.at("sequence").get<int64_t>());
    }
    return true;
  }

  if (op == "compose") {
    const Layout layout = Layout::parse(args.at("layout").at("text").get<std::string>());
    NodeArgs node;
    std::optional<int64_t> ts, seq;  // an absent sequence stays nullopt: the core's default
    if (!take(args, "timestamp_ms", &ts, as_int) || !take(args, "sequence", &seq, as_int) ||
        !take(args, "node_id", &node.node_id, as_int) ||
        !take(args, "datacenter_id", &node.datacenter_id, as_int) ||
        !take(args, "machine_id", &node.machine_id, as_int))
      return false;
    auto id = expect_outcome(expect, [&] { return compose(layout, *ts, node, seq); });
    if (id) CHECK(std::to_string(*id) == expect.at("id").get<std::string>());
    return true;
  }

  if (op == "layout_create") {
    LayoutArgs la;
    if (!take(args, "epoch_ms", &la.epoch_ms, as_int) ||
        !take(args, "timestamp_bits", &la.timestamp_bits, as_int) ||
        !take(args, "node_bits", &la.node_bits, as_int) ||
        !take(args, "datacenter_bits", &la.datacenter_bits, as_int) ||
        !take(args, "machine_bits", &la.machine_bits, as_int) ||
        !take(args, "sequence_bits", &la.sequence_bits, as_int))
      return false;
    auto layout = expect_outcome(expect, [&] { return Layout::create(la); });
    if (layout) CHECK(layout->to_string() == expect.at("text").get<std::string>());
    return true;
  }

  if (op == "fields") {
    const std::string record = args.at("record").at("text");
    // A UUIDv7 generator's records are the same types (Uuid7Generator::stats/status).
    const std::vector<FieldInfo>& fields =
        record == "stats" || record == "uuid7_stats"     ? stats_fields()
        : record == "status" || record == "uuid7_status" ? status_fields()
        : record == "layout"                             ? layout_fields()
                                                         : generator_arg_fields();
    CHECK(fields_of(fields) == expect.at("names"));
    return true;
  }
  FAIL("unknown op " << op);
  return false;
}

}  // namespace

TEST_CASE("conformance: argument vectors", "[conformance]") {
  const json doc = conformance::load("arguments.json");
  REQUIRE(doc.at("kind") == "arguments");
  int ran = 0;
  for (const json& c : doc.at("cases")) {
    INFO("case " << c.at("id").get<std::string>());
    if (run_case(c)) ++ran;
  }
  // Every case C++ can express runs; the rest are host type checks.
  CHECK(ran >= 70);
}
