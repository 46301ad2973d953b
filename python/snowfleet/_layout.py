"""snowfleet.Layout: the bit layout of an id, a thin value wrapper over the core's Layout."""

from __future__ import annotations

from typing import Any, ClassVar, Optional, Tuple

from . import _snowfleet as _core
from ._convert import as_int, as_str


class Layout:
    """The bit layout of an id: 1 sign bit + timestamp + node + sequence = 64 bits, the node
    optionally split into datacenter (high bits) + machine (low bits), timestamps counted
    in ms from ``epoch_ms``.

    Text form: ``"41.10.12@1704067200000"`` or, split, ``"41.5.5.12@1288834974657"``; the
    presets' names ``"default"``, ``"twitter"`` and ``"discord"`` parse too. A Layout is
    immutable, always valid (every constructor is checked by the core), hashable and
    compares equal to any Layout with the same fields.

    The presets are class attributes: ``Layout.DEFAULT`` (41.10.12@1704067200000: 10-bit
    node, epoch 2024-01-01T00:00:00Z), ``Layout.TWITTER`` (41.5.5.12@1288834974657:
    Twitter's 5-bit datacenter + 5-bit machine) and ``Layout.DISCORD``
    (41.5.5.12@1420070400000: Twitter's split with Discord's epoch, 2015-01-01).

    >>> Layout.TWITTER == Layout.parse("41.5.5.12@1288834974657")
    True
    """

    __slots__ = ("_native",)
    _native: _core.Layout
    DEFAULT: ClassVar["Layout"]
    TWITTER: ClassVar["Layout"]
    DISCORD: ClassVar["Layout"]

    def __init__(self, text: str = "default") -> None:
        """Same as :meth:`Layout.parse`; ``Layout()`` is the default layout."""
        self._native = _core.Layout.parse(as_str(text, "layout"))

    @classmethod
    def _wrap(cls, native: _core.Layout) -> "Layout":
        obj = cls.__new__(cls)
        obj._native = native
        return obj

    # ---- constructors -------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> "Layout":
        """Parses the text form or a preset name; InvalidArgument quoting a bad text."""
        return cls._wrap(_core.Layout.parse(as_str(text, "layout")))

    @classmethod
    def create(
        cls,
        *,
        epoch_ms: Optional[int] = None,
        timestamp_bits: Optional[int] = None,
        sequence_bits: Optional[int] = None,
        node_bits: Optional[int] = None,
        datacenter_bits: Optional[int] = None,
        machine_bits: Optional[int] = None,
    ) -> "Layout":
        """A layout from its fields: ``epoch_ms``, ``timestamp_bits``, ``sequence_bits``, and
        the node field as ``node_bits`` (unsplit) or ``datacenter_bits`` + ``machine_bits``
        (split). The widths must add up to 63.

        >>> Layout.create(epoch_ms=1288834974657, timestamp_bits=41, datacenter_bits=5,
        ...               machine_bits=5, sequence_bits=12) == Layout.TWITTER
        True

        A field left out (or None) is not given; the core decides which fields go together
        (every language's rule): a missing field, both node forms or half a split node, and a
        width or epoch out of range raise InvalidArgument naming the field. A non-int is a
        TypeError.
        """
        return cls._wrap(
            _core.Layout.create(
                _given(epoch_ms, "epoch_ms"),
                _given(timestamp_bits, "timestamp_bits"),
                _given(node_bits, "node_bits"),
                _given(datacenter_bits, "datacenter_bits"),
                _given(machine_bits, "machine_bits"),
                _given(sequence_bits, "sequence_bits"),
            )
        )

    # ---- text form, equality ------------------------------------------------------------

    @property
    def text(self) -> str:
        """Canonical text form, e.g. ``"41.10.12@1704067200000"`` (== ``str(layout)``)."""
        return self._native.to_string()

    @property
    def preset(self) -> str:
        """``"default"``, ``"twitter"`` or ``"discord"`` when equal to a preset, else ``""``."""
        return self._native.preset_name

    def __str__(self) -> str:
        return self._native.to_string()

    def __repr__(self) -> str:
        return f"Layout({self._native.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self._native == other._native

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return not self._native == other._native

    def __hash__(self) -> int:
        return hash(self._native.to_string())

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        return (Layout, (self._native.to_string(),))

    def __setattr__(self, name: str, value: object) -> None:
        if name != "_native" or hasattr(self, "_native"):
            raise AttributeError("Layout is immutable")
        object.__setattr__(self, name, value)

    @property
    def split(self) -> bool:
        """True when the node is split into datacenter + machine."""
        return self._native.split

    # ---- fields and derived limits ------------------------------------------------------

    @property
    def epoch_ms(self) -> int:
        """Unix ms of timestamp 0."""
        return self._native.epoch_ms

    @property
    def timestamp_bits(self) -> int:
        """Width of the timestamp field."""
        return self._native.timestamp_bits

    @property
    def node_bits(self) -> int:
        """Width of the node field (datacenter_bits + machine_bits)."""
        return self._native.node_bits

    @property
    def datacenter_bits(self) -> int:
        """Width of the datacenter half of the node (0 when unsplit)."""
        return self._native.datacenter_bits

    @property
    def machine_bits(self) -> int:
        """Width of the machine half of the node (== node_bits when unsplit)."""
        return self._native.machine_bits

    @property
    def sequence_bits(self) -> int:
        """Width of the per-millisecond sequence."""
        return self._native.sequence_bits

    @property
    def timestamp_shift(self) -> int:
        """Bit position of the timestamp field (== node_bits + sequence_bits)."""
        return self._native.timestamp_shift

    @property
    def node_shift(self) -> int:
        """Bit position of the node field (== sequence_bits)."""
        return self._native.node_shift

    @property
    def max_node_id(self) -> int:
        """Largest node id: 2**node_bits - 1."""
        return self._native.max_node_id

    @property
    def max_datacenter_id(self) -> int:
        """Largest datacenter id (0 when unsplit)."""
        return self._native.max_datacenter_id

    @property
    def max_machine_id(self) -> int:
        """Largest machine id."""
        return self._native.max_machine_id

    @property
    def max_sequence(self) -> int:
        """Largest sequence: ids per millisecond per node - 1."""
        return self._native.max_sequence

    @property
    def max_elapsed_ms(self) -> int:
        """Largest value of the timestamp field: 2**timestamp_bits - 1."""
        return self._native.max_elapsed_ms

    @property
    def max_timestamp_ms(self) -> int:
        """Last Unix ms the layout can represent: epoch_ms + max_elapsed_ms."""
        return self._native.max_timestamp_ms


# Layout properties that are not in the core's list: its text, preset name and whether split.
_NOT_FIELDS = ("text", "preset", "split")


def _adopt_core_fields() -> None:
    """Checks that Layout declares the core's layout fields (``_snowfleet.layout_fields()``,
    SNOWFLEET_LAYOUT_FIELDS) in the core's order (the declarations above exist for type
    checkers; the core's list is the definition) and gives each the core's doc."""
    props = {n: v for n, v in vars(Layout).items() if isinstance(v, property)}
    declared = tuple(n for n in props if n not in _NOT_FIELDS)
    fields = _core.layout_fields()
    core = tuple(name for name, _ in fields)
    if declared != core:
        raise ImportError(f"snowfleet.Layout declares {declared}, the core's fields are {core}")
    for name, doc in fields:
        setattr(Layout, name, property(props[name].fget, doc=doc))


_adopt_core_fields()


def _given(value: object, name: str) -> Optional[int]:
    """None (not given) as is, else the value as an int64 (the host's type check only)."""
    return None if value is None else as_int(value, name)


def layout_arg(layout: object) -> Layout:
    """The ``layout=`` argument of every API: None (the default layout), a Layout, or its
    text form / preset name."""
    if layout is None:
        return _DEFAULT
    if isinstance(layout, Layout):
        return layout
    if isinstance(layout, str):
        return Layout.parse(layout)
    raise TypeError(f"layout must be a Layout, a str or None, got {type(layout).__name__}")


Layout.DEFAULT = Layout._wrap(_core.Layout.DEFAULT)
Layout.TWITTER = Layout._wrap(_core.Layout.TWITTER)
Layout.DISCORD = Layout._wrap(_core.Layout.DISCORD)
_DEFAULT = Layout.DEFAULT
