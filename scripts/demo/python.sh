#!/usr/bin/env bash
# Mints and decodes a few ids from Python. Installs the package (pip install .) into the venv
# scripts/test/python.sh uses if it is not there yet (`test/python.sh --install-only`).
#
#   bash scripts/demo/python.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PY="${SNOWFLEET_PY_VENV:-$ROOT/out/py-venv}/bin/python"
if ! [[ -x "$PY" ]] || ! (cd / && "$PY" -c 'import snowfleet' >/dev/null 2>&1); then
  echo "installing snowfleet (pip install . into a venv) ..." >&2
  bash "$ROOT/scripts/test/python.sh" --install-only >/dev/null
fi

cd / && exec "$PY" - <<'PY'
import snowfleet
from snowfleet.testing import ScriptedClock

gen = snowfleet.Generator(node_id=37)                       # default layout, strict mode
ids = [gen.next_id() for _ in range(3)]
print("minted (node 37, strict):")
for i in ids:
    d = snowfleet.decode(i)
    print(f"  {i}  ->  {d.datetime.isoformat(timespec='milliseconds')}  node {d.node_id}  seq {d.sequence}")

batch = gen.next_ids(10_000)
print(f"next_ids(10_000): {len(batch)} ids, array('{batch.typecode}'), "
      f"first {batch[0]}, last {batch[-1]}, ascending: {all(a < b for a, b in zip(batch, batch[1:]))}")

print("the reference's literal:", snowfleet.decode(141264821508263936))
print("compose back:     ", snowfleet.compose(timestamp_ms=1737747358021, node_id=37))
tw = snowfleet.Layout.TWITTER
print(f"twitter layout {tw}: 1724551110457221119 ->", snowfleet.decode(1724551110457221119, tw))

clock = ScriptedClock([1737747359000, (1737747358400, 1, 1)])  # the clock jumps back 600 ms
g = snowfleet.Generator(7, clock=clock)
g.next_id()
try:
    g.next_id()
except snowfleet.ClockMovedBackwards as e:
    print(f"rewind refused: {type(e).__name__} code={e.code} drift_ms={e.drift_ms}")
print("stats:", g.stats())
PY
