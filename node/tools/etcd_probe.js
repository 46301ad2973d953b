'use strict';
// Prints 1 when the addon should be built with the etcd node source, else 0. binding.gyp
// runs it at configure time. SNOWFLEET_ETCD=AUTO (default) | ON | OFF, as the CMake option
// of the same name: AUTO enables etcd when the libcurl and nlohmann-json headers (Debian:
// libcurl4-openssl-dev nlohmann-json3-dev) are installed, ON fails the build without them.
// Only headers: the addon loads libcurl at run time (core/src/lease/etcd/curl_loader.hpp).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');

function pkgConfig(...names) {
  try {
    execFileSync('pkg-config', ['--exists', ...names], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const want = String(process.env.SNOWFLEET_ETCD || 'AUTO').toUpperCase();
let have = false;
if (want !== 'OFF' && process.platform !== 'win32') {
  // nlohmann-json is header-only: its pkg-config file, or the header on the default path.
  const json = pkgConfig('nlohmann_json') ||
    ['/usr/include', '/usr/local/include'].some((d) => fs.existsSync(`${d}/nlohmann/json.hpp`));
  const multiarch = `/usr/include/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu`;
  const curl = pkgConfig('libcurl') ||
    ['/usr/include', '/usr/local/include', multiarch].some((d) => fs.existsSync(`${d}/curl/curl.h`));
  have = json && curl;
}
if (want === 'ON' && !have) {
  console.error('snowfleet: SNOWFLEET_ETCD=ON needs the libcurl and nlohmann-json headers ' +
    '(apt-get install libcurl4-openssl-dev nlohmann-json3-dev)');
  process.exit(1);
}
process.stdout.write(have ? '1' : '0');
