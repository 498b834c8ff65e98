"""The static passes and the linter leave no reference cycles behind.

They run with the cyclic collector paused (they allocate many small immutable objects); anything
they leave in a cycle — a bound method stored on its own instance, a recursive closure, a child
context pointing back at its parent — is then collected only later, in one pause proportional to
everything the cycle holds (a whole corpus's ASTs: about 0.2 s of a 0.7 s oa-lint run).

Measured in an interpreter of its own: a collection counts every unreachable object of the
process, and in this one the plugin's early-started cases (the bundled spec's cases that wait, run
in daemon threads from collection on) make garbage of their own while a test measures — the first
tests of a random order failed with 40,000 to 50,000 objects that were not theirs.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "spec"
ALIASED = "a: &shared {k: [1, 2]}\nb: *shared\n"


def _cyclic_garbage_after(work) -> int:
    gc.collect()
    paused = gc.isenabled()
    gc.disable()
    try:
        work()
        return gc.collect()
    finally:
        if paused:
            gc.enable()


def _read_the_bundled_fixtures() -> None:
    from oa_conformance.model.discovery import discover
    from oa_conformance.pipeline import read_fixture

    refs = discover([str(BUNDLED)])
    assert refs
    [read_fixture(r.path, capability=r.capability, keep_composed=True) for r in refs]


def _read_an_aliased_document() -> None:
    from oa_conformance.pipeline import read_fixture

    read_fixture("aliased.yaml", ALIASED)


def _lint_the_bundled_spec() -> None:
    from oa_conformance.frontends.lint import lint_paths

    lint_paths([str(BUNDLED)])


def _make_a_cycle() -> None:
    node = {}
    node["self"] = node


WORKS = {"reading": _read_the_bundled_fixtures, "aliased": _read_an_aliased_document, "linting": _lint_the_bundled_spec,
         "a cycle": _make_a_cycle}


def measured() -> dict[str, int]:
    """Each work's cyclic garbage, in this process (run in a fresh one by the fixture below)."""
    # pickle.py defines its exception classes in Python, then replaces them with _pickle's: its
    # first import leaves those 11 objects in cycles, once, whoever imports it (the prose index's
    # cache does, inside the lint work). Not the works' garbage.
    import pickle  # noqa: F401

    return {name: _cyclic_garbage_after(work) for name, work in WORKS.items()}


@pytest.fixture(scope="module")
def cyclic_garbage() -> dict[str, int]:
    done = subprocess.run([sys.executable, "-c", "import json, tests.test_reference_cycles as t; print(json.dumps(t.measured()))"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_reading_fixtures_leaves_no_cycles(cyclic_garbage):
    assert cyclic_garbage["reading"] == 0


def test_reading_an_aliased_document_leaves_no_cycles(cyclic_garbage):
    assert cyclic_garbage["aliased"] == 0


def test_linting_leaves_no_cycles(cyclic_garbage):
    assert cyclic_garbage["linting"] == 0


def test_the_check_sees_a_cycle(cyclic_garbage):
    assert cyclic_garbage["a cycle"] > 0
