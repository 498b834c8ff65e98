"""A runtime build whose version string lags its behaviour, made the way a maintainer has one: the
openarmature 0.17.0 sdist unpacked as a source checkout, its version set back to 0.16.0, installed
editable into a virtual environment of its own beside this package (installed editable too).

Made once and kept, as ``./dev builds`` keeps its builds (``setup_build`` there: the same pip
commands): the sdist under ``.builds/lagging-checkout/`` and the environment ``.venv-lagging-checkout``
(both git-ignored), rebuilt only when pyproject.toml changes. A lock file keeps two test processes
(pytest-xdist workers) from building it at once; its names are its own, so it never races ``./dev``.
"""

from __future__ import annotations

import fcntl
import hashlib
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

RELEASE = "0.17.0"  # what the checkout behaves as
CLAIMED = "0.16.0"  # what its metadata says
NAME = "lagging-checkout"


def _pip(python: Path, *args: str) -> None:
    subprocess.run([str(python), "-m", "pip", *args, "--quiet", "--disable-pip-version-check"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def lagging_checkout(repo: Path) -> Path:
    """The ``bin/`` folder of the environment with the lagging checkout (built when missing)."""
    venv, cache = repo / f".venv-{NAME}", repo / ".builds" / NAME
    cache.mkdir(parents=True, exist_ok=True)
    stamp = hashlib.sha256((repo / "pyproject.toml").read_bytes() + f"{RELEASE}->{CLAIMED}".encode()).hexdigest()
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        marker = venv / ".oa-installed"
        if marker.is_file() and marker.read_text() == stamp:
            return venv / "bin"
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = venv / "bin" / "python"
        checkout = cache / f"openarmature-{RELEASE}"
        if not checkout.is_dir():
            archive = cache / f"openarmature-{RELEASE}.tar.gz"
            if not archive.is_file():
                _pip(python, "download", "--no-deps", "--no-binary", ":all:", "-d", str(cache), f"openarmature=={RELEASE}")
            with tarfile.open(archive) as sdist:
                sdist.extractall(cache, filter="data")
            _set_version(checkout)
        _pip(python, "install", "-e", f"{checkout}[otel,langfuse]", "-e", str(repo))
        marker.write_text(stamp)
    return venv / "bin"


def _set_version(checkout: Path) -> None:
    """The version the checkout claims: its project metadata, its sdist metadata and ``__version__``."""
    for relative, pattern in (("pyproject.toml", r'(?m)^version = "[^"]+"'), ("PKG-INFO", r"(?m)^Version: .+$"),
                              ("src/openarmature/__init__.py", r'(?m)^__version__ = "[^"]+"')):
        path = checkout / relative
        text = path.read_text(encoding="utf-8")
        replacement = {"pyproject.toml": f'version = "{CLAIMED}"', "PKG-INFO": f"Version: {CLAIMED}"}.get(
            relative, f'__version__ = "{CLAIMED}"')
        new, count = re.subn(pattern, replacement, text, count=1)
        assert count == 1, f"{path}: no version line to set"
        path.write_text(new, encoding="utf-8")


if __name__ == "__main__":  # build it by hand: python -m tests.lagging_checkout
    print(lagging_checkout(Path(__file__).resolve().parent.parent))
