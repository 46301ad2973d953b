//! Edges a Rust user reaches: handles shared and closed across threads, a clock dropped
//! before its generators, the last millisecond of a layout, text with NUL bytes, slices
//! empty or too long, two generators of one node in one process.
use snowfleet::{ErrorKind, Generator, Layout, Mode, ScriptedClock, Uuid7, Uuid7Generator};
use std::collections::HashSet;
use std::sync::Arc;

#[test]
fn close_from_one_thread_while_others_mint_gives_ids_or_generator_closed() {
    let gen = Arc::new(
        Generator::builder()
            .node_id(11)
            .mode(Mode::Monotonic)
            .build()
            .unwrap(),
    );
    let minters: Vec<_> = (0..3)
        .map(|_| {
            let gen = Arc::clone(&gen);
            std::thread::spawn(move || {
                let mut ids = Vec::new();
                loop {
                    match gen.next_id() {
                        Ok(id) => ids.push(id),
                        Err(e) => {
                            assert_eq!(e.kind(), ErrorKind::GeneratorClosed, "{e}");
                            return ids;
                        }
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    gen.close().unwrap();
    gen.close().unwrap();
    let mut seen = HashSet::new();
    for t in minters {
        for id in t.join().unwrap() {
            assert!(seen.insert(id), "id {id} issued twice");
        }
    }
    assert!(gen.is_closed());
    assert_eq!(
        gen.next_id().unwrap_err().kind(),
        ErrorKind::GeneratorClosed
    );
    let mut batch = [0i64; 4];
    assert_eq!(
        gen.next_ids(&mut batch).unwrap_err().kind(),
        ErrorKind::GeneratorClosed
    );
}

#[test]
fn generators_keep_working_after_their_scripted_clock_is_dropped() {
    let clock = ScriptedClock::fixed(1737747358021).unwrap();
    let gen = Generator::builder()
        .node_id(2)
        .clock(&clock)
        .build()
        .unwrap();
    let uuids = Uuid7Generator::builder().clock(&clock).build().unwrap();
    drop(clock);
    let id = gen.next_id().unwrap();
    assert_eq!(snowfleet::decode(id).unwrap().timestamp_ms, 1737747358021);
    let u = uuids.next().unwrap();
    assert_eq!(u.fields().unwrap().timestamp_ms, 1737747358021);
}

#[test]
fn two_generators_of_one_node_in_one_process_never_repeat_an_id() {
    let clock = ScriptedClock::fixed(1737747358021).unwrap();
    let a = Generator::builder()
        .node_id(9)
        .clock(&clock)
        .build()
        .unwrap();
    let b = Generator::builder()
        .node_id(9)
        .clock(&clock)
        .build()
        .unwrap();
    let mut seen = HashSet::new();
    for _ in 0..2000 {
        assert!(seen.insert(a.next_id().unwrap()));
        assert!(seen.insert(b.next_id().unwrap()));
    }
    // The same node on the system clock, from two threads.
    let a = Arc::new(Generator::builder().node_id(10).build().unwrap());
    let b = Arc::new(Generator::builder().node_id(10).build().unwrap());
    let threads: Vec<_> = [a, b]
        .into_iter()
        .map(|g| std::thread::spawn(move || (0..20_000).map(|_| g.next_id().unwrap()).collect()))
        .collect();
    let mut seen = HashSet::new();
    for t in threads {
        let ids: Vec<i64> = t.join().unwrap();
        for id in ids {
            assert!(
                seen.insert(id),
                "id {id} issued by both generators of node 10"
            );
        }
    }
}

#[test]
fn the_layouts_last_millisecond_mints_and_the_next_is_out_of_range() {
    let layout = Layout::parse("41.10.12@0").unwrap();
    let last = layout.max_timestamp_ms();
    assert_eq!(last, (1i64 << 41) - 1);
    assert_eq!(layout.max_id(last).unwrap(), i64::MAX);
    assert_eq!(layout.compose(last, 1023, 4095).unwrap(), i64::MAX);
    let err = layout.compose(last + 1, 0, 0).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TimestampOutOfRange);
    assert!(err.message().contains(&(last + 1).to_string()), "{err}");

    let clock = ScriptedClock::fixed(last).unwrap();
    let gen = Generator::builder()
        .layout("41.10.12@0")
        .node_id(1023)
        .clock(&clock)
        .build()
        .unwrap();
    let id = gen.next_id().unwrap();
    assert_eq!(layout.decode(id).unwrap().timestamp_ms, last);
    clock.advance_wall_ms(1).unwrap();
    let err = gen.next_id().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TimestampOutOfRange, "{err}");
    assert_eq!(layout.decode(i64::MAX).unwrap().sequence, 4095);
    assert_eq!(
        layout.decode(-1).unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
}

#[test]
fn text_with_a_nul_byte_is_refused_naming_it() {
    let err = Generator::builder()
        .node_source("static:3\0junk")
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(err.message().contains("node_source"), "{err}");
    let err = Generator::builder()
        .node_id(1)
        .layout("default\0")
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(err.message().contains("layout"), "{err}");
    for text in ["default\0", "\0"] {
        let err = Layout::parse(text).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{err}");
    }
    let err = snowfleet::parse_id("12\u{0}3", snowfleet::Encoding::Decimal).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    let err = Uuid7::parse("01949a3f-5b25-7000-8000-00000000000\0").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(snowfleet::field_names("stats\0").is_empty());
}

#[test]
fn empty_and_too_long_slices() {
    let gen = Generator::builder().node_id(4).build().unwrap();
    gen.next_ids(&mut []).unwrap();
    let before = gen.stats().unwrap();
    // Calloc'd: the pages are never touched, the count is refused before any write.
    let mut huge = vec![0i64; 16_777_217];
    let err = gen.next_ids(&mut huge).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(err.message().contains("16777217"), "{err}");
    assert_eq!(
        gen.stats().unwrap(),
        before,
        "a refused call changed nothing"
    );
    drop(huge);

    let uuids = Uuid7Generator::new().unwrap();
    uuids.next_many(&mut []).unwrap();
    let mut many = [Uuid7::default(); 3];
    uuids.next_many(&mut many).unwrap();
    assert!(many[0] < many[1] && many[1] < many[2]);
}

#[test]
fn out_of_domain_numbers_are_refused_naming_the_value() {
    for ms in [f64::NAN, f64::INFINITY, -1.0] {
        let err = Generator::builder()
            .node_id(1)
            .max_wait_ms(ms)
            .build()
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{ms}: {err}");
    }
    for node in [i64::MIN, -1, 1024, i64::MAX] {
        let err = Generator::builder().node_id(node).build().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
        assert!(err.message().contains(&node.to_string()), "{err}");
    }
    let err = Generator::builder()
        .node_id(1)
        .mode(Mode::Monotonic)
        .max_drift_ms(i64::MIN)
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{err}");
    for id in [i64::MIN, -1] {
        let err = snowfleet::format_id(id, snowfleet::Encoding::Base62).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    }
    let err = snowfleet::parse_id("9223372036854775808", snowfleet::Encoding::Decimal).unwrap_err();
    assert!(err.message().contains("9223372036854775808"), "{err}");
}

#[test]
fn one_node_in_two_shapes_or_modes_shares_one_word_and_an_overlapping_shape_is_refused() {
    let clock = ScriptedClock::fixed(1737747358021).unwrap();
    let flat = Generator::builder()
        .layout("41.10.12@1704067200000")
        .node_id(37)
        .clock(&clock)
        .build()
        .unwrap();
    let split = Generator::builder()
        .layout("41.5.5.12@1704067200000")
        .datacenter_machine(1, 5)
        .mode(Mode::Monotonic)
        .clock(&clock)
        .build()
        .unwrap();
    let mut seen = HashSet::new();
    for _ in 0..3000 {
        for g in [&flat, &split] {
            match g.next_id() {
                Ok(id) => assert!(seen.insert(id), "id {id} issued twice"),
                Err(e) => assert_eq!(e.kind(), ErrorKind::ClockMovedBackwards, "{e}"),
            }
        }
    }
    let err = Generator::builder()
        .layout("41.11.11@1704067200000")
        .node_id(74)
        .clock(&clock)
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NodeIdUnavailable, "{err}");
}

#[test]
fn a_preset_equals_its_layout_text_as_in_the_other_languages() {
    let preset = Layout::parse("twitter").unwrap();
    let text = Layout::parse("41.5.5.12@1288834974657").unwrap();
    assert_eq!(preset, text);
    assert_eq!(preset.preset(), "twitter");
    let set: HashSet<Layout> = [preset, text].into_iter().collect();
    assert_eq!(set.len(), 1);
    assert_ne!(
        Layout::parse("41.10.12@0").unwrap(),
        Layout::parse("41.5.5.12@0").unwrap()
    );
}

#[test]
fn a_layout_from_fields_names_the_field_missing_or_out_of_range() {
    let err = Layout::builder().epoch_ms(0).build().unwrap_err();
    assert!(err.message().contains("timestamp_bits"), "{err}");
    let err = Layout::builder()
        .epoch_ms(0)
        .timestamp_bits(41)
        .node_bits(10)
        .build()
        .unwrap_err();
    assert!(err.message().contains("sequence_bits"), "{err}");
    let err = Layout::builder()
        .epoch_ms(0)
        .timestamp_bits(i64::MAX)
        .node_bits(10)
        .sequence_bits(12)
        .build()
        .unwrap_err();
    assert!(err.message().contains(&i64::MAX.to_string()), "{err}");
    let layout = Layout::builder()
        .epoch_ms(0)
        .timestamp_bits(41)
        .node_bits(10)
        .sequence_bits(12)
        .build()
        .unwrap();
    assert_eq!(layout.text(), "41.10.12@0");
}
