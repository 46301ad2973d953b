//! Errors: one [`ErrorKind`] per entry of the core's error-kind list (`snowfleet/lists.h`).
use snowfleet_sys as sys;
use std::ffi::CStr;
use std::fmt;
use std::mem::MaybeUninit;

/// What went wrong, one variant per kind of the core's error-kind list, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An argument is outside its domain: a node id or sequence too large, a malformed
    /// layout, a negative id.
    InvalidArgument,
    /// A timestamp is before the layout's epoch or past the end of its timestamp window.
    TimestampOutOfRange,
    /// The wall clock is behind a millisecond already issued from (or stopped) for longer
    /// than the wait budget; nothing was issued.
    ClockMovedBackwards,
    /// The generator, with a given node id, was created before a `fork()`; using it in the
    /// child would mint the parent's ids.
    ForkDetected,
    /// The generator was closed; its node id may already belong to someone else.
    GeneratorClosed,
    /// The node-id source could not provide a node id (no free slot, store unreachable).
    NodeIdUnavailable,
    /// The node-id lease could not be confirmed in time; minting stops until it is.
    LeaseLost,
    /// An unexpected failure inside snowfleet (a bug, or the system refused a resource).
    Internal,
}

impl ErrorKind {
    /// Every kind, in the list's order.
    pub const ALL: [ErrorKind; 8] = [
        ErrorKind::InvalidArgument,
        ErrorKind::TimestampOutOfRange,
        ErrorKind::ClockMovedBackwards,
        ErrorKind::ForkDetected,
        ErrorKind::GeneratorClosed,
        ErrorKind::NodeIdUnavailable,
        ErrorKind::LeaseLost,
        ErrorKind::Internal,
    ];

    pub(crate) fn from_result(result: sys::snowfleet_result) -> ErrorKind {
        usize::try_from(result - 1)
            .ok()
            .and_then(|i| Self::ALL.get(i).copied())
            .unwrap_or(ErrorKind::Internal)
    }

    fn result(self) -> sys::snowfleet_result {
        Self::ALL.iter().position(|k| *k == self).unwrap() as sys::snowfleet_result + 1
    }

    /// The stable code every language shares: `"CLOCK_MOVED_BACKWARDS"`.
    pub fn code(self) -> &'static str {
        static_text(unsafe { sys::snowfleet_result_code(self.result()) })
    }

    /// The class name the other bindings give it: `"ClockMovedBackwards"`.
    pub fn name(self) -> &'static str {
        static_text(unsafe { sys::snowfleet_result_name(self.result()) })
    }

    /// Its family: `"argument"`, `"range"`, `"clock"`, `"state"`, `"unavailable"` or
    /// `"internal"`.
    pub fn category(self) -> &'static str {
        static_text(unsafe { sys::snowfleet_result_category(self.result()) })
    }
}

fn static_text(p: *const std::ffi::c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // The library's static strings are ASCII and live as long as the program.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A refused call: its [`ErrorKind`] and the core's message, which names the value and the
/// rule. A refused call changed nothing.
///
/// ```
/// use snowfleet::{Generator, ErrorKind};
/// let err = Generator::builder().node_id(5000).build().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidArgument);
/// assert!(err.to_string().contains("5000"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    drift_ms: i64,
}

impl Error {
    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The core's message (UTF-8), naming the value and the rule.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// For a refused monotonic call: how far ahead of the wall clock the generator ran, in
    /// ms; 0 otherwise.
    pub fn drift_ms(&self) -> i64 {
        self.drift_ms
    }

    pub(crate) fn invalid(message: String) -> Error {
        Error {
            kind: ErrorKind::InvalidArgument,
            message,
            drift_ms: 0,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// Runs one C call with an error record of its own; on failure reads the record. The record
/// is left uninitialized: the library fills it only on failure.
#[inline(always)]
pub(crate) fn call(
    f: impl FnOnce(*mut sys::snowfleet_error) -> sys::snowfleet_result,
) -> Result<(), Error> {
    let mut err = MaybeUninit::<sys::snowfleet_error>::uninit();
    let rc = f(err.as_mut_ptr());
    if rc == sys::SNOWFLEET_OK {
        Ok(())
    } else {
        Err(failed(rc, &err))
    }
}

#[cold]
#[inline(never)]
fn failed(rc: sys::snowfleet_result, err: &MaybeUninit<sys::snowfleet_error>) -> Error {
    // On failure the library always writes the record (result, drift_ms, message).
    let err = unsafe { err.assume_init_ref() };
    Error {
        kind: ErrorKind::from_result(rc),
        message: c_text(&err.message),
        drift_ms: err.drift_ms,
    }
}

/// A NUL-terminated text the library wrote into a fixed buffer.
pub(crate) fn c_text(buf: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = buf
        .iter()
        .take_while(|c| **c != 0)
        .map(|c| *c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A text argument the C interface reads NUL-terminated.
pub(crate) fn c_string(what: &str, text: &str) -> Result<std::ffi::CString, Error> {
    std::ffi::CString::new(text).map_err(|e| {
        Error::invalid(format!(
            "{what} '{}' holds a NUL byte at position {}: text arguments cannot",
            text.escape_debug(),
            e.nul_position()
        ))
    })
}
