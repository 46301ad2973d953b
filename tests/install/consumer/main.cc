// A program using an installed snowfleet: mints one id on node 37 and decodes it.
#include <snowfleet/snowfleet.hpp>

#include <cstdio>

int main() {
  snowfleet::GeneratorOptions opts;
  opts.node_id = 37;
  snowfleet::Generator gen(opts);
  const snowfleet::Decoded d = snowfleet::decode(snowfleet::Layout(), gen.next_id());
  std::printf("snowfleet %s node=%lld\n", snowfleet::version(), static_cast<long long>(d.node_id));
  return d.node_id == 37 ? 0 : 1;
}
