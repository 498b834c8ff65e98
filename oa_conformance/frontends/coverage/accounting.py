"""The accounting file (``spec-coverage.toml``): why a statement no case can verify stays unverified.

Reviewed like the expectations file: one table per statement id (as ``oa-conformance coverage
--json`` prints it), with a reason from a closed set and the evidence::

    ["graph-engine:6:e4e729d5"]
    reason = "documentation-only"
    text = "Implementations SHOULD document drain's worst-case duration"   # the statement's opening words
    why = "asks for documentation; nothing a run can observe"

    ["graph-engine:2:c462ab8a"]
    reason = "restates"
    restates = "graph-engine:2:9b0d3d54"
    text = "Both `prior` and `update` MUST be lists"
    why = "..."
    cited_without_checking = ["graph-engine/012-x[case_a]"]   # optional: see Entry

``text`` is the statement's opening words: when the prose changes, the id changes with it and the
entry is reported as matching no statement, so it is reviewed again. A malformed file is one
located problem (``path:line: …``) and stops the command (exit 2); an entry matching no statement
of the prose, or whose ``text`` no longer opens the statement, is a located problem too.
"""

from __future__ import annotations

from typing import NamedTuple

from ...model.diagnostics import Span

from .toml_file import read_toml, table_line

# The kinds true by construction (docs/COVERAGE.md): a statement a case could test is open, never
# accounted — a known runtime violation is a failing case with a runtime expectations entry.
REASONS = {
    "binds-callers": "binds callers, users or fixture authors, not the implementation",
    "not-observable": "not observable by any case, nor by any adapter extension",
    "documentation-only": "documentation-only",
    "needs-proposal": "needs a proposal the runtime does not ship",
    "restates": "restates",
}
# Kinds no longer accepted: each entry of one is a located problem saying what to do instead, and
# its statement stays open.
RETIRED = {
    "future-fixture": "a statement a case could test is open, not accounted: write the case (a failing one with a "
                      "runtime entry in oa-expectations.toml where the runtime violates it) and drop the entry",
}
_KEYS = frozenset(("reason", "why", "text", "restates", "proposal", "cited_without_checking"))


class AccountingEntry(NamedTuple):
    id: str
    reason: str  # a key of REASONS (or of RETIRED: reported, not accounted)
    why: str
    text: str
    restates: str | None
    proposal: str | None
    path: str
    line: int
    # Cases (``fixture`` or ``fixture[case]`` ids) whose citation resolves to the statement although
    # none of their checks tests it (a section-wide "§7.1 — retry semantics"): their passing does
    # not verify it. The resolver's over-reach, recorded where a reviewer reads it.
    cited_without_checking: tuple[str, ...] = ()

    @property
    def location(self) -> Span:
        return Span(self.path, self.line, None)

    def describe(self) -> str:
        """The reason as the map shows it: the phrase of the closed set, then why."""
        phrase = REASONS.get(self.reason, self.reason)
        if self.reason == "restates":
            phrase = f"restates {self.restates}"
        elif self.reason == "needs-proposal" and self.proposal:
            phrase = f"{phrase} ({self.proposal})"
        return f"{phrase}: {self.why}" if self.why else phrase


class AccountingError(ValueError):
    """A malformed accounting file: ``path:line: what is wrong``."""


def load_accounting(path: str) -> dict[str, AccountingEntry]:
    text, data = read_toml(path, AccountingError)
    entries: dict[str, AccountingEntry] = {}
    for ident, table in data.items():
        line = table_line(text, ident)
        where = f"{path}:{line}"
        if not isinstance(table, dict):
            raise AccountingError(f"{where}: {ident!r} must be a table [\"{ident}\"]")
        unknown = sorted(set(table) - _KEYS)
        if unknown:
            raise AccountingError(f"{where}: {ident}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})")
        reason = table.get("reason")
        if reason not in REASONS and reason not in RETIRED:
            raise AccountingError(f"{where}: {ident}: reason must be one of {', '.join(REASONS)} (got {reason!r})")
        if reason == "restates" and not isinstance(table.get("restates"), str):
            raise AccountingError(f"{where}: {ident}: reason 'restates' needs restates = \"<statement id>\"")
        if reason == "needs-proposal" and not isinstance(table.get("proposal"), str):
            raise AccountingError(f"{where}: {ident}: reason 'needs-proposal' needs proposal = \"NNNN\" (the proposal the runtime lacks)")
        for key in ("why", "text", "restates", "proposal"):
            if key in table and not isinstance(table[key], str):
                raise AccountingError(f"{where}: {ident}: {key} must be a string")
        cited_without_checking = table.get("cited_without_checking", [])
        if not isinstance(cited_without_checking, list) or not all(isinstance(c, str) for c in cited_without_checking):
            raise AccountingError(f"{where}: {ident}: cited_without_checking must be a list of case ids")
        if not table.get("why"):
            raise AccountingError(f"{where}: {ident}: why is required (the evidence a reviewer checks)")
        entries[ident] = AccountingEntry(ident, reason, " ".join(table["why"].split()), " ".join(table.get("text", "").split()),
                               table.get("restates"), table.get("proposal"), path, line, tuple(cited_without_checking))
    return entries
