"""The prose index cache (frontends/coverage/prose_index.py): a cached index is the index the
prose reads to, an edited text never meets the old one, and a cache that cannot be used is passed over."""

from __future__ import annotations

import os

from oa_conformance.frontends.coverage.prose import read_prose
from oa_conformance.frontends.coverage.prose_index import cached_index
from oa_conformance.frontends.coverage.resolve import index

PROSE = """# Capability

## 2. Nodes

A node MUST NOT mutate the state object it received.

## 3. Edges

An edge SHOULD name its target.
"""


def spec_md(tmp_path, text: str) -> str:
    path = tmp_path / "spec" / "graph-engine" / "spec.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_cached_index_is_the_index_the_prose_reads_to(tmp_path, monkeypatch):
    monkeypatch.setenv("OA_CACHE_DIR", str(tmp_path / "cache"))
    path = spec_md(tmp_path, PROSE)
    fresh = index(read_prose(PROSE, "graph-engine", path))
    first = cached_index("graph-engine", path)
    assert len(os.listdir(tmp_path / "cache")) == 1
    second = cached_index("graph-engine", path)  # from the file written by the first
    assert first == fresh and second == fresh
    assert [s.text for s in second.prose.statements] == ["A node MUST NOT mutate the state object it received.",
                                                         "An edge SHOULD name its target."]


def test_an_edited_text_is_read_again(tmp_path, monkeypatch):
    monkeypatch.setenv("OA_CACHE_DIR", str(tmp_path / "cache"))
    path = spec_md(tmp_path, PROSE)
    cached_index("graph-engine", path)
    edited = PROSE.replace("SHOULD name", "MUST name")
    spec_md(tmp_path, edited)
    found = cached_index("graph-engine", path)
    assert found == index(read_prose(edited, "graph-engine", path))
    assert [s.level for s in found.prose.statements] == [s.level for s in read_prose(edited, "graph-engine", path).statements]
    assert len(os.listdir(tmp_path / "cache")) == 2


def test_a_cache_that_cannot_be_used_is_passed_over(tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")  # the cache folder's path is a file: nothing can be written under it
    monkeypatch.setenv("OA_CACHE_DIR", str(blocked / "cache"))
    path = spec_md(tmp_path, PROSE)
    assert cached_index("graph-engine", path) == index(read_prose(PROSE, "graph-engine", path))
    monkeypatch.setenv("OA_CACHE_DIR", "")  # off
    assert cached_index("graph-engine", path) == index(read_prose(PROSE, "graph-engine", path))
    cache = tmp_path / "cache"
    monkeypatch.setenv("OA_CACHE_DIR", str(cache))
    cached_index("graph-engine", path)
    (written,) = os.listdir(cache)
    (cache / written).write_bytes(b"not a pickle")  # a damaged file is read past, and replaced
    assert cached_index("graph-engine", path) == index(read_prose(PROSE, "graph-engine", path))
