"""Which proposals a fixture needs, judged against what the runtime build ships.

A fixture that needs a proposal the build does not ship is a *recognized skip* that names the
proposal — never a pass, never a failure blamed on the runtime. The proposal a fixture needs comes
from its capability directory or from the directives it uses (the tables below); whether the build
ships it comes from ``host.manifest`` (its manifest, wherever it is, or a probe of its API).
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

from ...ast.nodes import Mapping, Scalar, Section
from ...ast.visitor import walk
from ...host.manifest import NOT_SHIPPED, UNDETERMINED, claimed, proposal_status

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

# Extras keys (llm-provider §6 *Extras pass-through*) that are the wire realization of a declared
# field a proposal introduces: without that proposal nothing declares the field, so the key is an
# unmanaged extras key that rides untouched, and a case about its management (§6 *Managed-field
# collision*: matching no-op, conflicting rejected) needs the proposal. `stream` realizes
# complete(stream=…) (§8.1.6, proposal 0108 over 0062).
EXTRAS_KEY_PROPOSALS = {
    "stream": ("0062", "LLM completion streaming"),
}

# A field whose reducer is a factory ({bounded_append: {max_len: 3}}): graph-engine §2's factories.
FACTORY_REDUCER_PROPOSAL = "0023"

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


class FeatureNeeds(NamedTuple):
    """What a scenario needs that the build does not ship (a recognized skip), the proposals it
    needs whose status could not be determined (the case runs; each is a note on it), and the
    proposals it needs that the build's manifest claims (``FILE:line claims proposal … implemented``:
    a runtime lacking what the case needs then contradicts its manifest, and the case fails)."""

    missing: list[Missing]
    undetermined: list[str]
    claimed: list[str] = []


def feature_needs(capability: str | None, sections: Iterable[Section], scenario: Any = None) -> FeatureNeeds:
    """Judge the proposals a scenario needs against what the build ships (``host.manifest``)."""
    missing, undetermined, claims = [], [], []
    for proposal, title in sorted(needed_proposals(capability, sections, scenario).items()):
        status = proposal_status(proposal)
        if status.state == NOT_SHIPPED:
            missing.append(Missing(proposal, title, status.evidence))
        elif status.state == UNDETERMINED:
            undetermined.append(f"proposal {proposal} ({title}) status undetermined: {status.evidence}; the case ran")
        claim = claimed(proposal)
        if claim is not None:
            claims.append(claim)
    return FeatureNeeds(missing, undetermined, claims)


def needed_proposals(capability: str | None, sections: Iterable[Section], scenario: Any = None) -> dict[str, str]:
    """The proposals a scenario's constructs belong to, each with the title a skip names it by.

    ``scenario`` (when given) also resolves inherited scalar directives such as a fixture-level
    ``mapping:`` that its cases inherit.
    """
    found: dict[str, str] = {}

    def need(proposal: str, title: str) -> None:
        found[proposal] = title

    for (name, wanted), needs in VALUE_PROPOSALS.items():
        value = scenario.get(name) if scenario is not None else None
        if isinstance(value, Scalar) and wanted is not None and value.value == wanted:
            need(*needs)
    if capability in CAPABILITY_PROPOSALS:
        need(*CAPABILITY_PROPOSALS[capability])
    for section in sections:
        for node in walk(section):
            if isinstance(node, Section):
                for name, value in node.items():
                    needs = DIRECTIVE_PROPOSALS.get(name) or VALUE_PROPOSALS.get((name, None))
                    if needs is None and isinstance(value, Scalar):
                        needs = VALUE_PROPOSALS.get((name, value.value))
                    if needs:
                        need(*needs)
                    if name == "extras" and isinstance(value, Mapping) and not isinstance(value, Scalar):
                        for key in value.keys:
                            if key in EXTRAS_KEY_PROPOSALS:
                                need(*EXTRAS_KEY_PROPOSALS[key])
                if node.family == "field":
                    reducer = node.reducer
                    if isinstance(reducer, Mapping) and not isinstance(reducer, Scalar):
                        need(FACTORY_REDUCER_PROPOSAL, f"factory reducer {reducer.keys[0]!r}")
            elif isinstance(node, Mapping) and "type" in node.keys:
                kind = node.get("type")
                if isinstance(kind, Scalar) and isinstance(kind.value, str) and kind.value in CONTENT_BLOCK_PROPOSALS:
                    need(*CONTENT_BLOCK_PROPOSALS[kind.value])
    return found


def table_proposals() -> set[str]:
    """Every proposal the tables above can name (each needs a probe in ``host.manifest``)."""
    tables = (CAPABILITY_PROPOSALS, DIRECTIVE_PROPOSALS, VALUE_PROPOSALS, CONTENT_BLOCK_PROPOSALS, EXTRAS_KEY_PROPOSALS)
    return {number for table in tables for number, _ in table.values()} | {FACTORY_REDUCER_PROPOSAL}
