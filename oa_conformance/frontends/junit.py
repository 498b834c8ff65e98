"""``oa-conformance run --junitxml FILE``: the run as JUnit XML, in the schema pytest writes (for CI
systems that read JUnit and do not run pytest).

One ``testcase`` per case, named as the pytest plugin's JUnit names its item: ``classname`` the
fixture's path within its spec root (``graph-engine.conformance.001-x.yaml``), wherever the corpus
lives, so a CI's per-test history holds across checkouts and front ends; ``name`` the item's
(``001-x[case]``). ``time`` is the case's own duration; a skip is ``<skipped>`` with its reason,
an xfail ``<skipped type="pytest.xfail">``, a failure, error or xpass ``<failure>`` whose message is
its first finding and whose text is every finding (``path:line:col: message``) and note.
"""

from __future__ import annotations

import datetime
import os
import socket
from typing import Iterable
from xml.etree import ElementTree

from .report import entry_line
from ..verdicts.outcomes import Outcome
from ..verdicts.results import CaseResult


def classname_and_name(result: CaseResult) -> tuple[str, str]:
    """The case's ``classname`` and ``name``: the fixture's path within the spec root
    (``<capability>/conformance/<file>``, as the JSON report's ``fixture``) with ``/`` as ``.``, and
    the plugin's item name — wherever the corpus lives, and the same in the plugin's JUnit."""
    ref = result.ref
    stem = os.path.basename(ref.fixture.path).removesuffix(".yaml")
    return junit_classname(ref.fixture.display), f"{stem}[{ref.name}]" if ref.name is not None else stem


def junit_classname(fixture: str) -> str:
    """``graph-engine/conformance/001-x.yaml`` as a JUnit classname (pytest's ``/`` → ``.``)."""
    return fixture.replace("/", ".")


def _text(result: CaseResult) -> tuple[str, str]:
    """(message, text): the first finding, and every entry the summary shows."""
    findings = result.findings()
    lines = [line for line in [entry_line(result, findings)] if line]
    lines += [f"{f'{where}: ' if where else ''}{text}" for where, text in findings]
    lines += [f"note: {note}" for note in result.notes]
    return (lines[0] if lines else result.outcome), "\n".join(lines)


def junit_xml(results: Iterable[CaseResult], elapsed: float) -> str:
    results = list(results)
    counts = {"failures": 0, "skipped": 0}
    suite = ElementTree.Element("testsuite", name="oa-conformance")
    for result in results:
        classname, name = classname_and_name(result)
        case = ElementTree.SubElement(suite, "testcase", classname=classname, name=name, time=f"{result.duration_s:.3f}")
        message, text = _text(result)
        if result.outcome == Outcome.SKIPPED:
            counts["skipped"] += 1
            where = f"{result.location}: " if result.location else ""
            ElementTree.SubElement(case, "skipped", type="pytest.skip", message=result.reason or "skipped").text = f"{where}{result.reason or ''}"
        elif result.outcome == Outcome.XFAIL:
            counts["skipped"] += 1
            ElementTree.SubElement(case, "skipped", type="pytest.xfail", message=message).text = text
        elif result.fails_run:
            counts["failures"] += 1
            ElementTree.SubElement(case, "failure", message=message).text = text
    suite.set("errors", "0")
    suite.set("failures", str(counts["failures"]))
    suite.set("skipped", str(counts["skipped"]))
    suite.set("tests", str(len(results)))
    suite.set("time", f"{elapsed:.3f}")
    suite.set("timestamp", datetime.datetime.now().astimezone().isoformat())
    suite.set("hostname", socket.gethostname())
    suites = ElementTree.Element("testsuites", name="oa-conformance")
    suites.append(suite)
    return '<?xml version="1.0" encoding="utf-8"?>' + ElementTree.tostring(suites, encoding="unicode") + "\n"
