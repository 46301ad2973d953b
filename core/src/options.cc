// The rulebook for a generator's arguments: which node forms go together, what each one
// must hold, and the defaults. Every binding hands the user's arguments here unchanged (as
// GeneratorArgs), so no language keeps a rule of its own.
#include <string>

#include "quote.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

[[noreturn]] void bad(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, what); }

std::string given(const GeneratorArgs& a) {
  std::string out;
  auto add = [&out](const std::string& part) { out += (out.empty() ? "" : " and ") + part; };
  if (a.node_id) add("node_id=" + std::to_string(*a.node_id));
  if (a.datacenter_id && a.machine_id)
    add("datacenter_id=" + std::to_string(*a.datacenter_id) +
        " + machine_id=" + std::to_string(*a.machine_id));
  if (a.node_source) add("node_source=" + detail::quote(*a.node_source));
  return out;
}

void check_half(const char* name, int64_t value, int64_t max, const Layout& layout) {
  if (value < 0 || value > max)
    bad(std::string(name) + " must be in [0, " + std::to_string(max) + "] for layout " +
        layout.to_string() + ", got " + std::to_string(value));
}

}  // namespace

GeneratorOptions resolve_options(GeneratorArgs a) {
  GeneratorOptions o;
  if (a.layout) o.layout = *a.layout;
  if (a.node_source && a.node_source->empty())
    bad("node_source must not be empty, got ''; give node_id, datacenter_id + machine_id, or "
        "a source such as 'static:37' or 'local'");
  if (a.datacenter_id.has_value() != a.machine_id.has_value())
    bad(a.datacenter_id ? "datacenter_id=" + std::to_string(*a.datacenter_id) +
                              " needs machine_id too (the node is datacenter_id + machine_id)"
                        : "machine_id=" + std::to_string(*a.machine_id) +
                              " needs datacenter_id too (the node is datacenter_id + machine_id)");
  const int forms = int{a.node_id.has_value()} + int{a.datacenter_id.has_value()} +
                    int{a.node_source.has_value()};
  if (forms == 0)
    bad("a generator needs node_id, datacenter_id + machine_id, or node_source; got none");
  if (forms > 1)
    bad("give one of node_id, datacenter_id + machine_id, or node_source; got " + given(a));
  if (a.node_id) o.node_id = *a.node_id;
  if (a.node_source) o.node_source = std::move(*a.node_source);
  if (a.datacenter_id) {
    check_half("datacenter_id", *a.datacenter_id, o.layout.max_datacenter_id(), o.layout);
    check_half("machine_id", *a.machine_id, o.layout.max_machine_id(), o.layout);
    o.node_id = (*a.datacenter_id << o.layout.machine_bits()) | *a.machine_id;
  }
  if (a.mode) o.mode = parse_mode(*a.mode);
  if (a.max_wait_ms) o.max_wait_ms = *a.max_wait_ms;
  if (a.max_drift_ms) o.max_drift_ms = *a.max_drift_ms;
  o.clock = std::move(a.clock);
  o.wait_hooks = a.wait_hooks;
  return o;
}

}  // namespace snowfleet
