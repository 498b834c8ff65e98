"""The versions this adapter declares: its own, and the spec version it targets (§8.5).

The target is declared in ``pyproject.toml`` under ``[tool.openarmature]``; a test keeps this
constant equal to it (the file is not installed with the package, so it cannot be read at run time).
"""

from __future__ import annotations

import re

ADAPTER_NAME = "oa-conformance"
ADAPTER_VERSION = "0.1.0"
TARGET_SPEC_VERSION = "0.118.2"

_VERSION = re.compile(r"v?(\d+)\.(\d+)\.(\d+)\Z")


def version_text(program: str) -> str:
    """What ``--version`` prints for each command."""
    return f"{program} {ADAPTER_VERSION} (conformance-adapter spec {TARGET_SPEC_VERSION})"


def parse_version(text: str) -> tuple[int, int, int] | None:
    """``"0.48.0"`` → ``(0, 48, 0)``; ``None`` for anything that is not X.Y.Z."""
    match = _VERSION.match(text.strip()) if isinstance(text, str) else None
    return tuple(int(part) for part in match.groups()) if match else None  # type: ignore[return-value]

