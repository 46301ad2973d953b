#!/usr/bin/env bash
# CLI behaviour: output formats and exit codes (0 ok, 1 refused, 2 bad input). Every package
# runs the core's CLI, and this suite runs against each:
#   SNOWFLEET_CLI=out/release/core/snowfleet bash tests/cli_test.sh     # the C++ executable
#   SNOWFLEET_CLI="python3 -m snowfleet" bash tests/cli_test.sh         # the Python package
#   SNOWFLEET_CLI="node node/cli.js" bash tests/cli_test.sh             # the npm package's bin
set -euo pipefail
read -r -a cli <<<"${SNOWFLEET_CLI:?set SNOWFLEET_CLI to the snowfleet command (words split on spaces)}"
echo "cli tests: ${cli[*]}"
err_file=$(mktemp)
trap 'rm -f "$err_file"' EXIT
fail() { echo "FAIL (${cli[*]}): $*" >&2; exit 1; }
expect_exit() {  # expect_exit CODE ARGS...
  local want=$1; shift
  set +e; "${cli[@]}" "$@" >/dev/null 2>"$err_file"; local got=$?; set -e
  [ "$got" = "$want" ] || fail "snowfleet $* exited $got, want $want"
  [ "$want" = 0 ] || [ -s "$err_file" ] || fail "snowfleet $* printed no error"
}

out=$("${cli[@]}" decode 141264821508263936 141264821510144037)
grep -q "141264821508263936  2025-01-24T19:35:58.021Z  node=37  sequence=0" <<<"$out" || fail "decode: $out"
grep -q "node=496  sequence=37" <<<"$out" || fail "decode 496: $out"

out=$("${cli[@]}" decode --layout twitter --json 1724551110457221119)
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["id"]=="1724551110457221119" and d["datacenter_id"]==7 and d["machine_id"]==13 and d["sequence"]==4095 and d["timestamp_ms"]==1700000000000 and d["time"]=="2023-11-14T22:13:20.000Z", d' "$out"

# Every layout gives the same fields, as decode() does in every language: an unsplit layout's
# datacenter_id is 0 and its machine_id is the node id.
out=$("${cli[@]}" decode --json 141264821508263936)
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert list(d)==["id","timestamp_ms","time","node_id","datacenter_id","machine_id","sequence","layout"] and d["node_id"]==37 and d["datacenter_id"]==0 and d["machine_id"]==37, d' "$out" || fail "decode --json unsplit: $out"
out=$("${cli[@]}" decode --layout twitter --json 1724551110457221119)
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert list(d)==["id","timestamp_ms","time","node_id","datacenter_id","machine_id","sequence","layout"], d' "$out" || fail "decode --json split: $out"

[ "$("${cli[@]}" compose --timestamp-ms 1700000000000 --datacenter 7 --machine 13 --sequence 4095 --layout twitter)" = 1724551110457221119 ] || fail compose-split
[ "$("${cli[@]}" compose --time 2025-01-24T19:35:58.021Z --node 37)" = 141264821508263936 ] || fail compose-time
[ "$("${cli[@]}" compose --timestamp-ms 1737747358021 --node 496 --sequence 37)" = 141264821510144037 ] || fail compose

ids=$("${cli[@]}" next --node 37 -n 5000)
[ "$(wc -l <<<"$ids")" = 5000 ] || fail "next -n 5000"
sort -n -c <<<"$ids" || fail "next ids not ascending"
[ "$(sort -u <<<"$ids" | wc -l)" = 5000 ] || fail "next ids not unique"
first=$(head -1 <<<"$ids")
"${cli[@]}" decode "$first" | grep -q "node=37" || fail "next ids carry node 37"
"${cli[@]}" next --node 3 -n 3 --mode monotonic --layout 41.5.5.12@1288834974657 >/dev/null

# The node as datacenter + machine, under the core's rules (the same as every language's).
id=$("${cli[@]}" next --datacenter 3 --machine 5 --layout twitter)
"${cli[@]}" decode --layout twitter --json "$id" | grep -q '"node_id":101,"datacenter_id":3,"machine_id":5' || fail "next --datacenter/--machine"
expect_exit 2 next --datacenter 3 --layout twitter
grep -q "datacenter_id=3 needs machine_id" "$err_file" || fail "half a node: $(cat "$err_file")"
expect_exit 2 next --node 1 --datacenter 0 --machine 1 --layout twitter
grep -q "give one of node_id, datacenter_id + machine_id, or node_source; got node_id=1" "$err_file" || fail "two forms: $(cat "$err_file")"
expect_exit 2 next
grep -q "needs node_id, datacenter_id + machine_id, or node_source; got none" "$err_file" || fail "no node: $(cat "$err_file")"
expect_exit 2 next --node-source ''
grep -q "node_source must not be empty" "$err_file" || fail "empty source: $(cat "$err_file")"
expect_exit 2 compose --timestamp-ms 1737747358021 --datacenter 1 --machine 1 --node 1 --layout twitter
expect_exit 2 next --node 1 --max-wait-ms 5x
# A decimal number as from_chars reads one, whatever the toolchain's library has.
expect_exit 0 next --node 1 --max-wait-ms 2.5
expect_exit 0 next --node 1 --max-wait-ms 1e3
expect_exit 2 next --node 1 --max-wait-ms ' 5'
expect_exit 2 next --node 1 --max-wait-ms 0x10
expect_exit 2 next --node $'1\n'
grep -q "got '1\\\\x0a'" "$err_file" || fail "control bytes quoted: $(cat "$err_file")"

"${cli[@]}" layout | grep -q "69.68 years" || fail "layout years"
"${cli[@]}" layout | grep -q "2093-09-06" || fail "layout exhaustion date"
# 2^62 ids per ms: the per-second figures pass 2^63 and must be exact, not 0 or wrapped.
"${cli[@]}" layout 1.0.62@0 | grep -q "= 4611686018427387904000 per second per node, 4611686018427387904000 per second in all" || fail "layout 1.0.62 figures"
"${cli[@]}" layout 1.0.62@0 --json | grep -q '"ids_per_second":4611686018427387904000' || fail "layout 1.0.62 json"
"${cli[@]}" layout --json twitter | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["nodes"]==1024 and d["ids_per_ms_per_node"]==4096 and d["preset"]=="twitter", d'

expect_exit 2                                   # no command
expect_exit 2 frobnicate
expect_exit 2 next                              # no node
expect_exit 2 next --node 1024
expect_exit 2 next --node 1 -n 0
expect_exit 2 next --node 1 --mode fast
expect_exit 2 decode 12a
expect_exit 2 decode -- -1
expect_exit 2 decode 9223372036854775808
expect_exit 2 compose --timestamp-ms 1 --node 1  # before the epoch
expect_exit 2 compose --time yesterday --node 1
expect_exit 2 layout 41.10.13@0

# --time: RFC 3339, read by the core's one parser (conformance/vectors/time.json pins every
# accepted and refused form); a refused text exits 2 and the message names the rule.
expect_time_refused() {  # expect_time_refused TEXT RULE
  expect_exit 2 compose --time "$1" --node 1
  grep -qF -- "$2" "$err_file" || fail "--time '$1': stderr lacks '$2': $(cat "$err_file")"
}
expect_time_refused "2024-06-01T-1:00:00Z" "the hour must be 2 ASCII digits"
expect_time_refused "2024-06-01T00:00:00.-12Z" "fraction"
expect_time_refused "2024-02-31T00:00:00Z" "day 31 is outside 01-29 for 2024-02"
expect_time_refused "2023-02-29T00:00:00Z" "day 29 is outside 01-28 for 2023-02"
expect_time_refused "2024-06-01 00:00:00Z" "not a space"
expect_time_refused " 2024-06-01T00:00:00Z" "the year must be 4 ASCII digits"
expect_time_refused "2024-06-01T00:00:00Z " "unexpected text after the offset"
expect_time_refused "2024-06-01T00:00: 5Z" "the second must be 2 ASCII digits"
expect_time_refused "2024-6-1T0:0:0Z" "the month must be 2 ASCII digits"
expect_time_refused "2024-06-30T23:59:60Z" "leap second"
expect_time_refused "2024-06-01T00:00:00.0001Z" "whole milliseconds"
expect_time_refused "2024-06-01T00:00:00" "an offset is required"
expect_time_refused "2024-06-01T00:00:00+24:00" "offset hour 24 is outside 00-23"
# Offsets and short fractions are RFC 3339 too: the same instant as the UTC form.
[ "$("${cli[@]}" compose --time 2025-01-24T20:35:58.021+01:00 --node 37)" = 141264821508263936 ] || fail compose-time-offset
[ "$("${cli[@]}" compose --time 2025-01-24t19:35:58.0210z --node 37)" = 141264821508263936 ] || fail compose-time-lowercase
expect_exit 1 next --node-source env:SNOWFLEET_UNSET_VARIABLE_FOR_TEST   # no id: runtime failure
expect_exit 2 next --node-source bogus:1
expect_exit 0 layout 42.8.13@1704067200000
# An option given twice is refused, not decided by whichever came last (-n and --count are one
# option).
expect_refused() {  # expect_refused TEXT ARGS...: exit 2, stderr contains TEXT
  local want=$1; shift
  expect_exit 2 "$@"
  grep -qF -- "$want" "$err_file" || fail "snowfleet $*: $(cat "$err_file")"
}
expect_refused "--node is given twice" next --node 1 --node 2
expect_refused "--node is given twice" compose --timestamp-ms 1737747358021 --node 1 --node=2
expect_refused "--count and -n are the same option" next --node 1 -n 2 --count 3
expect_refused "--layout is given twice" decode 0 --layout twitter --layout default
# uuid7: N canonical UUIDv7s, ascending; decode reads them (and the RFC 9562 example) back.
out=$("${cli[@]}" uuid7 -n 1000 --mode monotonic)
python3 -c '
import sys, uuid
u = [uuid.UUID(line) for line in sys.argv[1].splitlines()]
assert len(u) == 1000 and all(x.version == 7 and x.variant == uuid.RFC_4122 for x in u), u[:2]
assert all(a.bytes < b.bytes for a, b in zip(u, u[1:])), "not ascending"' "$out" || fail "uuid7 -n 1000"
first=$(head -n1 <<<"$out")
"${cli[@]}" decode "$first" | grep -qE "^$first  [0-9T:.-]+Z  counter=[0-9]+$" || fail "decode uuid7: $("${cli[@]}" decode "$first")"
[ "$("${cli[@]}" decode --json 017F22E279B07CC398C4DC0C0C07398F)" = \
  '{"uuid":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f","timestamp_ms":1645557742000,"time":"2022-02-22T19:22:22.000Z","counter":53532868,"random":241944299518351}' ] \
  || fail "decode --json of RFC 9562's example"
expect_refused "not a UUIDv7: 550e8400-e29b-41d4-a716-446655440000 has version 4" \
  decode 550e8400-e29b-41d4-a716-446655440000
expect_refused "not a UUID: '017f22e2-79b0-7cc3-98c4-dc0c0c07398g'" decode 017f22e2-79b0-7cc3-98c4-dc0c0c07398g
expect_refused "-n must be in [1," uuid7 -n 0
expect_refused "mode must be 'strict' or 'monotonic'" uuid7 --mode fast
expect_refused "max_wait_ms must be a number in [0, 60000], got -1" uuid7 --max-wait-ms -1
expect_exit 2 uuid7 extra
expect_exit 0 --help

# Text forms: next --format, decode reads base32 / base62 (by length, or --format).
b32=$("${cli[@]}" next --node 37 --format base32)
[ ${#b32} = 13 ] || fail "next --format base32: $b32"
"${cli[@]}" decode "$b32" | grep -q "node=37" || fail "decode base32 $b32"
b62=$("${cli[@]}" next --node 37 --format base62)
[ ${#b62} = 11 ] || fail "next --format base62: $b62"
"${cli[@]}" decode "$b62" | grep -q "node=37" || fail "decode base62 $b62"
"${cli[@]}" decode 03xezkd8m4m00 | grep -q "2025-01-24T19:35:58.021Z  node=37  sequence=0" || fail "decode lower-case base32"
"${cli[@]}" decode --format base32 0000000000001 | grep -q "sequence=1" || fail "decode --format base32 digits"
"${cli[@]}" decode 0000000000001 | grep -q "^0000000000001  2024-01-01T00:00:00.000Z  node=0  sequence=1" || fail "13 digits, default format: decimal 1"
"${cli[@]}" decode 12345678901 | grep -q "^12345678901 " || fail "11 digits stay decimal"
expect_exit 2 decode 03XEZKD8M4M0U
expect_exit 2 decode AzL8n0Y58m8
expect_exit 2 next --node 1 --format hex

# range: the first and last id stamped in [--from, --to).
out=$("${cli[@]}" range --from 2025-01-24T19:35:58.021Z --to 2025-01-24T19:35:58.022Z)
[ "$out" = "$(printf 'first 141264821508112384\nlast  141264821512306687')" ] || fail "range: $out"
out=$("${cli[@]}" range --from 2026-12-01T00:00:00Z --to 2026-12-02T00:00:00Z --slack-ms 1000 --json)
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["from"]=="2026-12-01T00:00:00.000Z" and d["slack_ms"]==1000 and int(d["first"])==(1796083200000-1704067200000)<<22 and int(d["last"])==((1796169600999-1704067200000)<<22)+(1<<22)-1, d' "$out" || fail "range --json: $out"
expect_exit 2 range --from 2026-12-02T00:00:00Z --to 2026-12-01T00:00:00Z
expect_exit 2 range --from 2023-12-31T23:59:59Z --to 2026-12-01T00:00:00Z
expect_exit 2 range --from 2026-12-01T00:00:00 --to 2026-12-02T00:00:00Z
expect_exit 2 range --from 2026-12-01T00:00:00Z
# --help after any command prints the usage and succeeds, even after other options.
for sub in next decode compose range layout; do
  expect_exit 0 "$sub" --help
  "${cli[@]}" "$sub" --help | grep -q "^usage:" || fail "$sub --help prints no usage"
done
expect_exit 0 next --node 1 -h
[ "$("${cli[@]}" --version)" = "snowfleet $(head -1 "$(dirname "$0")/../VERSION")" ] || fail "--version"
# decode's --format: "any" (the default) reads digits only as decimal whatever the length, the
# rule of parse_id_text in every language (conformance/vectors/text.json, encoding "any").
"${cli[@]}" decode 8000000000000 | grep -q "^8000000000000  2024-01-01T00:31:47.348Z" || fail "13 digits are decimal: $("${cli[@]}" decode 8000000000000)"
"${cli[@]}" decode --format any 03xezkd8m4m00 | grep -q "node=37" || fail "--format any"
expect_refused "13 characters of base32 or 11 of base62, got '12a' (3 characters)" decode 12a
expect_refused "a base32 id must be" decode --format base32 141264821508263936
expect_refused "--format any reads ids" next --node 1 --format any
# Lengths in messages count characters: 37 of them here, one non-ASCII (38 UTF-8 bytes).
expect_refused "(37 characters;" decode "017f22e2-79b0-7cc3-98c4-dc0c0c07398$(printf '\303\251')f"

# Years past 9999 (RFC 3339 has none) are written in ISO 8601's expanded form, with a sign.
"${cli[@]}" layout 52.0.11@0 | grep -q "^exhausted   +144683-05-23T16:29:30.495Z" || fail "layout 52.0.11@0: $("${cli[@]}" layout 52.0.11@0)"
"${cli[@]}" decode --layout 52.0.11@0 9223372036854775807 | grep -q "^9223372036854775807  +144683-05-23T16:29:30.495Z  node=0  sequence=2047" || fail "decode past 9999: $("${cli[@]}" decode --layout 52.0.11@0 9223372036854775807)"
expect_refused "the year must be 4 ASCII digits" compose --time +10000-01-01T00:00:00.000Z --node 1 --layout 52.0.11@0

# A failed write exits 1 with one line naming the reason; ids are not minted into the void.
set +e; "${cli[@]}" next --node 5 -n 10 >/dev/full 2>"$err_file"; got=$?; set -e
[ "$got" = 1 ] || fail "next > /dev/full exited $got, want 1"
[ "$(cat "$err_file")" = "snowfleet: cannot write the output: No space left on device" ] || fail "/dev/full: $(cat "$err_file")"
set +e; "${cli[@]}" uuid7 -n 100000 >/dev/full 2>"$err_file"; got=$?; set -e
[ "$got" = 1 ] && grep -q "cannot write the output" "$err_file" || fail "uuid7 > /dev/full exited $got: $(cat "$err_file")"
# A closed stdout too (Node opens /dev/null for a closed descriptor before any script runs,
# so there the output is discarded as with >/dev/null: not checked).
if [[ "${cli[*]}" != *node* ]]; then
  set +e; "${cli[@]}" next --node 5 -n 10 >&- 2>"$err_file"; got=$?; set -e
  [ "$got" = 1 ] && grep -q "cannot write the output: Bad file descriptor" "$err_file" || fail "closed stdout exited $got: $(cat "$err_file")"
fi
# An output shorter than the pipe's buffer is written at once, however the host buffers C
# stdio (Node unbuffers it, Python under PYTHONUNBUFFERED): a reader that stops at its first
# byte has had it all, and the command ends 0 (it raced to 141, one write per field).
for i in 1 2 3; do
  set +e; PYTHONUNBUFFERED=1 "${cli[@]}" layout | head -c 1 >/dev/null; got=${PIPESTATUS[0]}; set -e
  [ "$got" = 0 ] || fail "layout | head -c 1 exited $got, want 0"
done
# A reader that closes the pipe early: 141, quietly, in every package.
set +e; "${cli[@]}" next --node 5 -n 1000000 2>"$err_file" | head -1 >/dev/null; got=${PIPESTATUS[0]}; set -e
[ "$got" = 141 ] || fail "next | head -1 exited $got, want 141"
[ ! -s "$err_file" ] || fail "next | head -1 said: $(cat "$err_file")"
# The same with a leased node id, whose close touches the registry's files after the failed write.
reg=$(mktemp -d)
set +e; "${cli[@]}" next --node-source "local:$reg?share=cli" -n 1000000 2>"$err_file" | head -1 >/dev/null; got=${PIPESTATUS[0]}; set -e
[ "$got" = 141 ] || fail "next --node-source local:DIR?share=cli | head -1 exited $got, want 141: $(cat "$err_file")"
[ ! -s "$err_file" ] || fail "next --node-source local:DIR?share=cli | head -1 said: $(cat "$err_file")"
rm -rf "$reg"

# -n streams: memory stays flat whatever the count (3,000,000 ids were ~80 MB of text and
# ids held before the first line).
rss() { /usr/bin/time -f %M -o "$err_file" "${cli[@]}" "$@" >/dev/null 2>/dev/null; cat "$err_file"; }  # max kB
small=$(rss next --node 5 -n 1); big=$(rss next --node 5 -n 3000000)
[ $((big - small)) -lt 20000 ] || fail "next -n 3000000 held $((big - small)) kB more than -n 1"
small=$(rss uuid7 -n 1); big=$(rss uuid7 -n 1000000)
[ $((big - small)) -lt 20000 ] || fail "uuid7 -n 1000000 held $((big - small)) kB more than -n 1"
# A count that takes more than a few seconds at the layout's rate says so at once.
set +e; timeout 2 "${cli[@]}" next --node 5 -n 20000 --layout 41.22.0@1704067200000 >/dev/null 2>"$err_file"; set -e
grep -q "snowfleet: note: 20000 ids take about 20 s: layout 41.22.0@1704067200000 issues at most 1 ids per ms per node" "$err_file" || fail "no note for a slow count: $(cat "$err_file")"
"${cli[@]}" next --node 5 -n 3000 --layout 41.21.1@1704067200000 2>"$err_file" >/dev/null
[ ! -s "$err_file" ] || fail "a 1.5 s count got a note: $(cat "$err_file")"

echo "cli tests passed: ${cli[*]}"
