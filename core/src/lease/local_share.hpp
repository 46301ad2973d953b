// "local[:DIR]?share=NAME": one leased node id for every process of a host that names the
// same registry and share, minting on one state word in a file of the registry that each
// maps (DIR/share-NAME), lock-free as the in-process word is. See local_share.cc. Internal.
#pragma once

#include <memory>
#include <string>

#include "local_claim_pick.hpp"
#include "mint/node_claim.hpp"
#include "snowfleet/layout.hpp"

namespace snowfleet {
namespace detail {

/// Joins the share `spec.share` of the registry open as `dir_fd` (taken over: closed on
/// failure): the node id its live sharers hold, or, when none is alive, a slot claimed as
/// an exclusive claim would (`spec.pinned`, `usable`), which the share then holds for as
/// long as any sharer lives. The lease's shared_state() is the share's word.
std::shared_ptr<NodeLease> claim_shared(const LocalSpec& spec, int dir_fd,
                                        const Layout& layout, const SlotFilter& usable,
                                        const std::string& quoted);

}  // namespace detail
}  // namespace snowfleet
