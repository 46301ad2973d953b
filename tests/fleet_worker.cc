// fleet_worker: one process of a fleet test. Claims a node id from a node source, mints
// ids for a while, and reports everything as lines on stdout (flushed per line) so a test
// can collect every id minted and check the fleet for duplicates:
//
//   node <node_id> <mark_ms>                  once the generator exists (the slot's persisted
//                                            mark: the claimed history plus its first
//                                            reservation)
//   ids <wall_ms> <id> <id> ...               one line per burst; wall_ms read before it
//   error <CODE> <wall_ms> <message>          a call refused
//   status <lease_state> <healthy> <mark_ms> <expires_in_ms>
//   closed <ids_issued> <mark_writes>         after close()
//
// usage: fleet_worker --source SPEC [--layout L] [--mode strict|monotonic] [--seconds S]
//                     [--ids N] [--burst B] [--pause-us U] [--keep-going]
// Exits 0 after --seconds/--ids, on SIGTERM (closing the generator cleanly), 2 when the
// node source refuses, 3 on a refused call without --keep-going.
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace {
volatile sig_atomic_t g_stop = 0;
void on_term(int) { g_stop = 1; }

int64_t wall_ms() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}
int64_t mono_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}
void print_status(snowfleet::Generator& g) {
  const snowfleet::Status st = g.status();
  std::printf("status %s %d %lld %lld\n", snowfleet::lease_state_name(st.lease_state),
              st.healthy ? 1 : 0, static_cast<long long>(st.mark_ms),
              static_cast<long long>(st.lease_expires_in_ms));
  std::fflush(stdout);
}
}  // namespace

int main(int argc, char** argv) {
  snowfleet::GeneratorOptions o;
  double seconds = 1;
  long long max_ids = -1;
  int burst = 16;
  long pause_us = 1000;
  bool keep_going = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--source")
      o.node_source = v, ++i;
    else if (a == "--layout")
      o.layout = snowfleet::Layout::parse(v), ++i;
    else if (a == "--mode")
      o.mode = snowfleet::parse_mode(v), ++i;
    else if (a == "--seconds")
      seconds = std::atof(v), ++i;
    else if (a == "--ids")
      max_ids = std::atoll(v), ++i;
    else if (a == "--burst")
      burst = std::atoi(v), ++i;
    else if (a == "--pause-us")
      pause_us = std::atol(v), ++i;
    else if (a == "--keep-going")
      keep_going = true;
    else {
      std::fprintf(stderr, "fleet_worker: unknown argument %s\n", a.c_str());
      return 64;
    }
  }
  signal(SIGTERM, on_term);
  signal(SIGPIPE, SIG_IGN);
  std::unique_ptr<snowfleet::Generator> g;
  try {
    g = std::make_unique<snowfleet::Generator>(o);
  } catch (const snowfleet::Error& e) {
    std::printf("error %s %lld %s\n", e.code(), static_cast<long long>(wall_ms()), e.what());
    return 2;
  }
  std::printf("node %lld %lld\n", static_cast<long long>(g->node_id()),
              static_cast<long long>(g->status().mark_ms));
  std::fflush(stdout);
  const int64_t end = mono_ms() + static_cast<int64_t>(seconds * 1000);
  long long minted = 0;
  std::string line;
  int rc = 0;
  while (!g_stop && mono_ms() < end && (max_ids < 0 || minted < max_ids)) {
    line = "ids " + std::to_string(wall_ms());
    try {
      for (int k = 0; k < burst && (max_ids < 0 || minted < max_ids); ++k, ++minted)
        line += " " + std::to_string(g->next_id());
    } catch (const snowfleet::Error& e) {
      if (line.size() > 20) std::printf("%s\n", line.c_str());  // ids minted before the error
      std::printf("error %s %lld %s\n", e.code(), static_cast<long long>(wall_ms()), e.what());
      print_status(*g);
      if (!keep_going) {
        rc = 3;
        break;
      }
      usleep(10000);
      continue;
    }
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    if (pause_us > 0) usleep(static_cast<useconds_t>(pause_us));
  }
  print_status(*g);
  g->close();
  const snowfleet::Stats st = g->stats();
  std::printf("closed %llu %llu\n", static_cast<unsigned long long>(st.ids_issued),
              static_cast<unsigned long long>(st.mark_writes));
  std::fflush(stdout);
  return rc;
}
