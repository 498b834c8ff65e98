"""Fault injection into real fixture text: each function returns (new text, expected 1-based line)."""

from __future__ import annotations

import re

from oa_conformance.ast.nodes import Scalar, Section
from oa_conformance.ast.visitor import walk


def block_sections(fixture: Section, text: str):
    """``(section, site)`` for sections where a fault line can be added to the same mapping.

    ``site`` is ``(line, column)``: a new line inserted *at* ``line`` (pushing the rest down),
    indented to ``column``, becomes a key of that section. That holds before a first key that
    starts its line, and right after a ``- key: scalar`` list-item line.
    """
    lines = text.splitlines()
    for node in walk(fixture):
        if not isinstance(node, Section) or not node.order:
            continue
        first = node.order[0]
        span = node.key_span(first)
        line = lines[span.line - 1]
        before = line[: span.column - 1]
        if not before.strip():
            yield node, (span.line, span.column)
            continue
        value = getattr(node, node.directive_attrs[first])
        if before.strip() != "-" or not isinstance(value, Scalar) or value.span.line != span.line:
            continue
        if "{" in line or "[" in line or line.rstrip().endswith(("|", ">", "|-", ">-")):
            continue
        yield node, (span.line + 1, span.column)


def insert_at(text: str, site: tuple[int, int], content: str) -> str:
    """Insert ``content`` as a new line at ``site`` (1-based line, column of its indentation)."""
    line_no, column = site
    lines = text.splitlines(keepends=True)
    lines.insert(line_no - 1, " " * (column - 1) + content + "\n")
    return "".join(lines)


def replace_value(text: str, line_no: int, key: str, new_value: str) -> str:
    """Replace the value of ``key:`` on ``line_no`` (a one-line block entry)."""
    lines = text.splitlines(keepends=True)
    pattern = re.compile(rf"^(\s*(?:-\s+)?{re.escape(key)}:\s*)(.*?)(\s*#.*)?$")
    match = pattern.match(lines[line_no - 1].rstrip("\n"))
    assert match, lines[line_no - 1]
    lines[line_no - 1] = match.group(1) + new_value + "\n"
    return "".join(lines)


# ---------------------------------------------------------------------------------------------
# Running fault-injected copies of a directory's real fixtures (the capability test modules)


def shared_text(capability: str, name: str) -> str:
    """A 0.109.0 fixture's text (``spec/<capability>/conformance/<name>``)."""
    from .conftest import shared_fixture

    return shared_fixture(f"{capability}/conformance/{name}").read_text(encoding="utf-8")


def target_text(capability: str, name: str) -> str:
    """A target (0.118.2) fixture's text (``spec/<capability>/conformance/<name>``)."""
    from .conftest import target_fixture

    return target_fixture(f"{capability}/conformance/{name}").read_text(encoding="utf-8")


def run_text(tmp_path, text: str, capability: str, name: str = "001-case.yaml"):
    """Every case of ``text``, written under the capability's layout in ``tmp_path``, run."""
    from oa_conformance.pipeline import cases_of, run_case

    from .test_run import write_fixture

    return [run_case(case, timeout=20) for case in cases_of(write_fixture(tmp_path, text, capability, name))]


def line_of(text: str, needle: str, after: str | None = None) -> int:
    """1-based line of the first ``needle`` (after the first ``after``, when given)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i in range(start, len(lines)) if needle in lines[i]) + 1


def failed_at(result, line: int) -> None:
    assert result.outcome == "failed", (result.outcome, result.reason)
    assert result.location is not None and f".yaml:{line}:" in str(result.location), (result.location, result.reason)
