"""Reference model of snowfleet's UUIDv7 (core/include/snowfleet/uuid7.hpp), written from
RFC 9562 and the header's description, never from the core: a model Generator of layout
48.0.15@0 gives each (millisecond, sequence) pair, and

    counter = (SipHash-2-4(key, ms) >> 39) + sequence          (26 bits)
    UUID    = unix_ts_ms (48) | 0b0111 | counter >> 14 (12) | 0b10 | counter & 0x3fff (14)
              | random (48)

where key is the random source's first two words (k0, k1) and each UUID then takes one
word, whose low 48 bits are its random bits. The scripted random source is splitmix64.
"""

from __future__ import annotations

from typing import Dict, List

import snowfleet_model as m

MASK64 = (1 << 64) - 1
SEQUENCE_BITS = 15
SEED_BITS = 25
LAYOUT = m.Layout.create(0, 48, 0, SEQUENCE_BITS)


class ScriptedRandom:
    """splitmix64 from `seed`: word i is its i-th output."""

    def __init__(self, seed: int):
        self.state = seed & MASK64
        self.draws = 0

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        self.draws += 1
        return z ^ (z >> 31)


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & MASK64


def siphash24_u64(k0: int, k1: int, message: int) -> int:
    """SipHash-2-4 of the 8-byte little-endian encoding of `message`."""
    v = [0x736F6D6570736575 ^ k0, 0x646F72616E646F6D ^ k1,
         0x6C7967656E657261 ^ k0, 0x7465646279746573 ^ k1]

    def sipround():
        v[0] = (v[0] + v[1]) & MASK64; v[1] = _rotl(v[1], 13); v[1] ^= v[0]; v[0] = _rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & MASK64; v[3] = _rotl(v[3], 16); v[3] ^= v[2]
        v[0] = (v[0] + v[3]) & MASK64; v[3] = _rotl(v[3], 21); v[3] ^= v[0]
        v[2] = (v[2] + v[1]) & MASK64; v[1] = _rotl(v[1], 17); v[1] ^= v[2]; v[2] = _rotl(v[2], 32)

    for word in (message & MASK64, 8 << 56):
        v[3] ^= word
        sipround()
        sipround()
        v[0] ^= word
    v[2] ^= 0xFF
    for _ in range(4):
        sipround()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def format_uuid(value: int) -> str:
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def parse_uuid(text: str) -> int:
    rule = "a UUID is 36 characters, 8-4-4-4-12 hex digits, or 32 hex digits"
    if len(text) == 36:
        for p in (8, 13, 18, 23):
            if text[p] != "-":
                raise m.invalid(f"not a UUID: '{text}' (no '-' at position {p}; {rule})")
        digits = text[:8] + text[9:13] + text[14:18] + text[19:23] + text[24:]
    elif len(text) == 32:
        digits = text
    else:
        raise m.invalid(f"not a UUID: '{text}' ({len(text)} characters; {rule})")
    if any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise m.invalid(f"not a UUID: '{text}' (bad character ...; {rule})")
    return int(digits, 16)


def decode_uuid7(value: int) -> Dict[str, int]:
    version = (value >> 76) & 0xF
    variant = (value >> 62) & 3
    if version != 7 or variant != 2:
        raise m.invalid(f"not a UUIDv7: {format_uuid(value)} has version {version}"
                        + ("" if variant == 2 else " and not the RFC 9562 variant (10)")
                        + "; want version 7, variant 10")
    hi, lo = value >> 64, value & MASK64
    return {"timestamp_ms": hi >> 16,
            "counter": ((hi & 0xFFF) << 14) | ((lo >> 48) & 0x3FFF),
            "random": lo & ((1 << 48) - 1)}


class Uuid7Generator:
    def __init__(self, mode: str = "strict", max_wait_ms: float = 5.0, max_drift_ms: int = 1000,
                 clock: m.ScriptedClock = None, seed: int = 0):
        self.generator = m.Generator(LAYOUT, 0, mode, max_wait_ms, max_drift_ms, clock)
        self.random = ScriptedRandom(seed)
        self.key = (self.random.next(), self.random.next())

    def _make(self, packed: int, random: int) -> int:
        ms = packed >> SEQUENCE_BITS
        counter = (siphash24_u64(self.key[0], self.key[1], ms) >> (64 - SEED_BITS)) + (
            packed & ((1 << SEQUENCE_BITS) - 1))
        hi = (ms << 16) | 0x7000 | (counter >> 14)
        lo = (2 << 62) | ((counter & 0x3FFF) << 48) | (random & ((1 << 48) - 1))
        return (hi << 64) | lo

    def next(self) -> int:
        packed = self.generator.next_id()
        return self._make(packed, self.random.next())

    def next_batch(self, n: int) -> List[int]:
        ids = self.generator.next_ids(n)
        return [self._make(p, self.random.next()) for p in ids]
