"""What a fixture says it checks: the citations of its sidecar and of its YAML header comment.

* The sidecar (``NNN-name.md``, conformance-adapter §3.1): the block after a "**Spec sections
  exercised:**" line (or "**Spec section exercised:**", "**Spec coverage:**", a "## Spec coverage"
  heading). Each list item is one citation — a nested item is one of its own, under its parent's
  sections when it names none, an item that names none goes on under the previous item's — and
  text on the marker's own line is one too.
* The YAML header comment (§3.2: the ``#`` lines before the first key): each sentence naming a
  section (``§6``, ``llm-provider §7.1``) among its first six words is a citation ("§6 Per-invocation
  drain: …", "Verifies the §6 attempt_index default …"); one mentioned further on ("… raises
  ReducerError per §4") is context.

A citation names sections: ``§N`` of the fixture's own capability, ``<capability> §N`` of another.
When the text before its first dash or colon (its lead, ``§2 Reducer — …``) names sections, those
are the ones cited; references further on (``… raises ReducerError per §4``) are then context.

A citation applies to every case of the fixture, unless it names cases ("exercised by case 2",
"Cases 1 and 3", "case `name`"): then to those.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple

_MARKER = re.compile(r"^\s*(?:#{1,6}\s*)?\**\s*Spec\s+(?:sections?\s+exercised|coverage)\s*:?\s*\**\s*:?\s*(.*)$", re.I)
_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$")
_HEADING = re.compile(r"^\s*#{1,6}\s")
_BOLD_PARAGRAPH = re.compile(r"^\s*\*\*[^*]+\*\*")
_REF = re.compile(r"(?:\b([A-Za-z][a-z]*(?:-[a-z]+)+|observability|sessions|suspension|harness)(?:'s)?\s*\**\s*)?§\s?(\d+(?:\.\d+)*)")
_LEAD_END = re.compile(r"\s[—–]\s|\s-\s|:\s|\*\*\s*[—–]")
_CASES = re.compile(r"\bcases?\s+(\d+(?:\s*(?:,|and|&|or|–|-)\s*\d+)*)\b", re.I)
_CASE_NAME = re.compile(r"\bcases?\s+`([A-Za-z0-9_.-]+)`", re.I)
_LEADING_WORDS = 6  # a header sentence cites a section it names among its first words ("Verifies the §6 …", "§2 Reducer: …")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z§(\"'`])")


class Ref(NamedTuple):
    capability: str
    number: str


class Citation(NamedTuple):
    fixture: str  # the fixture id: capability/NNN-name
    case: str | None  # the case it is scoped to (None: every case of the fixture)
    path: str  # the sidecar or the fixture
    line: int
    text: str  # as written, on one line
    refs: tuple[Ref, ...]  # the sections it names (empty: it names none)


def refs_in(text: str, capability: str, capabilities: Iterable[str]) -> tuple[Ref, ...]:
    """The sections ``text`` cites: those of its lead when it names any, else all of them."""
    known = {c.lower() for c in capabilities}
    lead_end = _LEAD_END.search(text)
    lead = text[: lead_end.start()] if lead_end else text
    found = _refs(lead, capability, known) or _refs(text, capability, known)
    return tuple(dict.fromkeys(found))


def _refs(text: str, capability: str, known: set[str]) -> list[Ref]:
    found = []
    for match in _REF.finditer(text):
        named = (match.group(1) or "").lower()
        found.append(Ref(named if named in known else capability, match.group(2).rstrip(".")))
    return found


def cases_named(text: str, case_names: list[str]) -> list[str]:
    """The cases ``text`` scopes itself to, by 1-based number or by name (none: the whole fixture)."""
    if len(case_names) < 2:
        return []
    chosen: list[str] = []
    for match in _CASES.finditer(text):
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        if "–" in match.group(1) or "-" in match.group(1):
            if len(numbers) == 2 and numbers[0] < numbers[1]:
                numbers = list(range(numbers[0], numbers[1] + 1))
        if numbers and all(1 <= n <= len(case_names) for n in numbers):
            chosen.extend(case_names[n - 1] for n in numbers)
    for match in _CASE_NAME.finditer(text):
        if match.group(1) in case_names:
            chosen.append(match.group(1))
    return list(dict.fromkeys(chosen))


class _Item(NamedTuple):
    line: int
    indent: int
    text: str


def sidecar_items(text: str) -> tuple[int | None, list[_Item]]:
    """The citation block of a sidecar: the marker's line (None: no block) and its items."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        marker = _MARKER.match(line)
        if marker:
            return index + 1, _block(lines, index, marker.group(1).strip())
    return None, []


def _block(lines: list[str], marker: int, inline: str) -> list[_Item]:
    items: list[_Item] = []
    if inline:
        items.append(_Item(marker + 1, -1, inline))
    blank = False
    for number in range(marker + 2, len(lines) + 1):
        line = lines[number - 1]
        if not line.strip():
            blank = True
            continue
        item = _ITEM.match(line)
        continues = items and not item and (not blank or line.startswith((" ", "\t")))
        if _HEADING.match(line) or _BOLD_PARAGRAPH.match(line) and not item and not (continues and line[:1].isspace()):
            break  # the next part of the sidecar ("**What passes:**"); an indented "**…**" line goes on the item above
        if item:
            items.append(_Item(number, len(item.group(1)), item.group(2).strip()))
        elif continues:
            last = items[-1]
            items[-1] = last._replace(text=_joined_lines(last.text, line.strip()))
        else:
            break
        blank = False
    return items


def _joined_lines(text: str, more: str) -> str:
    """An item's text with its next line: a word hyphenated across the break ("non-" / "negotiable")
    is joined back whole."""
    if re.search(r"[A-Za-z]-$", text) and more[:1].islower():
        return text + more
    return f"{text} {more}"


def sidecar_citations(fixture: str, capability: str, path: str, text: str, case_names: list[str],
                      capabilities: Iterable[str]) -> tuple[list[Citation], bool]:
    """The sidecar's citations, and whether it has a citation block at all."""
    marker, items = sidecar_items(text)
    citations: list[Citation] = []
    parents: list[tuple[int, tuple[Ref, ...]]] = []  # (indent, refs) of the items above
    for item in items:
        while parents and parents[-1][0] >= item.indent:
            parents.pop()
        refs = refs_in(item.text, capability, capabilities)
        if not refs and parents:
            refs = parents[-1][1]
        elif not refs and citations:  # an item naming no section goes on under the one before it
            refs = citations[-1].refs
        parents.append((item.indent, refs))
        citations.extend(_scoped(fixture, path, item.line, item.text, refs, case_names))
    return citations, marker is not None


def _scoped(fixture: str, path: str, line: int, text: str, refs: tuple[Ref, ...], case_names: list[str]) -> list[Citation]:
    text = " ".join(text.split())
    cases = cases_named(text, case_names)
    if not cases:
        return [Citation(fixture, None, path, line, text, refs)]
    return [Citation(fixture, case, path, line, text, refs) for case in cases]


def header_comment(text: str) -> list[tuple[int, str]]:
    """The fixture's header comment: the ``#`` lines before its first key, as (line, text)."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        found.append((number, stripped.lstrip("#").strip()))
    return found


def header_citations(fixture: str, capability: str, path: str, text: str, case_names: list[str],
                     capabilities: Iterable[str]) -> list[Citation]:
    """A citation per sentence of the header comment that names a section."""
    lines = header_comment(text)
    if not lines:
        return []
    joined, starts, offset = [], [], 0
    for number, part in lines:
        starts.append((offset, number))
        joined.append(part)
        offset += len(part) + 1
    whole = " ".join(joined)
    citations = []
    position = 0
    for sentence in _SENTENCE_END.split(whole):
        start = whole.find(sentence, position)
        position = start + len(sentence)
        if "§" not in " ".join(sentence.split()[:_LEADING_WORDS]):
            continue  # a section mentioned in passing ("raises ReducerError per §4 when …") is context, not a citation
        refs = tuple(dict.fromkeys(_refs(sentence, capability, {c.lower() for c in capabilities})))
        line = max((n for o, n in starts if o <= start), default=lines[0][0])
        citations.extend(_scoped(fixture, path, line, sentence, refs, case_names))
    return citations
