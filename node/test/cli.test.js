'use strict';
// The package's command line (node/cli.js) in a shell pipeline.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const CLI = path.join(__dirname, '..', 'cli.js');

test('a reader that closes the pipe early ends the CLI quietly, as SIGPIPE ends the C++ one', () => {
  // `npx snowfleet next -n 200000 | head -1`: head exits after one line, the CLI's next write
  // fails with EPIPE. Expected: no stack trace, the status 141 (128 + SIGPIPE) the C++
  // executable leaves.
  const script = `"$0" "$1" next -n 200000 --node 1 | head -1; echo "status \${PIPESTATUS[0]}" >&2`;
  const r = spawnSync('bash', ['-c', script, process.execPath, CLI], { encoding: 'utf8' });
  assert.match(r.stdout, /^\d+\n$/);
  assert.equal(r.stderr, 'status 141\n');
});
