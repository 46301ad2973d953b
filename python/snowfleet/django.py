"""Django model fields for snowfleet ids (``pip install 'snowfleet[django]'``).

settings.py::

    SNOWFLEET = {"node_source": "local"}        # snowfleet.Generator's keyword arguments
    DEFAULT_AUTO_FIELD = "snowfleet.django.SnowflakeAutoField"   # every model's implicit pk

models.py::

    from snowfleet.django import SnowflakeAutoField, SnowflakeField

    class Order(models.Model):
        id = SnowflakeAutoField(primary_key=True)    # or leave it out: DEFAULT_AUTO_FIELD
        public_ref = SnowflakeField(unique=True)     # any other id column

Both are ``bigint`` columns whose value is minted in Python when the row is first saved (no
sequence, no identity column), by one generator per process: :func:`generator` makes it from
``settings.SNOWFLEET`` at the first id, in the process that mints (so a pre-fork server's
workers each make their own), and closes it at exit; ``manage.py check`` names a misspelled
key of ``settings.SNOWFLEET``. Values read back are ints; forms, URLs and ``filter(pk="...")``
accept the decimal text.
"""

from __future__ import annotations

import atexit
import difflib
import inspect
import threading
from typing import Any, Dict, List, Optional, Tuple

from ._generator import Generator
from ._integration import as_id, missing_extra

try:
    from django.conf import settings  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from django.core import checks  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from django.core.exceptions import ImproperlyConfigured, ValidationError  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from django.db import models  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError:  # pragma: no cover - exercised by the tests without Django
    raise missing_extra("django", "Django", "django") from None

__all__ = ["SnowflakeAutoField", "SnowflakeField", "check_settings", "generator", "next_id"]

_lock = threading.Lock()
_generator: Optional[Generator] = None


_ARGUMENTS = sorted(p for p in inspect.signature(Generator.__init__).parameters if p != "self")


def _options() -> Dict[str, Any]:
    """``settings.SNOWFLEET``, checked for shape and names (the values are the core's to judge)."""
    options = getattr(settings, "SNOWFLEET", None)
    if not isinstance(options, dict):
        raise ImproperlyConfigured(
            f"settings.SNOWFLEET must be a dict of snowfleet.Generator arguments, "
            f"e.g. {{'node_source': 'local'}} or {{'node_source': 'env:SNOWFLEET_NODE_ID'}}, "
            f"not {options!r}"
        )
    for name in options:
        if name not in _ARGUMENTS:
            near = difflib.get_close_matches(str(name), _ARGUMENTS, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ImproperlyConfigured(
                f"settings.SNOWFLEET has {name!r}, which is not a snowfleet.Generator "
                f"argument{hint}; they are {', '.join(_ARGUMENTS)}"
            )
    return options


@checks.register()  # type: ignore[misc, untyped-decorator, unused-ignore]
def check_settings(app_configs: Any = None, **kwargs: Any) -> List[Any]:
    """``manage.py check`` (and runserver, migrate): settings.SNOWFLEET's shape and names,
    without making a generator (no lease is claimed by a check)."""
    try:
        _options()
    except ImproperlyConfigured as e:
        return [checks.Error(str(e), id="snowfleet.E001")]
    return []


def generator() -> Generator:
    """The process's generator, made from ``settings.SNOWFLEET`` (a dict of
    :class:`snowfleet.Generator` keyword arguments) at the first call and closed at exit."""
    global _generator
    gen = _generator
    if gen is not None:
        return gen
    with _lock:
        if _generator is None:
            _generator = Generator(**_options())
            atexit.register(_generator.close)
        return _generator


def next_id() -> int:
    """The next id of the process's :func:`generator`: the fields' default."""
    return generator().next_id()


class _SnowflakeMixin:
    """What both fields share: the default, and reading ids from ints or decimal text."""

    description = "A snowfleet id (64-bit integer)"

    def _snowflake_kwargs(self, kwargs: Dict[str, Any]) -> Dict[str, Any]:
        kwargs.setdefault("default", next_id)
        kwargs.setdefault("editable", False)
        return kwargs

    def to_python(self, value: Any) -> Optional[int]:
        if value is None or value == "":
            return None
        try:
            return as_id(value)
        except (TypeError, ValueError) as e:
            raise ValidationError(str(e), code="invalid", params={"value": value}) from None

    def get_prep_value(self, value: Any) -> Optional[int]:
        value = super().get_prep_value(value)  # type: ignore[misc]
        return None if value is None else as_id(value)

    def _snowflake_deconstruct(
        self, parts: Tuple[str, str, Any, Dict[str, Any]]
    ) -> Tuple[str, str, Any, Dict[str, Any]]:
        name, path, args, kwargs = parts
        if kwargs.get("default") is next_id:  # the migration does not repeat the defaults
            del kwargs["default"]
        if kwargs.get("editable") is False:
            del kwargs["editable"]
        return name, path, args, kwargs


class SnowflakeField(_SnowflakeMixin, models.BigIntegerField):  # type: ignore[misc, type-arg, unused-ignore]
    """A ``bigint`` column filled with the next id when the row is first saved (not editable
    in forms or the admin)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **self._snowflake_kwargs(kwargs))

    def deconstruct(self) -> Any:
        return self._snowflake_deconstruct(super().deconstruct())


class SnowflakeAutoField(_SnowflakeMixin, models.BigAutoField):  # type: ignore[misc, type-arg, unused-ignore]
    """A ``BigAutoField`` replacement: the primary key is minted in Python, not by a
    sequence, so the ``CREATE TABLE`` has a plain ``bigint`` column. Usable as
    ``DEFAULT_AUTO_FIELD`` or as an explicit ``primary_key=True`` field."""

    db_returning = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **self._snowflake_kwargs(kwargs))

    def get_internal_type(self) -> str:
        # The column type (and the absence of an identity or serial suffix) is bigint's.
        return "BigIntegerField"

    def deconstruct(self) -> Any:
        return self._snowflake_deconstruct(super().deconstruct())
