//! The process's id-space registry is chosen once, at the first generator: a process out of
//! file descriptors then gets an error, not a registry of the Rust copy's own, which another
//! copy of the core loaded later would not share (the two would mint the same ids). Once
//! descriptors are free the next generator loads the shared one.
//! One test in this binary: it must make the process's first generator.
#![cfg(target_os = "linux")]

use snowfleet::{ErrorKind, Generator};
use std::ffi::c_int;
use std::fs::File;

#[repr(C)]
struct Rlimit {
    current: u64,
    max: u64,
}
const RLIMIT_NOFILE: c_int = 7;

extern "C" {
    fn getrlimit(resource: c_int, limit: *mut Rlimit) -> c_int;
    fn setrlimit(resource: c_int, limit: *const Rlimit) -> c_int;
}

fn registry_objects() -> Vec<String> {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    let mut objects: Vec<String> = maps
        .lines()
        .filter_map(|l| l.split_whitespace().nth(5).map(str::to_string))
        .filter(|path| path.contains("libsnowfleet_registry.so.1"))
        .collect();
    objects.dedup();
    objects
}

#[test]
fn out_of_file_descriptors_at_the_first_generator_is_an_error_then_the_shared_registry() {
    let mut saved = Rlimit { current: 0, max: 0 };
    // SAFETY: valid pointers to an rlimit; the soft limit is lowered (and restored below)
    // only so that running out of descriptors takes few files.
    unsafe {
        assert_eq!(getrlimit(RLIMIT_NOFILE, &mut saved), 0);
        let low = Rlimit {
            current: saved.current.min(256),
            max: saved.max,
        };
        assert_eq!(setrlimit(RLIMIT_NOFILE, &low), 0);
    }
    let mut files = Vec::new();
    while let Ok(f) = File::open("/dev/null") {
        files.push(f);
    }
    let refused = Generator::builder().node_id(37).build();
    drop(files);
    // SAFETY: as above.
    unsafe { assert_eq!(setrlimit(RLIMIT_NOFILE, &saved), 0) };

    let Err(err) = refused else {
        panic!("a generator without a shared registry")
    };
    assert_eq!(err.kind(), ErrorKind::Internal, "{err}");
    assert!(err.to_string().contains("file descriptors"), "{err}");

    let gen = Generator::builder().node_id(37).build().unwrap();
    gen.next_id().unwrap();
    assert_eq!(registry_objects(), ["/memfd:libsnowfleet_registry.so.1"]);
}
