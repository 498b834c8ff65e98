"""Conformance-adapter §5.4 *Subgraph declaration placement* (proposal 0123): the innermost site
declaring a name governs (top level < its `graph:` block < case < the case's `graph:` block); at one
site the mapping form governs over an inline block. Run on the real conformance-adapter 001 fixture,
whose four cases each catch a wrong resolution strategy — proven here by resolving wrongly."""

from __future__ import annotations

import pytest

from oa_conformance.interpreter.static import scenarios
from oa_conformance.pipeline import read_fixture

from .faults import run_text, target_text

FIXTURE = "001-subgraph-declaration-placement-precedence.yaml"


def run_placement(tmp_path):
    text = target_text("conformance-adapter", FIXTURE)
    return {r.ref.name: r for r in run_text(tmp_path, text, "conformance-adapter")}


def test_every_case_of_the_real_fixture_passes(tmp_path):
    results = run_placement(tmp_path)
    assert len(results) == 4
    assert all(r.outcome == "passed" for r in results.values()), {k: r.reason for k, r in results.items()}


def flat(last_wins: bool):
    """No scoping model: every declaration in document order into one mapping."""
    def resolve(scenario):
        found = {}
        for site in scenarios.declaration_sites(scenario):
            for name, graph, _ in scenarios.site_declarations(site):
                if last_wins or name not in found:
                    found[name] = graph
        return found
    return resolve


def mapping_before_site(scenario):
    """Any in-scope mapping beats any inline declaration, whatever its site."""
    inline, mapped = {}, {}
    for site in scenarios.declaration_sites(scenario):
        for name, graph, is_mapping in scenarios.site_declarations(site):
            (mapped if is_mapping else inline)[name] = graph
    return inline | mapped


@pytest.mark.parametrize(("resolver", "failing"), [
    (flat(last_wins=False), 4),  # the top-level declaration, always
    (flat(last_wins=True), 1),   # only case 4 writes the winning mapping first
    (mapping_before_site, 1),    # only case 3 has an inner inline declaration beside an outer mapping
], ids=["first_write_wins", "last_write_wins", "mapping_before_site"])
def test_a_wrong_resolution_strategy_fails_the_fixture(tmp_path, monkeypatch, resolver, failing):
    monkeypatch.setattr(scenarios.Scenario, "graph_declarations", resolver)
    results = run_placement(tmp_path)
    failed = [case for case, r in results.items() if r.outcome == "failed"]
    assert len(failed) == failing, {k: (r.outcome, r.reason) for k, r in results.items()}
    assert all("final_state.resolved: expected" in results[case].reason for case in failed)


def test_stopping_at_the_case_fails_the_graph_block_case(tmp_path, monkeypatch):
    real = scenarios.declaration_sites
    monkeypatch.setattr(scenarios, "declaration_sites",
                        lambda s: [site for site in real(s) if s.case is None or site is not s.case.get("graph")])
    results = run_placement(tmp_path)
    assert [c for c, r in results.items() if r.outcome == "failed"] == ["graph_block_declaration_shadows_case_level"]


def _pick_body(marker: str, indent: str) -> str:
    return (f"{indent}state: {{fields: {{which: {{type: string, default: ''}}}}}}\n{indent}entry: mark\n"
            f"{indent}nodes: {{mark: {{update: {{which: {marker}}}}}}}\n{indent}edges: [{{from: mark, to: END}}]\n")


def test_a_top_level_graph_block_ranks_inside_the_top_level():
    text = ("subgraphs:\n  pick:\n" + _pick_body("top", "    ") +
            "graph:\n  subgraphs:\n    pick:\n" + _pick_body("graph-block", "      ") +
            "  state: {fields: {resolved: {type: string, default: ''}}}\n  entry: run\n"
            "  nodes: {run: {subgraph: pick, outputs: {resolved: which}}}\n  edges: [{from: run, to: END}]\n"
            "initial_state: {}\nexpected: {final_state: {resolved: graph-block}}\n")
    loaded = read_fixture("001-top.yaml", text, capability="graph-engine")
    assert loaded.diagnostics == ()
    pick = scenarios.scenarios(loaded.fixture)[0].graph_declarations()["pick"]
    assert pick.get("nodes").get("mark").get("update").get("which").value == "graph-block"
