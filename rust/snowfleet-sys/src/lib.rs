//! Raw declarations of snowfleet's C interface, `snowfleet.h` (docs/c.md): the types and
//! functions exactly as the header has them, and nothing more. Use the `snowfleet` crate for
//! a safe API; this one is for other bindings.
//!
//! The build script compiles the C++ core, the C interface and the id-space registry from
//! source into a static library (a C++17 compiler is needed; no CMake). The declarations are
//! written by hand from the header; `tests/abi.rs` checks every struct's size, the offsets
//! that matter and the constants against what a C compiler makes of `snowfleet.h`, and the
//! result codes against the error-kind list in `snowfleet/lists.h`.
#![allow(non_camel_case_types)]
#![no_std]

use core::ffi::c_char;

/// `SNOWFLEET_OK` (0) or `SNOWFLEET_<CODE>`: an error kind's index in
/// `SNOWFLEET_ERROR_KINDS` plus one.
pub type snowfleet_result = i32;

pub const SNOWFLEET_OK: snowfleet_result = 0;
pub const SNOWFLEET_INVALID_ARGUMENT: snowfleet_result = 1;
pub const SNOWFLEET_TIMESTAMP_OUT_OF_RANGE: snowfleet_result = 2;
pub const SNOWFLEET_CLOCK_MOVED_BACKWARDS: snowfleet_result = 3;
pub const SNOWFLEET_FORK_DETECTED: snowfleet_result = 4;
pub const SNOWFLEET_GENERATOR_CLOSED: snowfleet_result = 5;
pub const SNOWFLEET_NODE_ID_UNAVAILABLE: snowfleet_result = 6;
pub const SNOWFLEET_LEASE_LOST: snowfleet_result = 7;
pub const SNOWFLEET_INTERNAL: snowfleet_result = 8;
/// One past the last kind.
pub const SNOWFLEET_RESULT_END: snowfleet_result = 9;

pub const SNOWFLEET_MESSAGE_MAX: usize = 512;
pub const SNOWFLEET_LAYOUT_TEXT_MAX: usize = 64;
pub const SNOWFLEET_ID_TEXT_MAX: usize = 24;
pub const SNOWFLEET_TIME_TEXT_MAX: usize = 40;
pub const SNOWFLEET_UUID_TEXT_MAX: usize = 37;

pub const SNOWFLEET_DECIMAL: i32 = 0;
pub const SNOWFLEET_BASE32: i32 = 1;
pub const SNOWFLEET_BASE62: i32 = 2;
pub const SNOWFLEET_ANY: i32 = 3;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct snowfleet_error {
    pub result: snowfleet_result,
    pub reserved: i32,
    pub drift_ms: i64,
    pub message: [c_char; SNOWFLEET_MESSAGE_MAX],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct snowfleet_layout {
    pub size: u32,
    pub reserved: i32,
    pub text: [c_char; SNOWFLEET_LAYOUT_TEXT_MAX],
    pub preset: [c_char; 16],
    pub epoch_ms: i64,
    pub timestamp_bits: i64,
    pub node_bits: i64,
    pub datacenter_bits: i64,
    pub machine_bits: i64,
    pub sequence_bits: i64,
    pub timestamp_shift: i64,
    pub node_shift: i64,
    pub max_node_id: i64,
    pub max_datacenter_id: i64,
    pub max_machine_id: i64,
    pub max_sequence: i64,
    pub max_elapsed_ms: i64,
    pub max_timestamp_ms: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct snowfleet_layout_args {
    pub size: u32,
    pub has_epoch_ms: i32,
    pub has_timestamp_bits: i32,
    pub has_node_bits: i32,
    pub has_datacenter_bits: i32,
    pub has_machine_bits: i32,
    pub has_sequence_bits: i32,
    pub reserved: i32,
    pub epoch_ms: i64,
    pub timestamp_bits: i64,
    pub node_bits: i64,
    pub datacenter_bits: i64,
    pub machine_bits: i64,
    pub sequence_bits: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct snowfleet_decoded {
    pub size: u32,
    pub reserved: i32,
    pub timestamp_ms: i64,
    pub node_id: i64,
    pub datacenter_id: i64,
    pub machine_id: i64,
    pub sequence: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct snowfleet_compose_args {
    pub size: u32,
    pub has_node_id: i32,
    pub has_datacenter_id: i32,
    pub has_machine_id: i32,
    pub has_sequence: i32,
    pub reserved: i32,
    pub timestamp_ms: i64,
    pub node_id: i64,
    pub datacenter_id: i64,
    pub machine_id: i64,
    pub sequence: i64,
}

#[repr(C)]
pub struct snowfleet_clock {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct snowfleet_clock_segment {
    pub ms: i64,
    pub count: i64,
    pub step_ms: i64,
    pub every: i64,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct snowfleet_clock_counters {
    pub size: u32,
    pub reserved: i32,
    pub reads: i64,
    pub sleep_count: i64,
    pub slept_ns: i64,
    pub max_sleep_ns: i64,
    pub min_sleep_ns: i64,
}

#[repr(C)]
pub struct snowfleet_generator {
    _private: [u8; 0],
}

/// Expanded from `SNOWFLEET_GENERATOR_ARGS`; initialize with [`snowfleet_options_init`].
#[repr(C)]
#[derive(Clone, Copy)]
pub struct snowfleet_options {
    pub size: u32,
    pub reserved: i32,
    pub layout: *const c_char,
    pub node_id: i64,
    pub has_node_id: i32,
    pub reserved_node_id: i32,
    pub datacenter_id: i64,
    pub has_datacenter_id: i32,
    pub reserved_datacenter_id: i32,
    pub machine_id: i64,
    pub has_machine_id: i32,
    pub reserved_machine_id: i32,
    pub node_source: *const c_char,
    pub mode: *const c_char,
    pub max_wait_ms: f64,
    pub has_max_wait_ms: i32,
    pub reserved_max_wait_ms: i32,
    pub max_drift_ms: i64,
    pub has_max_drift_ms: i32,
    pub reserved_max_drift_ms: i32,
    pub clock: *mut snowfleet_clock,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct snowfleet_generator_info {
    pub size: u32,
    pub mode: i32,
    pub layout: [c_char; SNOWFLEET_LAYOUT_TEXT_MAX],
    pub node_id: i64,
    pub max_wait_ms: f64,
    pub max_drift_ms: i64,
}

/// Expanded from `SNOWFLEET_STATS_FIELDS`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct snowfleet_stats {
    pub size: u32,
    pub reserved: i32,
    pub ids_issued: u64,
    pub rewinds_seen: u64,
    pub waits: u64,
    pub waited_ns_total: u64,
    pub waited_ns_max: u64,
    pub refusals: u64,
    pub ms_borrowed: u64,
    pub mark_writes: u64,
    pub lease_refusals: u64,
    pub mark_write_failures: u64,
    pub lease_renewal_failures: u64,
}

/// Expanded from `SNOWFLEET_STATUS_FIELDS`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct snowfleet_status {
    pub size: u32,
    pub reserved: i32,
    pub healthy: i32,
    pub reason: [c_char; 256],
    pub wall_ms: i64,
    pub last_ms: i64,
    pub drift_ms: i64,
    pub node_id: i64,
    pub mode: i32,
    pub lease_state: i32,
    pub mark_ms: i64,
    pub lease_expires_in_ms: i64,
    pub mark_headroom_ms: i64,
}

#[repr(C)]
pub struct snowfleet_uuid7_generator {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct snowfleet_uuid7_options {
    pub size: u32,
    pub has_max_wait_ms: i32,
    pub has_max_drift_ms: i32,
    pub has_random_seed: i32,
    pub mode: *const c_char,
    pub max_wait_ms: f64,
    pub max_drift_ms: i64,
    pub random_seed: u64,
    pub clock: *mut snowfleet_clock,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct snowfleet_uuid7_fields {
    pub size: u32,
    pub reserved: i32,
    pub timestamp_ms: i64,
    pub counter: i64,
    pub random: i64,
}

extern "C" {
    pub fn snowfleet_result_code(result: snowfleet_result) -> *const c_char;
    pub fn snowfleet_result_name(result: snowfleet_result) -> *const c_char;
    pub fn snowfleet_result_category(result: snowfleet_result) -> *const c_char;
    pub fn snowfleet_version() -> *const c_char;

    pub fn snowfleet_layout_parse(
        text: *const c_char,
        len: usize,
        out: *mut snowfleet_layout,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_layout_create(
        args: *const snowfleet_layout_args,
        out: *mut snowfleet_layout,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;

    pub fn snowfleet_decode(
        layout: *const c_char,
        id: i64,
        out: *mut snowfleet_decoded,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_decode_text(
        layout: *const c_char,
        id_text: *const c_char,
        len: usize,
        out: *mut snowfleet_decoded,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_compose(
        layout: *const c_char,
        args: *const snowfleet_compose_args,
        out: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_compose_node(
        layout: *const c_char,
        timestamp_ms: i64,
        node_id: i64,
        sequence: i64,
        out: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;

    pub fn snowfleet_format_id(
        id: i64,
        format: i32,
        buf: *mut c_char,
        cap: usize,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_parse_id(
        text: *const c_char,
        len: usize,
        format: i32,
        out: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_min_id(
        layout: *const c_char,
        timestamp_ms: i64,
        out: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_max_id(
        layout: *const c_char,
        timestamp_ms: i64,
        out: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_id_range(
        layout: *const c_char,
        start_ms: i64,
        end_ms: i64,
        slack_ms: i64,
        first: *mut i64,
        last: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_format_time(
        unix_ms: i64,
        buf: *mut c_char,
        cap: usize,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_parse_time(
        text: *const c_char,
        len: usize,
        unix_ms: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;

    pub fn snowfleet_clock_new(
        segments: *const snowfleet_clock_segment,
        n: usize,
        out: *mut *mut snowfleet_clock,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_clock_set_wall_ms(
        clock: *mut snowfleet_clock,
        ms: i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_clock_advance_wall_ms(
        clock: *mut snowfleet_clock,
        delta_ms: i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_clock_counters_get(
        clock: *const snowfleet_clock,
        out: *mut snowfleet_clock_counters,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_clock_free(clock: *mut snowfleet_clock);

    pub fn snowfleet_options_init(options: *mut snowfleet_options);
    pub fn snowfleet_generator_new(
        options: *const snowfleet_options,
        out: *mut *mut snowfleet_generator,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_generator_next_id(
        gen: *mut snowfleet_generator,
        out: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_generator_next_ids(
        gen: *mut snowfleet_generator,
        out: *mut i64,
        n: i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_generator_info_get(
        gen: *const snowfleet_generator,
        out: *mut snowfleet_generator_info,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_generator_stats(
        gen: *const snowfleet_generator,
        out: *mut snowfleet_stats,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_generator_status(
        gen: *mut snowfleet_generator,
        out: *mut snowfleet_status,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_generator_drift_ms(
        gen: *mut snowfleet_generator,
        out: *mut i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_generator_close(
        gen: *mut snowfleet_generator,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_generator_closed(gen: *const snowfleet_generator) -> i32;
    pub fn snowfleet_generator_free(gen: *mut snowfleet_generator);

    pub fn snowfleet_uuid7_options_init(options: *mut snowfleet_uuid7_options);
    pub fn snowfleet_uuid7_new(
        options: *const snowfleet_uuid7_options,
        out: *mut *mut snowfleet_uuid7_generator,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid7_next(
        gen: *mut snowfleet_uuid7_generator,
        out: *mut u8,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid7_next_text(
        gen: *mut snowfleet_uuid7_generator,
        buf: *mut c_char,
        cap: usize,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid7_next_many(
        gen: *mut snowfleet_uuid7_generator,
        out: *mut u8,
        n: i64,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid7_stats(
        gen: *const snowfleet_uuid7_generator,
        out: *mut snowfleet_stats,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid7_status(
        gen: *mut snowfleet_uuid7_generator,
        out: *mut snowfleet_status,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid7_close(
        gen: *mut snowfleet_uuid7_generator,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid7_free(gen: *mut snowfleet_uuid7_generator);

    pub fn snowfleet_uuid_format(
        bytes: *const u8,
        buf: *mut c_char,
        cap: usize,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid_parse(
        text: *const c_char,
        len: usize,
        out: *mut u8,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;
    pub fn snowfleet_uuid7_decode(
        bytes: *const u8,
        out: *mut snowfleet_uuid7_fields,
        err: *mut snowfleet_error,
    ) -> snowfleet_result;

    pub fn snowfleet_field_name(record: *const c_char, index: usize) -> *const c_char;
}

/// The probe the build script compiles from `snowfleet.h` (tests only).
#[doc(hidden)]
pub mod probe {
    extern "C" {
        pub static sfsys_sizes: [usize; 13];
        pub static sfsys_offsets: [usize; 14];
        pub static sfsys_constants: [i64; 11];
    }
}
