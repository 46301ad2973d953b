"""SQLAlchemy 2 column type for snowfleet ids (``pip install 'snowfleet[sqlalchemy]'``)::

    from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
    from snowfleet import Generator
    from snowfleet.sqlalchemy import SnowflakeId, minted_by

    ids = Generator(node_source="local")      # one per process, created at start

    class Base(DeclarativeBase):
        pass

    class Order(Base):
        __tablename__ = "orders"
        id: Mapped[int] = mapped_column(SnowflakeId, primary_key=True, default=minted_by(ids))

The column is a ``BIGINT`` (never ``BIGSERIAL`` or an identity: it is not an
autoincrement column unless you say ``autoincrement=True``). Python values are
ints; a bound value may also be the id's decimal text (from JSON or a URL), read by the
core's rule. The id is minted in Python when the row is flushed (or a Core ``insert()``
runs), so the application knows it before the ``INSERT`` and no database sequence is involved.
:func:`minted_by` makes the default: a refusal (``ClockMovedBackwards``, ``LeaseLost``)
reaches the caller as itself, where a bare ``default=ids.next_id`` would arrive wrapped in
SQLAlchemy's ``StatementError``.

Alembic's autogenerate writes the column as ``snowfleet.sqlalchemy.SnowflakeId()``; pass
``render_item=alembic_render_item`` to ``context.configure`` in ``env.py`` so the migration
also gets its ``import snowfleet.sqlalchemy``.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Type, Union

from ._errors import SnowfleetError
from ._generator import Generator
from ._integration import as_id, missing_extra

try:
    from sqlalchemy import Column, event  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from sqlalchemy.engine import Dialect  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from sqlalchemy.exc import DontWrapMixin  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from sqlalchemy.types import BigInteger, TypeDecorator  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError:  # pragma: no cover - exercised by the tests without SQLAlchemy
    raise missing_extra("sqlalchemy", "SQLAlchemy 2", "sqlalchemy") from None

__all__ = ["SnowflakeId", "alembic_render_item", "minted_by"]


class SnowflakeId(TypeDecorator[int]):  # type: ignore[misc, unused-ignore]
    """A ``BIGINT`` holding a snowfleet id: binds an int or its decimal text (0 to
    2**63 - 1, else ``InvalidArgument``; a bool or float is a ``TypeError``) and reads back
    an int."""

    impl = BigInteger
    cache_ok = True

    @property
    def python_type(self) -> type:
        return int

    def process_bind_param(self, value: Optional[Any], dialect: Dialect) -> Optional[int]:
        return None if value is None else as_id(value)

    def process_literal_param(self, value: Optional[Any], dialect: Dialect) -> str:
        return "NULL" if value is None else str(as_id(value))

    def process_result_value(self, value: Optional[Any], dialect: Dialect) -> Optional[int]:
        return None if value is None else int(value)


@event.listens_for(SnowflakeId, "after_parent_attach")  # type: ignore[misc, untyped-decorator, unused-ignore]
def _no_sequence(type_: SnowflakeId, column: Any) -> None:
    """A SnowflakeId column is never SERIAL/IDENTITY: SQLAlchemy's autoincrement="auto" would
    make a lone integer primary key one wherever the column has no Python default, as in an
    Alembic migration's ``sa.Column('id', SnowflakeId())`` (a sequence nobody should use).
    An explicit ``autoincrement=True`` is kept."""
    if isinstance(column, Column) and column.autoincrement == "auto":
        column.autoincrement = False


_UNWRAPPED: Dict[type, Type[SnowfleetError]] = {}


def _unwrapped(e: SnowfleetError) -> SnowfleetError:
    """``e`` as an instance of a subclass of its class that SQLAlchemy re-raises as is
    (``DontWrapMixin``): still caught by ``except snowfleet.ClockMovedBackwards``."""
    cls = type(e)
    sub = _UNWRAPPED.get(cls)
    if sub is None:
        def reduce(self: BaseException) -> Any:  # pickled (and unpickled) as the plain class
            return (cls, self.args, self.__dict__ or None)

        sub = _UNWRAPPED.setdefault(cls, type(cls.__name__, (cls, DontWrapMixin), {
            "__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__,
            "__reduce__": reduce}))
    copy = sub.__new__(sub, *e.args)
    copy.args = e.args
    copy.__dict__.update(e.__dict__)
    return copy


def minted_by(generator: Union[Generator, Callable[[], Generator]]) -> Callable[[], int]:
    """A column default minting the next id of ``generator`` (or of the generator a function
    returns at insert time, e.g. one your application makes at start)::

        id: Mapped[int] = mapped_column(SnowflakeId, primary_key=True, default=minted_by(ids))

    A refusal is raised as the snowfleet error itself (``except snowfleet.ClockMovedBackwards``
    catches it), not wrapped in ``StatementError``; nothing is inserted."""

    def next_snowflake_id() -> int:
        gen = generator if isinstance(generator, Generator) else generator()
        try:
            return gen.next_id()
        except SnowfleetError as e:
            raise _unwrapped(e) from None

    return next_snowflake_id


def alembic_render_item(type_: str, obj: Any, autogen_context: Any) -> Any:
    """Alembic's ``render_item`` hook: a migration with a :class:`SnowflakeId` column
    imports ``snowfleet.sqlalchemy``; everything is rendered as Alembic would (returns False).
    From your own hook, call it first and keep your result."""
    if type_ == "type" and isinstance(obj, SnowflakeId):
        autogen_context.imports.add("import snowfleet.sqlalchemy")
    return False
