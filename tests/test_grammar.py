"""The lark mini-languages: what parses into which node, and where errors point."""

from __future__ import annotations

import pytest

from oa_conformance.ast.nodes import BindingToken, FormatToken
from oa_conformance.model.diagnostics import Span
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


# ---------------------------------------------------------------------------------------------
# The shortcuts read what lark reads (oa_conformance.grammar's docstring): every string below is
# read both ways — the package's reader (shortcut, else lark) and lark alone — and must give the
# same node or the same error at the same offset.


def _outcome(read, text):
    try:
        return ("node", read(text))
    except GrammarError as error:
        return ("error", error.message, error.offset)


def _strings(pieces, longest, samples, seed):
    """Every string of up to two pieces, then ``samples`` seeded random ones of up to ``longest``."""
    import itertools
    import random

    found = {"".join(combo) for n in (1, 2) for combo in itertools.product(pieces, repeat=n)}
    chance = random.Random(seed)
    while len(found) < samples:
        found.add("".join(chance.choice(pieces) for _ in range(chance.randint(1, longest))))
    return sorted(found)


TYPE_PIECES = ["list", "dict", "int", "str", "string", "record", "List", "x1", "_a", "Optional", "1nt", "<", ">", "[", "]",
               ",", " ", "<int>", "<string,int>", "[ChatMessage]", "<list<int>>", ",int", "-"]
TOKEN_PIECES = ["<", ">", "uuid", "hex", "any", "string", "trace", "id", "corr", "invocation", "x", "1", "-", "_", "--", " ", "é"]
PLACEHOLDER_PIECES = ["<", ">", "from", "invocation_id", "previous", "initial", "tx_1", "suspended", "completed", "errored",
                      "outcome", "invoke", "invocation", "run", "runner", " ", "  ", "x", "9"]


def test_the_type_shortcut_reads_what_lark_reads():
    from oa_conformance import grammar
    from oa_conformance.grammar import lark_parsers

    strings = _strings(TYPE_PIECES, 7, 6000, 1) + ["list<dict<string,string>>", "list<" * 40 + "int" + ">" * 40]
    shortcut_read = 0
    for text in strings:
        assert _outcome(grammar._type_shape.__wrapped__, text) == _outcome(lark_parsers.type_shape, text), text
        parsed = grammar._type_syntax(text, 0)
        shortcut_read += parsed is not None and parsed[1] == len(text)
    assert shortcut_read > 300  # the shortcut is exercised, not bypassed


def test_the_token_shortcut_reads_what_lark_reads():
    from oa_conformance import grammar
    from oa_conformance.grammar import lark_parsers

    import itertools

    words = ["uuid", "hex", "any", "string", "trace", "id", "x", "1", "-", "_"]
    bracketed = ["<" + "".join(combo) + ">" for n in range(1, 5) for combo in itertools.product(words, repeat=n)]
    strings = bracketed + _strings(TOKEN_PIECES, 8, 6000, 2)
    for text in strings:
        assert _outcome(grammar._token.__wrapped__, text) == _outcome(lark_parsers.token, text), text
    assert sum(grammar._WELL_FORMED_TOKEN.match(text) is not None for text in strings) > 1000


def test_the_placeholder_shortcut_reads_what_lark_reads():
    import itertools

    from oa_conformance import grammar
    from oa_conformance.grammar import lark_parsers

    words = ["invocation_id", "from", "previous", "suspended", "outcome", "invoke", "invocation", "run", "runner", "x"]
    spelled = ["<" + " ".join(combo) + ">" for n in range(1, 6) for combo in itertools.product(words, repeat=n)
               if "from" in combo]  # the single-spaced strings the shortcut is about, in every order
    strings = spelled + _strings(PLACEHOLDER_PIECES, 9, 6000, 3)
    for text in strings:
        assert _outcome(grammar._placeholder.__wrapped__, text) == _outcome(lark_parsers.placeholder, text), text
    assert sum(grammar._PLAIN_PLACEHOLDER.match(text) is not None for text in strings) > 100


def test_linting_plain_fixtures_never_imports_lark():
    """oa-lint over fixtures whose strings the shortcuts read (the bundled spec) leaves lark
    unimported; a type written with spaces is lark's, and imports it."""
    import subprocess
    import sys

    from .conftest import BUNDLED_SPEC

    probe = (
        "import sys\n"
        "from oa_conformance.frontends.cli.oa_lint import main\n"
        f"main([{str(BUNDLED_SPEC)!r}, '--exit-zero', '--format', 'json'])\n"
        "print('after lint:', 'lark' in sys.modules)\n"
        "from oa_conformance.grammar import parse_type\n"
        "parse_type('list< int >')\n"
        "print('after a spaced type:', 'lark' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-2:] == ["after lint: False", "after a spaced type: True"], done.stdout + done.stderr


KEYWORD_PIECES = ["graph", "engine", "-", "_", "not", "and", "or", "nothing", " ", "(", ")", "[1]", "/", ".", "x", "é", "\t", "A"]
KEYWORD_IDS = ["graph-engine/001-x[0]", "nothing", "hing", "x_and_y", "A.B", "or_x", "not_x", "engine_graph", ""]


def test_the_keyword_shortcut_reads_what_lark_reads():
    """A one-word ``-k`` (the shortcut) selects the case ids lark's matcher selects; anything else
    is lark's own reading."""
    from oa_conformance import grammar
    from oa_conformance.grammar import lark_parsers

    def selected(read, text):
        try:
            matcher = read(text)
        except GrammarError as error:
            return ("error", error.message, error.offset)
        return ("selects", [case_id for case_id in KEYWORD_IDS if matcher(case_id)])

    def by_lark(text):
        matcher = lark_parsers.keyword_matcher(text)
        return lambda case_id: matcher(case_id.lower())

    strings = _strings(KEYWORD_PIECES, 6, 4000, 4)
    for text in strings:
        assert selected(grammar.parse_keyword_expression, text) == selected(by_lark, text), text
    assert sum(grammar._PLAIN_KEYWORD.fullmatch(text) is not None for text in strings) > 300
