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
