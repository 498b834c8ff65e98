"""The lark mini-languages: what parses into which node, and where errors point."""

from __future__ import annotations

import pytest

from oa_conformance.ast.nodes import BindingToken, FormatToken
from oa_conformance.diagnostics import Span
from oa_conformance.grammar import GrammarError, check, looks_like_token, parse_placeholder, parse_token, parse_type


def spelled(ref):
    return (ref.name, [spelled(a) for a in ref.args])


@pytest.mark.parametrize(
    "text,expected",
    [
        ("int", ("int", [])),
        ("str", ("string", [])),
        ("list", ("list", [])),
        ("list<list<int>>", ("list", [("list", [("int", [])])])),
        ("dict<string,record>", ("dict", [("string", []), ("record", [])])),
        ("list<dict<string, string>>", ("list", [("dict", [("string", []), ("string", [])])])),
        ("list[ChatMessage]", ("list", [("ChatMessage", [])])),
        ("list<record>", ("list", [("record", [])])),
    ],
)
def test_type_strings(text, expected):
    assert spelled(parse_type(text)) == expected


def test_type_nodes_get_spans_inside_the_string():
    ref = parse_type("dict<string,record>", Span("f.yaml", 3, 10))
    assert ref.span == Span("f.yaml", 3, 10)
    assert [a.span.column for a in ref.args] == [15, 22]
    assert ref.args[1].spelling == "record" and ref.spelling == "dict<string,record>"


@pytest.mark.parametrize(
    "text,offset",
    [("list<int", 8), ("list<>", 5), ("list<int,int>", 0), ("dict<int>", 0), ("list<strng>", 5), ("Optional[int]", 0), ("list<int]", 8), ("", 0), ("1nt", 0)],
)
def test_bad_type_strings(text, offset):
    with pytest.raises(GrammarError) as error:
        parse_type(text)
    assert error.value.offset == offset
    assert check("type", text).offset == offset


@pytest.mark.parametrize(
    "text,cls,fields",
    [
        ("<uuid>", FormatToken, ("uuid", None)),
        ("<uuid-hex>", FormatToken, ("uuid-hex", None)),
        ("<uuid-hex-5-a>", FormatToken, ("uuid-hex", "5-a")),
        ("<any-string>", FormatToken, ("any-string", None)),
        ("<timestamp>", FormatToken, ("timestamp", None)),
        ("<trace_id_instance_0>", BindingToken, ("trace_id", "instance_0")),
        ("<corr_id_1>", BindingToken, ("corr_id", "1")),
        ("<invocation_id_parent>", BindingToken, ("invocation_id", "parent")),
    ],
)
def test_value_tokens(text, cls, fields):
    token = parse_token(text)
    assert isinstance(token, cls) and token.text == text
    assert (token.kind, token.label) == fields if cls is FormatToken else (token.stem, token.label) == fields


@pytest.mark.parametrize("text,offset", [("<uuuid>", 1), ("<uuid", 5), ("<trace_id>", 1), ("<>", 1), ("<a--b>", 3)])
def test_bad_value_tokens(text, offset):
    assert looks_like_token(text)
    with pytest.raises(GrammarError) as error:
        parse_token(text)
    assert error.value.offset == offset


@pytest.mark.parametrize("text", ["plain", "<b>bold</b>", "a <uuid>", "<from previous suspended outcome>", "<"])
def test_strings_that_are_not_tokens(text):
    assert not looks_like_token(text)


@pytest.mark.parametrize(
    "text,source,outcome",
    [
        ("<from previous suspended outcome>", "previous", "suspended"),
        ("<invocation_id from initial completed invoke>", "initial", "completed"),
        ("<from tx_initial_suspends suspended outcome>", "tx_initial_suspends", "suspended"),
        ("<from previous>", "previous", None),
    ],
)
def test_resume_placeholders(text, source, outcome):
    placeholder = parse_placeholder(text)
    assert (placeholder.attribute, placeholder.source, placeholder.outcome) == ("invocation_id", source, outcome)


@pytest.mark.parametrize("text", ["<previous suspended outcome>", "<from>", "<from previous suspended outcomes>", "<run_id from previous>"])
def test_bad_resume_placeholders(text):
    with pytest.raises(GrammarError):
        parse_placeholder(text)


def test_cached_parses_still_place_each_occurrence():
    first = parse_token("<uuid>", Span("a.yaml", 1, 1))
    second = parse_token("<uuid>", Span("b.yaml", 9, 9))
    assert first == second and first.span != second.span
