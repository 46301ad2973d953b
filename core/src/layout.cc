// Layout: validation, presets and the compact text form "41.10.12@1704067200000".
#include <charconv>
#include <string>

#include "internal.hpp"
#include "quote.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

[[noreturn]] void bad(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, what); }

void check(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
           int sequence_bits) {
  if (epoch_ms < 0 || epoch_ms > Layout::kMaxEpochMs)
    bad("layout epoch_ms must be in [0, " + std::to_string(Layout::kMaxEpochMs) + "], got " +
        std::to_string(epoch_ms));
  if (timestamp_bits < Layout::kMinTimestampBits || timestamp_bits > Layout::kMaxTimestampBits)
    bad("layout timestamp_bits must be in [" + std::to_string(Layout::kMinTimestampBits) + ", " +
        std::to_string(Layout::kMaxTimestampBits) + "], got " + std::to_string(timestamp_bits));
  if (datacenter_bits < 0 || datacenter_bits > 62)
    bad("layout datacenter_bits must be in [0, 62], got " + std::to_string(datacenter_bits));
  if (machine_bits < 0 || machine_bits > 62)
    bad("layout machine_bits must be in [0, 62], got " + std::to_string(machine_bits));
  if (sequence_bits < 0 || sequence_bits > 62)
    bad("layout sequence_bits must be in [0, 62], got " + std::to_string(sequence_bits));
  const int total = timestamp_bits + datacenter_bits + machine_bits + sequence_bits;
  if (total != 63)
    bad("layout fields must add up to 63 bits (plus the sign bit), got " +
        std::to_string(total));
}

}  // namespace

Layout Layout::create(int64_t epoch_ms, int timestamp_bits, int node_bits, int sequence_bits) {
  check(epoch_ms, timestamp_bits, 0, node_bits, sequence_bits);
  Layout l;
  l.epoch_ms_ = epoch_ms;
  l.timestamp_bits_ = timestamp_bits;
  l.datacenter_bits_ = 0;
  l.machine_bits_ = node_bits;
  l.sequence_bits_ = sequence_bits;
  return l;
}

Layout Layout::create_split(int64_t epoch_ms, int timestamp_bits, int datacenter_bits,
                            int machine_bits, int sequence_bits) {
  if (datacenter_bits < 1)
    bad("a split layout needs datacenter_bits >= 1, got " + std::to_string(datacenter_bits));
  check(epoch_ms, timestamp_bits, datacenter_bits, machine_bits, sequence_bits);
  Layout l;
  l.epoch_ms_ = epoch_ms;
  l.timestamp_bits_ = timestamp_bits;
  l.datacenter_bits_ = datacenter_bits;
  l.machine_bits_ = machine_bits;
  l.sequence_bits_ = sequence_bits;
  return l;
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
    if (n == 4 || !detail::parse_uint(rest.substr(0, dot), &bits[n]) || bits[n] > 63)
      bad("layout " + quoted + ": bit widths must be 3 or 4 dot-separated integers");
    ++n;
    if (dot == std::string_view::npos) break;
    rest = rest.substr(dot + 1);
  }
  if (n < 3) bad("layout " + quoted + ": bit widths must be 3 or 4 dot-separated integers");
  const auto b = [&](size_t i) { return static_cast<int>(bits[i]); };
  try {
    if (n == 3) return create(epoch, b(0), b(1), b(2));
    if (bits[1] == 0) return create(epoch, b(0), b(2), b(3));
    return create_split(epoch, b(0), b(1), b(2), b(3));
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
