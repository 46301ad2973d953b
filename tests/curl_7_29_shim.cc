// Stands in for libcurl 7.29 (CentOS/RHEL 7) in test_curl_loader.cc: every libcurl function
// is the machine's own (this library links it), only curl_version_info reports 7.29.0. That
// release has every function the loader resolves but no CURLOPT_XFERINFOFUNCTION (7.32), so
// etcd_http.cc's progress callback, the way close() cancels a request in flight, is unknown
// to it and libcurl draws its progress meter on stderr instead.
#include <curl/curl.h>

extern "C" curl_version_info_data* curl_version_info(CURLversion) {
  static curl_version_info_data data{};
  data.age = CURLVERSION_FIRST;
  data.version = "7.29.0";
  data.version_num = 0x071d00;
  data.host = "x86_64-redhat-linux-gnu";
  return &data;
}
