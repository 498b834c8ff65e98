"""The pytest front end's hooks: one test item per fixture case. Split by pytest concept, as Tavern
does: the hooks here (options, configuration, collection walk, run loop, reports), the collectors in
``collection``, the item in ``item``, the session's stash keys in ``stash``, xdist's shares in
``xdist_shares``.

Registered by entry point (``pytest11``), so installing the package is enough:

    pytest --oa-spec-root=../shared/openarmature-spec   a spec repository, or its spec/ folder (repeatable)
    pytest --oa-spec-root=DIR -m graph_engine -k drain  markers per capability, -k over case ids
    pytest spec/graph-engine/conformance/               explicitly given spec, conformance or fixture paths
    [tool.pytest.ini_options] oa_spec_roots = ["spec"]  roots configured for a project (like testpaths)

What is collected: a ``*.yaml`` file in a ``<capability>/conformance/`` folder *under a spec root* —
one given with ``--oa-spec-root``, configured in ``oa_spec_roots``, or a path given explicitly on the
command line that is itself a spec repository, a spec/ folder, a conformance/ folder or a fixture.
A foreign project's ``deploy/conformance/*.yaml`` is never picked up by merely installing the
plugin. Symlinked directories are followed once (by real path); a symlink that loops back to one of
its ancestors is a collection error naming the link.

Each case becomes an item ``<file>::NNN-name[case]``: the case name is a parametrization id (as
``test_x[param]`` is), so ``--lf`` / ``--ff`` and pytest-xdist round-trip node ids on pytest 8 and 9.
A fixture that fails to load is one failing item, not a collection error. Failures show the
fixture's YAML around the failing expectation and the mismatch — never the adapter's traceback.

Cases run ahead, side by side in daemon threads (each with its own event loop and harness), so
fixtures' deliberate sleeps overlap while pytest still reports item by item: the items pytest will
run once selection (``-k``, ``-m``, ``--lf``) is final (``pytest_runtestloop``), and a case that
declares waits as soon as it is collected. Under pytest-xdist each worker reads and runs a fixed
share, every N-th fixture file (``xdist_shares.py``). Nothing runs under ``--collect-only``; Ctrl-C
abandons the cases in flight.

The build under test: the session header names it and the source of truth for its skips (the
runtime's ``conformance.toml`` wherever it is, else a probe of its API: ``host/manifest.py``);
``--oa-runtime-manifest FILE`` (or ini ``oa_runtime_manifest``) gives the manifest to judge it by.

Known deviations: ``--oa-expectations FILE`` (or ini ``oa_expectations``): each case's verdict is
judged as the command line judges it (``expectations.judged``) and mapped onto pytest's outcomes:
``xfail`` → ``xfail``, ``xpass`` → a strict ``XPASS`` (a failure: remove the entry), a case listed
``skip`` → ``skip`` (it is not run); an intermittent entry's case is listed after the tests.
``--oa-strict-expectations``: an untriaged entry excuses no failure.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest


def unmark_for_rewrite(finders: list, package: str) -> None:
    """Keep pytest from rewriting the asserts of ``package``'s modules.

    pytest marks the whole distribution of an entry-point plugin for assert rewriting, and then
    compiles each of its modules from source on import, in every session and every xdist worker
    whenever it cannot cache them (``PYTHONDONTWRITEBYTECODE``, a read-only install): some 190
    modules, 2.2 s of CPU per process on this machine. This package's asserts are internal
    invariants, not tests: its modules load as Python loads them. Through the hook's own record of
    what is marked (no public way to unmark); with a pytest that keeps it elsewhere, nothing
    changes but the time."""
    for finder in finders:
        marked = getattr(finder, "_must_rewrite", None)
        if isinstance(marked, set) and package in marked:
            marked.discard(package)
            getattr(finder, "_marked_for_rewrite_cache", {}).clear()


unmark_for_rewrite(sys.meta_path, __name__.split(".")[0])  # the distribution's package, before this module imports it

from ...model.discovery import CAPABILITIES, spec_dir
from ...model.heap import collector_paused, frozen_at_exit
from ...pipeline import DEFAULT_TIMEOUT, run_case
from .cases_ahead import CasesAhead
from ...verdicts.expectations import NO_EXPECTATIONS, Expectations, ExpectationsError, load_all
from ..options import positive_seconds, worker_count
from .collection import AlreadyCollected, ConformanceDir, FixtureFile, SymlinkLoop, fixture_file, register_marker
from .item import CaseItem
from .stash import COLLECTED, EXPECTATIONS, GIVEN_FILES, ORPHANS, ROOTS, SCHEDULER, SEEN, SESSION, SHARES, WHOLE
from .xdist_shares import SHARES_KEY, Shares, interrupt_workers, position_for, static_scheduler

ROOT_OPTION = "--oa-spec-root"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("oa-conformance", "OpenArmature conformance fixtures")
    group.addoption(ROOT_OPTION, action="append", default=[], metavar="DIR",
                    help="collect fixtures from this spec repository or spec/ folder (repeatable; write --oa-spec-root=DIR)")
    group.addoption("--oa-timeout", type=positive_seconds, default=DEFAULT_TIMEOUT, help="per-case time limit in seconds")
    group.addoption("--oa-workers", type=worker_count, default=16, help="cases run ahead side by side (0: run each in its test)")
    group.addoption("--oa-expectations", metavar="FILE", action="append", default=[],
                    help="known deviations (TOML): 'fail' entries are strict xfail, 'skip' entries skip "
                         "(repeatable: a later file's entry replaces an earlier one)")
    group.addoption("--oa-strict-expectations", action="store_true",
                    help="an untriaged expectations entry (kind = \"untriaged\") excuses no failure: its case fails the run")
    group.addoption("--oa-runtime-manifest", metavar="FILE",
                    help="the runtime's conformance.toml to decide its skips by (default: the one the build ships, else probing its API)")
    parser.addini("oa_spec_roots", type="paths", default=[], help="spec repositories or spec/ folders to collect fixtures from")
    parser.addini("oa_expectations", type="paths", default=[], help="the expectations files (known deviations) to apply, in order")
    parser.addini("oa_runtime_manifest", type="paths", default=[], help="the runtime's conformance.toml to decide its skips by")


def pytest_configure(config: pytest.Config) -> None:
    from ...model.vocabulary import VOCABULARY  # import errors surface here, once
    from ...interpreter.static.yaml_compose import limits_problem

    limit = limits_problem()
    if limit:
        raise pytest.UsageError(f"oa-conformance: {limit}")

    # One marker per capability, from the capability table (so --strict-markers and
    # PYTHONWARNINGS=error collect every fixture); a folder outside it registers its own (CaseItem).
    for capability in sorted(set(CAPABILITIES) | set(VOCABULARY.capabilities)) + [None]:
        register_marker(config, capability)
    _refuse_moved_rootdir(config)
    given = config.getoption("oa_spec_root")
    configured = [str(p) for p in config.getini("oa_spec_roots")]
    roots = [_spec_root(r, ROOT_OPTION) for r in given] + [_spec_root(r, "oa_spec_roots") for r in configured]
    explicit = config.args_source == pytest.Config.ArgsSource.ARGS
    if explicit:
        given_roots = roots[: len(given)]
        config.args[:] = [_found_under(arg, given_roots) for arg in config.args]
        roots.extend(_explicit_root(arg) for arg in config.args)
        # A given root joins the test paths unless an argument already selects within it (a node id
        # pasted from a FAILED line): else the whole root would run beside the one test asked for.
        config.args.extend(str(r) for r in given_roots if not any(_selects_within(arg, r) for arg in config.args))
    elif given:
        config.args[:] = [str(r) for r in roots]  # the roots replace the default test paths
    else:
        config.args.extend(str(r) for r in roots)  # configured roots join the test paths
    config.stash[ROOTS] = tuple(Path(os.path.realpath(r)) for r in roots if r is not None)
    config.stash[GIVEN_FILES] = {r for r in config.stash[ROOTS] if r.suffix == ".yaml"}
    config.stash[SEEN] = set()
    config.stash[SHARES] = Shares.of(config)
    config.stash[ORPHANS] = []
    config.stash[EXPECTATIONS] = _expectations(config)
    _runtime_manifest(config)
    config.stash[SCHEDULER] = CasesAhead(config.getoption("oa_workers"), config.getoption("oa_timeout"),
                                          config.stash[EXPECTATIONS], lambda ref, timeout: run_case(ref, timeout),  # looked up per case
                                          _expected_seconds, once=hasattr(config, "workerinput"))
    if config.stash[ROOTS]:
        config.pluginmanager.register(_PromptInterrupt(config), "oa-conformance-prompt-interrupt")
        config.pluginmanager.register(_JUnitClassnames(config), "oa-conformance-junit-classnames")
        frozen_at_exit()  # the interpreter's ending does not scan the cases' heaps (heap.frozen_at_exit)


def _expected_seconds(cases: list) -> list[float]:
    from ...scheduling.processes import expected_seconds  # with the stack a case runs on, not at start-up

    return expected_seconds(cases)


def _spec_root(root: str, where: str) -> Path:
    spec = spec_dir(root)
    if spec is None:
        raise pytest.UsageError(f"{where} {root}: not a spec repository or a spec/ folder")
    return Path(os.path.abspath(spec))


def _found_under(arg: str, roots: list[Path]) -> str:
    """A command-line path (or node id) as pytest finds it: as given when it exists here, else under
    the first given spec root that has it — pytest prints the node id of a fixture outside its
    rootdir relative to the spec root (``graph-engine/conformance/001-x.yaml::001-x[case]``), so
    that is what a user pastes back."""
    path, separator, rest = arg.partition("::")
    if os.path.exists(path) or os.path.isabs(path):
        return arg
    for root in roots:
        if os.path.exists(root / path):
            return f"{root / path}{separator}{rest}"
    return arg


def _selects_within(arg: str, root: Path) -> bool:
    path = arg.split("::", 1)[0]
    return os.path.exists(path) and _is_within(Path(os.path.abspath(path)), root)


def _explicit_root(arg: str) -> Path | None:
    """A command-line path that is itself a spec root, a conformance/ folder or a fixture file."""
    path = arg.split("::", 1)[0]
    if os.path.isfile(path):
        return Path(os.path.abspath(path)) if path.endswith(".yaml") and Path(path).parent.name == "conformance" else None
    if os.path.isdir(path):
        if Path(os.path.abspath(path)).name == "conformance":
            return Path(os.path.abspath(path))
        spec = spec_dir(path)
        return Path(os.path.abspath(spec)) if spec is not None else None
    return None


def _refuse_moved_rootdir(config: pytest.Config) -> None:
    """``--oa-spec-root DIR`` (with a space) must not move pytest's rootdir.

    pytest picks rootdir and the ini file from the command line *before* plugins add their options,
    so it takes a spaced ``DIR`` for a test path; a spec root outside the project then makes the
    rootdir the common ancestor and drops the project's ini file. That cannot be undone afterwards,
    so it is refused with the fix instead of running with the wrong configuration.
    """
    tokens = list(config.invocation_params.args)
    spaced = [tokens[i + 1] for i, token in enumerate(tokens[:-1]) if token == ROOT_OPTION]
    if not spaced or config.getoption("rootdir", None) or config.getoption("inifilename", None):
        return
    here = config.invocation_params.dir
    outside = [value for value in spaced if not _is_within(Path(os.path.abspath(value)), here)]
    ini_governs_here = config.inipath is not None and _is_within(here, config.inipath.parent)
    if outside and not ini_governs_here and config.rootpath in here.parents:
        raise pytest.UsageError(
            f"{ROOT_OPTION} {outside[0]}: pytest took the spec root for a test path and moved rootdir to "
            f"{config.rootpath}; write {ROOT_OPTION}={outside[0]} (or set oa_spec_roots in the ini file)")


def _is_within(path: Path, ancestor: Path) -> bool:
    return path == ancestor or ancestor in path.parents


def _one_path(config: pytest.Config, name: str, what: str) -> str | None:
    """The file given by option ``--name`` (dashes), else by the ini setting ``name``: at most one."""
    given = config.getoption(name)
    configured = config.getini(name)
    if len(configured) > 1:
        raise pytest.UsageError(f"{name}: one {what}, not several")
    return given or (str(configured[0]) if configured else None)


def _expectations(config: pytest.Config) -> Expectations:
    from ...host.manifest import runtime_version

    paths = config.getoption("oa_expectations") or [str(path) for path in config.getini("oa_expectations")]
    if not paths:
        return NO_EXPECTATIONS
    try:
        return load_all(paths, runtime_version(), strict=config.getoption("oa_strict_expectations"))
    except ExpectationsError as exc:
        raise pytest.UsageError(f"oa-expectations: {exc}") from None


def _runtime_manifest(config: pytest.Config) -> None:
    """The source of truth for the build's skips, chosen before any case runs (as ``run`` does): a
    manifest that cannot be read is a usage error. A session that collects no fixtures reads none."""
    from ...host.manifest import ManifestError, use_runtime_manifest

    path = _one_path(config, "oa_runtime_manifest", "runtime manifest")
    if path is None and not config.stash[ROOTS]:
        return
    try:
        use_runtime_manifest(path)
    except ManifestError as exc:
        option = "--oa-runtime-manifest " if path else ""
        raise pytest.UsageError(f"oa-conformance: {option}{exc}") from None


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Which build runs and what decides its skips — when the session collects fixtures at all."""
    if not config.stash.get(ROOTS, ()):
        return []
    from ...host.manifest import header_lines

    return [f"oa-conformance {line}" for line in header_lines()]


def pytest_unconfigure(config: pytest.Config) -> None:
    scheduler = config.stash.get(SCHEDULER, None)
    if scheduler is not None:
        scheduler.close()


def _under_roots(config: pytest.Config, path: Path) -> bool:
    """Lexically under a root, or really (after symlinks) under one."""
    real, given = Path(os.path.realpath(path)), Path(os.path.abspath(path))
    return any(_is_within(real, root) or _is_within(given, root) for root in config.stash[ROOTS])


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Directories under a spec root: symlinks followed once (a loop reported), and every
    ``conformance/`` folder read as discovery reads it (:class:`ConformanceDir`).

    A link back to one of its own ancestors is a collection error naming it (walking it would never
    end). A link to a directory inside a spec root is not followed: the directory is collected under
    its real path. A link to a directory outside every root is followed, once.
    """
    config = parent.config
    if not _under_roots(config, path):
        return None
    if path.is_symlink():
        real = Path(os.path.realpath(path))
        if _is_within(Path(os.path.realpath(parent.path)), real):
            return SymlinkLoop.from_parent(parent, path=path)
        if any(_is_within(real, root) for root in config.stash[ROOTS]) or real in config.stash[SEEN]:
            return AlreadyCollected.from_parent(parent, path=path)
        config.stash[SEEN].add(real)
    if path.name == "conformance":
        if not os.access(path, os.R_OK | os.X_OK):
            # pytest looks for a conftest.py in every Directory and fails on one it cannot search:
            # the folder becomes one fixture-like item whose loader finding says why.
            return FixtureFile.from_parent(parent, path=path)
        return ConformanceDir.from_parent(parent, path=path)
    return None


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Any:
    """A session that collects a spec reads every fixture it holds, and keeps every tree until it
    ends: as the command line does (``pipeline.read_cases``), the collector is paused while they are
    read and what was collected is frozen after — collections rescanning the growing corpus cost a
    third of reading it and freed nothing."""
    config = session.config
    if not config.stash.get(ROOTS, ()):
        return (yield)
    if not config.option.collectonly and not config.pluginmanager.hasplugin("dsession"):
        _import_what_runs_a_case()
    with collector_paused(freeze=True):
        return (yield)


def _import_what_runs_a_case() -> None:
    """The stack a case runs on (the runtime, OTel, the catalogue: what the command's forkserver
    imports once, ``forkserver.PRELOAD``), imported before the fixtures are read. A case that declares
    waits starts as it is collected, and its thread would otherwise import the stack while the
    collection competes with it for the GIL, its sleeps beginning only after both (in an xdist
    worker, the slowest case of the target corpus then began its 4.8 s of sleeps about 1 s late)."""
    import importlib

    from ...scheduling.forkserver import PRELOAD

    for module in PRELOAD:
        importlib.import_module(module)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix != ".yaml" or file_path.parent.name != "conformance" or not _under_roots(parent.config, file_path):
        return None
    real = Path(os.path.realpath(file_path))
    if real in parent.config.stash[SEEN]:
        return None  # the same fixture reached again through a symlink
    parent.config.stash[SEEN].add(real)
    return fixture_file(parent, file_path)


def _static_shares(config: pytest.Config) -> bool:
    """Each xdist worker gets a fixed share of the items (``xdist_shares``): a session with spec
    roots under ``--dist load`` (what ``-n N`` means by default)."""
    return bool(config.stash.get(ROOTS, ())) and config.getvalue("dist") == "load"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Tell each xdist worker which share it collects, if its share is fixed (a replacement for a
    crashed worker takes over that worker's)."""
    fixed = _static_shares(node.config)
    node.workerinput[SHARES_KEY] = position_for(node, node.config.stash[ORPHANS]) if fixed else None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if not _static_shares(config):
        return None  # xdist's own
    return static_scheduler(config, log, config.stash[ORPHANS], config.stash.get(SESSION, None))


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[SESSION] = session


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item], config: pytest.Config) -> None:
    """An xdist worker with a fixed share keeps its own items only: the cases of the fixture files
    it read, and its share of the other items (xdist_shares.Shares.own_items)."""
    items[:] = config.stash[SHARES].own_items(items, lambda item: isinstance(item, CaseItem))


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> None:
    """Selection is final here: start running ahead exactly the items pytest is about to run (in an
    xdist worker with a fixed share, its collection is its share; the controller runs nothing; a
    worker of xdist's own scheduler learns its items one by one and runs each in the test itself)."""
    config = session.config
    if config.option.collectonly or config.pluginmanager.hasplugin("dsession"):
        return
    if session.testsfailed and not config.option.continue_on_collection_errors:
        return  # pytest stops before running anything
    if not config.stash[SHARES].runs_ahead:
        return
    config.stash[SCHEDULER].start([item for item in session.items if isinstance(item, CaseItem)])


def pytest_itemcollected(item: pytest.Item) -> None:
    """Every collected case, before ``-k`` / ``-m`` / ``--lf`` deselect any, and the capabilities
    collected through their folder: what stale entries are judged against, as ``run`` judges them."""
    if isinstance(item, CaseItem):
        if not item.config.option.collectonly and item.config.stash[SHARES].runs_ahead:
            item.config.stash[SCHEDULER].start_early(item)
        item.config.stash.setdefault(COLLECTED, set()).add(item.case.id)
        if Path(os.path.realpath(item.path)) not in item.config.stash[GIVEN_FILES]:
            item.config.stash.setdefault(WHOLE, set()).add(item.case.fixture.capability)


def pytest_sessionfinish(session: pytest.Session) -> None:
    session.config.stash[SCHEDULER].close()  # -x / --maxfail / Ctrl-C: cases not started never start
    if hasattr(session.config, "workeroutput"):  # an xdist worker: the controller judges the stale entries
        session.config.workeroutput.update(oa_collected=sorted(session.config.stash.get(COLLECTED, ())),
                                           oa_whole=sorted(session.config.stash.get(WHOLE, ())))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    output = getattr(node, "workeroutput", {})  # an xdist controller collects nothing: each worker says what it did
    node.config.stash.setdefault(COLLECTED, set()).update(output.get("oa_collected", ()))
    node.config.stash.setdefault(WHOLE, set()).update(output.get("oa_whole", ()))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Entries that match no case, judged as ``run`` judges them (:meth:`Expectations.unmatched`),
    each a warning at its line; needed proposals of undetermined status. Not in an xdist worker:
    it collected its share only, and its warnings reach the controller, which judges every share."""
    import warnings

    expectations = config.stash.get(EXPECTATIONS, NO_EXPECTATIONS) if not hasattr(config, "workerinput") else NO_EXPECTATIONS
    for entry in expectations.unmatched(config.stash.get(COLLECTED, set()), config.stash.get(WHOLE, set())):
        try:
            warnings.warn_explicit(pytest.PytestWarning(f"expectation {entry.case_id!r} matched no case of this run"),
                                   pytest.PytestWarning, entry.path, entry.line)
        except Warning as raised:  # -W error: the warning is an error, said as one line, not a traceback
            terminalreporter.write_line(f"{entry.location}: {raised}")
    # The cases an intermittent entry judged, from every report (an xdist controller's come from its
    # workers, with their properties).
    for report in (r for reports in terminalreporter.stats.values() for r in reports):
        for name, value in getattr(report, "user_properties", ()):
            if name == "oa_intermittent" and getattr(report, "when", None) == "call":
                terminalreporter.write_line(f"oa-expectations: {value}")
    if config.stash.get(ROOTS, ()):
        from ...host.manifest import warning_lines

        for line in warning_lines():  # a needed proposal's status could not be determined: said even under -q
            terminalreporter.write_line(f"oa-conformance {line}")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    """A recognized skip is located at its fixture's line (``-rs``), not at the plugin's
    ``pytest.skip`` call, where every skip of the run would be folded into one entry. The call's
    duration is the case's own (``--durations``, ``--junitxml``): a case run ahead in the pool is
    only waited for here, often not at all."""
    report = yield
    if isinstance(item, CaseItem) and call.when == "call" and item.case_seconds:
        report.duration = item.case_seconds
    if isinstance(item, CaseItem) and item.skipped_at and report.skipped and isinstance(report.longrepr, tuple):
        report.longrepr = (item.skipped_at.path, item.skipped_at.line, report.longrepr[2])
    return report


class _JUnitClassnames:
    """``--junitxml``: a case's ``classname`` is its fixture's path within the spec root
    (``graph-engine.conformance.001-x.yaml``), as ``oa-conformance run --junitxml`` writes it
    (``junit.junit_classname``), not pytest's path from its rootdir: a CI's per-test history then
    holds wherever the corpus lives. Set through pytest's JUnit writer as its ``record_xml_attribute``
    fixture does, on the controller too (from the report's node id: xdist's items live in workers)."""

    def __init__(self, config: pytest.Config):
        self.config = config

    @pytest.hookimpl(tryfirst=True)  # before the writer records the report: a set attribute is kept
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        try:
            from _pytest.junitxml import xml_key
        except ImportError:  # a pytest that keeps it elsewhere: its own classnames
            return
        xml = self.config.stash.get(xml_key, None)
        parts = report.nodeid.split("::", 1)[0].split("/")
        if xml is None or len(parts) < 3 or parts[-2] != "conformance" or not parts[-1].endswith(".yaml"):
            return
        from ..junit import junit_classname

        xml.node_reporter(report).add_attribute("classname", junit_classname("/".join(parts[-3:])))


class _PromptInterrupt:
    """Ctrl-C ends a session of spec cases at once: an xdist controller passes it on to its workers
    (``xdist_shares.interrupt_workers``); pytest renders the interrupt's whole traceback (each file
    parsed: 1 to 2 s under load) to print its innermost frame, so only that is kept (not with ``--full-trace``)."""

    def __init__(self, config: pytest.Config):
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        if self.config.pluginmanager.hasplugin("dsession"):
            interrupt_workers(self.config)
        if not self.config.getoption("fulltrace", False):
            excinfo.traceback = excinfo.traceback[-1:]

