"""Vocabulary of the string mini-languages: value tokens (§5.10) and type names (§5.2)."""

from __future__ import annotations

# §5.10 format matchers, longest first so ``uuid-hex-3`` is read as uuid-hex labelled 3, not uuid.
FORMAT_TOKENS: tuple[str, ...] = ("uuid-hex", "uuid", "any-string", "timestamp")

# First-occurrence binding stems (§5.10; the observability suite's header notes, §3.2).
BINDING_STEMS: tuple[str, ...] = ("invocation_id", "trace_id", "corr_id", "span_id")

# Primitive type names (§5.2) and the other spellings fixtures use for them.
PRIMITIVE_TYPES = frozenset(("string", "int", "float", "bool", "any"))
CONTAINER_TYPES = frozenset(("list", "dict"))
TYPE_ALIASES = {"str": "string", "integer": "int", "boolean": "bool", "number": "float", "List": "list", "Dict": "dict"}
# Record types the spec itself names (§5.2 records; `record`: any record the runtime or a node
# produces; `ChatMessage`: the harness-chat spec's canonical message). Any other bare name is a
# user-defined record type (§5.2, `list<error_entry>`): a mapping of its fields — unless it is
# within two edits of a known name (`strng`), which is fixture_schema_invalid with the suggestion.
RECORD_TYPES = frozenset(("record", "ChatMessage"))
KNOWN_TYPES = PRIMITIVE_TYPES | CONTAINER_TYPES | RECORD_TYPES
