"""etcd:// on a libcurl older than 7.32 (CentOS/RHEL 7 ship 7.29; manylinux_2_17, the wheels'
tag, is their baseline): the loader resolves every function it needs (all exist in 7.29),
but CURLOPT_XFERINFOFUNCTION (7.32) is unknown there, setopt's CURLE_UNKNOWN_OPTION is not
checked, and with CURLOPT_NOPROGRESS 0 libcurl then draws its own progress meter on stderr
for every etcd request (and close() can no longer cancel a request in flight). The error
text already says "etcd:// needs libcurl 7.32 or later", but only when a symbol is missing.
Expected: an etcd:// claim on such a libcurl is refused with one error naming the version
found and 7.32, or works without writing to stderr.

The old libcurl is a shim (built here with cc, `libcurl.so.4` on LD_LIBRARY_PATH) that
forwards to the machine's libcurl and answers CURLOPT_XFERINFOFUNCTION as 7.29 does. The
CLI under test: SNOWFLEET_CLI (default `python3 -m snowfleet`, an installed wheel).

    SNOWFLEET_CLI="/path/to/venv/bin/python -m snowfleet" python3 tests/faults/old_libcurl_test.py
"""
import os
import shlex
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fake_etcd import FakeEtcd  # noqa: E402

CLI = shlex.split(os.environ.get("SNOWFLEET_CLI", "python3 -m snowfleet"))
# The CLI runs from a temporary directory: a relative path to it (test/fleet.sh passes
# out/fleet/core/snowfleet) is made absolute here.
if os.sep in CLI[0]:
    CLI[0] = os.path.abspath(CLI[0])
REAL = os.environ.get("SNOWFLEET_REAL_LIBCURL", "libcurl.so.4.8.0")

SHIM = r"""
#define _GNU_SOURCE
#define CURL_DISABLE_TYPECHECK
#include <dlfcn.h>
#include <stdarg.h>
#include <curl/curl.h>
static void* real(const char* n) {
  static void* h;
  if (!h) h = dlopen(REAL, RTLD_NOW | RTLD_LOCAL);
  return dlsym(h, n);
}
CURLcode curl_global_init(long f) { return ((CURLcode(*)(long))real("curl_global_init"))(f); }
CURL* curl_easy_init(void) { return ((CURL*(*)(void))real("curl_easy_init"))(); }
void curl_easy_cleanup(CURL* h) { ((void(*)(CURL*))real("curl_easy_cleanup"))(h); }
void curl_easy_reset(CURL* h) { ((void(*)(CURL*))real("curl_easy_reset"))(h); }
CURLcode curl_easy_perform(CURL* h) { return ((CURLcode(*)(CURL*))real("curl_easy_perform"))(h); }
const char* curl_easy_strerror(CURLcode c) {
  return ((const char*(*)(CURLcode))real("curl_easy_strerror"))(c);
}
struct curl_slist* curl_slist_append(struct curl_slist* l, const char* s) {
  return ((struct curl_slist*(*)(struct curl_slist*, const char*))real("curl_slist_append"))(l, s);
}
void curl_slist_free_all(struct curl_slist* l) {
  ((void(*)(struct curl_slist*))real("curl_slist_free_all"))(l);
}
/* 7.29 knows no CURLOPT_XFERINFOFUNCTION (7.32.0). */
CURLcode curl_easy_setopt(CURL* h, CURLoption o, ...) {
  va_list ap; va_start(ap, o); void* p = va_arg(ap, void*); va_end(ap);
  if (o == CURLOPT_XFERINFOFUNCTION) return CURLE_UNKNOWN_OPTION;
  return ((CURLcode(*)(CURL*, CURLoption, ...))real("curl_easy_setopt"))(h, o, p);
}
CURLcode curl_easy_getinfo(CURL* h, CURLINFO i, ...) {
  va_list ap; va_start(ap, i); void* p = va_arg(ap, void*); va_end(ap);
  return ((CURLcode(*)(CURL*, CURLINFO, ...))real("curl_easy_getinfo"))(h, i, p);
}
static curl_version_info_data v;
curl_version_info_data* curl_version_info(CURLversion age) {
  v = *((curl_version_info_data*(*)(CURLversion))real("curl_version_info"))(age);
  v.version = "7.29.0";
  v.version_num = 0x071d00;
  return &v;
}
"""


class EtcdOnLibcurl729(unittest.TestCase):
    def test_claim_is_refused_or_quiet(self):
        tmp = tempfile.mkdtemp(prefix="old-libcurl-")
        src = os.path.join(tmp, "shim.c")
        with open(src, "w") as f:
            f.write(SHIM)
        subprocess.run(["cc", "-shared", "-fPIC", "-O1", f'-DREAL="{REAL}"',
                        "-Wl,-soname,libcurl.so.4", "-o", os.path.join(tmp, "libcurl.so.4"),
                        src, "-ldl"], check=True)
        fake = FakeEtcd()
        self.addCleanup(fake.close)
        env = dict(os.environ, LD_LIBRARY_PATH=tmp)
        run = subprocess.run(CLI + ["next", "--node-source", f"etcd://{fake.endpoint}/old?ttl=10",
                                    "-n", "3"],
                             env=env, capture_output=True, text=True, timeout=60, cwd=tmp)
        print(f"exit {run.returncode}; stdout {run.stdout!r}; stderr {len(run.stderr)} bytes:\n"
              f"{run.stderr[:400]}", file=sys.stderr)
        self.assertNotIn("% Total", run.stderr, "libcurl's progress meter reached stderr")
        if run.returncode != 0:
            self.assertIn("7.32", run.stderr)


if __name__ == "__main__":
    unittest.main()
