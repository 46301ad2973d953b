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
// With --history FILE it also writes a history for tests/fleet/history_check.py, one event
// a line, times on CLOCK_MONOTONIC in ns (machine-wide, so they compare across processes
// and network namespaces):
//
//   start <pid> <layout> <max_wait_ms> <source>
//   claim <t> <node_id>                       the generator exists (t: after construction)
//   lease <t> <state> <deadline_ns> <mark_ms> status() before each burst and after a
//                                            refusal; deadline_ns is an upper bound of the
//                                            generator's local deadline (t + expires_in +
//                                            1 ms: expires_in is floored), -1 when none
//   id <a> <b> <id>                           one next_id() call: a before it, b after it
//   refuse <a> <b> <CODE>                     one refused call
//   closed <t>                                after close()
//
// usage: fleet_worker --source SPEC [--layout L] [--mode strict|monotonic] [--seconds S]
//                     [--ids N] [--burst B] [--pause-us U] [--keep-going]
//                     [--max-wait-ms W] [--history FILE]
// Exits 0 after --seconds/--ids, on SIGTERM (closing the generator cleanly), 2 when the
// node source refuses, 3 on a refused call without --keep-going.
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
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
int64_t mono_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

// The --history file; every call is a no-op without one. Flushed after each burst, so a
// SIGKILLed worker loses at most the burst in progress (whose ids it never printed either).
struct History {
  FILE* f = nullptr;
  void lease(snowfleet::Generator& g) {
    if (!f) return;
    const snowfleet::Status st = g.status();
    const int64_t t = mono_ns();
    // lease_expires_in_ms is floored. A held lease is never past its deadline, so -1 there
    // means none (local); an unconfirmed one is past it (-1: 1 ms past).
    const bool has =
        (st.lease_state == snowfleet::LeaseState::kHeld && st.lease_expires_in_ms >= 0) ||
        st.lease_state == snowfleet::LeaseState::kUnconfirmed;
    const int64_t d = has ? t + (st.lease_expires_in_ms + 1) * 1000000 : -1;
    std::fprintf(f, "lease %lld %s %lld %lld\n", static_cast<long long>(t),
                 snowfleet::lease_state_name(st.lease_state), static_cast<long long>(d),
                 static_cast<long long>(st.mark_ms));
  }
  void id(int64_t a, int64_t b, uint64_t id) {
    if (f)
      std::fprintf(f, "id %lld %lld %llu\n", static_cast<long long>(a), static_cast<long long>(b),
                   static_cast<unsigned long long>(id));
  }
  void event(const char* what, int64_t a, int64_t b, const char* code) {
    if (f)
      std::fprintf(f, "%s %lld %lld %s\n", what, static_cast<long long>(a),
                   static_cast<long long>(b), code);
  }
  void flush() {
    if (f) std::fflush(f);
  }
};

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
  History h;
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
    else if (a == "--max-wait-ms")
      o.max_wait_ms = std::atof(v), ++i;
    else if (a == "--history") {
      h.f = std::fopen(v, "a");
      if (!h.f) {
        std::fprintf(stderr, "fleet_worker: cannot open history %s: %s\n", v, std::strerror(errno));
        return 64;
      }
      ++i;
    } else if (a == "--keep-going")
      keep_going = true;
    else {
      std::fprintf(stderr, "fleet_worker: unknown argument %s\n", a.c_str());
      return 64;
    }
  }
  signal(SIGTERM, on_term);
  signal(SIGPIPE, SIG_IGN);
  if (h.f) {
    std::fprintf(h.f, "start %d %s %g %s\n", static_cast<int>(getpid()),
                 o.layout.to_string().c_str(), o.max_wait_ms, o.node_source.c_str());
    h.flush();
  }
  std::unique_ptr<snowfleet::Generator> g;
  try {
    g = std::make_unique<snowfleet::Generator>(o);
  } catch (const snowfleet::Error& e) {
    std::printf("error %s %lld %s\n", e.code(), static_cast<long long>(wall_ms()), e.what());
    h.event("refuse", mono_ns(), mono_ns(), e.code());
    h.flush();
    return 2;
  }
  if (h.f) {
    std::fprintf(h.f, "claim %lld %lld\n", static_cast<long long>(mono_ns()),
                 static_cast<long long>(g->node_id()));
    h.lease(*g);
    h.flush();
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
    h.lease(*g);
    int64_t before = 0;
    try {
      for (int k = 0; k < burst && (max_ids < 0 || minted < max_ids); ++k, ++minted) {
        before = mono_ns();
        const uint64_t id = g->next_id();
        h.id(before, mono_ns(), id);
        line += " " + std::to_string(id);
      }
    } catch (const snowfleet::Error& e) {
      h.event("refuse", before, mono_ns(), e.code());
      h.lease(*g);
      h.flush();
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
    h.flush();
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    if (pause_us > 0) usleep(static_cast<useconds_t>(pause_us));
  }
  print_status(*g);
  h.lease(*g);
  g->close();
  if (h.f) {
    std::fprintf(h.f, "closed %lld\n", static_cast<long long>(mono_ns()));
    std::fclose(h.f);
  }
  const snowfleet::Stats st = g->stats();
  std::printf("closed %llu %llu\n", static_cast<unsigned long long>(st.ids_issued),
              static_cast<unsigned long long>(st.mark_writes));
  std::fflush(stdout);
  return rc;
}
