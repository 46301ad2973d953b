"""docs/migrating.md: the layout string that reproduces the ids of the PyPI package
``snowflake-id`` (module ``snowflake``), checked against ids the package itself generates,
and the documented Twitter and Discord examples."""

from __future__ import annotations

import snowfleet
from conftest import require


def test_snowflake_id_packages_ids_are_layout_41_10_12_at_0() -> None:
    snowflake = require("snowflake")
    for instance, epoch, layout in [
        (42, 0, "41.10.12@0"),  # the package's default epoch: the Unix epoch
        (1023, 1288834974657, "twitter"),
    ]:
        for _, theirs in zip(range(50), snowflake.SnowflakeGenerator(instance, epoch=epoch)):
            parsed = snowflake.Snowflake.parse(theirs, epoch)
            d = snowfleet.decode(theirs, layout=layout)
            assert (d.timestamp_ms, d.node_id, d.sequence) == (
                parsed.timestamp + epoch,
                parsed.instance,
                parsed.seq,
            )
            mine = snowfleet.compose(
                timestamp_ms=d.timestamp_ms, node_id=instance, sequence=parsed.seq, layout=layout
            )
            assert mine == theirs


def test_the_documented_twitter_and_discord_examples() -> None:
    # Wikipedia, "Snowflake ID": 1541815603606036480 is 2022-06-28T16:07:40.105Z, machine 378.
    d = snowfleet.decode(1541815603606036480, layout="twitter")
    assert (d.datetime.isoformat(timespec="milliseconds"), d.node_id, d.sequence) == (
        "2022-06-28T16:07:40.105+00:00",
        378,
        0,
    )
    # discord.com/developers/docs/reference#snowflakes: worker 1, process 0, increment 7.
    d = snowfleet.decode(175928847299117063, layout="discord")
    assert (d.timestamp_ms, d.datacenter_id, d.machine_id, d.sequence) == (1462015105796, 1, 0, 7)
