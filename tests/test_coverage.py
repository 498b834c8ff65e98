"""`oa-conformance coverage` and lint rule L005, through the installed commands (subprocess).

Small synthetic spec checkouts (prose + fixtures + sidecars) test each part: statement extraction,
citation resolution, verification from a run report, the accounting file, each bad input, the JSON
schema; then one run over the real corpora checks the totals are sane.
"""

from __future__ import annotations

import html
import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import BUNDLED_SPEC, shared_spec_root, target_spec_root

COMMAND = Path(sys.executable).with_name("oa-conformance")
LINT = Path(sys.executable).with_name("oa-lint")

PROSE = """# Widget Engine

Normative keywords follow BCP 14 ([RFC 2119](x), [RFC 8174](y)): MUST, SHOULD, MAY and the rest are normative.

## 1. Purpose

Widgets are small. Nothing here is a requirement, though the word must appears in lowercase.

## 2. Concepts

**Node.** A named unit of work. Nodes MUST be asynchronous. A node MUST NOT mutate the state object it
received; it returns a new partial update which the engine merges.

**Edge.** A directed connection between nodes. Each node has exactly one outgoing edge.

**Helpers.** Implementations SHOULD warn on unused nodes, and MAY offer a `MUST`-named helper.

```python
# MUST inside code is quoted, not stated
def x(): pass
```

### 2.1 Reducers

Users MAY register custom reducers. The engine MUST provide the following reducers:

- `append` — concatenates lists.
- `merge` — shallow-merges mappings.

| reducer | rule |
|---|---|
| `append` | The update MUST be a list. |

## 3. Drain

The compiled graph MUST expose a `drain` operation that returns once every observer event was
delivered. A drain with a timeout MUST return no later than the timeout.
"""

FIXTURE = """# §2 Node: the node never mutates the state object it received.
state:
  fields:
    v: {type: int, default: 0}
entry: a
nodes:
  a:
    update: {v: 1}
edges:
  - {from: a, to: END}
initial_state: {}
expected:
  final_state: {v: 1}
"""

CASES_FIXTURE = """cases:
  - name: first
    state: {fields: {v: {type: int, default: 0}}}
    entry: a
    nodes: {a: {update: {v: 1}}}
    edges: [{from: a, to: END}]
    initial_state: {}
    expected: {final_state: {v: 1}}
  - name: second
    state: {fields: {v: {type: int, default: 0}}}
    entry: a
    nodes: {a: {update: {v: 2}}}
    edges: [{from: a, to: END}]
    initial_state: {}
    expected: {final_state: {v: 2}}
"""

SIDECAR = """# 001 — node

**Spec sections exercised:**
- §2 Node — "A node MUST NOT mutate the state object it received."
- §3 — the `drain` operation returns once every observer event was delivered.

**What passes:** the final state.
"""

CASES_SIDECAR = """# 002 — drain cases

**Spec sections exercised:**
- §3 — drain with a timeout returns no later than the timeout (case 2).
- §2.1 — the `append` update MUST be a list.
"""


def coverage(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(COMMAND), "coverage", *map(str, argv)], capture_output=True, text=True, cwd=cwd, timeout=300)


def lint(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), *map(str, argv)], capture_output=True, text=True, timeout=300)


def checkout(root: Path, prose: str | None = PROSE, fixtures: dict[str, tuple[str, str | None]] | None = None) -> Path:
    """A spec checkout: ``spec/widget/spec.md`` and ``spec/widget/conformance/`` fixtures (name → (yaml, sidecar))."""
    folder = root / "spec" / "widget" / "conformance"
    folder.mkdir(parents=True)
    if prose is not None:
        (root / "spec" / "widget" / "spec.md").write_text(prose, encoding="utf-8")
    for name, (text, sidecar) in (fixtures or {"001-node.yaml": (FIXTURE, SIDECAR)}).items():
        (folder / name).write_text(text, encoding="utf-8")
        if sidecar is not None:
            (folder / name.replace(".yaml", ".md")).write_text(sidecar, encoding="utf-8")
    return root


def mapped(tmp_path: Path, *extra: str, cwd: Path | None = None, **kwargs) -> tuple[dict, subprocess.CompletedProcess]:
    root = tmp_path / "repo"
    if not root.exists():
        checkout(root, **kwargs)
    out = tmp_path / "map.json"
    done = coverage(root, "--prose", root, "--json", out, *extra, cwd=cwd or tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), done


def test_statements_have_levels_sections_lines_and_skip_code_and_boilerplate(tmp_path):
    data, done = mapped(tmp_path)
    statements = data["statements"]
    texts = [s["text"] for s in statements]
    assert "Nodes MUST be asynchronous." in texts
    assert not any("BCP 14" in t or "inside code" in t or "lowercase" in t for t in texts)
    by_text = {s["text"]: s for s in statements}
    should = by_text["Implementations SHOULD warn on unused nodes, and MAY offer a `MUST`-named helper."]
    assert should["level"] == "should"  # the `MUST` in a code span is quoted, not stated
    node = by_text["Nodes MUST be asynchronous."]
    assert node["level"] == "must" and node["section"] == "§2 Concepts › Node" and node["line"] == 11
    assert node["id"].startswith("widget:2:") and node["path"].endswith("spec.md")
    assert by_text["The update MUST be a list."]["section"].startswith("§2.1 Reducers")  # a table row
    assert "The engine MUST provide the following reducers:" in texts  # a statement introducing a list
    assert sum(1 for s in statements if s["level"] == "must") == 6
    # multi-line sentence: one statement starting on its first line
    drain = by_text["The compiled graph MUST expose a `drain` operation that returns once every observer event was delivered."]
    assert drain["line"] == 36


def test_a_level_named_against_another_is_talked_about_not_used():
    from oa_conformance.frontends.coverage.prose import level_of

    # pipeline-utilities §7: the MUST is the level the sentence rules out, the MAY is used
    assert level_of("Implementations MAY warn at compile time; this is SHOULD, not MUST.") == "may"
    assert level_of("It **MAY** emit a diagnostic — MAY, not SHOULD, because it rests on internals.") == "may"
    assert level_of("This is a SHOULD, not a MUST.") is None
    assert level_of("Implementations MUST, not SHOULD, reject it.") == "must"  # used: no "is" / dash before it


def test_ids_are_stable_when_the_prose_around_moves(tmp_path):
    first, _ = mapped(tmp_path / "a")
    moved = PROSE.replace("## 1. Purpose\n", "## 1. Purpose\n\nA new paragraph.\n\nAnother one, free of keywords.\n")
    second, _ = mapped(tmp_path / "b", prose=moved)
    ids = {s["text"]: (s["id"], s["line"]) for s in first["statements"]}
    moved_ids = {s["text"]: (s["id"], s["line"]) for s in second["statements"]}
    assert {t: i for t, (i, _) in ids.items()} == {t: i for t, (i, _) in moved_ids.items()}
    assert all(moved_ids[t][1] == line + 4 for t, (_, line) in ids.items() if line > 8)


def test_citations_resolve_by_section_then_wording(tmp_path):
    data, _ = mapped(tmp_path)
    by_id = {s["id"]: s for s in data["statements"]}
    sidecar = [c for c in data["citations"] if c["path"].endswith(".md")]
    assert [c["line"] for c in sidecar] == [4, 5]
    assert [by_id[i]["text"] for i in sidecar[0]["resolved"]] == [
        "A node MUST NOT mutate the state object it received; it returns a new partial update which the engine merges."]
    assert [by_id[i]["text"][:40] for i in sidecar[1]["resolved"]] == ["The compiled graph MUST expose a `drain`"]
    header = [c for c in data["citations"] if c["path"].endswith(".yaml")]
    assert header and header[0]["line"] == 1 and header[0]["resolved"]  # the YAML header comment cites §2 Node
    cited = [s for s in data["statements"] if s["cited_by"]]
    assert all(s["cited_by"] == ["widget/001-node"] for s in cited)


def test_the_json_has_exactly_the_documented_schema(tmp_path):
    data, _ = mapped(tmp_path)
    assert set(data) == {"measured", "statuses", "statements", "citations"}
    assert [s["name"] for s in data["statuses"]] == ["proven", "violated", "checked", "accounted", "cited", "open"]
    assert all(set(s) == {"id", "capability", "section", "path", "line", "level", "text", "status", "cited_by", "named_by",
                          "proven_by", "reason"} for s in data["statements"])
    assert all(set(c) == {"fixture", "case", "path", "line", "text", "resolved"} for c in data["citations"])
    assert {s["level"] for s in data["statements"]} == {"must", "should", "may"}


def report(path: Path, outcomes: dict[str, str]) -> Path:
    """A run report; an outcome ``xfail:<kind>`` is an expected failure under an entry of that kind."""
    cases = [{"id": i, "outcome": o.split(":")[0], **({"expectation": {"kind": o.split(":")[1]}} if ":" in o else {})}
             for i, o in outcomes.items()]
    path.write_text(json.dumps({"cases": cases}))
    return path


def test_a_case_naming_a_statement_that_fails_as_a_known_runtime_violation_shows_it_violated(tmp_path):
    # "A known runtime violation is a failing case with a runtime expectations entry": the map says
    # so (violated), where a fixture defect's expected failure, or a plain failure, checks nothing.
    fixtures = {"002-cases.yaml": (CASES_FIXTURE, QUOTING_SIDECAR)}
    data, _ = mapped(tmp_path, fixtures=fixtures)
    drain = statement_id(data, "A drain with a timeout")
    for outcome, status in (("xfail:runtime", "violated"), ("xfail:fixture", "cited"), ("failed", "cited"),
                            ("passed", "checked")):
        run = report(tmp_path / "run.json", {"widget/002-cases[first]": outcome, "widget/002-cases[second]": "skipped"})
        data, _ = mapped(tmp_path, "--results", run, fixtures=fixtures)
        assert by_id(data, drain)["status"] == status, outcome
    # a violation in one report and a pass in another is no known violation
    one = report(tmp_path / "one.json", {"widget/002-cases[first]": "xfail:runtime"})
    other = report(tmp_path / "other.json", {"widget/002-cases[first]": "passed"})
    data, _ = mapped(tmp_path, "--results", one, "--results", other, fixtures=fixtures)
    assert by_id(data, drain)["status"] == "cited"


def test_results_alone_make_a_resolver_match_cited_never_more(tmp_path):
    fixtures = {"001-node.yaml": (FIXTURE, SIDECAR), "002-cases.yaml": (CASES_FIXTURE, CASES_SIDECAR)}
    run = report(tmp_path / "run.json", {"widget/001-node": "passed", "widget/002-cases[first]": "passed",
                                          "widget/002-cases[second]": "skipped"})
    data, done = mapped(tmp_path, "--results", run, fixtures=fixtures)
    by_text = {s["text"]: s for s in data["statements"]}
    timeout = by_text["A drain with a timeout MUST return no later than the timeout."]
    assert timeout["cited_by"] == ["widget/002-cases[second]"]  # "(case 2)" scopes the citation
    assert timeout["status"] == "cited" and timeout["named_by"] == []  # a paraphrase names nothing
    append = by_text["The update MUST be a list."]
    assert append["cited_by"] == ["widget/002-cases[first]", "widget/002-cases[second]"]
    assert append["status"] == "cited"  # its passing case paraphrases it: a hint, not a check
    # 001-node has one case: its sidecar's quoted sentence is that case's, and it passed
    mutate = by_text["A node MUST NOT mutate the state object it received; it returns a new partial update which the engine merges."]
    assert mutate["status"] == "cited"  # the quote stops at ";": not the whole sentence
    assert "MUST-level statements neither proven nor accounted" in done.stdout
    assert "(cited) A drain with a timeout MUST return" in done.stdout


def test_a_capability_filter_keeps_what_other_capabilities_fixtures_verify_of_it(tmp_path):
    # observability fixtures cite graph-engine §6: `--capability graph-engine` must still count them
    root = tmp_path / "repo"
    for capability, prose, fixture, sidecar in (
            ("graph-engine", PROSE, FIXTURE, SIDECAR),
            ("observability", "# Obs\n\n## 1. Spans\n\nSpans MUST end.\n", FIXTURE.replace("# §2 Node", "# graph-engine §2 Node"),
             '# 001\n\n**Spec sections exercised:**\n- graph-engine §2 Node — "A node MUST NOT mutate the state object it received."\n'
             "- §1 — words that no statement of the prose holds.\n")):
        (root / "spec" / capability / "conformance").mkdir(parents=True)
        (root / "spec" / capability / "spec.md").write_text(prose, encoding="utf-8")
        (root / "spec" / capability / "conformance" / "001-node.yaml").write_text(fixture, encoding="utf-8")
        (root / "spec" / capability / "conformance" / "001-node.md").write_text(sidecar, encoding="utf-8")
    run = report(tmp_path / "run.json", {"observability/001-node": "passed", "graph-engine/001-node": "skipped"})
    data, done = mapped(tmp_path, "--results", run, "--capability", "graph-engine")
    mutate = next(s for s in data["statements"] if s["text"].startswith("A node MUST NOT mutate"))
    assert set(mutate["cited_by"]) == {"graph-engine/001-node", "observability/001-node"}
    assert mutate["cited_by"] and mutate["status"] == "cited"
    assert {s["capability"] for s in data["statements"]} == {"graph-engine"}  # observability's own not shown
    assert "observability" not in done.stderr  # nor its fixtures' problems (its §1 citation resolves to nothing)
    assert "1 fixtures (0 uncited)" in done.stdout  # counts the filtered capability's fixtures only


def test_a_results_file_for_another_corpus_is_one_located_problem(tmp_path):
    run = report(tmp_path / "other.json", {"graph-engine/001-linear-static-flow": "passed"})
    data, done = mapped(tmp_path, "--results", run)
    assert f"{run}:1: a results file for another corpus" in done.stderr
    assert all(s["status"] in ("cited", "open") for s in data["statements"])
    (tmp_path / "junk.json").write_text("[1, 2]")
    bad = coverage(tmp_path / "repo", "--prose", tmp_path / "repo", "--results", tmp_path / "junk.json")
    assert bad.returncode == 2 and "not a report of oa-conformance run --json" in bad.stderr and "Traceback" not in bad.stderr


def test_bad_inputs_are_located_one_line_problems(tmp_path):
    unnumbered = "# Widget\n\n## Concepts\n\nNodes MUST be asynchronous.\n"
    fixtures = {"001-node.yaml": (FIXTURE, "# 001\n\nNo citation block at all.\n"), "002-bare.yaml": (CASES_FIXTURE, None)}
    data, done = mapped(tmp_path, prose=unnumbered, fixtures=fixtures)
    err = done.stderr
    assert "spec.md:1: no numbered sections" in err
    assert "001-node.md:1: no \"Spec sections exercised\" block" in err
    assert "002-bare.yaml:1: no readable sidecar" in err and "002-bare.yaml:1: uncited fixture" in err
    assert "citation resolves to nothing: widget §2: the prose has no section 2" in err  # the header comment's §2
    assert data["statements"][0]["section"] == "Concepts"
    # a capability with fixtures and no spec.md
    other = tmp_path / "other"
    checkout(other, prose=None)
    (other / "spec" / "gadget" ).mkdir()
    (other / "spec" / "gadget" / "spec.md").write_text(PROSE)
    done = coverage(other, "--prose", other)
    assert done.returncode == 0 and "widget/spec.md:1: missing: the 1 fixtures of widget" in done.stderr
    assert "no prose for capability 'widget'" in done.stderr
    # no prose at all, and a missing root: usage errors
    assert coverage(other, "--prose", tmp_path / "nowhere").returncode == 2
    assert coverage(tmp_path / "nowhere", "--prose", other).returncode == 2


def test_the_accounting_file_accounts_and_its_mistakes_are_located(tmp_path):
    data, _ = mapped(tmp_path)
    target = next(s for s in data["statements"] if s["text"].startswith("Nodes MUST be asynchronous"))
    accounting = tmp_path / "spec-coverage.toml"
    accounting.write_text(f'["{target["id"]}"]\nreason = "not-observable"\ntext = "Nodes MUST be"\n'
                          f'why = "a fixture cannot tell a coroutine from a function"\n\n'
                          '["widget:2:00000000"]\nreason = "documentation-only"\nwhy = "stale"\n')
    data, done = mapped(tmp_path, cwd=tmp_path)  # found as spec-coverage.toml in the working directory
    accounted = {s["id"]: s["reason"] for s in data["statements"] if s["reason"]}
    assert accounted == {target["id"]: "not observable by any case, nor by any adapter extension: "
                                       "a fixture cannot tell a coroutine from a function"}
    assert "spec-coverage.toml:6: accounting entry 'widget:2:00000000' matches no statement" in done.stderr
    accounting.write_text(f'["{target["id"]}"]\nreason = "because"\nwhy = "x"\n')
    bad = coverage(tmp_path / "repo", "--prose", tmp_path / "repo", "--accounting", accounting)
    assert bad.returncode == 2 and f"{accounting}:1:" in bad.stderr and "reason must be one of" in bad.stderr


def test_a_needs_proposal_entry_reopens_when_a_run_report_says_the_runtime_ships_the_proposal(tmp_path):
    # "needs a proposal the runtime does not ship" is true only of a runtime lacking it: a run of one
    # that ships it makes the entry a located problem, and its statement is no longer accounted.
    data, _ = mapped(tmp_path)
    target = next(s for s in data["statements"] if s["text"].startswith("Nodes MUST be asynchronous"))
    accounting = tmp_path / "spec-coverage.toml"
    accounting.write_text(f'["{target["id"]}"]\nreason = "needs-proposal"\nproposal = "0099"\ntext = "Nodes MUST be"\n'
                          'why = "asynchronous nodes come from proposal 0099"\n')

    def run_report(name: str, state: str) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps({"cases": [{"id": "widget/001-node", "outcome": "skipped"}],
                                    "host": {"proposals": {"0099": {"state": state, "evidence": f"status {state} in the manifest"}}}}))
        return path

    lacking = run_report("lacking.json", "not-shipped")
    data, done = mapped(tmp_path, "--results", lacking, "--accounting", accounting)
    assert by_id(data, target["id"])["status"] == "accounted" and "0099" not in done.stderr
    shipping = run_report("shipping.json", "shipped")
    data, done = mapped(tmp_path, "--results", lacking, "--results", shipping, "--accounting", accounting)
    assert by_id(data, target["id"])["status"] == "open" and by_id(data, target["id"])["reason"] is None
    assert (f"{accounting}:1: accounting entry '{target['id']}' needs proposal 0099, which the runtime ships "
            f"({shipping}: status shipped in the manifest)") in done.stderr
    # the kind needs its proposal: without one nothing could reopen it
    accounting.write_text(f'["{target["id"]}"]\nreason = "needs-proposal"\nwhy = "some proposal"\n')
    bad = coverage(tmp_path / "repo", "--prose", tmp_path / "repo", "--accounting", accounting)
    assert bad.returncode == 2 and "reason 'needs-proposal' needs proposal" in bad.stderr


def test_html_is_the_shared_coverage_page_written_whole(tmp_path):
    root = checkout(tmp_path / "repo")
    done = coverage(root, "--prose", root, "--html", tmp_path / "map.html", "--json", tmp_path / "map.json")
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "map.html").read_text()
    assert page.lstrip().lower().startswith("<!doctype html")
    data = json.loads((tmp_path / "map.json").read_text())
    assert data["statements"] and all(s["id"] in page for s in data["statements"])
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left behind
    unwritable = coverage(root, "--prose", root, "--html", "/proc/map.html")
    assert unwritable.returncode == 2 and "Traceback" not in unwritable.stderr
    # said at the start, before any work (no map on stdout, no problem lines), not after it
    assert unwritable.stdout == "" and unwritable.stderr.splitlines() == [
        "oa-conformance: --html /proc/map.html: No such file or directory"]


def test_lint_l005_fires_on_unresolved_sidecar_citations_and_not_on_resolved_ones(tmp_path):
    wrong = SIDECAR.replace("- §3 —", "- §9 —") + "\n"
    wrong = wrong.replace("**What passes:**", "- §2 Edge — static edges.\n\n**What passes:**")
    root = checkout(tmp_path / "repo", fixtures={"001-node.yaml": (FIXTURE, wrong), "002-cases.yaml": (CASES_FIXTURE, CASES_SIDECAR)})
    done = lint(root, "--select", "L005")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert any("001-node.md:5:1: L005" in line and "the prose has no section 9" in line for line in lines), lines
    assert any("001-node.md:7:1: L005" in line and "§2 edge: that part of the section holds no normative statement" in line
               for line in lines), lines
    assert not any("002-cases.md" in line for line in lines) and not any(":4:1:" in line for line in lines)
    as_json = json.loads(lint(root, "--select", "L005", "--format", "json").stdout)
    assert {record["severity"] for record in as_json} == {"warning"}  # an upstream corpus
    # --prose from elsewhere: the fixtures alone, the prose in another checkout
    bare = tmp_path / "bare"
    checkout(bare, prose=None, fixtures={"002-cases.yaml": (CASES_FIXTURE, CASES_SIDECAR)})
    quiet = lint(bare, "--select", "L005")
    assert quiet.returncode == 0 and quiet.stderr.count("L005 not checked") == 1  # no prose: said once
    clean = lint(bare, "--select", "L005", "--prose", root)
    assert clean.returncode == 0 and "not checked" not in clean.stderr


def test_lint_l005_is_an_error_on_the_bundled_spec(tmp_path):
    shared = shared_spec_root()
    if shared is None:
        pytest.skip("OA_SHARED_SPEC (a spec checkout with prose) is not set")
    done = lint(BUNDLED_SPEC, "--select", "L005", "--prose", shared, "--format", "json")
    found = json.loads(done.stdout)
    assert all(record["severity"] == "error" for record in found)
    assert found == [], [f"{r['path']}:{r['line']}: {r['message']}" for r in found]


def test_the_real_corpora_map_without_a_crash_and_every_citation_resolves_or_is_reported(tmp_path):
    shared, target = shared_spec_root(), target_spec_root()
    if shared is None or target is None:
        pytest.skip("OA_SHARED_SPEC and OA_TARGET_SPEC are not both set")
    for roots in ([shared], [target, BUNDLED_SPEC]):
        out = tmp_path / "map.json"
        done = coverage(*roots, "--prose", shared, "--json", out)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
        data = json.loads(out.read_text())
        musts = [s for s in data["statements"] if s["level"] == "must"]
        assert len(musts) > 700 and len({s["id"] for s in data["statements"]}) == len(data["statements"])
        citations = data["citations"]
        assert len(citations) > 1500
        unresolved = [c for c in citations if not c["resolved"]]
        assert len(unresolved) < 0.6 * len(citations)  # many cite descriptive prose (tables) or another spec version
        reported = {line.split(": citation resolves")[0] for line in done.stderr.splitlines() if "citation resolves to nothing" in line}
        assert all(f"{c['path']}:{c['line']}" in reported for c in unresolved)
        cited = {i for c in citations for i in c["resolved"]}
        assert cited == {s["id"] for s in data["statements"] if s["cited_by"]}
        for capability in ("graph-engine", "pipeline-utilities"):
            assert sum(1 for s in musts if s["capability"] == capability and s["cited_by"]) > 40


# The resolver's harder cases (docs/COVERAGE.md "Matching"): each citation below resolved to nothing
# or to the wrong statement before the rule the test names.
RESOLVER_PROSE = """# Widget Engine

## 1. Hooks

An implementation MUST support two registration modes: graph-attached and invocation-scoped.

The delivery queue MUST be strictly serial across the entire invocation.

Observers MUST receive events in step order.

Observers MUST NOT mutate the events they receive.

**Drain.** The engine MUST expose a `drain` operation. The summary MUST include the count of undelivered events.

**Per-invocation drain.** The engine MUST expose `drain_for`. Its summary MUST report the count of undelivered events.

**Count drift on resume.** A resumed run whose instance count differs MUST raise `record_invalid`. Implementations
MUST NOT pad or truncate the saved instances.
"""

RESOLVER_SIDECAR = """# 001 — hooks

**Spec sections exercised:**
- §1 Hooks — delivery is strictly serial across the entire invocation; registration modes (graph-attached,
  invocation-scoped); the `drain` operation.
- §1 Drain — the summary reports the count of undelivered events.
- §1 "Count drift on resume" paragraph.
- §1 Hooks — observers receive events in step order, non-
  negotiable;
  **never** reordered.
- §1 Hooks — observers never mutate the events they receive.

**What passes:** the final state.
"""


def test_resolver_clauses_exact_topics_quoted_topics_and_item_continuations(tmp_path):
    data, _ = mapped(tmp_path, fixtures={"001-node.yaml": (FIXTURE.replace("# §2 Node: the node", "# the node"), RESOLVER_SIDECAR)},
                     prose=RESOLVER_PROSE)
    text_of = {s["id"]: s["text"] for s in data["statements"]}
    resolved = {c["line"]: sorted(text_of[i] for i in c["resolved"]) for c in data["citations"] if c["path"].endswith(".md")}
    # a citation listing several checks ("…; …") reaches each: the best matches of the whole miss the last
    assert resolved[4] == ["An implementation MUST support two registration modes: graph-attached and invocation-scoped.",
                           "The delivery queue MUST be strictly serial across the entire invocation.",
                           "The engine MUST expose a `drain` operation."]
    # "§1 Drain" is the Drain topic, not also "Per-invocation drain" (whose wording matches better)
    assert resolved[6] == ["The summary MUST include the count of undelivered events."]
    # a topic named by quoting its label: its statements (the section as a whole is too many to cite)
    assert resolved[7] == ["A resumed run whose instance count differs MUST raise `record_invalid`.",
                           "Implementations MUST NOT pad or truncate the saved instances."]
    # an indented "**…**" line goes on the item above (the items after it are still read), and a word
    # hyphenated across the line break is whole again
    assert resolved[8] == ["Observers MUST receive events in step order."]
    assert "non-negotiable;" in next(c["text"] for c in data["citations"] if c["line"] == 8 and c["path"].endswith(".md"))
    assert resolved[11] == ["Observers MUST NOT mutate the events they receive."]


def test_an_accounting_entry_names_the_cases_that_cite_without_checking(tmp_path):
    """``cited_without_checking`` lists cases whose citation the resolver matched to an accounted
    statement although they do not test it; a listed case that no longer cites it is a located
    problem, and the list must be a list."""
    fixtures = {"001-node.yaml": (FIXTURE, SIDECAR), "002-cases.yaml": (CASES_FIXTURE, CASES_SIDECAR)}
    data, _ = mapped(tmp_path, fixtures=fixtures)
    append = next(s for s in data["statements"] if s["text"] == "The update MUST be a list.")
    accounting = tmp_path / "spec-coverage.toml"
    entry = f'["{append["id"]}"]\nreason = "binds-callers"\nwhy = "a fixture author duty"\n'
    accounting.write_text(entry + 'cited_without_checking = ["widget/002-cases", "widget/009-gone"]\n')
    data, done = mapped(tmp_path, "--accounting", accounting, fixtures=fixtures)
    append = next(s for s in data["statements"] if s["id"] == append["id"])
    assert append["status"] == "accounted" and append["reason"].startswith("binds callers, users or fixture authors")
    assert (f"spec-coverage.toml:1: accounting entry '{append['id']}': widget/009-gone does not cite it: "
            "drop it from cited_without_checking") in done.stderr
    assert "widget/002-cases does not cite it" not in done.stderr
    accounting.write_text(entry + 'cited_without_checking = "widget/002-cases"\n')
    bad = coverage(tmp_path / "repo", "--prose", tmp_path / "repo", "--accounting", accounting)
    assert bad.returncode == 2 and "cited_without_checking must be a list of case ids" in bad.stderr


# ---- statuses (docs/COVERAGE.md "Statuses"): each rule, and what breaks it -------------------------

QUOTING_SIDECAR = """# 002 — quoting cases

**Spec sections exercised:**
- §3 — "A drain with a timeout MUST return no later than the timeout." (case `first`)
- §2 Node — "Nodes MUST be asynchronous."
"""


def statement_id(data: dict, opening: str) -> str:
    return next(s["id"] for s in data["statements"] if s["text"].startswith(opening))


def by_id(data: dict, ident: str) -> dict:
    return next(s for s in data["statements"] if s["id"] == ident)


def faults_file(path: Path, statement: str, caught_by: list[str], line_padding: int = 0) -> Path:
    path.write_text("# faults\n" + "\n" * line_padding + '[[fault]]\nid = "widget-drain-ignores-timeout"\nfile = "graph/compiled.py"\n'
                    'old = "a"\nnew = "b"\nclause = "widget §3 drain: returns by the timeout"\n'
                    f'statement = "{statement}"\ncaught_by = {json.dumps(caught_by)}\n')
    return path


def test_a_fault_caught_by_a_case_that_passed_proves_its_statement_and_nothing_less_does(tmp_path):
    fixtures = {"002-cases.yaml": (CASES_FIXTURE, QUOTING_SIDECAR)}
    data, _ = mapped(tmp_path, fixtures=fixtures)
    nodes, drain = statement_id(data, "Nodes MUST be asynchronous"), statement_id(data, "A drain with a timeout")
    faults = faults_file(tmp_path / "faults.toml", nodes, ["widget/002-cases[second]"])
    for outcome, status in (("passed", "proven"), ("xpass", "proven"), ("failed", "cited"), ("skipped", "cited")):
        run = report(tmp_path / "run.json", {"widget/002-cases[first]": "failed", "widget/002-cases[second]": outcome})
        data, done = mapped(tmp_path, "--results", run, "--faults", faults, fixtures=fixtures)
        statement = by_id(data, nodes)
        assert statement["status"] == status, (outcome, statement)
        assert statement["proven_by"] == ([{"case": "widget/002-cases[second]", "fault": "widget-drain-ignores-timeout"}]
                                          if status == "proven" else [])
        assert statement["named_by"] == ["widget/002-cases[second]"]  # the fault's reviewed claim names it
        assert by_id(data, drain)["status"] == "cited"  # its quoting case failed: no check
    # a case that passed in one report and failed in another did not pass
    other = report(tmp_path / "other.json", {"widget/002-cases[first]": "passed", "widget/002-cases[second]": "failed"})
    run = report(tmp_path / "run.json", {"widget/002-cases[first]": "passed", "widget/002-cases[second]": "passed"})
    data, _ = mapped(tmp_path, "--results", run, "--results", other, "--faults", faults, fixtures=fixtures)
    assert by_id(data, nodes)["status"] == "cited"
    assert by_id(data, drain)["status"] == "checked"  # it passed in both reports, and its own citation quotes it


def test_a_case_names_a_statement_by_its_own_citation_never_by_its_fixtures(tmp_path):
    fixtures = {"002-cases.yaml": (CASES_FIXTURE, QUOTING_SIDECAR)}
    run = report(tmp_path / "run.json", {"widget/002-cases[first]": "passed", "widget/002-cases[second]": "passed"})
    data, done = mapped(tmp_path, "--results", run, fixtures=fixtures)
    drain = by_id(data, statement_id(data, "A drain with a timeout"))
    assert drain["status"] == "checked" and drain["named_by"] == ["widget/002-cases[first]"] and drain["proven_by"] == []
    # the fixture-wide citation quotes "Nodes MUST be asynchronous." whole: it resolves (cited), names no case
    nodes = by_id(data, statement_id(data, "Nodes MUST be asynchronous"))
    assert nodes["status"] == "cited" and nodes["named_by"] == [] and set(nodes["cited_by"]) == {
        "widget/002-cases[first]", "widget/002-cases[second]"}
    # by id, scoped to a case; an id of no statement names nothing
    by_ident = QUOTING_SIDECAR.replace('"Nodes MUST be asynchronous."', f'{nodes["id"]} widget:2:00000000 (case `second`)')
    data, _ = mapped(tmp_path / "b", "--results", run, fixtures={"002-cases.yaml": (CASES_FIXTURE, by_ident)})
    assert by_id(data, nodes["id"])["named_by"] == ["widget/002-cases[second]"] and by_id(data, nodes["id"])["status"] == "checked"
    # a paraphrase scoped to a case is a hint only
    paraphrase = QUOTING_SIDECAR.replace('"A drain with a timeout MUST return no later than the timeout."',
                                         "a drain with a timeout returns no later than the timeout")
    data, _ = mapped(tmp_path / "c", "--results", run, fixtures={"002-cases.yaml": (CASES_FIXTURE, paraphrase)})
    assert by_id(data, drain["id"])["status"] == "cited" and by_id(data, drain["id"])["cited_by"] == ["widget/002-cases[first]"]


def test_the_text_map_shows_the_six_statuses_and_the_adapters_conformance_apart(tmp_path):
    root = tmp_path / "repo"
    checkout(root, fixtures={"002-cases.yaml": (CASES_FIXTURE, QUOTING_SIDECAR)})
    adapter = root / "spec" / "conformance-adapter"
    (adapter / "conformance").mkdir(parents=True)
    (adapter / "spec.md").write_text("# Adapter\n\n## 9. Errors\n\nThe adapter MUST raise on an unknown directive.\n")
    run = report(tmp_path / "run.json", {"widget/002-cases[first]": "passed", "widget/002-cases[second]": "passed"})
    done = coverage(root, "--prose", root, "--results", run, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if line.startswith("widget "))
    assert header.split() == ["widget", "must", "should", "may", "proven", "violated", "checked", "accounted", "cited", "open"]
    runtime, own = done.stdout.split("The runtime's conformance")[1].split("The adapter's own conformance")
    assert "widget: 6 MUST: 0 proven, 0 violated, 1 checked, 0 accounted, " in runtime
    assert "conformance-adapter: 1 MUST: 0 proven, 0 violated, 0 checked, 0 accounted, 0 cited, 1 open" in own


def test_a_faults_statement_that_is_no_statement_is_a_located_problem(tmp_path):
    faults = faults_file(tmp_path / "faults.toml", "widget:2:0badf00d", ["widget/001-node"], line_padding=3)
    _, done = mapped(tmp_path, "--faults", faults)
    assert (f"{faults}:11: fault 'widget-drain-ignores-timeout': statement 'widget:2:0badf00d' is no statement of the prose"
            in done.stderr)
    faults.write_text('[[fault]]\nid = "x"\nfile = "f"\nold = "a"\nnew = "b"\nclause = "§1"\nstatement = 3\n')
    bad = coverage(tmp_path / "repo", "--prose", tmp_path / "repo", "--faults", faults)
    assert bad.returncode == 2 and f"{faults}:1: fault 'x': statement must be a statement id string" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_future_fixture_is_no_accounting_kind_and_binds_callers_is(tmp_path):
    data, _ = mapped(tmp_path)
    nodes, drain = statement_id(data, "Nodes MUST be asynchronous"), statement_id(data, "A drain with a timeout")
    accounting = tmp_path / "spec-coverage.toml"
    accounting.write_text(f'["{nodes}"]\nreason = "future-fixture"\nwhy = "no case yet"\n\n'
                          f'["{drain}"]\nreason = "binds-callers"\nwhy = "for the test"\n')
    data, done = mapped(tmp_path, "--accounting", accounting)
    assert by_id(data, nodes)["status"] == "open" and by_id(data, nodes)["reason"] is None
    assert (f"spec-coverage.toml:1: accounting entry '{nodes}': reason 'future-fixture' is no longer an accounting kind: "
            "a statement a case could test is open, not accounted: write the case") in done.stderr
    assert by_id(data, drain)["status"] == "accounted"


TABLE_PROSE = PROSE.replace("| `append` | The update MUST be a list. |",
                            "| `a | b` | The update MUST be a list. |\n| `c` | The value MUST be `x | y` or `z \\| w`, never \\| alone. |")


def test_a_table_cell_is_split_outside_code_spans_and_escaped_bars(tmp_path):
    data, _ = mapped(tmp_path, prose=TABLE_PROSE)
    texts = [s["text"] for s in data["statements"]]
    assert "The update MUST be a list." in texts  # its row's first cell holds a "|" in code
    assert "The value MUST be `x | y` or `z | w`, never | alone." in texts


EVIDENCE_PROSE = PROSE + "\n## 4. Errors\n\nThe adapter MUST raise on an unknown directive.\n"


def junit(path: Path, outcomes: dict[str, str]) -> Path:
    cases = []
    for node, outcome in outcomes.items():
        module, name = node.split("::", 1)
        classname = module.removesuffix(".py").replace("/", ".")
        body = {"passed": "", "failed": "<failure message='x'/>", "skipped": "<skipped message='x'/>"}[outcome]
        cases.append(f'<testcase classname="{classname}" name="{name}" time="0.1">{body}</testcase>')
    path.write_text(f'<?xml version="1.0"?><testsuites><testsuite name="pytest">{"".join(cases)}</testsuite></testsuites>')
    return path


def test_the_adapters_own_tests_prove_its_statements_through_a_junit_file(tmp_path):
    data, _ = mapped(tmp_path, prose=EVIDENCE_PROSE)
    raise_id = statement_id(data, "The adapter MUST raise on an unknown directive")
    evidence = tmp_path / "adapter-evidence.toml"
    evidence.write_text(f'["{raise_id}"]\ntext = "The adapter MUST raise"\ntests = ["tests/test_a.py::test_unknown", '
                        '"tests/test_b.py::test_each"]\nwhy = "each injects an unknown key"\n\n'
                        '["widget:4:00000000"]\ntests = ["tests/test_a.py::test_x"]\nwhy = "gone"\n')
    data, done = mapped(tmp_path, cwd=tmp_path)  # adapter-evidence.toml found in the working directory
    assert by_id(data, raise_id)["status"] == "checked" and by_id(data, raise_id)["proven_by"] == []
    assert "adapter-evidence.toml:6: evidence entry 'widget:4:00000000' matches no statement" in done.stderr
    passing = junit(tmp_path / "junit.xml", {"tests/test_a.py::test_unknown": "passed", "tests/test_b.py::test_each[p1]": "passed",
                                             "tests/test_b.py::test_each[p2]": "skipped"})  # a family member may skip
    data, _ = mapped(tmp_path, "--junit", passing, cwd=tmp_path)
    assert by_id(data, raise_id)["status"] == "proven"
    assert by_id(data, raise_id)["proven_by"] == [{"test": "tests/test_a.py::test_unknown"}, {"test": "tests/test_b.py::test_each"}]
    for outcomes, why in (({"tests/test_a.py::test_unknown": "passed", "tests/test_b.py::test_each[p1]": "failed"},
                           "tests/test_b.py::test_each did not pass"),
                          ({"tests/test_a.py::test_unknown": "skipped", "tests/test_b.py::test_each[p1]": "passed"},
                           "tests/test_a.py::test_unknown did not pass"),
                          ({"tests/test_a.py::test_unknown": "passed", "tests/test_b.py::test_each[p1]": "skipped"},
                           "tests/test_b.py::test_each did not pass"),  # a family none of whose members passed
                          ({"tests/test_a.py::test_unknown": "passed"}, "tests/test_b.py::test_each is not in the JUnit file")):
        data, done = mapped(tmp_path, "--junit", junit(tmp_path / "junit.xml", outcomes), cwd=tmp_path)
        assert by_id(data, raise_id)["status"] == "open", outcomes
        assert f"adapter-evidence.toml:1: evidence entry '{raise_id}': {why}: not proven" in done.stderr
    (tmp_path / "junit.xml").write_text("<html>")
    bad = coverage(tmp_path / "repo", "--prose", tmp_path / "repo", "--junit", tmp_path / "junit.xml", cwd=tmp_path)
    assert bad.returncode == 2 and "not XML" in bad.stderr and "Traceback" not in bad.stderr


def test_quiet_says_the_unresolved_citations_in_one_line(tmp_path):
    wrong = SIDECAR.replace("- §3 —", "- §9 —")
    _, loud = mapped(tmp_path, fixtures={"001-node.yaml": (FIXTURE, wrong)})
    assert "001-node.md:5: citation resolves to nothing: widget §9: the prose has no section 9" in loud.stderr
    _, quiet = mapped(tmp_path, "-q")
    assert "citation resolves to nothing" not in quiet.stderr
    assert "1 citation parts resolve to nothing (run without -q for each, located)" in quiet.stderr.splitlines()
    assert quiet.stdout == loud.stdout


def test_the_page_shows_each_statements_status_from_the_documents_legend(tmp_path):
    fixtures = {"002-cases.yaml": (CASES_FIXTURE, QUOTING_SIDECAR)}
    run = report(tmp_path / "run.json", {"widget/002-cases[first]": "passed", "widget/002-cases[second]": "passed"})
    root = checkout(tmp_path / "repo", fixtures=fixtures)
    done = coverage(root, "--prose", root, "--results", run, "--html", tmp_path / "map.html", "--json", tmp_path / "map.json")
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "map.html").read_text()
    data = json.loads((tmp_path / "map.json").read_text())
    for entry in data["statuses"]:
        assert f'<span class="c-{entry["name"]}">{entry["letter"]}</span> {entry["name"]}: {entry["meaning"]}' in html.unescape(page)
    drain = by_id(data, statement_id(data, "A drain with a timeout"))
    assert f'id="st-{drain["id"]}"><summary class="chip c-checked"' in page


def test_a_capability_filter_does_not_flag_an_entry_restating_another_capabilitys_statement(tmp_path):
    # a widget entry restating a gadget statement (and a gadget entry restating a widget one) is
    # sound: filtering by either capability must not call the other's statement missing
    root = tmp_path / "repo"
    checkout(root)
    (root / "spec" / "gadget" / "conformance").mkdir(parents=True)
    (root / "spec" / "gadget" / "spec.md").write_text("# Gadget\n\n## 1. Drain\n\nA gadget MUST drain its widgets.\n", encoding="utf-8")
    (root / "spec" / "gadget" / "conformance" / "001-node.yaml").write_text(FIXTURE.replace("# §2 Node", "# §1 Drain"), encoding="utf-8")
    data, _ = mapped(tmp_path)
    widget = statement_id(data, "Nodes MUST be asynchronous")
    gadget = statement_id(data, "A gadget MUST drain")
    accounting = tmp_path / "spec-coverage.toml"
    accounting.write_text(f'["{widget}"]\nreason = "restates"\nrestates = "{gadget}"\nwhy = "the same rule"\n\n'
                          f'["{gadget}"]\nreason = "restates"\nrestates = "{widget}"\nwhy = "the same rule"\n\n'
                          '["widget:2:5a5a5a5a"]\nreason = "documentation-only"\nwhy = "stale"\n')
    for capability, own, other in (("widget", widget, gadget), ("gadget", gadget, widget)):
        data, done = mapped(tmp_path, "--capability", capability, cwd=tmp_path)
        assert by_id(data, own)["status"] == "accounted"
        assert "which is no statement of the prose" not in done.stderr, done.stderr
    # an entry restating an id no capability has is still a problem, filtered or not
    accounting.write_text(f'["{widget}"]\nreason = "restates"\nrestates = "gadget:1:00000000"\nwhy = "x"\n')
    for extra in ((), ("--capability", "widget")):
        _, done = mapped(tmp_path, *extra, cwd=tmp_path)
        assert f"restates 'gadget:1:00000000', which is no statement of the prose" in done.stderr


ROW_PROSE = PROSE + """
## 4. Events

**Typed completion event.** A `CompletionEvent` is dispatched per call.

| Field | Type | Description |
|---|---|---|
| `call_id` | string | Always present; implementations MUST mint a fresh identifier per call. |
| `error_type` | string | Null on success. |

**Typed failure event.** A `FailedEvent` is dispatched per failed call.

| Field | Type | Description |
|---|---|---|
| `call_id` | string | Same rules as on the completion event. |
| `error_type` | string \\| null | OPTIONAL vendor-specific code. |

| Status | Category |
|---|---|
| HTTP 401 | `authentication` |
"""


def test_a_citation_naming_a_table_rows_field_resolves_to_the_statements_the_row_holds(tmp_path):
    sidecar = ('# 001\n\n**Spec sections exercised:**\n'
               '- §4 — `CompletionEvent.call_id` field.\n'             # the owner names the completion table's row
               '- §4 — `FailedEvent.error_type` field.\n'              # and here the failure table's
               '- §4 — `FailedEvent.call_id` field.\n'                 # a row holding no statement: nothing
               '- §4 — HTTP 401 -> authentication.\n'                  # a mapping row without a keyword: nothing
               '- §4 — every event carries `call_id` and a fresh identifier per call.\n')  # wording matches: as before
    data, done = mapped(tmp_path, prose=ROW_PROSE, fixtures={"001-node.yaml": (FIXTURE, sidecar)})
    resolved = {c["text"].split("— ")[1]: c["resolved"] for c in data["citations"] if c["path"].endswith(".md")}
    mint = statement_id(data, "Always present; implementations MUST mint")
    vendor = statement_id(data, "OPTIONAL vendor-specific code")
    assert resolved["`CompletionEvent.call_id` field."] == [mint]
    assert resolved["`FailedEvent.error_type` field."] == [vendor]
    assert resolved["`FailedEvent.call_id` field."] == []
    assert resolved["HTTP 401 -> authentication."] == []
    assert resolved["every event carries `call_id` and a fresh identifier per call."] == [mint]
    assert "001-node.md:6: citation resolves to nothing" in done.stderr and "001-node.md:7: citation resolves to nothing" in done.stderr
