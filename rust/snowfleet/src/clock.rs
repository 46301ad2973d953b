//! A scripted clock, for deterministic tests of code that mints ids.
use crate::error::{call, Error};
use snowfleet_sys as sys;

/// `count` readings from `ms`, `step_ms` added every `every` readings; the last segment's
/// last reading repeats.
pub type Segment = sys::snowfleet_clock_segment;

/// A clock whose wall readings follow a script and whose sleeps take no time. Give it to
/// generators with [`GeneratorBuilder::clock`](crate::GeneratorBuilder::clock); they keep it
/// alive, so it may be dropped while they run.
///
/// ```
/// use snowfleet::{Generator, ScriptedClock};
/// let clock = ScriptedClock::fixed(1737747358021)?;
/// let gen = Generator::builder().node_id(1).clock(&clock).build()?;
/// let a = gen.next_id()?;
/// clock.advance_wall_ms(1)?;
/// assert!(gen.next_id()? > a);
/// # Ok::<(), snowfleet::Error>(())
/// ```
pub struct ScriptedClock {
    ptr: *mut sys::snowfleet_clock,
}

// The C interface's scripted clock is thread-safe (snowfleet.h).
unsafe impl Send for ScriptedClock {}
unsafe impl Sync for ScriptedClock {}

/// How a scripted clock was used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockCounters {
    pub reads: i64,
    pub sleep_count: i64,
    pub slept_ns: i64,
    pub max_sleep_ns: i64,
    pub min_sleep_ns: i64,
}

impl ScriptedClock {
    /// A clock following `segments` (none: one reading of 0 ms, repeated).
    pub fn new(segments: &[Segment]) -> Result<ScriptedClock, Error> {
        let mut ptr = std::ptr::null_mut();
        call(|e| unsafe {
            sys::snowfleet_clock_new(segments.as_ptr(), segments.len(), &mut ptr, e)
        })?;
        Ok(ScriptedClock { ptr })
    }

    /// A clock that reads `ms` until told otherwise.
    pub fn fixed(ms: i64) -> Result<ScriptedClock, Error> {
        ScriptedClock::new(&[Segment {
            ms,
            count: 1,
            step_ms: 0,
            every: 1,
        }])
    }

    /// Every later reading is `ms` (the script is replaced).
    pub fn set_wall_ms(&self, ms: i64) -> Result<(), Error> {
        call(|e| unsafe { sys::snowfleet_clock_set_wall_ms(self.ptr, ms, e) })
    }

    /// Moves the wall reading by `delta_ms` (negative: a rewind).
    pub fn advance_wall_ms(&self, delta_ms: i64) -> Result<(), Error> {
        call(|e| unsafe { sys::snowfleet_clock_advance_wall_ms(self.ptr, delta_ms, e) })
    }

    /// Reads and sleeps so far.
    pub fn counters(&self) -> Result<ClockCounters, Error> {
        let mut k = sys::snowfleet_clock_counters {
            size: std::mem::size_of::<sys::snowfleet_clock_counters>() as u32,
            ..Default::default()
        };
        call(|e| unsafe { sys::snowfleet_clock_counters_get(self.ptr, &mut k, e) })?;
        Ok(ClockCounters {
            reads: k.reads,
            sleep_count: k.sleep_count,
            slept_ns: k.slept_ns,
            max_sleep_ns: k.max_sleep_ns,
            min_sleep_ns: k.min_sleep_ns,
        })
    }

    pub(crate) fn as_ptr(&self) -> *mut sys::snowfleet_clock {
        self.ptr
    }
}

impl Drop for ScriptedClock {
    fn drop(&mut self) {
        unsafe { sys::snowfleet_clock_free(self.ptr) }
    }
}

impl std::fmt::Debug for ScriptedClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedClock").finish_non_exhaustive()
    }
}
