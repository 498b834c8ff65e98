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

from oa_conformance.model.diagnostics import Span

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


def scaled_reports(reports: list[dict], cases: int, runs: int) -> list[dict]:
    """``runs`` reports of ``cases`` cases each, made from real ones for the page's benchmark: run k
    is ``reports[k % len(reports)]`` with its cases copied (copy c of fixture ``001-x.yaml`` is
    ``001-x-c<c>.yaml``, in the ids and in the findings' locations too) until there are ``cases``;
    from the third run on, one case in 53 changes verdict (a pass fails with a finding, anything else
    passes), so the runs differ in both directions as builds do."""
    out = []
    for number in range(runs):
        source = reports[number % len(reports)]
        root = _root_prefix(source)
        made: list[dict] = []
        copy = 0
        while len(made) < cases:
            for index, case in enumerate(source["cases"]):
                if len(made) == cases:
                    break
                made.append(_copied_case(case, copy, flip=number >= 2 and (index * 7 + copy + number) % 53 == 0, root=root))
            copy += 1
        out.append({**source, "run": {**source.get("run", {}), "label": f"scaled run {number + 1}"}, "cases": made})
    return out


def _root_prefix(report: dict) -> str:
    """What the report's locations put before a fixture's path (its root as the run was given it)."""
    for case in report["cases"]:
        for finding in case.get("findings") or ():
            span = Span.read(finding.get("location") or "")
            if span is not None and span.path.endswith(case["fixture"]):
                return span.path[:-len(case["fixture"])]
    return ""


def _copied_case(case: dict, copy: int, flip: bool, root: str) -> dict:
    stem = case["fixture"].rsplit("/", 1)[-1].removesuffix(".yaml")
    renamed = f"{stem}-c{copy}"

    def moved(text):
        return text.replace(f"{stem}.yaml", f"{renamed}.yaml") if isinstance(text, str) else text

    made = {**case, "id": case["id"].replace(f"/{stem}", f"/{renamed}", 1), "fixture": moved(case["fixture"]),
            "location": moved(case.get("location")),
            "findings": [{**finding, "location": moved(finding.get("location"))} for finding in case.get("findings") or ()]}
    if flip:
        if case["outcome"] == "passed":
            location = f"{root}{case['fixture']}:1:1"
            made.update(outcome="failed", category=None, reason="a changed verdict (benchmark)", expectation=None,
                        findings=[{"location": moved(location), "message": "expected.final_state.x: expected 1, got 2 (benchmark)"}])
        else:
            made.update(outcome="passed", category=None, reason=None, expectation=None, findings=[])
    return made
