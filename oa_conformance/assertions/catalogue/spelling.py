"""A predicate name that is a misspelling of a known one, told apart from a new name.

conformance-adapter §5.9: predicate names are open — a fixture may introduce its own, documented in
its prose, and the adapter must then implement it (until then: "not implemented", lint P001). So a
name the catalogue does not know is not by itself a schema problem. A name one or two keystrokes away
from a name the catalogue knows (in any capability), and itself known nowhere, is: that is how
``no_events_for_nod`` differs from ``no_events_for_node``. New names in the spec's corpora are
further away than that: none of the 177 distinct names the catalogue did not resolve in the 0.109.0
and 0.118.2 corpora was within three edits of a known name (they differ by whole words:
``matching_extras_stream_false_no_op`` beside ``matching_extras_stream_no_op``).
"""

from __future__ import annotations

from functools import lru_cache

from . import TABLES, all_rows, pattern_regex, resolve

# At most this many single-character edits (insert, delete, replace, swap two neighbours) from a
# known name: a misspelling. The corpora's new names are all more than 3 away.
MAX_EDITS = 2


@lru_cache(maxsize=4096)
def misspelling_of(capability: str | None, name: str) -> str | None:
    """The known predicate name ``name`` most likely misspells, or None (known, or a new name)."""
    if any(resolve(known, name) is not None for known in (capability, *TABLES)):
        return None
    close = [(distance, known) for known in _candidates(name) if (distance := _edits(name, known)) <= MAX_EDITS]
    if not close:
        return None
    # The capability's own names first, then the nearest, then the first in name order.
    return min(close, key=lambda found: (resolve(capability, found[1]) is None, found[0], found[1]))[1]


@lru_cache(maxsize=1)
def _known_names() -> tuple[str, ...]:
    """Every plain (non-pattern) predicate name of every table."""
    return tuple(sorted({row.name for _, row in all_rows() if pattern_regex(row.name) is None}))


# Pigeonhole filter: an edit changes at most one piece of a known name, a swap of two neighbours at
# most two, so a name within MAX_EDITS of it holds one of its 2 * MAX_EDITS + 1 pieces unchanged —
# a substring test in C rules out almost every pair before the alignment is computed (2 s → 0.1 s
# for the corpora's ~1,000 unknown names against ~130 known ones).
_PIECES = 2 * MAX_EDITS + 1


@lru_cache(maxsize=1)
def _pieces_index() -> tuple[dict[str, tuple[str, ...]], tuple[int, ...], tuple[str, ...]]:
    """Every piece of every known name → the names it is a piece of; the pieces' lengths; the names
    too short to cut (always candidates)."""
    index: dict[str, set[str]] = {}
    short = []
    for known in _known_names():
        pieces = _cut(known)
        if pieces is None:
            short.append(known)
        for piece in pieces or ():
            index.setdefault(piece, set()).add(known)
    return ({piece: tuple(sorted(names)) for piece, names in index.items()},
            tuple(sorted({len(piece) for piece in index})), tuple(short))


def _candidates(name: str) -> list[str]:
    """The known names one of whose pieces ``name`` holds (a dict look-up per substring of a piece's
    length), in name order."""
    index, lengths, short = _pieces_index()
    found = set(short)
    for length in lengths:
        for start in range(len(name) - length + 1):
            found.update(index.get(name[start:start + length], ()))
    return sorted(found)


def _cut(name: str) -> tuple[str, ...] | None:
    """``name`` in _PIECES consecutive pieces of nearly equal length; None when it is too short to cut."""
    if len(name) < _PIECES:
        return None
    size, extra = divmod(len(name), _PIECES)
    bounds = [0]
    for index in range(_PIECES):
        bounds.append(bounds[-1] + size + (index < extra))
    return tuple(name[start:end] for start, end in zip(bounds, bounds[1:]))


def _edits(a: str, b: str) -> int:
    """The optimal-string-alignment distance between ``a`` and ``b``, or MAX_EDITS + 1 when it is larger."""
    if abs(len(a) - len(b)) > MAX_EDITS:
        return MAX_EDITS + 1
    before, row = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if before is not None and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > MAX_EDITS:
            return MAX_EDITS + 1
        before, row = row, current
    return row[-1]
