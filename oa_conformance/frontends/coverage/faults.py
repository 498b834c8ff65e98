"""The runtime faults file (``tools/runtime-faults.toml``), read for the coverage map and for
``./dev faults`` (tools/runtime_faults.py reuses this reader). Each ``[[fault]]`` is a one-line
patch to a copy of the runtime, the clause it breaks, the cases that catch it and, optionally, the
id of the one statement it breaks exactly::

    [[fault]]
    id = "ge-append-reducer-prepends"
    file = "graph/reducers.py"              # relative to the openarmature package
    old = "return [*prior, *update]"        # occurs exactly once in that file
    new = "return [*update, *prior]"
    clause = "graph-engine §2 append: ..."
    statement = "graph-engine:2:9b0d3d54"   # optional: the statement id `coverage --json` prints
    caught_by = ["graph-engine/905-example-reducers[append_order]"]   # cases that fail under it

A fault with ``statement`` and ``caught_by`` is a reviewed claim: each listed case catches the
fault (tests/test_runtime_faults.py keeps that true) and so names the statement; a passing one
proves it (docs/COVERAGE.md). A malformed file raises :class:`FaultsError` (``path:line: …``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ...model.diagnostics import Span

from .toml_file import read_toml

_REQUIRED = ("id", "file", "old", "new", "clause")
_KEYS = frozenset(_REQUIRED + ("caught_by", "statement"))
_TABLE = re.compile(r"^\s*\[\[\s*fault\s*\]\]\s*(?:#.*)?$")


class FaultEntry(NamedTuple):
    """One fault; the defaults serve a fault made in code (a test's), which has no file position."""

    id: str
    file: str
    old: str
    new: str
    clause: str
    caught_by: tuple[str, ...] = ()
    statement: str | None = None
    path: str = ""
    line: int = 0  # of its [[fault]] header
    statement_line: int = 0  # of its statement = line (its header's when it has none)

    @property
    def location(self) -> Span:
        return Span(self.path, self.statement_line, None)


class FaultsError(ValueError):
    """A malformed faults file: ``path:line: what is wrong``."""


def read_faults(path: str) -> list[FaultEntry]:
    text, data = read_toml(path, FaultsError)
    tables = data.get("fault", [])
    unknown_top = sorted(set(data) - {"fault"})
    if unknown_top or not isinstance(tables, list):
        raise FaultsError(f"{path}:1: only [[fault]] tables belong here (found {(unknown_top or ['fault'])[0]!r})")
    lines = text.splitlines()
    headers = [number for number, line in enumerate(lines, 1) if _TABLE.match(line)]
    entries: list[FaultEntry] = []
    seen: dict[str, int] = {}
    for position, table in enumerate(tables):
        line = headers[position] if position < len(headers) else 1
        end = headers[position + 1] if position + 1 < len(headers) else len(lines) + 1
        where = f"{path}:{line}"
        unknown = sorted(set(table) - _KEYS)
        if unknown:
            raise FaultsError(f"{where}: fault {table.get('id', '?')!r}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})")
        missing = [key for key in _REQUIRED if not isinstance(table.get(key), str)]
        if missing:
            raise FaultsError(f"{where}: fault {table.get('id', '?')!r}: {missing[0]} must be a string")
        caught_by = table.get("caught_by", [])
        if not isinstance(caught_by, list) or not all(isinstance(c, str) for c in caught_by):
            raise FaultsError(f"{where}: fault {table['id']!r}: caught_by must be a list of case ids")
        statement = table.get("statement")
        if statement is not None and not isinstance(statement, str):
            raise FaultsError(f"{where}: fault {table['id']!r}: statement must be a statement id string")
        if table["id"] in seen:
            raise FaultsError(f"{where}: fault {table['id']!r} is listed twice (first at line {seen[table['id']]})")
        seen[table["id"]] = line
        statement_line = next((n for n in range(line, end) if re.match(r"\s*statement\s*=", lines[n - 1])), line)
        entries.append(FaultEntry(table["id"], table["file"], table["old"], table["new"], table["clause"], tuple(caught_by),
                                  statement, path, line, statement_line))
    return entries
