"""The lint rules: one module per rule, and the explicit registry of them.

A rule module declares, as module constants:

* ``CODE`` — a letter for its family and three digits (``G002``); ``NAME`` — a kebab-case name;
* ``SEVERITY`` — ``error``, ``warning`` or ``info`` (information only: never changes the exit status);
* ``KIND`` — what its ``check`` is given:

  ============ =====================================================================================
  ``file``     ``check(FileContext)``: the file by name, in its directory (nothing read)
  ``sidecar``  ``check(SidecarContext)``: the fixture's ``.md`` sidecar, with the spec prose found
               for it (``--prose``, or the spec checkout the fixture is in; None without)
  ``document`` ``check(DocumentContext)``: the YAML document the loader composed (whenever the
               text is one YAML document, even one the static passes then refuse)
  ``static``   no ``check``: it reports what the static passes (load, schema, version) found, for
               the pass codes in ``CLAIMS``
  ``fixture``  ``check(FixtureContext)``: once per fixture that passed the static passes
  ``scenario`` ``check(ScenarioContext)``: once per case (or per single-case file)
  ``outcome``  ``check(ScenarioContext, raised, detectable)``: after the scenario rules, with the
               error categories their findings stand for
  ``discovery`` no ``check``: the files discovery passes over (``discovery.find``), one finding each
  ============ =====================================================================================

* optionally ``CATEGORY`` — the §9 category its findings carry (default ``lint``) — and
  ``EXPECTED_AS`` — the error category a finding stands for: a case that itself expects that error
  (``expected_compile_error: <category>``, or an expected raised error) is correct, not a finding.

Its docstring says what it catches, why that matters, and gives a bad and a good example; the
first line is the summary ``--list-rules`` prints. Add a rule by writing its module and listing it
in :data:`MODULES` below.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable, NamedTuple

from ..spec_terms import COMPILE_ERRORS

from . import (
    binding_token_single_use,
    citation_unresolved,
    compile_error_not_exercised,
    condition_target_undeclared,
    conflicting_projection_forms,
    conflicting_reducers,
    default_type_mismatch,
    directive_unknown,
    edge_endpoint_undeclared,
    extension_used,
    entry_undeclared,
    execution_order_undeclared,
    file_duplicate_key,
    file_empty,
    file_encoding,
    file_invalid_yaml,
    file_not_a_mapping,
    file_unreadable,
    initial_state_type_mismatch,
    initial_state_undeclared,
    internal_error,
    layout_capability_misspelled,
    layout_file_name,
    layout_number_unique,
    layout_passed_over,
    layout_sidecar,
    mapping_field_undeclared,
    multiple_outgoing_edges,
    node_unreachable,
    predicate_misspelled,
    predicate_not_implemented,
    predicate_restated_directive_missing,
    reducer_arguments,
    reducer_unknown,
    schema_invalid,
    state_field_undeclared,
    subgraph_undeclared,
    type_string,
    value_token,
    version_unsupported,
    scalar_dialect,
)

LINT = "lint"
SEVERITIES = ("error", "warning", "info")  # info: reported, never a reason to exit non-zero
KINDS = ("file", "sidecar", "document", "static", "fixture", "scenario", "outcome", "discovery", "internal")

# The registry, in the order --list-rules prints it: by family, then code.
MODULES: tuple[ModuleType, ...] = (
    # L — layout of the conformance directory (conformance-adapter §3.1)
    layout_file_name,
    layout_number_unique,
    layout_sidecar,
    layout_passed_over,
    citation_unresolved,
    layout_capability_misspelled,
    # Y — reading the file (the loader)
    file_invalid_yaml,
    file_encoding,
    file_empty,
    file_not_a_mapping,
    file_duplicate_key,
    file_unreadable,
    scalar_dialect,
    # V — the directive vocabulary and version (the schema and version checks)
    directive_unknown,
    schema_invalid,
    version_unsupported,
    predicate_misspelled,
    extension_used,
    # G — graph references (graph-engine §2)
    entry_undeclared,
    edge_endpoint_undeclared,
    node_unreachable,
    multiple_outgoing_edges,
    subgraph_undeclared,
    mapping_field_undeclared,
    conflicting_projection_forms,
    condition_target_undeclared,
    # S — the state schema (conformance-adapter §5.2)
    type_string,
    default_type_mismatch,
    reducer_unknown,
    reducer_arguments,
    conflicting_reducers,
    # E — expectations (conformance-adapter §5.8, §5.10)
    state_field_undeclared,
    initial_state_undeclared,
    execution_order_undeclared,
    value_token,
    binding_token_single_use,
    compile_error_not_exercised,
    initial_state_type_mismatch,
    # P — invariant predicates (conformance-adapter §5.9)
    predicate_not_implemented,
    predicate_restated_directive_missing,
    # X — the linter itself
    internal_error,
)


class LintRule(NamedTuple):
    code: str
    name: str
    severity: str
    kind: str
    category: str
    expected_as: str | None
    claims: tuple[str, ...]  # static rules: the static-pass diagnostic codes this rule reports
    summary: str
    doc: str
    check: Callable | None

    @property
    def family(self) -> str:
        return self.code[0]


def _rule(module: ModuleType) -> LintRule:
    doc = (module.__doc__ or "").strip()
    rule = LintRule(
        code=module.CODE,
        name=module.NAME,
        severity=module.SEVERITY,
        kind=module.KIND,
        category=getattr(module, "CATEGORY", LINT),
        expected_as=getattr(module, "EXPECTED_AS", None),
        claims=tuple(getattr(module, "CLAIMS", ())),
        summary=doc.splitlines()[0] if doc else "",
        doc=doc,
        check=getattr(module, "check", None),
    )
    if rule.severity not in SEVERITIES or rule.kind not in KINDS:
        raise ValueError(f"rule {rule.code}: bad severity {rule.severity!r} or kind {rule.kind!r}")
    if (rule.check is None) != (rule.kind in ("static", "discovery", "internal")):
        raise ValueError(f"rule {rule.code}: a {rule.kind} rule {'has no' if rule.check is None else 'has a'} check")
    return rule


RULES: tuple[LintRule, ...] = tuple(_rule(module) for module in MODULES)
BY_CODE: dict[str, LintRule] = {rule.code: rule for rule in RULES}
if len(BY_CODE) != len(RULES):  # pragma: no cover - a registry mistake
    raise ValueError("two rules share a code")

# The graph-engine §2 compile errors some scenario rule finds statically (what E006 can vouch for).
DETECTABLE: frozenset[str] = frozenset(r.expected_as for r in RULES if r.kind == "scenario" and r.expected_as in COMPILE_ERRORS)

__all__ = ["BY_CODE", "DETECTABLE", "MODULES", "RULES", "LintRule"]
