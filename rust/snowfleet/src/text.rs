//! An id's text forms (decimal, base32, base62) and time text (ISO 8601 UTC).
use crate::error::{c_text, call, Error};
use snowfleet_sys as sys;
use std::ffi::c_char;

/// An id's text form; each sorts as the ids do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Decimal digits, no sign.
    #[default]
    Decimal,
    /// 13 characters, Crockford's alphabet.
    Base32,
    /// 11 characters, `0-9A-Za-z`.
    Base62,
    /// Parse only: whichever of the three a text is in (all digits: decimal; else 13
    /// characters base32, 11 base62). [`format_id`] refuses it.
    Any,
}

impl Encoding {
    fn c(self) -> i32 {
        match self {
            Encoding::Decimal => sys::SNOWFLEET_DECIMAL,
            Encoding::Base32 => sys::SNOWFLEET_BASE32,
            Encoding::Base62 => sys::SNOWFLEET_BASE62,
            Encoding::Any => sys::SNOWFLEET_ANY,
        }
    }
}

/// An id as text.
///
/// ```
/// use snowfleet::{format_id, parse_id, Encoding};
/// let text = format_id(123456789, Encoding::Base62)?;
/// assert_eq!(text.len(), 11);
/// assert_eq!(parse_id(&text, Encoding::Base62)?, 123456789);
/// # Ok::<(), snowfleet::Error>(())
/// ```
pub fn format_id(id: i64, encoding: Encoding) -> Result<String, Error> {
    let mut buf = [0 as c_char; sys::SNOWFLEET_ID_TEXT_MAX];
    call(|e| unsafe {
        sys::snowfleet_format_id(id, encoding.c(), buf.as_mut_ptr(), buf.len(), e)
    })?;
    Ok(c_text(&buf))
}

/// Reads an id in that form, strictly: no sign, space or prefix.
pub fn parse_id(text: &str, encoding: Encoding) -> Result<i64, Error> {
    let mut id = 0;
    call(|e| unsafe {
        sys::snowfleet_parse_id(text.as_ptr().cast(), text.len(), encoding.c(), &mut id, e)
    })?;
    Ok(id)
}

/// Unix ms as ISO 8601 UTC text.
///
/// ```
/// assert_eq!(snowfleet::format_time(1737747358021)?, "2025-01-24T19:35:58.021Z");
/// assert_eq!(snowfleet::parse_time("2025-01-24T19:35:58.021Z")?, 1737747358021);
/// # Ok::<(), snowfleet::Error>(())
/// ```
pub fn format_time(unix_ms: i64) -> Result<String, Error> {
    let mut buf = [0 as c_char; sys::SNOWFLEET_TIME_TEXT_MAX];
    call(|e| unsafe { sys::snowfleet_format_time(unix_ms, buf.as_mut_ptr(), buf.len(), e) })?;
    Ok(c_text(&buf))
}

/// Reads RFC 3339 text with an offset, or a date alone, as Unix ms.
pub fn parse_time(text: &str) -> Result<i64, Error> {
    let mut ms = 0;
    call(|e| unsafe { sys::snowfleet_parse_time(text.as_ptr().cast(), text.len(), &mut ms, e) })?;
    Ok(ms)
}
