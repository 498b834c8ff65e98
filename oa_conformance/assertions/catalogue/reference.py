"""The catalogue as a Markdown reference page (docs/PREDICATES.md, ``oa-lint --list-predicates``)."""

from __future__ import annotations

from . import all_rows
from .rows import Compute, Query, Restates


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def how(row) -> str:
    if isinstance(row, Restates):
        return f"restates `{row.directive}` = `{row.value!r}`"
    if isinstance(row, Query):
        anchor = f"; anchor `{row.anchor}`" if row.anchor else ""
        return f"{row.compare}: `{row.query}`{anchor}"
    if isinstance(row, Compute):
        return f"compute `{row.function.__name__}`: {row.why}"
    return type(row).__name__


def markdown() -> str:
    """The page: one table per capability (canonical first), one line per row, and a count by kind."""
    lines = ["# Invariant predicates", "",
             "Generated from the catalogue (`oa_conformance/assertions/catalogue/`) by `oa-lint --list-predicates`;",
             "do not edit by hand. Names with `<placeholders>` are patterns; `[...]` is optional.", ""]
    by_capability: dict = {}
    for capability, row in all_rows():
        by_capability.setdefault(capability, []).append(row)
    lines += ["| capability | restates | query | compute |", "|---|---|---|---|"]
    for capability, rows in by_capability.items():
        counts = [sum(isinstance(r, kind) for r in rows) for kind in (Restates, Query, Compute)]
        lines.append(f"| {capability or 'canonical (§5.9)'} | " + " | ".join(map(str, counts)) + " |")
    for capability, rows in by_capability.items():
        lines += ["", f"## {capability or 'canonical (§5.9, every capability)'}", "", "| name | what | how |", "|---|---|---|"]
        for row in sorted(rows, key=lambda r: r.name):
            lines.append(f"| `{_cell(row.name)}` | {_cell(row.doc)} | {_cell(how(row))} |")
    return "\n".join(lines) + "\n"


__all__ = ["markdown"]
