#include "call_cache.hpp"

#include <cstring>
#include <string_view>

#include "bridge.hpp"

namespace snowfleet_pg {
namespace {

// Long enough for every layout text written without leading zeros
// ("52.31.31.0@253402300799999" is 26 bytes); a longer one is parsed on every call.
constexpr int kCachedLayoutBytes = 48;

struct CallCache {
  bool have_layout;
  int layout_len;
  char layout_text[kCachedLayoutBytes];
  snowfleet::Layout layout;
  snowfleet::Layout uncached;  // a layout text too long to cache, parsed this call
  TupleDesc result;
};

CallCache* cache_of(FunctionCallInfo fcinfo) {
  FmgrInfo* flinfo = fcinfo->flinfo;
  if (flinfo->fn_extra == nullptr)
    flinfo->fn_extra = MemoryContextAllocZero(flinfo->fn_mcxt, sizeof(CallCache));
  return static_cast<CallCache*>(flinfo->fn_extra);
}

}  // namespace

const snowfleet::Layout& layout_arg(FunctionCallInfo fcinfo, int argno) {
  CallCache* c = cache_of(fcinfo);
  text* arg = PG_GETARG_TEXT_PP(argno);
  const char* bytes = VARDATA_ANY(arg);
  const int len = static_cast<int>(VARSIZE_ANY_EXHDR(arg));
  if (c->have_layout && c->layout_len == len && std::memcmp(c->layout_text, bytes, len) == 0)
    return c->layout;
  snowfleet::Layout parsed;
  Failure f;
  if (!attempt(f, [&] { parsed = snowfleet::Layout::parse(std::string_view(bytes, len)); }))
    raise(f);
  if (len > kCachedLayoutBytes) {
    c->uncached = parsed;
    return c->uncached;
  }
  std::memcpy(c->layout_text, bytes, len);
  c->layout_len = len;
  c->layout = parsed;
  c->have_layout = true;
  return c->layout;
}

TupleDesc result_type(FunctionCallInfo fcinfo) {
  CallCache* c = cache_of(fcinfo);
  if (c->result == nullptr) {
    TupleDesc desc;
    if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE)
      raise(snowfleet::ErrorKind::kInternal, "a record result is called for without a row type");
    MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
    c->result = BlessTupleDesc(CreateTupleDescCopy(desc));
    MemoryContextSwitchTo(old);
  }
  return c->result;
}

Datum make_record(FunctionCallInfo fcinfo, Datum* values, int count) {
  TupleDesc desc = result_type(fcinfo);
  bool nulls[8] = {false, false, false, false, false, false, false, false};
  Assert(count == desc->natts && count <= 8);
  (void)count;
  return HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
}

}  // namespace snowfleet_pg
