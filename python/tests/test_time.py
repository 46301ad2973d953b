"""snowfleet.parse_time: the core's RFC 3339 parser from Python, beyond the vectors: host
types, and a differential run against the independent reference parser
(conformance/model/time_model.py) over many mutated texts, message for message."""

from __future__ import annotations

import datetime
import random
import sys
from typing import Union

import pytest

import snowfleet
from conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "conformance" / "model"))
import snowfleet_model  # noqa: E402
import time_model  # noqa: E402


def test_parse_time_gives_unix_ms() -> None:
    assert snowfleet.parse_time("2025-01-24T19:35:58.021Z") == 1737747358021
    assert snowfleet.parse_time("2025-01-24T20:35:58.021+01:00") == 1737747358021
    ms = snowfleet.parse_time("2024-02-29T12:00:00Z")
    assert snowfleet.decode(snowfleet.compose(timestamp_ms=ms, node_id=1)).datetime == (
        datetime.datetime(2024, 2, 29, 12, tzinfo=datetime.timezone.utc))


def test_parse_time_refuses_with_the_rule() -> None:
    with pytest.raises(snowfleet.InvalidArgument) as info:
        snowfleet.parse_time("2024-02-31T00:00:00Z")
    assert isinstance(info.value, ValueError)
    assert info.value.code == "INVALID_ARGUMENT"
    assert "'2024-02-31T00:00:00Z'" in str(info.value)
    assert "day 31 is outside 01-29 for 2024-02" in str(info.value)


@pytest.mark.parametrize("bad", [1737747358021, None, b"2024-01-01T00:00:00Z",
                                 datetime.datetime(2024, 1, 1)])
def test_parse_time_takes_only_str(bad: object) -> None:
    with pytest.raises(TypeError):
        snowfleet.parse_time(bad)  # type: ignore[arg-type]


_ALPHABET = "0123456789-:T t Zz+.,Xé\u0660\uff11\u2212\x00\n"


def _outcome(parse: object, text: str) -> Union[int, str]:
    try:
        return parse(text)  # type: ignore[operator, no-any-return]
    except (snowfleet.InvalidArgument, snowfleet_model.ModelError) as e:
        return "error: " + str(e)


def _mutations(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(chars) + 1)
        what = rng.random()
        if what < 0.5 and pos < len(chars):
            chars[pos] = rng.choice(_ALPHABET)
        elif what < 0.75:
            chars.insert(pos, rng.choice(_ALPHABET))
        elif chars:
            del chars[min(pos, len(chars) - 1)]
    return "".join(chars)


def test_core_and_reference_model_agree_on_random_texts() -> None:
    rng = random.Random(10)
    first, last = -62167219200000, 253402300799999
    agreed_accepts = agreed_refusals = 0
    for _ in range(20_000):
        ms = rng.randint(first, last)
        days, ms_of_day = divmod(ms, 86_400_000)
        date = datetime.date(1970, 1, 1) + datetime.timedelta(days=days) if days > -719162 else None
        if date is None:  # years before 0001: datetime has none; take year 0000 by hand
            text = "0000-03-01T00:00:00.000Z"
        else:
            t = datetime.time(ms_of_day // 3_600_000, ms_of_day // 60_000 % 60,
                              ms_of_day // 1000 % 60, ms_of_day % 1000 * 1000)
            text = f"{date.isoformat()}T{t.isoformat(timespec='milliseconds')}"
            text += rng.choice(["Z", "z", "+05:30", "-23:59", "+00:00"])
        if rng.random() < 0.8:
            text = _mutations(rng, text)
        core, model = _outcome(snowfleet.parse_time, text), _outcome(time_model.parse_time, text)
        assert core == model, f"{text!r}: core {core!r}, model {model!r}"
        if isinstance(core, int):
            agreed_accepts += 1
        else:
            agreed_refusals += 1
    print(f"agreed on {agreed_accepts} accepted and {agreed_refusals} refused texts")
    assert agreed_accepts > 2000 and agreed_refusals > 10000
