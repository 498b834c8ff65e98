"""``oa-conformance run --junitxml FILE``: the run as JUnit XML, in the schema pytest writes (for CI
systems that read JUnit and do not run pytest).

One ``testcase`` per case, named as the pytest plugin names its item — node id
``<fixture path>::<NNN-name>[<case>]``, the path relative to the current folder as pytest's is to its
rootdir — and split as pytest's ``--junitxml`` splits a node id: ``classname`` the path with ``/`` as
``.``, ``name`` the rest. ``time`` is the case's own duration; a skip is ``<skipped>`` with its reason,
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
from ..verdicts.results import CaseResult


def node_id(result: CaseResult) -> str:
    """The pytest plugin's node id of the case."""
    ref = result.ref
    stem = os.path.basename(ref.fixture.path).removesuffix(".yaml")
    name = f"{stem}[{ref.name}]" if ref.name is not None else stem
    path = os.path.abspath(ref.fixture.path)
    here = os.getcwd()
    # Relative to the current folder (pytest's rootdir when run from it); a fixture outside it by its full path.
    shown = os.path.relpath(path, here) if path.startswith(here + os.sep) else path.lstrip(os.sep)
    return f"{shown.replace(os.sep, '/')}::{name}"


def classname_and_name(nodeid: str) -> tuple[str, str]:
    """pytest's split of a node id (``junitxml.mangle_test_address``)."""
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = names[0].replace("/", ".")
    names[-1] += bracket + params
    return ".".join(names[:-1]), names[-1]


def _text(result: CaseResult) -> tuple[str, str]:
    """(message, text): the first finding, and every entry the summary shows."""
    findings = result.findings()
    lines = [line for line in [entry_line(result, findings)] if line]
    lines += [f"{where + ': ' if where else ''}{text}" for where, text in findings]
    lines += [f"note: {note}" for note in result.notes]
    return (lines[0] if lines else result.outcome), "\n".join(lines)


def junit_xml(results: Iterable[CaseResult], elapsed: float) -> str:
    results = list(results)
    counts = {"failures": 0, "skipped": 0}
    suite = ElementTree.Element("testsuite", name="oa-conformance")
    for result in results:
        classname, name = classname_and_name(node_id(result))
        case = ElementTree.SubElement(suite, "testcase", classname=classname, name=name, time=f"{result.duration_s:.3f}")
        message, text = _text(result)
        if result.outcome == "skipped":
            counts["skipped"] += 1
            where = f"{result.location}: " if result.location else ""
            ElementTree.SubElement(case, "skipped", type="pytest.skip", message=result.reason or "skipped").text = f"{where}{result.reason or ''}"
        elif result.outcome == "xfail":
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
