"""The adapter's own conformance (conformance-adapter): sentences binding the adapter that no other
test pinned, each test quoting its sentence and failing if the adapter broke exactly that sentence.
adapter-evidence.toml names these tests (with the older ones) per statement id."""

from __future__ import annotations

from oa_conformance.assertions import catalogue
from oa_conformance.frontends.lint.context import index_of
from oa_conformance.model.discovery import discover
from oa_conformance.pipeline import cases_of
from oa_conformance.scheduling.runner import run_all

from . import faults
from .conftest import BUNDLED_SPEC


def outcomes(results) -> dict[str, str]:
    return {r.ref.id: (r.outcome, r.reason) for r in results}


def all_passed(results) -> bool:
    return bool(results) and all(r.outcome == "passed" for r in results)


def test_discovery_walks_every_conformance_folder_for_yaml_files(tmp_path):
    """§3.1: "Implementations MUST discover fixtures by walking `spec/<capability>/conformance/`
    directories for `*.yaml` files; the numbering is presentational, not structural." and §8.1: "the
    default MUST be "discover and run all fixtures."": every *.yaml of every capability's
    conformance folder — numbered or not, of a capability the adapter does not know — is found when
    no filter is given, and nothing outside a conformance folder is."""
    spec = tmp_path / "spec"
    wanted = ["graph-engine/conformance/001-a.yaml", "graph-engine/conformance/no-number.yaml",
              "sessions/conformance/900-b.yaml", "a-new-capability/conformance/007-c.yaml"]
    for relative in wanted + ["graph-engine/notes.yaml", "graph-engine/conformance/001-a.md"]:
        (spec / relative).parent.mkdir(parents=True, exist_ok=True)
        (spec / relative).write_text("entry: a\n", encoding="utf-8")
    found = sorted(ref.display for ref in discover([str(tmp_path)]))
    assert found == sorted(wanted)


def test_each_case_of_a_fixture_gets_its_own_graph_and_observers(tmp_path):
    """§4.2: "The adapter MUST run each case independently — no state, observers, or backend
    instances are shared across cases within one fixture file." Two copies of one case with a
    graph-attached recording observer, whose `observer_events` is the exact list of the events it
    received: the second copy fails if the graph or the observer of the first were reused."""
    text = faults.target_text("graph-engine", "023-drain-timeout-not-reached-fast-observers.yaml")
    body = "".join("    " + line if line.strip() else line
                   for line in text.splitlines(keepends=True) if not line.lstrip().startswith("#"))
    twice = "cases:\n" + "".join(f"  - name: copy_{n}\n{body}" for n in (1, 2))
    results = faults.run_text(tmp_path, twice, "graph-engine")
    assert len(results) == 2 and all_passed(results), outcomes(results)


def test_invoke_with_is_read_as_invoke(tmp_path):
    """§5.7: "The container key MAY be spelled `invoke:` OR `invoke_with:` — adapters MUST treat them
    as equivalent." A drain fixture whose `drain_summary` needs the drain the container asks for
    passes under either spelling, and fails under both when the drain it asks for changes."""
    text = faults.target_text("graph-engine", "022-drain-timeout-elapses-with-undelivered.yaml")
    assert "\ninvoke:\n" in text
    spelled = text.replace("\ninvoke:\n", "\ninvoke_with:\n", 1)
    for variant in (text, spelled):
        assert all_passed(faults.run_text(tmp_path, variant, "graph-engine")), variant[:0]
        no_timeout = variant.replace("timeout_seconds: 0.1", "timeout_seconds: 30.0", 1)
        results = faults.run_text(tmp_path, no_timeout, "graph-engine")
        assert results and all(r.outcome == "failed" for r in results), outcomes(results)
        assert all("drain_summary.timeout_reached" in r.reason for r in results), outcomes(results)


def test_a_nodes_directives_run_in_document_order(tmp_path):
    """§8.3: "When a node carries more than one directive (sibling keys under `nodes.<node_name>:`),
    the adapter MUST execute them in **document order**" (not sorted by key). Observability 135 puts
    `augment_metadata` and `capture_invocation_metadata_into` in both orders; sorted order would
    fail its second case. Swapping the two keys of its first case fails that case."""
    text = faults.target_text("observability", "135-within-node-directive-execution-order.yaml")
    assert all_passed(faults.run_text(tmp_path, text, "observability"))
    forward = '        augment_metadata:\n          marker: "set"\n        capture_invocation_metadata_into: captured\n'
    swapped = '        capture_invocation_metadata_into: captured\n        augment_metadata:\n          marker: "set"\n'
    assert text.count(forward) == 1
    first, second = faults.run_text(tmp_path, text.replace(forward, swapped), "observability")
    assert first.outcome == "failed" and "captured" in first.reason, (first.outcome, first.reason)
    assert second.outcome == "passed"


def expected_value(text: str):
    """An expected value as the adapter reads it from a fixture: the value tree, tokens parsed."""
    from oa_conformance.grammar.value_tokens import with_tokens
    from oa_conformance.interpreter.static.loader import load_bytes

    result = load_bytes(text, "expected.yaml")
    assert result.diagnostics == ()
    return with_tokens(result.tree)


UUID4 = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"


def test_format_tokens_match_by_their_format():
    """§5.10: "adapters MUST interpret each uniformly so a fixture means the same thing across
    implementations." The format tokens match their format and nothing else: `<uuid>` a canonical
    UUIDv4 (not a hex string nor a non-v4), `<any-string>` a non-empty string (not "" nor a number)."""
    from oa_conformance.assertions.matchers import match

    want = expected_value('id: "<uuid>"\nname: "<any-string>"\n')
    assert match(want, {"id": UUID4, "name": "x"}).ok
    for wrong in ({"id": UUID4.replace("-", ""), "name": "x"}, {"id": UUID4.replace("-41d2-", "-11d2-"), "name": "x"},
                  {"id": UUID4, "name": ""}, {"id": UUID4, "name": 7}):
        assert not match(want, wrong).ok, wrong


def test_a_binding_token_binds_at_its_first_occurrence():
    """§5.10: "It binds to the value at its first occurrence within a case; every later occurrence of
    the **exact same token string** MUST equal that bound value, and distinct token strings bind
    independently." Bindings thread through the matches of one case."""
    from oa_conformance.assertions.matchers import match

    want = expected_value('ids: ["<trace_id_a>", "<trace_id_a>", "<trace_id_b>"]\n')
    assert match(want, {"ids": ["t1", "t1", "t2"]}).ok
    assert match(want, {"ids": ["t1", "t1", "t1"]}).ok  # distinct tokens may hold equal values
    assert not match(want, {"ids": ["t1", "t2", "t2"]}).ok
    first = match(expected_value('x: "<trace_id_a>"\n'), {"x": "t1"})
    assert first.ok and not match(expected_value('y: "<trace_id_a>"\n'), {"y": "t9"}, first.bindings).ok
    assert match(expected_value('y: "<trace_id_b>"\n'), {"y": "t9"}, first.bindings).ok


def carries_checks(text: str, **attributes):
    from types import SimpleNamespace

    from oa_conformance.assertions.error_rules import _carries

    error = SimpleNamespace(attributes=attributes, type_name="StructuredOutputInvalid")
    checks, _ = _carries(expected_value(text), error, {}, "expected_error.carries")
    return [check.status for check in checks]


def test_a_carries_mapping_field_is_a_subset_match():
    """§5.13: "When the field is a **mapping**, the assertion is a **subset match**: every key the
    fixture names MUST match, and keys it does not name are ignored"."""
    usage = {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}
    assert carries_checks("usage: {prompt_tokens: 3}\n", usage=usage) == ["verified"]
    assert carries_checks("usage: {prompt_tokens: 4}\n", usage=usage) == ["failed"]
    assert carries_checks("usage: {prompt_tokens: 3, cached_tokens: 0}\n", usage=usage) == ["failed"]


def test_error_message_mentions_is_a_substring_check():
    """§5.12: "**`error_message_mentions: <str>`** — a substring the error's `error_message` MUST
    contain (e.g. the failing field name)." Any wording around it passes; a message without it fails."""
    message = "field 'answer' is required (got none)"
    assert carries_checks("error_message_mentions: answer\n", error_message=message) == ["verified"]
    assert carries_checks("error_message_mentions: answers\n", error_message=message) == ["failed"]
    assert carries_checks("error_message_present: true\n", error_message=message) == ["verified"]
    assert carries_checks("error_message_present: true\n", error_message=None) == ["failed"]


def test_invoke_drain_events_for_drains_with_its_timeout_then_snapshots(tmp_path):
    """§5.1: "before this node returns, the adapter MUST invoke
    `graph.drain_events_for(state.invocation_id, timeout=<timeout_seconds>)` then snapshot the named
    observer's accumulator bucket for that `invocation_id`." and §5.5: `accumulate` "accumulates events
    into per-`invocation_id` buckets exposed via a read API the adapter MUST provide". Graph-engine
    028's 50 ms-per-event accumulator holds node a's events in its snapshot only if the drain ran
    first; 030's drain summary reports a reached timeout only if 0.05 s is the timeout passed."""
    synchronized = faults.target_text("graph-engine", "028-drain-events-for-basic-synchronization.yaml")
    assert all_passed(faults.run_text(tmp_path, synchronized, "graph-engine"))
    timed = faults.target_text("graph-engine", "030-drain-events-for-timeout.yaml")
    assert all_passed(faults.run_text(tmp_path, timed, "graph-engine"))
    longer = timed.replace("timeout_seconds: 0.05", "timeout_seconds: 30.0", 1)
    first = faults.run_text(tmp_path, longer, "graph-engine")[0]
    assert first.outcome == "failed" and "node_drain_summaries.c.timeout_reached" in first.reason, first.reason


TYPED_FIELDS = """\
cases:
  - name: typed_list_rejects_a_string
    state: {fields: {xs: {type: list<int>, default: []}}}
    entry: a
    nodes: {a: {update: {xs: ["a"]}}}
    edges: [{from: a, to: END}]
    initial_state: {}
    expected_error: {category: state_validation_error}
  - name: untyped_list_takes_anything
    state: {fields: {xs: {type: list, default: []}}}
    entry: a
    nodes: {a: {update: {xs: ["a", 1, {k: v}]}}}
    edges: [{from: a, to: END}]
    initial_state: {}
    expected: {final_state: {xs: ["a", 1, {k: v}]}}
  - name: typed_dict_rejects_a_wrong_value
    state: {fields: {m: {type: "dict<string,int>", default: {}}}}
    entry: a
    nodes: {a: {update: {m: {k: "v"}}}}
    edges: [{from: a, to: END}]
    initial_state: {}
    expected_error: {category: state_validation_error}
"""


def test_type_strings_become_fields_of_the_same_shape(tmp_path):
    """§5.2: "Adapters MUST translate the type string into a host-language typed-state field with
    equivalent shape semantics. List-element-type-omitted (`list`) is permitted; the adapter MUST NOT
    impose element-type constraints in that case." The runtime's own validation rejects a string in a
    `list<int>` and in a `dict<string,int>` value only if the element types reached it; a bare `list`
    takes mixed items only if none was imposed."""
    results = faults.run_text(tmp_path, TYPED_FIELDS, "graph-engine")
    assert len(results) == 3 and all_passed(results), outcomes(results)


RECORD_FIELDS = """\
cases:
  - name: records_append_into_a_list_of_records
    state: {fields: {errors: {type: list<error_entry>, reducer: append, default: []}}}
    entry: a
    nodes:
      a: {update: {errors: [{node: a, code: 1, detail: {tags: [x, y]}}]}}
      b: {update: {errors: [{node: b, code: 2}]}}
    edges: [{from: a, to: b}, {from: b, to: END}]
    initial_state: {}
    expected: {final_state: {errors: [{node: a, code: 1, detail: {tags: [x, y]}}, {node: b, code: 2}]}}
  - name: records_merge_into_a_dict_of_records
    state: {fields: {scores: {type: "dict<string,scored_item>", reducer: merge, default: {}}}}
    entry: a
    nodes:
      a: {update: {scores: {x: {score: 1, label: one}}}}
      b: {update: {scores: {y: {score: 2, label: null}}}}
    edges: [{from: a, to: b}, {from: b, to: END}]
    initial_state: {scores: {w: {score: 0}}}
    expected: {final_state: {scores: {w: {score: 0}, x: {score: 1, label: one}, y: {score: 2, label: null}}}}
  - name: a_list_of_records_takes_no_scalar
    state: {fields: {errors: {type: list<error_entry>, reducer: append, default: []}}}
    entry: a
    nodes: {a: {update: {errors: [3]}}}
    edges: [{from: a, to: END}]
    initial_state: {}
    expected_error: {category: state_validation_error}
"""


def test_user_defined_record_types_are_list_elements_and_dict_values(tmp_path):
    """§5.2: "The adapter MUST support user-defined record types as element types of `list<T>` and as
    value types of `dict<K,V>`." A bare name the fixture uses as a record type (`error_entry`,
    `scored_item`) reads, and its fields are mappings of fields: records appended to a
    `list<error_entry>`, merged into a `dict<string,scored_item>` (and given in its initial state)
    reach the final state whole, nested values included; a scalar is no record (the runtime's
    validation rejects it, so the field's element type reached it); a default that is no record is
    fixture_schema_invalid at the value. A rejected bare name, a record read as an unconstrained or a
    scalar type, fails it."""
    results = faults.run_text(tmp_path, RECORD_FIELDS, "graph-engine")
    assert len(results) == 3 and all_passed(results), outcomes(results)
    no_record = RECORD_FIELDS.replace("default: []}}}\n    entry: a\n    nodes:\n      a: {update: {errors: [{node: a",
                                      "default: [1]}}}\n    entry: a\n    nodes:\n      a: {update: {errors: [{node: a", 1)
    assert no_record != RECORD_FIELDS
    first = faults.run_text(tmp_path, no_record, "graph-engine")[0]
    line = no_record.splitlines().index(next(l for l in no_record.splitlines() if "default: [1]" in l)) + 1
    assert (first.outcome, first.category) == ("error", "fixture_schema_invalid"), outcomes([first])
    assert "error_entry record" in first.reason and str(first.location).endswith(f":{line}:{no_record.splitlines()[line - 1].index('[1]') + 2}")


def test_the_in_memory_checkpointer_is_instantiated_and_resumed_from(tmp_path):
    """§5.6: "**`checkpointer: <checkpointer_name>`** — names the Checkpointer backend the adapter MUST
    instantiate for this fixture. The adapter MUST provide at minimum `in_memory`" (and §6.2 "The
    adapter MUST ship this at minimum."). Pipeline-utilities 025 asserts the saved record after the
    first run and a resume that skips the node it holds: both need the named backend, instantiated
    and handed to the runtime."""
    text = faults.target_text("pipeline-utilities", "025-checkpoint-resume-from-completed-position.yaml")
    assert "checkpointer: in_memory" in text
    results = faults.run_text(tmp_path, text, "pipeline-utilities")
    assert all_passed(results), outcomes(results)


def test_a_failure_mocks_cause_is_chained_for_a_consumer_to_walk(tmp_path):
    """§5.1: "The adapter MUST construct the chain so a consumer walking it (e.g. the
    pipeline-utilities §6.3 failure-isolation event's cause chain) observes each link's `category` /
    `message`." Pipeline-utilities 068 asserts the failure-isolation event's chain link by link; a
    mock cause with another message or category fails that link."""
    text = faults.target_text("pipeline-utilities", "068-failure-mock-cause-chain.yaml")
    assert all_passed(faults.run_text(tmp_path, text, "pipeline-utilities"))
    mock_cause = '              message: "originating upstream failure"'
    assert text.count(mock_cause) == 1
    for changed in (text.replace(mock_cause, '              message: "another failure"'),
                    text.replace("              category: provider_unavailable\n" + mock_cause,
                                 "              category: provider_rate_limit\n" + mock_cause)):
        (result,) = faults.run_text(tmp_path, changed, "pipeline-utilities")
        assert result.outcome == "failed" and "chain" in result.reason, result.reason


OBSERVER_INVARIANTS = [  # graph-engine 017: (as written, a wrong value of it)
    ("pre_node_events_count: 2", "pre_node_events_count: 3"),
    ("pre_node_fan_out_index_absent: true", "pre_node_fan_out_index_absent: false"),
    ("inner_event_count: 6", "inner_event_count: 7"),
    ("inner_fan_out_indices_seen: [0, 1, 2]", "inner_fan_out_indices_seen: [0, 1]"),
    ("inner_event_identities_unique: true", "inner_event_identities_unique: false"),
]


def test_observer_event_invariants_are_each_checked_by_name(tmp_path):
    """§5.8: "**`observer_event_invariants: {<predicate_name>: <value>, ...}`** — name-keyed invariant
    predicates the adapter MUST verify against the observer's recorded events." and §5.9: "Adapters
    MUST ship logic that interprets each canonical predicate name in this section." Graph-engine 017
    (a concurrent fan-out whose event order is not determined) passes; each canonical predicate it
    uses, given a wrong value, fails the case naming that predicate."""
    text = faults.target_text("graph-engine", "017-observer-fan-out-index.yaml")
    assert all_passed(faults.run_text(tmp_path, text, "graph-engine"))
    for written, wrong in OBSERVER_INVARIANTS:
        assert text.count(written) == 1, written
        (result,) = faults.run_text(tmp_path, text.replace(written, wrong), "graph-engine")
        predicate = written.split(":")[0]
        assert result.outcome == "failed" and predicate in result.reason, (predicate, result.reason)


def test_the_reask_builder_renders_the_template_and_nothing_more(tmp_path):
    """§5.11: "The adapter MUST NOT contribute any text beyond the rendered template — the fixture's
    purpose is to prove OA authors no prompt of its own (llm-provider §7.1)." The fixture asserts the
    correction by `content_contains`, which extra text would pass, so the builder's output is compared
    whole here; llm-provider 063 shows the builder is the one the runtime calls."""
    from types import SimpleNamespace

    from oa_conformance.interpreter.running.capabilities.llm_provider import _reask_builder

    error = SimpleNamespace(output_content='{"name":"Bob"}', error_message="age: field required")
    assert _reask_builder("Fix {output_content}: {error_message}")(error) == 'Fix {"name":"Bob"}: age: field required'
    assert _reask_builder("{error_message}")(error) == "age: field required"
    text = faults.target_text("llm-provider", "063-call-level-reask-budget-exhausted.yaml")
    assert all_passed(faults.run_text(tmp_path, text, "llm-provider"))
    without_output = text.replace('template: "Fix {output_content}: {error_message}"', 'template: "Fix: {error_message}"', 1)
    (result,) = faults.run_text(tmp_path, without_output, "llm-provider")
    assert result.outcome == "failed" and "appended_messages" in result.reason, result.reason


CANONICAL_ELSEWHERE = [  # (graph-engine fixture, a canonical §5.9 predicate as written, a wrong value)
    ("033-drain-events-for-parallel-branches-coverage.yaml", "inner_branch_names_seen: [alpha, beta]", "inner_branch_names_seen: [alpha]"),
    ("030-drain-events-for-timeout.yaml", "workers_not_cancelled_on_per_invocation_drain_timeout: true",
     "workers_not_cancelled_on_per_invocation_drain_timeout: false"),
    ("030-drain-events-for-timeout.yaml", "drain_returned_within_timeout: true", "drain_returned_within_timeout: false"),
]


def test_the_other_canonical_predicates_are_checked_by_name(tmp_path):
    """§5.9: "Adapters MUST ship logic that interprets each canonical predicate name in this section."
    The canonical predicates graph-engine 017 does not use, on the fixtures that do (the two suspension
    ones need proposal 0021): each holds as written and fails given the wrong value."""
    for fixture, written, wrong in CANONICAL_ELSEWHERE:
        text = faults.target_text("graph-engine", fixture)
        assert text.count(written) == 1, written
        assert all_passed(faults.run_text(tmp_path, text, "graph-engine")), fixture
        results = faults.run_text(tmp_path, text.replace(written, wrong), "graph-engine")
        predicate = written.split(":")[0]
        assert any(r.outcome == "failed" and predicate in r.reason for r in results), outcomes(results)


HARNESS_OPERATION = """\
state:
  fields:
    input: {type: int, default: 0}
    doubled: {type: int, default: 0}
entry: double
nodes:
  double:
    update_pure_from_state: {doubled: input_times_two}   # harness: doubled = input * 2
edges:
  - {from: double, to: END}
initial_state: {input: 21}
expected:
  final_state: {input: 21, doubled: 42}
"""


def test_a_named_harness_operation_computes_what_the_header_says(tmp_path):
    """§5.1: `update_pure_from_state` derives a value "via a named harness operation (e.g.,
    `input_times_two` produces `output = input * 2`) ... The adapter MUST implement each operation as
    specified in the fixture's prose." The observability fixtures using it never assert its result
    (their fan-out results go unasserted), so a minimal case in that directory does: 21 becomes 42."""
    (result,) = faults.run_text(tmp_path, HARNESS_OPERATION, "observability")
    assert result.outcome == "passed", result.reason


def test_a_set_valued_predicate_takes_its_values_in_any_order(tmp_path):
    """§7: "Adapters MUST NOT impose an exact ordering on events that the spec doesn't determine."
    §5.9 defines `inner_fan_out_indices_seen` / `inner_branch_names_seen` as the *set* of values
    observed on concurrently scheduled instances / branches: the fixtures pass with the values
    written in another order, and still fail with a value missing."""
    for fixture, written, reordered, missing in (
            ("017-observer-fan-out-index.yaml", "inner_fan_out_indices_seen: [0, 1, 2]",
             "inner_fan_out_indices_seen: [2, 0, 1]", "inner_fan_out_indices_seen: [2, 0]"),
            ("033-drain-events-for-parallel-branches-coverage.yaml", "inner_branch_names_seen: [alpha, beta]",
             "inner_branch_names_seen: [beta, alpha]", "inner_branch_names_seen: [beta]")):
        text = faults.target_text("graph-engine", fixture)
        assert text.count(written) == 1, written
        results = faults.run_text(tmp_path, text.replace(written, reordered), "graph-engine")
        assert all_passed(results), outcomes(results)
        results = faults.run_text(tmp_path, text.replace(written, missing), "graph-engine")
        assert any(r.outcome == "failed" for r in results), outcomes(results)


REAL_PRIMITIVES = [  # (construct, the runtime's entry point for it, a fixture exercising it)
    ("fan-out", "openarmature.graph:GraphBuilder.add_fan_out_node", "graph-engine", "017-observer-fan-out-index.yaml"),
    ("parallel branches", "openarmature.graph:GraphBuilder.add_parallel_branches_node", "graph-engine",
     "033-drain-events-for-parallel-branches-coverage.yaml"),
    ("drain", "openarmature.graph.compiled:CompiledGraph.drain_events_for", "graph-engine", "028-drain-events-for-basic-synchronization.yaml"),
    ("checkpointing", "openarmature.checkpoint:InMemoryCheckpointer.save", "pipeline-utilities",
     "025-checkpoint-resume-from-completed-position.yaml"),
]


def test_each_construct_runs_the_runtimes_own_primitive(tmp_path, monkeypatch):
    """§8.3: "The adapter MUST NOT simulate any spec-defined behavior — every construct the fixture
    exercises (suspend, drain, middleware, fan-out, parallel-branches, sessions, checkpointing,
    observability emission) MUST be the real implementation primitive." For each construct the
    0.17.0 runtime ships and this test can name an entry point for, a fixture exercising it passes
    and went through that entry point of the runtime (suspend and sessions need proposals 0021 / 0020;
    middleware and observability emission are covered by their own tests)."""
    import importlib

    for construct, entry, capability, fixture in REAL_PRIMITIVES:
        module, dotted = entry.split(":")
        owner_name, method = dotted.split(".")
        owner = getattr(importlib.import_module(module), owner_name)
        original, calls = getattr(owner, method), []

        def spy(*args, _original=original, _calls=calls, **kwargs):
            _calls.append(1)
            return _original(*args, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(owner, method, spy)
            results = faults.run_text(tmp_path / construct.replace(" ", "-"), faults.target_text(capability, fixture), capability)
        assert all_passed(results), (construct, outcomes(results))
        assert calls, f"{construct}: the runtime's {entry} never ran"


def test_every_fixture_specific_predicate_is_implemented_or_its_case_a_recognized_skip(shared_spec, target_spec):
    """§5.9: "Fixture-specific predicates not listed here are documented in the originating fixture's
    prose per §3.2 per-directory harness notes; adapters MUST also implement those". Every predicate
    name a case of either corpus (or the bundled spec/) uses that is not canonical has a catalogue row
    of its capability, unless the case needs a feature the runtime does not ship: then the case is a
    recognized skip naming what is missing, located — never a pass, and never "not implemented"
    (which is what a case whose predicate lost its row turns into)."""
    implemented: set[tuple[str, str]] = set()
    lacking = []
    for root in (target_spec, shared_spec, BUNDLED_SPEC):
        for fixture in discover([str(root)]):
            for case in cases_of(fixture):
                names = [p.name for p in index_of(case.scenario.view).predicates] if case.scenario is not None else []
                specific = [name for name in names if catalogue.resolve(None, name) is None]
                missing = [name for name in specific if catalogue.resolve(fixture.capability, name) is None]
                implemented.update((fixture.capability, name) for name in specific if name not in missing)
                if missing:
                    lacking.append(case)
    assert len(implemented) > 700 and lacking  # both corpora read: ~780 names implemented, ~185 uses not
    for result in run_all(lacking):
        assert result.outcome == "skipped", (result.ref.id, result.outcome, result.reason)
        assert "does not ship" in result.reason and result.location is not None and result.location.column is not None, (result.ref.id, result.reason, result.location)
