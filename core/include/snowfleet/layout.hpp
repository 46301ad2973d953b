// snowfleet public API: Layout, the bit layout of an id.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "snowfleet/errors.hpp"
#include "snowfleet/lists.h"

namespace snowfleet {

/// A layout's fields as a user writes them in any language, every field optional.
/// Layout::create(LayoutArgs) requires epoch_ms, timestamp_bits and sequence_bits, and the
/// node field as node_bits (unsplit) or datacenter_bits + machine_bits (split), exactly
/// one form; each missing or conflicting field is a kInvalidArgument naming it.
struct LayoutArgs {
  std::optional<int64_t> epoch_ms;
  std::optional<int64_t> timestamp_bits;
  std::optional<int64_t> node_bits;
  std::optional<int64_t> datacenter_bits;
  std::optional<int64_t> machine_bits;
  std::optional<int64_t> sequence_bits;
};

/// The bit layout of an id: 1 sign bit (always 0) + timestamp + node + sequence = 64,
/// where node is optionally split into datacenter (high bits) + machine (low bits).
/// A Layout value is always valid: every constructor validates.
/// Text form: "41.10.12@1704067200000" or, split, "41.5.5.12@1288834974657"; the presets'
/// names ("default", "twitter", "discord") are accepted by parse() too.
class Layout {
 public:
  /// The default layout: 41.10.12@1704067200000 (epoch 2024-01-01T00:00:00Z).
  constexpr Layout() noexcept = default;

  /// Unsplit node field. Throws kInvalidArgument naming the bad field.
  static Layout create(int64_t epoch_ms, int64_t timestamp_bits, int64_t node_bits,
                       int64_t sequence_bits);
  /// Node field split into datacenter_bits (>= 1) + machine_bits.
  static Layout create_split(int64_t epoch_ms, int64_t timestamp_bits, int64_t datacenter_bits,
                             int64_t machine_bits, int64_t sequence_bits);
  /// A layout from its fields as a user gives them in any language (see LayoutArgs): the
  /// one rule for which fields go together, for every binding.
  static Layout create(const LayoutArgs& args);
  /// The presets, under the names every language uses (Layout.DEFAULT, .TWITTER, .DISCORD)
  /// and their text names "default", "twitter", "discord".
  static const Layout kDefault;  ///< 41.10.12@1704067200000
  static const Layout kTwitter;  ///< 41.5.5.12@1288834974657
  static const Layout kDiscord;  ///< 41.5.5.12@1420070400000
  /// Parses the text form or a preset name. Throws kInvalidArgument quoting the text.
  static Layout parse(std::string_view text);

  /// Canonical text form, e.g. "41.10.12@1704067200000".
  std::string to_string() const;
  /// "default", "twitter" or "discord" when equal to a preset, else "".
  const char* preset_name() const noexcept;

  int64_t epoch_ms() const noexcept { return epoch_ms_; }
  int timestamp_bits() const noexcept { return timestamp_bits_; }
  int node_bits() const noexcept { return datacenter_bits_ + machine_bits_; }
  int datacenter_bits() const noexcept { return datacenter_bits_; }  ///< 0 when unsplit
  int machine_bits() const noexcept { return machine_bits_; }        ///< == node_bits when unsplit
  int sequence_bits() const noexcept { return sequence_bits_; }
  bool split() const noexcept { return datacenter_bits_ > 0; }

  int node_shift() const noexcept { return sequence_bits_; }
  int timestamp_shift() const noexcept { return sequence_bits_ + node_bits(); }
  int64_t max_node_id() const noexcept { return (int64_t{1} << node_bits()) - 1; }
  int64_t max_datacenter_id() const noexcept { return (int64_t{1} << datacenter_bits_) - 1; }
  int64_t max_machine_id() const noexcept { return (int64_t{1} << machine_bits_) - 1; }
  int64_t max_sequence() const noexcept { return (int64_t{1} << sequence_bits_) - 1; }
  /// Largest elapsed-ms value the timestamp field holds: 2^timestamp_bits - 1.
  int64_t max_elapsed_ms() const noexcept { return (int64_t{1} << timestamp_bits_) - 1; }
  /// Last Unix millisecond the layout can represent: epoch_ms + max_elapsed_ms.
  int64_t max_timestamp_ms() const noexcept { return epoch_ms_ + max_elapsed_ms(); }

  friend bool operator==(const Layout& a, const Layout& b) noexcept {
    return a.epoch_ms_ == b.epoch_ms_ && a.timestamp_bits_ == b.timestamp_bits_ &&
           a.datacenter_bits_ == b.datacenter_bits_ && a.machine_bits_ == b.machine_bits_ &&
           a.sequence_bits_ == b.sequence_bits_;
  }
  friend bool operator!=(const Layout& a, const Layout& b) noexcept { return !(a == b); }

  /// Bounds every layout obeys (checked by create/parse).
  static constexpr int kMinTimestampBits = 1;
  /// 52 keeps every timestamp (epoch_ms + elapsed <= kMaxEpochMs + 2^52) below 2^53, so it
  /// is exact in a double (a JavaScript Number).
  static constexpr int kMaxTimestampBits = 52;
  static constexpr int64_t kMaxEpochMs = 253402300799999;  ///< 9999-12-31T23:59:59.999Z

 private:
  constexpr Layout(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                   int sequence_bits) noexcept
      : epoch_ms_(epoch_ms),
        timestamp_bits_(timestamp_bits),
        datacenter_bits_(datacenter_bits),
        machine_bits_(machine_bits),
        sequence_bits_(sequence_bits) {}

  int64_t epoch_ms_ = 1704067200000;
  int timestamp_bits_ = 41;
  int datacenter_bits_ = 0;
  int machine_bits_ = 10;
  int sequence_bits_ = 12;
};

// Layout's integer properties are SNOWFLEET_LAYOUT_FIELDS in lists.h: each entry's name is
// an accessor above (layout.name()), and every binding builds its Layout by expanding the list.

inline constexpr Layout Layout::kDefault{1704067200000, 41, 0, 10, 12};
inline constexpr Layout Layout::kTwitter{1288834974657, 41, 5, 5, 12};
inline constexpr Layout Layout::kDiscord{1420070400000, 41, 5, 5, 12};

}  // namespace snowfleet
