// The texts the k8s-lease:// source reads from outside: a kubeconfig (the YAML subset,
// then the context, cluster and user it names), the spec, the API server's JSON replies
// and MicroTime. Properties: nothing crashes or reads out of bounds (ASan, UBSan); a
// kubeconfig is read or refused with YamlError (a message naming file and line, bounded),
// and its target found or refused with NODE_ID_UNAVAILABLE, never another exception; a spec
// is read or refused with INVALID_ARGUMENT; any JSON document is read as a Lease, a list
// or a Status, or refused, without an exception; an accepted six-digit MicroTime formats
// back to itself. Needs the etcd node source's build (libcurl and nlohmann-json headers).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "lease/k8s/k8s_spec.hpp"
#include "lease/k8s/kube_config.hpp"
#include "lease/k8s/kube_reply.hpp"
#include "lease/k8s/kube_yaml.hpp"

using nlohmann::json;
namespace kube = snowfleet::detail::kube;

namespace {

void check_kubeconfig(const std::string& text) {
  json config;
  try {
    config = kube::parse_yaml(text, "/k/config");
  } catch (const kube::YamlError& e) {
    const std::string what = e.what();
    FUZZ_CHECK(what.rfind("/k/config line ", 0) == 0);
    FUZZ_CHECK(what.size() < 1024);
    return;
  }
  try {
    kube::target_from_kubeconfig({"/k/config"}, {config}, "");
  } catch (const snowfleet::Error& e) {
    FUZZ_CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
  }
}

void check_spec(const std::string& text) {
  try {
    const kube::K8sConfig c = kube::parse_k8s_spec("k8s-lease://" + text, snowfleet::Layout());
    FUZZ_CHECK(kube::valid_dns_label(c.prefix));
    FUZZ_CHECK(c.ttl_s >= 2 && c.ttl_s <= 3600);
  } catch (const snowfleet::Error& e) {
    fuzz::check_refusal(e);
  }
}

void check_reply(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return;
  kube::LeaseView v;
  std::vector<kube::LeaseView> items;
  std::string why;
  if (kube::parse_lease(j, &v, &why)) FUZZ_CHECK(!v.name.empty() && !v.resource_version.empty());
  kube::parse_lease_list(j, &items, &why);
  const kube::Status s = kube::parse_status(j);
  FUZZ_CHECK(s.message.size() <= 303);
  kube::forbidden_user(s.message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(fuzz::text_of(data, size));
  check_kubeconfig(text);
  check_spec(text);
  check_reply(text);
  int64_t us = 0;
  if (kube::parse_micro_time(text, &us) && text.size() == 27)
    FUZZ_CHECK(kube::format_micro_time(us) == text);
  return 0;
}
