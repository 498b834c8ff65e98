"""A capability's prose index, read from an on-disk cache when its text was indexed before.

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
import tempfile
from functools import lru_cache

from . import prose as prose_module
from . import resolve as resolve_module
from .prose import read_prose
from .resolve import StatementIndex, index


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
