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
    if name in _known_set():  # a plain name of some table: known (most names; no table's patterns compiled)
        return None
    close = [(distance, known) for known in _candidates(name) if (distance := _edits(name, known)) <= MAX_EDITS]
    # Only a name near a known one can be a misspelling: only then are the tables' patterns asked
    # whether it is known after all (compiling them costs more than the rest of the check).
    if not close or any(resolve(known, name) is not None for known in (capability, *TABLES)):
        return None
    # The capability's own names first, then the nearest, then the first in name order.
    return min(close, key=lambda found: (resolve(capability, found[1]) is None, found[0], found[1]))[1]


@lru_cache(maxsize=1)
def _known_names() -> tuple[str, ...]:
    """Every plain (non-pattern) predicate name of every table."""
    return tuple(sorted({row.name for _, row in all_rows() if pattern_regex(row.name) is None}))


@lru_cache(maxsize=1)
def _known_set() -> frozenset[str]:
    return frozenset(_known_names())


# Pigeonhole filter: an edit changes at most one piece of a known name, a swap of two neighbours at
# most two, so a name within MAX_EDITS of it holds one of its 2 * MAX_EDITS + 1 pieces unchanged —
# a dict look-up of the name's substrings of those pieces' lengths rules out almost every pair
# before the alignment is computed. Only known names within MAX_EDITS of the name's length can be
# that close, so only the piece lengths they have are looked up.
_PIECES = 2 * MAX_EDITS + 1


@lru_cache(maxsize=1)
def _pieces_index() -> tuple[dict[str, tuple[str, ...]], dict[int, tuple[str, ...]]]:
    """Every piece of every known name → the names it is a piece of; name length → the names of
    that length too short to cut (always candidates)."""
    index: dict[str, set[str]] = {}
    short: dict[int, list[str]] = {}
    for known in _known_names():
        pieces = _cut(known)
        if pieces is None:
            short.setdefault(len(known), []).append(known)
        for piece in pieces or ():
            index.setdefault(piece, set()).add(known)
    return {piece: tuple(sorted(names)) for piece, names in index.items()}, {length: tuple(names) for length, names in short.items()}


def _candidates(name: str) -> list[str]:
    """The known names within MAX_EDITS of ``name``'s length one of whose pieces ``name`` holds (a
    dict look-up per substring of the piece lengths such names have), in name order."""
    index, short = _pieces_index()
    lengths = range(len(name) - MAX_EDITS, len(name) + MAX_EDITS + 1)
    found = {known for length in lengths for known in short.get(length, ())}
    for size in {size for length in lengths if length >= _PIECES for size in (length // _PIECES, -(-length // _PIECES))}:
        for start in range(len(name) - size + 1):
            found.update(known for known in index.get(name[start:start + size], ()) if len(known) in lengths)
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
    """The optimal-string-alignment distance between ``a`` and ``b``, or MAX_EDITS + 1 when it is larger.

    Only the band of cells within MAX_EDITS of the diagonal is computed: a cell off it needs more
    edits than that, so it stands at MAX_EDITS + 1 (as does every cell that would exceed it)."""
    if abs(len(a) - len(b)) > MAX_EDITS:
        return MAX_EDITS + 1
    far, width = MAX_EDITS + 1, len(b)
    before, row = None, [j if j < far else far for j in range(width + 1)]
    for i in range(1, len(a) + 1):
        current = [far] * (width + 1)
        current[0] = i if i < far else far
        char = a[i - 1]
        for j in range(max(1, i - MAX_EDITS), min(width, i + MAX_EDITS) + 1):
            best = row[j - 1] + (char != b[j - 1])
            if row[j] < best:  # row[j] + 1 <= best
                best = row[j] + 1
            if current[j - 1] < best:
                best = current[j - 1] + 1
            if before is not None and j > 1 and char == b[j - 2] and a[i - 2] == b[j - 1] and before[j - 2] < best:
                best = before[j - 2] + 1
            current[j] = best if best < far else far
        if min(current) > MAX_EDITS:
            return far
        before, row = row, current
    return row[-1]
