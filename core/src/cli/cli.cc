// snowfleet: mint, decode and compose ids, and print a layout's arithmetic.
//
//   snowfleet next (--node N | --datacenter D --machine M | --node-source SPEC) [-n 10]
//                  [--layout L] [--mode monotonic] [--format decimal|base32|base62]
//   snowfleet decode ID... [--layout twitter] [--format F] [--json]
//   snowfleet range --from RFC3339 --to RFC3339 [--slack-ms MS] [--layout L] [--format F]
//                   [--json]
//   snowfleet compose (--timestamp-ms MS | --time RFC3339) (--node N | --datacenter D --machine M)
//                     [--sequence S] [--layout L]
//   snowfleet layout [L] [--json]
//   snowfleet uuid7 [-n 10] [--mode monotonic]
//
// Exit status: 0 success, 1 the generator refused (e.g. the clock moved backwards) or the
// output could not be written, 2 bad input (usage, malformed or out-of-range values), 141
// the reader closed the pipe (see kUsage). Messages go to `err`.
//
// The CLI is part of the core so that every package runs the same one: the `snowfleet`
// executable (main.cc here), `python -m snowfleet` and `npx snowfleet` all call
// run_cli() and only copy its output to the host's streams.
#include "snowfleet/cli.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace {

using detail::cli::Args;
using detail::cli::Argv;
using detail::cli::Usage;
using namespace detail::cli;

const char* kUsage =
    "usage:\n"
    "  snowfleet next (--node N | --datacenter D --machine M | --node-source SPEC)\n"
    "                 [-n COUNT] [--layout L]\n"
    "                 [--mode strict|monotonic] [--max-wait-ms MS] [--max-drift-ms MS]\n"
    "                 [--format decimal|base32|base62]\n"
    "  snowfleet uuid7 [-n COUNT] [--mode strict|monotonic] [--max-wait-ms MS] "
    "[--max-drift-ms MS]\n"
    "  snowfleet decode ID... [--layout L] [--format any|decimal|base32|base62] [--json]\n"
    "                 (an ID may be a UUIDv7)\n"
    "  snowfleet range --from RFC3339 --to RFC3339 [--slack-ms MS] [--layout L]\n"
    "                  [--format decimal|base32|base62] [--json]\n"
    "  snowfleet compose (--timestamp-ms MS | --time RFC3339) (--node N | --datacenter D "
    "--machine M)\n"
    "                    [--sequence S] [--layout L]\n"
    "  snowfleet layout [L] [--json]\n"
    "\n"
    "L is a preset (default, twitter, discord) or TIMESTAMP.NODE.SEQUENCE@EPOCH_MS,\n"
    "e.g. 41.10.12@1704067200000 or 41.5.5.12@1288834974657. Ids are printed in decimal\n"
    "unless --format says base32 (13 characters, TSID's form) or base62 (11 characters).\n"
    "decode reads every ID in --format; the default, any, reads an ID of digits only as\n"
    "decimal whatever its length (8000000000000 is 8 x 10^12), else one of 13 characters as\n"
    "base32 and one of 11 as base62 (--format base32 reads 0000000000001 as base32).\n"
    "range prints the first and last id stamped in [--from, --to); --slack-ms widens the\n"
    "last to ids a monotonic generator stamped up to its max_drift_ms ahead of the clock.\n"
    "RFC3339 is a time with its offset: 2025-01-24T19:35:58.021Z or 2025-01-24T20:35:58+01:00.\n"
    "SPEC is a node-id source: static:37, env:VAR, k8s[:OFFSET], local[:DIR][?node=N] (a slot\n"
    "leased from a registry directory; node=N pins it; &share=NAME: one slot for every process\n"
    "of the host naming the share), etcd://HOST:PORT/PREFIX?ttl=10, postgres://... or\n"
    "k8s-lease://PREFIX (see docs/fleet.md).\n"
    "\n"
    "Exit status: 0 done; 1 the generator refused (e.g. the clock moved backwards) or the\n"
    "output could not be written (a full disk, a closed stdout: one line names the reason);\n"
    "2 bad input; 141 the reader closed the pipe early (`| head`), quietly, as for SIGPIPE.\n";

// Ids are minted and written kChunk at a time: memory stays flat whatever -n is, and a
// write that fails (full disk, closed stdout, the reader gone) stops the minting.
constexpr size_t kChunk = size_t{1} << 16;
// A count that takes longer than this at the layout's rate gets a note on stderr first.
constexpr double kSlowSeconds = 3.0;

bool is_uuid_text(const std::string& text) { return text.size() >= 32; }

std::string uuid7_decoded(const std::string& text, bool json) {
  const Uuid u = parse_uuid(text);
  const Uuid7Fields f = decode_uuid7(u);
  const std::string canonical = format_uuid(u);
  if (json)
    return "{\"uuid\":\"" + canonical + "\",\"timestamp_ms\":" + std::to_string(f.timestamp_ms) +
           ",\"time\":\"" + format_iso8601(f.timestamp_ms) +
           "\",\"counter\":" + std::to_string(f.counter) +
           ",\"random\":" + std::to_string(f.random) + "}";
  return canonical + "  " + format_iso8601(f.timestamp_ms) +
         "  counter=" + std::to_string(f.counter);
}

int cmd_uuid7(const Argv& argv, std::ostream& out_stream, std::ostream&) {
  const Args a =
      parse_args(argv, {"-n", "--count", "--mode", "--max-wait-ms", "--max-drift-ms"}, {});
  if (!a.positional.empty()) throw Usage("uuid7 takes no positional arguments");
  Uuid7Options o;
  if (a.has("--mode")) o.mode = parse_mode(a.get("--mode"));
  if (const auto ms = max_wait_of(a)) o.max_wait_ms = *ms;
  if (const auto ms = opt_int(a, "--max-drift-ms")) o.max_drift_ms = *ms;
  Uuid7Generator gen(o);
  std::vector<Uuid> uuids(kChunk);
  std::string text(kChunk * 37, '\n');
  for (size_t left = count_of(a); left > 0 && out_stream;) {
    const size_t n = std::min(left, kChunk);
    gen.next(uuids.data(), n);
    for (size_t i = 0; i < n; ++i) format_uuid(uuids[i], &text[i * 37]);
    out_stream.write(text.data(), static_cast<std::streamsize>(n * 37));
    left -= n;
  }
  return 0;
}

std::string json_decoded(int64_t id, const Layout& l) {
  const auto d = decode(l, id);
  std::string s = "{\"id\":\"" + format_id(id) +
                  "\",\"timestamp_ms\":" + std::to_string(d.timestamp_ms) + ",\"time\":\"" +
                  format_iso8601(d.timestamp_ms) + "\",\"node_id\":" + std::to_string(d.node_id);
  // Every layout gives the same fields, as decode() in every language: an unsplit layout
  // reports datacenter 0 and its node id as the machine.
  s += ",\"datacenter_id\":" + std::to_string(d.datacenter_id) +
       ",\"machine_id\":" + std::to_string(d.machine_id);
  s += ",\"sequence\":" + std::to_string(d.sequence) + ",\"layout\":\"" + l.to_string() + "\"}";
  return s;
}

void append_ids(const int64_t* ids, size_t n, IdFormat format, std::string* out) {
  char buf[20];
  for (size_t i = 0; i < n; ++i) {
    if (format == IdFormat::kBase32) {
      format_base32(ids[i], buf);
      out->append(buf, kBase32Length);
    } else if (format == IdFormat::kBase62) {
      format_base62(ids[i], buf);
      out->append(buf, kBase62Length);
    } else {
      out->append(buf, format_id(ids[i], buf));
    }
    out->push_back('\n');
  }
}

// A generator issues at most max_sequence + 1 ids per ms: say so before a long silence.
void note_if_slow(size_t count, const Layout& l, std::ostream& err) {
  const double per_ms = static_cast<double>(l.max_sequence()) + 1;
  const double seconds = static_cast<double>(count) / per_ms / 1000.0;
  if (seconds <= kSlowSeconds) return;
  char s[32];
  std::snprintf(s, sizeof s, "%.0f", seconds);
  err << "snowfleet: note: " << count << " ids take about " << s << " s: layout " << l.to_string()
      << " issues at most " << (l.max_sequence() + 1) << " ids per ms per node\n";
  err.flush();
}

int cmd_next(const Argv& argv, std::ostream& out_stream, std::ostream& err) {
  const Args a =
      parse_args(argv,
                 {"--node", "--datacenter", "--machine", "--node-source", "-n", "--count",
                  "--layout", "--mode", "--max-wait-ms", "--max-drift-ms", "--format"},
                 {});
  if (!a.positional.empty()) throw Usage("next takes no positional arguments");
  const IdFormat format = output_format_of(a);
  GeneratorArgs g;
  if (a.has("--layout")) g.layout = Layout::parse(a.get("--layout"));
  const NodeArgs node = node_args(a);
  g.node_id = node.node_id;
  g.datacenter_id = node.datacenter_id;
  g.machine_id = node.machine_id;
  if (a.has("--node-source")) g.node_source = a.get("--node-source");
  if (a.has("--mode")) g.mode = a.get("--mode");
  g.max_wait_ms = max_wait_of(a);
  g.max_drift_ms = opt_int(a, "--max-drift-ms");
  Generator gen(resolve_options(std::move(g)));
  const size_t count = count_of(a);
  note_if_slow(count, gen.layout(), err);
  std::vector<int64_t> ids(kChunk);
  std::string text;
  text.reserve(kChunk * 20);
  for (size_t left = count; left > 0 && out_stream;) {
    const size_t n = std::min(left, kChunk);
    gen.next_ids(ids.data(), n);
    text.clear();
    append_ids(ids.data(), n, format, &text);
    out_stream.write(text.data(), static_cast<std::streamsize>(text.size()));
    left -= n;
  }
  // A failed write's errno is run_cli's answer (EPIPE: quietly 141): closing a leased
  // generator touches the registry's files, which sets errno again.
  const int write_error = errno;
  gen.close();
  if (!out_stream) errno = write_error;
  return 0;
}

int cmd_decode(const Argv& argv, std::ostream& out, std::ostream&) {
  const Args a = parse_args(argv, {"--layout", "--format"}, {"--json"});
  if (a.positional.empty()) throw Usage("decode needs at least one ID");
  const Layout l = layout_of(a);
  for (const auto& text : a.positional) {
    if (is_uuid_text(text)) {
      out << uuid7_decoded(text, a.has("--json")) << "\n";
      continue;
    }
    const int64_t id = read_id(a, text);
    if (a.has("--json")) {
      out << json_decoded(id, l) << "\n";
      continue;
    }
    const auto d = decode(l, id);
    out << text << "  " << format_iso8601(d.timestamp_ms) << "  node=" << d.node_id;
    if (l.split()) out << " (datacenter=" << d.datacenter_id << " machine=" << d.machine_id << ")";
    out << "  sequence=" << d.sequence << "\n";
  }
  return 0;
}

int cmd_compose(const Argv& argv, std::ostream& out, std::ostream&) {
  const Args a = parse_args(
      argv,
      {"--timestamp-ms", "--time", "--node", "--datacenter", "--machine", "--sequence", "--layout"},
      {"--json"});
  if (!a.positional.empty()) throw Usage("compose takes no positional arguments");
  const Layout l = layout_of(a);
  if (a.has("--timestamp-ms") == a.has("--time"))
    throw Usage("compose needs exactly one of --timestamp-ms MS or --time RFC3339");
  const int64_t ts = a.has("--time") ? parse_iso8601(a.get("--time"))
                                     : to_int("--timestamp-ms", a.get("--timestamp-ms"));
  const int64_t seq = a.has("--sequence") ? to_int("--sequence", a.get("--sequence")) : 0;
  const int64_t id = compose(l, ts, node_args(a), seq);
  out << (a.has("--json") ? json_decoded(id, l) : format_id(id)) << "\n";
  return 0;
}

int cmd_range(const Argv& argv, std::ostream& out, std::ostream&) {
  const Args a =
      parse_args(argv, {"--from", "--to", "--slack-ms", "--layout", "--format"}, {"--json"});
  if (!a.positional.empty()) throw Usage("range takes no positional arguments");
  if (!a.has("--from") || !a.has("--to"))
    throw Usage("range needs --from RFC3339 and --to RFC3339");
  const Layout l = layout_of(a);
  const IdFormat format = output_format_of(a);
  const int64_t from = parse_iso8601(a.get("--from"));
  const int64_t to = parse_iso8601(a.get("--to"));
  const int64_t slack = a.has("--slack-ms") ? to_int("--slack-ms", a.get("--slack-ms")) : 0;
  const IdRange r = id_range(l, from, to, slack);
  const std::string first = format_id_as(r.first, format);
  const std::string last = format_id_as(r.last, format);
  if (a.has("--json")) {
    out << "{\"from\":\"" << format_iso8601(from) << "\",\"to\":\"" << format_iso8601(to)
        << "\",\"slack_ms\":" << slack << ",\"first\":\"" << first << "\",\"last\":\"" << last
        << "\",\"format\":\"" << id_format_name(format) << "\",\"layout\":\"" << l.to_string()
        << "\"}\n";
    return 0;
  }
  out << "first " << first << "\nlast  " << last << "\n";
  return 0;
}

int cmd_layout(const Argv& argv, std::ostream& out, std::ostream&) {
  const Args a = parse_args(argv, {}, {"--json"});
  if (a.positional.size() > 1) throw Usage("layout takes at most one layout");
  const Layout l = a.positional.empty() ? Layout() : Layout::parse(a.positional[0]);
  const double ms_per_year = 1000.0 * 86400.0 * 365.25;
  const double window_years = std::ldexp(1.0, l.timestamp_bits()) / ms_per_year;
  const int64_t now_ms = system_clock()->wall_ns() / 1000000;
  const double years_left = static_cast<double>(l.max_timestamp_ms() - now_ms) / ms_per_year;
  const int64_t nodes = l.max_node_id() + 1, per_ms = l.max_sequence() + 1;
  // Up to 2^62 ids per ms (sequence + node bits <= 62, so per_ms * nodes fits too): per
  // second the figures pass 2^63, so they are printed as the exact products with "000".
  const std::string per_second = std::to_string(per_ms) + "000";
  const std::string per_second_all = std::to_string(per_ms * nodes) + "000";
  char years[64], left[64];
  std::snprintf(years, sizeof years, "%.2f", window_years);
  std::snprintf(left, sizeof left, "%.2f", years_left);
  if (a.has("--json")) {
    out << "{\"layout\":\"" << l.to_string() << "\",\"preset\":\"" << l.preset_name()
        << "\",\"epoch_ms\":" << l.epoch_ms() << ",\"timestamp_bits\":" << l.timestamp_bits()
        << ",\"datacenter_bits\":" << l.datacenter_bits()
        << ",\"machine_bits\":" << l.machine_bits() << ",\"node_bits\":" << l.node_bits()
        << ",\"sequence_bits\":" << l.sequence_bits() << ",\"window_years\":" << years
        << ",\"exhausted_at\":\"" << format_iso8601(l.max_timestamp_ms())
        << "\",\"years_left\":" << left << ",\"nodes\":" << nodes
        << ",\"ids_per_ms_per_node\":" << per_ms << ",\"ids_per_second_per_node\":" << per_second
        << ",\"ids_per_second\":" << per_second_all << "}\n";
    return 0;
  }
  out << "layout      " << l.to_string()
      << (*l.preset_name() ? std::string(" (") + l.preset_name() + ")" : "") << "\n"
      << "bits        0 | " << l.timestamp_bits() << " timestamp | " << l.node_bits() << " node | "
      << l.sequence_bits() << " sequence"
      << "  (shifts: timestamp " << l.timestamp_shift() << ", node " << l.node_shift() << ")\n"
      << "epoch       " << format_iso8601(l.epoch_ms()) << "  (" << l.epoch_ms() << " ms)\n"
      << "window      2^" << l.timestamp_bits() << " ms = " << years << " years\n"
      << "exhausted   " << format_iso8601(l.max_timestamp_ms()) << "  (" << left
      << " years from now)\n"
      << "nodes       " << nodes << " (0.." << l.max_node_id() << ")";
  if (l.split())
    out << " = " << (l.max_datacenter_id() + 1) << " datacenters x " << (l.max_machine_id() + 1)
        << " machines";
  out << "\n"
      << "ids         " << per_ms << " per ms per node = " << per_second << " per second per node, "
      << per_second_all << " per second in all\n";
  return 0;
}

// `snowfleet COMMAND --help` (or -h) anywhere among a command's arguments prints the usage
// and succeeds, as `snowfleet --help` does.
bool asks_for_help(const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "--") return false;
    if (argv[i] == "--help" || argv[i] == "-h") return true;
  }
  return false;
}

using Command = int (*)(const Argv&, std::ostream&, std::ostream&);

Command command_named(const std::string& name) {
  static const std::map<std::string, Command> kCommands = {
      {"next", cmd_next},   {"decode", cmd_decode}, {"compose", cmd_compose},
      {"range", cmd_range}, {"layout", cmd_layout}, {"uuid7", cmd_uuid7}};
  const auto it = kCommands.find(name);
  return it == kCommands.end() ? nullptr : it->second;
}

int run_command(const Argv& args, std::ostream& out, std::ostream& err) {
  const std::string& cmd = args[0];
  const Command command = command_named(cmd);
  if ((command && asks_for_help(args)) || cmd == "-h" || cmd == "--help" || cmd == "help") {
    out << kUsage;
    return 0;
  }
  if (command) return command(args, out, err);
  if (cmd == "--version") {
    out << "snowfleet " << version() << "\n";
    return 0;
  }
  throw Usage("unknown command '" + cmd + "'");
}

// The status of a command whose output could not be written (its stream failed; errno is
// the failed write's): a reader that closed the pipe early (`| head`) wants no more and
// gets none, quietly, with the status a shell shows for a process SIGPIPE ended; any other
// failure (a full disk, a closed stdout) is named in one line.
int write_failed(int error, std::ostream& err) {
  if (error == EPIPE) return kExitClosedPipe;
  err << "snowfleet: cannot write the output: "
      << (error != 0 ? std::strerror(error) : "the output stream failed") << "\n";
  return 1;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << kUsage;
    return 2;
  }
  int code;
  try {
    errno = 0;
    code = run_command(args, out, err);
  } catch (const Usage& e) {
    err << "snowfleet: " << e.what() << "\n" << kUsage;
    return 2;
  } catch (const Error& e) {
    err << "snowfleet: " << e.code() << ": " << e.what() << "\n";
    const bool bad_input =
        e.kind() == ErrorKind::kInvalidArgument || e.kind() == ErrorKind::kTimestampOutOfRange;
    return bad_input ? 2 : 1;
  }
  if (out) out.flush();
  return out ? code : write_failed(errno, err);
}

}  // namespace snowfleet
