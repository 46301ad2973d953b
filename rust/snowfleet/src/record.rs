//! Stats and Status, the records of the core's SNOWFLEET_STATS_FIELDS and
//! SNOWFLEET_STATUS_FIELDS lists.
use crate::error::c_text;
use crate::generator::Mode;
use snowfleet_sys as sys;

/// Counters, monotonically increasing over a generator's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Ids returned to callers.
    pub ids_issued: u64,
    /// Wall readings that were behind the highest reading this generator had seen.
    pub rewinds_seen: u64,
    /// Calls that had to wait (rewind inside the budget, spent millisecond, drift limit).
    pub waits: u64,
    /// Total time those calls waited, in ns.
    pub waited_ns_total: u64,
    /// Longest single wait, in ns.
    pub waited_ns_max: u64,
    /// Calls refused because the clock was unusable.
    pub refusals: u64,
    /// Monotonic mode: milliseconds borrowed from the future because a millisecond's
    /// sequence ran out.
    pub ms_borrowed: u64,
    /// Leased node ids: high-water marks persisted. 0 without a lease.
    pub mark_writes: u64,
    /// Calls refused with `LeaseLost`.
    pub lease_refusals: u64,
    /// Leased node ids: high-water mark writes that failed. 0 without a lease.
    pub mark_write_failures: u64,
    /// etcd: keepalives that failed. 0 for `local` and without a lease.
    pub lease_renewal_failures: u64,
}

impl Stats {
    pub(crate) fn c_record() -> sys::snowfleet_stats {
        sys::snowfleet_stats {
            size: std::mem::size_of::<sys::snowfleet_stats>() as u32,
            ..Default::default()
        }
    }

    pub(crate) fn from_c(s: &sys::snowfleet_stats) -> Stats {
        Stats {
            ids_issued: s.ids_issued,
            rewinds_seen: s.rewinds_seen,
            waits: s.waits,
            waited_ns_total: s.waited_ns_total,
            waited_ns_max: s.waited_ns_max,
            refusals: s.refusals,
            ms_borrowed: s.ms_borrowed,
            mark_writes: s.mark_writes,
            lease_refusals: s.lease_refusals,
            mark_write_failures: s.mark_write_failures,
            lease_renewal_failures: s.lease_renewal_failures,
        }
    }
}

/// The state of a leased node id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum LeaseState {
    /// The node id is not leased.
    #[default]
    None,
    Held,
    /// etcd: past the local deadline without a confirmed keepalive.
    Unconfirmed,
    Lost,
    /// After close.
    Released,
}

impl LeaseState {
    fn from_c(value: i32) -> LeaseState {
        match value {
            1 => LeaseState::Held,
            2 => LeaseState::Unconfirmed,
            3 => LeaseState::Lost,
            4 => LeaseState::Released,
            _ => LeaseState::None,
        }
    }

    /// `"none"`, `"held"`, `"unconfirmed"`, `"lost"` or `"released"`.
    pub fn as_str(self) -> &'static str {
        match self {
            LeaseState::None => "none",
            LeaseState::Held => "held",
            LeaseState::Unconfirmed => "unconfirmed",
            LeaseState::Lost => "lost",
            LeaseState::Released => "released",
        }
    }
}

/// Whether a generator can issue ids right now; a service maps `!healthy` to 503.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// True when a call now would be served.
    pub healthy: bool,
    /// Why not, in words; empty when healthy.
    pub reason: String,
    /// The wall reading taken for this status, Unix ms.
    pub wall_ms: i64,
    /// Unix ms of the last issued id (-1 before the first).
    pub last_ms: i64,
    /// `max(0, last_ms - wall_ms)`.
    pub drift_ms: i64,
    /// The node id in every id.
    pub node_id: i64,
    pub mode: Mode,
    pub lease_state: LeaseState,
    /// The slot's persisted high-water mark, Unix ms; -1 without a lease.
    pub mark_ms: i64,
    /// etcd: ms until the local lease deadline; -1 when it cannot expire or without a lease.
    pub lease_expires_in_ms: i64,
    /// How far the persisted mark runs ahead of the later of `last_ms` and `wall_ms`; -1
    /// without a lease.
    pub mark_headroom_ms: i64,
}

impl Status {
    pub(crate) fn c_record() -> sys::snowfleet_status {
        // All-zero is a valid snowfleet_status (integers and a char array).
        let mut s: sys::snowfleet_status = unsafe { std::mem::zeroed() };
        s.size = std::mem::size_of::<sys::snowfleet_status>() as u32;
        s
    }

    pub(crate) fn from_c(s: &sys::snowfleet_status) -> Status {
        Status {
            healthy: s.healthy != 0,
            reason: c_text(&s.reason),
            wall_ms: s.wall_ms,
            last_ms: s.last_ms,
            drift_ms: s.drift_ms,
            node_id: s.node_id,
            mode: Mode::from_c(s.mode),
            lease_state: LeaseState::from_c(s.lease_state),
            mark_ms: s.mark_ms,
            lease_expires_in_ms: s.lease_expires_in_ms,
            mark_headroom_ms: s.mark_headroom_ms,
        }
    }
}
