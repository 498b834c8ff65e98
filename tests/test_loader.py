"""The loader: YAML text → immutable value tree, and every way that can go wrong."""

from __future__ import annotations

import time

import pytest
from pyrsistent import PClass

from oa_conformance.interpreter.static.loader import load_bytes
from oa_conformance.ast.nodes import Mapping, Scalar, Sequence
from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID, Span


def only_problem(text: bytes | str):
    result = load_bytes(text, "f.yaml")
    assert result.tree is None or result.diagnostics
    assert len(result.diagnostics) >= 1, result
    return result.diagnostics[0]


def test_values_keep_order_types_and_one_based_spans():
    result = load_bytes("b: 1\na: [x, 2.5, true, null]\nc: {k: 'v'}\n", "f.yaml")
    tree = result.tree
    assert result.diagnostics == ()
    assert tree.keys == ("b", "a", "c")
    assert tree.get("b") == Scalar(value=1)
    items = tree.get("a").items
    assert [i.value for i in items] == ["x", 2.5, True, None]
    assert tree.key_span("a").line == 2 and tree.key_span("a").column == 1
    assert items[1].span.line == 2 and items[1].span.column == 8
    assert tree.get("c").get("k").quoted is True


def test_nodes_are_immutable_and_equal_regardless_of_span():
    first = load_bytes("a: 1\n", "one.yaml").tree
    second = load_bytes("\n\n   a:    1\n", "two.yaml").tree
    assert first == second and hash(first) == hash(second)
    assert first.span != second.get("a").span
    with pytest.raises(AttributeError):
        first.keys = ("z",)  # type: ignore[misc]
    assert isinstance(first, PClass)
    assert first.set(keys=("z",)).keys == ("z",) and first.keys == ("a",)


def test_duplicate_key_is_rejected_at_the_second_occurrence():
    problem = only_problem("entry: a\nnodes: {}\nentry: b\n")
    assert (problem.category, problem.location.line, problem.location.column) == (FIXTURE_SCHEMA_INVALID, 3, 1)
    assert "duplicate key 'entry'" in problem.message and "line 1" in problem.message


def test_nested_duplicate_key_is_found_too():
    problem = only_problem("nodes:\n  a: {update: {v: 1}, update: {v: 2}}\n")
    assert (problem.location.line, problem.location.column) == (2, 23)


def test_invalid_yaml_points_at_the_problem():
    problem = only_problem("a: [1, 2\nb: 3\n")
    assert problem.category == FIXTURE_SCHEMA_INVALID
    # an unclosed list is located where it opens; the message says where the parser stopped
    assert (problem.location.line, problem.location.column) == (1, 4) and "invalid YAML" in problem.message and "at line 2, column 2" in problem.message


def test_non_utf8_bytes_are_located():
    problem = only_problem(b"a: 1\nb: caf\xe9\n")
    assert (problem.location.line, problem.location.column) == (2, 7)
    assert "not valid UTF-8" in problem.message


@pytest.mark.parametrize("text", ["", "   \n", "# only a comment\n"])
def test_empty_file(text):
    problem = only_problem(text)
    assert (problem.category, problem.location.line, problem.location.column) == (FIXTURE_SCHEMA_INVALID, 1, 1)
    assert "empty" in problem.message


def test_several_documents():
    problem = only_problem("a: 1\n---\nb: 2\n")
    assert problem.category == FIXTURE_SCHEMA_INVALID and "several YAML documents" in problem.message
    assert problem.location.line == 2


@pytest.mark.parametrize("text,kind", [("- a\n- b\n", "a list"), ("just text\n", "a single scalar")])
def test_top_level_must_be_a_mapping(text, kind):
    problem = only_problem(text)
    assert kind in problem.message and problem.location.line == 1


@pytest.mark.parametrize(
    "text",
    [
        "a: !!python/object/apply:os.system ['true']\n",
        "a: !local 1\n",
        "a: !!set {x, y}\n",
        "a: !!binary aGk=\n",
    ],
)
def test_object_constructing_tags_are_rejected(text):
    problem = only_problem(text)
    assert problem.category == FIXTURE_SCHEMA_INVALID and "tag" in problem.message
    assert problem.location.line == 1


def test_merge_keys_are_rejected():
    problem = only_problem("base: &b {x: 1}\nother:\n  <<: *b\n")
    assert problem.location.line == 3 and "merge keys" in problem.message


def test_billion_laughs_fails_fast():
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 10):
        refs = ", ".join([f"*l{level - 1}"] * 10)
        lines.append(f"l{level}: &l{level} [{refs}]")
    started = time.perf_counter()
    problem = only_problem("\n".join(lines) + "\n")
    elapsed = time.perf_counter() - started
    assert "billion-laughs" in problem.message
    assert elapsed < 5  # a generous bound: expansion would take hours and gigabytes


def test_small_aliases_are_shared_not_copied():
    tree = load_bytes("a: &x {k: [1, 2]}\nb: *x\n", "f.yaml").tree
    assert tree.get("a") is tree.get("b")


def test_recursive_alias_is_rejected():
    problem = only_problem("a: &x [1, *x]\n")
    assert "recursive alias" in problem.message


def test_deep_nesting_is_rejected_not_a_recursion_error():
    problem = only_problem("a: " + "[" * 150 + "]" * 150 + "\n")
    assert "nesting deeper" in problem.message


# The YAML 1.2 core schema (YAML 1.2.2 §10.3.2), written out independently of the loader.
CORE_SCHEMA = [
    ("012", 12), ("010", 10), ("08", 8), ("-0", 0), ("+12", 12), ("0o17", 15), ("0x1F", 31), ("0", 0),
    ("1e3", 1000.0), (".5", 0.5), ("-1.5E-2", -0.015), ("1.", 1.0), (".inf", float("inf")), ("-.Inf", float("-inf")),
    ("+.INF", float("inf")), ("true", True), ("False", False), ("TRUE", True), ("~", None), ("null", None),
    ("NULL", None), ("yes", "yes"), ("on", "on"), ("Off", "Off"), ("y", "y"), ("1:20", "1:20"),
    ("2024-01-01", "2024-01-01"), ("1_000", "1_000"), ("0b101", "0b101"), ("0O17", "0O17"), ("0X1F", "0X1F"),
    ("tRue", "tRue"), ("nULL", "nULL"), (".NaN", "nan"), ("0o8", "0o8"), ("1e", "1e"), ("+", "+"), (".", "."),
]


@pytest.mark.parametrize("text,value", CORE_SCHEMA)
def test_plain_scalars_follow_the_yaml_12_core_schema(text, value):
    (scalar,) = load_bytes(f"a: [{text}]\n", "f.yaml").tree.get("a").items
    if value == "nan":
        assert scalar.value != scalar.value
    else:
        assert scalar.value == value and type(scalar.value) is type(value)


def test_quoted_scalars_stay_strings():
    tree = load_bytes("a: '012'\nb: \"true\"\nc: '~'\n", "f.yaml").tree
    assert [v.value for v in tree.values] == ["012", "true", "~"]


def test_value_tree_classes():
    tree = load_bytes("a: {b: [1]}\n", "f.yaml").tree
    assert isinstance(tree, Mapping)
    assert isinstance(tree.get("a").get("b"), Sequence)


def test_the_no_op_resolver_hooks_are_really_no_ops():
    # The loader replaces libyaml's per-node path-resolver hooks with C no-ops; that is only right
    # while the safe loader registers no path resolvers.
    import yaml

    from oa_conformance.interpreter.static import loader, yaml_compose

    assert not yaml.CSafeLoader.yaml_path_resolvers
    assert not yaml_compose._Composer.yaml_path_resolvers
    text = "a: [1, {b: c, d: [true, null, 2.5]}]\nk: 'x'\n"
    assert loader.load_bytes(text, "f.yaml").tree == loader.load_bytes(text.replace("'x'", '"x"'), "g.yaml").tree
    assert yaml.compose(text, Loader=yaml.CSafeLoader).value[0][1].tag == yaml_compose.compose(text).value[0][1].tag


def _slow_path_value(text: str):
    """The same scalar through PyYAML's pure-Python reader with the loader's resolver."""
    import yaml

    from oa_conformance.interpreter.static import yaml_compose

    class SlowComposer(yaml.SafeLoader):
        resolve = staticmethod(yaml_compose._plain_resolver.resolve)

    node = SlowComposer(f"a: [{text}]\n").get_single_node().value[0][1].value[0]
    return yaml_compose.core_value(node.tag, node.value)


def _same(left, right) -> bool:
    if isinstance(left, float) and isinstance(right, float) and left != left:
        return right != right
    return left == right and type(left) is type(right)


@pytest.mark.parametrize("text,value", CORE_SCHEMA)
def test_the_slow_path_agrees_on_the_table(text, value):
    assert _same(_slow_path_value(text), load_bytes(f"a: [{text}]\n", "f.yaml").tree.get("a").items[0].value)


def test_fast_path_equals_slow_path_on_generated_scalars():
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    plain = st.text(alphabet="0123456789+-.eExXoObBaAfFtTrRuUlLsSnNiI~_:", min_size=1, max_size=10)

    @hypothesis.settings(max_examples=400, deadline=None)
    @hypothesis.given(plain)
    def agree(text):
        fast = load_bytes(f"a: [{text}]\n", "f.yaml")
        hypothesis.assume(fast.tree is not None)
        assert _same(fast.tree.get("a").items[0].value, _slow_path_value(text)), text

    agree()


def test_the_token_gate_is_the_one_pattern_it_stands_for():
    """The loader's "may this text hold a value token?" gate answers as the one regex it is a faster
    form of: a ``<`` opening a word after whitespace, a quote, a flow indicator or a colon."""
    import re

    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import strategies as st

    from oa_conformance.interpreter.static.yaml_compose import _ESCAPED_LT, may_hold_tokens

    opening = re.compile(r"""[\s"'\[{,:]<[\w>-]""")

    def reference(text):
        return (text.startswith("<") or opening.search(text) is not None) or _ESCAPED_LT.search(text) is not None

    @hypothesis.settings(max_examples=2000, deadline=None)
    @hypothesis.given(st.text(alphabet="<>-_aZ9 \t\n\u00a0\u2003\"'[]{},:;x\\3cCu0", max_size=12))
    def agree(text):
        assert may_hold_tokens(text) == reference(text), repr(text)

    agree()


@pytest.mark.parametrize("span", [Span("spec/x/conformance/001-a.yaml", 3, 7), Span("/tmp/a:b/c.yaml", 12, 1),
                                  Span("oa-expectations.toml", 40, None)])
def test_a_span_is_written_as_path_line_col_and_read_back(span):
    """Spans stay spans until printed; a stored JSON report's text reads back into the same span."""
    written = str(span)
    assert written == f"{span.path}:{span.line}" + (f":{span.column}" if span.column is not None else "")
    assert Span.read(written) == span


def test_text_naming_no_line_is_no_span():
    assert Span.read("spec/x/conformance/001-a.yaml") is None
