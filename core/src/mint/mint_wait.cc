// The sleeps and keeper waits of a minting call (mint_wait.hpp).
#include "mint_wait.hpp"

#include <algorithm>

#include "base/internal.hpp"
#include "generator_internal.hpp"

namespace snowfleet {
namespace detail {

void nap_toward(Clock& clock, const WaitHooks& hooks, int64_t wall_ns, int64_t target_ms,
                int64_t left_ns) {
  // How long until the wall clock reaches target_ms, in ms first (both terms are small
  // there), then in ns once it is known to be below what is left.
  const int64_t wall_ms = floor_div(wall_ns, kNsPerMs);
  const int64_t need_ms = target_ms - wall_ms;
  const int64_t need = need_ms > left_ns / kNsPerMs + 1
                           ? left_ns
                           : need_ms * kNsPerMs - (wall_ns - wall_ms * kNsPerMs);
  void* token = hooks.enter ? hooks.enter(hooks.context) : nullptr;
  clock.sleep_ns(std::max<int64_t>(1, std::min(need, left_ns)));
  if (hooks.leave) hooks.leave(hooks.context, token);
}

bool wait_for_keeper(MarkKeeper& keeper, const WaitHooks& hooks, int64_t packed,
                     int64_t* budget_ns) {
  const int64_t t0 = monotonic_ns();
  bool covered = false;
  if (!keeper.failing() && *budget_ns > 0) {
    HooksReleased released(hooks);
    covered = keeper.wait_for(packed, *budget_ns);
  }
  *budget_ns -= monotonic_ns() - t0;
  return covered;
}

}  // namespace detail
}  // namespace snowfleet
