"""Citations → the normative statements they cite: by section first, then by closeness of the text.

For each section a citation names (``Ref``):

1. **Section.** The candidates are the statements of that section and of its subsections
   (``§6`` takes in ``§6.1``). A section the prose lacks is a problem; so is a section with no
   normative statement.
2. **Topic.** The words between the section number and the dash (``§2 Reducer — …``, ``§6
   Per-invocation drain (drain_events_for)``) name a topic: an unnumbered sub-heading or a bold
   paragraph label of that section. When they do, only that topic's statements remain; a topic
   holding no normative statement resolves to nothing (the citation points at descriptive prose).
   A topic named exactly is that topic alone (``§6 Drain``, not also "Per-invocation drain"); a
   label the citation quotes (``§10.11 "Count drift on resume" paragraph``) names one too.
3. **Text.** Each candidate is scored by how much of the citation's wording it holds, weighting
   words by how rare they are in the capability's statements (inverse document frequency: a
   ``drain_events_for`` says more than a ``state``): the weighted share of the citation's words
   found in the statement and its context (heading, label, the list item or table row it is in),
   blended with the share of the statement's own words the citation repeats. A sentence the
   citation quotes scores highest. The best statement is kept, with any scoring close to it
   (:data:`CLOSE`, at most :data:`MOST`), when it scores at least :data:`FLOOR`. A citation listing
   several checks ("…; …") also resolves each clause on its own (:data:`CLAUSE_SHARE`).
4. **Table rows.** A citation whose wording matches no statement but names the key of a table
   row by its identifier (```call_id```, ``LlmCompletionEvent.call_id``, ``Response.raw``) cites
   the statements that row holds; an owner before the key (``LlmCompletionEvent``) keeps only the
   rows under a heading holding each of its name parts ("Typed LLM completion event").
5. **No wording.** A citation that says nothing beyond its section and topic (``§5 Determinism``)
   cites every statement of it, when there are at most :data:`MOST` of them; otherwise it is too
   vague to resolve, and says so.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from collections import Counter
from functools import lru_cache
from typing import Iterable, Mapping, NamedTuple

from .citations import Citation, Ref
from .prose import Prose, Statement, normalised

FLOOR = 0.3  # the least score a statement is resolved at (chosen on the hand check, docs/COVERAGE.md)
CLOSE = 0.9  # statements scoring this share of the best are resolved too
CLAUSE_SHARE = 0.7  # the least weighted share of a clause's words a statement must itself hold to be cited by that clause alone
MOST = 4  # the most statements one reference resolves to

_STOP = frozenset("""a an the and or of to in on at by for with from as is are be been being it its this that these those
which who whom when where while than then there here not no nor but if else so such via per into onto over under
after before each every any all both either neither one two same other only also must should may shall required
recommended optional spec section exercised case cases fixture verifies verify verified see e.g i.e etc vs
paragraph normative framing description new rule""".split())
_WORD = re.compile(r"[a-z0-9_]+(?:[.][a-z0-9_]+)*")
_CLAUSE = re.compile(r";\s+")  # a citation listing several checks: "registration modes; delivery is strictly serial; …"
_PARENTHESES = re.compile(r"\([^()]*\)")  # an aside: "(the input_type realization is fixture 033; …)"
_QUOTED_TOPIC = re.compile(r"[\"“]([^\"”]{3,80})[\"”]")
_QUOTE = re.compile(r"[\"“]([^\"”]{12,})[\"”]")
_REF_TEXT = re.compile(r"(?:\b[A-Za-z][a-z]*(?:-[a-z]+)+(?:'s)?\s*\**\s*)?§\s?\d+(?:\.\d+)*")
_CAPABILITY_BEFORE = r"(?:\b(?:[A-Za-z][a-z]*(?:-[a-z]+)+|observability|sessions|suspension|harness)(?:'s)?\s*\**\s*(?=§))?"  # "graph-engine §6": the name is part of the reference, not wording
# A section named in a citation (after its capability, when written), its whole number the group:
# the first naming ``ref.number`` exactly (§6, not §6.1 or §61) is the reference, one pattern for
# every number.
_SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)")
_NAMED_SECTION = re.compile(_CAPABILITY_BEFORE + _SECTION.pattern)
# An identifier a citation names: in a code span (`call_id`, `Response.raw`, `embed()`), dotted
# (LlmFailedEvent.error_type) or snake_case (error_type); a table row's key is one of its parts.
_IDENTIFIER_MENTION = re.compile(r"`([^`]+)`|\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_LEAD_END = re.compile(r"\s[—–]\s|\s-\s|:\s|\*\*\s*[—–]|\*\*\s*$")


@lru_cache(maxsize=None)  # the words of a spec and its citations: a few thousand
def _stem(word: str) -> str:
    """Plural to singular, so that "edges" meets "edge" (nothing cleverer: identifiers pass through)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) and "_" not in word:
        return word[:-1]
    return word


@lru_cache(maxsize=4096)
def _word_set(text: str) -> frozenset[str]:
    """The set of :func:`words` of a topic or heading, which every reference to its section compares."""
    return frozenset(_words(text))


def words(text: str) -> list[str]:
    """The content words of ``text``: lowercase, stemmed, without stop words and keywords."""
    return list(_words(text))


@lru_cache(maxsize=16384)
def _words(text: str) -> tuple[str, ...]:
    """:func:`words`, computed once per text: the resolver asks for the words of the same topics,
    headings and citation texts again and again (for each candidate statement, each clause)."""
    kept = [w for w in _WORD.findall(normalised(text).lower()) if w not in _STOP and len(w) > 1]
    return tuple(map(_stem, kept))


class StatementIndex(NamedTuple):
    """A capability's statements, ready for matching."""

    prose: Prose
    weight: dict[str, float]  # word → inverse document frequency over the capability's statements
    own: dict[str, frozenset[str]]  # statement id → its own words
    around: dict[str, frozenset[str]]  # statement id → its words with its heading, label and context
    topic_words: dict[str, frozenset[str]]  # statement id → words of its heading path below the number
    own_weight: dict[str, float]  # statement id → the summed weight of its own words
    within: dict[str, tuple[Statement, ...]]  # section number → the statements of it and its subsections
    near: dict[str, frozenset[str]]  # statement id → its own words with its heading path's (what a score weighs first)


def index(prose: Prose) -> StatementIndex:
    own = {s.id: frozenset(words(s.text)) for s in prose.statements}
    topic_words = {s.id: frozenset(words(s.heading)) for s in prose.statements}
    around = {s.id: own[s.id] | topic_words[s.id] | frozenset(words(s.context)) for s in prose.statements}
    frequency = Counter(w for ws in around.values() for w in ws)
    total = max(len(around), 1)
    weight = {w: math.log(1 + total / n) for w, n in frequency.items()}
    own_weight = {ident: sum(weight[w] for w in ws) or 1.0 for ident, ws in own.items()}
    within: dict[str, list[Statement]] = {}
    for statement in prose.statements:
        if statement.number is not None:
            parts = statement.number.split(".")
            for depth in range(1, len(parts) + 1):
                within.setdefault(".".join(parts[:depth]), []).append(statement)
    near = {ident: own[ident] | topic_words[ident] for ident in own}
    return StatementIndex(prose, weight, own, around, topic_words, own_weight, {n: tuple(ss) for n, ss in within.items()}, near)


class Resolution(NamedTuple):
    ids: tuple[str, ...]
    problems: tuple[str, ...]  # why a reference resolved to nothing (without location)


def resolve(citation: Citation, indexes: Mapping[str, StatementIndex]) -> Resolution:
    """The statements ``citation`` cites, and a problem per reference that resolved to nothing."""
    return _resolved(citation, indexes, resolve_ref)


def problems(citation: Citation, indexes: Mapping[str, StatementIndex]) -> tuple[str, ...]:
    """:func:`resolve`'s problems alone (what ``oa-lint`` reports), found without ranking the
    statements: a reference has none as soon as one statement reaches :data:`FLOOR`."""
    return _resolved(citation, indexes, _ref_problem).problems


def _resolved(citation: Citation, indexes: Mapping[str, StatementIndex], by_ref) -> Resolution:
    if not citation.refs:
        return Resolution((), ("names no spec section (§N)",))
    ids: list[str] = []
    problems: list[str] = []
    for ref in citation.refs:
        text = _segment(ref, citation.text) if len(citation.refs) > 1 else citation.text
        found, problem = by_ref(ref, text, indexes)
        ids.extend(found)
        if problem:
            problems.append(problem)
    return Resolution(tuple(dict.fromkeys(ids)), tuple(problems))


def _segment(ref: Ref, text: str) -> str:
    """The part of a citation naming several sections that belongs to ``ref``: from its ``§N`` to
    the next section named ("§7 (categories), §8.1.3 (error mapping)"); all of it when the
    sections share one description ("§6.2, §6.3 — …")."""
    starts = [m.start() for m in re.finditer(r"§", text)]
    match = _naming(_SECTION, text, ref.number)
    if match is None:
        return text
    later = [s for s in starts if s > match.start()]
    piece = text[match.start(): later[0]] if later else text[match.start():]
    return piece if _words(_REF_TEXT.sub(" ", piece)) else text


def _where(ref: Ref) -> str:
    return f"{ref.capability} §{ref.number}"


def resolve_ref(ref: Ref, text: str, indexes: Mapping[str, StatementIndex]) -> tuple[list[str], str | None]:
    narrowed = _narrowed(ref, text, indexes)
    if not isinstance(narrowed, _Matching):
        return narrowed
    candidates, found, wording, hint, quoted = narrowed
    scores = _best(wording, candidates, found, hint, FLOOR)
    for part in _clauses(wording, hint):
        ident, share = _clause_match(part, candidates, found, hint)
        if ident is not None and share >= CLAUSE_SHARE:
            scores[ident] = max(FLOOR, scores.get(ident, 0.0))
    if not scores:  # a field named by its identifier, with words no statement's text shares ("`LlmCompletionEvent.call_id` field")
        scores = {statement.id: 1.0 for statement in rows_named(text, candidates)}
    if not scores and quoted and len(candidates) <= MOST:
        return [s.id for s in candidates], None  # the topic it quotes says what it cites; the rest of the wording matches nothing more
    if not scores:
        return [], _no_match(ref)
    return [ident for ident, _ in sorted(scores.items(), key=lambda kv: -kv[1])[:MOST]], None


def _ref_problem(ref: Ref, text: str, indexes: Mapping[str, StatementIndex]) -> tuple[list[str], str | None]:
    """:func:`resolve_ref`'s problem, without its statements: it has one exactly when no statement
    scores :data:`FLOOR` (nor holds a clause, nor has a table row its text names, nor is named by a
    quoted topic), so the first that
    does ends the search."""
    narrowed = _narrowed(ref, text, indexes)
    if not isinstance(narrowed, _Matching):
        return [], narrowed[1]
    candidates, found, wording, hint, quoted = narrowed
    if quoted and len(candidates) <= MOST:
        return [], None
    cited = frozenset(w for w in _words(wording) if w not in hint)
    if cited:
        total = sum(found.weight.get(w, 2.0) for w in cited) or 1.0
        quotes = _quotes(wording)
        # A statement sharing no word with the citation scores 0 but for a quote it holds.
        if any((quotes or not cited.isdisjoint(found.around[s.id])) and _reaches_floor(s.id, cited, total, quotes, found)
               for s in candidates):
            return [], None
    for part in _clauses(wording, hint):
        ident, share = _clause_match(part, candidates, found, hint)
        if ident is not None and share >= CLAUSE_SHARE:
            return [], None
    if rows_named(text, candidates):
        return [], None
    return [], _no_match(ref)


def _no_match(ref: Ref) -> str:
    return f"{_where(ref)}: no normative statement of the section matches the cited text"


class _Matching(NamedTuple):
    """What a reference's wording is matched against, once its section and topic are found."""

    candidates: list[Statement]
    found: StatementIndex
    wording: str
    hint: set[str]  # the topic's words (they chose the candidates already)
    quoted: list[str]  # the words of a topic the wording names by quoting it


def _narrowed(ref: Ref, text: str, indexes: Mapping[str, StatementIndex]) -> _Matching | tuple[list[str], str | None]:
    """A reference's result ``(ids, problem)`` when its section and topic decide it, else what its
    wording is matched against."""
    found = indexes.get(ref.capability)
    if found is None:
        return [], f"{_where(ref)}: no prose for capability {ref.capability!r}"
    prose = found.prose
    if ref.number not in prose.sections:
        return [], f"{_where(ref)}: the prose has no section {ref.number}"
    candidates = list(found.within.get(ref.number, ()))
    if not candidates:
        return [], f"{_where(ref)} ({prose.sections[ref.number].heading}) holds no normative statement"
    hint, wording = _hint_and_wording(ref, text)
    topics = prose.topics.get(ref.number, frozenset())
    quoted: list[str] = []
    on_topic = _on_topic(candidates, hint, found, topics) if hint else None  # found once, used below
    if on_topic is None:
        quoted = _quoted_topic(wording, topics)  # '§10.11 "Count drift on resume" paragraph'
        if quoted:
            hint = quoted
            on_topic = _on_topic(candidates, hint, found, topics)
    cited = _words(wording)
    if on_topic is not None:
        if not on_topic:
            return [], f"{_where(ref)} {' '.join(hint)}: that part of the section holds no normative statement"
        candidates = on_topic
        cited = [w for w in cited if w not in hint]  # the topic chose already
    if not cited:
        if len(candidates) <= MOST:
            return [s.id for s in candidates], None
        return [], f"{_where(ref)}: too vague to resolve (no wording beyond the section, which holds {len(candidates)} statements)"
    return _Matching(candidates, found, wording, set(hint), quoted)


def rows_named(text: str, candidates: Iterable[Statement]) -> list[Statement]:
    """The statements of the table rows whose key ``text`` names as an identifier (a part of
    ``Owner.key`` or ``key.field``); an owner keeps only the rows under a heading holding each of
    its name parts (``LlmFailedEvent`` → llm, failed, event: "Typed LLM failure event")."""
    candidates = [s for s in candidates if s.row_keys]
    named: list[Statement] = []
    for mention in _IDENTIFIER_MENTION.finditer(text) if candidates else ():
        parts = (mention.group(1) if mention.group(1) is not None else mention.group(0)).strip().removesuffix("()").split(".")
        if not all(_IDENTIFIER.fullmatch(part) for part in parts):
            continue  # a code span holding no identifier (`{"inputs": [str]}`)
        for at, part in enumerate(parts):
            owner = _name_parts(" ".join(parts[:at]))
            named.extend(s for s in candidates if part in s.row_keys and all(_said(word, _name_parts(s.heading)) for word in owner))
    return list(dict.fromkeys(named))


def _name_parts(name: str) -> frozenset[str]:
    """The words of a name, CamelCase and snake_case split: ``LlmFailedEvent`` → llm, failed, event."""
    return frozenset(part.lower() for part in _NAME_PART.findall(name) if part.lower() not in _STOP)


def _said(word: str, heading: frozenset[str]) -> bool:
    """Whether a heading holds ``word`` or a form of it ("failed" / "failure", "embed" / "embedding"):
    a shared opening of at least four letters and most of the shorter word."""
    return any(len(common := os.path.commonprefix((word, other))) >= min(4, len(word), len(other))
               and len(common) >= 0.6 * min(len(word), len(other)) for other in heading)


def _clauses(wording: str, hint: set[str]) -> list[str]:
    """The wording whole, and each of its clauses when it lists several checks ("registration
    modes; event delivery is strictly serial; …"): each clause is matched on its own, so a
    citation paraphrasing several statements reaches each. A clause of one word says too little."""
    parts = [p for p in _CLAUSE.split(_PARENTHESES.sub(" ", wording)) if len([w for w in _words(p) if w not in hint]) >= 2]
    return parts if len(parts) > 1 else []


def _best(wording: str, candidates: list[Statement], found: StatementIndex, hint: set[str], floor: float) -> dict[str, float]:
    """The statements ``wording`` matches best, with their scores (none: nothing reaches :data:`FLOOR`)."""
    cited_set = frozenset(w for w in _words(wording) if w not in hint)
    if not cited_set:
        return {}
    total = sum(found.weight.get(w, 2.0) for w in cited_set) or 1.0
    quotes = _quotes(wording)
    scored = sorted(((_score(s.id, cited_set, total, quotes, found), s.id) for s in candidates), reverse=True)
    best = scored[0][0]
    if best < floor:
        return {}
    return {ident: score for score, ident in scored[:MOST] if score >= max(floor, CLOSE * best)}


def _quotes(wording: str) -> list[frozenset[str]]:
    """The words of each sentence the wording quotes."""
    return [q for q in (frozenset(_words(quote)) for quote in _QUOTE.findall(wording)) if q]


def _clause_match(clause: str, candidates: list[Statement], found: StatementIndex, hint: set[str]) -> tuple[str | None, float]:
    """The statement holding the largest weighted share of one clause's words in its own text, and
    that share (a clause is short: it must be said by the statement itself, not by its heading)."""
    cited = frozenset(w for w in _words(clause) if w not in hint)
    total = sum(found.weight.get(w, 2.0) for w in cited) or 1.0
    shares = [(sum(map(found.weight.get, cited & found.own[s.id], _UNSEEN)) / total, _score(s.id, cited, total, [], found), s.id)
              for s in candidates]
    share, _, ident = max(shares, default=(0.0, 0.0, None))
    return ident, share


def _quoted_topic(wording: str, topics: Iterable[str]) -> list[str]:
    """The words of a sub-heading or paragraph label the citation names by quoting it."""
    for quoted in _QUOTED_TOPIC.findall(wording):
        named = words(quoted)
        if named and any(_word_set(t) == set(named) for t in topics):
            return named
    return []


def _naming(pattern: re.Pattern, text: str, number: str) -> re.Match | None:
    return next((match for match in pattern.finditer(text) if match.group(1) == number), None)


def _hint_and_wording(ref: Ref, text: str) -> tuple[list[str], str]:
    """The topic words after the reference (up to the lead's end), and the rest of the text."""
    match = _naming(_NAMED_SECTION, text, ref.number)
    if match is None:
        return [], _REF_TEXT.sub(" ", text)
    after = text[match.end():]
    end = _LEAD_END.search(after)
    lead = after[: end.start()] if end else ""
    hint = [w for w in _words(_REF_TEXT.sub(" ", lead)) if w not in ("step",) and not w.isdigit()]
    rest = (text[: match.start()] + " " + (after[end.end():] if end else after))
    return hint, _REF_TEXT.sub(" ", rest)


def _on_topic(candidates: list[Statement], hint: list[str], found: StatementIndex, topics: Iterable[str]) -> list[Statement] | None:
    """The candidates of the topic the hint names; None when it names no topic of the section."""
    wanted = set(hint)
    named = [t for t in topics if wanted and wanted <= _word_set(t)]
    exact = [t for t in named if _word_set(t) == wanted]
    named = exact or named  # "§6 Drain" is the Drain topic, not also "Per-invocation drain"
    if not named:
        matched = [s for s in candidates if wanted and wanted <= found.topic_words[s.id]]
        return matched or None
    named_words = [_word_set(t) for t in named]
    return [s for s in candidates if any(ws == _word_set(part) for ws in named_words for part in s.heading.split(" › "))]


_UNSEEN = itertools.repeat(2.0)  # the weight of a word the capability's statements never use


def _reaches_floor(ident: str, cited: frozenset[str], total: float, quotes: list[frozenset[str]], found: StatementIndex) -> bool:
    """``_score(...) >= FLOOR``, most statements answered by their cheapest part: without quotes a
    score is at most ``0.7 * covered + 0.3 * repeated`` (``near`` and ``own`` lie within ``around``),
    and ``repeated`` at most ``covered * total / own_weight`` — below the floor by more than rounding,
    the other sums are not taken."""
    if not quotes:
        covered = sum(map(found.weight.get, cited & found.around[ident], _UNSEEN))
        if 0.7 * covered / total + 0.3 * min(1.0, covered / found.own_weight[ident]) < FLOOR - 1e-9:
            return False
    return _score(ident, cited, total, quotes, found) >= FLOOR


def _score(ident: str, cited: frozenset[str], total: float, quotes: list[frozenset[str]], found: StatementIndex) -> float:
    """How closely statement ``ident`` matches the citation's words (``total``: their summed weight)."""
    weight_of = found.weight.get  # each sum below: weight_of(word, 2.0) over a set of words, in C
    own = found.own[ident]
    covered_near = sum(map(weight_of, cited & found.near[ident], _UNSEEN)) / total
    covered = sum(map(weight_of, cited & found.around[ident], _UNSEEN)) / total
    repeated = sum(map(weight_of, own & cited, _UNSEEN)) / found.own_weight[ident]
    score = 0.45 * covered_near + 0.25 * covered + 0.3 * repeated
    for quoted in quotes:
        if len(quoted & own) >= 0.8 * len(quoted):
            score += 1.0
    return score
