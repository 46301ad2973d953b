//! The Snowflake id generator.
use crate::clock::ScriptedClock;
use crate::error::{c_string, c_text, call, Error};
use crate::layout::layout_arg;
use crate::record::{Stats, Status};
use snowfleet_sys as sys;
use std::ffi::CString;

/// How a generator meets a clock that stands still or runs back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Waits out a rewind up to `max_wait_ms`, refuses a longer one
    /// ([`ErrorKind::ClockMovedBackwards`](crate::ErrorKind::ClockMovedBackwards)).
    #[default]
    Strict,
    /// Keeps issuing from a logical clock up to `max_drift_ms` ahead of the wall clock.
    Monotonic,
}

impl Mode {
    /// `"strict"` or `"monotonic"`, the name every language uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Strict => "strict",
            Mode::Monotonic => "monotonic",
        }
    }

    pub(crate) fn from_c(value: i32) -> Mode {
        if value == 1 {
            Mode::Monotonic
        } else {
            Mode::Strict
        }
    }

    fn c_name(self) -> &'static std::ffi::CStr {
        match self {
            Mode::Strict => c"strict",
            Mode::Monotonic => c"monotonic",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Mints Snowflake ids: 64-bit, time-ordered, unique across a fleet whose members hold
/// distinct node ids. A node id is given, or leased from a node source (`"local:"`, a
/// registry of files on this host; `"etcd://host:2379/prefix"`) and released on close.
///
/// Every method takes `&self`: a generator is `Send + Sync` and is shared between threads
/// as it is (in an `Arc`, a `static`, ...). Dropping it closes it.
///
/// ```
/// use snowfleet::{Generator, Mode};
/// # let dir = std::env::temp_dir().join(format!("snowfleet-doc-{}", std::process::id()));
/// # let source = format!("local:{}", dir.display());
/// # let source = source.as_str();
/// // source: "local:" leases from this host's default registry
/// let gen = Generator::builder().node_source(source).mode(Mode::Monotonic).build()?;
/// let id = gen.next_id()?;
/// let mut batch = [0i64; 100];
/// gen.next_ids(&mut batch)?;
/// assert!(batch[0] > id && batch.windows(2).all(|w| w[0] < w[1]));
/// # drop(gen); let _ = std::fs::remove_dir_all(dir);
/// # Ok::<(), snowfleet::Error>(())
/// ```
///
/// Fork: a generator whose node id was given refuses to mint in a forked child
/// ([`ErrorKind::ForkDetected`](crate::ErrorKind::ForkDetected)); a leased one claims a node
/// id of its own there at its first call.
pub struct Generator {
    ptr: *mut sys::snowfleet_generator,
}

// snowfleet.h: every snowfleet_generator_* call is thread-safe except _free, which Drop
// makes the handle's last use.
unsafe impl Send for Generator {}
unsafe impl Sync for Generator {}

/// A generator's settings, resolved by the core.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratorInfo {
    /// The layout's text form.
    pub layout: String,
    pub node_id: i64,
    pub mode: Mode,
    pub max_wait_ms: f64,
    pub max_drift_ms: i64,
}

impl Generator {
    /// A builder; give exactly one of `node_id`, `datacenter_machine` or `node_source`.
    pub fn builder<'a>() -> GeneratorBuilder<'a> {
        GeneratorBuilder::default()
    }

    /// One id. Thread-safe.
    #[inline]
    pub fn next_id(&self) -> Result<i64, Error> {
        let mut id = 0;
        call(|e| unsafe { sys::snowfleet_generator_next_id(self.ptr, &mut id, e) })?;
        Ok(id)
    }

    /// Fills `out` with ascending ids (at most 16,777,216). If a wait fails part-way, the
    /// ids already written are skipped, never issued to anyone, and the error is returned.
    pub fn next_ids(&self, out: &mut [i64]) -> Result<(), Error> {
        call(|e| unsafe {
            sys::snowfleet_generator_next_ids(self.ptr, out.as_mut_ptr(), out.len() as i64, e)
        })
    }

    /// The layout, node id, mode and budgets in use.
    pub fn info(&self) -> Result<GeneratorInfo, Error> {
        // All-zero is a valid snowfleet_generator_info.
        let mut i: sys::snowfleet_generator_info = unsafe { std::mem::zeroed() };
        i.size = std::mem::size_of::<sys::snowfleet_generator_info>() as u32;
        call(|e| unsafe { sys::snowfleet_generator_info_get(self.ptr, &mut i, e) })?;
        Ok(GeneratorInfo {
            layout: c_text(&i.layout),
            node_id: i.node_id,
            mode: Mode::from_c(i.mode),
            max_wait_ms: i.max_wait_ms,
            max_drift_ms: i.max_drift_ms,
        })
    }

    /// The node id in every id (the leased one, for a node source).
    pub fn node_id(&self) -> Result<i64, Error> {
        Ok(self.info()?.node_id)
    }

    /// Counters, read without stopping minting.
    pub fn stats(&self) -> Result<Stats, Error> {
        let mut s = Stats::c_record();
        call(|e| unsafe { sys::snowfleet_generator_stats(self.ptr, &mut s, e) })?;
        Ok(Stats::from_c(&s))
    }

    /// Whether a call now would be served, and why not (a service maps `!healthy` to 503).
    pub fn status(&self) -> Result<Status, Error> {
        let mut s = Status::c_record();
        call(|e| unsafe { sys::snowfleet_generator_status(self.ptr, &mut s, e) })?;
        Ok(Status::from_c(&s))
    }

    /// `max(0, last issued ms - wall ms)`.
    pub fn drift_ms(&self) -> Result<i64, Error> {
        let mut d = 0;
        call(|e| unsafe { sys::snowfleet_generator_drift_ms(self.ptr, &mut d, e) })?;
        Ok(d)
    }

    /// Stops minting and releases a leased node id; later calls return
    /// [`ErrorKind::GeneratorClosed`](crate::ErrorKind::GeneratorClosed). Idempotent; waits
    /// for calls in flight. Drop does this too.
    pub fn close(&self) -> Result<(), Error> {
        call(|e| unsafe { sys::snowfleet_generator_close(self.ptr, e) })
    }

    /// Whether [`Generator::close`] ran.
    pub fn is_closed(&self) -> bool {
        unsafe { sys::snowfleet_generator_closed(self.ptr) != 0 }
    }
}

impl Drop for Generator {
    fn drop(&mut self) {
        unsafe { sys::snowfleet_generator_free(self.ptr) }
    }
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Generator");
        if let Ok(info) = self.info() {
            d.field("layout", &info.layout)
                .field("node_id", &info.node_id)
                .field("mode", &info.mode);
        }
        d.field("closed", &self.is_closed()).finish()
    }
}

/// A generator's arguments (the core's `SNOWFLEET_GENERATOR_ARGS`), each optional; the core
/// applies the rules (which go together, ranges, defaults) in [`GeneratorBuilder::build`].
#[derive(Clone, Default, Debug)]
pub struct GeneratorBuilder<'a> {
    layout: Option<String>,
    node_id: Option<i64>,
    datacenter_id: Option<i64>,
    machine_id: Option<i64>,
    node_source: Option<String>,
    mode: Option<Mode>,
    max_wait_ms: Option<f64>,
    max_drift_ms: Option<i64>,
    clock: Option<&'a ScriptedClock>,
}

impl<'a> GeneratorBuilder<'a> {
    /// The layout of every id, as text or a preset name (default: `"default"`).
    pub fn layout(mut self, layout: impl Into<String>) -> Self {
        self.layout = Some(layout.into());
        self
    }
    /// The node id, 0 ..= the layout's largest node id.
    pub fn node_id(mut self, node_id: i64) -> Self {
        self.node_id = Some(node_id);
        self
    }
    /// The node as two halves, for a layout that splits it.
    pub fn datacenter_machine(mut self, datacenter_id: i64, machine_id: i64) -> Self {
        self.datacenter_id = Some(datacenter_id);
        self.machine_id = Some(machine_id);
        self
    }
    /// The node field's high part alone (the core names what is missing).
    pub fn datacenter_id(mut self, datacenter_id: i64) -> Self {
        self.datacenter_id = Some(datacenter_id);
        self
    }
    /// The node field's low part alone (the core names what is missing).
    pub fn machine_id(mut self, machine_id: i64) -> Self {
        self.machine_id = Some(machine_id);
        self
    }
    /// Where the node id comes from: `"static:37"`, `"env:VAR"`, `"k8s[:OFFSET]"`,
    /// `"local[:DIR][?share=NAME]"`, `"etcd://host:port/prefix"`, `"postgres://..."`,
    /// `"k8s-lease://PREFIX"` (the last four lease it).
    pub fn node_source(mut self, source: impl Into<String>) -> Self {
        self.node_source = Some(source.into());
        self
    }
    /// [`Mode::Strict`] (the default) or [`Mode::Monotonic`].
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = Some(mode);
        self
    }
    /// Rewinds up to this many ms are waited out, larger ones refused (default 5).
    pub fn max_wait_ms(mut self, ms: f64) -> Self {
        self.max_wait_ms = Some(ms);
        self
    }
    /// Monotonic mode: how far ahead of the wall clock ids may run, in ms (default 1000).
    pub fn max_drift_ms(mut self, ms: i64) -> Self {
        self.max_drift_ms = Some(ms);
        self
    }
    /// A scripted clock for deterministic tests (default: the system clock).
    pub fn clock(mut self, clock: &'a ScriptedClock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Creates the generator (a leased node source claims its node id here, which may wait
    /// for the store), or says which argument breaks which rule.
    pub fn build(self) -> Result<Generator, Error> {
        let layout: Option<CString> = self.layout.as_deref().map(layout_arg).transpose()?;
        let source: Option<CString> = self
            .node_source
            .as_deref()
            .map(|s| c_string("node_source", s))
            .transpose()?;
        let mut o = std::mem::MaybeUninit::<sys::snowfleet_options>::uninit();
        unsafe { sys::snowfleet_options_init(o.as_mut_ptr()) };
        let mut o = unsafe { o.assume_init() };
        o.layout = layout.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
        o.node_source = source.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
        o.mode = self.mode.map_or(std::ptr::null(), |m| m.c_name().as_ptr());
        if let Some(v) = self.node_id {
            (o.node_id, o.has_node_id) = (v, 1);
        }
        if let Some(v) = self.datacenter_id {
            (o.datacenter_id, o.has_datacenter_id) = (v, 1);
        }
        if let Some(v) = self.machine_id {
            (o.machine_id, o.has_machine_id) = (v, 1);
        }
        if let Some(v) = self.max_wait_ms {
            (o.max_wait_ms, o.has_max_wait_ms) = (v, 1);
        }
        if let Some(v) = self.max_drift_ms {
            (o.max_drift_ms, o.has_max_drift_ms) = (v, 1);
        }
        o.clock = self.clock.map_or(std::ptr::null_mut(), |c| c.as_ptr());
        let mut ptr = std::ptr::null_mut();
        call(|e| unsafe { sys::snowfleet_generator_new(&o, &mut ptr, e) })?;
        Ok(Generator { ptr })
    }
}
