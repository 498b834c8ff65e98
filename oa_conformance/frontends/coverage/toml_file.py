"""The reviewed TOML files the coverage map reads (accounting, faults, adapter evidence): read with
the line a problem is located at, so each says ``path:line: what is wrong`` the same way."""

from __future__ import annotations

import re
import tomllib


def read_toml(path: str, error: type[Exception]) -> tuple[str, dict]:
    """The file's text and its decoded tables; raises ``error`` for an unreadable file or bad TOML."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
        return text, tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise error(f"{path}:{line.group(1) if line else 1}: not valid TOML: {exc}") from None


def table_line(text: str, ident: str) -> int:
    """The 1-based line of the table header naming ``ident`` (1 when none does)."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("[") and ident in stripped:
            return number
    return 1
