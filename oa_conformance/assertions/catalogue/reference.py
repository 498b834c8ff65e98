"""The catalogue as a Markdown reference page (docs/PREDICATES.md, ``oa-lint --list-predicates``)."""

from __future__ import annotations

from ...model.vocabulary import VOCABULARY
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


# The one paragraph on adding a row, at the top of the page.
HOW_TO_ADD = [
    "**How to add a predicate** — one place: one literal entry in its capability's table "
    "(`catalogue/<capability>.py`, or a table module it includes such as `observability_otel.py`): "
    "`Query(name, what, jmespath, compare, anchor=..., holds=Example(...), fails=Example(...))` when JMESPath "
    "over the trace document (docs/TRACE.md) can say it; `Restates(name, what, directive)` when another "
    "expectation of the case already asserts it; else `Compute(name, what, function, why=..., holds=..., "
    "fails=...)` with the function in the table's `*_compute.py` module (it reads the scope's views through "
    "`scope.view`) and any example builder in its `*_examples.py`. Nothing registers itself: a new "
    "capability's table is one line in `TABLES` (`catalogue/__init__.py`). `tests/test_catalogue.py` then "
    "runs the row's holding and failing examples; regenerate this page with `oa-lint --list-predicates`.",
]


def markdown() -> str:
    """The page: one table per capability (canonical first), one line per row, and a count by kind."""
    lines = ["# Invariant predicates", "",
             "Generated from the catalogue (`oa_conformance/assertions/catalogue/`) by `oa-lint --list-predicates`;",
             "do not edit by hand. Names with `<placeholders>` are patterns; `[...]` is optional.", "",
             *HOW_TO_ADD, ""]
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
    return "\n".join(lines + extensions()) + "\n"


def extensions() -> list[str]:
    """The section listing the vocabulary rows marked as extensions (``Directive.extension``)."""
    rows = sorted((d for d in VOCABULARY.all_directives() if d.extension is not None), key=lambda d: (d.capability, d.name))
    lines = ["", "## Extensions of the fixture language", "",
             "Directives (or values of one) this adapter understands beyond the upstream fixture language: "
             "EXTENSIONS of this adapter, not spec. A fixture using one runs here, but another adapter need "
             "not understand it; `oa-lint` reports each use as information (V005). Generated from the "
             "vocabulary rows with `extension=Extension(...)`.", "",
             "| directive | in | capability | what it adds |", "|---|---|---|---|"]
    for row in rows:
        lines.append(f"| `{row.name}` | {', '.join(f'`{w}`' for w in row.where)} | {row.capability} | {_cell(row.extension.doc)} |")
    return lines


__all__ = ["markdown"]
