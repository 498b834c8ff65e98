"""Every lint rule, proven by injecting one fault into real fixtures.

Each test finds places in real fixtures — the bundled spec and the shared corpus — where a rule's
fault can be written, writes it into the fixture's text (in memory; nothing is copied or edited on
disk), lints the text as that file, and asserts the rule's code, line and column. Fixtures where the
rule already reports something are skipped, so the expected finding is exactly the injected one.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

import pytest

from oa_conformance.ast.nodes import Mapping, Node, Scalar, Section, Sequence, TypeRef
from oa_conformance.model.discovery import discover
from oa_conformance.pipeline import read_fixture
from oa_conformance.frontends.lint import BY_CODE, lint_file
from oa_conformance.frontends.lint.context import FixtureContext

from .conftest import BUNDLED_SPEC, shared_spec_root
from .faults import block_sections, insert_at

PER_RULE = 8  # fault sites per rule: the first fixtures offering one, one per capability first


def corpus_refs():
    roots = [str(BUNDLED_SPEC)]
    shared = shared_spec_root()
    if shared is not None and (shared / "spec").is_dir():
        roots.append(str(shared))
    return discover(roots)


class Read(NamedTuple):
    ref: object
    text: str
    fixture: Section
    baseline: list  # what lint_file reports for the untouched text


def _read_all() -> list[Read]:
    found = []
    for ref in corpus_refs():
        text = Path(ref.path).read_text(encoding="utf-8")
        result = read_fixture(ref.path, text, capability=ref.capability)
        if result.fixture is not None:
            found.append(Read(ref, text, result.fixture, lint_file(ref.path, text, ref.capability)))
    return found


READS = _read_all()


class Site(NamedTuple):
    read: Read
    text: str  # the fault written in
    expected: tuple[int, int]  # (line, column) of the finding

    @property
    def id(self) -> str:
        return f"{self.read.ref.display}@{self.expected[0]}:{self.expected[1]}"


def sites(code: str, make: Callable[[Read], Iterator[tuple[str, tuple[int, int]]]]) -> list[Site]:
    """Up to PER_RULE fault sites for ``code``: one per capability first, from fixtures where the
    rule reports nothing yet."""
    by_capability: dict[str, list[Site]] = {}
    for read in READS:
        if any(d.code == code for d in read.baseline):
            continue
        for text, where in make(read):
            by_capability.setdefault(read.ref.capability, []).append(Site(read, text, where))
            break
    ordered = [s for group in itertools.zip_longest(*by_capability.values()) for s in group if s is not None]
    return ordered[:PER_RULE]


def findings(site: Site, code: str) -> list[tuple[str, int, int]]:
    ref = site.read.ref
    diagnostics = lint_file(ref.path, site.text, ref.capability)
    assert not [d for d in diagnostics if d.code == "X001"], diagnostics
    return [(d.code, d.location.line, d.location.column) for d in diagnostics if d.code == code]


def need_corpus(enough: bool, what: str) -> None:
    """Fail when the corpus offers too few sites; skip instead when only the bundled spec is here."""
    if not enough:
        if shared_spec_root() is None:
            pytest.skip(f"{what}: the bundled spec offers none; set OA_SHARED_SPEC for the shared corpus")
        raise AssertionError(what)


def check_rule(code: str, make) -> None:
    found = sites(code, make)
    need_corpus(bool(found), f"no fault site for {code} in the corpus")
    for site in found:
        assert findings(site, code) == [(code, *site.expected)], site.id


# --------------------------------------------------------------------------------------------
# Text surgery at AST spans


def source_of(text: str, node: Scalar) -> str:
    """The scalar as written at its span (with its quotes, if quoted)."""
    line = text.splitlines()[node.span.line - 1]
    start = node.span.column - 1
    if node.quoted:
        return line[start : line.index(line[start], start + 1) + 1]
    written = "null" if node.value is None else str(node.value).lower() if isinstance(node.value, bool) else str(node.value)
    assert line[start:].startswith(written), (line, written)
    return written


def replace_at(text: str, line: int, column: int, old: str, new: str) -> str:
    lines = text.splitlines(keepends=True)
    current = lines[line - 1]
    assert current[column - 1 :].startswith(old), (current, old)
    lines[line - 1] = current[: column - 1] + new + current[column - 1 + len(old) :]
    return "".join(lines)


def replace_scalar(text: str, node: Scalar, new: str) -> str:
    return replace_at(text, node.span.line, node.span.column, source_of(text, node), new)


def replace_key(text: str, mapping: Mapping | Section, key: str, new: str) -> str | None:
    span = mapping.key_span(key)
    line = text.splitlines()[span.line - 1]
    if not line[span.column - 1 :].startswith(key):
        return None  # a quoted key: not worth the trouble
    return replace_at(text, span.line, span.column, key, new)


def plain(node: Node | None) -> bool:
    """A plain (unquoted) string scalar — safe to rewrite by its text."""
    return type(node) is Scalar and isinstance(node.value, str) and not node.quoted


def clean_scenarios(read: Read):
    """The fixture's scenarios, unless some case expects an error (their findings are suppressed)."""
    contexts = FixtureContext(read.ref.path, read.ref.capability, read.fixture).scenarios
    return [] if any(ctx.expected_errors for ctx in contexts) else contexts


# --------------------------------------------------------------------------------------------
# G — graph references


def test_g001_entry_not_declared():
    def make(read):
        for ctx in clean_scenarios(read):
            if ctx.main is not None and plain(ctx.main.entry):
                yield replace_scalar(read.text, ctx.main.entry, "no_such_entry_node"), (ctx.main.entry.span.line, ctx.main.entry.span.column)

    check_rule("G001", make)


def test_g001_entry_missing_points_at_nodes():
    def make(read):
        if read.fixture.get("cases") is not None:
            return
        for ctx in clean_scenarios(read):
            graph = ctx.main
            if graph is None or not plain(graph.entry):
                continue
            lines = read.text.splitlines(keepends=True)
            span = graph.entry.span
            if not lines[span.line - 1].lstrip().startswith("entry:"):
                continue
            del lines[span.line - 1]
            anchor = graph.anchor
            line = anchor.line - 1 if anchor.line > span.line else anchor.line
            yield "".join(lines), (line, anchor.column)

    check_rule("G001", make)


def _edges(read):
    for ctx in clean_scenarios(read):
        for graph in ctx.graphs():
            for edge in graph.edge_items():
                yield ctx, graph, edge


def test_g002_edge_target_not_declared():
    def make(read):
        for _, _, edge in _edges(read):
            target = edge.get("to")
            if plain(target) and target.value != "END":
                yield replace_scalar(read.text, target, "ghost_node_x"), (target.span.line, target.span.column)

    check_rule("G002", make)


def test_g002_edge_source_not_declared():
    def make(read):
        for _, _, edge in _edges(read):
            source = edge.get("from")
            if plain(source):
                yield replace_scalar(read.text, source, "ghost_node_x"), (source.span.line, source.span.column)

    check_rule("G002", make)


def test_g003_orphan_node_is_unreachable():
    def make(read):
        for ctx in clean_scenarios(read):
            nodes = ctx.main.nodes if ctx.main is not None else None
            if nodes is None or not nodes.keys:
                continue
            span = nodes.key_spans[0]
            if read.text.splitlines()[span.line - 1][: span.column - 1].strip():
                continue  # a flow mapping: no line of its own to insert before
            yield insert_at(read.text, (span.line, span.column), "zz_orphan_node: {noop: true}"), (span.line, span.column)

    check_rule("G003", make)


def test_g004_second_outgoing_edge():
    def make(read):
        for _, _, edge in _edges(read):
            source = edge.get("from")
            line = read.text.splitlines()[edge.span.line - 1]
            if plain(source) and line.lstrip().startswith("- {") and line.rstrip().endswith("}") and source.span.line == edge.span.line:
                lines = read.text.splitlines(keepends=True)
                lines.insert(edge.span.line, lines[edge.span.line - 1])
                yield "".join(lines), (source.span.line + 1, source.span.column)

    check_rule("G004", make)


def test_g005_subgraph_not_declared():
    def make(read):
        for ctx in clean_scenarios(read):
            for family in ("node", "fan_out", "branch"):
                for section in ctx.sections(family):
                    reference = section.get("subgraph")
                    if plain(reference):
                        yield replace_scalar(read.text, reference, "no_such_subgraph_x"), (reference.span.line, reference.span.column)

    check_rule("G005", make)


def test_g006_fan_out_field_not_declared():
    def make(read):
        for ctx in clean_scenarios(read):
            for fan_out in ctx.sections("fan_out"):
                for directive in ("items_field", "item_field", "collect_field", "target_field"):
                    value = fan_out.get(directive)
                    if plain(value):
                        yield replace_scalar(read.text, value, "undeclared_field_x"), (value.span.line, value.span.column)

    check_rule("G006", make)


def test_g006_swapped_inputs_map():
    def make(read):
        for ctx in clean_scenarios(read):
            for node in ctx.sections("node"):
                inputs = node.get("inputs")
                if node.get("subgraph") is None or type(inputs) is not Mapping or not inputs.keys:
                    continue
                key = inputs.keys[0]
                replaced = replace_key(read.text, inputs, key, "undeclared_field_x")
                if replaced is not None:
                    span = inputs.key_spans[0]
                    yield replaced, (span.line, span.column)

    check_rule("G006", make)


def test_g007_both_projection_forms():
    def make(read):
        for ctx in clean_scenarios(read):
            for section, site in block_sections(read.fixture, read.text):
                if section.family != "node" or section.get("subgraph") is None:
                    continue
                maps = [name for name in section.order if name in ("inputs", "outputs", "mapping")]
                if maps and site == (section.key_span(section.order[0]).line, section.key_span(section.order[0]).column):
                    span = section.key_span(maps[0])
                    yield insert_at(read.text, site, "projects_in: []"), (span.line + 1, span.column)

    check_rule("G007", make)


def test_g008_condition_target_not_declared():
    def make(read):
        for _, _, edge in _edges(read):
            condition = edge.get("condition")
            target = condition.get("else") if isinstance(condition, Section) else None
            if plain(target) and target.value != "END":
                yield replace_scalar(read.text, target, "ghost_branch_x"), (target.span.line, target.span.column)

    check_rule("G008", make)


# --------------------------------------------------------------------------------------------
# S — state schema


def _fields(read):
    for ctx in clean_scenarios(read):
        for name, decl in ctx.field_decls():
            yield name, decl


def test_s001_type_string_does_not_parse():
    def make(read):
        for _, decl in _fields(read):
            declared = decl.get("type")
            if isinstance(declared, TypeRef) and declared.spelling == "int" and read.text.splitlines()[declared.span.line - 1][declared.span.column - 1 :].startswith("int"):
                broken = replace_at(read.text, declared.span.line, declared.span.column, "int", '"list<int"')
                yield broken, (declared.span.line, declared.span.column + len('"list<int'))

    check_rule("S001", make)


def test_s001_type_arguments_on_a_primitive():
    def make(read):
        for _, decl in _fields(read):
            declared = decl.get("type")
            if isinstance(declared, TypeRef) and declared.spelling == "string" and read.text.splitlines()[declared.span.line - 1][declared.span.column - 1 :].startswith("string"):
                yield replace_at(read.text, declared.span.line, declared.span.column, "string", "string<int>"), (declared.span.line, declared.span.column)

    check_rule("S001", make)


def test_s002_default_of_the_wrong_type():
    def make(read):
        for _, decl in _fields(read):
            declared, default = decl.get("type"), decl.get("default")
            if isinstance(declared, TypeRef) and declared.name == "int" and type(default) is Scalar and type(default.value) is int:
                yield replace_scalar(read.text, default, '"zero"'), (default.span.line, default.span.column)

    check_rule("S002", make)


def test_s002_list_item_of_the_wrong_type():
    def make(read):
        for _, decl in _fields(read):
            declared, default = decl.get("type"), decl.get("default")
            if isinstance(declared, TypeRef) and declared.spelling == "list<string>" and type(default) is Sequence and not default.items:
                line = read.text.splitlines()[default.span.line - 1]
                if line[default.span.column - 1 :].startswith("[]"):
                    yield replace_at(read.text, default.span.line, default.span.column, "[]", "[ok, 7]"), (default.span.line, default.span.column + 5)

    check_rule("S002", make)


def _string_reducers(read, name="append"):
    for field, decl in _fields(read):
        reducer = decl.get("reducer")
        if plain(reducer) and reducer.value == name:
            yield field, decl, reducer


def test_s003_unknown_reducer():
    def make(read):
        for _, _, reducer in _string_reducers(read):
            yield replace_scalar(read.text, reducer, "apend"), (reducer.span.line, reducer.span.column)

    check_rule("S003", make)


def test_s004_factory_reducer_without_its_arguments():
    def make(read):
        for _, _, reducer in _string_reducers(read):
            yield replace_scalar(read.text, reducer, "merge_by_key"), (reducer.span.line, reducer.span.column)

    check_rule("S004", make)


def test_s004_factory_argument_out_of_range():
    def make(read):
        for _, _, reducer in _string_reducers(read):
            written = "{bounded_append: {max_len: 0}}"
            yield replace_scalar(read.text, reducer, written), (reducer.span.line, reducer.span.column + written.index("0"))

    check_rule("S004", make)


def test_s005_second_reducer():
    def make(read):
        for _, decl, reducer in _string_reducers(read):
            line = read.text.splitlines()[reducer.span.line - 1]
            if "{" in line[: reducer.span.column] and decl.span.line == reducer.span.line:
                yield replace_scalar(read.text, reducer, "append, alt_reducer: merge"), (reducer.span.line, reducer.span.column + len("append, alt_reducer: "))

    check_rule("S005", make)


# --------------------------------------------------------------------------------------------
# E — expectations


def test_e001_final_state_field_not_declared():
    def make(read):
        for ctx in clean_scenarios(read):
            for expected in ctx.sections("expected"):
                final = expected.get("final_state")
                if type(final) is Mapping and final.keys and isinstance(final.keys[0], str):
                    replaced = replace_key(read.text, final, final.keys[0], "undeclared_field_x")
                    if replaced is not None and ctx.main is not None and ctx.main.field_names is not None:
                        yield replaced, (final.key_spans[0].line, final.key_spans[0].column)

    check_rule("E001", make)


def test_e002_initial_state_field_not_declared():
    def make(read):
        for ctx in clean_scenarios(read):
            state = ctx.view.initial_state
            if type(state) is Mapping and state.keys and ctx.main is not None and ctx.main.field_names is not None:
                replaced = replace_key(read.text, state, state.keys[0], "undeclared_field_x")
                if replaced is not None:
                    yield replaced, (state.key_spans[0].line, state.key_spans[0].column)

    check_rule("E002", make)


def test_e003_execution_order_names_no_node():
    def make(read):
        for ctx in clean_scenarios(read):
            for expected in ctx.sections("expected"):
                order = expected.get("execution_order")
                if type(order) is Sequence and order.items and plain(order.items[-1]):
                    item = order.items[-1]
                    yield replace_scalar(read.text, item, "ghost_node_x"), (item.span.line, item.span.column)

    check_rule("E003", make)


def _final_values(read):
    for ctx in clean_scenarios(read):
        yield from _final_values_of(ctx)


def _final_values_of(ctx):
    for expected in ctx.sections("expected"):
        final = expected.get("final_state")
        if type(final) is Mapping:
            for value in final.values:
                if type(value) is Scalar and isinstance(value.value, (int, str)) and not isinstance(value.value, bool):
                    yield value


@pytest.mark.parametrize("token,offset", [('"<uuuid>"', 2), ('"<uuid"', 6), ('"<uuid-3>"', 1)])
def test_e004_malformed_value_token(token, offset):
    def make(read):
        for value in _final_values(read):
            yield replace_scalar(read.text, value, token), (value.span.line, value.span.column + offset)

    check_rule("E004", make)


def test_e005_binding_token_used_once():
    def make(read):
        for value in _final_values(read):
            yield replace_scalar(read.text, value, '"<trace_id_lonely>"'), (value.span.line, value.span.column + 1)

    check_rule("E005", make)


def test_e005_binding_token_used_twice_binds_and_is_fine():
    def pairs():
        for read in READS:
            for ctx in clean_scenarios(read):  # two values of ONE case: a binding is per case
                values = list(itertools.islice(_final_values_of(ctx), 2))
                if len(values) == 2 and values[0].span.line != values[1].span.line:
                    yield read, values

    found = next(pairs(), None)
    need_corpus(found is not None, "no case with two final_state scalars on different lines")
    read, values = found
    text = read.text
    for value in sorted(values, key=lambda v: v.span, reverse=True):
        text = replace_scalar(text, value, '"<trace_id_shared>"')
    diagnostics = lint_file(read.ref.path, text, read.ref.capability)
    assert not [d for d in diagnostics if d.code in ("E004", "E005", "X001")], diagnostics


def _compile_error_cases(read):
    for ctx in FixtureContext(read.ref.path, read.ref.capability, read.fixture).scenarios:
        declared = ctx.view.expected_compile_error
        if plain(declared):
            yield ctx, declared


def test_e006_compile_error_case_without_the_error():
    def make(read):
        for ctx, declared in _compile_error_cases(read):
            other = "multiple_outgoing_edges" if declared.value != "multiple_outgoing_edges" else "unreachable_node"
            span = ctx.scenario.where("expected_compile_error").key_span("expected_compile_error")
            yield replace_scalar(read.text, declared, other), (span.line, span.column)

    check_rule("E006", make)


def test_compile_error_cases_suppress_exactly_their_category():
    checked = 0
    for read in READS:
        for ctx, declared in _compile_error_cases(read):
            rules = [rule for rule in BY_CODE.values() if rule.expected_as == declared.value]
            if not rules:
                continue  # a category no rule checks statically
            assert not [d for d in read.baseline if d.code in {r.code for r in rules}], read.ref.display
            # Expect another category instead: the case's own error is now a finding.
            text = replace_scalar(read.text, declared, "conflicting_projection_forms" if declared.value != "conflicting_projection_forms" else "dangling_edge")
            after = lint_file(read.ref.path, text, read.ref.capability)
            assert {d.code for d in after} & {r.code for r in rules}, (read.ref.display, declared.value)
            checked += 1
    need_corpus(checked >= 5, f"only {checked} compile-error cases checked")


# --------------------------------------------------------------------------------------------
# P — predicates


def test_p001_reports_exactly_the_predicates_the_catalogue_cannot_resolve(monkeypatch):
    from oa_conformance.assertions import catalogue

    def resolves(name, capability):
        return catalogue.resolve(capability, name) is not None

    def unresolved(read):
        found = FixtureContext(read.ref.path, read.ref.capability, read.fixture).predicates
        return [p for p in found if not resolves(p.name, read.ref.capability)]

    read = next((r for r in READS if unresolved(r)), None)
    need_corpus(read is not None, "no fixture names a predicate the catalogue cannot resolve")
    reported = {(d.location.line, d.location.column) for d in read.baseline if d.code == "P001"}
    assert reported == {(p.span.line, p.span.column) for p in unresolved(read)}

    # Once the catalogue resolves a name (for the fixture's capability), it is no longer reported.
    known = unresolved(read)[0].name
    original = catalogue.resolve
    monkeypatch.setattr(catalogue, "resolve", lambda capability, name: object() if name == known else original(capability, name))
    after = lint_file(read.ref.path, read.text, read.ref.capability)
    assert not [d for d in after if d.code == "P001" and f"{known!r}" in d.message]


# --------------------------------------------------------------------------------------------
# Y and V — the static passes, re-coded


def _first_block_site(read):
    for section, site in block_sections(read.fixture, read.text):
        return section, site
    return None, None


def test_v001_unknown_directive():
    def make(read):
        _, site = _first_block_site(read)
        if site is not None:
            yield insert_at(read.text, site, "bogus_directive_x: 1"), site

    check_rule("V001", make)


def test_v002_wrong_shape():
    def make(read):
        for ctx in clean_scenarios(read):
            if ctx.main is not None and plain(ctx.main.entry):
                yield replace_scalar(read.text, ctx.main.entry, "[a, b]"), (ctx.main.entry.span.line, ctx.main.entry.span.column)

    check_rule("V002", make)


def test_v003_version_too_new():
    def make(read):
        yield 'conformance_version: "99.0.0"\n' + read.text, (1, 22)

    check_rule("V003", make)


def test_y001_invalid_yaml():
    def make(read):
        lines = read.text.splitlines(keepends=True)
        index = next(i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#"))
        lines.insert(index, "entry: [unclosed\n")
        yield "".join(lines), None

    for site in sites("Y001", make):
        found = findings(site, "Y001")
        assert len(found) == 1 and found[0][1] > 0 and found[0][2] > 0, site.id


def test_y002_not_utf8():
    read = READS[0]
    data = b"description: caf\xe9\n" + read.text.encode("utf-8")
    diagnostics = lint_file(read.ref.path, data, read.ref.capability)
    assert [(d.code, d.location.line, d.location.column, d.category) for d in diagnostics if d.code.startswith("Y")] == [("Y002", 1, 17, "fixture_schema_invalid")]


@pytest.mark.parametrize("content,code,where", [("# only a comment\n", "Y003", (1, 1)), ("- a\n- b\n", "Y004", (1, 1))])
def test_y003_y004_empty_and_not_a_mapping(content, code, where):
    read = READS[0]
    diagnostics = lint_file(read.ref.path, content, read.ref.capability)
    assert [(d.code, d.location.line, d.location.column) for d in diagnostics if d.code.startswith("Y")] == [(code, *where)]


def test_y005_duplicate_key():
    def make(read):
        for section, _ in block_sections(read.fixture, read.text):
            if len(section.order) > 1:
                span = section.key_span(section.order[1])
                yield insert_at(read.text, (span.line, span.column), f"{section.order[1]}: null"), (span.line + 1, span.column)
                return

    check_rule("Y005", make)


def test_y006_unreadable(tmp_path):
    missing = tmp_path / "conformance" / "001-gone.yaml"
    diagnostics = lint_file(str(missing))
    assert [(d.code, d.location.line, d.location.column) for d in diagnostics if d.code.startswith("Y")] == [("Y006", 1, 1)]


def test_static_diagnostics_keep_their_category():
    read = READS[0]
    _, site = _first_block_site(read)
    diagnostics = lint_file(read.ref.path, insert_at(read.text, site, "bogus_directive_x: 1"), read.ref.capability)
    assert [(d.code, d.category, d.severity) for d in diagnostics if d.code == "V001"] == [("V001", "fixture_directive_unknown", "error")]
