"""Schema, version and grammar checks, proven by injecting faults into real fixtures.

Each test takes fixtures from the shared corpus (and the bundled spec), breaks them one way, and
asserts the §9 category and the line (and column where it matters) the adapter reports.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from oa_conformance.model.diagnostics import FIXTURE_DIRECTIVE_UNKNOWN, FIXTURE_SCHEMA_INVALID, FIXTURE_VERSION_UNSUPPORTED
from oa_conformance.model.discovery import discover
from oa_conformance.pipeline import read_fixture

from .conftest import BUNDLED_SPEC, shared_spec_root
from .faults import block_sections, insert_at, replace_value

SAMPLE_EVERY = 7  # fault-inject every 7th fixture of the corpus: every directory, bounded time


def sample_fixtures():
    roots = [str(BUNDLED_SPEC)]
    shared = shared_spec_root()
    if shared is not None and (shared / "spec").is_dir():
        roots.append(str(shared))
    # Only fixtures that read cleanly (a fixture defect such as 052's undefined record type is
    # test_corpus.py's business), so which ones are sampled does not depend on the corpus's defects.
    refs = [ref for ref in discover(roots) if read_fixture(ref.path, capability=ref.capability).ok]
    return [ref for index, ref in enumerate(refs) if index % SAMPLE_EVERY == 0]


FIXTURES = sample_fixtures()
IDS = [ref.display for ref in FIXTURES]


def read_text(ref):
    text = Path(ref.path).read_text(encoding="utf-8")
    result = read_fixture(ref.path, text, capability=ref.capability)
    assert result.ok, result.diagnostics
    return text, result.fixture


def reread(ref, text):
    return read_fixture(ref.path, text, capability=ref.capability).diagnostics


@pytest.mark.parametrize("ref", FIXTURES, ids=IDS)
def test_unknown_directive_is_reported_in_every_family_position(ref):
    text, fixture = read_text(ref)
    seen_families = set()
    checked = 0
    for section, site in block_sections(fixture, text):
        if section.family in seen_families:
            continue
        seen_families.add(section.family)
        problems = reread(ref, insert_at(text, site, "bogus_directive_x: 1"))
        assert [(p.category, p.location.line, p.location.column) for p in problems] == [(FIXTURE_DIRECTIVE_UNKNOWN, *site)], (section.family, problems)
        assert "'bogus_directive_x'" in problems[0].message and section.family in problems[0].message
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("ref", FIXTURES, ids=IDS)
def test_duplicate_key_is_reported_at_the_copy(ref):
    text, fixture = read_text(ref)
    section = next(s for s, _ in block_sections(fixture, text) if len(s.order) > 1)
    key = section.order[1]
    span = section.key_span(key)
    duplicated = insert_at(text, (span.line, span.column), f"{key}: null")
    problems = reread(ref, duplicated)
    assert problems and problems[0].category == FIXTURE_SCHEMA_INVALID
    assert (problems[0].location.line, problems[0].location.column) == (span.line + 1, span.column) and f"duplicate key {key!r}" in problems[0].message


@pytest.mark.parametrize("ref", FIXTURES, ids=IDS)
def test_wrong_value_type_is_reported_at_the_value(ref):
    text, fixture = read_text(ref)
    for section, _ in block_sections(fixture, text):
        key = section.order[0]
        span = section.key_span(key)
        value = getattr(section, section.directive_attrs[key])
        if key in ("name", "description") or type(value).__name__ != "Scalar" or value.span.line != span.line:
            continue
        broken = replace_value(text, span.line, key, "[1, 2]")
        problems = reread(ref, broken)
        kinds = {(p.category, p.location.line) for p in problems}
        if not problems:
            continue  # the directive accepts lists too (a data region); try the next one
        assert (FIXTURE_SCHEMA_INVALID, span.line) in kinds, problems
        assert "expected" in problems[0].message and "found a list" in problems[0].message
        return
    pytest.skip("no scalar-only directive at a block position in this fixture")


_FLOW_EDGE = re.compile(r"^\s*-\s*\{\s*from:\s*[^,}]+,\s*(?=to:)")


@pytest.mark.parametrize("ref", FIXTURES, ids=IDS)
def test_missing_required_directive_is_reported_not_defaulted(ref):
    """An edge without its required `from` is fixture_schema_invalid at the edge, naming the
    directive: never read as some default source node (conformance-adapter §9)."""
    text, _ = read_text(ref)
    lines = text.splitlines(keepends=True)
    found = next((i for i, line in enumerate(lines) if _FLOW_EDGE.match(line)), None)
    if found is None:
        pytest.skip("no flow-style edge `- {from: …, to: …}` in this fixture")
    lines[found] = re.sub(r"from:\s*[^,}]+,\s*", "", lines[found], count=1)
    problems = reread(ref, "".join(lines))
    assert [(p.category, p.location.line) for p in problems] == [(FIXTURE_SCHEMA_INVALID, found + 1)], problems
    assert "edge is missing required directive 'from'" in problems[0].message


@pytest.mark.parametrize("ref", FIXTURES, ids=IDS)
def test_broken_yaml_is_located(ref):
    text, _ = read_text(ref)
    lines = text.splitlines(keepends=True)
    target = next(i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#"))
    lines[target] = lines[target].rstrip("\n") + " {unclosed: [\n"
    problems = reread(ref, "".join(lines))
    assert len(problems) == 1 and problems[0].category == FIXTURE_SCHEMA_INVALID
    assert "invalid YAML" in problems[0].message and problems[0].location.line >= target + 1


@pytest.mark.parametrize("ref", FIXTURES, ids=IDS)
def test_too_new_conformance_version(ref):
    text, _ = read_text(ref)
    problems = reread(ref, 'conformance_version: "99.0.0"\n' + text)
    assert [(p.category, p.location.line) for p in problems] == [(FIXTURE_VERSION_UNSUPPORTED, 1)]
    assert "99.0.0" in problems[0].message and "0.118.2" in problems[0].message


@pytest.mark.parametrize("version", ["0.48.0", "0.109.0", "0.118.2"])
def test_older_or_equal_conformance_version_is_accepted(version):
    ref = FIXTURES[0]
    text, _ = read_text(ref)
    assert reread(ref, f'conformance_version: "{version}"\n' + text) == ()


@pytest.mark.parametrize("bad", ['"one"', '"1.2"', "1.5", "[1]"])
def test_conformance_version_that_is_not_a_version(bad):
    ref = FIXTURES[0]
    text, _ = read_text(ref)
    problems = reread(ref, f"conformance_version: {bad}\n" + text)
    assert [(p.category, p.location.line) for p in problems] == [(FIXTURE_SCHEMA_INVALID, 1)]


def test_too_new_fixture_reports_the_version_before_its_unknown_directives():
    ref = FIXTURES[0]
    text, _ = read_text(ref)
    problems = reread(ref, 'conformance_version: "0.200.0"\nfuture_directive: {x: 1}\n' + text)
    assert [p.category for p in problems] == [FIXTURE_VERSION_UNSUPPORTED, FIXTURE_DIRECTIVE_UNKNOWN]


def test_every_problem_is_reported_not_just_the_first():
    ref = FIXTURES[0]
    text, fixture = read_text(ref)
    sites = sorted({site for _, site in itertools.islice(block_sections(fixture, text), 3)}, reverse=True)
    broken = text
    for site in sites:  # bottom-up, so earlier sites keep their line numbers
        broken = insert_at(broken, site, "bogus_directive_y: 1")
    problems = reread(ref, broken)
    assert len(problems) == len(sites) >= 2 and all(p.category == FIXTURE_DIRECTIVE_UNKNOWN for p in problems)


GRAPH = """\
state:
  fields:
    v: {{type: {type}, default: 0}}
entry: a
nodes:
  a: {{update: {{v: 1}}}}
edges:
  - {{from: a, to: END}}
initial_state: {{}}
expected:
  final_state: {{v: {value}}}
"""


@pytest.mark.parametrize(
    "type_string,column",
    [("list<int", 23), ("'list<int,int>'", 16), ('"dict<int>"', 16), ('"list<strng>"', 21), ("li st", 18), ("'list<>'", 21)],
)
def test_bad_type_string_points_inside_the_string(type_string, column):
    problems = read_fixture("bundled.yaml", GRAPH.format(type=type_string, value=1)).diagnostics
    assert [(p.category, p.location.line, p.location.column) for p in problems] == [(FIXTURE_SCHEMA_INVALID, 3, column)], problems


@pytest.mark.parametrize("token,column", [('"<uuuid>"', 22), ('"<uuid"', 26), ('"<trace_id>"', 22)])
def test_bad_value_token_points_inside_the_string(token, column):
    problems = read_fixture("bundled.yaml", GRAPH.format(type="int", value=token)).diagnostics
    assert [(p.category, p.location.line, p.location.column) for p in problems] == [(FIXTURE_SCHEMA_INVALID, 11, column)], problems


def test_good_tokens_become_token_nodes():
    text = GRAPH.format(type="string", value='"<uuid-hex-2>"').replace("default: 0", 'default: ""')  # a string's default (§5.2)
    result = read_fixture("bundled.yaml", text)
    assert result.ok, result.diagnostics
    token = result.fixture.expected.final_state.get("v")
    assert (type(token).__name__, token.kind, token.label) == ("FormatToken", "uuid-hex", "2")
    assert (token.span.line, token.span.column) == (11, 21)  # after the opening quote


def test_bad_resume_placeholder():
    text = GRAPH.format(type="int", value=1) + 'invoke: {resume_invocation: "<from previous suspended outcomes>"}\n'
    problems = read_fixture("bundled.yaml", text).diagnostics
    assert [(p.category, p.location.line) for p in problems] == [(FIXTURE_SCHEMA_INVALID, 12)]
    assert "resume placeholder" in problems[0].message


def test_unknown_directive_suggests_a_near_name():
    problems = read_fixture("bundled.yaml", GRAPH.format(type="int", value=1).replace("entry:", "entyr:")).diagnostics
    assert [(p.category, p.location.line, p.location.column) for p in problems] == [(FIXTURE_DIRECTIVE_UNKNOWN, 4, 1)]
    assert "did you mean 'entry'" in problems[0].message
