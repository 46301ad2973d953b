// Layout::parse: every accepted text is a preset or the digits-only form, and its layout
// prints (to_string) as the same text modulo leading zeros and parses back equal.
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"

using snowfleet::Layout;

namespace {

// Splits "a.b.c@e" into its number fields (timestamp, [datacenter,] node/machine, sequence,
// epoch), or returns {} when the text is not digits, dots and one '@'.
std::vector<std::string_view> fields_of(std::string_view text) {
  std::vector<std::string_view> out;
  const auto at = text.find('@');
  if (at == std::string_view::npos) return {};
  std::string_view bits = text.substr(0, at);
  for (;;) {
    const auto dot = bits.find('.');
    out.push_back(bits.substr(0, dot));
    if (dot == std::string_view::npos) break;
    bits.remove_prefix(dot + 1);
  }
  out.push_back(text.substr(at + 1));
  for (std::string_view f : out)
    if (!fuzz::all_digits(f)) return {};
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  Layout layout;
  try {
    layout = Layout::parse(text);
  } catch (const snowfleet::Error& e) {
    fuzz::check_refusal(e);
    return 0;
  }
  FUZZ_CHECK(layout.timestamp_bits() + layout.node_bits() + layout.sequence_bits() == 63);
  FUZZ_CHECK(layout.timestamp_bits() >= Layout::kMinTimestampBits &&
             layout.timestamp_bits() <= Layout::kMaxTimestampBits);
  FUZZ_CHECK(layout.epoch_ms() >= 0 && layout.epoch_ms() <= Layout::kMaxEpochMs);

  // Round trip: the canonical text parses back to the same layout and prints unchanged.
  const std::string canonical = layout.to_string();
  const Layout back = Layout::parse(canonical);
  FUZZ_CHECK(back == layout);
  FUZZ_CHECK(back.to_string() == canonical);

  // The accepted text is a preset name, or the canonical text modulo leading zeros (a
  // 4-field text with datacenter 0 is the unsplit layout).
  if (text == "default" || text == "twitter" || text == "discord") {
    FUZZ_CHECK(layout.preset_name() == text);
    return 0;
  }
  std::vector<std::string_view> f = fields_of(text);
  FUZZ_CHECK(f.size() == 4 || f.size() == 5);
  if (f.size() == 5 && fuzz::strip_zeros(f[1]) == "0") f.erase(f.begin() + 1);
  std::string normalized;  // the widths joined by '.', then '@' and the epoch
  for (size_t i = 0; i + 1 < f.size(); ++i)
    normalized += std::string(fuzz::strip_zeros(f[i])) + ".";
  normalized.back() = '@';
  normalized += fuzz::strip_zeros(f.back());
  FUZZ_CHECK(normalized == canonical);
  return 0;
}
