"""AST values → plain Python data for the runtime (inputs only; expected values are matchers).

The conversion is the AST's own ``unparse`` — the data a fixture author wrote — with fresh lists
and dicts on every call, so the runtime can never alias a fixture value; within one value, a YAML
alias is one shared list or dict (what the alias means), so an alias DAG costs its distinct nodes.
"""

from __future__ import annotations

from typing import Any

from .dump import unparse as literal
from ..model.errors import FixtureInvalid

__all__ = ["literal", "raised_message", "repeated_text"]


def repeated_text(char: str, byte_count: int) -> str:
    """``char`` repeated as many whole times as fit in ``byte_count`` UTF-8 bytes (rounded down:
    conformance-adapter §5.15 ``message_repeat``, the header's ``content_repeat``)."""
    return char * (byte_count // len(char.encode("utf-8")))


def raised_message(raises: Any) -> str:
    """A mock's ``raises`` message: the literal ``message``, or ``message_repeat: {char, bytes}``
    synthesized. The schema allows at most one; a block with neither cannot be built from."""
    if raises.message is not None:
        return raises.message.value
    repeat = raises.message_repeat
    if repeat is None:
        raise FixtureInvalid("`raises` needs a `message` or a `message_repeat`", raises.span)
    return repeated_text(repeat.char.value, repeat.bytes.value)
