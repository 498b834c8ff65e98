"""The output formats: each is valid in its own terms and carries every finding completely."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from oa_conformance.model.diagnostics import SPEC_CATEGORIES, Diagnostic, Span
from oa_conformance.frontends.lint import BY_CODE, RULES, lint_file, lint_paths
from oa_conformance.frontends.lint.formatters import format_github, format_json, format_sarif, format_text, sarif_log

from .conftest import BUNDLED_SPEC, shared_spec_root

FIXTURE = sorted((BUNDLED_SPEC / "graph-engine" / "conformance").glob("*.yaml"))[0]


def sample() -> list[Diagnostic]:
    """Real findings of both severities: faults written into a bundled fixture, plus the shared
    corpus's own findings when it is available."""
    text = FIXTURE.read_text(encoding="utf-8")
    faulty = text.replace("reducer: append", "reducer: apend", 1).replace("entry: first", "entry: frist", 1)
    found = lint_file(str(FIXTURE), faulty)
    found += lint_file(str(FIXTURE), text + "initial_state: {}\n")  # a duplicate key
    found += lint_file(str(FIXTURE), b"description: caf\xe9\n")
    shared = shared_spec_root()
    if shared is not None and (shared / "spec").is_dir():
        found += list(lint_paths([str(shared)]).diagnostics)
    return found


DIAGNOSTICS = sample()


def test_the_sample_is_varied():
    assert {d.severity for d in DIAGNOSTICS} == {"error", "warning"} or shared_spec_root() is None
    assert {"S003", "G001", "Y005", "Y002"} <= {d.code for d in DIAGNOSTICS}


def test_text_is_path_line_col_code_message():
    lines = format_text(DIAGNOSTICS).splitlines()
    assert len(lines) == len(DIAGNOSTICS)
    for line, d in zip(lines, DIAGNOSTICS):
        assert line == f"{d.location.path}:{d.location.line}:{d.location.column}: {d.code} {d.message}"
        assert re.match(r"^.+:\d+:\d+: [A-Z]\d{3} .+$", line)


def test_json_is_a_complete_list_of_records():
    records = json.loads(format_json(DIAGNOSTICS))
    assert isinstance(records, list) and len(records) == len(DIAGNOSTICS)
    for record, d in zip(records, DIAGNOSTICS):
        assert set(record) == {"path", "line", "column", "code", "severity", "category", "message"}
        assert record == {"path": d.location.path, "line": d.location.line, "column": d.location.column, "code": d.code, "severity": d.severity,
                          "category": d.category, "message": d.message}
        assert record["category"] in SPEC_CATEGORIES + ("lint",)
        assert record["severity"] in ("error", "warning") and record["line"] >= 1 and record["column"] >= 1
    assert json.loads(format_json([])) == []


def test_static_findings_carry_their_section_9_category_and_rule_findings_lint():
    for d in DIAGNOSTICS:
        rule = BY_CODE[d.code]
        if rule.kind == "static":
            assert d.category in SPEC_CATEGORIES
        elif not rule.claims:
            assert d.category == "lint"


GITHUB = re.compile(r"^::(error|warning) file=([^,:]+),line=(\d+),col=(\d+),title=([^,:]+)::(.*)$")


def test_github_annotations():
    lines = format_github(DIAGNOSTICS, RULES).splitlines()
    assert len(lines) == len(DIAGNOSTICS)
    for line, d in zip(lines, DIAGNOSTICS):
        match = GITHUB.match(line)
        assert match, line
        assert match.group(1) == d.severity and (int(match.group(3)), int(match.group(4))) == (d.location.line, d.location.column)
        assert match.group(5) == f"{d.code} {BY_CODE[d.code].name}"


def test_github_escapes_what_workflow_commands_reserve():
    tricky = Diagnostic(Span("odd,dir/a:b.yaml", 3, 4), "lint", "G001", "50% done\nsecond line", "warning")
    line = format_github([tricky], RULES)
    assert line == "::warning file=odd%2Cdir/a%3Ab.yaml,line=3,col=4,title=G001 entry-undeclared::50%25 done%0Asecond line\n"


# A JSON Schema for the part of SARIF 2.1.0 oa-lint writes, transcribed from the OASIS standard
# (sarif-schema-2.1.0.json): the required properties, their types and the closed value sets.
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string", "format": "uri"},
        "runs": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string"},
                        "version": {"type": "string"},
                        "rules": {"type": "array", "items": {
                            "type": "object",
                            "required": ["id"],
                            "properties": {
                                "id": {"type": "string"},
                                "name": {"type": "string"},
                                "shortDescription": {"$ref": "#/$defs/message"},
                                "fullDescription": {"$ref": "#/$defs/message"},
                                "help": {"$ref": "#/$defs/message"},
                                "defaultConfiguration": {"type": "object", "properties": {"level": {"$ref": "#/$defs/level"}}},
                                "properties": {"type": "object"},
                            },
                        }},
                    },
                }}},
                "results": {"type": "array", "items": {
                    "type": "object",
                    "required": ["message"],
                    "properties": {
                        "ruleId": {"type": "string"},
                        "ruleIndex": {"type": "integer", "minimum": -1},
                        "level": {"$ref": "#/$defs/level"},
                        "message": {"$ref": "#/$defs/message"},
                        "locations": {"type": "array", "items": {"type": "object", "properties": {"physicalLocation": {
                            "type": "object",
                            "properties": {
                                "artifactLocation": {"type": "object", "properties": {"uri": {"type": "string", "format": "uri-reference"}}},
                                "region": {"type": "object", "properties": {
                                    "startLine": {"type": "integer", "minimum": 1},
                                    "startColumn": {"type": "integer", "minimum": 1},
                                }},
                            },
                        }}}},
                        "properties": {"type": "object"},
                    },
                }},
            },
        }},
    },
    "$defs": {
        "message": {"type": "object", "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
                    "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}}},
        "level": {"enum": ["none", "note", "warning", "error"]},
    },
}


SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}  # SARIF 2.1.0 §3.27.10: no "info" level


def test_sarif_is_valid_and_complete():
    jsonschema = pytest.importorskip("jsonschema")
    log = json.loads(format_sarif(DIAGNOSTICS, RULES))
    jsonschema.validate(log, SARIF_SUBSET)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [rule.code for rule in RULES]
    for descriptor, rule in zip(rules, RULES):
        assert descriptor["help"]["markdown"] == descriptor["help"]["text"] == rule.doc
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["fullDescription"]["text"] and descriptor["fullDescription"]["text"] in rule.doc
        assert descriptor["defaultConfiguration"]["level"] == SARIF_LEVEL[rule.severity]
    results = run["results"]
    assert len(results) == len(DIAGNOSTICS)
    for result, d in zip(results, DIAGNOSTICS):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == d.code
        assert result["level"] == SARIF_LEVEL[d.severity] and result["message"]["text"] == d.message
        region = result["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (d.location.line, d.location.column)
        assert result["properties"]["category"] == d.category


def test_sarif_uris():
    absolute = Diagnostic(Span("/tmp/spec dir/001-a.yaml", 1, 1), "lint", "G001", "m", "error")
    relative = Diagnostic(Span("spec/x/conformance/001-a b.yaml", 1, 1), "lint", "G001", "m", "error")
    results = sarif_log([absolute, relative], RULES)["runs"][0]["results"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert uris == ["file:///tmp/spec%20dir/001-a.yaml", "spec/x/conformance/001-a%20b.yaml"]


def test_sarif_with_no_findings_still_lists_the_rules():
    log = sarif_log([], RULES)
    assert log["runs"][0]["results"] == [] and len(log["runs"][0]["tool"]["driver"]["rules"]) == len(RULES)


def test_formatters_are_pure():
    before = list(DIAGNOSTICS)
    for formatter in (format_text, format_json, format_github, format_sarif):
        assert formatter(DIAGNOSTICS, RULES) == formatter(DIAGNOSTICS, RULES)
    assert DIAGNOSTICS == before
    assert Path(FIXTURE).exists()
