"""The predicate spelling check's shortcuts (a set look-up, a length and piece filter, a banded
alignment) judge every name as the plain definition does: the nearest known name within two edits,
unless the name is known in some table."""

from __future__ import annotations

import random

from oa_conformance.assertions.catalogue import TABLES, resolve
from oa_conformance.assertions.catalogue.spelling import MAX_EDITS, _known_names, misspelling_of


def _distance(a: str, b: str) -> int:
    """The optimal-string-alignment distance, the whole table."""
    before, row = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i]
        for j in range(1, len(b) + 1):
            best = row[j - 1] + (a[i - 1] != b[j - 1])
            best = row[j] + 1 if row[j] + 1 < best else best
            best = current[j - 1] + 1 if current[j - 1] + 1 < best else best
            if before is not None and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] and before[j - 2] + 1 < best:
                best = before[j - 2] + 1
            current.append(best)
        before, row = row, current
    return row[-1]


def _by_definition(capability: str | None, name: str) -> str | None:
    if any(resolve(known, name) is not None for known in (capability, *TABLES)):
        return None
    # (a length difference is a lower bound of the distance: only it spares the whole table)
    close = [(distance, known) for known in _known_names()
             if abs(len(known) - len(name)) <= MAX_EDITS and (distance := _distance(name, known)) <= MAX_EDITS]
    if not close:
        return None
    return min(close, key=lambda found: (resolve(capability, found[1]) is None, found[0], found[1]))[1]


def _edited(name: str, chance: random.Random) -> str:
    at = chance.randrange(len(name) + 1)
    kind = chance.randrange(4)
    letter = chance.choice("abcdefghijklmnopqrstuvwxyz_0123456789")
    if kind == 0:
        return name[:at] + letter + name[at:]
    if kind == 1 and at < len(name):
        return name[:at] + name[at + 1:]
    if kind == 2 and at < len(name):
        return name[:at] + letter + name[at + 1:]
    if at + 1 < len(name):
        return name[:at] + name[at + 1] + name[at] + name[at + 2:]
    return name


def test_misspellings_are_judged_as_the_definition_judges_them():
    chance = random.Random(26)
    known = list(_known_names())
    capabilities = [*TABLES, "no-such-capability"]
    names = set()
    for _ in range(60):  # one to three edits from a known name: near, at the bound, past it
        name = chance.choice(known)
        for _ in range(chance.randint(1, 3)):
            name = _edited(name, chance)
        names.add((chance.choice(capabilities), name))
    names.update((None, name) for name in known[:10])
    judged = [(capability, name, misspelling_of(capability, name)) for capability, name in sorted(names, key=repr)]
    assert judged == [(capability, name, _by_definition(capability, name)) for capability, name, _ in judged]
    assert sum(found is not None for _, _, found in judged) > 20  # misspellings are found, not only passed
