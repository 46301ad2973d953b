//! The crate's hand-written declarations against `snowfleet.h` as a C compiler reads it
//! (probe.c), and its result codes against the error-kind list in `snowfleet/lists.h`.
use snowfleet_sys::*;
use std::ffi::CStr;
use std::mem::{offset_of, size_of};

#[test]
fn struct_sizes_match_the_header() {
    let rust = [
        size_of::<snowfleet_error>(),
        size_of::<snowfleet_layout>(),
        size_of::<snowfleet_layout_args>(),
        size_of::<snowfleet_decoded>(),
        size_of::<snowfleet_compose_args>(),
        size_of::<snowfleet_clock_segment>(),
        size_of::<snowfleet_clock_counters>(),
        size_of::<snowfleet_options>(),
        size_of::<snowfleet_generator_info>(),
        size_of::<snowfleet_stats>(),
        size_of::<snowfleet_status>(),
        size_of::<snowfleet_uuid7_options>(),
        size_of::<snowfleet_uuid7_fields>(),
    ];
    assert_eq!(rust, unsafe { probe::sfsys_sizes });
}

#[test]
fn field_offsets_match_the_header() {
    let rust = [
        offset_of!(snowfleet_error, message),
        offset_of!(snowfleet_layout, epoch_ms),
        offset_of!(snowfleet_layout, max_timestamp_ms),
        offset_of!(snowfleet_options, node_source),
        offset_of!(snowfleet_options, max_wait_ms),
        offset_of!(snowfleet_options, max_drift_ms),
        offset_of!(snowfleet_options, clock),
        offset_of!(snowfleet_generator_info, max_wait_ms),
        offset_of!(snowfleet_status, reason),
        offset_of!(snowfleet_status, wall_ms),
        offset_of!(snowfleet_status, mode),
        offset_of!(snowfleet_status, mark_headroom_ms),
        offset_of!(snowfleet_stats, lease_renewal_failures),
        offset_of!(snowfleet_uuid7_options, random_seed),
    ];
    assert_eq!(rust, unsafe { probe::sfsys_offsets });
}

#[test]
fn constants_match_the_header() {
    let rust = [
        SNOWFLEET_OK as i64,
        SNOWFLEET_RESULT_END as i64,
        SNOWFLEET_MESSAGE_MAX as i64,
        SNOWFLEET_LAYOUT_TEXT_MAX as i64,
        SNOWFLEET_ID_TEXT_MAX as i64,
        SNOWFLEET_TIME_TEXT_MAX as i64,
        SNOWFLEET_UUID_TEXT_MAX as i64,
        SNOWFLEET_DECIMAL as i64,
        SNOWFLEET_BASE32 as i64,
        SNOWFLEET_BASE62 as i64,
        SNOWFLEET_ANY as i64,
    ];
    assert_eq!(rust, unsafe { probe::sfsys_constants });
}

/// The CODE tokens of SNOWFLEET_ERROR_KINDS, in order, read from lists.h itself.
fn codes_in_lists_h() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../core/include/snowfleet/lists.h"
    ))
    .expect("lists.h");
    let start = text
        .find("#define SNOWFLEET_ERROR_KINDS(X)")
        .expect("the error-kind list");
    let body = &text[start..];
    let end = body.find("\n\n").unwrap_or(body.len());
    body[..end]
        .split("X(k")
        .skip(1)
        .map(|entry| entry.split(',').nth(1).unwrap().trim().to_string())
        .collect()
}

#[test]
fn result_constants_follow_the_error_kind_list() {
    let ours = [
        (SNOWFLEET_INVALID_ARGUMENT, "INVALID_ARGUMENT"),
        (SNOWFLEET_TIMESTAMP_OUT_OF_RANGE, "TIMESTAMP_OUT_OF_RANGE"),
        (SNOWFLEET_CLOCK_MOVED_BACKWARDS, "CLOCK_MOVED_BACKWARDS"),
        (SNOWFLEET_FORK_DETECTED, "FORK_DETECTED"),
        (SNOWFLEET_GENERATOR_CLOSED, "GENERATOR_CLOSED"),
        (SNOWFLEET_NODE_ID_UNAVAILABLE, "NODE_ID_UNAVAILABLE"),
        (SNOWFLEET_LEASE_LOST, "LEASE_LOST"),
        (SNOWFLEET_INTERNAL, "INTERNAL"),
    ];
    let listed = codes_in_lists_h();
    assert_eq!(listed.len(), ours.len(), "lists.h has {listed:?}");
    for (i, (value, code)) in ours.iter().enumerate() {
        assert_eq!(*value, i as i32 + 1);
        assert_eq!(listed[i], *code);
        let from_library = unsafe { CStr::from_ptr(snowfleet_result_code(*value)) };
        assert_eq!(from_library.to_str().unwrap(), *code);
    }
    assert!(unsafe { snowfleet_result_code(SNOWFLEET_RESULT_END) }.is_null());
}
