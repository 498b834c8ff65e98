"""The one way a command writes a file: whole or not at all.

A report is written to a temporary file beside its target, then renamed over it (``os.replace``): a
full disk, a file system that refuses new files (``/sys``) or an interruption leaves the target as
it was — never a truncated file — and the command says why in one line.
"""

from __future__ import annotations

import contextlib
import os
import secrets


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8) through a temporary file beside it. Raises ``OSError``
    when it cannot, with ``path`` untouched and no temporary file left."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        # Named before it is made, and made inside the `try`: Ctrl-C landing as the file is created
        # (inside tempfile.mkstemp, as it was) left the temporary file behind.
        temporary = os.path.join(directory, f".{os.path.basename(path)}.{secrets.token_hex(6)}.tmp")
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue  # another file by that name: draw again, as mkstemp does
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)  # created before the interrupt landed
            raise
        break
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, _mode_for(path))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _mode_for(path: str) -> int:
    """The permissions the file would have had written in place: its own when it exists, else the
    default for a new file (0666 less the umask; mkstemp makes it 0600)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def why_not_written(exc: OSError) -> str:
    """``OSError`` as the one-line reason a command prints."""
    return exc.strerror or str(exc)


def unwritable_because(path: str | None) -> str | None:
    """Why a file could not be written there (``-``: standard output) — asked before any work, so a
    run does not end in an unwritable path."""
    if path is None or path == "-":
        return None
    if os.path.isdir(path):
        return "is a directory"
    if os.path.exists(path) and not os.path.isfile(path):  # the rename would replace a device or a FIFO
        return "not a regular file (- writes to standard output)"
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        return f"no such directory {directory}"
    if not os.access(path if os.path.exists(path) else directory, os.W_OK):
        return "not writable"
    # Access bits do not tell (root passes them; /proc, a read-only mount refuse new files anyway):
    # make and remove a file beside the target, as write_whole will.
    probe = os.path.join(directory, f".{os.path.basename(path)}.{secrets.token_hex(6)}.probe")
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as exc:
        return why_not_written(exc)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return None
