"""How a value class pickles and copies in both builds: rebuilt by its constructor from its fields.

The compiled build's classes (mypyc's native classes) have no ``__dict__`` nor the state
protocol that :mod:`pickle` and :mod:`copy` use by default; a dataclass of a compiled
module gives ``__reduce__`` = :func:`rebuilt` instead, which works the same in the pure build.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

Rebuilt = tuple[Any, tuple[Any, ...]]
"""What ``__reduce__`` returns: the class and the arguments that make the value again."""


def rebuilt(value: Any) -> Rebuilt:
    """``value``'s class and its fields in order (every field of the dataclass an argument of its constructor)."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value))
