// The process's id-space registry for a copy of the core linked into a program statically
// (the Rust crate), which has no libsnowfleet_registry.so.1 shipped beside it.
//
// The process's registry is the loaded object whose SONAME is libsnowfleet_registry.so.1:
// every other copy of the core (the Python extension, the Node addon, the JNI library,
// libsnowfleet.so.0) names it as needed, and the dynamic linker satisfies that with the object
// already loaded under the SONAME, whenever that copy is loaded. So this copy takes
//   1. the one loaded, if any: another copy came first;
//   2. else the image built into the program, loaded from memory under that SONAME, so that
//      every copy loaded later lands on it: this copy came first;
//   3. else, where the process cannot load it (a static program, which cannot load another
//      copy either; a system refusing executable memory files), a registry of its own.
// Out of file descriptors or memory is not that: the answer is kept for the process's life,
// and a registry of its own then would mint the ids of a later copy's. No registry (null)
// instead, which fails this generator and lets the next one ask again.
// Symbol lookup cannot do 1 and 2: Python and the JVM load modules RTLD_LOCAL, out of
// dlsym(RTLD_DEFAULT)'s reach, and a Rust program or cdylib exports no C symbol a later copy
// could bind to. Runs once per copy (mint/id_space.cc keeps the answer), never per id.
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "builtin.h"

namespace {

constexpr const char kSoname[] = "libsnowfleet_registry.so.1";

using Entry = const snowfleet_registry_api* (*)(void);

const snowfleet_registry_api* loaded() {
  // RTLD_NOLOAD: an object loaded under the SONAME, in any scope, or null; loads nothing. The
  // reference taken is never dropped: the registry stays for the process's life.
  void* lib = dlopen(kSoname, RTLD_NOW | RTLD_NOLOAD);
  if (lib == nullptr) return nullptr;
  const auto entry = reinterpret_cast<Entry>(dlsym(lib, "snowfleet_registry_v1"));
  return entry != nullptr ? entry() : nullptr;
}

#ifdef __linux__
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

int image_file() {
  // MFD_EXEC: executable even where vm.memfd_noexec makes memory files sealed by default;
  // kernels before 6.3 refuse the flag (EINVAL) and make them executable anyway.
  int fd = memfd_create(kSoname, MFD_CLOEXEC | MFD_EXEC);
  if (fd < 0 && errno == EINVAL) fd = memfd_create(kSoname, MFD_CLOEXEC);
  return fd;
}

bool write_all(int fd, const unsigned char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool short_of_resources(int error) { return error == EMFILE || error == ENFILE || error == ENOMEM; }

// The memory file stays open for the process's life: the loader knows the object by the
// path /proc/self/fd/N, and a later dlopen of that path must not find it when the number
// names another file. False when the process is short of descriptors or memory (the loader
// opens the path again, so it needs a second descriptor).
bool load_image() {
  if (snowfleet_registry_image_size == 0) return true;
  const int fd = image_file();
  if (fd < 0) return !short_of_resources(errno);
  char path[40];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  if (!write_all(fd, snowfleet_registry_image, snowfleet_registry_image_size)) {
    const int error = errno;
    close(fd);
    return !short_of_resources(error);
  }
  if (dlopen(path, RTLD_NOW | RTLD_LOCAL) != nullptr) return true;
  const int error = errno;
  close(fd);
  return !short_of_resources(error);
}
#else
bool load_image() { return true; }
#endif

}  // namespace

extern "C" __attribute__((visibility("hidden"))) const snowfleet_registry_api*
snowfleet_registry_v1(void) {
  if (const snowfleet_registry_api* api = loaded()) return api;
  if (!load_image()) return nullptr;
  // Asked again rather than taken from the load: two static copies loading their images at
  // once both end on the one the loader lists first, which later copies bind to as well.
  if (const snowfleet_registry_api* api = loaded()) return api;
  return snowfleet_registry_builtin_v1();
}
