"""Shared test fixtures: where the shared spec corpus and the bundled spec live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BUNDLED_SPEC = REPO / "spec"


def shared_spec_root() -> Path | None:
    """The shared spec repository named by OA_SHARED_SPEC, if any."""
    value = os.environ.get("OA_SHARED_SPEC")
    return Path(value) if value else None


@pytest.fixture(scope="session")
def shared_spec() -> Path:
    """The shared OpenArmature spec repository (read-only). Skips — or, in CI, fails — without it."""
    root = shared_spec_root()
    if root is None or not (root / "spec").is_dir():
        message = "the shared spec corpus is not available: set OA_SHARED_SPEC to an openarmature-spec checkout"
        if os.environ.get("OA_REQUIRE_SHARED_SPEC"):
            pytest.fail(message)
        pytest.skip(message)
    return root


def shared_fixture(relative: str) -> Path:
    """One fixture of the shared corpus, e.g. ``graph-engine/conformance/001-linear-static-flow.yaml``."""
    root = shared_spec_root()
    if root is None:
        pytest.skip("the shared spec corpus is not available: set OA_SHARED_SPEC")
    return root / "spec" / relative
