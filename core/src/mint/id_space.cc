// The core's side of the id-space registry (core/src/registry/abi.h).
#include "id_space.hpp"

#include <cstddef>
#include <new>

namespace snowfleet {
namespace detail {
namespace {

const snowfleet_registry_api& registry() {
  static const snowfleet_registry_api* api = [] {
    const snowfleet_registry_api* a = snowfleet_registry_v1();
    // Null only from a copy that loads the registry itself (registry/locate.cc), short of
    // file descriptors or memory; thrown, so the next generator asks again.
    if (a == nullptr)
      throw Error(ErrorKind::kInternal,
                  "libsnowfleet_registry.so.1 could not be loaded (out of file descriptors or "
                  "memory); try again once some are free");
    if (a->abi_version != 1 || a->size < offsetof(snowfleet_registry_api, unbias))
      throw Error(ErrorKind::kInternal,
                  "libsnowfleet_registry.so.1 loaded in this process is incompatible with this "
                  "snowfleet (registry ABI " +
                      std::to_string(a->abi_version) + ")");
    return a;
  }();
  return *api;
}

// An older registry leaves the words' bias fields uninitialised: nobody owns its words.
bool has_bias() { return registry().size >= sizeof(snowfleet_registry_api); }

std::atomic<uint64_t>* atomic_field(uint64_t* field) {
  static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t) &&
                    alignof(std::atomic<uint64_t>) == alignof(uint64_t),
                "std::atomic<uint64_t> must be a plain uint64_t");
  return reinterpret_cast<std::atomic<uint64_t>*>(field);
}

// Real time is one time (0); a virtual time is its own (Clock::time_domain, even).
uint64_t time_source_of(const Clock& clock) { return clock.time_domain() & ~uint64_t{1}; }

// UUIDv7 spaces are the same time with the low bit set (a clock's address is aligned, so
// the bit is free): every copy of the core already keeps different time sources apart, so
// UUID generators share one word among themselves and never meet a Snowflake generator.
constexpr uint64_t kUuid7Source = 1;
static_assert(alignof(ScriptedClock) > 1, "the low bit of a scripted clock's address is free");

snowfleet_space key_of(const Layout& layout, int64_t node_id, const Clock& clock, bool exclusive,
                       bool uuid7) {
  snowfleet_space key{};
  key.time_source = time_source_of(clock) | (uuid7 ? kUuid7Source : 0);
  key.epoch_ms = layout.epoch_ms();
  key.timestamp_shift = layout.timestamp_shift();
  key.sequence_bits = layout.sequence_bits();
  key.low_first = node_id << layout.node_shift();
  key.low_last = key.low_first | layout.max_sequence();
  key.exclusive = exclusive ? 1 : 0;
  return key;
}

}  // namespace

IdSpace::IdSpace(const Layout& layout, int64_t node_id, const Clock& clock, bool exclusive,
                 const std::string& description, bool uuid7) {
  const snowfleet_space key = key_of(layout, node_id, clock, exclusive, uuid7);
  char why[192];
  const int rc = registry().open(&key, description.c_str(), &slot_, &word_, why, sizeof why);
  if (rc == 1)
    throw Error(ErrorKind::kNodeIdUnavailable,
                description + " would mint ids that " + why +
                    ", open in this process, can mint too, and the two cannot share one state "
                    "(another sequence width, or a leased node id); close it first or use "
                    "another node id");
  if (rc != 0) throw std::bad_alloc();
}

IdSpace::~IdSpace() {
  if (word_ != nullptr) registry().release_word(word_);
}

std::atomic<int64_t>* IdSpace::word() const noexcept {
  // The registry's word is a plain int64_t that every copy of the core accesses only
  // atomically; std::atomic<int64_t> is that int64_t (lock-free, same size and alignment).
  static_assert(sizeof(std::atomic<int64_t>) == sizeof(int64_t) &&
                    alignof(std::atomic<int64_t>) == alignof(int64_t),
                "std::atomic<int64_t> must be a plain int64_t");
  return reinterpret_cast<std::atomic<int64_t>*>(&word_->value);
}

std::atomic<uint64_t>* revoked_bias() noexcept {
  static std::atomic<uint64_t> revoked{kBiasRevoked};
  return &revoked;
}

std::atomic<uint64_t>* unused_busy() noexcept {
  static std::atomic<uint64_t> busy{0};
  return &busy;
}

std::atomic<uint64_t>* IdSpace::bias() const noexcept {
  return has_bias() ? atomic_field(&word_->bias) : revoked_bias();
}

std::atomic<uint64_t>* IdSpace::busy() const noexcept {
  return has_bias() ? atomic_field(&word_->busy) : unused_busy();
}

void IdSpace::unbias() const noexcept {
  if (has_bias()) registry().unbias(word_);
}

void IdSpace::close(bool retire, int64_t final_value) noexcept {
  if (slot_ == nullptr) return;
  registry().close(slot_, retire ? 1 : 0, final_value);
  slot_ = nullptr;
}

bool IdSpace::would_conflict(const Layout& layout, int64_t node_id, const Clock& clock,
                             bool exclusive) {
  const snowfleet_space key = key_of(layout, node_id, clock, exclusive, false);
  return registry().would_conflict(&key) != 0;
}

size_t IdSpace::remembered() noexcept { return registry().space_count(); }

void IdSpace::forget(const Clock& clock) noexcept {
  const uint64_t source = time_source_of(clock);
  if (source == 0) return;
  registry().forget_time_source(source);
  registry().forget_time_source(source | kUuid7Source);
}

}  // namespace detail
}  // namespace snowfleet
