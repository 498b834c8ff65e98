"""JSON reports of real runtime builds on a corpus: what the report page's tests and benchmark render.

``build_python("0.16.0")`` is the interpreter of ``.venv-report-wheel-0.16.0``: that openarmature
wheel with this package installed editable, created once and reused while pyproject.toml is unchanged
(the stamp ``./dev``'s ``setup_build`` writes). It is this folder and never ``./dev builds``'
``.venv-build-*``, which ``./dev test`` may be rebuilding beside the suites at that moment; a lock
file keeps pytest-xdist workers and a benchmark from building it twice at once. ``run_report``
runs ``oa-conformance run`` with the shipped expectations as its own process and returns the report.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXPECTATIONS = REPO / "oa-expectations.toml"
DEFAULT_BUILD = "default"  # the build installed beside this interpreter (the pinned 0.17.0 wheel in .venv)


class BuildUnavailable(Exception):
    """The build's environment could not be made (no index to install the wheel from)."""


def build_python(version: str) -> Path:
    """The Python of an environment with ``openarmature==version`` (the wheel) and this package."""
    if version == DEFAULT_BUILD:
        return Path(sys.executable)
    venv = REPO / f".venv-report-wheel-{version}"
    stamp = hashlib.sha256((REPO / "pyproject.toml").read_bytes() + version.encode()).hexdigest()
    with open(REPO / f".venv-report-wheel-{version}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builder at a time; the others then find it made
        marker = venv / ".oa-installed"
        if marker.exists() and marker.read_text().strip() == stamp:
            return venv / "bin" / "python"
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        install = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                  "-e", str(REPO), f"openarmature[otel,langfuse]=={version}"],
                                 capture_output=True, text=True, check=False)
        if install.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            raise BuildUnavailable(f"openarmature {version}: pip install failed: {install.stderr.strip()[-400:]}")
        marker.write_text(stamp + "\n")
    return venv / "bin" / "python"


def run_report(version: str, corpus: Path, out: Path) -> dict:
    """Run ``corpus`` on that build with the shipped expectations; write the JSON report to ``out``
    and return it. A run that fails (exit 1) still reports; only a missing report is an error."""
    python = build_python(version)
    done = subprocess.run([str(python), "-m", "oa_conformance.frontends.cli.oa_conformance", "run", str(corpus), "-q",
                           "--expectations", str(EXPECTATIONS), "--json", str(out)],
                          capture_output=True, text=True, check=False, cwd=REPO)
    if done.returncode not in (0, 1) or not out.exists():
        raise RuntimeError(f"openarmature {version}: run exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return json.loads(out.read_text(encoding="utf-8"))
