"""Shared test fixtures: where the shared spec corpus and the bundled spec live."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BUNDLED_SPEC = REPO / "spec"


# The two corpora the tests read, each through its own setting (`.ci/run` points both at ../shared/):
# the target — the spec release the runtime pins (0.118.2: fixtures only) — and the regression set,
# the spec at 0.109.0 with its prose.
TARGET_SPEC = "OA_TARGET_SPEC"
SHARED_SPEC = "OA_SHARED_SPEC"


def _root(setting: str) -> Path | None:
    value = os.environ.get(setting)
    return Path(value) if value else None


def shared_spec_root() -> Path | None:
    """The 0.109.0 spec repository named by OA_SHARED_SPEC, if any."""
    return _root(SHARED_SPEC)


def target_spec_root() -> Path | None:
    """The target (0.118.2) corpus named by OA_TARGET_SPEC, if any."""
    return _root(TARGET_SPEC)


def _require(setting: str) -> Path:
    root = _root(setting)
    if root is None or not (root / "spec").is_dir():
        message = f"a spec corpus is not available: set {setting} to a directory holding spec/"
        if os.environ.get("OA_REQUIRE_SHARED_SPEC"):
            pytest.fail(message)
        pytest.skip(message)
    return root


@pytest.fixture(scope="session")
def shared_spec() -> Path:
    """The shared 0.109.0 spec repository (read-only). Skips — or, in CI, fails — without it."""
    return _require(SHARED_SPEC)


@pytest.fixture(scope="session")
def target_spec() -> Path:
    """The target 0.118.2 corpus (read-only). Skips — or, in CI, fails — without it."""
    return _require(TARGET_SPEC)


def _fixture_in(setting: str, relative: str) -> Path:
    root = _root(setting)
    if root is None:
        pytest.skip(f"a spec corpus is not available: set {setting}")
    return root / "spec" / relative


def shared_fixture(relative: str) -> Path:
    """One fixture of the 0.109.0 corpus, e.g. ``graph-engine/conformance/001-linear-static-flow.yaml``."""
    return _fixture_in(SHARED_SPEC, relative)


def target_fixture(relative: str) -> Path:
    """One fixture of the target 0.118.2 corpus."""
    return _fixture_in(TARGET_SPEC, relative)


@pytest.fixture(autouse=True)
def one_process_by_default(monkeypatch):
    """``oa-conformance run`` called in this process runs its cases in this process (``--processes 1``)
    unless a test asks for workers: the tests patch the runner here, which a worker process would
    not see. Commands run as their own processes keep the default (one worker per core)."""
    import oa_conformance.frontends.cli.oa_conformance as cli_module

    monkeypatch.setattr(cli_module, "default_processes", lambda: 1)


@pytest.fixture(scope="session", autouse=True)
def commands_of_pytest_keep_a_temporary_root_of_their_own(tmp_path_factory):
    """A pytest that a test starts as a command ends by deleting the oldest numbered directories
    of its temporary root — by default the root every suite on the machine shares, where CI's
    suites side by side leave trees of thousands of files: one Ctrl-C test waited 37 s on pytest
    deleting another suite's directory. Each such run gets a root inside this session's own
    (``pytester``, which sets its own, is unaffected); this session's is fixed first."""
    root = tmp_path_factory.getbasetemp() / "temporary-root-of-pytest-commands"
    root.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTEST_DEBUG_TEMPROOT", str(root))
        yield


def interruptible() -> None:
    """``preexec_fn`` for a command a test interrupts with SIGINT: Ctrl-C at its default, so Python
    installs its KeyboardInterrupt handler even where the suite itself was started with SIGINT
    ignored (a job a non-interactive shell put in the background inherits SIG_IGN, and an ignored
    signal stays ignored across exec)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="session")
def whole_stack_imported() -> None:
    """Every module of the package imported once, before any in-process pytest run (``pytester``).

    Pytester restores ``sys.modules`` after each run: a module first imported inside one (a harness
    module holding a context variable, say) is dropped and imported afresh by the next user, and two
    copies of one context variable make a later case in this process fail ("renders_prompt outside
    an observability run") — whether it does depended on the order the suite ran in."""
    import importlib
    import pkgutil

    import oa_conformance

    for module in pkgutil.walk_packages(oa_conformance.__path__, "oa_conformance."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


@pytest.fixture
def pytester(whole_stack_imported, pytester):
    """pytest's ``pytester``, taking its snapshot of ``sys.modules`` after the whole stack is imported."""
    return pytester


def pytest_configure(config):
    # `proof`: a test that runs the corpus against a faulty copy of the runtime (the caught_by lists).
    # What it proves does not depend on the interpreter, so ./dev test runs these on its first
    # interpreter only (-m "not proof" on the others): hundreds of fresh processes each.
    config.addinivalue_line("markers", "proof: runs cases against a faulty copy of the runtime (first interpreter only)")
