//! A Rust process is a fleet member like the others: generators on "local:DIR" lease node
//! ids from the registry every language shares, and release them when closed or dropped.
use snowfleet::{ErrorKind, Generator, LeaseState, Mode};
use std::sync::Arc;

fn registry_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("snowfleet-rust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn two_generators_on_one_local_registry_lease_different_nodes() {
    let dir = registry_dir("two");
    let source = format!("local:{}", dir.display());
    let a = Generator::builder().node_source(&source).build().unwrap();
    let b = Generator::builder()
        .node_source(&source)
        .mode(Mode::Monotonic)
        .build()
        .unwrap();
    let (na, nb) = (a.node_id().unwrap(), b.node_id().unwrap());
    assert_ne!(na, nb, "two leases in one process, two node ids");
    let status = a.status().unwrap();
    assert!(status.healthy, "{}", status.reason);
    assert_eq!(status.lease_state, LeaseState::Held);
    let (ia, ib) = (a.next_id().unwrap(), b.next_id().unwrap());
    assert_eq!(snowfleet::decode(ia).unwrap().node_id, na);
    assert_eq!(snowfleet::decode(ib).unwrap().node_id, nb);

    a.close().unwrap();
    assert_eq!(a.status().unwrap().lease_state, LeaseState::Released);
    assert_eq!(a.next_id().unwrap_err().kind(), ErrorKind::GeneratorClosed);
    drop(a);
    drop(b);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_generator_dropped_and_leased_again_never_repeats_an_id() {
    let dir = registry_dir("drop");
    let source = format!("local:{}", dir.display());
    let first = Generator::builder().node_source(&source).build().unwrap();
    let node = first.node_id().unwrap();
    let last_id = first.next_id().unwrap();
    drop(first);
    let again = Generator::builder().node_source(&source).build().unwrap();
    let id = again.next_id().unwrap();
    if again.node_id().unwrap() == node {
        assert!(id > last_id, "a slot taken again continues past its mark");
    }
    drop(again);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn one_generator_serves_many_threads_without_a_duplicate() {
    let gen = Arc::new(
        Generator::builder()
            .node_id(3)
            .mode(Mode::Monotonic)
            .build()
            .unwrap(),
    );
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let gen = Arc::clone(&gen);
            std::thread::spawn(move || {
                (0..20_000)
                    .map(|_| gen.next_id().unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut all: Vec<i64> = threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n);
    assert_eq!(gen.stats().unwrap().ids_issued, n as u64);
}

#[test]
fn bad_input_names_the_value_and_changes_nothing() {
    let gen = Generator::builder().node_id(1).build().unwrap();
    let before = gen.next_id().unwrap();
    let err = Generator::builder()
        .node_id(1)
        .layout("41.10.12@x")
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(err.message().contains("41.10.12@x"), "{err}");
    let err = Generator::builder()
        .node_source("local:\0")
        .build()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(err.message().contains("NUL"), "{err}");
    assert!(gen.next_id().unwrap() > before);
    assert_eq!(gen.stats().unwrap().ids_issued, 2);
}
