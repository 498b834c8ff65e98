"""The matchers are pure: what ``harness_parameterized`` compares against comes in the ``Bindings``
passed to ``match`` (the case's recorded harness parameters), never from ambient state."""

from __future__ import annotations

import threading

from pyrsistent import pmap

from oa_conformance.assertions.matchers import NO_BINDINGS, Bindings, match

from .test_adapter_conformance import expected_value

WANT = expected_value("name: {harness_parameterized: implementation_name}\nid: \"<trace_id_a>\"\n")


def test_harness_parameterized_compares_against_the_parameters_passed_in():
    ours = Bindings(harness_parameters=pmap({"implementation_name": "openarmature"}))
    result = match(WANT, {"name": "openarmature", "id": "r1"}, ours, mode="subset")
    assert result.ok and result.bindings.harness_parameters == ours.harness_parameters and result.bindings["<trace_id_a>"] == "r1"
    wrong = match(WANT, {"name": "someone-else", "id": "r1"}, ours, mode="subset")
    assert [(m.path, m.expected) for m in wrong.mismatches] == [("name", "'openarmature' (harness parameter implementation_name)")]
    missing = match(WANT, {"name": "openarmature", "id": "r1"}, NO_BINDINGS, mode="subset")
    assert [m.actual for m in missing.mismatches] == ["no harness parameter named 'implementation_name'"]


def test_two_cases_judged_at_once_see_each_their_own_parameters():
    """Each thread matches with the parameters it passes: nothing set by one is seen by the other."""
    outcomes: dict[str, list[bool]] = {}
    start = threading.Barrier(2)

    def judge(name: str) -> None:
        bindings = Bindings(harness_parameters=pmap({"implementation_name": name}))
        start.wait()
        outcomes[name] = [match(WANT, {"name": name, "id": "r"}, bindings, mode="subset").ok for _ in range(200)]

    threads = [threading.Thread(target=judge, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == {"a": [True] * 200, "b": [True] * 200}


def test_a_match_tried_aside_keeps_the_parameters_and_binds_nothing():
    bound = Bindings(harness_parameters=pmap({"implementation_name": "x"})).set("<trace_id_a>", "r1")
    aside = bound.fresh()
    assert "<trace_id_a>" in bound and "<trace_id_a>" not in aside and aside.harness_parameters == bound.harness_parameters
