"""A capability's prose → its normative statements (RFC 2119 / RFC 8174 keywords, in capitals).

A statement is a sentence — of a paragraph, a list item or a table cell — carrying one of the
keywords outside code. Each gets:

* its level: ``must`` (MUST, MUST NOT, REQUIRED, SHALL, SHALL NOT), ``should`` (SHOULD, SHOULD NOT,
  RECOMMENDED, NOT RECOMMENDED) or ``may`` (MAY, OPTIONAL) — the strongest keyword it carries;
* its section: the nearest numbered heading (``## 6. Observer hooks``, ``### 3.1 Directory
  layout``), an unnumbered heading below it and the bold label of the paragraph in effect
  (``**Drain.** …``) as its topic — ``§6 Observer hooks › Drain``;
* its line (where the sentence starts) and a stable id ``capability:section:hash`` — the hash of the
  normalised text (markup and whitespace dropped), so a statement keeps its id when the prose around
  it moves, and two spec versions can be compared.

Ignored: fenced code blocks (and headings inside them), inline code spans (a keyword in
```MUST``` is quoted, not stated), a keyword talked about ("a SHOULD, not a MUST", "SHOULD-level"),
HTML comments, the BCP 14 boilerplate sentence that names the keywords, and a History (changelog)
section, which restates rules the sections above make.
"""

from __future__ import annotations

import hashlib
import re
from typing import NamedTuple

LEVELS = ("must", "should", "may")
_KEYWORD = re.compile(r"\b(MUST NOT|MUST|REQUIRED|SHALL NOT|SHALL|SHOULD NOT|SHOULD|NOT RECOMMENDED|RECOMMENDED|MAY|OPTIONAL)\b")
_LEVEL_OF = {"MUST NOT": "must", "MUST": "must", "REQUIRED": "must", "SHALL NOT": "must", "SHALL": "must",
             "SHOULD NOT": "should", "SHOULD": "should", "NOT RECOMMENDED": "should", "RECOMMENDED": "should",
             "MAY": "may", "OPTIONAL": "may"}
# A keyword talked about rather than used: "a SHOULD", "rather than MUST", "SHOULD-level",
# "SHOULD-not-MUST", "(MUST)" after a label, and a level named against another ("this is SHOULD,
# not MUST", "— MAY, not SHOULD, because …"): both keywords of that contrast are talked about.
_LEVEL_WORD = r"(?:MUST NOT|MUST|SHALL NOT|SHALL|SHOULD NOT|SHOULD|MAY|REQUIRED|RECOMMENDED|OPTIONAL)"
_MENTION = re.compile(rf"(?:\b(?:a|an|the|than)\s+|-){_LEVEL_WORD}\b"
                      r"|\b(?:MUST|SHALL|SHOULD|MAY|REQUIRED|RECOMMENDED|OPTIONAL)-|\((?:MUST|SHOULD|MAY)\)"
                      rf"|(?:\b(?:is|are|be)\s+|—\s*){_LEVEL_WORD},\s*not\s+(?:(?:a|an)\s+)?{_LEVEL_WORD}\b")
# Sections that record the spec's own history: a changelog restates rules, it does not make them.
_NOT_NORMATIVE = re.compile(r"^(?:history|changelog|change log|revision history)\b", re.I)
_BOILERPLATE = re.compile(r"BCP\s*14|RFC\s*2119|RFC\s*8174")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(.+)$")
_FENCE = re.compile(r"^\s*(```+|~~~+)")
_LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|[\s:|-]+\|\s*$")
_LABEL = re.compile(r"^\*\*(.+?)\*\*\s*[.:]?")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_QUOTE_MARK = re.compile(r"^\s*>\s?")
# Each keyword holds one of these: a text holding none (most) needs no look for a keyword.
_KEYWORD_STEMS = ("MUST", "SHOULD", "MAY", "SHALL", "REQUIRED", "RECOMMENDED", "OPTIONAL")
# A sentence ends at . ! ? (after a closing quote/bracket at most) before whitespace and what can
# start a sentence; "e.g." and the like never end one.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]*_]*\s+(?=[A-Z`\"'(*_\[§0-9])")
_ABBREVIATION = re.compile(r"(?:\be\.g|\bi\.e|\bvs|\betc|\bcf|\bNo|\bSec|\bapprox|\bincl|\b[A-Z])\.[\"')\]*_]*$")


class Statement(NamedTuple):
    id: str
    capability: str
    number: str | None  # the numbered section it is in ("6", "3.1"); None before the first one
    section: str  # "§6 Observer hooks › Drain"
    heading: str  # the heading text(s) without the number ("Observer hooks › Drain")
    path: str
    line: int
    level: str
    text: str  # the sentence as written (one line)
    context: str  # what else says what the sentence is about: the list item or table row it is in, the lead-in of a list
    row_keys: tuple[str, ...] = ()  # in a table row: the identifiers its first cell names (`call_id`), which a citation names the row by


class ProseSection(NamedTuple):
    number: str
    heading: str
    line: int


class Prose(NamedTuple):
    capability: str
    path: str
    statements: tuple[Statement, ...]
    sections: dict[str, ProseSection]  # by number
    topics: dict[str, frozenset[str]]  # by section number: its unnumbered sub-headings and paragraph labels (lowercase)
    problems: tuple[str, ...]  # "path:line: what is wrong"

    def has_section(self, number: str) -> bool:
        return number in self.sections


def normalised(text: str) -> str:
    """The text a statement's id hashes: no markup (``*``, `````), no link targets, whitespace collapsed."""
    text = _LINK_TARGET.sub("]", text)
    text = text.replace("*", "").replace("`", "")
    return " ".join(text.split())


def _states(text: str) -> bool:
    """Whether ``text`` holds a keyword at all (code spans and mentions not yet set aside)."""
    return any(stem in text for stem in _KEYWORD_STEMS) and _KEYWORD.search(text) is not None


def _code_free(text: str) -> str:
    return _CODE_SPAN.sub(" ", text)


def level_of(text: str) -> str | None:
    """The strongest keyword level of ``text`` outside code spans and mentions, or None."""
    if not _states(text):  # most sentences (dropping code spans and mentions adds no keyword)
        return None
    found = {_LEVEL_OF[m.group(1)] for m in _KEYWORD.finditer(_MENTION.sub(" ", _code_free(text)))}
    for level in LEVELS:
        if level in found:
            return level
    return None


def sentences(text: str) -> list[tuple[int, str]]:
    """``text`` split into sentences: (offset, sentence). Code spans never split a sentence."""
    masked = _CODE_SPAN.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", text)
    pieces, start = [], 0
    for match in _SENTENCE_END.finditer(masked):
        if _ABBREVIATION.search(masked[start:match.start()]):
            continue
        pieces.append((start, text[start:match.start()].strip()))
        start = match.end()
    pieces.append((start, text[start:].strip()))
    return [(offset, piece) for offset, piece in pieces if piece]


class _Block(NamedTuple):
    line: int
    lines: tuple[tuple[int, str], ...]  # (line number, text) of each physical line
    kind: str  # paragraph | item | row
    indent: int


def _blocks(text: str) -> list[tuple[int, object]]:
    """The prose as a sequence of (line, (level, heading text) | block); code blocks left out."""
    out: list[tuple[int, object]] = []
    fence: str | None = None
    current: list[tuple[int, str]] = []
    kind, indent = "paragraph", 0

    def flush() -> None:
        nonlocal current
        if current:
            out.append((current[0][0], _Block(current[0][0], tuple(current), kind, indent)))
        current = []

    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    for number, line in enumerate(text.splitlines(), 1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            flush()
            fence = opened.group(1)
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            out.append((number, (len(heading.group(1)), heading.group(2))))
            continue
        if not line.strip() or line.strip() == "---":
            flush()
            continue
        stripped = _QUOTE_MARK.sub("", line)
        if _TABLE_ROW.match(stripped):
            flush()
            if not _TABLE_RULE.match(stripped):
                kind, indent = "row", 0
                current = [(number, stripped)]
                flush()
            continue
        item = _LIST_ITEM.match(stripped)
        if item:
            flush()
            kind, indent = "item", len(item.group(1))
            current = [(number, item.group(2))]
            continue
        if not current:
            kind, indent = "paragraph", 0
        current.append((number, stripped.strip()))
    flush()
    return out


def _joined(block: _Block) -> tuple[str, list[tuple[int, int]]]:
    """The block's text on one line, and (offset, line) where each physical line starts in it."""
    parts, starts, offset = [], [], 0
    for number, text in block.lines:
        starts.append((offset, number))
        parts.append(text)
        offset += len(text) + 1
    return " ".join(parts), starts


def _line_at(starts: list[tuple[int, int]], offset: int) -> int:
    line = starts[0][1]
    for start, number in starts:
        if start <= offset:
            line = number
    return line


def _label(text: str) -> str | None:
    match = _LABEL.match(text)
    if not match:
        return None
    label = match.group(1).strip().rstrip(".:")
    return label if len(label) <= 80 else None


def _pieces(kind: str, joined: str, label: str | None, lead_in: str) -> tuple[list[tuple[int, str]], list[str]]:
    """A block's sentences (offset, text) — each table cell's apart — and the context they are read
    in: the paragraph label, a row's first cell, a list item's lead-in paragraph and own label."""
    context_parts = [label or ""]
    if kind == "row":
        cells = table_cells(joined)
        context_parts.append(cells[0] if cells else "")
        pieces = []
        for cell in cells:
            offset = joined.find(cell)
            pieces.extend((offset + o, s) for o, s in sentences(cell))
        return pieces, context_parts
    if kind == "item":
        context_parts.append(lead_in)
        item_label = _label(joined)
        if item_label:
            context_parts.append(item_label)
    return sentences(joined), context_parts


def row_key_names(row: str) -> tuple[str, ...]:
    """The identifiers a table row's first cell names in code spans (```call_id``` → ``call_id``;
    ```prompt_tokens`, `completion_tokens``` → both): what a citation names the row by. A first cell
    without code (``HTTP 401, 403``) names no identifier."""
    cells = table_cells(row)
    return tuple(dict.fromkeys(m.group(2).strip() for m in _CODE_SPAN.finditer(cells[0]) if m.group(2).strip())) if cells else ()


def table_cells(row: str) -> list[str]:
    """A table row's cells: split at each ``|`` outside code spans (```a | b```) and not escaped
    (``\\|``, which stands for ``|``, in a code span too)."""
    cells, current, at, row = [], [], 0, row.strip()
    while at < len(row):
        char = row[at]
        if char == "\\" and row[at + 1:at + 2] == "|":
            current.append("|")
            at += 2
            continue
        if char == "`":
            ticks = len(row[at:]) - len(row[at:].lstrip("`"))
            close = row.find("`" * ticks, at + ticks)
            if close != -1:
                current.append(row[at:close + ticks].replace("\\|", "|"))  # GFM unescapes \| in code spans too
                at = close + ticks
                continue
        if char == "|":
            cells.append("".join(current))
            current = []
        else:
            current.append(char)
        at += 1
    cells.append("".join(current))
    if cells and not cells[0].strip() and row.startswith("|"):
        cells = cells[1:]
    if cells and not cells[-1].strip() and row.endswith("|"):
        cells = cells[:-1]
    return [cell.strip() for cell in cells]


def _statement_id(capability: str, number: str | None, headings: list[tuple[int, str]], sentence: str, seen: dict[str, int]) -> str:
    """``capability:section:hash of the normalised text`` (an unnumbered section by its heading's
    slug); the same text twice in a section gets ``-2``, ``-3``."""
    key = number if number is not None else re.sub(r"[^a-z0-9]+", "-", (headings[0][1] if headings else "preamble").lower()).strip("-")
    digest = hashlib.sha1(normalised(sentence).encode("utf-8")).hexdigest()[:8]
    ident = f"{capability}:{key}:{digest}"
    seen[ident] = seen.get(ident, 0) + 1
    return ident if seen[ident] == 1 else f"{ident}-{seen[ident]}"


def read_prose(text: str, capability: str, path: str) -> Prose:
    """Every normative statement of one capability's ``spec.md`` text, in document order."""
    items = _blocks(text)
    statements: list[Statement] = []
    sections: dict[str, ProseSection] = {}
    problems: list[str] = []
    number: str | None = None
    numbered_level = 0
    headings: list[tuple[int, str]] = []  # the heading path below the numbered section: (level, text)
    label: str | None = None
    lead_in = ""  # a paragraph ending with ":" introduces the list that follows
    introducing: list[int] = []  # the statements of that paragraph
    skipping = False  # inside a History section
    seen: dict[str, int] = {}
    topics: dict[str, set[str]] = {}
    for line, item in items:
        if not isinstance(item, _Block):
            level, heading = item
            label, lead_in, introducing = None, "", []
            numbered = _NUMBERED.match(heading)
            if numbered:
                number, numbered_level = numbered.group(1), level
                headings = [(level, numbered.group(2).strip())]
                sections.setdefault(number, ProseSection(number, numbered.group(2).strip(), line))
            elif level == 1:
                continue  # the document title
            elif number is not None and level > numbered_level:
                headings = [h for h in headings if h[0] < level] + [(level, heading.strip())]
                topics.setdefault(number, set()).add(normalised(heading).lower())
            else:  # an unnumbered section of its own (History, an appendix)
                number, numbered_level, headings = None, level, [(level, heading.strip())]
            skipping = number is None and bool(_NOT_NORMATIVE.match(heading.strip()))
            continue
        if skipping:
            continue
        block: _Block = item
        joined, starts = _joined(block)
        if block.kind == "paragraph":
            label = _label(joined) or label
            if label and number is not None:
                topics.setdefault(number, set()).add(normalised(label).lower())
        # A block without a keyword holds no statement (its sentences and cells are pieces of it,
        # cut at non-word characters): it is not split.
        pieces, context_parts = _pieces(block.kind, joined, label, lead_in) if _states(joined) else ([], [])
        first = len(statements)
        own_label = _label(joined) if block.kind != "row" else None
        row_keys = row_key_names(joined) if block.kind == "row" and pieces else ()
        for offset, sentence in pieces:
            level = level_of(sentence)
            if level is None or _BOILERPLATE.search(sentence):
                continue
            if own_label and normalised(sentence).rstrip(".:") == normalised(own_label):
                continue  # a bold label alone ("**Ancestor chain (MUST).**") names a topic, states nothing
            heading_path = " › ".join([h for _, h in headings] + ([label] if label else []))
            section = (f"§{number} " if number else "") + heading_path
            ident = _statement_id(capability, number, headings, sentence, seen)
            context = " ".join(p for p in context_parts + ([joined] if block.kind != "paragraph" else []) if p)
            statements.append(Statement(ident, capability, number, section.strip(), heading_path, path,
                                        _line_at(starts, offset), level, " ".join(sentence.split()), context, row_keys))
        if block.kind == "paragraph":
            lead_in = joined if joined.rstrip().endswith(":") else ""
            introducing = list(range(first, len(statements))) if lead_in else []
        elif introducing:  # the list or table a statement introduces ("MUST emit the following:") is what it says
            for at in introducing:
                statements[at] = statements[at]._replace(context=f"{statements[at].context} {joined}")
    if not sections:
        problems.append(f"{path}:1: no numbered sections (## N. Heading): citations by section cannot resolve against it")
    return Prose(capability, path, tuple(statements), sections, {n: frozenset(t) for n, t in topics.items()}, tuple(problems))
