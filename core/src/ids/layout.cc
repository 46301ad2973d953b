// Layout: validation, presets and the compact text form "41.10.12@1704067200000".
#include <charconv>
#include <string>

#include "base/internal.hpp"
#include "base/fail.hpp"
#include "base/quote.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

using detail::bad;

// Checked in int64 before anything narrows, so no width wraps into range. `node_name`
// names the unsplit node field ("node_bits") or the split one's low half ("machine_bits").
void check(int64_t epoch_ms, int64_t timestamp_bits, int64_t datacenter_bits,
           int64_t machine_bits, int64_t sequence_bits, const char* node_name) {
  if (epoch_ms < 0 || epoch_ms > Layout::kMaxEpochMs)
    bad("layout epoch_ms must be in [0, " + std::to_string(Layout::kMaxEpochMs) + "], got " +
        std::to_string(epoch_ms));
  if (timestamp_bits < Layout::kMinTimestampBits || timestamp_bits > Layout::kMaxTimestampBits)
    bad("layout timestamp_bits must be in [" + std::to_string(Layout::kMinTimestampBits) + ", " +
        std::to_string(Layout::kMaxTimestampBits) + "], got " + std::to_string(timestamp_bits));
  if (datacenter_bits < 0 || datacenter_bits > 62)
    bad("layout datacenter_bits must be in [0, 62], got " + std::to_string(datacenter_bits));
  if (machine_bits < 0 || machine_bits > 62)
    bad(std::string("layout ") + node_name + " must be in [0, 62], got " +
        std::to_string(machine_bits));
  if (sequence_bits < 0 || sequence_bits > 62)
    bad("layout sequence_bits must be in [0, 62], got " + std::to_string(sequence_bits));
  const int64_t total = timestamp_bits + datacenter_bits + machine_bits + sequence_bits;
  if (total != 63)
    bad("layout fields must add up to 63 bits (plus the sign bit), got " +
        std::to_string(total));
}

}  // namespace

Layout Layout::create(int64_t epoch_ms, int64_t timestamp_bits, int64_t node_bits,
                      int64_t sequence_bits) {
  check(epoch_ms, timestamp_bits, 0, node_bits, sequence_bits, "node_bits");
  return Layout(epoch_ms, static_cast<int>(timestamp_bits), 0, static_cast<int>(node_bits),
                static_cast<int>(sequence_bits));
}

Layout Layout::create_split(int64_t epoch_ms, int64_t timestamp_bits, int64_t datacenter_bits,
                            int64_t machine_bits, int64_t sequence_bits) {
  if (datacenter_bits < 1)
    bad("a split layout needs datacenter_bits >= 1, got " + std::to_string(datacenter_bits));
  check(epoch_ms, timestamp_bits, datacenter_bits, machine_bits, sequence_bits, "machine_bits");
  return Layout(epoch_ms, static_cast<int>(timestamp_bits), static_cast<int>(datacenter_bits),
                static_cast<int>(machine_bits), static_cast<int>(sequence_bits));
}

Layout Layout::create(const LayoutArgs& a) {
  for (const auto& [field, name] : {std::pair{&a.epoch_ms, "epoch_ms"},
                                    std::pair{&a.timestamp_bits, "timestamp_bits"},
                                    std::pair{&a.sequence_bits, "sequence_bits"}})
    if (!field->has_value()) bad(std::string("a layout needs ") + name + "; got none");
  if (a.datacenter_bits.has_value() != a.machine_bits.has_value())
    bad(a.datacenter_bits ? "datacenter_bits=" + std::to_string(*a.datacenter_bits) +
                                " needs machine_bits too (a split node field)"
                          : "machine_bits=" + std::to_string(*a.machine_bits) +
                                " needs datacenter_bits too (a split node field)");
  if (a.node_bits && a.datacenter_bits)
    bad("give node_bits or datacenter_bits + machine_bits, not both; got node_bits=" +
        std::to_string(*a.node_bits) + " and datacenter_bits=" +
        std::to_string(*a.datacenter_bits) + " + machine_bits=" +
        std::to_string(*a.machine_bits));
  if (!a.node_bits && !a.datacenter_bits)
    bad("a layout needs node_bits, or datacenter_bits + machine_bits; got none");
  if (a.node_bits) return create(*a.epoch_ms, *a.timestamp_bits, *a.node_bits, *a.sequence_bits);
  return create_split(*a.epoch_ms, *a.timestamp_bits, *a.datacenter_bits, *a.machine_bits,
                      *a.sequence_bits);
}

Layout Layout::parse(std::string_view text) {
  if (text == "default") return kDefault;
  if (text == "twitter") return kTwitter;
  if (text == "discord") return kDiscord;
  const std::string quoted = detail::quote(text);
  const auto at = text.find('@');
  if (at == std::string_view::npos)
    bad("layout " + quoted +
        " is not a preset (default, twitter, discord) nor of the form "
        "TIMESTAMP.NODE.SEQUENCE@EPOCH_MS or TIMESTAMP.DATACENTER.MACHINE.SEQUENCE@EPOCH_MS");
  int64_t epoch = 0;
  if (!detail::parse_uint(text.substr(at + 1), &epoch))
    bad("layout " + quoted + ": the epoch after '@' must be a non-negative integer of ms");
  int64_t bits[4];
  size_t n = 0;
  std::string_view rest = text.substr(0, at);
  while (true) {
    const auto dot = rest.find('.');
    if (n == 4 || !detail::parse_uint(rest.substr(0, dot), &bits[n]))
      bad("layout " + quoted + ": bit widths must be 3 or 4 dot-separated integers");
    ++n;
    if (dot == std::string_view::npos) break;
    rest = rest.substr(dot + 1);
  }
  if (n < 3) bad("layout " + quoted + ": bit widths must be 3 or 4 dot-separated integers");
  // Any width that is an integer reaches create, which checks each field's range in int64
  // before narrowing: '64.0.0@0' names timestamp_bits and its range, not the text's form.
  try {
    if (n == 3) return create(epoch, bits[0], bits[1], bits[2]);
    if (bits[1] == 0) return create(epoch, bits[0], bits[2], bits[3]);
    return create_split(epoch, bits[0], bits[1], bits[2], bits[3]);
  } catch (const Error& e) {
    bad("layout " + quoted + ": " + e.what());  // name the text the caller gave
  }
}

std::string Layout::to_string() const {
  std::string s = std::to_string(timestamp_bits_) + ".";
  if (split()) s += std::to_string(datacenter_bits_) + ".";
  s += std::to_string(machine_bits_) + "." + std::to_string(sequence_bits_) + "@" +
       std::to_string(epoch_ms_);
  return s;
}

const char* Layout::preset_name() const noexcept {
  if (*this == kDefault) return "default";
  if (*this == kTwitter) return "twitter";
  if (*this == kDiscord) return "discord";
  return "";
}

}  // namespace snowfleet
