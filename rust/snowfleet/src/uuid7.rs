//! UUIDv7: time-ordered 128-bit ids (RFC 9562), minted under the same rewind guard.
use crate::clock::ScriptedClock;
use crate::error::{c_text, call, Error};
use crate::generator::Mode;
use crate::record::{Stats, Status};
use snowfleet_sys as sys;
use std::ffi::c_char;
use std::fmt;

/// A UUID's 16 bytes (network order), as the UUIDv7 generator mints them. Displays as the
/// canonical text; with the `uuid` feature it converts to and from `uuid::Uuid`.
///
/// ```
/// use snowfleet::Uuid7;
/// let u: Uuid7 = "01949a3f-5b25-7000-8000-000000000000".parse()?;
/// assert_eq!(u.to_string(), "01949a3f-5b25-7000-8000-000000000000");
/// assert_eq!(u.fields()?.timestamp_ms, 0x01949a3f5b25);
/// # Ok::<(), snowfleet::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Uuid7([u8; 16]);

/// The fields of a UUIDv7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uuid7Fields {
    /// Unix ms, 48 bits.
    pub timestamp_ms: i64,
    /// 26 bits.
    pub counter: i64,
    /// The 48 random bits below it.
    pub random: i64,
}

impl Uuid7 {
    /// These bytes, as they are.
    pub const fn from_bytes(bytes: [u8; 16]) -> Uuid7 {
        Uuid7(bytes)
    }

    /// The 16 bytes, network order.
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// Reads the canonical text (either case) or 32 hex digits.
    pub fn parse(text: &str) -> Result<Uuid7, Error> {
        let mut out = [0u8; 16];
        call(|e| unsafe {
            sys::snowfleet_uuid_parse(text.as_ptr().cast(), text.len(), out.as_mut_ptr(), e)
        })?;
        Ok(Uuid7(out))
    }

    /// The timestamp, counter and random bits; refused for a UUID that is not version 7.
    pub fn fields(&self) -> Result<Uuid7Fields, Error> {
        let mut f = sys::snowfleet_uuid7_fields {
            size: std::mem::size_of::<sys::snowfleet_uuid7_fields>() as u32,
            ..Default::default()
        };
        call(|e| unsafe { sys::snowfleet_uuid7_decode(self.0.as_ptr(), &mut f, e) })?;
        Ok(Uuid7Fields {
            timestamp_ms: f.timestamp_ms,
            counter: f.counter,
            random: f.random,
        })
    }
}

impl fmt::Display for Uuid7 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0 as c_char; sys::SNOWFLEET_UUID_TEXT_MAX];
        call(|e| unsafe {
            sys::snowfleet_uuid_format(self.0.as_ptr(), buf.as_mut_ptr(), buf.len(), e)
        })
        .map_err(|_| fmt::Error)?;
        f.write_str(&c_text(&buf))
    }
}

impl fmt::Debug for Uuid7 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uuid7({self})")
    }
}

impl std::str::FromStr for Uuid7 {
    type Err = Error;
    fn from_str(text: &str) -> Result<Uuid7, Error> {
        Uuid7::parse(text)
    }
}

impl From<[u8; 16]> for Uuid7 {
    fn from(bytes: [u8; 16]) -> Uuid7 {
        Uuid7(bytes)
    }
}

impl From<Uuid7> for [u8; 16] {
    fn from(u: Uuid7) -> [u8; 16] {
        u.0
    }
}

#[cfg(feature = "uuid")]
impl From<Uuid7> for uuid::Uuid {
    fn from(u: Uuid7) -> uuid::Uuid {
        uuid::Uuid::from_bytes(u.0)
    }
}

#[cfg(feature = "uuid")]
impl From<uuid::Uuid> for Uuid7 {
    fn from(u: uuid::Uuid) -> Uuid7 {
        Uuid7(u.into_bytes())
    }
}

/// Mints UUIDv7s: 48 bits of Unix ms, a 26-bit counter seeded at random every millisecond,
/// 48 random bits; strictly ascending in one generator. `Send + Sync`; dropping it closes it.
///
/// ```
/// let gen = snowfleet::Uuid7Generator::new()?;
/// let (a, b) = (gen.next()?, gen.next()?);
/// assert!(a < b);
/// assert_eq!(a.to_string().len(), 36);
/// # Ok::<(), snowfleet::Error>(())
/// ```
///
/// Fork: in a child the generator continues with a state (and random stream) of its own.
pub struct Uuid7Generator {
    ptr: *mut sys::snowfleet_uuid7_generator,
}

// snowfleet.h: every snowfleet_uuid7_* call is thread-safe except _free (Drop).
unsafe impl Send for Uuid7Generator {}
unsafe impl Sync for Uuid7Generator {}

impl Uuid7Generator {
    /// A generator with the defaults (strict mode, the system clock).
    pub fn new() -> Result<Uuid7Generator, Error> {
        Uuid7Generator::builder().build()
    }

    /// A builder for the mode, budgets, a scripted clock or a fixed random seed (tests).
    pub fn builder<'a>() -> Uuid7GeneratorBuilder<'a> {
        Uuid7GeneratorBuilder::default()
    }

    /// One UUID. Thread-safe.
    #[inline]
    pub fn next(&self) -> Result<Uuid7, Error> {
        let mut out = Uuid7([0; 16]);
        call(|e| unsafe { sys::snowfleet_uuid7_next(self.ptr, out.0.as_mut_ptr(), e) })?;
        Ok(out)
    }

    /// Fills `out` with ascending UUIDs; a refused call writes none.
    pub fn next_many(&self, out: &mut [Uuid7]) -> Result<(), Error> {
        // Uuid7 is repr(transparent) over [u8; 16]: the slice is 16 * len bytes.
        call(|e| unsafe {
            sys::snowfleet_uuid7_next_many(self.ptr, out.as_mut_ptr().cast(), out.len() as i64, e)
        })
    }

    /// Counters, read without stopping minting.
    pub fn stats(&self) -> Result<Stats, Error> {
        let mut s = Stats::c_record();
        call(|e| unsafe { sys::snowfleet_uuid7_stats(self.ptr, &mut s, e) })?;
        Ok(Stats::from_c(&s))
    }

    /// Whether a call now would be served, and why not.
    pub fn status(&self) -> Result<Status, Error> {
        let mut s = Status::c_record();
        call(|e| unsafe { sys::snowfleet_uuid7_status(self.ptr, &mut s, e) })?;
        Ok(Status::from_c(&s))
    }

    /// Stops minting; later calls return `GeneratorClosed`. Idempotent.
    pub fn close(&self) -> Result<(), Error> {
        call(|e| unsafe { sys::snowfleet_uuid7_close(self.ptr, e) })
    }
}

impl Drop for Uuid7Generator {
    fn drop(&mut self) {
        unsafe { sys::snowfleet_uuid7_free(self.ptr) }
    }
}

impl fmt::Debug for Uuid7Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Uuid7Generator").finish_non_exhaustive()
    }
}

/// A UUIDv7 generator's options.
#[derive(Clone, Debug, Default)]
pub struct Uuid7GeneratorBuilder<'a> {
    mode: Option<Mode>,
    max_wait_ms: Option<f64>,
    max_drift_ms: Option<i64>,
    random_seed: Option<u64>,
    clock: Option<&'a ScriptedClock>,
}

impl<'a> Uuid7GeneratorBuilder<'a> {
    /// [`Mode::Strict`] (the default) or [`Mode::Monotonic`].
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = Some(mode);
        self
    }
    /// Rewinds up to this many ms are waited out, larger ones refused.
    pub fn max_wait_ms(mut self, ms: f64) -> Self {
        self.max_wait_ms = Some(ms);
        self
    }
    /// Monotonic mode: how far ahead of the wall clock UUIDs may run, in ms.
    pub fn max_drift_ms(mut self, ms: i64) -> Self {
        self.max_drift_ms = Some(ms);
        self
    }
    /// Makes the random bits a fixed sequence (tests only).
    pub fn random_seed(mut self, seed: u64) -> Self {
        self.random_seed = Some(seed);
        self
    }
    /// A scripted clock for deterministic tests.
    pub fn clock(mut self, clock: &'a ScriptedClock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// The generator, or the rule an option breaks.
    pub fn build(self) -> Result<Uuid7Generator, Error> {
        let mut o = std::mem::MaybeUninit::<sys::snowfleet_uuid7_options>::uninit();
        unsafe { sys::snowfleet_uuid7_options_init(o.as_mut_ptr()) };
        let mut o = unsafe { o.assume_init() };
        if let Some(m) = self.mode {
            o.mode = match m {
                Mode::Strict => c"strict".as_ptr(),
                Mode::Monotonic => c"monotonic".as_ptr(),
            };
        }
        if let Some(v) = self.max_wait_ms {
            (o.max_wait_ms, o.has_max_wait_ms) = (v, 1);
        }
        if let Some(v) = self.max_drift_ms {
            (o.max_drift_ms, o.has_max_drift_ms) = (v, 1);
        }
        if let Some(v) = self.random_seed {
            (o.random_seed, o.has_random_seed) = (v, 1);
        }
        o.clock = self.clock.map_or(std::ptr::null_mut(), |c| c.as_ptr());
        let mut ptr = std::ptr::null_mut();
        call(|e| unsafe { sys::snowfleet_uuid7_new(&o, &mut ptr, e) })?;
        Ok(Uuid7Generator { ptr })
    }
}
