"""Extensions of this adapter's fixture language (`Directive.extension`): each is a vocabulary row
marked as an extension, with a handler that makes it a real check — it holds on the right trace and
fails on a wrong one — and `oa-lint` reports each use as information (V005), never changing the exit
status. Tested through the assert pass and through the installed `oa-conformance run` / `oa-lint`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oa_conformance.pipeline import cases_of, run_case
from oa_conformance.model.vocabulary import VOCABULARY

from .test_llm_provider import run_copy
from .test_run import write_fixture

BIN = Path(sys.executable).parent


def installed(command: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / command), *args], capture_output=True, text=True, timeout=120)


def extension_rows() -> list:
    return [row for row in VOCABULARY.all_directives() if row.extension is not None]


# ---- retry_after_seconds: null --------------------------------------------------------------------

RATE_LIMITED = """\
cases:
  - name: no_hint
    mock_provider:
      responses:
        - status: 429
          {headers}body:
            error:
              type: rate_limit_error
              message: "Rate limit exceeded"
    call:
      operation: complete
      messages: [{{role: user, content: "Hi"}}]
    expected:
      raises:
        category: provider_rate_limit
        retry_after_seconds: null
"""
WITH_HINT = 'headers:\n            Retry-After: "30"\n          '


def test_retry_after_null_is_an_extension_row():
    row = VOCABULARY.lookup("error_expectation", "retry_after_seconds", "llm-provider")
    assert row.extension is not None and "null" in row.extension.doc
    assert row in extension_rows()


def test_retry_after_null_holds_when_the_provider_supplied_no_hint(tmp_path):
    result, _ = run_copy(tmp_path, "001-null-hint.yaml", RATE_LIMITED.format(headers=""), "no_hint")
    assert result.outcome == "passed", result.reason
    assert result.counts()["warning"] == 0  # verified, not skipped


def test_retry_after_null_fails_when_the_runtime_reports_a_hint(tmp_path):
    result, path = run_copy(tmp_path, "001-null-hint.yaml", RATE_LIMITED.format(headers=WITH_HINT), "no_hint")
    assert result.outcome == "failed"
    line = RATE_LIMITED.format(headers=WITH_HINT).splitlines().index("        retry_after_seconds: null") + 1
    assert str(result.location).startswith(f"{path}:{line}:") and "got 30" in result.reason


def test_retry_after_null_on_a_runtime_without_the_accessor_is_a_warning(tmp_path, monkeypatch):
    from openarmature.llm import errors

    original = errors.ProviderRateLimit.__init__

    def without_accessor(self, *args, retry_after=None):
        original(self, *args, retry_after=retry_after)
        del self.retry_after

    monkeypatch.setattr(errors.ProviderRateLimit, "__init__", without_accessor)
    result, _ = run_copy(tmp_path, "001-null-hint.yaml", RATE_LIMITED.format(headers=""), "no_hint")
    assert result.outcome == "passed", result.reason
    assert result.counts()["warning"] == 1


def test_retry_after_null_through_the_installed_command(tmp_path):
    good = write_fixture(tmp_path / "good", RATE_LIMITED.format(headers=""), "llm-provider", "001-null-hint.yaml")
    bad = write_fixture(tmp_path / "bad", RATE_LIMITED.format(headers=WITH_HINT), "llm-provider", "001-null-hint.yaml")
    passed = installed("oa-conformance", "run", str(Path(good.path).parents[2]), "--processes", "1")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    failed = installed("oa-conformance", "run", str(Path(bad.path).parents[2]), "--processes", "1")
    assert failed.returncode == 1 and "retry_after_seconds" in failed.stdout + failed.stderr


# ---- names: what an expected error names, wherever it says it -------------------------------------

REDUCER_ERROR = """\
cases:
  - name: reducer_error
    state:
      fields:
        journal: {{type: list<string>, reducer: append, default: []}}
    entry: scribe
    nodes:
      scribe: {{update: {{journal: "not a list"}}}}
    edges:
      - {{from: scribe, to: END}}
    initial_state: {{}}
    expected_error:
      category: reducer_error
      names: [{names}]
"""


def run_reducer_error(tmp_path, names: str):
    ref = write_fixture(tmp_path, REDUCER_ERROR.format(names=names), "graph-engine", "001-reducer-error.yaml")
    cases = cases_of(ref)
    return run_case(cases[0], timeout=20), ref.path


def test_names_is_an_extension_row():
    row = VOCABULARY.lookup("error_expectation", "names")
    assert row.extension is not None and "whole word" in row.extension.doc
    assert row in extension_rows()


def test_names_holds_when_the_error_names_field_reducer_and_node(tmp_path):
    result, _ = run_reducer_error(tmp_path, "journal, append, scribe")
    assert result.outcome == "passed", result.reason
    assert result.counts()["verified"] == 4  # the category and one check per name


def test_names_fails_on_a_name_the_error_does_not_say_at_that_name(tmp_path):
    result, path = run_reducer_error(tmp_path, "journal, ledger")
    line = REDUCER_ERROR.splitlines().index("      names: [{names}]") + 1
    assert result.outcome == "failed"
    assert str(result.location) == f"{path}:{line}:{len('      names: [journal, ') + 1}"
    assert "names[1]" in result.reason and "does not name 'ledger'" in result.reason and "journal" in result.reason


def test_names_needs_the_whole_word_not_a_piece_of_a_longer_one(tmp_path):
    result, _ = run_reducer_error(tmp_path, "scrib")  # inside `scribe`
    assert result.outcome == "failed" and "does not name 'scrib'" in result.reason


def test_names_through_the_installed_command(tmp_path):
    good = write_fixture(tmp_path / "good", REDUCER_ERROR.format(names="journal, append, scribe"), "graph-engine", "001-e.yaml")
    bad = write_fixture(tmp_path / "bad", REDUCER_ERROR.format(names="ledger"), "graph-engine", "001-e.yaml")
    passed = installed("oa-conformance", "run", str(Path(good.path).parents[2]), "--processes", "1")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    failed = installed("oa-conformance", "run", str(Path(bad.path).parents[2]), "--processes", "1")
    assert failed.returncode == 1 and "does not name 'ledger'" in failed.stdout + failed.stderr


def test_lint_marks_a_use_of_names_as_information(tmp_path):
    ref = write_fixture(tmp_path, REDUCER_ERROR.format(names="journal"), "graph-engine", "001-e.yaml")
    Path(ref.path).with_suffix(".md").write_text("# A case\n", encoding="utf-8")
    done = installed("oa-lint", "--format", "json", "--select", "V005", ref.path)
    found = json.loads(done.stdout)
    assert done.returncode == 0 and [(d["code"], d["severity"]) for d in found] == [("V005", "info")]
    assert "names" in found[0]["message"]


CONCAT_FLATTEN_ERROR = """\
cases:
  - name: concat_flatten_error
    state:
      fields:
        harvest: {{type: list<string>, reducer: concat_flatten, default: []}}
    entry: gather
    nodes:
      gather: {{update: {{harvest: [["kept"], "stray_scalar"]}}}}
    edges:
      - {{from: gather, to: END}}
    initial_state: {{}}
    expected_error:
      category: reducer_error
      cause:
        names: [{names}]
"""


def run_cause_names(tmp_path, names: str):
    ref = write_fixture(tmp_path, CONCAT_FLATTEN_ERROR.format(names=names), "graph-engine", "001-concat-flatten.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def test_names_under_cause_is_an_extension_only_that_key_uses():
    row = VOCABULARY.lookup("error_expectation", "cause")
    assert row in extension_rows() and "under `cause:`" in row.extension.doc


def test_names_under_cause_accepts_any_one_of_a_list_of_alternatives(tmp_path):
    # The runtime's cause says `update[1] is str`: the value's position names it, its text does not.
    result = run_cause_names(tmp_path, "[stray_scalar, '1']")
    assert result.outcome == "passed", result.reason


def test_names_under_cause_reads_the_cause_not_the_error(tmp_path):
    # `harvest` is in the ReducerError's own message, not in its cause's.
    result = run_cause_names(tmp_path, "harvest")
    assert result.outcome == "failed" and "cause does not name 'harvest'" in result.reason


def test_names_under_cause_fails_when_no_alternative_is_named(tmp_path):
    result = run_cause_names(tmp_path, "[stray_scalar, '7']")
    assert result.outcome == "failed" and "does not name 'stray_scalar' or '7'" in result.reason


# ---- attempts_input_state_mutation, behavior: mutate -----------------------------------------------

MUTATION = """\
cases:
  - name: mutation
    subgraphs:
      inner:
        state:
          fields:
            trace: {{type: list<string>, reducer: append, default: []}}
        entry: inner_a
        nodes:
          inner_a: {{update: {{trace: [inner_a]}}}}
        edges:
          - {{from: inner_a, to: END}}
    state:
      fields:
        trace: {{type: list<string>, reducer: append, default: []}}
    entry: outer_a
    nodes:
      outer_a: {{{outer_a}update: {{trace: [outer_a]}}}}
      outer_sub: {{subgraph: inner}}
    edges:
      - {{from: outer_a, to: outer_sub}}
      - {{from: outer_sub, to: END}}
    initial_state: {{}}
    observers:
      - {{name: meddler, attach: graph, target: outer, behavior: {behavior}}}
{expected}"""
REFUSED = "    expected:\n      invariants:\n        observer_state_mutation_attempts_refused: true\n"


def run_mutation(tmp_path, outer_a: str = "", behavior: str = "mutate", expected: str = REFUSED):
    text = MUTATION.format(outer_a=outer_a, behavior=behavior, expected=expected)
    ref = write_fixture(tmp_path, text, "graph-engine", "001-mutation.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def test_mutation_extensions_are_extension_rows():
    node_row = VOCABULARY.lookup("node", "attempts_input_state_mutation")
    behavior_row = VOCABULARY.lookup("observer", "behavior")
    assert node_row in extension_rows() and behavior_row in extension_rows()


def test_a_mutate_observer_finds_every_state_it_is_given_refused(tmp_path):
    result = run_mutation(tmp_path)
    assert result.outcome == "passed", result.reason


def test_the_refusal_predicate_needs_a_mutate_observer_to_have_tried(tmp_path):
    # A recording observer tries nothing: the predicate cannot be evaluated, so it does not hold.
    result = run_mutation(tmp_path, behavior="record")
    assert result.outcome == "failed" and "no observer attempted to mutate" in result.reason


def test_a_node_assigning_its_received_state_fails_with_node_exception(tmp_path):
    failing = "    expected_error:\n      category: node_exception\n      raised_from: outer_a\n"
    result = run_mutation(tmp_path, outer_a="attempts_input_state_mutation: trace, ", behavior="record", expected=failing)
    assert result.outcome == "passed", result.reason


# ---- detaches_observer ------------------------------------------------------------------------------

DETACHED = """\
state:
  fields:
    log: {{type: list<string>, reducer: append, default: []}}
entry: a
nodes:
  a: {{update: {{log: [a]}}}}
  b: {{detaches_observer: {name}, update: {{log: [b]}}}}
edges:
  - {{from: a, to: b}}
  - {{from: b, to: END}}
observers:
  - {{name: watcher, attach: graph, target: outer, behavior: record}}
invocations:
  - name: first
    initial_state: {{}}
  - name: second
    initial_state: {{}}
    expected:
      observer_events:
        watcher: []
"""


def test_detaches_observer_is_an_extension_row():
    assert VOCABULARY.lookup("node", "detaches_observer") in extension_rows()


def test_a_detached_observer_receives_nothing_of_the_next_invocation(tmp_path):
    ref = write_fixture(tmp_path, DETACHED.format(name="watcher"), "graph-engine", "001-detached.yaml")
    result = run_case(cases_of(ref)[0], timeout=20)
    assert result.outcome == "passed", result.reason


def test_detaching_an_observer_the_fixture_does_not_attach_is_a_missing_primitive(tmp_path):
    ref = write_fixture(tmp_path, DETACHED.format(name="nobody"), "graph-engine", "001-detached.yaml")
    result = run_case(cases_of(ref)[0], timeout=20)
    assert result.outcome == "error" and "nobody" in result.reason


# ---- a negative or NaN timeout_seconds in invoke_drain_events_for ----------------------------------

DRAIN_WITH = """\
cases:
  - name: drain_timeout
    state:
      fields:
        v: {{type: int, default: 0}}
    entry: a
    nodes:
      a: {{update: {{v: 1}}}}
      b:
        update: {{v: 2}}
        invoke_drain_events_for:
          timeout_seconds: {timeout}
    edges:
      - {{from: a, to: b}}
      - {{from: b, to: END}}
    initial_state: {{}}
    expected_error:
      category: node_exception
      raised_from: b
"""


def run_drain_with(tmp_path, timeout: str):
    ref = write_fixture(tmp_path, DRAIN_WITH.format(timeout=timeout), "graph-engine", "001-drain.yaml")
    return run_case(cases_of(ref)[0], timeout=20), ref.path


def test_a_rejected_drain_timeout_is_an_extension_only_when_negative_or_nan():
    from oa_conformance.ast.nodes import Scalar

    row = VOCABULARY.lookup("drain_for", "timeout_seconds", "graph-engine")
    assert row.extension is not None and "NaN" in row.extension.doc
    uses = {value: row.extension.used_by(Scalar(value=value)) for value in (-1, -0.5, "NaN", 0, 0.05, 3)}
    assert uses == {-1: True, -0.5: True, "NaN": True, 0: False, 0.05: False, 3: False}


def test_a_negative_and_a_nan_drain_timeout_are_rejected_by_the_runtime(tmp_path):
    for timeout in ("-1", "NaN"):
        result, _ = run_drain_with(tmp_path / timeout, timeout)
        assert result.outcome == "passed", (timeout, result.reason)


def test_a_runtime_accepting_a_negative_drain_timeout_fails_the_case(tmp_path, monkeypatch):
    from openarmature.graph.compiled import CompiledGraph

    original = CompiledGraph.drain_events_for

    async def lenient(self, invocation_id, *, timeout=5.0):  # a runtime without the boundary check
        return await original(self, invocation_id, timeout=0.01)

    monkeypatch.setattr(CompiledGraph, "drain_events_for", lenient)
    result, path = run_drain_with(tmp_path, "-1")
    assert result.outcome == "failed" and "expected_error" in result.reason


def test_a_nan_drain_timeout_spelled_as_yaml_nan_stays_a_schema_problem(tmp_path):
    result, path = run_drain_with(tmp_path, ".nan")
    assert result.outcome == "error" and result.category == "fixture_schema_invalid", (result.outcome, result.reason)


def test_lint_marks_a_negative_drain_timeout_but_not_a_duration(tmp_path):
    found = {}
    for timeout in ("-1", "0.5"):
        ref = write_fixture(tmp_path / timeout, DRAIN_WITH.format(timeout=timeout), "graph-engine", "001-drain.yaml")
        Path(ref.path).with_suffix(".md").write_text("# A case\n", encoding="utf-8")
        done = installed("oa-lint", "--format", "json", "--select", "V005", ref.path)
        found[timeout] = [(d["code"], d["severity"]) for d in json.loads(done.stdout)]
    assert found == {"-1": [("V005", "info")], "0.5": []}


# ---- oa-lint: V005 extension-used ----------------------------------------------------------------

def linted_fixture(tmp_path, text: str, name: str):
    """A fixture with its sidecar (so the layout rules have nothing to say)."""
    ref = write_fixture(tmp_path, text, "llm-provider", name)
    Path(ref.path).with_suffix(".md").write_text("# A case\n", encoding="utf-8")
    return ref


def test_lint_reports_an_extension_use_as_information_without_changing_the_exit_status(tmp_path):
    ref = linted_fixture(tmp_path, RATE_LIMITED.format(headers=""), "001-null-hint.yaml")
    done = installed("oa-lint", "--format", "json", ref.path)
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(done.stdout)
    line = RATE_LIMITED.splitlines().index("        retry_after_seconds: null") + 1
    assert [(d["code"], d["severity"], d["line"]) for d in found] == [("V005", "info", line)]
    assert "extension" in found[0]["message"] and "1 info finding" in done.stderr


def test_lint_does_not_report_the_upstream_use_of_the_same_directive(tmp_path):
    text = RATE_LIMITED.format(headers=WITH_HINT).replace("retry_after_seconds: null", "retry_after_seconds: 30")
    ref = linted_fixture(tmp_path, text, "001-hint.yaml")
    done = installed("oa-lint", "--format", "json", "--select", "V005", ref.path)
    assert done.returncode == 0 and json.loads(done.stdout) == []


def test_the_sarif_and_github_forms_carry_information_as_a_note(tmp_path):
    ref = linted_fixture(tmp_path, RATE_LIMITED.format(headers=""), "001-null-hint.yaml")
    sarif = json.loads(installed("oa-lint", "--format", "sarif", ref.path).stdout)
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["note"]
    assert installed("oa-lint", "--format", "github", ref.path).stdout.startswith("::notice ")


# ---- the extensions are listed from the table ------------------------------------------------------

def test_docs_predicates_md_lists_every_extension_row():
    text = (Path(__file__).parents[1] / "docs" / "PREDICATES.md").read_text(encoding="utf-8")
    listed = text.split("## Extensions of the fixture language", 1)[1]
    for row in extension_rows():
        assert f"| `{row.name}` |" in listed and row.extension.doc.split(":")[0] in listed, row.name


# ---- llm_spans: status ---------------------------------------------------------------------------

def _with_span_statuses(first: str, second: str) -> str:
    from .test_llm_provider import real

    text = real("056-call-level-retry-transient.yaml")
    text = text.replace("      error_category: provider_unavailable\n", f"      error_category: provider_unavailable\n      status: {first}\n", 1)
    return text.replace("      error_category: null\n", f"      error_category: null\n      status: {second}\n", 1)


def test_llm_spans_status_is_an_extension_used_only_when_an_entry_names_it():
    row = VOCABULARY.lookup("expected", "llm_spans", "llm-provider")
    assert row.extension is not None and "status" in row.extension.doc


def test_llm_spans_status_holds_on_the_real_retry_case(tmp_path):
    result, _ = run_copy(tmp_path, "056-retry.yaml", _with_span_statuses("ERROR", "OK"))
    assert result.outcome == "passed", result.reason


def test_llm_spans_status_fails_on_the_wrong_status(tmp_path):
    text = _with_span_statuses("OK", "OK")
    result, path = run_copy(tmp_path, "056-retry.yaml", text)
    line = text.splitlines().index("      status: OK") + 1
    assert result.outcome == "failed" and "llm_spans[0].status" in result.reason and "'ERROR'" in result.reason
    assert f"{path}:{line}:" in str(result.location) + result.reason


def test_llm_spans_status_through_the_installed_command(tmp_path):
    good = write_fixture(tmp_path / "good", _with_span_statuses("ERROR", "OK"), "llm-provider", "001-retry.yaml")
    bad = write_fixture(tmp_path / "bad", _with_span_statuses("ERROR", "ERROR"), "llm-provider", "001-retry.yaml")
    passed = installed("oa-conformance", "run", str(Path(good.path).parents[2]), "--processes", "1")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    failed = installed("oa-conformance", "run", str(Path(bad.path).parents[2]), "--processes", "1")
    assert failed.returncode == 1 and "llm_spans[1].status" in failed.stdout + failed.stderr


def test_lint_marks_llm_spans_status_but_not_the_upstream_llm_spans(tmp_path):
    from .test_llm_provider import real

    upstream = linted_fixture(tmp_path / "up", real("056-call-level-retry-transient.yaml"), "001-retry.yaml")
    extended = linted_fixture(tmp_path / "ext", _with_span_statuses("ERROR", "OK"), "001-retry.yaml")
    assert json.loads(installed("oa-lint", "--format", "json", "--select", "V005", upstream.path).stdout) == []
    found = json.loads(installed("oa-lint", "--format", "json", "--select", "V005", extended.path).stdout)
    assert [(d["code"], d["severity"]) for d in found] == [("V005", "info")] and "llm_spans" in found[0]["message"]


# ---- a failed boolean Query says what it found ----------------------------------------------------

def test_every_boolean_query_row_failing_on_its_example_says_what_it_looked_at():
    from oa_conformance.assertions.catalogue import all_rows
    from oa_conformance.assertions.catalogue.predicate_rules import evaluate, substitute
    from oa_conformance.assertions.catalogue.rows import Query
    from oa_conformance.assertions.catalogue.scope import scope_from
    from oa_conformance.assertions.rules import CheckStatus

    from .test_catalogue import judge

    boolean = 0
    for capability, row in all_rows():
        if not isinstance(row, Query) or row.fails is None or "{" in row.query.replace("{value}", ""):
            continue  # a row with {name} bindings needs its concrete name's bindings: covered by test_catalogue
        scope = scope_from(row.fails.document, row.fails.invocation)
        try:
            found = evaluate(substitute(row.query, {}, row.fails.value), scope)
        except LookupError:
            continue
        failed = judge(capability, row, row.fails)
        if isinstance(found, bool):
            boolean += 1
            assert failed.status == CheckStatus.FAILED and "it looked at: `" in failed.detail, (row.name, failed.detail)
    assert boolean >= 1


def test_the_unique_invocation_id_query_shows_both_operands():
    from oa_conformance.assertions.catalogue import resolve

    from .test_catalogue import judge

    found = resolve("graph-engine", "each_invocation_has_unique_invocation_id")
    failed = judge("graph-engine", found.row, found.row.fails)
    assert failed.detail.startswith("it does not hold (it looked at: ")
    assert "`length(runs[].id)` = 2" in failed.detail and "`length(runs)` = 2" in failed.detail
    assert "`runs[].id` = ['i1', 'i1']" in failed.detail


TWO_RUNS = """\
state:
  fields:
    v: {type: int, default: 0}
entry: a
nodes:
  a:
    update: {v: 1}
edges:
  - {from: a, to: END}
invocations:
  - name: first
    initial_state: {}
    expected: {final_state: {v: 1}}
  - name: second
    initial_state: {}
    expected: {final_state: {v: 1}}
invariants:
  each_invocation_has_unique_invocation_id: WANT
"""


def test_a_failed_boolean_query_through_the_installed_command(tmp_path):
    good = write_fixture(tmp_path / "good", TWO_RUNS.replace("WANT", "true"), "graph-engine", "001-two-runs.yaml")
    bad = write_fixture(tmp_path / "bad", TWO_RUNS.replace("WANT", "false"), "graph-engine", "001-two-runs.yaml")
    passed = installed("oa-conformance", "run", str(Path(good.path).parents[2]), "--processes", "1")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    failed = installed("oa-conformance", "run", str(Path(bad.path).parents[2]), "--processes", "1")
    shown = failed.stdout + failed.stderr
    assert failed.returncode == 1 and "it looked at: `length(runs[].id)` = 2, `length(runs)` = 2" in shown, shown


# ---- concurrency_invariant: reached ---------------------------------------------------------------

def _concurrency_case(bound: int, allowed: int) -> str:
    from .conftest import shared_fixture

    text = shared_fixture("pipeline-utilities/conformance/022-fan-out-count-and-concurrency-modes.yaml").read_text(encoding="utf-8")
    text = text.replace("          default: 2\n        items:", f"          default: {allowed}\n        items:", 1)
    text = text.replace("        allowed_in_flight: 2\n", f"        allowed_in_flight: {allowed}\n", 1)
    return text.replace("      concurrency_invariant:\n        max_in_flight: 2\n",
                        f"      concurrency_invariant:\n        max_in_flight: {bound}\n        reached: true\n", 1)


def _run_pu(tmp_path, text: str, case: str):
    from oa_conformance.pipeline import cases_of, run_case

    ref = write_fixture(tmp_path, text, "pipeline-utilities", "001-concurrency.yaml")
    cases = [c for c in cases_of(ref) if case is None or c.scenario.name == case]
    return run_case(cases[0], timeout=20), ref.path


def test_concurrency_reached_holds_when_the_runtime_uses_the_bound(tmp_path):
    result, _ = _run_pu(tmp_path, _concurrency_case(2, 2), "concurrency_callable_with_items_field")
    assert result.outcome == "passed", result.reason


def test_concurrency_reached_fails_when_the_bound_is_never_reached(tmp_path):
    # The runtime is allowed 1 in flight; the fixture claims the bound of 2 is reached: it is not.
    text = _concurrency_case(2, 1)
    result, path = _run_pu(tmp_path, text, "concurrency_callable_with_items_field")
    line = text.splitlines().index("        reached: true") + 1
    assert result.outcome == "failed" and "expected the bound reached (2 instances in flight at once), at most 1 were" in result.reason
    assert str(result.location).startswith(f"{path}:{line}:")


def test_concurrency_reached_through_the_installed_command_and_lint(tmp_path):
    good = write_fixture(tmp_path / "good", _concurrency_case(2, 2), "pipeline-utilities", "001-concurrency.yaml")
    bad = write_fixture(tmp_path / "bad", _concurrency_case(2, 1), "pipeline-utilities", "001-concurrency.yaml")
    passed = installed("oa-conformance", "run", str(Path(good.path).parents[2]), "--processes", "1", "-k", "concurrency_callable")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    failed = installed("oa-conformance", "run", str(Path(bad.path).parents[2]), "--processes", "1", "-k", "concurrency_callable")
    assert failed.returncode == 1 and "expected the bound reached" in failed.stdout + failed.stderr
    found = json.loads(installed("oa-lint", "--format", "json", "--select", "V005", good.path).stdout)
    assert [d["code"] for d in found] == ["V005"] and "reached" in found[0]["message"]


# ---- llm-provider expected_wire_request: a key the body text repeats ------------------------------

def test_expected_wire_request_fails_on_a_key_the_body_repeats(tmp_path, monkeypatch):
    """The parsed body keeps the last of a repeated key; the wire's duplicate_keys still shows it."""
    import httpx._content as content

    from .test_llm_provider import real

    original = content.json_dumps

    def model_twice(obj, **options):
        text = original(obj, **options)
        if isinstance(obj, dict) and "model" in obj:
            return '{"model":' + original(obj["model"], **options) + "," + text[1:]
        return text

    text = real("076-managed-declared-stop-merge.yaml")
    case = "matching_extras_stop_collapses_dedup"  # the second case: its expected_wire_request's model line
    result, _ = run_copy(tmp_path, "076.yaml", text, case)
    assert result.outcome == "passed", result.reason  # the same case before the fault
    monkeypatch.setattr(content, "json_dumps", model_twice)
    result, path = run_copy(tmp_path, "076.yaml", text, case)
    line = [n for n, written in enumerate(text.splitlines(), start=1) if written == "      model: test-model"][1]
    assert result.outcome == "failed" and "expected_wire_request[request 0].model" in result.reason and "2 occurrences" in result.reason
    assert str(result.location).startswith(f"{path}:{line}:")


# ---- on_caught: {kind: raise} ----------------------------------------------------------------------

def _on_caught_raise() -> str:
    from .conftest import shared_fixture

    text = shared_fixture("pipeline-utilities/conformance/062-failure-isolation-on-caught-callback.yaml").read_text(encoding="utf-8")
    text = text.replace("kind: record_to_state_side_channel", "kind: raise")
    text = "\n".join(line for line in text.splitlines() if "increment_field:" not in line and "capture_message_field:" not in line)
    # What the callback's raise does to the node is the runtime's to decide here (the reference sequence in
    # §6.3 is not a MUST); the case asserts what holds either way: the event emitted, the callback called
    # once with the original exception.
    return text[:text.index("\nexpected:")] + """
expected:
  expected_failure_isolation_event:
    event_name: "summarize_failed"
    caught_exception:
      category: provider_unavailable
      message: "service down"
  invariants:
    on_caught_fires_exactly_once: true
    on_caught_receives_original_exception: true
    framework_event_still_emits_with_on_caught: true
"""


def test_on_caught_raise_runs_a_raising_callback(tmp_path):
    result, _ = _run_pu(tmp_path, _on_caught_raise(), None)
    assert result.outcome == "passed", result.reason


def test_on_caught_raise_fails_when_the_runtime_never_calls_the_callback(tmp_path, monkeypatch):
    import openarmature.graph as oa

    original = oa.FailureIsolationMiddleware.__init__

    def without_callback(self, *args, on_caught=None, **options):
        original(self, *args, **options)

    monkeypatch.setattr(oa.FailureIsolationMiddleware, "__init__", without_callback)
    result, _ = _run_pu(tmp_path, _on_caught_raise(), None)
    assert result.outcome == "failed" and "on_caught_fires_exactly_once" in result.reason


def test_on_caught_raise_through_the_installed_command_and_lint(tmp_path):
    ref = write_fixture(tmp_path, _on_caught_raise(), "pipeline-utilities", "001-on-caught-raise.yaml")
    done = installed("oa-conformance", "run", str(Path(ref.path).parents[2]), "--processes", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    found = json.loads(installed("oa-lint", "--format", "json", "--select", "V005", ref.path).stdout)
    assert [d["code"] for d in found] == ["V005"] and "kind: raise" in found[0]["message"]


# ---- invoke_checkpoint_delete -----------------------------------------------------------------------

DELETE_MISSING = """\
cases:
  - name: delete_missing
    state:
      fields:
        deleted: {{type: bool, default: false}}
    entry: clean
    nodes:
      clean:
        invoke_checkpoint_delete: "never-saved"
        update: {{deleted: true}}
    edges:
      - {{from: clean, to: END}}
    initial_state: {{}}
    checkpointer: {backend}
    expected:
      final_state: {{deleted: true}}
"""


def run_on_checkpointer(tmp_path, text: str, backend: str):
    """A one-case pipeline-utilities fixture, run (`backend` names the file apart)."""
    ref = write_fixture(tmp_path, text, "pipeline-utilities", f"001-{backend}.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def run_delete_missing(tmp_path, backend: str):
    return run_on_checkpointer(tmp_path, DELETE_MISSING.format(backend=backend), backend)


def test_a_delete_that_raises_on_a_missing_id_fails_the_case(tmp_path, monkeypatch):
    from openarmature.checkpoint import InMemoryCheckpointer

    async def strict(self, invocation_id):  # a backend that does not tolerate a missing id
        raise KeyError(invocation_id)

    monkeypatch.setattr(InMemoryCheckpointer, "delete", strict)
    result = run_delete_missing(tmp_path, "in_memory")
    assert result.outcome == "failed" and "final_state" in result.reason, result.reason


# ---- lists_checkpoints_into -----------------------------------------------------------------------

# A node `check` after a node `a`, calling one checkpointer operation through an extension into `field`.
CHECK_AFTER_A = """\
cases:
  - name: {name}
    state:
      fields:
        x: {{type: int, default: 0}}
        {field}: {{type: {field_type}, default: {default}}}
    entry: a
    nodes:
      a: {{update: {{x: 1}}}}
      check: {{{operation}: {field}}}
    edges:
      - {{from: a, to: check}}
      - {{from: check, to: END}}
    initial_state: {{}}
    checkpointer: {backend}
    expected:
"""

LISTED = CHECK_AFTER_A + """\
      final_state:
        x: 1
        listed:
          invocation_id: "<any-string>"
          correlation_id: "<any-string>"
          last_saved_at: "<timestamp>"
          completed_node_count: 1
"""


def run_listed(tmp_path, backend: str):
    text = LISTED.format(name="listed", operation="lists_checkpoints_into", field="listed", field_type="dict",
                         default="{}", backend=backend)
    return run_on_checkpointer(tmp_path, text, backend)


# The checkpointer operations a node calls through an extension: each is a row, and each holds on
# both backends (a delete of a missing id; a list that enumerates the running invocation).
CHECKPOINTER_OPERATIONS = {"invoke_checkpoint_delete": ("delete", run_delete_missing),
                           "lists_checkpoints_into": ("`list`", run_listed)}


@pytest.mark.parametrize("directive", sorted(CHECKPOINTER_OPERATIONS))
def test_a_checkpointer_operation_is_an_extension_row(directive):
    row = VOCABULARY.lookup("node", directive, "pipeline-utilities")
    assert row.extension is not None and CHECKPOINTER_OPERATIONS[directive][0] in row.extension.doc


@pytest.mark.parametrize("backend", ["in_memory", "sqlite"])
@pytest.mark.parametrize("directive", sorted(CHECKPOINTER_OPERATIONS))
def test_a_checkpointer_operation_holds_on_each_backend(tmp_path, directive, backend):
    result = CHECKPOINTER_OPERATIONS[directive][1](tmp_path, backend)
    assert result.outcome == "passed", result.reason


def test_a_list_that_enumerates_nothing_fails_the_case(tmp_path, monkeypatch):
    from openarmature.checkpoint import InMemoryCheckpointer

    async def empty(self, filter=None):  # a backend whose list enumerates no saved invocation
        return []

    monkeypatch.setattr(InMemoryCheckpointer, "list", empty)
    result = run_listed(tmp_path, "in_memory")
    assert result.outcome == "failed" and "listed" in result.reason, result.reason


def test_a_summary_missing_a_minimum_field_fails_the_case(tmp_path, monkeypatch):
    from openarmature.checkpoint import InMemoryCheckpointer

    original = InMemoryCheckpointer.list

    async def without_correlation(self, filter=None):  # summaries as mappings that lack correlation_id
        return [{"invocation_id": s.invocation_id, "last_saved_at": s.last_saved_at,
                 "completed_node_count": s.completed_node_count} for s in await original(self, filter)]

    monkeypatch.setattr(InMemoryCheckpointer, "list", without_correlation)
    result = run_listed(tmp_path, "in_memory")
    assert result.outcome == "failed" and "correlation_id" in result.reason, result.reason


# ---- expected_chain_ambiguity_error as an expected-error block ----------------------------------------

DUPLICATE_PAIR = """\
cases:
  - name: duplicate_pair
    state:
      schema_version: "v2"
      fields:
        x: {type: int, default: 0}
    entry: noop
    nodes:
      noop:
        update_pure: {}
    edges:
      - {from: noop, to: END}
    initial_state: {}
    checkpointer: sqlite
    migrations:
      - {from_version: "v1", to_version: "v2", migrate: should_not_run}
      - {from_version: "v1", to_version: "v2", migrate: should_not_run}
    expected_chain_ambiguity_error:
      category: checkpoint_state_migration_chain_ambiguous
      carries:
        from_version: "v1"
        to_version: "v2"
"""


def run_duplicate_pair(tmp_path):
    ref = write_fixture(tmp_path, DUPLICATE_PAIR, "pipeline-utilities", "001-ambiguity.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def test_an_ambiguity_error_block_is_an_extension_and_a_bare_category_is_not():
    from oa_conformance.ast.nodes import Scalar

    row = VOCABULARY.lookup("case", "expected_chain_ambiguity_error", "pipeline-utilities")
    assert row.extension is not None and not row.extension.used_by(Scalar(value="checkpoint_state_migration_chain_ambiguous"))


def test_an_ambiguity_error_block_holds_when_the_error_carries_the_pair(tmp_path):
    result = run_duplicate_pair(tmp_path)
    assert result.outcome == "passed", result.reason


def test_an_ambiguity_error_block_fails_when_the_error_drops_a_version(tmp_path, monkeypatch):
    from openarmature.checkpoint import errors

    original = errors.CheckpointStateMigrationChainAmbiguous.__init__

    def without_from(self, *args, from_version=None, to_version=None):  # a runtime losing the pair
        original(self, *args, from_version=None, to_version=to_version)

    monkeypatch.setattr(errors.CheckpointStateMigrationChainAmbiguous, "__init__", without_from)
    result = run_duplicate_pair(tmp_path)
    assert result.outcome == "failed" and "from_version" in result.reason, result.reason


# ---- expected_compile_error: true ----------------------------------------------------------------

ON_EMPTY = """\
subgraphs:
  unit:
    state:
      fields:
        input: {{type: int, default: 0}}
        out: {{type: int, default: 0}}
    entry: work
    nodes:
      work: {{update: {{out: 1}}}}
    edges:
      - {{from: work, to: END}}
cases:
  - name: on_empty_value
    graph:
      state:
        fields:
          items: {{type: list<int>, default: [1]}}
          results: {{type: list<int>, reducer: append, default: []}}
      entry: process
      nodes:
        process:
          fan_out:
            subgraph: unit
            items_field: items
            item_field: input
            collect_field: out
            target_field: results
            on_empty: {on_empty}
      edges:
        - {{from: process, to: END}}
    expected_compile_error: true
"""


def run_on_empty(tmp_path, on_empty: str):
    ref = write_fixture(tmp_path, ON_EMPTY.format(on_empty=on_empty), "pipeline-utilities", "001-on-empty.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def test_compile_error_true_is_an_extension_and_a_category_is_not():
    from oa_conformance.ast.nodes import Scalar

    row = VOCABULARY.lookup("case", "expected_compile_error", "graph-engine")
    assert row.extension is not None
    assert row.extension.used_by(Scalar(value=True)) and not row.extension.used_by(Scalar(value="dangling_edge"))


def test_compile_error_true_holds_when_registration_refuses_the_literal(tmp_path):
    # openarmature refuses `on_empty: skip` with a plain ValueError at add_fan_out_node: a build-time outcome
    result = run_on_empty(tmp_path, "skip")
    assert result.outcome == "passed", result.reason


def test_compile_error_true_fails_when_the_graph_compiles(tmp_path):
    result = run_on_empty(tmp_path, "noop")
    assert result.outcome == "failed" and "it compiled" in result.reason, result.reason


# ---- enclosing_fan_out_lineage in a saved-record assertion ----------------------------------------

NESTED_CRASH = """\
subgraphs:
  leaf:
    state:
      fields:
        input: {type: int, default: 0}
        out: {type: int, default: 0}
    entry: score
    nodes:
      score: {update_from_field: {out: input}}
    edges:
      - {from: score, to: END}
  runner:
    state:
      fields:
        inner_items: {type: list<int>, default: []}
        inner_results: {type: list<int>, reducer: append, default: []}
    entry: inner_process
    nodes:
      inner_process:
        fan_out: {subgraph: leaf, items_field: inner_items, item_field: input, collect_field: out,
                  target_field: inner_results, concurrent_mode: serial}
    edges:
      - {from: inner_process, to: END}
cases:
  - name: lineage_saved
    state:
      fields:
        outer_items: {type: list<list<int>>, default: [[1, 2], [3]]}
        all_results: {type: list<list<int>>, reducer: append, default: []}
    entry: outer_process
    nodes:
      outer_process:
        fan_out: {subgraph: runner, items_field: outer_items, item_field: inner_items,
                  collect_field: inner_results, target_field: all_results, concurrent_mode: serial}
    edges:
      - {from: outer_process, to: END}
    initial_state: {}
    checkpointer: in_memory
    crash_injection:
      after_fan_out_instance: {node: inner_process, index: 0}
    saved_record_assertions:
      fan_out_progress:
        inner_process:
          enclosing_fan_out_lineage:
            - {namespace: [], fan_out_node_name: outer_process, fan_out_index: 0}
"""


def run_nested_crash(tmp_path):
    ref = write_fixture(tmp_path, NESTED_CRASH, "pipeline-utilities", "001-lineage.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def test_enclosing_lineage_assertion_is_an_extension_row():
    row = VOCABULARY.lookup("fan_out_progress", "enclosing_fan_out_lineage", "pipeline-utilities")
    assert row.extension is not None and "§10.3" in row.extension.doc


def test_enclosing_lineage_assertion_fails_on_the_empty_lineage_0_17_0_records(tmp_path):
    result = run_nested_crash(tmp_path)
    assert result.outcome == "failed" and "enclosing_fan_out_lineage" in result.reason and "got []" in result.reason, result.reason


def test_enclosing_lineage_assertion_holds_when_the_runtime_records_it(tmp_path, monkeypatch):
    import dataclasses

    from openarmature.checkpoint.protocol import EnclosingFanOutInstance
    from openarmature.graph import compiled

    project = compiled._project_fan_out_progress

    def with_lineage(*args, **kwargs):  # a runtime writing the lineage: the nested entry ran in outer instance 0
        outer = EnclosingFanOutInstance(namespace=(), fan_out_node_name="outer_process", fan_out_index=0)
        return tuple(dataclasses.replace(p, enclosing_fan_out_lineage=(outer,)) if p.namespace else p for p in project(*args, **kwargs))

    monkeypatch.setattr(compiled, "_project_fan_out_progress", with_lineage)
    result = run_nested_crash(tmp_path)
    assert result.outcome == "passed", result.reason


# ---- reload_checkpoint_into ----------------------------------------------------------------------

RELOAD = CHECK_AFTER_A + """\
      final_state: {{x: 1, seen_positions: {seen}}}
"""


def run_reload(tmp_path, backend: str, seen: int):
    text = RELOAD.format(name="reload", operation="reload_checkpoint_into", field="seen_positions", field_type="int",
                         default=0, backend=backend, seen=seen)
    return run_on_checkpointer(tmp_path, text, backend)


def test_reload_checkpoint_is_an_extension_row():
    row = VOCABULARY.lookup("node", "reload_checkpoint_into", "pipeline-utilities")
    assert row.extension is not None and "durable" in row.extension.doc


def test_a_second_sqlite_backend_finds_the_saved_record(tmp_path):
    result = run_reload(tmp_path, "sqlite", 1)
    assert result.outcome == "passed", result.reason


def test_a_reopened_in_memory_backend_is_empty_as_a_new_process_is(tmp_path):
    result = run_reload(tmp_path, "in_memory", -1)
    assert result.outcome == "passed", result.reason


def test_a_backend_keeping_records_in_process_memory_fails_the_reload(tmp_path, monkeypatch):
    import sqlite3

    from openarmature.checkpoint.backends import sqlite as backend

    def in_process_memory(self):  # a sqlite backend that is not durable: each instance its own memory
        return self.__dict__.setdefault("_memory", sqlite3.connect(":memory:", check_same_thread=False))

    monkeypatch.setattr(backend.SQLiteCheckpointer, "_connect", in_process_memory)
    result = run_reload(tmp_path, "sqlite", 1)
    assert result.outcome == "failed" and "seen_positions" in result.reason, result.reason


# ---- when_request: mock entries keyed by request body --------------------------------------------

CHUNKED = """\
mapping: tei
tei_embedding_provider:
  base_url: "http://tei-embed.invalid"
  model: tei-embed-test
  chunk_size: 2
cases:
  - name: two_chunks
    state:
      fields:
        embedding_response: {{type: record, default: null}}
    entry: embed_node
    nodes:
      embed_node:
        calls_embed:
          input: ["e0", "e1", "e2", "e3"]
          stores_response_in: embedding_response
    edges:
      - {{from: embed_node, to: END}}
    initial_state: {{}}
    expected_wire_request_count: 2
    mock_embedding:
{entries}    expected:
      final_state:
        embedding_response:
          vectors: [[0.0, 0.5], [0.1, 0.5], [0.2, 0.5], [0.3, 0.5]]
"""
FIRST_CHUNK = '      - status: 200\n        when_request: {inputs: ["e0", "e1"]}\n        body: [[0.0, 0.5], [0.1, 0.5]]\n'
SECOND_CHUNK = '      - status: 200\n        when_request: {inputs: ["e2", "e3"]}\n        body: [[0.2, 0.5], [0.3, 0.5]]\n'


def _run_chunked(tmp_path, *entries: str):
    ref = write_fixture(tmp_path, CHUNKED.format(entries="".join(entries)), capability="retrieval-provider",
                        name="001-chunked.yaml")
    return run_case(cases_of(ref)[0], timeout=20), ref


def test_when_request_is_an_extension_row():
    row = VOCABULARY.lookup("retrieval_mock_response", "when_request", "retrieval-provider")
    assert row.extension is not None and row in extension_rows()


def test_when_request_holds_on_the_runtime_s_own_chunks(tmp_path):
    result, _ = _run_chunked(tmp_path, FIRST_CHUNK, SECOND_CHUNK)
    assert result.outcome == "passed", result


def test_when_request_entries_answer_the_request_naming_them_not_their_position(tmp_path):
    # Listed last chunk first: served by position, the (e0, e1) request would get the (e2, e3) vectors.
    result, _ = _run_chunked(tmp_path, SECOND_CHUNK, FIRST_CHUNK)
    assert result.outcome == "passed", result


def test_the_same_entries_served_by_position_fail(tmp_path):
    # The check above is not vacuous: without `when_request` the reversed list stitches wrongly.
    strip = lambda entry: "".join(line + "\n" for line in entry.splitlines() if "when_request" not in line)  # noqa: E731
    result, _ = _run_chunked(tmp_path, strip(SECOND_CHUNK), strip(FIRST_CHUNK))
    assert result.outcome == "failed", result


def test_a_request_no_entry_names_fails_the_call(tmp_path):
    result, _ = _run_chunked(tmp_path, FIRST_CHUNK.replace('"e1"', '"e9"'), SECOND_CHUNK)
    assert result.outcome == "failed", result
    assert "matches no unused `when_request` entry" in str(result), result


def test_when_request_on_some_entries_only_is_a_schema_problem(tmp_path):
    unkeyed = "".join(line + "\n" for line in SECOND_CHUNK.splitlines() if "when_request" not in line)
    result, _ = _run_chunked(tmp_path, FIRST_CHUNK, unkeyed)
    assert result.outcome != "passed" and "either every entry answers the request" in str(result), result


def test_lint_marks_a_use_of_when_request_as_information(tmp_path):
    ref = write_fixture(tmp_path, CHUNKED.format(entries=FIRST_CHUNK + SECOND_CHUNK), capability="retrieval-provider",
                        name="001-chunked.yaml")
    Path(ref.path).with_suffix(".md").write_text("# chunked\n", encoding="utf-8")
    lint = installed("oa-lint", ref.path)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert lint.stdout.count("V005") == 2 and "when_request" in lint.stdout


# ---- calls_ready: a node calls the bound provider's ready() ---------------------------------------

READY = """\
mapping: tei
tei_embedding_provider:
  base_url: "http://tei-embed.invalid"
  model: tei-embed-test
cases:
  - name: ready_probe
    state:
      fields:
        done: {{type: bool, default: false}}
    entry: ready_node
    nodes:
      ready_node:
        calls_ready: {{provider: embedding}}
    edges:
      - {{from: ready_node, to: END}}
    initial_state: {{}}
    mock_embedding:
      - status: {status}
        body: {body}
    expected_error:
      category: provider_invalid_model
      raised_from: ready_node
"""


def _run_ready(tmp_path, status: int, body: str):
    ref = write_fixture(tmp_path, READY.format(status=status, body=body), capability="retrieval-provider", name="001-ready.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def test_calls_ready_is_an_extension_row():
    row = VOCABULARY.lookup("node", "calls_ready", "retrieval-provider")
    assert row.extension is not None and row in extension_rows()


def test_calls_ready_holds_when_the_probe_is_told_the_model_is_unknown(tmp_path):
    result = _run_ready(tmp_path, 404, '{error: "model not found", error_type: NotFound}')
    assert result.outcome == "passed", result


def test_calls_ready_fails_when_the_probe_is_told_something_else(tmp_path):
    result = _run_ready(tmp_path, 503, '{error: "overloaded", error_type: Unhealthy}')
    assert result.outcome == "failed" and "provider_unavailable" in str(result), result


def test_calls_ready_fails_when_ready_returns(tmp_path):
    result = _run_ready(tmp_path, 200, "[[0.1, 0.2]]")
    assert result.outcome == "failed", result


# ---- shares_provider: one provider instance per kind and model ------------------------------------

TWICE_READY = """\
mapping: tei
tei_embedding_provider:
  base_url: "http://tei-embed.invalid"
  model: tei-embed-test
{shares}cases:
  - name: ready_twice
    state:
      fields:
        done: {{type: bool, default: false}}
    entry: first
    nodes:
      first:
        calls_ready: {{provider: embedding}}
      second:
        calls_ready: {{provider: embedding}}
    edges:
      - {{from: first, to: second}}
      - {{from: second, to: END}}
    initial_state: {{}}
    expected_wire_request_count: 2
    mock_embedding:
      - {{status: 200, body: [[0.5]]}}
      - {{status: 200, body: [[0.5]]}}
"""


def _ready_refused_when_repeated(monkeypatch):
    """A runtime whose ready() refuses a second call on the same instance (not idempotent)."""
    from oa_conformance.host import retrieval as r

    cls = r.TeiEmbeddingProvider
    original = cls.ready

    async def ready_once(self):
        if getattr(self, "_readied", False):
            raise RuntimeError("already readied")
        self._readied = True
        await original(self)

    monkeypatch.setattr(cls, "ready", ready_once)


def _run_twice(tmp_path, shares: bool):
    text = TWICE_READY.format(shares="shares_provider: true\n" if shares else "")
    ref = write_fixture(tmp_path, text, capability="retrieval-provider", name="001-ready-twice.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def test_shares_provider_is_an_extension_row():
    row = VOCABULARY.lookup("fixture", "shares_provider", "retrieval-provider")
    assert row.extension is not None and row in extension_rows()


def test_shared_provider_holds_on_an_idempotent_ready(tmp_path):
    assert _run_twice(tmp_path, shares=True).outcome == "passed"


def test_a_shared_provider_shows_a_ready_that_refuses_a_second_call(tmp_path, monkeypatch):
    _ready_refused_when_repeated(monkeypatch)
    assert _run_twice(tmp_path, shares=True).outcome == "failed"


def test_without_sharing_each_call_binds_its_own_provider(tmp_path, monkeypatch):
    # the same faulty runtime passes when each call gets a fresh instance: sharing is what observes it
    _ready_refused_when_repeated(monkeypatch)
    assert _run_twice(tmp_path, shares=False).outcome == "passed"


# ---- langfuse_prompts: the runtime's LangfusePromptBackend over a double of the SDK client ----------

LANGFUSE_ZERO_TTL = """\
backends:
  - name: langfuse
    langfuse_prompts:
      - {{name: greeting, label: production, type: text, version: 3, prompt: "Hello, {{{{user}}}}!"}}
cases:
  - name: zero_ttl
    calls:
      - {{target: {{backend: langfuse}}, operation: fetch, name: greeting, label: production, capture_as: first}}
      - {{target: {{backend: langfuse}}, operation: fetch, name: greeting, label: production, cache_ttl_seconds: 0}}
    expected:
      first: {{version: "3", template_hash_present: true}}
    expected_backend_state:
      langfuse: {{source_read_count: {reads}}}
"""


def _run_langfuse(tmp_path, reads: int):
    ref = write_fixture(tmp_path, LANGFUSE_ZERO_TTL.format(reads=reads), "prompt-management", "001-langfuse.yaml")
    return run_case(cases_of(ref)[0], timeout=20)


def test_langfuse_prompts_is_an_extension_row():
    row = VOCABULARY.lookup("prompt_backend", "langfuse_prompts", "prompt-management")
    assert row.extension is not None and row in extension_rows()


def test_a_zero_ttl_fetch_through_the_runtime_backend_reads_the_sdk_source(tmp_path):
    result = _run_langfuse(tmp_path, reads=2)
    assert result.outcome == "passed", result.reason


def test_the_double_serves_from_its_cache_when_the_ttl_is_not_forwarded(tmp_path, monkeypatch):
    from openarmature.prompts.backends.langfuse import LangfusePromptBackend

    original = LangfusePromptBackend._get_prompt
    monkeypatch.setattr(LangfusePromptBackend, "_get_prompt", lambda self, name, label, ttl=None: original(self, name, label, None))
    result = _run_langfuse(tmp_path, reads=2)
    assert result.outcome == "failed" and "source_read_count" in result.reason, result.reason


def test_a_wrong_source_read_count_fails(tmp_path):
    assert _run_langfuse(tmp_path, reads=1).outcome == "failed"
