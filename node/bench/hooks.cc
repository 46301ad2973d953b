// The benchmark's reference rows, in an addon of their own that only `npm run
// compile:hooks` builds (SNOWFLEET_TEST_HOOKS=1; see binding.gyp): never in the shipped
// addon nor the npm tarball.
//   bareBigInt()        the cheapest N-API call returning a BigInt (no node-addon-api)
//   coreLoop(mode, n)   ns per id of a plain C++ loop over the core's next_id() (node 1023):
//                       the ceiling the binding can reach on this machine, in this process
#include <node_api.h>

#include <chrono>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace {

napi_value BareBigInt(napi_env env, napi_callback_info) {
  napi_value out = nullptr;
  napi_create_bigint_int64(env, 141264821508263936, &out);
  return out;
}

napi_value CoreLoop(napi_env env, napi_callback_info cbi) {
  size_t argc = 2;
  napi_value args[2];
  napi_get_cb_info(env, cbi, &argc, args, nullptr, nullptr);
  char mode[16] = {0};
  size_t len = 0;
  int64_t n = 0;
  napi_get_value_string_utf8(env, args[0], mode, sizeof mode, &len);
  napi_get_value_int64(env, args[1], &n);
  double ns = 0;
  try {
    snowfleet::GeneratorArgs a;
    a.node_id = 1023;
    a.mode = std::string(mode, len);
    snowfleet::Generator gen(snowfleet::resolve_options(a));
    int64_t sink = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < n; ++i) sink ^= gen.next_id();
    const auto dt = std::chrono::steady_clock::now() - t0;
    volatile int64_t keep = sink;  // the loop must not be optimised away
    (void)keep;
    ns = std::chrono::duration<double, std::nano>(dt).count() / static_cast<double>(n);
  } catch (const std::exception& e) {
    napi_throw_error(env, nullptr, e.what());
    return nullptr;
  }
  napi_value out = nullptr;
  napi_create_double(env, ns, &out);
  return out;
}

napi_value Init(napi_env env, napi_value exports) {
  const napi_property_descriptor props[] = {
      {"bareBigInt", nullptr, BareBigInt, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"coreLoop", nullptr, CoreLoop, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, 2, props);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
