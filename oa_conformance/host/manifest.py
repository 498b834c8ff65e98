"""Which openarmature build runs, and which proposals it ships.

The adapter judges whatever build its user points it at: a release wheel, an older one that ships no
``conformance.toml`` (0.16.0), or a source checkout installed editable, whose ``conformance.toml``
sits at the checkout root, outside the package. One source of truth decides the recognized skips,
and the run header names it:

    user      ``--runtime-manifest FILE`` (pytest: ``--oa-runtime-manifest``): given beats found
    package   ``conformance.toml`` inside the installed ``openarmature`` package (a wheel ships it)
    checkout  ``conformance.toml`` at the root of the checkout the build comes from: the editable
              install's ``direct_url.json`` (``dir_info.editable``, a ``file://`` url), or the
              package's parent or grandparent (flat or ``src/`` layout; never in site-packages) —
              a file whose ``[manifest] implementation`` names openarmature
    probing   no manifest: each proposal a fixture can need has a probe of the runtime's public API

A manifest that gives no usable status for a proposal (one accepted after its spec pin) is completed
by that proposal's probe. A status still undetermined never becomes a skip nor a silent pass: the
case runs (the real runtime is the judge) with a note naming the proposal, and the run warns once
per proposal. Version numbers are not compared here (``host.required`` compares a build's claimed
spec version with the version a core public name became required in, and nothing else).

The manifest's ``[adapter_capabilities]`` (conformance-adapter §5.5) is read here too:
:func:`adapter_capability`.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import json
import re
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple
from urllib.parse import urlparse

DISTRIBUTION = "openarmature"
MANIFEST_NAME = "conformance.toml"
IMPLEMENTATIONS = frozenset({"openarmature", "openarmature-python"})  # [manifest] implementation values
SITE_DIRECTORIES = frozenset({"site-packages", "dist-packages"})

# Where the manifest came from (the run header and the JSON report's host object say which).
USER, PACKAGE, CHECKOUT, PROBING = "user", "package", "checkout", "probing"
# What a fixture that needs a proposal meets.
SHIPPED, NOT_SHIPPED, UNDETERMINED = "shipped", "not-shipped", "undetermined"
# The statuses conformance.toml uses. "partial" runs the case: what is missing shows as failures.
MANIFEST_STATES = {"implemented": SHIPPED, "partial": SHIPPED, "textual-only": SHIPPED, "not-yet": NOT_SHIPPED}


class ManifestError(Exception):
    """A runtime manifest that cannot be read: a usage error, reported before any case runs."""

    def __init__(self, path: Path, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path = path


class Probe(NamedTuple):
    ships: bool | None  # None: the probe could not tell
    evidence: str


def _import(module: str) -> Any:
    """The module, or the Probe saying why not: absent when it (or a parent) does not exist."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            return Probe(False, f"no module {module}")
        return Probe(None, f"importing {module} raised ModuleNotFoundError: {exc}")
    except Exception as exc:  # the module exists but does not import: cannot tell what it ships
        return Probe(None, f"importing {module} raised {type(exc).__name__}: {exc}")


def _module(name: str) -> Callable[[], Probe]:
    """Ships when the module exists (located, not run)."""
    def probe() -> Probe:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # a parent package does not exist
            found = False
        return Probe(found, f"{'found' if found else 'no'} module {name}")
    return probe


def _attribute(module: str, *names: str) -> Callable[[], Probe]:
    """Ships when the module exposes one of the names."""
    def probe() -> Probe:
        imported = _import(module)
        if isinstance(imported, Probe):
            return imported
        found = [name for name in names if hasattr(imported, name)]
        if found:
            return Probe(True, f"found {module}.{found[0]}")
        return Probe(False, f"no {module}.{' / '.join(names)}")
    return probe


def _parameter(module: str, qualname: str, parameter: str) -> Callable[[], Probe]:
    """Ships when the callable ``module.qualname`` takes ``parameter``."""
    def probe() -> Probe:
        imported = _import(module)
        if isinstance(imported, Probe):
            return imported
        try:
            target = functools.reduce(getattr, qualname.split("."), imported)
        except AttributeError:
            return Probe(False, f"no {module}.{qualname}")
        takes = parameter in inspect.signature(target).parameters
        return Probe(takes, f"{module}.{qualname}() takes {'' if takes else 'no '}{parameter}=")
    return probe


def _any(*probes: Callable[[], Probe]) -> Callable[[], Probe]:
    """Ships when one spelling is found; undetermined when none is and one could not tell."""
    def probe() -> Probe:
        results = [p() for p in probes]
        shipped = next((r for r in results if r.ships), None)
        if shipped is not None:
            return shipped
        unsure = any(r.ships is None for r in results)
        return Probe(None if unsure else False, "; ".join(r.evidence for r in results))
    return probe


# One probe per proposal a fixture can need (interpreter/running/features.py's tables; a test keeps the two
# in step): the public surface the proposal adds, by the spec's names. Calibrated on 0.16.0 and
# 0.17.0 (both ship none of these) and kept honest by a test that compares them with the installed
# runtime's own manifest.
PROBES: dict[str, Callable[[], Probe]] = {
    "0020": _module("openarmature.sessions"),  # sessions: SessionStore, SessionState
    "0021": _any(_module("openarmature.suspension"), _attribute("openarmature.graph", "suspend")),
    "0022": _module("openarmature.harness"),
    "0023": _attribute("openarmature.graph.reducers", "bounded_append", "dedupe_append", "merge_by_key"),
    "0037": _any(_module("openarmature.llm.providers.anthropic"),
                 _attribute("openarmature.llm", "AnthropicProvider", "ThinkingBlock")),
    "0038": _any(_module("openarmature.llm.providers.gemini"), _attribute("openarmature.llm", "GeminiProvider")),
    "0056": _any(_module("openarmature.harness.chat"), _attribute("openarmature.harness", "ChatMessage")),
    "0062": _parameter("openarmature.llm", "Provider.complete", "stream"),  # llm-provider §3 complete(stream=)
}


# ---- the build --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Build:
    """Where the ``openarmature`` that runs comes from."""

    version: str | None
    kind: str  # wheel | directory | editable | source | absent
    path: str | None  # site-packages (wheel, directory), the checkout (editable), the tree (source)
    origin: str | None = None  # the archive or directory it was installed from, when pip recorded one

    def describe(self) -> str:
        name = f"{DISTRIBUTION} {self.version}" if self.version else DISTRIBUTION
        origin = f" from {self.origin}" if self.origin else ""
        return {
            "wheel": f"{name}, wheel installed in {self.path}{origin}",
            "directory": f"{name}, installed in {self.path} from the directory {self.origin}",
            "editable": f"{name}, editable checkout {self.path}",
            "source": f"{name}, source tree {self.path} (not an installed distribution)",
            "absent": f"{DISTRIBUTION} is not importable",
        }[self.kind]


def _package_dir() -> Path | None:
    try:
        spec = importlib.util.find_spec(DISTRIBUTION)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    return Path(locations[0]).resolve() if locations else None


def _file_url(url: Any) -> Path | None:
    parsed = urlparse(url) if isinstance(url, str) else None
    if parsed is None or parsed.scheme != "file":
        return None
    from urllib.request import url2pathname  # 15 ms of imports, only for a build installed from a directory

    return Path(url2pathname(parsed.path)).resolve()


def _direct_url(dist: metadata.Distribution) -> dict:
    """PEP 610's record of a non-index install (empty for an index install)."""
    try:
        document = json.loads(dist.read_text("direct_url.json") or "{}")
    except ValueError:
        return {}
    return document if isinstance(document, dict) else {}


def _distribution() -> metadata.Distribution | None:
    try:
        return metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


@cache
def runtime_build() -> Build:
    package, dist = _package_dir(), _distribution()
    if package is None:
        return Build(None, "absent", None)
    if dist is None:
        return Build(None, "source", str(package.parent))
    direct = _direct_url(dist)
    source = _file_url(direct.get("url"))
    from_directory = isinstance(direct.get("dir_info"), dict)
    if from_directory and direct["dir_info"].get("editable") and source is not None:
        if source in package.parents:
            return Build(dist.version, "editable", str(source))
        return Build(None, "source", str(package.parent))  # imported from elsewhere than the checkout
    site = Path(str(dist.locate_file(""))).resolve()
    if package.parent != site:  # a tree on sys.path ahead of the installed distribution
        return Build(None, "source", str(package.parent))
    if from_directory and source is not None:
        return Build(dist.version, "directory", str(site), str(source))
    return Build(dist.version, "wheel", str(site), str(source) if source is not None else None)


def runtime_version() -> str | None:
    """The version of the build under test (None for a source tree on the path: its version is
    whatever it says, not what a distribution declares)."""
    return runtime_build().version


def runtime_package() -> str | None:
    """The directory the ``openarmature`` package is imported from (found, not imported)."""
    package = _package_dir()
    return str(package) if package is not None else None


# ---- the manifest -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Manifest:
    source: str  # user | package | checkout | probing
    path: str | None
    statuses: Mapping[str, str] = field(default_factory=dict)  # proposal → conformance.toml status
    capabilities: Mapping[str, bool] = field(default_factory=dict)  # [adapter_capabilities]
    overrides: str | None = None  # the manifest the build ships, when a given one takes its place
    text: str = field(default="", repr=False, compare=False)  # the manifest as read: where a claim's entry is

    def entry_line(self, number: str) -> int:
        """The 1-based line of ``number``'s entry (``[proposals."0023"]``, or ``"0023" = {…}`` under
        ``[proposals]``), 0 when none is found: what a claim the build contradicts is located at
        (tomllib keeps no positions). Found when asked (a contradicted claim), not for every entry
        of every manifest read."""
        entry = re.compile(rf'^\s*(\[\s*proposals\s*\.\s*)?["\']?{re.escape(number)}["\']?\s*[\].=]')
        return next((i for i, line in enumerate(self.text.splitlines(), 1) if entry.match(line)), 0)

    def describe(self) -> str:
        text = {
            USER: f"the given runtime manifest {self.path}",
            PACKAGE: f"package manifest {self.path}",
            CHECKOUT: f"checkout manifest {self.path}",
            PROBING: "probing the runtime's public API (the build ships no conformance.toml)",
        }[self.source]
        return text + (f" (in place of {self.overrides})" if self.overrides else "")

    def short(self) -> str:
        """The manifest, as a skip reason names it (the header gives the path)."""
        return {USER: "the given runtime manifest", PACKAGE: "openarmature's conformance.toml",
                CHECKOUT: "the checkout's conformance.toml", PROBING: "no conformance manifest"}[self.source]


def read_manifest(path: Path, source: str) -> Manifest:
    try:
        text = path.read_text(encoding="utf-8")
        document = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(path, f"cannot read it: {getattr(exc, 'strerror', None) or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(path, f"not TOML: {exc}") from None
    header = document.get("manifest")
    implementation = header.get("implementation") if isinstance(header, dict) else None
    if implementation is not None and implementation not in IMPLEMENTATIONS:
        raise ManifestError(path, f"[manifest] implementation = {implementation!r} is not openarmature's")
    proposals = document.get("proposals")
    if not isinstance(proposals, dict) or not proposals:
        raise ManifestError(path, f"no [proposals] table: not a conformance manifest")
    statuses = {}
    for number, entry in proposals.items():
        status = entry.get("status") if isinstance(entry, dict) else None
        if not isinstance(status, str):
            raise ManifestError(path, f'[proposals."{number}"] has no status')
        statuses[number] = status
    capabilities = document.get("adapter_capabilities", {})
    if not isinstance(capabilities, dict) or not all(isinstance(v, bool) for v in capabilities.values()):
        raise ManifestError(path, f"[adapter_capabilities] values must be true or false")
    return Manifest(source, str(path), statuses, capabilities, text=text)


def _names_this_runtime(path: Path) -> bool:
    """A checkout candidate is this runtime's manifest (another project's conformance.toml is not)."""
    try:
        header = tomllib.loads(path.read_text(encoding="utf-8")).get("manifest")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(path, f"a checkout manifest that cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    return isinstance(header, dict) and header.get("implementation") in IMPLEMENTATIONS


def _checkout_manifest(package: Path | None) -> Path | None:
    build = runtime_build()
    candidates = [Path(build.path)] if build.kind == "editable" else []
    if package is not None and package.parent.name not in SITE_DIRECTORIES:
        candidates += [package.parent, package.parent.parent]  # flat layout, src/ layout
    for directory in dict.fromkeys(candidates):
        candidate = directory / MANIFEST_NAME
        if candidate.is_file() and _names_this_runtime(candidate):
            return candidate
    return None


def _discovered() -> Manifest:
    package = _package_dir()
    if package is not None and (package / MANIFEST_NAME).is_file():  # a wheel's package data
        return read_manifest(package / MANIFEST_NAME, PACKAGE)
    checkout = _checkout_manifest(package)
    if checkout is not None:
        return read_manifest(checkout, CHECKOUT)
    return Manifest(PROBING, None)


_given: Path | None = None  # set by the front ends (use_runtime_manifest), before any case runs


def use_runtime_manifest(path: str | None) -> Manifest:
    """Choose this process's source of truth: the given file, else discovery. Raises ManifestError
    (the front ends turn it into a usage error) for a manifest that cannot be read."""
    global _given
    _given = Path(path) if path else None
    runtime_build.cache_clear()
    chosen_manifest.cache_clear()
    proposal_status.cache_clear()
    return chosen_manifest()


@cache
def chosen_manifest() -> Manifest:
    if _given is None:
        return _discovered()
    given = read_manifest(_given, USER)
    try:
        found = _discovered().path
    except ManifestError as exc:  # a broken shipped manifest is what the given one replaces
        found = str(exc.path)
    return replace(given, overrides=found)


# ---- what the build ships ---------------------------------------------------------------------

class ProposalStatus(NamedTuple):
    state: str  # shipped | not-shipped | undetermined
    evidence: str  # what decided it, as a skip reason or a note says


@cache
def proposal_status(number: str) -> ProposalStatus:
    manifest = chosen_manifest()
    status = manifest.statuses.get(number)
    state = MANIFEST_STATES.get(status) if status is not None else None
    if state is not None:
        return ProposalStatus(state, f"status {status} in {manifest.short()}")
    if manifest.source == PROBING:
        said = manifest.short()
    elif status is None:
        said = f"{manifest.short()} gives no status"
    else:
        said = f"{manifest.short()} gives status {status!r}, none of {', '.join(MANIFEST_STATES)}"
    probe = PROBES.get(number)
    if probe is None:
        return ProposalStatus(UNDETERMINED, f"{said}, and the adapter has no probe for it")
    try:
        result = probe()
    except Exception as exc:  # a probe's own failure: the status stays undetermined, and says why
        result = Probe(None, f"the probe raised {type(exc).__name__}: {exc}")
    state = UNDETERMINED if result.ships is None else SHIPPED if result.ships else NOT_SHIPPED
    return ProposalStatus(state, f"{said}; probe: {result.evidence}")


def claimed(number: str) -> str | None:
    """Where the chosen manifest claims the build ships ``number`` (``FILE:line claims proposal
    0023 implemented``), or None when no manifest claims it. A build that then lacks what a case of
    that proposal needs contradicts its manifest: the case fails (pipeline.run_case), never skips."""
    manifest = chosen_manifest()
    status = manifest.statuses.get(number)
    if status is None or MANIFEST_STATES.get(status) != SHIPPED:
        return None
    line = manifest.entry_line(number)
    return f"the manifest {manifest.path}{f':{line}' if line else ''} claims proposal {number} {status}"


def probed_statuses() -> dict[str, ProposalStatus]:
    """The status of every proposal a fixture can need."""
    return {number: proposal_status(number) for number in sorted(PROBES)}


def adapter_capability(name: str) -> bool | None:
    """The build's ``[adapter_capabilities]`` entry (conformance-adapter §5.5), or None when it
    declares nothing for that name (no manifest, or the name absent): §5.5 lets an undeclared
    capability read as non-capable, so the caller decides — and says so."""
    return chosen_manifest().capabilities.get(name)


def adapter_capabilities() -> Mapping[str, bool]:
    return dict(chosen_manifest().capabilities)


# ---- the run header ---------------------------------------------------------------------------

def header_lines() -> list[str]:
    """Which build runs, and which source of truth decides the skips."""
    manifest = chosen_manifest()
    statuses = probed_statuses()
    not_shipped = " ".join(n for n, s in statuses.items() if s.state == NOT_SHIPPED) or "none"
    line = f"proposals: {manifest.describe()}; not shipped: {not_shipped}"
    if manifest.source != PROBING:
        probed = [n for n in statuses if MANIFEST_STATES.get(manifest.statuses.get(n, "")) is None]
        if probed:
            line += f"; probed where it gives no status: {' '.join(probed)}"
    return [f"runtime: {runtime_build().describe()}", line]


def warning_lines() -> list[str]:
    """One line per proposal a fixture can need whose status could not be determined."""
    return [f"warning: proposal {number}: status undetermined ({status.evidence}); "
            "the cases that need it run, each with a note naming it"
            for number, status in probed_statuses().items() if status.state == UNDETERMINED]


def host_document() -> dict:
    """The JSON report's account of the build and of what decided the skips."""
    build, manifest = runtime_build(), chosen_manifest()
    return {
        "installed": {"kind": build.kind, "path": build.path, "origin": build.origin},
        "proposals_from": {"source": manifest.source, "path": manifest.path, "overrides": manifest.overrides},
        "proposals": {number: {"state": s.state, "evidence": s.evidence} for number, s in probed_statuses().items()},
        "adapter_capabilities": dict(manifest.capabilities),
    }
