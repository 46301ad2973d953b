"""A Pydantic v2 type for snowfleet ids (``pip install 'snowfleet[pydantic]'``)::

    from pydantic import BaseModel
    from snowfleet.pydantic import SnowflakeId

    class Order(BaseModel):
        id: SnowflakeId
        customer_id: SnowflakeId

    Order(id="386535469170708480", customer_id=42).id   # -> 386535469170708480 (an int)
    Order(id=2**63 - 1, customer_id=1).model_dump_json()
    # '{"id":"9223372036854775807","customer_id":"1"}'

Input is an int or its decimal text (the core's rule: 0 to 2**63 - 1, digits only); inside
Python the value is an ``int``; in JSON it is a string, because a JavaScript client reads a
JSON number above 2**53 wrong (``JSON.parse`` rounds it to a double). The JSON Schema says so:
``{"type": "string", "pattern": "^[0-9]{1,19}$"}`` for output, a string or an integer for
input, so OpenAPI clients generated from a FastAPI app see strings.
"""

from __future__ import annotations

from typing import Annotated, Any, Dict

from ._errors import SnowfleetError
from ._integration import as_id, missing_extra

try:
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler  # type: ignore[import-not-found, import-untyped, unused-ignore]
    from pydantic_core import PydanticCustomError, core_schema  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError:  # pragma: no cover - exercised by the tests without Pydantic
    raise missing_extra("pydantic", "Pydantic 2", "pydantic") from None

__all__ = ["SnowflakeId"]

_MAX = (1 << 63) - 1
_TEXT_SCHEMA: Dict[str, Any] = {"type": "string", "pattern": "^[0-9]{1,19}$"}


def _validate(value: Any) -> int:
    if isinstance(value, (bool, float)) or not isinstance(value, (int, str)):
        raise PydanticCustomError(
            "snowflake_id_type", "a snowflake id must be an integer or its decimal text"
        )
    try:
        return as_id(value)
    except SnowfleetError as e:
        raise PydanticCustomError("snowflake_id", "{reason}", {"reason": str(e)}) from None


def _to_text(value: int) -> str:
    return str(value)


class _SnowflakeIdType:
    """Pydantic's hooks for :data:`SnowflakeId` (validation, JSON output, JSON Schema)."""

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            _validate,
            serialization=core_schema.plain_serializer_function_ser_schema(
                _to_text, when_used="json", return_schema=core_schema.str_schema()
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> Dict[str, Any]:
        if handler.mode == "serialization":
            return dict(_TEXT_SCHEMA)
        return {"anyOf": [{"type": "integer", "minimum": 0, "maximum": _MAX}, dict(_TEXT_SCHEMA)]}


#: An id: validated from an int or decimal text, an ``int`` in Python, a string in JSON.
SnowflakeId = Annotated[int, _SnowflakeIdType]
