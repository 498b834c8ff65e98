"""Mutation audit: every expectation of every passing case must be able to fail.

    ./dev audit [ROOT...] [--capability NAME] [-k EXPR] [--max-ms N] [-v]

For each case that passes (seen through the expectations file), each distinct expectation its checks
verify — an ``expected.*`` directive, an ``invariants`` predicate, any other directive a rule reads
(``expected_error``, ``saved_record_assertions`` …), located by the check's span in the AST — gets
ONE mutant: the fixture text with one scalar leaf of that expectation's value changed (a string
gets a suffix, a number +1, a bool flipped), edited at the leaf's ``line:col`` from the loader's
spans. The leaf is the first one in document order that is not a §5.10 matcher token and that the
directive's meaning does not make neutral (:func:`neutral`). The mutant is read in memory (the
corpus is never written) and its case run through the library's ``run_case``.

A mutant whose case still passes is a **survivor**: a check that did not compare what its fixture
says. Exit 1 when there is any survivor (or an expectation the audit could not mutate), else 0;
2 on a usage error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Iterable

import yaml

from oa_conformance.assertions.catalogue import resolve
from oa_conformance.assertions.catalogue.rows import Query
from oa_conformance.assertions.rules import Check, CheckStatus
from oa_conformance.ast.nodes import (BindingToken, FormatToken, Mapping, Placeholder, PredicateBlock, Scalar, Section,
                                      Sequence)
from oa_conformance.interpreter.static.scenarios import scenarios
from oa_conformance.ast.visitor import walk
from oa_conformance.model.diagnostics import Span
from oa_conformance.model.discovery import discover
from oa_conformance.verdicts.expectations import NO_EXPECTATIONS, load_all
from oa_conformance.host.manifest import runtime_version
from oa_conformance.pipeline import read_fixture
from oa_conformance.pipeline import cases_of, run_case
from oa_conformance.verdicts.outcomes import Outcome
from oa_conformance.verdicts.results import ADAPTER_ERROR, CaseRef, CaseResult
from oa_conformance.scheduling.runner import run_all

SUFFIX = "-mutated"


@dataclass(frozen=True)
class Mutant:
    """One in-memory edit of a fixture's text that one expectation of one case must notice."""

    case: CaseRef
    expectation: str  # the check's name (the directive or predicate it verifies)
    line: int  # the mutated leaf, 1-based
    column: int
    old: str  # the leaf as written
    new: str  # what replaced it
    text: str  # the whole mutated fixture text
    # Every candidate leaf's mutant was refused by the fixture reader (the vocabulary already pins
    # those values): the mutant is the first of them, killed, but proving nothing about the rule.
    rejected: bool = False

    @property
    def location(self) -> Span:
        return Span(self.case.fixture.path, self.line, self.column)

    def __str__(self) -> str:
        return f"{self.location} {self.expectation}: mutation {self.old!r} -> {self.new!r} still passes"


@dataclass(frozen=True)
class Unmutated:
    """An expectation the audit found no leaf to change in (reported: nothing is silent)."""

    case: CaseRef
    check: Check  # the verified check whose expectation it is
    why: str
    neutral: bool = False  # True: a mutation a correct adapter must not notice (not a finding)

    def __str__(self) -> str:
        return f"{self.check.span} {self.check.name}: not mutated: {self.why}"


@dataclass(frozen=True)
class Verdict:
    mutant: Mutant
    result: CaseResult

    @property
    def survived(self) -> bool:
        return self.result.outcome == Outcome.PASSED


# ---------------------------------------------------------------------------------------------
# Where each expectation's value is


DIRECTIVE, PREDICATE, KEY, ITEM = "directive", "predicate", "key", "item"


def values_by_position(fixture: Section) -> dict[tuple, tuple[str, str, Any]]:
    """``(line, column)`` of every key → ``(kind, key, value)``: a directive of a section, a
    predicate of an invariants block, or a key of a data mapping; ``(line, column, "item")`` of
    every list item → ``("item", "", item)`` (a block mapping item starts where its first key does)."""
    found: dict[tuple[int, int], tuple[str, str, Any]] = {}
    for node in walk(fixture):
        if isinstance(node, Section):
            for name, value in node.items():
                span = node.key_span(name)
                found.setdefault((span.line, span.column), (DIRECTIVE, name, value))
        elif isinstance(node, Mapping):
            for key, value, span in zip(node.keys, node.values, node.key_spans):
                found.setdefault((span.line, span.column), (KEY, str(key), value))
        elif isinstance(node, PredicateBlock):
            for ref in node.predicates:
                found.setdefault((ref.span.line, ref.span.column), (PREDICATE, ref.name, ref.value))
    for node in walk(fixture):  # a check about one item of a list (`event_counts[0]`) is at the item
        if isinstance(node, Sequence):
            for item in node.items:
                if item.span is not None:
                    found.setdefault((item.span.line, item.span.column, ITEM), (ITEM, "", item))
    return found


# Directives whose value is an input of the run as much as an expectation about it: the executor
# reads the same value the check compares with, so changing it changes both sides.
INPUT_DIRECTIVES = {
    "run_count": "the value sets how many runs the executor makes as well as how many the check counts",
}

# Words of a directive, predicate or key name that make its string values names of what must NOT be
# there (`expected_wire_request_absent_keys`, `attributes_absent`, `error_category_not`): another
# name is just as absent. Its booleans and numbers still mean what they say.
EXCLUDING = frozenset({"absent", "not", "none", "never", "without", "excluded", "forbidden"})

# Words of a key naming a bound: +1 would loosen an upper bound (`max_in_flight`) and may not
# tighten a lower one past the actual value (`undelivered_count_min: 4` when 5 are undelivered), so
# an upper bound becomes -1 (below any count) and a lower bound a million more.
UPPER_BOUND = frozenset({"max", "maximum", "most"})
LOWER_BOUND = frozenset({"min", "minimum", "least"})
BEYOND = 1_000_000


def _words(name: str) -> set[str]:
    return set(name.replace(".", "_").replace("-", "_").lower().split("_"))


def neutral(kind: str, name: str) -> str | None:
    """Why changing any leaf of this expectation must leave a correct adapter passing, or None:
    a directive that is also an input of the run (:data:`INPUT_DIRECTIVES`)."""
    if kind == DIRECTIVE and name in INPUT_DIRECTIVES:
        return INPUT_DIRECTIVES[name]
    return None


def excluding(kind: str, name: str, capability: str | None) -> bool:
    """Whether the expectation's string values name what must be absent: a predicate whose catalogue
    row is an ``absent`` query (its value is substituted into the query as the names to look for)."""
    if kind != PREDICATE:
        return False
    resolved = resolve(capability, name)
    return resolved is not None and isinstance(resolved.row, Query) and resolved.row.compare == "absent"


def leaf_neutral(path: tuple[str, ...], leaf: Scalar, excluded: bool = False) -> bool:
    """A string naming what must be absent — under a name that excludes (:data:`EXCLUDING`), or in
    the value of an absent query — is neutral: another name is absent too. So is one alternative of
    several (`state_one_of: [in_flight, not_started]`): the actual may be another."""
    if not isinstance(leaf.value, str):
        return False
    return excluded or any(_words(part) & EXCLUDING or part.endswith(ALTERNATIVES) for part in path)


ALTERNATIVES = ("one_of", "any_of")


TOKENS = (FormatToken, BindingToken, Placeholder)


def _is_token_text(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("<") and value.endswith(">")


def nodes_below(node: Any, path: tuple[str, ...]) -> Iterable[tuple[tuple[str, ...], Any]]:
    """Every value node below ``node`` (itself included) with its key path, in document order."""
    yield path, node
    if isinstance(node, Section):
        for name, value in node.items():
            yield from nodes_below(value, path + (name,))
    elif isinstance(node, Mapping):
        for key, value in zip(node.keys, node.values):
            yield from nodes_below(value, path + (str(key),))
    elif isinstance(node, Sequence):
        for item in node.items:
            yield from nodes_below(item, path)
    elif isinstance(node, PredicateBlock):
        for ref in node.predicates:
            yield from nodes_below(ref.value, path + (ref.name,))


@dataclass(frozen=True)
class Leaf:
    node: Any  # a Scalar, a matcher token or an empty Sequence
    path: tuple[str, ...]


def candidates(name: str, node: Any, excluded: bool = False) -> Iterable[Leaf]:
    """What to change, in order of preference (only leaves under an ``expected…`` key when the value
    has one: a direct case's `calls:` entry holds its inputs beside its expectation): each scalar leaf that is not null, not a matcher token
    and not neutral (:func:`leaf_neutral`); then the null leaves; then the empty lists (each gains an
    element); then the matcher tokens (each becomes a literal no value matches). ``excluded``: every
    string of the value names what must be absent (:func:`excluding`)."""
    below = list(nodes_below(node, (name,)))
    # A value that holds inputs beside its expectation (a direct case's `calls:` entry: target,
    # operation, then `expected:`) is mutated in its expectation first.
    below.sort(key=lambda entry: not any(part.startswith("expected") for part in entry[0][1:]))
    if any(part.startswith("expected") for path, _ in below for part in path[1:]):  # the rest are inputs
        below = [entry for entry in below if any(part.startswith("expected") for part in entry[0][1:])]
    scalars = [Leaf(n, path) for path, n in below
               if isinstance(n, Scalar) and not _is_token_text(n.value) and not leaf_neutral(path, n, excluded)]
    yield from (leaf for leaf in scalars if leaf.node.value is not None)
    yield from (leaf for leaf in scalars if leaf.node.value is None)
    for path, n in below:
        if isinstance(n, Sequence) and not n.items and n.span is not None:
            yield Leaf(n, path)
    for path, n in below:  # a token parsed into the AST, or one a rule parses from its string
        if (isinstance(n, TOKENS) or (isinstance(n, Scalar) and _is_token_text(n.value))) and n.span is not None:
            yield Leaf(n, path)


# Words of a list's name that make it a set of things each to be found (`attributes_present`,
# `required_keys`, `fields_must_match`, `captured_event_field_values_cover`), and directives whose
# list is one (`metrics`: observations each to be found): one fewer is found too.
SUBSET_WORDS = frozenset({"present", "required", "cover", "match", "differ"})
SUBSET_DIRECTIVES = frozenset({"metrics"})


def list_to_shorten(name: str, node: Any, excluded: bool = False) -> Leaf | None:
    """The first list of two or more items (under an ``expected…`` key first) whose last item
    dropped must fail a correct adapter: not a list of names that must be absent, of alternatives,
    or of things each to be found."""
    if excluded or name in SUBSET_DIRECTIVES:
        return None
    below = list(nodes_below(node, (name,)))
    below.sort(key=lambda entry: not any(part.startswith("expected") for part in entry[0][1:]))
    for path, n in below:
        if isinstance(n, Sequence) and len(n.items) > 1 and n.span is not None:
            if any(_words(part) & (EXCLUDING | SUBSET_WORDS) or part.endswith(ALTERNATIVES) for part in path):
                continue
            return Leaf(n, path)
    return None


def leaves_of(node: Any) -> Iterable[Any]:
    return (n for _, n in nodes_below(node, ()) if isinstance(n, (Scalar,) + TOKENS))


# ---------------------------------------------------------------------------------------------
# Editing the text at a leaf


DROP = "drop"


def scalar_extents(text: str) -> dict[tuple, tuple[int, int, str | None]]:
    """``(line, column)`` (1-based) of every scalar and empty list → its character extent and YAML
    style; ``(line, column, "drop")`` of every list of two or more items → the text that dropping its
    last item deletes."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(mark) -> int:
        return starts[mark.line] + mark.column

    extents = {}
    stack = [yaml.compose(text, Loader=yaml.SafeLoader)]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            extents[(node.start_mark.line + 1, node.start_mark.column + 1)] = (offset(node.start_mark), offset(node.end_mark), node.style)
        elif isinstance(node, yaml.SequenceNode):
            where = (node.start_mark.line + 1, node.start_mark.column + 1)
            if not node.value:
                extents[where] = (offset(node.start_mark), offset(node.end_mark), "[]")
            elif len(node.value) > 1:  # what dropping the last item deletes
                before, last = node.value[-2:]
                if node.flow_style:
                    extents[where + (DROP,)] = (offset(before.end_mark), offset(last.end_mark), DROP)
                else:  # its whole lines, from its `- ` to its end
                    end_line = last.end_mark.line if last.end_mark.column > 0 else last.end_mark.line - 1
                    extents[where + (DROP,)] = (starts[last.start_mark.line], starts[end_line + 1], DROP)
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
    return extents


def mutated_value(leaf: Leaf) -> Any:
    """The changed leaf: a bool flipped; a number +1 (an upper bound -1, a lower bound a million
    more); a string with a suffix; null and a matcher token a literal string."""
    value = getattr(leaf.node, "value", None)
    if value is None or isinstance(leaf.node, TOKENS) or _is_token_text(value):
        return "mutated"
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        words = _words(leaf.path[-1]) if leaf.path else set()
        if words & UPPER_BOUND:
            return -1 if value >= 0 else value - 1
        if words & LOWER_BOUND:
            return value + BEYOND
        return value + 1
    return f"{value}{SUFFIX}"


def edit(text: str, extent: tuple[int, int, str | None], leaf: Leaf) -> tuple[str, str, str]:
    """``text`` with the scalar at ``extent`` replaced by ``mutated_value(leaf)``: (text, old, new)."""
    start, end, style = extent
    old = text[start:end]
    if style == DROP:
        return text[:start] + text[end:], f"a list of {len(leaf.node.items)}", "without its last item"
    if style == "[]":  # an empty list gains an element
        return text[:start] + '["mutated"]' + text[end:], old, '["mutated"]'
    if style in ("|", ">"):  # a block scalar: the suffix goes at the end of its first content line
        first = text.index("\n", start) + 1
        stop = text.index("\n", first) if "\n" in text[first:] else len(text)
        while not text[first:stop].strip() and stop < len(text):
            first = stop + 1
            stop = text.index("\n", first) if "\n" in text[first:] else len(text)
        return text[:stop] + SUFFIX + text[stop:], text[first:stop].strip(), text[first:stop].strip() + SUFFIX
    new_value = mutated_value(leaf)
    if isinstance(new_value, bool):
        new = "true" if new_value else "false"
    elif isinstance(new_value, (int, float)):
        new = repr(new_value)
    else:
        new = json.dumps(new_value)
    return text[:start] + new + text[end:], old, new


# ---------------------------------------------------------------------------------------------
# Mutants of one passing case


def mutants_of(result: CaseResult, text: str, every: bool = False, lists: bool = False) -> tuple[list[Mutant], list[Unmutated]]:
    """One mutant per distinct expectation the passing case's checks verified (``every``: one per
    candidate leaf the reader accepts — an exploration, many times slower; ``lists``: one more that
    drops the last item of the expectation's first list, :func:`list_to_shorten`)."""
    ref = result.ref
    by_position = values_by_position(ref.scenario.fixture)
    extents = scalar_extents(text)
    mutants, unmutated, done = [], [], set()
    for check in result.checks:
        if check.status != CheckStatus.VERIFIED or check.span is None:
            continue
        key = (check.span.line, check.span.column)
        if key in done:
            continue
        done.add(key)
        if check.name.endswith("]") and key + (ITEM,) in by_position:  # the item, not its first key
            key = key + (ITEM,)
        elif key not in by_position:
            key = key + (ITEM,)
        if key not in by_position:
            unmutated.append(Unmutated(ref, check, "no key of the fixture is at the check's span"))
            continue
        kind, name, value = by_position[key]
        why = neutral(kind, name)
        if why is not None:
            unmutated.append(Unmutated(ref, check, f"neutral: {why}", neutral=True))
            continue
        found = list(candidates(name, value, excluding(kind, name, ref.fixture.capability)))
        if not found:
            if any(True for _ in leaves_of(value)):
                unmutated.append(Unmutated(ref, check, "neutral: every leaf names what must be absent "
                                           "(an excluding name or an absent query)", neutral=True))
            else:
                unmutated.append(Unmutated(ref, check, "no leaf"))
            continue
        # A list item with no `expected…` key (a direct case's call that only must not raise) asserts
        # that it ran: its leaves are inputs, and one mutant that makes it fail proves the check.
        implicit = kind == ITEM and not any(part.startswith("expected") for leaf in found for part in leaf.path)
        made, accepted = [], []
        for leaf in found:
            span = leaf.node.span
            # a token inside a quoted string starts after the quote
            extent = extents.get((span.line, span.column)) or extents.get((span.line, span.column - 1))
            if extent is None:
                continue
            new_text, old, new = edit(text, extent, leaf)
            made.append(Mutant(ref, check.name, span.line, span.column, old, new, new_text))
            if reads(ref, new_text):
                accepted.append(made[-1])
                if not every or implicit:
                    break
        if not made:
            unmutated.append(Unmutated(ref, check, "no candidate leaf starts a scalar or an empty list in the text"))
            continue
        mutants.extend(accepted or [dataclasses.replace(made[0], rejected=True)])
        shorten = list_to_shorten(name, value, excluding(kind, name, ref.fixture.capability)) if lists else None
        extent = extents.get((shorten.node.span.line, shorten.node.span.column, DROP)) if shorten else None
        if extent is not None:
            new_text, old, new = edit(text, extent, shorten)
            if reads(ref, new_text):
                mutants.append(Mutant(ref, check.name, shorten.node.span.line, shorten.node.span.column, old, new, new_text))
    return mutants, unmutated


def reads(ref: CaseRef, text: str) -> bool:
    """Whether the mutated text passes the fixture reader (load, schema and version checks)."""
    read = read_fixture(ref.fixture.path, data=text, capability=ref.fixture.capability)
    return read.fixture is not None and not read.diagnostics


def run_mutant(mutant: Mutant, timeout: float) -> Verdict:
    """The mutant's case, read from the mutated text in memory and run through ``run_case``."""
    fixture = mutant.case.fixture
    read = read_fixture(fixture.path, data=mutant.text, capability=fixture.capability)
    if read.fixture is None or read.diagnostics:
        ref = CaseRef(fixture, None, read.diagnostics)
    else:
        scenario = next((s for s in scenarios(read.fixture) if s.name == mutant.case.name), None)
        ref = CaseRef(fixture, scenario, () if scenario is not None else read.diagnostics)
        if scenario is None:
            return Verdict(mutant, CaseResult(ref, Outcome.ERROR, reason="the mutant lost its case"))
    try:
        return Verdict(mutant, run_case(ref, timeout))
    except Exception as exc:  # run_case should never raise; if it does, the mutant is killed by an adapter error
        return Verdict(mutant, CaseResult(ref, Outcome.ERROR, category=ADAPTER_ERROR, reason=f"run_case raised {type(exc).__name__}: {exc}"))


# ---------------------------------------------------------------------------------------------
# The audit


@dataclass
class Tally:
    cases: int = 0
    mutants: int = 0
    killed: int = 0
    survivors: int = 0
    rejected: int = 0
    neutral: int = 0
    unmutated: int = 0


@dataclass(frozen=True)
class Audit:
    verdicts: tuple[Verdict, ...]
    unmutated: tuple[Unmutated, ...]
    passing: tuple[CaseResult, ...]
    seconds: float

    @property
    def survivors(self) -> tuple[Mutant, ...]:
        return tuple(v.mutant for v in self.verdicts if v.survived)

    def tallies(self) -> dict[str, Tally]:
        table: dict[str, Tally] = {}
        for result in self.passing:
            table.setdefault(result.ref.fixture.capability or "-", Tally()).cases += 1
        for verdict in self.verdicts:
            tally = table[verdict.mutant.case.fixture.capability or "-"]
            tally.mutants += 1
            tally.survivors += verdict.survived
            tally.killed += not verdict.survived
            tally.rejected += verdict.mutant.rejected
        for item in self.unmutated:
            tally = table[item.case.fixture.capability or "-"]
            if item.neutral:
                tally.neutral += 1
            else:
                tally.unmutated += 1
        return table

    @property
    def findings(self) -> tuple[Unmutated, ...]:
        """The expectations the audit could not mutate (neutral ones excepted)."""
        return tuple(u for u in self.unmutated if not u.neutral)

    @property
    def clean(self) -> bool:
        return not self.survivors and not self.findings


def audit(cases: Iterable[CaseRef], expectations=NO_EXPECTATIONS, workers: int = 16, timeout: float = 60.0,
          max_ms: float | None = None, every: bool = False, lists: bool = False) -> Audit:
    """Run ``cases``; mutate every expectation of each one that passes (within ``max_ms`` when given)."""
    started = time.perf_counter()
    passing = [r for r in run_all(cases, workers=workers, timeout=timeout, expectations=expectations)
               if r.outcome == Outcome.PASSED and (max_ms is None or r.duration_s * 1000 <= max_ms)]
    texts: dict[str, str] = {}
    mutants: list[Mutant] = []
    unmutated: list[Unmutated] = []
    for result in passing:
        path = result.ref.fixture.path
        if path not in texts:
            with open(path, encoding="utf-8") as handle:
                texts[path] = handle.read()
        found, missed = mutants_of(result, texts[path], every, lists)
        mutants.extend(found)
        unmutated.extend(missed)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        verdicts = tuple(pool.map(lambda m: run_mutant(m, timeout), mutants))
    return Audit(verdicts, tuple(unmutated), tuple(passing), time.perf_counter() - started)


def render(result: Audit, verbose: bool = False) -> str:
    names = ("cases", "mutants", "killed", "rejected", "survivors", "neutral", "unmutated")
    rows = [("capability",) + names]
    total = Tally()
    for capability, tally in sorted(result.tallies().items()):
        rows.append((capability,) + tuple(getattr(tally, name) for name in names))
        for name in names:
            setattr(total, name, getattr(total, name) + getattr(tally, name))
    rows.append(("total",) + tuple(getattr(total, name) for name in names))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(str(cell).ljust(w) if i == 0 else str(cell).rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
             for row in rows]
    if result.survivors:
        lines += ["", "survivors:"] + [f"  {m}" for m in result.survivors]
    if result.findings:
        lines += ["", "not mutated:"] + [f"  {u}" for u in result.findings]
    if verbose:
        lines += ["", "neutral (not mutated):"] + [f"  {u}" for u in result.unmutated if u.neutral]
        lines += ["", "killed:"] + [f"  {v.mutant.location} {v.mutant.expectation}: {v.mutant.old!r} -> {v.mutant.new!r}: "
                                    f"{v.result.outcome} at {v.result.location}" for v in result.verdicts if not v.survived]
    lines.append(f"\n{total.mutants} mutants of {total.cases} passing cases in {result.seconds:.1f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev audit", description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="*", help="spec roots (default: $OA_TARGET_SPEC, the target corpus)")
    parser.add_argument("--capability", action="append", default=None)
    parser.add_argument("-k", dest="keyword", default=None, help="pytest-style expression over case ids")
    parser.add_argument("--expectations", default="oa-expectations.toml")
    parser.add_argument("--max-ms", type=float, default=None, help="only cases whose own run took at most N ms")
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("-v", "--verbose", action="store_true", help="also list every killed mutant")
    parser.add_argument("--every-leaf", action="store_true",
                        help="explore: one mutant per leaf of each expectation, not one per expectation")
    parser.add_argument("--no-lists", dest="lists", action="store_false",
                        help="no list mutants (by default each expectation's first list also loses its last item)")
    args = parser.parse_args(argv)
    roots = args.roots or ([os.environ["OA_TARGET_SPEC"]] if os.environ.get("OA_TARGET_SPEC") else [])
    if not roots:
        print("audit: give a spec root or set OA_TARGET_SPEC", file=sys.stderr)
        return 2
    from oa_conformance.grammar import parse_keyword_expression

    selected = parse_keyword_expression(args.keyword) if args.keyword else None
    expectations = load_all([args.expectations], runtime_version()) if args.expectations else NO_EXPECTATIONS
    cases = [c for f in discover(roots, args.capability) for c in cases_of(f) if selected is None or selected(c.id)]
    if not cases:
        print("audit: no case matches", file=sys.stderr)
        return 2
    result = audit(cases, expectations, workers=args.workers, timeout=args.timeout, max_ms=args.max_ms, every=args.every_leaf,
                   lists=args.lists)
    print(render(result, args.verbose))
    return 0 if result.clean else 1


if __name__ == "__main__":
    sys.exit(main())
