//! One process, one id space: a Rust generator and a generator of another copy of the core
//! loaded into the same process (the C interface, libsnowfleet.so.0, which links
//! libsnowfleet_registry.so.1 as the Python, Node and Java modules do) share one registry,
//! whichever of the two is loaded and used first. Two generators of one node and layout mint
//! from one word (every id of either above the last of both), and a generator whose ids
//! overlap the other's with another sequence width is refused.
//!
//! The other copy is the library at $SNOWFLEET_TEST_C_LIBRARY (scripts/test/rust.sh builds
//! it with CMake); without it these tests say so and pass. Each order runs in a child
//! process of this test binary: a library once loaded stays loaded.
use snowfleet::{ErrorKind, Generator, Mode};
use snowfleet_sys::{
    snowfleet_error, snowfleet_generator, snowfleet_options, SNOWFLEET_NODE_ID_UNAVAILABLE,
};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::process::Command;

const ORDER: &str = "SNOWFLEET_TEST_ONE_REGISTRY_ORDER";
const LIBRARY: &str = "SNOWFLEET_TEST_C_LIBRARY";
const NODE: i64 = 37;
// Node 37 under 41.10.12 and node 74 under 41.11.11 both put 37 in bits 12..21.
const LAYOUT: &str = "41.10.12@1288834974657";
const OTHER_LAYOUT: &str = "41.11.11@1288834974657";
const OTHER_NODE: i64 = 74;

extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dlerror() -> *const c_char;
}
const RTLD_NOW: c_int = 2; // and not RTLD_GLOBAL: as Python and the JVM load modules

type OptionsInit = unsafe extern "C" fn(*mut snowfleet_options);
type GeneratorNew = unsafe extern "C" fn(
    *const snowfleet_options,
    *mut *mut snowfleet_generator,
    *mut snowfleet_error,
) -> i32;
type NextId = unsafe extern "C" fn(*mut snowfleet_generator, *mut i64, *mut snowfleet_error) -> i32;
type Free = unsafe extern "C" fn(*mut snowfleet_generator);

/// The C interface of the other copy, through dlsym.
struct OtherCore {
    options_init: OptionsInit,
    generator_new: GeneratorNew,
    next_id: NextId,
    free: Free,
}

impl OtherCore {
    fn load(path: &str) -> OtherCore {
        let file = CString::new(path).unwrap();
        // SAFETY: dlopen/dlsym with valid C strings; each symbol is the snowfleet.h function
        // of the signature it is transmuted to.
        unsafe {
            let handle = dlopen(file.as_ptr(), RTLD_NOW);
            assert!(
                !handle.is_null(),
                "dlopen {path}: {:?}",
                CStr::from_ptr(dlerror())
            );
            let sym = |name: &str| {
                let name = CString::new(name).unwrap();
                let p = dlsym(handle, name.as_ptr());
                assert!(!p.is_null(), "{path} has no {name:?}");
                p
            };
            type P = *mut c_void;
            OtherCore {
                options_init: std::mem::transmute::<P, OptionsInit>(sym("snowfleet_options_init")),
                generator_new: std::mem::transmute::<P, GeneratorNew>(sym(
                    "snowfleet_generator_new",
                )),
                next_id: std::mem::transmute::<P, NextId>(sym("snowfleet_generator_next_id")),
                free: std::mem::transmute::<P, Free>(sym("snowfleet_generator_free")),
            }
        }
    }

    /// A monotonic generator of `node` under `layout`, or the refusal's kind and message.
    fn generator(&self, layout: &str, node: i64) -> Result<OtherGenerator<'_>, (i32, String)> {
        let layout = CString::new(layout).unwrap();
        let mode = CString::new("monotonic").unwrap();
        // SAFETY: the options are initialized by the library and outlive the call.
        unsafe {
            let mut options = std::mem::zeroed::<snowfleet_options>();
            (self.options_init)(&mut options);
            options.layout = layout.as_ptr();
            options.mode = mode.as_ptr();
            options.node_id = node;
            options.has_node_id = 1;
            let mut gen = std::ptr::null_mut();
            let mut err = std::mem::zeroed::<snowfleet_error>();
            match (self.generator_new)(&options, &mut gen, &mut err) {
                0 => Ok(OtherGenerator { core: self, gen }),
                rc => Err((rc, message(&err))),
            }
        }
    }
}

fn message(err: &snowfleet_error) -> String {
    // SAFETY: the library writes a NUL-terminated message into the error.
    unsafe { CStr::from_ptr(err.message.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

struct OtherGenerator<'a> {
    core: &'a OtherCore,
    gen: *mut snowfleet_generator,
}

impl OtherGenerator<'_> {
    fn next_id(&self) -> i64 {
        let mut id = 0;
        // SAFETY: a live generator, a valid out-parameter and error.
        unsafe {
            let mut err = std::mem::zeroed::<snowfleet_error>();
            let rc = (self.core.next_id)(self.gen, &mut id, &mut err);
            assert_eq!(rc, 0, "{}", message(&err));
        }
        id
    }
}

impl Drop for OtherGenerator<'_> {
    fn drop(&mut self) {
        // SAFETY: the generator is freed once, here.
        unsafe { (self.core.free)(self.gen) }
    }
}

fn rust_generator(layout: &str, node: i64) -> Result<Generator, snowfleet::Error> {
    Generator::builder()
        .layout(layout)
        .node_id(node)
        .mode(Mode::Monotonic)
        .build()
}

/// Both generators of node 37 mint from one word: in any interleaving each id is above every
/// id before it, of either. Two registries would give each its own word, and the first ids
/// of both in one millisecond would be equal.
fn assert_one_word(rust: &Generator, other: &OtherGenerator) {
    let mut last = i64::MIN;
    for round in 0..2000 {
        for (side, id) in [
            ("rust", rust.next_id().unwrap()),
            ("other", other.next_id()),
        ] {
            assert!(
                id > last,
                "round {round}: the {side} copy minted {id} after {last}: two id spaces"
            );
            last = id;
        }
    }
}

/// The files mapped in this process that are a libsnowfleet_registry.so.1: one, whichever copy
/// of the core loaded it (a memory file when the Rust copy did).
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

/// What the child process runs: `rust-first` or `other-first`.
fn run_order(order: &str, library: &str) {
    let (rust, other_core, other);
    if order == "rust-first" {
        rust = rust_generator(LAYOUT, NODE).unwrap();
        rust.next_id().unwrap();
        other_core = OtherCore::load(library);
        other = other_core.generator(LAYOUT, NODE).unwrap();
    } else {
        other_core = OtherCore::load(library);
        other = other_core.generator(LAYOUT, NODE).unwrap();
        other.next_id();
        rust = rust_generator(LAYOUT, NODE).unwrap();
    }
    assert_one_word(&rust, &other);
    let objects = registry_objects();
    assert_eq!(objects.len(), 1, "registries mapped: {objects:?}");

    // Node 74 under 41.11.11 overlaps node 37 under 41.10.12 and cannot share its word.
    let refusal = rust_generator(OTHER_LAYOUT, OTHER_NODE).err();
    let refusal = refusal.expect("the Rust copy accepted a generator overlapping the other's");
    assert_eq!(refusal.kind(), ErrorKind::NodeIdUnavailable, "{refusal}");
    let (rc, text) = other_core
        .generator(OTHER_LAYOUT, OTHER_NODE)
        .err()
        .expect("the other copy accepted a generator overlapping the Rust one");
    assert_eq!(rc, SNOWFLEET_NODE_ID_UNAVAILABLE, "{text}");

    // Once both are closed, the space is free for the other shape, in either copy.
    drop(other);
    drop(rust);
    let other = other_core.generator(OTHER_LAYOUT, OTHER_NODE).unwrap();
    assert_eq!(
        rust_generator(LAYOUT, NODE).err().map(|e| e.kind()),
        Some(ErrorKind::NodeIdUnavailable)
    );
    drop(other);
    println!("one registry: {order}: shared ({})", objects[0]);
}

fn run_in_child(order: &str) {
    let Ok(library) = std::env::var(LIBRARY) else {
        println!("one registry: {order}: skipped (set {LIBRARY} to a libsnowfleet.so.0)");
        return;
    };
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env(ORDER, order)
        .env(LIBRARY, &library)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains(&format!("one registry: {order}: shared (")),
        "{order}: {}\n{stdout}\n{stderr}",
        out.status
    );
    let line = stdout.lines().find_map(|l| l.split_once("one registry:"));
    println!("one registry:{}", line.unwrap().1);
}

#[test]
fn child() {
    if let (Ok(order), Ok(library)) = (std::env::var(ORDER), std::env::var(LIBRARY)) {
        run_order(&order, &library);
    }
}

#[test]
fn the_rust_copy_first_then_another_copy_share_one_registry() {
    run_in_child("rust-first");
}

#[test]
fn another_copy_first_then_the_rust_copy_share_one_registry() {
    run_in_child("other-first");
}
