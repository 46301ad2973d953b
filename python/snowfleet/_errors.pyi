# Static view of the classes _errors.py generates from the core's error kinds.
# python/tests/test_errors.py fails if this list and the core's disagree.
from typing import ClassVar, Dict, Type

__all__ = [
    "SnowfleetError",
    "InvalidArgument",
    "TimestampOutOfRange",
    "ClockMovedBackwards",
    "ForkDetected",
    "GeneratorClosed",
    "NodeIdUnavailable",
    "LeaseLost",
    "InternalError",
]

class SnowfleetError(Exception):
    code: ClassVar[str]
    category: ClassVar[str]

class InvalidArgument(SnowfleetError, ValueError): ...
class TimestampOutOfRange(SnowfleetError, OverflowError): ...

class ClockMovedBackwards(SnowfleetError, RuntimeError):
    drift_ms: int
    def __init__(self, message: str = "", drift_ms: int = 0) -> None: ...

class ForkDetected(SnowfleetError, RuntimeError): ...
class GeneratorClosed(SnowfleetError, RuntimeError): ...
class NodeIdUnavailable(SnowfleetError, RuntimeError): ...
class LeaseLost(SnowfleetError, RuntimeError): ...
class InternalError(SnowfleetError, RuntimeError): ...

ERROR_CLASSES: Dict[str, Type[SnowfleetError]]
