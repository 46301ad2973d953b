#!/usr/bin/env node
'use strict';
// The snowfleet command line (`npx snowfleet ...`, the package's bin): the core's CLI, the
// same text and exit codes as the C++ `snowfleet` executable and `python -m snowfleet`.
// Loading index.js first refuses an addon from another release.
const path = require('node:path');
require('./index.js');
const binding = require('node-gyp-build')(path.join(__dirname, '..'));

const { code, out, err } = binding.runCli(...process.argv.slice(2));
process.stdout.write(out);
process.stderr.write(err);
process.exitCode = code;
