"""Finding fixtures (§8.1): walk ``spec/<capability>/conformance/`` for ``*.yaml``.

A root may be a spec repository (it has ``spec/``), its ``spec/`` folder, one ``conformance/``
folder, or a single fixture file (a relative root is judged by its absolute path: ``.`` inside a
``conformance/`` folder is that folder). Fixtures come back sorted by capability then file name, so
every front end lists them in the same order.

The layout rule stays (only ``*.yaml`` directly in ``conformance/`` is a fixture), but nothing that
looks like a fixture is passed over silently: :func:`find` also lists each file it will not run — a
``.yml`` or ``.YAML`` name, a fixture in a subfolder, a ``NNN-name.md`` sidecar with no fixture —
and every front end reports them (``check`` and ``run`` a located warning, oa-lint ``L004``, pytest
a collection warning).
"""

from __future__ import annotations

import difflib
import os
import re
from typing import Iterable, NamedTuple

from .diagnostics import Span


# The spec's capability directories this adapter knows (a spec root may add more: they are read too).
CAPABILITIES = ("graph-engine", "pipeline-utilities", "observability", "llm-provider", "retrieval-provider",
                "prompt-management", "sessions", "suspension", "harness", "harness-chat")


def capability_of(path: str) -> str | None:
    """The capability a path names by where it sits (the one place that reads it off a path): a
    fixture ``<capability>/conformance/<file>``, or the folder ``<capability>/conformance`` itself;
    None elsewhere. Judged by the absolute path (``.`` inside a ``conformance/`` folder is that folder)."""
    parts = os.path.abspath(path).split(os.sep)
    if len(parts) >= 3 and parts[-2] == "conformance":
        return parts[-3]
    if len(parts) >= 2 and parts[-1] == "conformance":
        return parts[-2]
    return None


class FixtureRef(NamedTuple):
    path: str  # as given / found (absolute when the root was)
    capability: str | None
    name: str  # the file name: NNN-kebab-slug.yaml

    @property
    def display(self) -> str:
        """``<capability>/conformance/<file name>``, the id reports use."""
        return f"{self.capability}/conformance/{self.name}" if self.capability else self.name


class PassedOver(NamedTuple):
    """A file that looks like a fixture (or its sidecar) but that discovery will not run, and why."""

    path: str
    capability: str | None
    reason: str

    @property
    def warning(self) -> str:
        """The located one-line warning ``check`` and ``run`` print."""
        return f"{Span(self.path, 1, 1)}: warning: {self.reason}"


class Discovery(NamedTuple):
    fixtures: list[FixtureRef]
    passed_over: list[PassedOver]


_YAML_LIKE = (".yaml", ".yml")  # compared lower-cased: .YAML, .Yml … look like fixtures too
_SIDECAR = re.compile(r"\d+-.*\.md\Z", re.IGNORECASE)  # NNN-name.md (a README.md is not one)


class DiscoveryError(ValueError):
    """A root that is not a fixture, a conformance folder, a spec folder or a spec repository."""


def capability_unknown(path: str) -> str:
    """Why a fixture outside ``<capability>/conformance/`` cannot be run without ``--capability``:
    the capability decides the vocabulary (§3.2) and the executors that apply."""
    return f"{path}: not in a <capability>/conformance/ folder, so its capability is unknown; name it with --capability NAME"


def misspelled_capability(name: str | None) -> str | None:
    """The known capability a folder name misspells (``graph_engine``, ``Graph-Engine``,
    ``graph-engin``), or None: a known name, or a new capability a newer spec adds (read with the
    general vocabulary). Close means the same words with other separators or case, or a difflib
    ratio of 0.85 or more (a new capability shares no more than a word with a known one)."""
    if name is None or name in CAPABILITIES:
        return None
    words = name.lower().replace("_", "-").replace(" ", "-")
    if words in CAPABILITIES:
        return words
    close = difflib.get_close_matches(words, CAPABILITIES, n=1, cutoff=0.85)
    return close[0] if close else None


def spec_dir(root: str) -> str | None:
    """The ``spec/`` folder of a root that is a spec repository or a spec folder."""
    if os.path.isdir(os.path.join(root, "spec")) and _capabilities(os.path.join(root, "spec")):
        return os.path.join(root, "spec")
    if _capabilities(root):
        return root
    return None


def _capabilities(spec: str) -> list[str]:
    try:
        entries = sorted(os.listdir(spec))
    except OSError:
        return []
    return [e for e in entries if os.path.isdir(os.path.join(spec, e, "conformance"))]


def find_in_conformance(conformance: str, capability: str | None) -> Discovery:
    """The fixtures of one ``conformance/`` folder, and the files in it that look like fixtures but
    are not run."""
    # Every *.yaml entry, not only regular files: a dangling symlink, a directory or a FIFO named
    # like a fixture is reported by the loader (cannot read fixture: …), never silently dropped.
    # A folder that cannot be listed is itself the one entry: the loader reports why, the rest run.
    try:
        names = sorted(os.listdir(conformance))
    except OSError:
        return Discovery([FixtureRef(conformance, capability, os.path.basename(os.path.normpath(conformance)) + "/")], [])
    fixtures = [FixtureRef(os.path.join(conformance, name), capability, name) for name in names if name.endswith(".yaml")]
    passed_over = [PassedOver(path, capability, reason) for path, reason in _passed_over(conformance, names)]
    return Discovery(fixtures, passed_over)


def _passed_over(folder: str, names: list[str], nested: bool = False) -> Iterable[tuple[str, str]]:
    """``(path, why)`` for each name in ``folder`` that looks like a fixture or a sidecar and is not
    run; the subfolders are searched too (``nested``: inside one, where nothing is run)."""
    stems = {name.rsplit(".", 1)[0] for name in names if name.lower().endswith(_YAML_LIKE)}
    for name in names:
        if name.endswith(".yaml") and not nested:
            continue  # a fixture (or what the loader reports as unreadable)
        if name.lower().endswith(_YAML_LIKE):
            if nested:
                yield os.path.join(folder, name), "looks like a fixture but is not run: fixtures are read from <capability>/conformance/ itself, not its subfolders"
            else:
                yield os.path.join(folder, name), f"looks like a fixture but is not run: a fixture's name ends in '.yaml' (rename it {name.rsplit('.', 1)[0]}.yaml)"
        elif name.endswith(".md"):  # a sidecar (one stat less per fixture: a folder is not named *.md)
            if name[:-3] not in stems and _SIDECAR.match(name):
                yield os.path.join(folder, name), f"a sidecar without a fixture: no {name[:-3]}.yaml beside it"
        elif os.path.isdir(path := os.path.join(folder, name)) and not os.path.islink(path):
            try:
                inner = sorted(os.listdir(path))
            except OSError:
                continue
            yield from _passed_over(path, inner, nested=True)


def discover(roots: Iterable[str], capabilities: Iterable[str] | None = None,
             loose_capability: str | None = None) -> list[FixtureRef]:
    """Every fixture under ``roots`` (optionally only these capabilities), without duplicates: the
    fixtures of :func:`find`."""
    return find(roots, capabilities, loose_capability).fixtures


def find(roots: Iterable[str], capabilities: Iterable[str] | None = None,
         loose_capability: str | None = None) -> Discovery:
    """Every fixture under ``roots`` (optionally only these capabilities), without duplicates, and
    every file beside them that looks like a fixture but is not run.

    A fixture file given outside a ``<capability>/conformance/`` folder takes ``loose_capability``
    (the command line's single ``--capability``), else the only one of ``capabilities``, else none:
    the static passes then accept every capability's vocabulary, and ``run`` refuses it (with no
    capability, its capability's directives would all be "not implemented").
    """
    wanted = set(capabilities) if capabilities else None
    if loose_capability is None and wanted is not None and len(wanted) == 1:
        (loose_capability,) = wanted
    found: list[FixtureRef] = []
    passed_over: list[PassedOver] = []
    for root in roots:
        if os.path.lexists(root) and not os.path.isdir(root):  # a file, or what the loader reports (FIFO, link)
            capability = capability_of(root) or loose_capability
            if capability is not None and capability not in CAPABILITIES and capability is loose_capability:
                raise DiscoveryError(f"{root}: no vocabulary for the capability {capability!r} (known: {', '.join(CAPABILITIES)})")
            found.append(FixtureRef(root, capability, os.path.basename(root)))
            continue
        if not os.path.isdir(root):
            raise DiscoveryError(f"{root}: no such file or directory")
        if os.path.basename(os.path.abspath(root)) == "conformance":  # judged absolute: ".", "./" or "../conformance" are what they name
            found.extend(_collect(find_in_conformance(root, capability_of(root)), passed_over))
            continue
        spec = spec_dir(root)
        if spec is None:
            raise DiscoveryError(f"{root}: not a spec repository, a spec/ folder or a conformance/ folder")
        for capability in _capabilities(spec):
            found.extend(_collect(find_in_conformance(os.path.join(spec, capability, "conformance"), capability), passed_over))
    seen: set[str] = set()
    unique = []
    real_dirs: dict[str, str] = {}
    for ref in found:
        key = _real_path(ref.path, real_dirs)
        if key not in seen and (wanted is None or ref.capability in wanted):
            seen.add(key)
            unique.append(ref)
    reported: set[str] = set()
    skipped = []
    for item in passed_over:
        key = _real_path(item.path, real_dirs)
        if key not in reported and (wanted is None or item.capability in wanted):
            reported.add(key)
            skipped.append(item)
    return Discovery(unique, skipped)


def _collect(discovery: Discovery, passed_over: list[PassedOver]) -> list[FixtureRef]:
    passed_over.extend(discovery.passed_over)
    return discovery.fixtures


def _real_path(path: str, real_dirs: dict[str, str]) -> str:
    """``os.path.realpath(path)``, resolving each directory once: a file that is not itself a link
    is its directory's real path plus its name (one lstat instead of one per path component)."""
    if os.path.islink(path):
        return os.path.realpath(path)
    directory, name = os.path.split(path)
    real = real_dirs.get(directory)
    if real is None:
        real = real_dirs[directory] = os.path.realpath(directory)
    return os.path.join(real, name)
