//! Layouts (the bit widths and epoch of an id) and what is computed from one: decode,
//! compose, the smallest and largest id of a millisecond, id ranges.
use crate::error::{c_string, c_text, call, Error};
use snowfleet_sys as sys;
use std::ffi::CString;
use std::fmt;

/// The layout of an id: timestamp, node and sequence fields and the epoch. Created from its
/// text form (`"41.10.12@1704067200000"`, `"41.5.5.12@…"`, or a preset: `"default"`,
/// `"twitter"`, `"discord"`) or from its fields with [`Layout::builder`].
///
/// ```
/// use snowfleet::Layout;
/// let twitter = Layout::parse("twitter")?;
/// assert_eq!(twitter.epoch_ms(), 1288834974657);
/// assert_eq!(twitter.max_node_id(), 1023);
/// let id = twitter.compose(1737747358021, 37, 5)?;
/// let d = twitter.decode(id)?;
/// assert_eq!((d.timestamp_ms, d.node_id, d.sequence), (1737747358021, 37, 5));
/// # Ok::<(), snowfleet::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    text: CString,
    preset: String,
    fields: [i64; 14],
}

/// The fields of an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decoded {
    /// Unix ms.
    pub timestamp_ms: i64,
    pub node_id: i64,
    /// The node's high part (0 when the layout does not split the node).
    pub datacenter_id: i64,
    /// The node's low part (the node id when the layout does not split it).
    pub machine_id: i64,
    pub sequence: i64,
}

impl Layout {
    /// Reads a layout's text form or a preset name.
    pub fn parse(text: &str) -> Result<Layout, Error> {
        let mut out = sized_layout();
        call(|e| unsafe {
            sys::snowfleet_layout_parse(text.as_ptr().cast(), text.len(), &mut out, e)
        })?;
        Ok(Layout::from_c(&out))
    }

    /// The default layout (41 timestamp bits, 10 node bits, 12 sequence bits, epoch
    /// 2024-01-01).
    pub fn default_layout() -> Layout {
        Layout::parse("default").expect("the default layout")
    }

    /// Creates a layout from its fields: `epoch_ms`, `timestamp_bits`, `sequence_bits`, and
    /// the node as `node_bits` or `datacenter_bits` + `machine_bits`.
    pub fn builder() -> LayoutBuilder {
        LayoutBuilder::default()
    }

    fn from_c(l: &sys::snowfleet_layout) -> Layout {
        Layout {
            text: CString::new(c_text(&l.text)).expect("layout text"),
            preset: c_text(&l.preset),
            fields: [
                l.epoch_ms,
                l.timestamp_bits,
                l.node_bits,
                l.datacenter_bits,
                l.machine_bits,
                l.sequence_bits,
                l.timestamp_shift,
                l.node_shift,
                l.max_node_id,
                l.max_datacenter_id,
                l.max_machine_id,
                l.max_sequence,
                l.max_elapsed_ms,
                l.max_timestamp_ms,
            ],
        }
    }

    /// The text form, which [`Layout::parse`] reads back.
    pub fn text(&self) -> &str {
        self.text.to_str().unwrap()
    }

    /// The preset's name (`"default"`, `"twitter"`, `"discord"`), or `""`.
    pub fn preset(&self) -> &str {
        &self.preset
    }

    pub(crate) fn c_text(&self) -> *const std::ffi::c_char {
        self.text.as_ptr()
    }
}

macro_rules! layout_fields {
    ($($index:literal $name:ident $doc:literal),* $(,)?) => {
        impl Layout {
            $(#[doc = $doc] pub fn $name(&self) -> i64 { self.fields[$index] })*
        }
        impl fmt::Debug for Layout {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct("Layout")
                    .field("text", &self.text())
                    .field("preset", &self.preset)
                    $(.field(stringify!($name), &self.fields[$index]))*
                    .finish()
            }
        }
    };
}

// The order of SNOWFLEET_LAYOUT_FIELDS (snowfleet/lists.h).
layout_fields! {
    0 epoch_ms "Unix ms of timestamp 0.",
    1 timestamp_bits "Width of the timestamp field.",
    2 node_bits "Width of the node field (datacenter_bits + machine_bits).",
    3 datacenter_bits "Width of the node field's high part (0 when the node is not split).",
    4 machine_bits "Width of the node field's low part (node_bits when the node is not split).",
    5 sequence_bits "Width of the per-millisecond sequence.",
    6 timestamp_shift "Bit position of the timestamp field (node_bits + sequence_bits).",
    7 node_shift "Bit position of the node field (sequence_bits).",
    8 max_node_id "Largest node id: 2^node_bits - 1.",
    9 max_datacenter_id "Largest datacenter id (0 when unsplit).",
    10 max_machine_id "Largest machine id.",
    11 max_sequence "Largest sequence: ids per millisecond per node - 1.",
    12 max_elapsed_ms "Largest value of the timestamp field: 2^timestamp_bits - 1.",
    13 max_timestamp_ms "Last Unix ms the layout can represent: epoch_ms + max_elapsed_ms.",
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::default_layout()
    }
}

impl std::str::FromStr for Layout {
    type Err = Error;
    fn from_str(text: &str) -> Result<Layout, Error> {
        Layout::parse(text)
    }
}

fn sized_layout() -> sys::snowfleet_layout {
    // All-zero is a valid snowfleet_layout (integers and char arrays).
    let mut l: sys::snowfleet_layout = unsafe { std::mem::zeroed() };
    l.size = std::mem::size_of::<sys::snowfleet_layout>() as u32;
    l
}

/// The fields a [`Layout`] is created from. `epoch_ms`, `timestamp_bits` and `sequence_bits`
/// are required (the core names the one missing); the node is `node_bits` (unsplit) or
/// `datacenter_bits` + `machine_bits`; the widths add up to 63.
///
/// ```
/// let layout = snowfleet::Layout::builder()
///     .epoch_ms(1704067200000).timestamp_bits(41).datacenter_bits(5).machine_bits(5)
///     .sequence_bits(12).build()?;
/// assert_eq!(layout.text(), "41.5.5.12@1704067200000");
/// # Ok::<(), snowfleet::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct LayoutBuilder {
    args: Args,
}

#[derive(Clone, Copy, Debug, Default)]
struct Args {
    epoch_ms: Option<i64>,
    timestamp_bits: Option<i64>,
    node_bits: Option<i64>,
    datacenter_bits: Option<i64>,
    machine_bits: Option<i64>,
    sequence_bits: Option<i64>,
}

macro_rules! builder_setters {
    ($($name:ident),*) => {
        impl LayoutBuilder {
            $(#[doc = concat!("Sets `", stringify!($name), "`.")]
            pub fn $name(mut self, value: i64) -> Self { self.args.$name = Some(value); self })*
        }
    };
}
builder_setters!(
    epoch_ms,
    timestamp_bits,
    node_bits,
    datacenter_bits,
    machine_bits,
    sequence_bits
);

impl LayoutBuilder {
    /// The layout, or the rule its fields break.
    pub fn build(self) -> Result<Layout, Error> {
        let a = self.args;
        let flag = |v: Option<i64>| (v.is_some() as i32, v.unwrap_or(0));
        let (has_epoch_ms, epoch_ms) = flag(a.epoch_ms);
        let (has_timestamp_bits, timestamp_bits) = flag(a.timestamp_bits);
        let (has_node_bits, node_bits) = flag(a.node_bits);
        let (has_datacenter_bits, datacenter_bits) = flag(a.datacenter_bits);
        let (has_machine_bits, machine_bits) = flag(a.machine_bits);
        let (has_sequence_bits, sequence_bits) = flag(a.sequence_bits);
        let args = sys::snowfleet_layout_args {
            size: std::mem::size_of::<sys::snowfleet_layout_args>() as u32,
            has_epoch_ms,
            has_timestamp_bits,
            has_node_bits,
            has_datacenter_bits,
            has_machine_bits,
            has_sequence_bits,
            reserved: 0,
            epoch_ms,
            timestamp_bits,
            node_bits,
            datacenter_bits,
            machine_bits,
            sequence_bits,
        };
        let mut out = sized_layout();
        call(|e| unsafe { sys::snowfleet_layout_create(&args, &mut out, e) })?;
        Ok(Layout::from_c(&out))
    }
}

/// What [`Layout::compose_fields`] reads: the node as `node_id` or as `datacenter_id` +
/// `machine_id`; an absent sequence is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComposeArgs {
    /// Unix ms.
    pub timestamp_ms: i64,
    pub node_id: Option<i64>,
    pub datacenter_id: Option<i64>,
    pub machine_id: Option<i64>,
    pub sequence: Option<i64>,
}

impl Layout {
    /// The fields of an id of this layout.
    pub fn decode(&self, id: i64) -> Result<Decoded, Error> {
        let mut d = sys::snowfleet_decoded {
            size: std::mem::size_of::<sys::snowfleet_decoded>() as u32,
            ..Default::default()
        };
        call(|e| unsafe { sys::snowfleet_decode(self.c_text(), id, &mut d, e) })?;
        Ok(decoded(&d))
    }

    /// The fields of an id given as decimal text (an id past `i64` is refused naming it).
    pub fn decode_text(&self, id: &str) -> Result<Decoded, Error> {
        let mut d = sys::snowfleet_decoded {
            size: std::mem::size_of::<sys::snowfleet_decoded>() as u32,
            ..Default::default()
        };
        call(|e| unsafe {
            sys::snowfleet_decode_text(self.c_text(), id.as_ptr().cast(), id.len(), &mut d, e)
        })?;
        Ok(decoded(&d))
    }

    /// The id of a Unix ms, node id and sequence.
    pub fn compose(&self, timestamp_ms: i64, node_id: i64, sequence: i64) -> Result<i64, Error> {
        let mut id = 0;
        call(|e| unsafe {
            sys::snowfleet_compose_node(self.c_text(), timestamp_ms, node_id, sequence, &mut id, e)
        })?;
        Ok(id)
    }

    /// The id of those fields (the node as datacenter + machine, say).
    pub fn compose_fields(&self, args: &ComposeArgs) -> Result<i64, Error> {
        let flag = |v: Option<i64>| (v.is_some() as i32, v.unwrap_or(0));
        let (has_node_id, node_id) = flag(args.node_id);
        let (has_datacenter_id, datacenter_id) = flag(args.datacenter_id);
        let (has_machine_id, machine_id) = flag(args.machine_id);
        let (has_sequence, sequence) = flag(args.sequence);
        let c = sys::snowfleet_compose_args {
            size: std::mem::size_of::<sys::snowfleet_compose_args>() as u32,
            has_node_id,
            has_datacenter_id,
            has_machine_id,
            has_sequence,
            reserved: 0,
            timestamp_ms: args.timestamp_ms,
            node_id,
            datacenter_id,
            machine_id,
            sequence,
        };
        let mut id = 0;
        call(|e| unsafe { sys::snowfleet_compose(self.c_text(), &c, &mut id, e) })?;
        Ok(id)
    }

    /// The smallest id this layout can give at a Unix ms.
    pub fn min_id(&self, timestamp_ms: i64) -> Result<i64, Error> {
        let mut id = 0;
        call(|e| unsafe { sys::snowfleet_min_id(self.c_text(), timestamp_ms, &mut id, e) })?;
        Ok(id)
    }

    /// The largest id this layout can give at a Unix ms.
    pub fn max_id(&self, timestamp_ms: i64) -> Result<i64, Error> {
        let mut id = 0;
        call(|e| unsafe { sys::snowfleet_max_id(self.c_text(), timestamp_ms, &mut id, e) })?;
        Ok(id)
    }

    /// The first and last id of `[start_ms, end_ms]` widened by `slack_ms` on each side,
    /// for a `WHERE id BETWEEN first AND last` query.
    ///
    /// ```
    /// let layout = snowfleet::Layout::default();
    /// let (first, last) = layout.id_range(1737747358000, 1737747359000, 0)?;
    /// assert!(first < last);
    /// # Ok::<(), snowfleet::Error>(())
    /// ```
    pub fn id_range(&self, start_ms: i64, end_ms: i64, slack_ms: i64) -> Result<(i64, i64), Error> {
        let (mut first, mut last) = (0, 0);
        call(|e| unsafe {
            sys::snowfleet_id_range(
                self.c_text(),
                start_ms,
                end_ms,
                slack_ms,
                &mut first,
                &mut last,
                e,
            )
        })?;
        Ok((first, last))
    }
}

fn decoded(d: &sys::snowfleet_decoded) -> Decoded {
    Decoded {
        timestamp_ms: d.timestamp_ms,
        node_id: d.node_id,
        datacenter_id: d.datacenter_id,
        machine_id: d.machine_id,
        sequence: d.sequence,
    }
}

/// The fields of an id of the default layout.
///
/// ```
/// let id = snowfleet::compose(1737747358021, 37, 0)?;
/// assert_eq!(snowfleet::decode(id)?.node_id, 37);
/// # Ok::<(), snowfleet::Error>(())
/// ```
pub fn decode(id: i64) -> Result<Decoded, Error> {
    let mut d = sys::snowfleet_decoded {
        size: std::mem::size_of::<sys::snowfleet_decoded>() as u32,
        ..Default::default()
    };
    call(|e| unsafe { sys::snowfleet_decode(std::ptr::null(), id, &mut d, e) })?;
    Ok(decoded(&d))
}

/// The id of a Unix ms, node id and sequence in the default layout.
pub fn compose(timestamp_ms: i64, node_id: i64, sequence: i64) -> Result<i64, Error> {
    let mut id = 0;
    call(|e| unsafe {
        sys::snowfleet_compose_node(
            std::ptr::null(),
            timestamp_ms,
            node_id,
            sequence,
            &mut id,
            e,
        )
    })?;
    Ok(id)
}

/// Checks a layout text for a NUL byte before it goes to the C interface.
pub(crate) fn layout_arg(text: &str) -> Result<CString, Error> {
    c_string("layout", text)
}
