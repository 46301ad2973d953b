"""Type-checked (mypy --strict) by test_typing.py: how a user's code sees the package."""

from __future__ import annotations

import array
import datetime

import snowfleet
from snowfleet.testing import ScriptedClock

gen = snowfleet.Generator(37, mode="monotonic", clock=ScriptedClock([{"ms": 1737747358021}]))
one: int = gen.next_id()
batch: "array.array[int]" = gen.next_ids(10)
decoded: snowfleet.Decoded = snowfleet.decode(one, layout=gen.layout)
when: datetime.datetime = decoded.datetime
again: int = snowfleet.compose(timestamp_ms=decoded.timestamp_ms, node_id=decoded.node_id)
layout: snowfleet.Layout = snowfleet.Layout.create(
    epoch_ms=0, timestamp_bits=41, node_bits=10, sequence_bits=12
)
stats: snowfleet.Stats = gen.stats()
healthy: bool = gen.status().healthy
drift: int = gen.drift_ms
at: int = snowfleet.parse_time("2025-01-24T19:35:58.021Z")
try:
    snowfleet.parse_id("12")
except snowfleet.ClockMovedBackwards as e:
    behind: int = e.drift_ms
except snowfleet.SnowfleetError as e:
    code: str = e.code
with snowfleet.Generator(node_source="static:1") as g:
    g.close()
