// The C++ conformance runner: executes every case of conformance/vectors/*.json against
// the core. The same files are run by the Python, Node and Java runners.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "conformance_util.hpp"
#include "snowfleet/snowfleet.hpp"

using json = nlohmann::json;
using namespace snowfleet;
using conformance::expect_outcome;
using conformance::i64;
using conformance::load;

namespace {

json describe(const Layout& l) {
  return {{"text", l.to_string()},
          {"preset", l.preset_name()},
          {"epoch_ms", std::to_string(l.epoch_ms())},
          {"timestamp_bits", l.timestamp_bits()},
          {"node_bits", l.node_bits()},
          {"datacenter_bits", l.datacenter_bits()},
          {"machine_bits", l.machine_bits()},
          {"sequence_bits", l.sequence_bits()},
          {"timestamp_shift", l.timestamp_shift()},
          {"node_shift", l.node_shift()},
          {"max_node_id", l.max_node_id()},
          {"max_datacenter_id", l.max_datacenter_id()},
          {"max_machine_id", l.max_machine_id()},
          {"max_sequence", l.max_sequence()},
          {"max_elapsed_ms", std::to_string(l.max_elapsed_ms())},
          {"max_timestamp_ms", std::to_string(l.max_timestamp_ms())}};
}

// Compares every key of `expect` with `actual`.
void check_subset(const json& expect, const json& actual) {
  for (auto it = expect.begin(); it != expect.end(); ++it) {
    INFO("key " << it.key());
    REQUIRE(actual.contains(it.key()));
    CHECK(actual[it.key()] == it.value());
  }
}

json summarize(const std::vector<int64_t>& ids, const Layout& l) {
  json out = {{"count", ids.size()}};
  bool increasing = true;
  uint64_t sum = 0;
  int64_t max_seq = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0 && ids[i] <= ids[i - 1]) increasing = false;
    sum += static_cast<uint64_t>(ids[i]);
    max_seq = std::max(max_seq, ids[i] & l.max_sequence());
  }
  out["strictly_increasing"] = increasing;
  out["sum"] = std::to_string(sum);
  if (!ids.empty()) {
    out["first"] = std::to_string(ids.front());
    out["last"] = std::to_string(ids.back());
    out["max_sequence"] = max_seq;
  }
  return out;
}

std::vector<ScriptedClock::Segment> segments(const json& script) {
  std::vector<ScriptedClock::Segment> out;
  for (const auto& s : script)
    out.push_back({i64(s.at("ms")), s.value("count", int64_t{1}), s.value("step_ms", int64_t{0}),
                   s.value("every", int64_t{1})});
  return out;
}

struct Live {
  std::shared_ptr<ScriptedClock> clock;
  std::unique_ptr<Generator> gen;
};

}  // namespace

TEST_CASE("conformance: every vector file has a TEST_CASE here", "[conformance]") {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(SNOWFLEET_CONFORMANCE_DIR))
    if (entry.path().extension() == ".json") names.insert(entry.path().filename().string());
  // text.json and range.json run in conformance_text_range.cc.
  CHECK(names == std::set<std::string>{"arguments.json", "codec.json", "layout.json",
                                       "range.json", "scenarios.json", "text.json",
                                       "time.json", "uuid7.json"});
}

TEST_CASE("conformance: layout vectors", "[conformance]") {
  const json doc = load("layout.json");
  REQUIRE(doc.at("kind") == "layout");
  for (const auto& c : doc.at("cases")) {
    SECTION(c.at("id").get<std::string>()) {
      const json& expect = c.at("expect");
      const auto got = expect_outcome(expect, [&] {
        if (c.at("op") == "parse") return Layout::parse(c.at("text").get<std::string>());
        REQUIRE(c.at("op") == "create");
        const int64_t epoch = i64(c.at("epoch_ms"));
        if (c.contains("datacenter_bits"))
          return Layout::create_split(epoch, c.at("timestamp_bits"), c.at("datacenter_bits"),
                                      c.at("machine_bits"), c.at("sequence_bits"));
        return Layout::create(epoch, c.at("timestamp_bits"), c.at("node_bits"),
                              c.at("sequence_bits"));
      });
      if (got) {
        check_subset(expect, describe(*got));
        CHECK(Layout::parse(got->to_string()) == *got);  // the text form round-trips
      }
    }
  }
}

TEST_CASE("conformance: codec vectors", "[conformance]") {
  const json doc = load("codec.json");
  REQUIRE(doc.at("kind") == "codec");
  for (const auto& c : doc.at("cases")) {
    SECTION(c.at("id").get<std::string>()) {
      const json& expect = c.at("expect");
      const std::string op = c.at("op");
      if (op == "parse_id") {
        const auto got = expect_outcome(expect, [&] { return parse_id(c.at("text").get<std::string>()); });
        if (got) CHECK(std::to_string(*got) == expect.at("id").get<std::string>());
        continue;
      }
      const Layout layout = Layout::parse(c.at("layout").get<std::string>());
      if (op == "compose") {
        const auto got = expect_outcome(expect, [&] {
          const int64_t ts = i64(c.at("timestamp_ms"));
          if (c.contains("datacenter_id"))
            return compose_split(layout, ts, c.at("datacenter_id"), c.at("machine_id"),
                                 c.at("sequence"));
          return compose(layout, ts, c.at("node_id"), c.at("sequence"));
        });
        if (got) CHECK(std::to_string(*got) == expect.at("id").get<std::string>());
      } else {
        REQUIRE(op == "decode");
        const auto got = expect_outcome(expect, [&] { return decode(layout, i64(c.at("value"))); });
        if (got)
          check_subset(expect, json{{"timestamp_ms", std::to_string(got->timestamp_ms)},
                                    {"node_id", got->node_id},
                                    {"datacenter_id", got->datacenter_id},
                                    {"machine_id", got->machine_id},
                                    {"sequence", got->sequence}});
      }
    }
  }
}

TEST_CASE("conformance: time vectors", "[conformance]") {
  const json doc = load("time.json");
  REQUIRE(doc.at("kind") == "time");
  for (const auto& c : doc.at("cases")) {
    SECTION(c.at("id").get<std::string>()) {
      REQUIRE(c.at("op") == "parse_time");
      const json& expect = c.at("expect");
      const auto got =
          expect_outcome(expect, [&] { return parse_iso8601(c.at("text").get<std::string>()); });
      if (!got) continue;
      CHECK(std::to_string(*got) == expect.at("timestamp_ms").get<std::string>());
      // Inside years 0000-9999 the core's own text for that ms reads back the same.
      if (*got >= -62167219200000 && *got <= Layout::kMaxEpochMs)
        CHECK(parse_iso8601(format_iso8601(*got)) == *got);
    }
  }
}

TEST_CASE("conformance: scenario vectors", "[conformance]") {
  const json doc = load("scenarios.json");
  REQUIRE(doc.at("kind") == "scenario");
  for (const auto& c : doc.at("cases")) {
    SECTION(c.at("id").get<std::string>()) {
      std::map<std::string, Live> gens;
      std::map<std::string, json> deferred;  // opened by an "open" step
      std::string first;
      // Constructs the generator `g` describes on its own scripted clock or on the clock of
      // the generator named by clock_of (one clock object: one time).
      auto construct = [&](const json& g) {
        Live live;
        GeneratorOptions o;
        o.layout = Layout::parse(g.at("layout").get<std::string>());
        o.node_id = g.at("node_id");
        o.mode = parse_mode(g.at("mode").get<std::string>());
        o.max_wait_ms = g.at("max_wait_ms");
        o.max_drift_ms = g.at("max_drift_ms");
        live.clock = g.contains("clock_of") ? gens.at(g["clock_of"].get<std::string>()).clock
                                            : std::make_shared<ScriptedClock>(segments(g.at("clock")));
        o.clock = live.clock;
        live.gen = std::make_unique<Generator>(o);
        return live;
      };
      for (const auto& g : c.at("generators")) {
        const std::string name = g.at("name");
        if (first.empty()) first = name;
        if (g.value("deferred", false)) {
          deferred[name] = g;
          continue;
        }
        const json none = json::object();
        const json& expect = g.contains("expect_construct_error") ? g["expect_construct_error"] : none;
        Live live;
        expect_outcome(expect, [&] {
          live = construct(g);
          return 0;
        });
        if (!g.contains("expect_construct_error")) gens[name] = std::move(live);
      }
      int index = 0;
      for (const auto& step : c.at("steps")) {
        INFO("step " << index++ << ": " << step.dump());
        const std::string name = step.value("gen", first);
        if (step.at("op") == "open") {
          Live live;
          expect_outcome(step.at("expect"), [&] {
            live = construct(deferred.at(name));
            return 0;
          });
          if (live.gen) gens[name] = std::move(live);
          continue;
        }
        Live& live = gens.at(name);
        Generator& gen = *live.gen;
        const json& expect = step.at("expect");
        const std::string op = step.at("op");
        if (op == "next_id" && step.value("repeat", 1) == 1) {
          const auto got = expect_outcome(expect, [&] { return gen.next_id(); });
          if (got) CHECK(std::to_string(*got) == expect.at("id").get<std::string>());
        } else if (op == "next_id") {
          std::vector<int64_t> ids;
          for (int i = 0; i < step.at("repeat").get<int>(); ++i) ids.push_back(gen.next_id());
          check_subset(expect, summarize(ids, gen.layout()));
        } else if (op == "next_ids") {
          const int64_t n = step.at("n");
          const auto got = expect_outcome(expect, [&] {
            // A negative count is an invalid argument in every binding; size_t wraps it to a
            // huge value, which the core rejects the same way.
            return gen.next_ids(static_cast<size_t>(n));
          });
          if (got) check_subset(expect, summarize(*got, gen.layout()));
        } else if (op == "stats") {
          const Stats st = gen.stats();
          check_subset(expect, json{{"ids_issued", st.ids_issued},
                                    {"rewinds_seen", st.rewinds_seen},
                                    {"waits", st.waits},
                                    {"waited_ns_total", std::to_string(st.waited_ns_total)},
                                    {"waited_ns_max", std::to_string(st.waited_ns_max)},
                                    {"refusals", st.refusals},
                                    {"ms_borrowed", st.ms_borrowed}});
        } else if (op == "status") {
          const Status st = gen.status();
          check_subset(expect, json{{"healthy", st.healthy},
                                    {"wall_ms", std::to_string(st.wall_ms)},
                                    {"last_ms", std::to_string(st.last_ms)},
                                    {"drift_ms", st.drift_ms},
                                    {"node_id", st.node_id}});
          CHECK(st.healthy == st.reason.empty());
        } else if (op == "drift") {
          check_subset(expect, json{{"drift_ms", gen.drift_ms()}});
        } else if (op == "close") {
          gen.close();
        } else {
          REQUIRE(op == "clock");
          const ScriptedClock& k = *live.clock;
          check_subset(expect, json{{"reads", k.reads()},
                                    {"sleep_count", k.sleep_count()},
                                    {"slept_ns", std::to_string(k.slept_ns())},
                                    {"max_sleep_ns", std::to_string(k.max_sleep_ns())},
                                    {"min_sleep_ns", std::to_string(k.min_sleep_ns())}});
        }
      }
    }
  }
}
