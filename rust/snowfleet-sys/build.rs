//! Builds snowfleet's C++ core and its C interface into one static library, from the lists in
//! core/sources.txt (the list CMake and binding.gyp build from), plus src/capi/ (the C
//! interface) and src/registry/ (the process's id-space registry).
//!
//! Where the core is: $SNOWFLEET_CORE_DIR, else ../../core (a checkout of the repository, or
//! a git dependency), else core/ beside this file (a published crate).
//! The etcd node source is built when the libcurl and nlohmann-json headers are found
//! (SNOWFLEET_ETCD=ON requires them, OFF leaves it out); libcurl itself is loaded at run time.
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let core = core_dir(&manifest);
    let root = core.parent().unwrap().to_path_buf();
    println!("cargo:rerun-if-env-changed=SNOWFLEET_CORE_DIR");
    println!("cargo:rerun-if-env-changed=SNOWFLEET_ETCD");
    println!("cargo:rerun-if-changed={}", core.display());
    println!("cargo:rerun-if-changed=probe.c");

    let lists = read_sources(&core.join("sources.txt"));
    let etcd = want_etcd();
    let mut sources: Vec<PathBuf> = Vec::new();
    sources.extend(lists.core.iter().map(|s| core.join(s)));
    if etcd {
        sources.extend(lists.etcd.iter().map(|s| core.join(s)));
    } else {
        sources.extend(lists.no_etcd.iter().map(|s| core.join(s)));
    }
    sources.extend(cc_files(&core.join("src/capi")));
    // The id-space registry: the image of libsnowfleet_registry.so.1 that locate.cc loads
    // when no other copy of the core loaded one first, and the same registry.cc built in as
    // the last resort.
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    sources.push(registry_image(&core, &out));
    sources.push(core.join("src/registry/locate.cc"));
    sources.push(core.join("src/registry/registry.cc"));

    println!("cargo:rerun-if-changed={}", root.join("VERSION").display());
    let version = fs::read_to_string(root.join("VERSION"))
        .expect("snowfleet-sys: no VERSION file beside the core")
        .trim()
        .to_string();

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .opt_level(2)
        .debug(false)
        .pic(true)
        .warnings(false)
        .include(core.join("include"))
        .include(core.join("src"))
        .define("SNOWFLEET_VERSION", version.as_str())
        .define("SNOWFLEET_REGISTRY_BUILTIN", None)
        .files(&sources);
    build.compile("snowfleet_core");

    // The sizes and constants of snowfleet.h as the C compiler sees them, for the test that
    // checks this crate's declarations against the header.
    cc::Build::new()
        .include(core.join("include"))
        .opt_level(2)
        .file(manifest.join("probe.c"))
        .compile("snowfleet_sys_probe");

    // The C++ runtime (the cc crate names libstdc++ or libc++ by the compiler), dlopen, threads.
    println!("cargo:rustc-link-lib=dl");
    println!("cargo:rustc-link-lib=pthread");
    println!("cargo:include={}", core.join("include").display());
    println!("cargo:etcd={}", if etcd { "on" } else { "off" });
}

/// Builds core/src/registry/registry.cc as libsnowfleet_registry.so.1 (the flags of its CMake
/// target), and writes a C++ source holding its bytes (snowfleet_registry_image, see
/// core/src/registry/builtin.h). An empty image where the target is not Linux: locate.cc
/// loads it from a Linux memory file.
fn registry_image(core: &Path, out: &Path) -> PathBuf {
    let mut bytes = Vec::new();
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        // Not in OUT_DIR itself: `cargo run` and `cargo test` put that on LD_LIBRARY_PATH (the
        // cc crate's link search path), where another copy of the core would find this file
        // instead of the registry shipped with it.
        let dir = out.join("registry-image");
        fs::create_dir_all(&dir).unwrap();
        let library = dir.join("libsnowfleet_registry.so.1");
        let compiler = cc::Build::new().cpp(true).get_compiler();
        let mut cmd = compiler.to_command();
        cmd.args([
            "-std=c++17",
            "-O2",
            "-fPIC",
            "-shared",
            "-fvisibility=hidden",
        ])
        .args([
            "-fno-exceptions",
            "-fno-rtti",
            "-static-libstdc++",
            "-static-libgcc",
        ])
        .args([
            "-Wl,-soname,libsnowfleet_registry.so.1",
            "-Wl,--no-undefined",
            "-Wl,-z,nodelete",
            "-s",
        ])
        .arg("-o")
        .arg(&library)
        .arg(core.join("src/registry/registry.cc"))
        .arg("-pthread");
        let status = cmd
            .status()
            .unwrap_or_else(|e| panic!("snowfleet-sys: running {cmd:?}: {e}"));
        assert!(
            status.success(),
            "snowfleet-sys: building libsnowfleet_registry.so.1 failed: {cmd:?}"
        );
        bytes = fs::read(&library).unwrap();
    }
    let mut text = String::from(
        "// Generated by snowfleet-sys's build.rs: libsnowfleet_registry.so.1's bytes.\n\
         #include \"registry/builtin.h\"\n\
         extern \"C\" {\n\
         __attribute__((visibility(\"hidden\"))) const unsigned char snowfleet_registry_image[] = {",
    );
    for (i, b) in bytes.iter().enumerate() {
        if i % 24 == 0 {
            text.push('\n');
        }
        text.push_str(&format!("{b},"));
    }
    // A zero-length array is not C++: an empty image is one byte with size 0.
    if bytes.is_empty() {
        text.push('0');
    }
    text.push_str(&format!(
        "}};\n__attribute__((visibility(\"hidden\"))) const size_t \
         snowfleet_registry_image_size = {};\n}}\n",
        bytes.len()
    ));
    let source = out.join("registry_image.cc");
    fs::write(&source, text).unwrap();
    source
}

fn core_dir(manifest: &Path) -> PathBuf {
    if let Ok(dir) = env::var("SNOWFLEET_CORE_DIR") {
        return PathBuf::from(dir);
    }
    // A checkout's live core first: a copy packed beside this file may be stale there.
    for candidate in [manifest.join("../../core"), manifest.join("core")] {
        if candidate.join("sources.txt").is_file() {
            return candidate.canonicalize().unwrap();
        }
    }
    panic!(
        "snowfleet-sys: the core's sources are not here (core/ or ../../core); \
         set SNOWFLEET_CORE_DIR to a checkout's core/"
    );
}

#[derive(Default)]
struct Lists {
    core: Vec<String>,
    etcd: Vec<String>,
    no_etcd: Vec<String>,
}

fn read_sources(path: &Path) -> Lists {
    let text = fs::read_to_string(path).expect("snowfleet-sys: cannot read core/sources.txt");
    let mut lists = Lists::default();
    let mut section: Option<&str> = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = Some(match name {
                "core" => "core",
                "etcd" => "etcd",
                "no-etcd" => "no-etcd",
                other => panic!("core/sources.txt: unknown list [{other}] (core, etcd, no-etcd)"),
            });
            continue;
        }
        let list = match section {
            Some("core") => &mut lists.core,
            Some("etcd") => &mut lists.etcd,
            Some(_) => &mut lists.no_etcd,
            None => panic!("core/sources.txt: '{line}' comes before any [list]"),
        };
        list.push(line.to_string());
    }
    lists
}

fn cc_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("snowfleet-sys: {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cc"))
        .collect();
    files.sort();
    files
}

/// Whether to build the etcd node source: SNOWFLEET_ETCD=ON/OFF, or (AUTO, the default) when
/// a C++ compiler finds both headers it needs.
fn want_etcd() -> bool {
    let setting = env::var("SNOWFLEET_ETCD").unwrap_or_else(|_| "AUTO".into());
    if setting.eq_ignore_ascii_case("OFF") {
        return false;
    }
    let found = headers_found();
    if setting.eq_ignore_ascii_case("ON") && !found {
        panic!(
            "SNOWFLEET_ETCD=ON needs the libcurl and nlohmann-json headers \
             (apt-get install libcurl4-openssl-dev nlohmann-json3-dev; or SNOWFLEET_ETCD=OFF)"
        );
    }
    found
}

fn headers_found() -> bool {
    let compiler = cc::Build::new().cpp(true).get_compiler();
    let mut cmd = compiler.to_command();
    cmd.args(["-std=c++17", "-E", "-x", "c++", "-", "-o", "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let Ok(mut child) = cmd.spawn() else {
        return false;
    };
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(b"#include <curl/curl.h>\n#include <nlohmann/json.hpp>\n");
    }
    child.wait().map(|s| s.success()).unwrap_or(false)
}
