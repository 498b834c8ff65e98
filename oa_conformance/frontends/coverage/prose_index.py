"""Where a spec checkout's prose is, and each capability's prose index — read from an on-disk
cache when its text was indexed before. What ``oa-lint``'s citation rule needs of the coverage
map, without the rest of it (the accounting, evidence and results readers).

Reading and indexing one ``spec.md`` (``prose.read_prose``, ``resolve.index``) costs 5-25 ms; the
0.109.0 prose is 1 MB over 11 capabilities, and citations cross capabilities, so each of
``oa-lint``'s processes read nearly all of it on every run. Loading the pickled index costs a tenth.

The cache file is named by a hash of everything the index is made from: the text, the capability
and path it is read as, the source of the two modules that read and index it, and the Python
version. An edited spec, a changed reader or another interpreter never meets an old index. The
folder is ``$OA_CACHE_DIR``, else ``$XDG_CACHE_HOME/oa-conformance`` (``~/.cache/oa-conformance``);
a cache that cannot be read or written is passed over: the prose is read as without one.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from collections.abc import Mapping
from functools import lru_cache
from typing import Iterator

from . import prose as prose_module
from . import resolve as resolve_module
from .prose import read_prose
from .resolve import StatementIndex, index


class ProseError(ValueError):
    """``--prose`` names no spec checkout (no ``spec/<capability>/spec.md``)."""


def prose_dir(checkout: str) -> str:
    """The folder holding ``<capability>/spec.md``: the checkout's ``spec/``, or the checkout itself."""
    for candidate in (os.path.join(checkout, "spec"), checkout):
        if os.path.isdir(candidate) and any(os.path.isfile(os.path.join(candidate, name, "spec.md"))
                                            for name in sorted(os.listdir(candidate))):
            return candidate
    raise ProseError(f"{checkout}: no spec/<capability>/spec.md here (give a spec checkout that has the prose)")


class ProseIndexes(Mapping):
    """Capability → the matching index of its prose in one folder, each read when first asked
    for: a lint reads only the prose its fixtures' citations name (a share of the corpus, one
    capability's fixtures, most often their own capability's); the names come from the listing."""

    def __init__(self, directory: str):
        self.directory = directory
        self._names = tuple(name for name in sorted(os.listdir(directory)) if os.path.isfile(os.path.join(directory, name, "spec.md")))
        self._read: dict[str, StatementIndex] = {}

    def __getitem__(self, name: str) -> StatementIndex:
        found = self._read.get(name)
        if found is None:
            if name not in self._names:
                raise KeyError(name)
            found = self._read[name] = cached_index(name, os.path.join(self.directory, name, "spec.md"))
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


_INDEXES: dict[str, ProseIndexes] = {}


def indexes_for(directory: str) -> ProseIndexes:
    """The matching indexes of every capability's prose in ``directory`` (each read once per process)."""
    key = os.path.realpath(directory)
    if key not in _INDEXES:
        _INDEXES[key] = ProseIndexes(directory)
    return _INDEXES[key]


def beside(fixture: str) -> str | None:
    """The prose folder of the spec checkout a fixture is in (``…/spec/<capability>/conformance/f.yaml``
    → ``…/spec`` when it holds a ``<capability>/spec.md``), or None."""
    conformance = os.path.dirname(os.path.abspath(fixture))
    if os.path.basename(conformance) != "conformance":
        return None
    spec = os.path.dirname(os.path.dirname(conformance))
    try:
        return prose_dir(spec)
    except (ProseError, OSError):
        return None


def cached_index(name: str, path: str) -> StatementIndex:
    """The index of capability ``name``'s prose at ``path``."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    folder = cache_dir()
    if folder is None:
        return index(read_prose(text, name, path))
    key = hashlib.sha256(_reader_key() + "\0".join((name, path, text)).encode("utf-8")).hexdigest()
    cached = os.path.join(folder, f"prose-{key[:32]}.pickle")
    try:
        with open(cached, "rb") as handle:
            return pickle.load(handle)
    except Exception:  # none yet, or unreadable (a partial write is never there: see below)
        pass
    found = index(read_prose(text, name, path))
    _write(folder, cached, found)
    return found


def cache_dir() -> str | None:
    """Where the indexes are kept (None: ``OA_CACHE_DIR`` set empty turns the cache off)."""
    chosen = os.environ.get("OA_CACHE_DIR")
    if chosen is not None:
        return chosen or None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "oa-conformance")


@lru_cache(maxsize=1)
def _reader_key() -> bytes:
    """What the index depends on besides the text: the reader's and indexer's source, the Python."""
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for module in (prose_module, resolve_module):
        with open(module.__file__, "rb") as handle:
            digest.update(handle.read())
    return digest.digest()


def _write(folder: str, cached: str, found: StatementIndex) -> None:
    """Written whole or not at all (a temporary file renamed), so a reader never meets half of one."""
    import tempfile  # here: only a run that misses the cache writes (tempfile imports shutil, bz2, lzma, random)

    try:
        os.makedirs(folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".prose-")
        try:
            with os.fdopen(handle, "wb") as out:
                pickle.dump(found, out, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, cached)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:  # a read-only home, a full disk: the next run reads the prose again
        pass
