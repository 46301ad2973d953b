"""The cases of conformance/vectors/text.json (written by generate.py): an id's base32 and
base62 text forms. Every id of codec.json (composed, decoded or parsed) round-trips in both
forms; then the parsing rules (case, aliases) and the refusals (wrong length, bad
character, value above 2^63 - 1, negative id). Expected values come from
model/text_model.py.
"""

from __future__ import annotations

import snowfleet_model as m
import text_model as t
from codec_cases import codec_cases
from scenario import error_of, s

ENCODINGS = ("base32", "base62")


def _codec_ids():
    """Every valid id codec.json names, in order, without repeats."""
    seen = []
    for c in codec_cases():
        e = c["expect"]
        if "error" in e:
            continue
        for v in (e.get("id"), c.get("value") if c["op"] == "decode" else None):
            if v is not None and int(v) not in seen:
                seen.append(int(v))
    return seen


def text_cases():
    cases = []

    def round_trip(cid, source, enc, value):
        cases.append({"id": cid, "source": source, "op": "round_trip", "encoding": enc,
                      "value": s(value), "expect": {"text": t.format_text(enc, value)}})

    def parse(cid, source, enc, text, contains=None):
        try:
            expect = {"id": s(t.parse_text(enc, text))}
        except m.ModelError as e:
            expect = error_of(e, contains=contains)
        cases.append({"id": cid, "source": source, "op": "parse", "encoding": enc, "text": text,
                      "expect": expect})
        return expect

    def fmt(cid, source, enc, value):
        try:
            expect = {"text": t.format_text(enc, value)}
        except m.ModelError as e:
            expect = error_of(e, contains=[str(value)])
        cases.append({"id": cid, "source": source, "op": "format", "encoding": enc,
                      "value": s(value), "expect": expect})

    for i, value in enumerate(_codec_ids()):
        for enc in ENCODINGS:
            round_trip(f"text.codec_id_{i:02d}.{enc}",
                       f"the round trip of codec.json's id {value}", enc, value)
    for enc in ENCODINGS:
        round_trip(f"text.max_int64.{enc}", "2^63 - 1, the largest id", enc, 2**63 - 1)
        round_trip(f"text.one.{enc}", "1: fixed width, leading zeros", enc, 1)
        round_trip(f"text.digit_edge.{enc}", "a value whose digits are all the last one",
                   enc, (32 if enc == "base32" else 62) ** 10 - 1)
        fmt(f"text.error.format_negative.{enc}", "ids are non-negative", enc, -1)

    # TSID's own encoder (TSID.toString): character i is ALPHABET[(n >>> (60 - 5 * i)) & 31].
    def tsid_string(n):
        return "".join(t.B32[(n >> (60 - 5 * i)) & 31] for i in range(13))
    for value in _codec_ids() + [2**63 - 1, 1]:
        assert tsid_string(value) == t.format_text("base32", value), value
    r = parse("text.base32.seed_literal", "the API sketch literal in base32", "base32",
              tsid_string(141264821508263936))
    assert r == {"id": "141264821508263936"}
    parse("text.base32.lower_case", "case-insensitive in: TSID accepts lower case", "base32",
          "0axfxr5w7vbx0")
    parse("text.base32.alias_i_l_o", "Crockford aliases: I and L read as 1, O as 0", "base32",
          "0IL0O0000000o")
    parse("text.base32.max", "7ZZZZZZZZZZZZ is 2^63 - 1", "base32", "7ZZZZZZZZZZZZ")
    parse("text.base32.zero", "all zeros is 0", "base32", "0000000000000")
    parse("text.base62.max", "AzL8n0Y58m7 is 2^63 - 1", "base62", "AzL8n0Y58m7")
    parse("text.base62.zero", "all zeros is 0", "base62", "00000000000")
    for cid, enc, text, why, contains in [
        ("base32.above_int64", "base32", "8000000000000", "2^63: above 2^63 - 1", ["8000000000000"]),
        ("base32.above_uint64", "base32", "ZZZZZZZZZZZZZ", "2^65 - 1: far above", ["ZZZZZZZZZZZZZ"]),
        ("base32.first_char_f", "base32", "F000000000000", "first character past 7", ["F000000000000"]),
        ("base32.short", "base32", "0AXFXR5W7VBX", "12 characters", ["0AXFXR5W7VBX"]),
        ("base32.long", "base32", "0AXFXR5W7VBX00", "14 characters", ["0AXFXR5W7VBX00"]),
        ("base32.empty", "base32", "", "empty text", ["13 characters"]),
        ("base32.letter_u", "base32", "0AXFXR5W7VBXU", "U is not in Crockford's alphabet",
         ["position 12"]),
        ("base32.hyphen", "base32", "0AXF-XR5W7VBX", "no separators", ["position 4"]),
        ("base32.space", "base32", " AXFXR5W7VBX0", "no whitespace", ["position 0"]),
        ("base32.non_ascii", "base32", "0AXFXR5W7VBXé",
         "13 characters, one non-ASCII: named as the bad character, not as a wrong length",
         ["position 12"]),
        ("base62.above_int64", "base62", "AzL8n0Y58m8", "2^63: above 2^63 - 1", ["AzL8n0Y58m8"]),
        ("base62.above_uint64", "base62", "zzzzzzzzzzz", "62^11 - 1 passes even 2^64",
         ["zzzzzzzzzzz"]),
        ("base62.uint64_wrap", "base62", "LygHa16AHYG", "2^64 exactly, which wraps to 0 in 64 bits",
         ["LygHa16AHYG"]),
        ("base62.short", "base62", "AzL8n0Y58m", "10 characters", ["AzL8n0Y58m"]),
        ("base62.long", "base62", "00000000000A", "12 characters", ["00000000000A"]),
        ("base62.empty", "base62", "", "empty text", ["11 characters"]),
        ("base62.underscore", "base62", "0000_000000", "only 0-9A-Za-z", ["position 4"]),
        ("base62.plus", "base62", "+0000000000", "no signs", ["position 0"]),
        ("base62.non_ascii", "base62", "0000000000\u0660",
         "11 characters, the last an Arabic-Indic zero: the bad character, not a wrong length",
         ["position 10"]),
        ("base62.nul", "base62", "0000000000\u0000", "an embedded NUL", ["position 10"]),
    ]:
        r = parse(f"text.error.{cid}", why, enc, text, contains)
        assert r["error"] == "INVALID_ARGUMENT", cid

    # "any": decode's rule, the default of the CLI's decode --format. Digits only are decimal
    # whatever the length; else the length in characters picks base32 (13) or base62 (11).
    for cid, text, why, contains in [
        ("digits_13", "8000000000000", "13 digits are decimal, never base32", None),
        ("digits_11", "12345678901", "11 digits are decimal, never base62", None),
        ("digits_max", "9223372036854775807", "2^63 - 1 in decimal", None),
        ("digits_zero", "0", "one digit", None),
        ("base32", "03xezkd8m4m00", "13 characters with a letter: base32", None),
        ("base32_aliases", "0IL0O0000000o", "base32 with its aliases", None),
        ("base62", "0AQzeOt0YV6", "11 characters with a letter: base62", None),
        ("error.digits_above_int64", "9223372036854775808", "decimal above 2^63 - 1",
         ["9223372036854775808"]),
        ("error.base32_u", "0AXFXR5W7VBXU", "13 characters read as base32: U is refused",
         ["position 12"]),
        ("error.base62_above", "AzL8n0Y58m8", "11 characters read as base62, above 2^63 - 1",
         ["AzL8n0Y58m8"]),
        ("error.length", "12a", "neither digits only nor 13 nor 11 characters",
         ["'12a'", "3 characters"]),
        ("error.empty", "", "the empty text", ["0 characters"]),
        ("error.negative", "-1", "no sign", ["'-1'"]),
        ("error.non_ascii_13", "0AXFXR5W7VBX\u00e9", "13 characters (14 UTF-8 bytes): base32, "
         "the character named", ["position 12"]),
        ("error.non_ascii_12", "0AXFXR5W7VB\u00e9", "12 characters counted as characters",
         ["12 characters"]),
    ]:
        parse(f"text.any.{cid}", why, "any", text, contains)
    return cases
