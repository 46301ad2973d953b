// The rulebook for a generator's arguments: which node forms go together, what each one
// must hold, and the defaults. Every binding hands the user's arguments here unchanged (as
// GeneratorArgs), so no language keeps a rule of its own.
#include <string>

#include "base/fail.hpp"
#include "base/quote.hpp"
#include "node_claim.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

using detail::bad;

std::string given(const NodeArgs& n, const std::optional<std::string>& source) {
  std::string out;
  auto add = [&out](const std::string& part) { out += (out.empty() ? "" : " and ") + part; };
  if (n.node_id) add("node_id=" + std::to_string(*n.node_id));
  if (n.datacenter_id && n.machine_id)
    add("datacenter_id=" + std::to_string(*n.datacenter_id) +
        " + machine_id=" + std::to_string(*n.machine_id));
  if (source) add("node_source=" + detail::quote(detail::redact_node_source(*source)));
  return out;
}

void check_half(const char* name, int64_t value, int64_t max, const Layout& layout) {
  if (value < 0 || value > max)
    bad(std::string(name) + " must be in [0, " + std::to_string(max) + "] for layout " +
        layout.to_string() + ", got " + std::to_string(value));
}

// Rules 2 and 3 of resolve_options(), shared with compose(): `who` needs one of `forms`.
void check_forms(const NodeArgs& n, const std::optional<std::string>& source, const char* who,
                 const char* forms_text) {
  if (n.datacenter_id.has_value() != n.machine_id.has_value())
    bad(n.datacenter_id ? "datacenter_id=" + std::to_string(*n.datacenter_id) +
                              " needs machine_id too (the node is datacenter_id + machine_id)"
                        : "machine_id=" + std::to_string(*n.machine_id) +
                              " needs datacenter_id too (the node is datacenter_id + machine_id)");
  const int forms =
      int{n.node_id.has_value()} + int{n.datacenter_id.has_value()} + int{source.has_value()};
  if (forms == 0) bad(std::string(who) + " needs " + forms_text + "; got none");
  if (forms > 1) bad(std::string("give one of ") + forms_text + "; got " + given(n, source));
}

// datacenter_id + machine_id as the node field's value (rule 4).
int64_t join_halves(const Layout& layout, int64_t datacenter_id, int64_t machine_id) {
  check_half("datacenter_id", datacenter_id, layout.max_datacenter_id(), layout);
  check_half("machine_id", machine_id, layout.max_machine_id(), layout);
  return (datacenter_id << layout.machine_bits()) | machine_id;
}

}  // namespace

GeneratorOptions resolve_options(GeneratorArgs a) {
  GeneratorOptions o;
  if (a.layout) o.layout = *a.layout;
  if (a.node_source && a.node_source->empty())
    bad("node_source must not be empty, got ''; give node_id, datacenter_id + machine_id, or "
        "a source such as 'static:37' or 'local'");
  const NodeArgs node{a.node_id, a.datacenter_id, a.machine_id};
  check_forms(node, a.node_source, "a generator",
              "node_id, datacenter_id + machine_id, or node_source");
  if (a.node_id) o.node_id = *a.node_id;
  if (a.node_source) o.node_source = std::move(*a.node_source);
  if (a.datacenter_id) o.node_id = join_halves(o.layout, *a.datacenter_id, *a.machine_id);
  if (a.mode) o.mode = parse_mode(*a.mode);
  if (a.max_wait_ms) o.max_wait_ms = *a.max_wait_ms;
  if (a.max_drift_ms) o.max_drift_ms = *a.max_drift_ms;
  o.clock = std::move(a.clock);
  o.wait_hooks = a.wait_hooks;
  return o;
}

int64_t compose(const Layout& layout, int64_t timestamp_ms, const NodeArgs& node,
                std::optional<int64_t> sequence) {
  const int64_t seq = sequence.value_or(0);
  check_forms(node, std::nullopt, "compose", "node_id, or datacenter_id + machine_id");
  if (node.node_id) return compose(layout, timestamp_ms, *node.node_id, seq);
  return compose_split(layout, timestamp_ms, *node.datacenter_id, *node.machine_id, seq);
}

int64_t last_packed_of_ms(const Layout& layout, int64_t unix_ms) noexcept {
  // Subtract in the layout's window only: unix_ms may be anything a mark file held.
  if (unix_ms < layout.epoch_ms()) return -1;
  const int64_t elapsed = unix_ms > layout.max_timestamp_ms() ? layout.max_elapsed_ms()
                                                              : unix_ms - layout.epoch_ms();
  return (elapsed << layout.sequence_bits()) | layout.max_sequence();
}

int64_t ms_of_packed(const Layout& layout, int64_t packed) noexcept {
  return (packed < 0 ? -1 : packed >> layout.sequence_bits()) + layout.epoch_ms();
}

}  // namespace snowfleet
