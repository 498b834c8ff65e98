"""Output formats: pure functions from a list of diagnostics (and the rules) to text.

* ``text`` — ``path:line:col: CODE message``, one per line (flake8's default format);
* ``json`` — a list of ``{"path", "line", "column", "code", "severity", "category", "message"}``;
* ``github`` — GitHub Actions workflow commands (``::error file=…,line=…,col=…,title=…::message``);
* ``sarif`` — SARIF 2.1.0, one run, with every rule's documentation in the tool's ``rules``.

Lines and columns are 1-based everywhere (SARIF's ``columnKind`` says columns count code points).
"""

from __future__ import annotations

import json
import os
from pathlib import PurePath
from typing import Callable, Iterable, Sequence
from urllib.parse import quote

from ...model.diagnostics import Diagnostic
from ...model.version import ADAPTER_VERSION
from .rules import LintRule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def format_text(diagnostics: Sequence[Diagnostic], rules: Sequence[LintRule] = ()) -> str:
    return "".join(f"{d.location}: {d.code} {d.message}\n" for d in diagnostics)


def as_record(d: Diagnostic) -> dict:
    where = d.location
    return {"path": where.path, "line": where.line, "column": where.column, "code": d.code, "severity": d.severity,
            "category": d.category, "message": d.message}


def format_json(diagnostics: Sequence[Diagnostic], rules: Sequence[LintRule] = ()) -> str:
    return json.dumps([as_record(d) for d in diagnostics], indent=2, ensure_ascii=False) + "\n"


def format_github(diagnostics: Sequence[Diagnostic], rules: Sequence[LintRule] = ()) -> str:
    names = {rule.code: rule.name for rule in rules}
    lines = []
    for d in diagnostics:
        command = {"error": "error", "info": "notice"}.get(d.severity, "warning")
        title = f"{d.code} {names[d.code]}" if d.code in names else d.code
        where = d.location
        properties = f"file={_property(where.path)},line={where.line},col={where.column},title={_property(title)}"
        lines.append(f"::{command} {properties}::{_data(d.message)}\n")
    return "".join(lines)


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def format_sarif(diagnostics: Sequence[Diagnostic], rules: Sequence[LintRule] = ()) -> str:
    return json.dumps(sarif_log(diagnostics, rules), indent=2, ensure_ascii=False) + "\n"


def sarif_log(diagnostics: Sequence[Diagnostic], rules: Sequence[LintRule]) -> dict:
    """The SARIF 2.1.0 log object (``rules``: the rules to describe; every result's rule is added)."""
    listed = list(rules)
    codes = {rule.code for rule in listed}
    index = {rule.code: position for position, rule in enumerate(listed)}
    results = []
    for d in diagnostics:
        result = {
            "ruleId": d.code,
            "level": _SARIF_LEVELS.get(d.severity, "warning"),
            "message": {"text": d.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(d.location.path)},
                "region": {"startLine": d.location.line, "startColumn": d.location.column},
            }}],
            "properties": {"category": d.category},
        }
        if d.code in codes:
            result["ruleIndex"] = index[d.code]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "oa-lint",
                "version": ADAPTER_VERSION,
                "rules": [_descriptor(rule) for rule in listed],
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def _descriptor(rule: LintRule) -> dict:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": _section(rule.doc, "## What it does") or rule.summary},
        "help": {"text": rule.doc, "markdown": rule.doc},
        "defaultConfiguration": {"level": _SARIF_LEVELS[rule.severity]},
        "properties": {"category": rule.category, "tags": [rule.category]},
    }


def _section(doc: str, heading: str) -> str:
    """The paragraph under one ``## heading`` of a rule's documentation."""
    _, found, rest = doc.partition(heading + "\n")
    return rest.split("\n## ", 1)[0].strip() if found else ""


def _uri(path: str) -> str:
    """A SARIF artifact URI: ``file://`` for an absolute path, a relative reference otherwise."""
    if os.path.isabs(path):
        return PurePath(path).as_uri()
    return quote(PurePath(path).as_posix())


FORMATS: dict[str, Callable[[Sequence[Diagnostic], Sequence[LintRule]], str]] = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
    "sarif": format_sarif,
}


def render(name: str, diagnostics: Iterable[Diagnostic], rules: Sequence[LintRule] = ()) -> str:
    return FORMATS[name](list(diagnostics), rules)


__all__ = ["FORMATS", "as_record", "format_github", "format_json", "format_sarif", "format_text", "render", "sarif_log"]
