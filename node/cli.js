#!/usr/bin/env node
'use strict';
// The snowfleet command line (`npx snowfleet ...`, the package's bin): the core's CLI, the
// same text and exit codes as the C++ `snowfleet` executable and `python -m snowfleet`.
// Loading index.js first refuses an addon from another release.
const path = require('node:path');
require('./index.js');
const binding = require('node-gyp-build')(path.join(__dirname, '..'));

// A reader that closed the pipe early (`npx snowfleet next -n 1000 | head`) wants no more
// output: end quietly with the status of a process SIGPIPE ended (128 + 13), as the C++
// executable does, instead of an unhandled EPIPE's stack trace.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(141);
});

const { code, out, err } = binding.runCli(...process.argv.slice(2));
process.stdout.write(out);
process.stderr.write(err);
process.exitCode = code;
