//! Snowflake ids and UUIDv7 from snowfleet's core, the same core (and the same ids, node
//! leases and rewind guard) as snowfleet's Python, Node, Java and Go packages.
//!
//! ```
//! use snowfleet::{Generator, Mode};
//! # let dir = std::env::temp_dir().join(format!("snowfleet-doc-lib-{}", std::process::id()));
//! # let source = format!("local:{}", dir.display());
//! # let source = source.as_str();
//! // source: "local:" leases a node id from this host's registry, released on drop
//! let gen = Generator::builder().node_source(source).mode(Mode::Monotonic).build()?;
//! let id = gen.next_id()?;
//! let fields = snowfleet::decode(id)?;
//! assert_eq!(fields.node_id, gen.node_id()?);
//! # drop(gen); let _ = std::fs::remove_dir_all(dir);
//! # Ok::<(), snowfleet::Error>(())
//! ```
//!
//! Features: `uuid` (conversions between [`Uuid7`] and `uuid::Uuid`), `serde` (ids as
//! strings with [`id_as_string`], [`Uuid7`] as text).
//!
//! Every rule is the core's: this crate converts types and maps error kinds. A refused call
//! returns an [`Error`] whose [`ErrorKind`] is one of the core's kinds and whose message
//! names the value and the rule; it changed nothing.

mod clock;
mod error;
mod generator;
mod layout;
mod record;
#[cfg(feature = "serde")]
mod serde_support;
mod text;
mod uuid7;

pub use clock::{ClockCounters, ScriptedClock, Segment};
pub use error::{Error, ErrorKind};
pub use generator::{Generator, GeneratorBuilder, GeneratorInfo, Mode};
pub use layout::{compose, decode, ComposeArgs, Decoded, Layout, LayoutBuilder};
pub use record::{LeaseState, Stats, Status};
#[cfg(feature = "serde")]
pub use serde_support::id_as_string;
pub use text::{format_id, format_time, parse_id, parse_time, Encoding};
pub use uuid7::{Uuid7, Uuid7Fields, Uuid7Generator, Uuid7GeneratorBuilder};

/// The core's version (`"0.1.0"`).
pub fn version() -> &'static str {
    let p = unsafe { snowfleet_sys::snowfleet_version() };
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_str()
        .unwrap_or("")
}

/// The field names of a record, in the order of the core's lists: `"stats"`, `"status"`,
/// `"layout"`, or `"generator"` (a generator's arguments).
///
/// ```
/// assert_eq!(snowfleet::field_names("generator")[0], "layout");
/// ```
pub fn field_names(record: &str) -> Vec<&'static str> {
    let Ok(record) = std::ffi::CString::new(record) else {
        return Vec::new();
    };
    (0..)
        .map_while(|i| {
            let p = unsafe { snowfleet_sys::snowfleet_field_name(record.as_ptr(), i) };
            (!p.is_null()).then(|| {
                unsafe { std::ffi::CStr::from_ptr(p) }
                    .to_str()
                    .unwrap_or("")
            })
        })
        .collect()
}

#[cfg(test)]
mod kinds {
    use crate::ErrorKind;

    #[test]
    fn every_kind_is_the_core_kind_of_its_name() {
        let names: Vec<String> = ErrorKind::ALL.iter().map(|k| format!("{k:?}")).collect();
        for (kind, variant) in ErrorKind::ALL.iter().zip(&names) {
            // The core's class names, but for Internal, whose class is "InternalError".
            let class = kind.name().strip_suffix("Error").unwrap_or(kind.name());
            assert_eq!(class, variant);
            assert!(!kind.code().is_empty() && !kind.category().is_empty());
        }
        assert_eq!(
            ErrorKind::ClockMovedBackwards.code(),
            "CLOCK_MOVED_BACKWARDS"
        );
        assert_eq!(ErrorKind::InvalidArgument.category(), "argument");
    }
}

#[cfg(test)]
mod send_sync {
    fn assert_send_sync<T: Send + Sync>() {}
    #[test]
    fn handles_are_send_and_sync() {
        assert_send_sync::<crate::Generator>();
        assert_send_sync::<crate::Uuid7Generator>();
        assert_send_sync::<crate::ScriptedClock>();
        assert_send_sync::<crate::Error>();
    }
}
