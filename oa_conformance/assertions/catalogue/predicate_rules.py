"""Evaluating catalogue rows inside the assert pass.

A predicate reference in a fixture becomes one rule: :class:`QueryRule` (JMESPath over the query
scope), :class:`ComputeRule` (a Python function over the same scope) or :class:`RestatesRule`
(judged after the case's other checks, against the restated directive's checks and the fixture
AST). The query scope (what a rule reads) is described in :mod:`.scope`.

jmespath is imported on first evaluation, not when a fixture is merely read or linted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from ...ast.nodes import Node
from ...model.diagnostics import Span
from ...model.kinds import is_mapping, is_sequence
from ..matchers import explain, match, show
from ..rules import Check, CheckStatus, Context, Rule, Unverified
from . import Resolved, directive_node, resolve
from .query_operands import operands
from .rows import Compute, Query, Restates, Verdict
from .scope import scope_of

# ---------------------------------------------------------------------------------------------
# JMESPath: compiled once per query text, with the few functions it lacks


def truthy(value: Any) -> bool:
    """JMESPath truthiness: false, null, empty string, list and object are false; 0 is true."""
    return not (value is None or value is False or value == "" or (is_sequence(value) or is_mapping(value)) and len(value) == 0)


def hashable(value: Any) -> Any:
    if is_mapping(value):
        return tuple(sorted((k, hashable(v)) for k, v in value.items()))
    if is_sequence(value):
        return tuple(hashable(v) for v in value)
    return value


@lru_cache(maxsize=1)
def _jmespath() -> tuple[Any, Any]:
    import jmespath
    from jmespath import functions

    class CatalogueFunctions(functions.Functions):
        """The functions JMESPath lacks (kept few; docs/TRACE.md lists them)."""

        @functions.signature({"types": ["array"]})
        def _func_unique(self, items):
            """Whether no two items are equal."""
            return len(items) == len({hashable(item) for item in items})

        @functions.signature({"types": ["array", "null"]})
        def _func_innermost(self, chain):
            """The deepest non-null element of a lineage chain (null when there is none)."""
            present = [item for item in (chain or ()) if item is not None]
            return present[-1] if present else None

        @functions.signature({"types": ["object"]}, {"types": ["string"]})
        def _func_has(self, mapping, key):
            """Whether the object has the key at all (a null value counts; an absent key does not)."""
            return key in mapping

        @functions.signature({"types": ["array"]})
        def _func_distinct(self, items):
            """The distinct items, in first-seen order."""
            seen, found = set(), []
            for item in items:
                if hashable(item) not in seen:
                    seen.add(hashable(item))
                    found.append(item)
            return found

    return jmespath, jmespath.Options(custom_functions=CatalogueFunctions())


@lru_cache(maxsize=2048)
def compiled(text: str) -> Any:
    jmespath, _ = _jmespath()
    return jmespath.compile(text)


def evaluate(text: str, scope: dict) -> Any:
    """Run one query over a scope; a top-level name the scope lacks is a LookupError, not null."""
    expression = compiled(text)
    missing = sorted(root_fields(expression.parsed) - scope.keys())
    if missing:
        raise LookupError(f"the trace has no {', '.join(map(repr, missing))} here (not recorded by this case, or not "
                          f"available in this block) for `{text}`")
    _, options = _jmespath()
    return expression.search(scope, options=options)


# AST node types whose children are all evaluated against the current value.
_ALL_CHILDREN_AT_ROOT = frozenset(("multi_select_list", "multi_select_dict", "key_val_pair", "or_expression",
                                   "and_expression", "not_expression", "comparator", "function_expression"))
# Node types whose first child is evaluated against the current value and the rest against its result.
_LEFT_CHILD_AT_ROOT = frozenset(("subexpression", "index_expression", "projection", "value_projection",
                                 "filter_projection", "flatten", "pipe"))


def root_fields(node: dict) -> set[str]:
    """The field names a parsed expression reads from the scope's top level."""
    kind = node["type"]
    if kind == "field":
        return {node["value"]}
    if kind in _ALL_CHILDREN_AT_ROOT:
        return set().union(*(root_fields(child) for child in node["children"])) if node["children"] else set()
    if kind in _LEFT_CHILD_AT_ROOT and node["children"]:
        return root_fields(node["children"][0])
    return set()  # literals, @, expression references (evaluated per element), slices, indexes


def substitute(text: str, bindings: dict[str, str], value: Any) -> str:
    """Fill a query's ``{name}`` bindings (as raw strings), ``{name!key}`` (as a quoted identifier,
    to select the field a pattern names) and ``{value}`` (as a JSON literal)."""
    for name, bound in bindings.items():
        text = text.replace("{" + name + "!key}", json.dumps(bound))
        text = text.replace("{" + name + "}", "'" + bound.replace("\\", "\\\\").replace("'", "\\'") + "'")
    if "{value}" in text:
        text = text.replace("{value}", "`" + json.dumps(value).replace("`", "\\`") + "`")
    return text


# ---------------------------------------------------------------------------------------------
# Comparisons


def plain_value(expected: Any) -> Any:
    """The fixture's value as plain data (an AST value, or already plain in a hand-built example)."""
    if isinstance(expected, Node):
        from ...ast.values import literal

        return literal(expected)
    return expected


def as_set(items: Any) -> list:
    return sorted({hashable(item) for item in items}, key=repr)


def _items(found: Any, limit: int = 5) -> str:
    return show(found[:limit]) + (f" (and {len(found) - limit} more)" if len(found) > limit else "") if is_sequence(found) else show(found)


def compare(row: Query, expected: Any, found: Any, bindings: Any, path: str) -> tuple[bool, str, Any]:
    """(holds, why not, bindings) for one query result against the fixture's value."""
    want = plain_value(expected)
    if row.compare == "equals":
        result = match(expected, found, bindings, path, "exact")
        return result.ok, explain(result.mismatches), result.bindings
    if row.compare == "set":
        if not is_sequence(found):
            return False, f"expected a list to compare as a set, the query gave {show(found)}", bindings
        seen, wanted = as_set(found), as_set(want)
        return seen == wanted, f"expected the set {show(wanted)}, saw {show(seen)}", bindings
    if row.compare == "count":
        if not is_sequence(found):
            return False, f"expected a list to count, the query gave {show(found)}", bindings
        return len(found) == want, f"expected {want}, found {len(found)}: {_items(found)}", bindings
    if row.compare == "flag":
        holds = truthy(found)
        if holds == bool(want):
            return True, "", bindings
        if isinstance(found, bool):  # a boolean query: it did not hold, or held where the fixture gives false
            return False, ("it does not hold" if not holds else "it holds, and the fixture gives false"), bindings
        return False, ("the query selected nothing" if not holds else f"expected none, found {_items(found)}"), bindings
    if row.compare == "absent":
        absent = not truthy(found)
        wanted_absent = want if isinstance(want, bool) else True  # a non-boolean value is the query's parameter
        if absent == wanted_absent:
            return True, "", bindings
        return False, (f"expected none, found {_items(found)}" if wanted_absent else "expected some, found none"), bindings
    raise ValueError(f"unknown comparison {row.compare!r}")


# ---------------------------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class QueryRule(Rule):
    name: str
    span: Span | None
    expected: Any  # the AST value the fixture wrote
    row: Query
    bindings: tuple[tuple[str, str], ...] = ()

    def evaluate(self, ctx: Context, bindings: Any):
        return self.judge(scope_of(ctx), bindings)

    def judge(self, scope: dict, bindings: Any):
        value = plain_value(self.expected)
        named = dict(self.bindings)
        try:
            if self.row.anchor is not None:
                anchor = substitute(self.row.anchor, named, value)
                if not truthy(evaluate(anchor, scope)):
                    return (Check(self.name, CheckStatus.FAILED, self.span, f"cannot evaluate: the anchor `{anchor}` selected nothing, "
                                  "so the check would hold vacuously"),), bindings
            query = substitute(self.row.query, named, value)
            found = evaluate(query, scope)
        except LookupError as missing:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"cannot evaluate: {missing}"),), bindings
        holds, why, bindings_out = compare(self.row, self.expected, found, bindings, self.name)
        if holds:
            return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings_out
        if isinstance(found, bool):  # "expected true, got false" says nothing: show what the query compared
            why += looked_at(query, scope)
        return (Check(self.name, CheckStatus.FAILED, self.span, why),), bindings


def looked_at(query: str, scope: dict) -> str:
    """`` (it looked at: `a` = 3, `b` = 4)`` — the operands a boolean query compared, with their values."""
    from jmespath.visitor import TreeInterpreter

    _, options = _jmespath()
    interpreter = TreeInterpreter(options)
    try:
        seen = operands(compiled(query).parsed, lambda node: interpreter.visit(node, scope))
    except Exception:  # an operand that only evaluates inside its filter (reads @): say nothing rather than fail
        return ""
    return " (it looked at: " + ", ".join(f"`{text}` = {_items(value)}" for text, value in seen) + ")" if seen else ""


@dataclass(frozen=True)
class ComputeRule(Rule):
    name: str
    span: Span | None
    expected: Any
    row: Compute
    bindings: tuple[tuple[str, str], ...] = ()

    def evaluate(self, ctx: Context, bindings: Any):
        return self.judge(scope_of(ctx), bindings)

    def judge(self, scope: dict, bindings: Any):
        try:
            actual = self.row.function(scope, plain_value(self.expected), **dict(self.bindings))
        except LookupError as missing:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"cannot evaluate: {missing}"),), bindings
        if isinstance(actual, Verdict):
            return (Check(self.name, CheckStatus.VERIFIED if actual.ok else CheckStatus.FAILED, self.span, "" if actual.ok else actual.detail),), bindings
        result = match(self.expected, actual, bindings, self.name, "exact")
        if result.ok:
            return (Check(self.name, CheckStatus.VERIFIED, self.span),), result.bindings
        return (Check(self.name, CheckStatus.FAILED, self.span, explain(result.mismatches), result.mismatches[0].span),), bindings


@dataclass(frozen=True)
class RestatesRule(Rule):
    """Judged by the assert pass after the case's other checks (:meth:`judge`), never on its own."""

    name: str
    span: Span | None
    expected: Any
    row: Restates
    judged_last = True

    def evaluate(self, ctx: Context, bindings: Any):
        return (Check(self.name, CheckStatus.UNVERIFIED, self.span, "not implemented: a restating predicate in a scoped block"),), bindings

    def judge(self, owner: Any, checks: list[Check]) -> Check:
        """Verified when the fixture gives the covered value, the owner asserts the restated
        directive, and every check of that directive is verified."""
        directive = self.row.directive
        value = plain_value(self.expected)
        if value != self.row.value:
            return Check(self.name, CheckStatus.UNVERIFIED, self.span, f"the catalogue covers {self.row.name} = {show(self.row.value)} "
                         f"(it restates {directive}); the fixture gives {show(value)}")
        if directive_node(owner, directive) is None:
            return Check(self.name, CheckStatus.UNVERIFIED, self.span, f"restates {directive}, which this case does not assert")
        related = [c for c in checks if c.name == directive or directive.startswith(c.name + ".") or c.name.startswith(directive + ".")]
        if not related:
            return Check(self.name, CheckStatus.UNVERIFIED, self.span, f"restates {directive}, which no check of this case verified")
        failing = [c for c in related if c.status != CheckStatus.VERIFIED]
        if failing:
            first = failing[0]
            status = CheckStatus.FAILED if first.status == CheckStatus.FAILED else CheckStatus.UNVERIFIED
            # The restated check is reported on its own line with its own location and detail;
            # this one names it and stays at the predicate.
            return Check(self.name, status, self.span, f"restates {directive}, and {first.name} {first.status}")
        return Check(self.name, CheckStatus.VERIFIED, self.span)


def rule_for(found: Resolved, name: str, value: Any, span: Span | None) -> Rule:
    row = found.row
    if isinstance(value, Node):
        # A predicate's value is an expected value like any other: its `<uuid>` / `<trace_id_X>`
        # strings are §5.10 matchers, compared (and bound) by matchers.match, not literal text.
        from ...grammar.value_tokens import with_tokens

        value = with_tokens(value)
    if isinstance(row, Query):
        return QueryRule(name, span, value, row, found.bindings)
    if isinstance(row, Compute):
        return ComputeRule(name, span, value, row, found.bindings)
    if isinstance(row, Restates):
        return RestatesRule(name, span, value, row)
    raise TypeError(f"not a catalogue row: {row!r}")


def predicate_rule(capability: str | None, predicate: str, value: Any, span: Span | None, block: str) -> Rule | None:
    """The rule for one predicate reference ``predicate: value`` in block ``block``, or None."""
    found = resolve(capability, predicate)
    if found is None:
        return None
    return rule_for(found, f"{block}.{predicate}", value, span)


def references(block: Any) -> Iterable[tuple[str, Any, Span | None]]:
    """A predicate block's references (``name: value`` each, with the key's span), in document order."""
    return ((ref.name, ref.value, ref.span) for ref in block.predicates)


def predicate_block(capability: str | None, block: str, refs: Iterable[tuple[str, Any, Span | None]], restating: bool = True) -> tuple[Rule, ...]:
    """The one builder of a block of predicate references: a rule per reference, named
    ``<block>.<name>``, and an unverified check for a name no row of ``capability`` (or the
    canonical ones) has. ``restating=False``: a block judged inside another rule, which cannot
    read the case's verdicts, so a restating row there is unverified too."""
    rules: list[Rule] = []
    for name, value, span in refs:
        rule = predicate_rule(capability, name, value, span, block)
        if rule is None or (rule.judged_last and not restating):
            rule = Unverified(f"{block}.{name}", span, f"not implemented: predicate {name!r}")
        rules.append(rule)
    return tuple(rules)


def row_problems(row: Any) -> list[str]:
    """What is wrong with a row as written (the catalogue test runs this over every row)."""
    problems = []
    if not row.doc or "\n" in row.doc:
        problems.append("doc must be one line")
    if isinstance(row, Query):
        if row.compare not in ("equals", "set", "count", "flag", "absent"):
            problems.append(f"unknown compare {row.compare!r}")
        if row.compare == "absent" and not row.anchor:
            problems.append("an absent comparison needs an anchor")
        for text in (row.query, row.anchor):
            if text is None:
                continue
            try:
                compiled(substitute(text, {k: "x" for k in _placeholders(row.name)}, True))
            except Exception as error:  # a JMESPath syntax error: report the row, not a case
                problems.append(f"query `{text}` does not compile: {error}")
    elif isinstance(row, Compute):
        if not row.why:
            problems.append("a compute row must say why it cannot be a query")
    elif isinstance(row, Restates):
        if not row.directive:
            problems.append("a restating row must name the restated directive")
    return problems


def _placeholders(name: str) -> list[str]:
    import re

    return [token.split(":")[0] for token in re.findall(r"<([^>]+)>", name)]


__all__ = ["ComputeRule", "QueryRule", "RestatesRule", "directive_node", "evaluate", "predicate_rule", "row_problems",
           "rule_for", "truthy"]
