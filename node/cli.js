#!/usr/bin/env node
'use strict';
// The snowfleet command line (`npx snowfleet ...`, the package's bin): the core's CLI, the
// same text and exit codes as the C++ `snowfleet` executable and `python -m snowfleet`. The
// core writes stdout and stderr itself, a chunk at a time, so `next -n` stays flat in memory
// and a failed write ends the command as in every package (status 1 and one line naming the
// reason; 141 and nothing said when the reader closed the pipe, as `| head` does).
// Loading index.js first refuses an addon from another release.
const path = require('node:path');
require('./index.js');
const binding = require('node-gyp-build')(path.join(__dirname, '..'));

process.exitCode = binding.runCliStdio(...process.argv.slice(2));
