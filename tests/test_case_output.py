"""What a case's run would print (runtime warnings, the runtime's log records) is that case's notes,
never stderr — per case, with cases side by side (interpreter/running/case_output.py)."""

from __future__ import annotations

import asyncio
import gc
import logging
import warnings
from pathlib import Path

from oa_conformance.interpreter.running.case_output import captured, notes, run_loop
from oa_conformance.frontends.report import json_report, summary_table
from oa_conformance.pipeline import cases_of
from oa_conformance.scheduling.runner import run_all

from .conftest import shared_fixture
from .test_run import write_fixture

RAISER = "graph-engine/conformance/015-observer-error-isolation.yaml"  # the runtime warns per raising delivery
USAGE = "llm-provider/conformance/068-usage-counter-malformed-partial.yaml"  # the runtime logs a WARNING


def refs(tmp_path, relative: str, old: str | None = None, new: str | None = None, name: str | None = None):
    text = shared_fixture(relative).read_text(encoding="utf-8")
    if old is not None:
        assert old in text
        text = text.replace(old, new)
    capability = relative.split("/", 1)[0]
    return cases_of(write_fixture(tmp_path, text, capability, name or Path(relative).name))


def test_a_runtime_warning_is_a_note_of_the_case_and_shown_when_it_fails(tmp_path):
    (passed,) = list(run_all(refs(tmp_path / "a", RAISER)))
    assert passed.outcome == "passed"
    assert any(n.startswith("warning UserWarning: observer raised") for n in passed.notes), passed.notes
    assert json_report([passed])["cases"][0]["notes"] == list(passed.notes)
    (failed,) = list(run_all(refs(tmp_path / "b", RAISER, "v: 3\n    trace", "v: 4\n    trace")))
    assert failed.outcome == "failed"
    assert "note: warning UserWarning: observer raised" in summary_table([failed])


def test_a_filter_added_while_cases_run_does_not_hide_a_case_warning(tmp_path):
    """pytest adds its configured filters at every test, in front; a case started after that still
    gets every warning it causes (the capture puts its filter first again)."""
    with captured(), warnings.catch_warnings():  # the capture is installed already...
        warnings.filterwarnings("ignore", message="observer raised")  # ...then a filter arrives in front
        (result,) = list(run_all(refs(tmp_path, RAISER)))
    assert any(n.startswith("warning UserWarning: observer raised") for n in result.notes), result.notes


def test_outside_every_case_a_warning_the_filters_ignore_stays_ignored_while_cases_run():
    """A finalizer run by a collection in a thread with no case (a case's unclosed SQLite connection,
    say) warns outside every case: while some case runs, our `always` filter lets it through, and it
    must still be shown only if the other filters would show it (ResourceWarning: ignored)."""
    import threading

    def outside_every_case() -> None:  # a new thread starts with no case in its context
        warnings.warn("unclosed database", ResourceWarning)
        warnings.warn("shown as before", UserWarning)

    with warnings.catch_warnings(record=True) as shown:
        warnings.resetwarnings()
        warnings.simplefilter("ignore", ResourceWarning)  # Python's default filter for it
        with captured() as caught:  # a case is running
            thread = threading.Thread(target=outside_every_case)
            thread.start()
            thread.join()
    assert [str(w.message) for w in shown] == ["shown as before"]
    assert caught == []


def test_a_runtime_log_record_is_a_note_of_the_case(tmp_path):
    (result,) = list(run_all(refs(tmp_path, USAGE)))
    assert any(n.startswith("log WARNING openarmature._usage:") for n in result.notes), result.notes


def test_notes_stay_with_their_case_when_cases_run_side_by_side(tmp_path):
    """Four warning cases and four quiet ones at once: each warning case has its note (not only the
    first in the process), no quiet case has any."""
    cases = []
    for i in range(4):
        cases += refs(tmp_path / f"w{i}", RAISER)
        cases += refs(tmp_path / f"q{i}", "graph-engine/conformance/001-linear-static-flow.yaml")
    results = list(run_all(cases, workers=8))
    for result in results:
        warned = any("observer raised" in n for n in result.notes)
        assert warned == ("observer-error" in result.ref.id), (result.ref.id, result.notes)


def test_an_inner_capture_takes_what_is_emitted_inside_it_and_repeats_are_counted():
    with captured() as outer:
        for _ in range(2):
            warnings.warn("outer one", UserWarning)  # every occurrence, not once per location
        with captured() as inner:
            logging.getLogger("openarmature.test").warning("inner one")
    assert len(notes(outer)) == 1 and notes(outer)[0].startswith("warning UserWarning: outer one (")
    assert notes(outer)[0].endswith("(×2)")
    assert notes(inner) == ("log WARNING openarmature.test: inner one",)


def test_a_task_exception_nobody_retrieved_is_a_note_of_the_case_that_lost_it(capfd):
    # The report asyncio makes when such a task is freed comes at a later garbage collection, in any
    # thread (a traceback holds the task in a cycle); the case's loop reports it when the case ends.
    async def lost() -> None:
        raise ValueError("a branch nobody awaited")

    async def case() -> int:
        task = asyncio.create_task(lost())
        keep.append(task)  # a reference cycle's stand-in: the task outlives the case
        await asyncio.sleep(0.01)
        return 7

    keep: list[asyncio.Task[None]] = []
    with captured() as caught:
        assert run_loop(case()) == 7
    assert notes(caught) == ("log ERROR asyncio: Task exception was never retrieved: ValueError: a branch nobody awaited",)
    keep.clear()
    gc.collect()
    assert capfd.readouterr().err == ""  # reported once, never again on stderr
