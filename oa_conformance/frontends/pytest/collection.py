"""Collection: the spec folders and fixture files pytest walks, each fixture file read into one
item per case (``item.CaseItem``), marked by capability."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ...model.discovery import FixtureRef, capability_of, find_in_conformance
from ...pipeline import cases_of
from .item import CaseItem
from .stash import MARKERS, ROOTS, SHARES


def marker_name(capability: str | None) -> str:
    return (capability or "unknown").replace("-", "_")


def register_marker(config: pytest.Config, capability: str | None) -> str:
    """The marker of ``capability``'s fixtures, registered with pytest once."""
    name = marker_name(capability)
    registered = config.stash.setdefault(MARKERS, set())
    if name not in registered:
        registered.add(name)
        config.addinivalue_line("markers", f"{name}: conformance fixtures of {capability or 'no capability folder'}")
    return name


class ConformanceDir(pytest.Dir):
    """A ``conformance/`` folder: every ``*.yaml`` entry is a fixture, as in
    :func:`oa_conformance.model.discovery.discover` — also a dangling link, a link loop, a FIFO or a
    directory named like one, which pytest's own walk drops (it collects regular files only) and
    whose item then fails with the loader's finding. A folder that cannot be listed is one failing
    item (see :func:`pytest_collect_directory`), not a collection error that stops the session."""

    def collect(self):
        # A file that looks like a fixture and is not run (a .yml name, a fixture in a subfolder, a
        # lone sidecar) is a collection warning, as it is a warning of check and run (discovery.find).
        for item in find_in_conformance(str(self.path), self.path.parent.name).passed_over:
            self.warn(pytest.PytestCollectionWarning(item.warning))
        names = os.listdir(self.path)
        odd = {name for name in names if name.endswith(".yaml") and not os.path.isfile(self.path / name)}
        collected = [node for node in super().collect() if node.path.name not in odd or node.path.parent != self.path]
        collected.extend(fixture_file(self, self.path / name) for name in odd)
        yield from sorted(collected, key=lambda node: node.path.name)


class SymlinkLoop(pytest.Directory):
    def collect(self):
        target = os.path.realpath(self.path)
        raise pytest.Collector.CollectError(f"{self.path}: symbolic link loop (points at its ancestor {target}); not followed")


class AlreadyCollected(pytest.Directory):
    def collect(self):
        return []


class FixtureFile(pytest.File):
    def collect(self):
        # The real directory names the capability (a link into a folder names the folder's), else
        # the folder the file was collected in.
        capability = capability_of(os.path.realpath(self.path)) or capability_of(str(self.path))
        if not self.config.stash[SHARES].owns_next_file():
            return  # another xdist worker's: it reads and runs this file
        fixture = FixtureRef(str(self.path), capability, self.path.name)
        stem = self.path.name.removesuffix(".yaml")
        for case in cases_of(fixture):
            # The case name is the parametrization id: `<file>::NNN-name[case]`, exactly as pytest
            # writes `test_x[param]`, so node ids read back from --lf's cache or an xdist worker match.
            name = f"{stem}[{case.name}]" if case.name is not None else stem
            nodeid = f"{self.nodeid}::{name}"
            item = CaseItem.from_parent(self, name=name, nodeid=nodeid, case=case)
            item.add_marker(register_marker(self.config, fixture.capability))
            item.extra_keyword_matches.add(case.id)
            yield item


def fixture_file(parent: pytest.Collector, path: Path) -> FixtureFile:
    """The collector of one fixture. Outside pytest's rootdir its node id is its path within the
    outermost spec root holding it (``graph-engine/conformance/001-x.yaml``) — what pytest prints
    when it collects the root, and so also when the FAILED line's node id is pasted back
    (``hooks._found_under``), where pytest alone would name it from the file itself (``::001-x[case]``)."""
    config = parent.config
    try:
        path.relative_to(config.rootpath)
        return FixtureFile.from_parent(parent, path=path)
    except ValueError:
        pass
    real = Path(os.path.realpath(path))
    holding = [root for root in config.stash[ROOTS] if root.is_dir() and real != root and root in real.parents]
    if not holding:
        return FixtureFile.from_parent(parent, path=path)
    outermost = min(holding, key=lambda root: len(root.parts))
    return FixtureFile.from_parent(parent, path=path, nodeid=real.relative_to(outermost).as_posix())
