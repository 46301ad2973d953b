// A generator's place in the process's id-space registry (core/src/registry/): the state
// word it mints on, shared with every other open generator of the same id space in this
// process, whichever copy of the core made it. Internal.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "registry/abi.h"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

constexpr uint64_t kBiasRevoked = SNOWFLEET_BIAS_REVOKED;
constexpr uint64_t kBiasUnset = SNOWFLEET_BIAS_UNSET;

/// A bias nobody owns, and its `busy`: for state words outside the registry (the caller's
/// memory, a word other processes share), which only compare-and-swap may write.
std::atomic<uint64_t>* revoked_bias() noexcept;
std::atomic<uint64_t>* unused_busy() noexcept;

class IdSpace {
 public:
  /// Opens the id space of `node_id` under `layout` in `clock`'s time. `exclusive` (a
  /// leased node id): no other generator may have the space open. `description` names
  /// this generator in another one's refusal. `uuid7`: the space of a Uuid7Generator's
  /// inner generator, apart from every Snowflake space (a 128-bit UUID never equals a 64-bit
  /// id). Throws kNodeIdUnavailable naming the other generator when an open generator of
  /// this process overlaps the space but cannot share its word.
  IdSpace(const Layout& layout, int64_t node_id, const Clock& clock, bool exclusive,
          const std::string& description, bool uuid7 = false);
  /// Drops the word (the registry keeps the space's own reference).
  ~IdSpace();
  IdSpace(const IdSpace&) = delete;
  IdSpace& operator=(const IdSpace&) = delete;

  /// The state word: packed (elapsed_ms << sequence_bits | sequence) of the last id issued
  /// in the space, -1 before the first.
  std::atomic<int64_t>* word() const noexcept;
  /// The word's owner (registry/abi.h): a thread pointer, or one of the kBias values. A
  /// word nobody may own (a registry that predates owners) answers kBiasRevoked.
  std::atomic<uint64_t>* bias() const noexcept;
  std::atomic<uint64_t>* busy() const noexcept;
  /// Takes the word from its owner for good (the registry's unbias).
  void unbias() const noexcept;
  /// The generator closed. `retire`: the space continues from `final_value` in a fresh
  /// word and this generator keeps the old one (holding a sentinel in-flight calls see).
  void close(bool retire, int64_t final_value) noexcept;

  /// True when opening this space now would be refused (see the constructor); changes
  /// nothing. A lease claim uses it to skip slots the process already uses.
  static bool would_conflict(const Layout& layout, int64_t node_id, const Clock& clock,
                             bool exclusive);
  /// How many id spaces the process remembers (open or not).
  static size_t remembered() noexcept;
  /// `clock`'s time is gone: forget its spaces (a ScriptedClock's destructor calls it).
  static void forget(const Clock& clock) noexcept;

 private:
  snowfleet_slot* slot_ = nullptr;
  snowfleet_word* word_ = nullptr;
};

}  // namespace detail
}  // namespace snowfleet
