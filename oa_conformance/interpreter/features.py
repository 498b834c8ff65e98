"""What the runtime under test ships, read from its own ``conformance.toml``.

A fixture that needs a proposal the runtime marks ``not-yet`` is a *recognized skip* that names the
proposal — never a pass, never a failure blamed on the runtime. The proposal a fixture needs comes
from its capability directory or from the directives it uses (the table below); the status comes
from the installed ``openarmature`` package.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from typing import Any, Iterable, NamedTuple

from ..ast.nodes import Mapping, Scalar, Section
from ..ast.visitor import walk

# Capability directories that are one proposal each.
CAPABILITY_PROPOSALS = {
    "sessions": ("0020", "sessions"),
    "suspension": ("0021", "suspension"),
    "harness": ("0022", "harness"),
    "harness-chat": ("0056", "harness-chat"),
}

# Directives that exist only with a proposal, wherever they are used.
DIRECTIVE_PROPOSALS = {
    "session_store": ("0020", "sessions"),
    "session_id": ("0020", "sessions"),  # a session-bound invoke() (observability's trace.sessionId)
    "seeded_session": ("0020", "sessions"),
    "session_migrations": ("0020", "sessions"),
    "suspend_with_descriptor": ("0021", "suspension"),
    "conditional_suspend": ("0021", "suspension"),
    "signal_payload": ("0021", "suspension"),
    "pre_next_calls_suspend_with_descriptor": ("0021", "suspension"),
    "harness": ("0022", "harness"),
    "chat_turns": ("0056", "harness-chat"),
    "mock_llm_stream": ("0062", "LLM completion streaming"),
}

# Directive values that select a not-shipped proposal: (directive, value) -> proposal.
VALUE_PROPOSALS = {
    ("mapping", "anthropic"): ("0037", "llm-provider Anthropic Messages mapping"),
    ("mapping", "gemini"): ("0038", "llm-provider Google Gemini mapping"),
    ("mapping", "streaming_unsupported_stub"): ("0062", "LLM completion streaming"),
    ("stream", True): ("0062", "LLM completion streaming"),
    ("stream_body", None): ("0062", "LLM completion streaming"),  # None: any value
}

# Message content-block types (llm-provider §3.1) a proposal introduced: a fixture whose messages
# or canned responses carry one needs that proposal's message types.
CONTENT_BLOCK_PROPOSALS = {
    "thinking": ("0037", "llm-provider ThinkingBlock content (Anthropic Messages mapping)"),
    "redacted_thinking": ("0037", "llm-provider RedactedThinkingBlock content (Anthropic Messages mapping)"),
}


class Missing(NamedTuple):
    proposal: str
    title: str
    note: str

    def __str__(self) -> str:
        return f"the runtime does not ship proposal {self.proposal} ({self.title}): {self.note}"


@cache
def runtime_manifest() -> dict:
    """The installed runtime's conformance manifest (empty when it ships none)."""
    try:
        text = files("openarmature").joinpath("conformance.toml").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    return tomllib.loads(text)


def status(proposal: str) -> str:
    entry = runtime_manifest().get("proposals", {}).get(proposal)
    return entry.get("status", "unknown") if entry else "unknown"


def _missing(proposal: str, title: str) -> Missing | None:
    state = status(proposal)
    if state == "not-yet":
        return Missing(proposal, title, "status not-yet in openarmature's conformance.toml")
    return None


def missing_features(capability: str | None, sections: Iterable[Section], scenario: Any = None) -> list[Missing]:
    """The not-shipped proposals a scenario needs (empty when the runtime has them all).

    ``scenario`` (when given) also resolves inherited scalar directives such as a fixture-level
    ``mapping:`` that its cases inherit.
    """
    found: dict[str, Missing] = {}
    for (name, wanted), needs in VALUE_PROPOSALS.items():
        value = scenario.get(name) if scenario is not None else None
        if isinstance(value, Scalar) and wanted is not None and value.value == wanted:
            miss = _missing(*needs)
            if miss:
                found[miss.proposal] = miss
    if capability in CAPABILITY_PROPOSALS:
        miss = _missing(*CAPABILITY_PROPOSALS[capability])
        if miss:
            found[miss.proposal] = miss
    for section in sections:
        for node in walk(section):
            if isinstance(node, Section):
                for name in node.order:
                    value = node.get(name)
                    needs = DIRECTIVE_PROPOSALS.get(name) or VALUE_PROPOSALS.get((name, None))
                    if needs is None and isinstance(value, Scalar):
                        needs = VALUE_PROPOSALS.get((name, value.value))
                    if needs:
                        miss = _missing(*needs)
                        if miss:
                            found[miss.proposal] = miss
            elif isinstance(node, Mapping) and "type" in node.keys:
                kind = node.get("type")
                needs = CONTENT_BLOCK_PROPOSALS.get(kind.value) if isinstance(kind, Scalar) and isinstance(kind.value, str) else None
                miss = _missing(*needs) if needs else None
                if miss:
                    found[miss.proposal] = miss
            if isinstance(node, Section):
                if node.family == "field":
                    reducer = node.get("reducer")
                    if isinstance(reducer, Mapping) and not isinstance(reducer, Scalar):
                        miss = _missing("0023", f"factory reducer {reducer.keys[0]!r}")
                        if miss:
                            found[miss.proposal] = miss
    return sorted(found.values())
