"""The `oa-lint` command: paths, layout rules, bad input, selection, exit status, rule docs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml

from oa_conformance.frontends.cli.oa_lint import main
from oa_conformance.frontends.lint import BY_CODE, RULES, Selection, UsageError, lint_paths

from .conftest import BUNDLED_SPEC, REPO

BUNDLED = sorted((BUNDLED_SPEC / "graph-engine" / "conformance").glob("*.yaml"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def records(out: str) -> list[tuple[str, str, int, int]]:
    return [(Path(r["path"]).name, r["code"], r["line"], r["column"]) for r in json.loads(out)]


@pytest.fixture
def conformance(tmp_path) -> Path:
    """A spec repository in tmp_path with the bundled graph-engine fixtures (ours) and sidecars."""
    folder = tmp_path / "repo" / "spec" / "graph-engine" / "conformance"
    folder.mkdir(parents=True)
    for fixture in BUNDLED:
        shutil.copy(fixture, folder / fixture.name)
        shutil.copy(fixture.with_suffix(".md"), folder / fixture.with_suffix(".md").name)
    return folder


# --------------------------------------------------------------------------------------------
# Paths and layout


@pytest.mark.parametrize("level", ["repo", "spec", "conformance", "file"])
def test_every_kind_of_path_is_accepted(capsys, conformance, level):
    path = {"repo": conformance.parents[2], "spec": conformance.parents[1], "conformance": conformance,
            "file": conformance / BUNDLED[0].name}[level]
    # V005: bundled cases may use this adapter's extensions (information, tested in test_extensions.py)
    status, out, _ = run(capsys, str(path), "--format", "json", "--ignore", "P,V005")
    assert (status, json.loads(out)) == (0, [])


def test_l001_file_name(capsys, conformance):
    (conformance / BUNDLED[0].name).rename(conformance / "1-Linear_Reducers.yaml")
    status, out, _ = run(capsys, str(conformance), "--format", "json", "--select", "L")
    assert status == 1
    assert ("1-Linear_Reducers.yaml", "L001", 1, 1) in records(out)


def test_l002_duplicate_number(capsys, conformance):
    first = conformance / BUNDLED[0].name
    number = first.name.split("-")[0]
    shutil.copy(first, conformance / f"{number}-another-slug.yaml")
    shutil.copy(first.with_suffix(".md"), conformance / f"{number}-another-slug.md")
    _, out, _ = run(capsys, str(conformance), "--format", "json", "--select", "L")
    assert sorted(records(out)) == sorted([(first.name, "L002", 1, 1), (f"{number}-another-slug.yaml", "L002", 1, 1)])


def test_l002_checks_a_single_changed_file_against_its_directory(capsys, conformance):
    first = conformance / BUNDLED[0].name
    copy = conformance / (first.name.split("-")[0] + "-another-slug.yaml")
    shutil.copy(first, copy)
    _, out, _ = run(capsys, str(copy), "--format", "json", "--select", "L002")
    assert records(out) == [(copy.name, "L002", 1, 1)]
    assert first.name in json.loads(out)[0]["message"]


def test_l003_missing_sidecar(capsys, conformance):
    (conformance / BUNDLED[0].with_suffix(".md").name).unlink()
    _, out, _ = run(capsys, str(conformance), "--format", "json", "--select", "L")
    assert records(out) == [(BUNDLED[0].name, "L003", 1, 1)]
    assert BY_CODE["L003"].severity == "warning"


def test_layout_rules_only_apply_inside_a_conformance_folder(capsys, tmp_path):
    loose = tmp_path / "Loose_Name.yaml"
    shutil.copy(BUNDLED[0], loose)
    status, out, _ = run(capsys, str(loose), "--format", "json", "--ignore", "P")
    assert (status, json.loads(out)) == (0, [])


# --------------------------------------------------------------------------------------------
# Bad input


def test_every_malformed_file_is_reported_and_the_others_still_checked(capsys, conformance):
    broken = {
        "101-invalid-yaml.yaml": "nodes: {a: [\n",
        "102-empty.yaml": "# nothing\n",
        "103-list.yaml": "- a\n",
        "104-duplicate.yaml": "entry: a\nentry: b\n",
    }
    for name, text in broken.items():
        (conformance / name).write_text(text, encoding="utf-8")
        (conformance / name.replace(".yaml", ".md")).write_text("prose\n", encoding="utf-8")
    (conformance / "105-latin1.yaml").write_bytes(b"description: caf\xe9\n")
    (conformance / "105-latin1.md").write_text("prose\n", encoding="utf-8")
    # a good fixture made bad in one place, after the broken ones in file order
    good = (conformance / BUNDLED[0].name).read_text(encoding="utf-8")
    (conformance / "106-bad-reducer.yaml").write_text(good.replace("reducer: append", "reducer: apend", 1), encoding="utf-8")
    (conformance / "106-bad-reducer.md").write_text("prose\n", encoding="utf-8")
    status, out, _ = run(capsys, str(conformance), "--format", "json", "--ignore", "P")
    found = {(name, code) for name, code, _, _ in records(out)}
    assert status == 1
    assert {("101-invalid-yaml.yaml", "Y001"), ("102-empty.yaml", "Y003"), ("103-list.yaml", "Y004"),
            ("104-duplicate.yaml", "Y005"), ("105-latin1.yaml", "Y002"), ("106-bad-reducer.yaml", "S003")} <= found
    assert all(line >= 1 and column >= 1 for _, _, line, column in records(out))


def test_a_folder_without_fixtures_is_a_usage_error(capsys, tmp_path):
    empty = tmp_path / "spec" / "x" / "conformance"
    empty.mkdir(parents=True)
    status, out, err = run(capsys, str(empty))
    assert (status, out) == (2, "")
    assert "no fixtures" in err and str(empty) in err


@pytest.mark.parametrize("argv", [["/no/such/path"], [], ["--select", "Q9"]])
def test_usage_errors_exit_2(capsys, argv):
    if argv[:1] == ["--select"]:
        argv = [str(BUNDLED[0])] + argv
    status, _, err = run(capsys, *argv)
    assert status == 2 and "oa-lint" in err


def test_a_directory_that_is_no_spec_is_a_usage_error(capsys, tmp_path):
    (tmp_path / "notes").mkdir()
    status, _, err = run(capsys, str(tmp_path / "notes"))
    assert status == 2 and "not a spec repository" in err


def test_an_internal_error_is_reported_per_file_and_exits_2(capsys, conformance, monkeypatch):
    from oa_conformance.frontends.lint import engine

    rule = BY_CODE["G003"]

    def broken(ctx):
        raise KeyError("boom")

    monkeypatch.setitem(engine._BY_KIND, "scenario", tuple(r._replace(check=broken) if r is rule else r for r in engine._BY_KIND["scenario"]))
    status, out, err = run(capsys, str(conformance), "--format", "json", "--select", "X,G")
    assert status == 2 and "bug in oa-lint" in err
    internal = [r for r in json.loads(out) if r["code"] == "X001"]
    assert len(internal) == len(BUNDLED) and all("G003" in r["message"] for r in internal)


# --------------------------------------------------------------------------------------------
# Selection and exit status


def test_select_and_ignore_by_prefix_longest_wins():
    assert Selection.parse(["G"]).allows("G003") and not Selection.parse(["G"]).allows("S001")
    assert not Selection.parse([], ["G"]).allows("G003")
    assert Selection.parse(["G003"], ["G"]).allows("G003") and not Selection.parse(["G003"], ["G"]).allows("G001")
    assert not Selection.parse(["G"], ["G003"]).allows("G003")
    assert Selection.parse(["g001,S"]).allows("G001") and Selection.parse(["g001,S"]).allows("S004")
    with pytest.raises(UsageError):
        Selection.parse(["Z"])


def test_exit_status_1_on_findings_and_exit_zero(capsys, conformance):
    (conformance / BUNDLED[0].with_suffix(".md").name).unlink()  # one L003 warning
    assert run(capsys, str(conformance))[0] == 1
    assert run(capsys, str(conformance), "--exit-zero")[0] == 0
    assert run(capsys, str(conformance), "--ignore", "L003")[0] == 0
    status, out, err = run(capsys, str(conformance), "--select", "L")
    assert status == 1 and out.count(": L003 ") == 1 and "1 warning" in err


def test_the_bundled_spec_is_clean(capsys):
    status, out, _ = run(capsys, str(BUNDLED_SPEC), "--ignore", "P001", "--format", "json")
    # Only information: where a bundled case uses an extension of this adapter (V005).
    assert status == 0 and all((d["code"], d["severity"]) == ("V005", "info") for d in json.loads(out))


# --------------------------------------------------------------------------------------------
# Rule documentation


def test_list_rules_lists_every_rule(capsys):
    status, out, _ = run(capsys, "--list-rules")
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == [rule.code for rule in RULES]


def test_explain_prints_the_documentation(capsys):
    status, out, _ = run(capsys, "--explain", "g003")
    assert status == 0 and out.startswith("G003 node-unreachable (error")
    assert "## Why is this bad?" in out and "unreachable_node" in out
    assert run(capsys, "--explain", "Q999")[0] == 2


@pytest.mark.parametrize("rule", RULES, ids=[rule.code for rule in RULES])
def test_every_rule_is_documented(rule):
    assert rule.code[0] in "LYVGSEPX" and len(rule.code) == 4 and rule.code[1:].isdigit()
    assert rule.name == rule.name.lower() and " " not in rule.name
    for heading in ("## What it does", "## Why is this bad?", "## Example"):
        assert heading in rule.doc, (rule.code, heading)
    if rule.kind not in ("internal",):
        assert "Bad" in rule.doc and "Good" in rule.doc, rule.code


def test_docs_lint_md_names_every_rule_and_format():
    text = (REPO / "docs" / "LINT.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"`{rule.code}`" in text and rule.name in text, rule.code
    for name in ("--format text", "--format json", "--format github", "--format sarif"):
        assert name in text


# --------------------------------------------------------------------------------------------
# The console script and the pre-commit hook


def test_console_script_runs(tmp_path):
    script = Path(sys.executable).with_name("oa-lint")
    if not script.exists():
        pytest.skip("oa-lint is not installed in this environment")
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    done = subprocess.run([str(script), str(BUNDLED[0]), "--ignore", "P"], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    env["GITHUB_ACTIONS"] = "true"
    done = subprocess.run([str(script), str(BUNDLED_SPEC), "--select", "P", "--exit-zero"], capture_output=True, text=True, env=env, check=False)
    assert all(line.startswith(("::error ", "::warning ")) for line in done.stdout.splitlines())


def test_the_command_freezes_the_heap_before_the_process_ends_and_main_does_not():
    """``run`` (the console script, ``python -m``) returns main's status with the heap frozen, so
    the interpreter's shutdown does not walk it; ``main`` (in-process callers) leaves it alone."""
    probe = (
        "import gc, sys\n"
        "from oa_conformance.frontends.cli.oa_lint import main, run\n"
        "frozen = gc.get_freeze_count()  # the interpreter may start with some\n"
        f"status = main([{str(BUNDLED[0])!r}, '--exit-zero'])\n"
        "print('main', status, gc.get_freeze_count() > frozen)\n"
        f"sys.argv = ['oa-lint', {str(BUNDLED[0])!r}, '--exit-zero']\n"
        "status = run()\n"
        "print('run', status, gc.get_freeze_count() > frozen)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-2:] == ["main 0 False", "run 0 True"], done.stdout + done.stderr


def test_pre_commit_hook_runs_oa_lint_on_fixtures():
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "oa-lint")
    assert hook["entry"] == "oa-lint" and hook["language"] == "python"
    import re

    files = re.compile(hook["files"])
    assert files.search("spec/graph-engine/conformance/001-linear-static-flow.yaml")
    assert not files.search("spec/graph-engine/conformance/001-linear-static-flow.md")
    assert not files.search("spec/graph-engine/spec.md")
    selection = Selection.parse(*_selection_args(hook.get("args", [])))
    assert selection.allows("G003") and selection.allows("L002")


def _selection_args(args: list[str]) -> tuple[list[str], list[str]]:
    select, ignore = [], []
    pending = None
    for arg in args:
        if pending is not None:
            pending.append(arg)
            pending = None
        elif arg in ("--select", "--ignore"):
            pending = select if arg == "--select" else ignore
        elif arg.startswith(("--select=", "--ignore=")):
            (select if arg.startswith("--select") else ignore).append(arg.split("=", 1)[1])
    return select, ignore


def test_lint_paths_deduplicates_overlapping_paths():
    once = lint_paths([str(BUNDLED_SPEC)])
    twice = lint_paths([str(BUNDLED_SPEC), str(BUNDLED[0])])
    assert once == twice


# Lints the shared corpus in 2 processes as the command does (forking needs a process with one
# thread: this one has more); with LOSE_CHILD, each child dies before sending its findings.
SIDE_BY_SIDE = """
import os, sys
from oa_conformance.frontends.lint import engine
if os.environ.get("LOSE_CHILD"):
    parent, lint_refs = os.getpid(), engine._lint_refs
    def lost(share, *rest):
        if os.getpid() != parent:
            os.kill(os.getpid(), 9)
        return lint_refs(share, *rest)
    engine._lint_refs = lost
forks, fork = [], engine._fork
engine._fork = lambda *args: forks.append(1) or fork(*args)
from oa_conformance.frontends.cli.oa_lint import main
status = main(sys.argv[1:], processes=2)
print(f"forked {len(forks)}", file=sys.stderr)
sys.exit(status)
"""


def test_side_by_side_lint_gives_the_findings_of_one_process(shared_spec):
    """The corpus linted in forked children (the command's default: one process per core) gives
    the very output of one process; a child that dies has its share linted by the parent."""
    argv = [str(shared_spec), "--format", "json", "--exit-zero"]
    one = subprocess.run([sys.executable, "-c", SIDE_BY_SIDE, *argv, "--processes", "1"], capture_output=True, text=True, check=True)
    two = subprocess.run([sys.executable, "-c", SIDE_BY_SIDE, *argv], capture_output=True, text=True, check=True)
    lost = subprocess.run([sys.executable, "-c", SIDE_BY_SIDE, *argv], capture_output=True, text=True, check=True,
                          env={**os.environ, "LOSE_CHILD": "1"})
    assert len(json.loads(one.stdout)) > 100
    assert two.stdout == one.stdout and lost.stdout == one.stdout
    assert one.stderr.endswith("forked 0\n") and two.stderr.endswith("forked 1\n") and lost.stderr.endswith("forked 1\n")
    assert two.stderr.splitlines()[:-1] == one.stderr.splitlines()[:-1] == lost.stderr.splitlines()[:-1]


def test_shares_are_consecutive_of_about_equal_cost_and_at_least_min_share(tmp_path):
    """Shares balance a fixed cost per file plus its size, not the number of files: a corpus whose
    first half is large files gives the first share fewer of them; no share is below MIN_SHARE."""
    from oa_conformance.frontends.lint import engine
    from oa_conformance.model.discovery import FixtureRef

    def refs(sizes):
        made = []
        for number, size in enumerate(sizes):
            path = tmp_path / f"{len(sizes)}-{number:03d}.yaml"
            path.write_bytes(b"#" * size)
            made.append(FixtureRef(str(path), "graph-engine", path.name))
        return made

    def cost(share):
        return sum(engine._FILE_COST_BYTES + os.path.getsize(ref.path) for ref in share)

    uneven = refs([4 * engine._FILE_COST_BYTES] * 100 + [0] * 100)
    first, second = engine._shares(uneven, 2)
    assert first + second == uneven and len(first) < 100
    assert abs(cost(first) - cost(second)) <= 5 * engine._FILE_COST_BYTES
    tight = refs([50 * engine._FILE_COST_BYTES] * 10 + [0] * (2 * engine.MIN_SHARE - 10))
    shares = engine._shares(tight, 2)
    assert sum(shares, []) == tight and [len(share) for share in shares] == [engine.MIN_SHARE] * 2


def test_only_a_corpus_large_enough_is_linted_side_by_side(monkeypatch, shared_spec):
    """Below two shares of MIN_SHARE fixtures, or in a process with threads, nothing is forked."""
    from oa_conformance.frontends.lint import engine

    forked: list[int] = []
    monkeypatch.setattr(engine, "_lint_side_by_side", lambda refs, selection, count, *rest: forked.append(count) or [])
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    conformance = shared_spec / "spec" / "graph-engine" / "conformance"
    assert len(engine.fixture_refs([str(conformance)])) < 2 * engine.MIN_SHARE <= len(engine.fixture_refs([str(shared_spec)])) // 4
    engine.lint_paths([str(shared_spec)], processes=4)
    engine.lint_paths([str(conformance)], processes=4)
    assert forked == [4]
    monkeypatch.setattr(threading, "active_count", lambda: 3)
    engine.lint_paths([str(shared_spec)], processes=4)
    assert forked == [4]
