// The k8s-lease:// source's kubeconfig reading: the strict YAML subset (what kubectl writes
// is read; what it does not is refused naming file, line and what), and finding the target
// (context, cluster, user; relative paths; $KUBECONFIG lists; in-cluster; refusals).
#include <catch2/catch.hpp>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include "lease/k8s/kube_config.hpp"
#include "lease/k8s/kube_yaml.hpp"
#include "snowfleet/snowfleet.hpp"
#include "test_util.hpp"

using nlohmann::json;
using snowfleet::detail::kube::check_token;
using snowfleet::detail::kube::find_target;
using snowfleet::detail::kube::parse_yaml;
using snowfleet::detail::kube::Target;
using snowfleet::detail::kube::YamlError;
using snowfleet_test::error_of;
using snowfleet_test::temp_dir;

namespace {

// The layout of `kubectl config view --raw`.
const char* kKubectl = R"(apiVersion: v1
clusters:
- cluster:
    certificate-authority: ca.pem
    server: https://127.0.0.1:6443
  name: by-file
- cluster:
    insecure-skip-tls-verify: true
    server: "https://10.0.0.1:443/"
  name: insecure
contexts:
- context:
    cluster: by-file
    namespace: ids
    user: token
  name: token
- context: {"cluster": "insecure", "user": "token"}
  name: insecure
current-context: token   # a comment
kind: Config
preferences: {}
users:
- name: token
  user:
    token: 'abc''def'
)";

std::string yaml_error(const std::string& text) {
  try {
    parse_yaml(text, "/k/config");
  } catch (const YamlError& e) {
    return e.what();
  }
  FAIL("expected a YamlError for " << text);
  return "";
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// A kubeconfig of one context on the cluster https://h:1 and the user 'u', whose fields are
// `user_fields` (lines indented under "  user:").
std::string one_user_kubeconfig(const std::string& user_fields) {
  return "current-context: x\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\n"
         "clusters:\n- name: c\n  cluster:\n    server: https://h:1\nusers:\n- name: u\n"
         "  user:\n" +
         user_fields;
}

}  // namespace

TEST_CASE("kubeconfig YAML: kubectl's block layout, quotes, comments and JSON flow", "[k8s]") {
  const json j = parse_yaml(kKubectl, "/k/config");
  CHECK(j["current-context"] == "token");
  CHECK(j["clusters"].size() == 2);
  CHECK(j["clusters"][0]["cluster"]["server"] == "https://127.0.0.1:6443");
  CHECK(j["clusters"][1]["cluster"]["insecure-skip-tls-verify"] == "true");
  CHECK(j["clusters"][1]["cluster"]["server"] == "https://10.0.0.1:443/");
  CHECK(j["contexts"][1]["context"]["cluster"] == "insecure");
  CHECK(j["preferences"] == json::object());
  CHECK(j["users"][0]["user"]["token"] == "abc'def");
  CHECK(parse_yaml("# nothing\n\n", "f") == json::object());
  CHECK(parse_yaml("a:\n  - x\n  - \"y\\n\"\nb: ~\n", "f") ==
        json{{"a", {"x", "y\n"}}, {"b", nullptr}});
  CHECK(parse_yaml("---\nk: v # c\n", "f") == json{{"k", "v"}});
  CHECK(parse_yaml("k: a#b\n", "f") == json{{"k", "a#b"}});
  CHECK(parse_yaml("- \"name\": x\n  'it''s': y\n- \"a: b\"\n", "f") ==
        json::array({json{{"name", "x"}, {"it's", "y"}}, "a: b"}));
}

TEST_CASE("kubeconfig YAML: nested sequences at their key's indentation (minikube)", "[k8s]") {
  const json j = parse_yaml(R"(clusters:
- cluster:
    extensions:
    - extension:
        last-update: Fri, 01 Dec 2023 10:00:00 UTC
        provider: minikube.sigs.k8s.io
      name: cluster_info
    server: https://192.168.49.2:8443
  name: minikube
)",
                            "f");
  const json& c = j["clusters"][0]["cluster"];
  CHECK(c["server"] == "https://192.168.49.2:8443");
  CHECK(c["extensions"][0]["name"] == "cluster_info");
  CHECK(c["extensions"][0]["extension"]["last-update"] == "Fri, 01 Dec 2023 10:00:00 UTC");
  CHECK(j["clusters"][0]["name"] == "minikube");
}

TEST_CASE("kubeconfig YAML: anything else is refused naming the file, line and what", "[k8s]") {
  CHECK(yaml_error("server: &x 1\n") ==
        "/k/config line 1: an anchor or alias is not supported in 'server: ...'");
  // A key no kubeconfig has is not shown: it may be part of a token's continuation.
  CHECK(yaml_error("a: &x 1\n") == "/k/config line 1: an anchor or alias is not supported");
  CHECK_THAT(yaml_error("a: 1\nb: *x\n"), Catch::Contains("line 2: an anchor or alias"));
  CHECK_THAT(yaml_error("a: !!str 1\n"), Catch::Contains("a tag is not supported"));
  CHECK_THAT(yaml_error("a: |\n  x\n"), Catch::Contains("a block scalar"));
  CHECK_THAT(yaml_error("a: x\n  y\n"), Catch::Contains("line 2: unexpected indentation"));
  CHECK_THAT(yaml_error("a: \"x\n"), Catch::Contains("without its closing quote"));
  CHECK_THAT(yaml_error("a: 1\na: 2\n"), Catch::Contains("line 2: the key 'a' appears twice"));
  CHECK_THAT(yaml_error("a: 1\n---\nb: 2\n"), Catch::Contains("line 2: a second document"));
  CHECK_THAT(yaml_error("a:\n\t- x\n"), Catch::Contains("line 2: a tab in the indentation"));
  CHECK_THAT(yaml_error("a: {b: c}\n"), Catch::Contains("not JSON on one line"));
  CHECK_THAT(yaml_error("just text\n"), Catch::Contains("expected 'key: value'"));
  CHECK_THAT(yaml_error("? a\n"), Catch::Contains("complex key"));
  CHECK_THAT(yaml_error("a: b: c\n"), Catch::Contains("': ' inside a plain scalar"));
  CHECK_THAT(yaml_error("a: \"\\q\"\n"), Catch::Contains("an escape other than"));
  CHECK_THAT(yaml_error("- a\nb: c\n"), Catch::Contains("line 2: "));
}

TEST_CASE("kubeconfig: context, cluster, user, relative paths and namespace", "[k8s]") {
  const std::string dir = temp_dir();
  const std::string cfg = write(dir, "config", kKubectl);
  Target t = find_target({cfg, ""}, "", "", "", "");
  CHECK(t.server == "https://127.0.0.1:6443");
  CHECK(t.ca_file == dir + "/ca.pem");  // relative to the kubeconfig's directory
  CHECK(t.token == "abc'def");
  CHECK(t.namespace_ == "ids");
  t = find_target({cfg, "insecure"}, "", "", "", "");
  CHECK(t.server == "https://10.0.0.1:443");
  CHECK(t.insecure);
  CHECK(t.namespace_.empty());
  CHECK_THAT(error_of([&] {
               find_target({cfg, "nope"}, "", "", "", "");
             }).what(),
             Catch::Contains("has no context 'nope'"));
}

TEST_CASE("kubeconfig: KUBECONFIG lists, the first file to set a name wins", "[k8s]") {
  const std::string dir = temp_dir();
  const std::string a = write(dir, "a",
                              "current-context: one\nusers:\n- name: u\n  user:\n"
                              "    tokenFile: tok\n");
  const std::string b =
      write(dir + "/", "b",
            "current-context: two\ncontexts:\n- name: one\n  context:\n"
            "    cluster: c\n    user: u\nclusters:\n- name: c\n  cluster:\n"
            "    server: https://h:1\nusers:\n- name: u\n  user:\n    token: t\n");
  const Target t = find_target({"", ""}, dir + "/missing:" + a + ":" + b, "", "", "");
  CHECK(t.server == "https://h:1");
  CHECK(t.token_file == dir + "/tok");  // a's user, a's directory
  CHECK(t.token.empty());
}

TEST_CASE("kubeconfig: unsupported users and missing credentials are refused by name", "[k8s]") {
  const std::string dir = temp_dir();
  const std::string exec =
      write(dir, "exec", one_user_kubeconfig("    exec:\n      command: aws\n"));
  CHECK_THAT(error_of([&] {
               find_target({exec, ""}, "", "", "", "");
             }).what(),
             Catch::Contains("the user field 'exec' is not supported"));
  const snowfleet::Error none = error_of([&] { find_target({"", ""}, "", "", "", dir); });
  CHECK(none.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(none.what(), Catch::Contains("no Kubernetes credentials"));
  CHECK_THAT(none.what(), Catch::Contains("$KUBECONFIG unset"));
  // What is missing is named as it is: a $KUBECONFIG of no file, half an in-cluster
  // environment, every file of a $KUBECONFIG that names some.
  const std::string half =
      error_of([&] { find_target({"", ""}, ":", "10.0.0.1", "", dir); }).what();
  CHECK_THAT(half, Catch::Contains("$KUBECONFIG naming no file"));
  CHECK_THAT(half,
             Catch::Contains("KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT not both set"));
  CHECK_THAT(error_of([&] { find_target({"", ""}, "/nonexistent:/alsonot", "", "", dir); }).what(),
             Catch::Contains("no kubeconfig among $KUBECONFIG's files ('/nonexistent', "
                             "'/alsonot'): none can be read"));
  const std::string broken = write(dir, "broken", "a: &x\n");
  CHECK_THAT(error_of([&] {
               find_target({broken, ""}, "", "", "", "");
             }).what(),
             Catch::Contains(broken + " line 1: an anchor"));
}

TEST_CASE("kubeconfig: in-cluster from the service account directory", "[k8s]") {
  const std::string sa = temp_dir();
  write(sa, "token", "tok\n");
  write(sa, "namespace", "ids");
  const Target t = find_target({"", ""}, "", "10.0.0.1", "443", "", sa);
  CHECK(t.server == "https://10.0.0.1:443");
  CHECK(t.token_file == sa + "/token");
  CHECK(t.ca_file == sa + "/ca.crt");
  CHECK(t.namespace_ == "ids");
  CHECK(find_target({"", ""}, "", "fd00::1", "443", "", sa).server == "https://[fd00::1]:443");
}

TEST_CASE("kubeconfig: a FIFO or a directory named as the kubeconfig is refused at once",
          "[k8s]") {
  // Reading a FIFO with no writer would block the claim for ever.
  const std::string dir = temp_dir();
  const std::string fifo = dir + "/config";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const snowfleet::Error e = error_of([&] { find_target({fifo, ""}, "", "", "", ""); });
  CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains("config") && Catch::Contains("is not a regular file"));
  CHECK_THAT(error_of([&] { find_target({dir, ""}, "", "", "", ""); }).what(),
             Catch::Contains("is not a regular file"));
  // In-cluster: a FIFO where the token should be.
  const std::string sa = temp_dir();
  REQUIRE(mkfifo((sa + "/token").c_str(), 0600) == 0);
  CHECK(error_of([&] { find_target({"", ""}, "", "10.0.0.1", "443", "", sa); }).kind() ==
        snowfleet::ErrorKind::kNodeIdUnavailable);
}

TEST_CASE("kubeconfig: a value that is not UTF-8 is refused as an error, not a crash", "[k8s]") {
  // A YAML map where a context name should be, holding bytes that are not UTF-8: writing it
  // in a message threw nlohmann's type_error out of the claim.
  const json config = {{"current-context", {{std::string("t\xff\xff"), 1}}},
                       {"contexts", json::array()}};
  const snowfleet::Error e = error_of(
      [&] { snowfleet::detail::kube::target_from_kubeconfig({"/k/config"}, {config}, ""); });
  CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
}

TEST_CASE("kubeconfig: a namespace that is not a DNS label is refused, naming where", "[k8s]") {
  // The namespace goes into every request's path.
  using snowfleet::detail::kube::chosen_namespace;
  const std::string dir = temp_dir();
  const std::string cfg =
      write(dir, "config",
            "current-context: x\ncontexts:\n- name: x\n  context:\n    cluster: c\n"
            "    user: u\n    namespace: ../secrets\nclusters:\n- name: c\n  cluster:\n"
            "    server: https://h:1\nusers:\n- name: u\n  user:\n    token: t\n");
  const Target t = find_target({cfg, ""}, "", "", "", "");
  const snowfleet::Error e = error_of([&] { chosen_namespace("", t); });
  CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains("namespace must be") && Catch::Contains("'../secrets'") &&
                           Catch::Contains(cfg));
  // The spec's namespace= is used instead: the kubeconfig's is never read.
  CHECK(chosen_namespace("ids", t) == "ids");
  const std::string sa = temp_dir();
  write(sa, "token", "tok\n");
  write(sa, "namespace", "Ids Prod");
  const Target in = find_target({"", ""}, "", "10.0.0.1", "443", "", sa);
  CHECK_THAT(error_of([&] { chosen_namespace("", in); }).what(),
             Catch::Contains("'Ids Prod'") && Catch::Contains(sa + "/namespace"));
  // Whitespace around it is trimmed, as client-go does.
  write(sa, "namespace", " ids\t\n");
  CHECK(chosen_namespace("", find_target({"", ""}, "", "10.0.0.1", "443", "", sa)) == "ids");
  CHECK(chosen_namespace("", Target{}) == "default");
}

TEST_CASE("kubeconfig: a deeply nested value is refused, not written out", "[k8s]") {
  // Writing a value out recurses once per level: 200,000 levels overflowed the stack. The
  // reader refuses such a file (nested deeper than 64), so the tree is built here, moved
  // into place (a copy recurses too).
  json deep = json::array();
  json* p = &deep;
  for (int i = 0; i < 200000; ++i) {
    p->push_back(json::array());
    p = &(*p)[0];
  }
  json config = parse_yaml(
      "current-context: x\ncontexts:\n- name: x\n  context:\n    cluster: c\n"
      "    user: u\nclusters:\n- name: c\n  cluster:\n    server: https://h:1\nusers:\n"
      "- name: u\n  user:\n    token: t\n",
      "/k/config");
  config["contexts"][0]["context"]["namespace"] = std::move(deep);
  std::vector<json> configs;
  configs.push_back(std::move(config));
  const snowfleet::Error e = error_of(
      [&] { snowfleet::detail::kube::target_from_kubeconfig({"/k/config"}, configs, ""); });
  CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains("'namespace' is a list"));
}

TEST_CASE("kubeconfig: a certificate file that is a FIFO is refused before any request",
          "[k8s]") {
  // libcurl opens it itself, and an open of a FIFO with no writer blocks for ever.
  const std::string dir = temp_dir();
  REQUIRE(mkfifo((dir + "/ca.pem").c_str(), 0600) == 0);
  const std::string cfg =
      write(dir, "config",
            "current-context: x\ncontexts:\n- name: x\n  context:\n    cluster: c\n"
            "    user: u\nclusters:\n- name: c\n  cluster:\n    server: https://h:1\n"
            "    certificate-authority: ca.pem\nusers:\n- name: u\n  user:\n    token: t\n");
  const snowfleet::Error e = error_of([&] { find_target({cfg, ""}, "", "", "", ""); });
  CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains("certificate-authority") &&
                           Catch::Contains("is not a regular file"));
}

TEST_CASE("kubeconfig: a token holding a line break is refused, not sent as a header", "[k8s]") {
  // "Authorization: Bearer a\r\nX-Other: b" would send a second header line.
  const std::string dir = temp_dir();
  const std::string kc =
      write(dir, "config", one_user_kubeconfig("    token: \"a\\r\\nX-Other: b\"\n"));
  const snowfleet::Error e = error_of([&] { find_target({kc, ""}, "", "", "", ""); });
  CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains("user 'u'") &&
                           Catch::Contains("control character (byte 0x0d at offset 1)"));
  CHECK_THAT(e.what(), !Catch::Contains("X-Other"));
  CHECK_NOTHROW(check_token("eyJhbGciOi.J9.x-_~+/=\tz", "a token with a tab"));  // as Go allows
}

TEST_CASE("kubeconfig: a deeply nested document is refused, not a crash", "[k8s]") {
  // Each "- " was one more level of recursion and a copy of the rest of the line: 30,000 of
  // them overflowed the stack.
  CHECK_THAT(yaml_error("clusters:\n" + repeat("- ", 30000) + "x\n"),
             Catch::Contains("/k/config line 2: ") && Catch::Contains("nested deeper than 64"));
  std::string indented;
  for (int i = 0; i < 100; ++i) indented += std::string(i, ' ') + "a:\n";
  CHECK_THAT(yaml_error(indented), Catch::Contains("nested deeper than 64"));
  CHECK_THAT(yaml_error("a: " + repeat("[", 100) + repeat("]", 100) + "\n"),
             Catch::Contains("line 1: ") && Catch::Contains("nested deeper than 64"));
  CHECK_THAT(
      yaml_error("a:\n" + repeat("- ", 60) + repeat("{\"b\": ", 10) + "1" + repeat("}", 10) + "\n"),
      Catch::Contains("line 2: ") && Catch::Contains("nested deeper than 64"));
  // Well below the limit is read.
  CHECK(parse_yaml("a:\n" + repeat("- ", 40) + "x\n", "f")["a"].is_array());
  CHECK(parse_yaml("a: " + repeat("[", 40) + repeat("]", 40) + "\n", "f")["a"].is_array());
  // Through the node source: an ordinary refusal naming the file.
  const std::string dir = temp_dir();
  const std::string cfg = write(dir, "config", "clusters:\n" + repeat("- ", 30000) + "x\n");
  const snowfleet::Error e = error_of([&] { find_target({cfg, ""}, "", "", "", ""); });
  CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
  CHECK_THAT(e.what(), Catch::Contains(cfg + " line 2: "));
}

TEST_CASE("kubeconfig: an error never quotes the token, a key or a password", "[k8s]") {
  const std::string secret = "ids-token-0534dfSECRET";
  for (const std::string& line :
       {"    token: '" + secret + "\n", "    token: \"" + secret + "\n",
        "    token: " + secret + ": x\n", "    token: \"" + secret + "\\x\"\n",
        "    token: a\n    token: " + secret + "\n", "    token: a\n      " + secret + "\n",
        "    token: a\n      " + secret + ":x\n", "    token: a\n      abc." + secret + ":\n",
        "    token: a\n      " + secret + ": b\n", "    client-key-data: {" + secret + "\n",
        "    password: &" + secret + "\n", "    client-certificate-data: !" + secret + "\n",
        "%" + secret + "\n", "    token: |" + secret + "\n", "    " + secret + "\n",
        "    token: [\"" + secret + "\n"}) {
    const std::string text = one_user_kubeconfig(line);
    CAPTURE(line);
    const std::string what = yaml_error(text);
    CHECK_THAT(what, Catch::Contains("/k/config line "));
    CHECK_THAT(what, !Catch::Contains("SECRET"));
  }
  CHECK(yaml_error("a: 1\n  token: 'x\n") ==
        "/k/config line 2: unexpected indentation (a multi-line scalar is not supported) in "
        "'token: ...'");
  // kube_config.cc's refusals name the field, not what it holds.
  const std::string dir = temp_dir();
  for (const std::string& field :
       {"    server: ftp://u:" + secret + "@h\n", "    server: https://u:" + secret + "@h:6443\n",
        "    insecure-skip-tls-verify: " + secret + "\n"}) {
    const std::string cfg =
        write(dir, "config",
              "current-context: x\ncontexts:\n- name: x\n  context:\n    cluster: c\n"
              "clusters:\n- name: c\n  cluster:\n" +
                  field);
    const snowfleet::Error e = error_of([&] { find_target({cfg, ""}, "", "", "", ""); });
    CHECK(e.kind() == snowfleet::ErrorKind::kNodeIdUnavailable);
    CHECK_THAT(e.what(), !Catch::Contains("SECRET"));
  }
}

TEST_CASE("kubeconfig: JSON as kubectl config view -o json and json.dumps write it is read",
          "[k8s]") {
  const json expected = parse_yaml(kKubectl, "/k/config");
  const std::string pretty = expected.dump(4);  // kubectl's layout: 4 spaces
  CHECK(parse_yaml(pretty + "\n", "f") == expected);
  CHECK(parse_yaml(expected.dump(), "f") == expected);  // compact
  // Python's json.dumps: ", " and ": " between items, on one line.
  CHECK(parse_yaml(R"({"current-context": "x", "users": [{"name": "u", "user": {"token": "t"}}]})",
                   "f")["users"][0]["user"]["token"] == "t");
  // After a byte order mark and blank lines.
  CHECK(parse_yaml("\xEF\xBB\xBF\n  \n" + pretty, "f") == expected);
  CHECK(parse_yaml("{}", "f") == json::object());
  // A whole kubeconfig in JSON, through the node source; booleans are read as in YAML.
  const std::string dir = temp_dir();
  const std::string cfg = write(
      dir, "config",
      R"({"current-context": "x", "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
  "clusters": [{"name": "c", "cluster": {"server": "https://h:1", "insecure-skip-tls-verify": true}}],
  "users": [{"name": "u", "user": {"token": "t"}}]})");
  const Target t = find_target({cfg, ""}, "", "", "", "");
  CHECK(t.server == "https://h:1");
  CHECK(t.insecure);
  CHECK(t.token == "t");
}

TEST_CASE("kubeconfig: JSON that is not valid is refused naming the file and where, not what",
          "[k8s]") {
  const std::string secret = "ids-token-0534dfSECRET";
  CHECK_THAT(yaml_error("{\n  \"users\": [{\"user\": {\"token\": \"" + secret + "}]}\n"),
             Catch::Contains("/k/config line 2: ") && Catch::Contains("not valid JSON") &&
                 !Catch::Contains("SECRET"));
  CHECK_THAT(yaml_error("{\"token\": " + secret + "}"),
             Catch::Contains("/k/config line 1: ") && !Catch::Contains("SECRET"));
  CHECK_THAT(yaml_error("{\"token\": \"a\", \"token\": \"" + secret + "\"}"),
             Catch::Contains("/k/config line 1: the key 'token' appears twice") &&
                 !Catch::Contains("SECRET"));
  // A duplicate is named by its line (the key's second use as a key in its object), and a
  // long key is not repeated in the message.
  CHECK(yaml_error("{\"a\": {\"k\": 1},\n \"b\": {\"k\": 1,\n \"v\": \"k\",\n \"k\" : 2}}") ==
        "/k/config line 4: the key 'k' appears twice in one object");
  const std::string long_key = "\"" + repeat("k", 2000) + "\"";
  CHECK(yaml_error("{" + long_key + ": 1,\n" + long_key + ": 2}") ==
        "/k/config line 2: a key appears twice in one object");
  CHECK_THAT(yaml_error("{\"a\": 1}\nb: 2\n"), Catch::Contains("line 2: "));
  CHECK_THAT(yaml_error("{\"a\": " + repeat("[", 100000) + repeat("]", 100000) + "}"),
             Catch::Contains("line 1: ") && Catch::Contains("nested deeper than 64"));
}
