"""Every input, round three (issue 34): the new commands — `report`, `coverage`, `expectations update`,
`run --junitxml`, `diff` — and the pytest plugin as a new user meets them, each through the installed
command run as its own process where the process's own behaviour (exit, stderr, stdout) is the point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oa_conformance.frontends.cli.oa_conformance import main as cli

from .test_every_input import no_traceback
from .test_every_input_round2 import COMMANDS, command
from .test_pytest_plugin import five_cases

pytest_plugins = ["pytester"]

FIVE = "graph-engine/001-five"  # c1, c3 pass; c2, c4, c5 fail expected.final_state


def run_report(path: Path, cases: list[dict], version: str = "0.17.0", **extra) -> Path:
    """A hand-made ``run --json`` report: these cases, run on openarmature ``version``."""
    document = {"host": {"name": "openarmature", "version": version}, "created": "2026-12-07", "cases": cases, **extra}
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def case(case_id: str, outcome: str, failing: list[str] = (), expectation: dict | None = None) -> dict:
    capability, rest = case_id.split("/", 1)
    return {"id": case_id, "capability": capability, "fixture": f"{capability}/conformance/{rest.split('[')[0]}.yaml",
            "case": rest.split("[")[1].rstrip("]") if "[" in rest else None, "outcome": outcome,
            "failing_checks": [{"name": name, "status": "failed", "restates": None} for name in failing],
            "findings": [], "expectation": expectation}


# --- 1. one run over two spec roots that share case ids -------------------------------------------

def test_a_run_over_two_roots_sharing_case_ids_is_refused_naming_both(tmp_path, capsys):
    first, second = five_cases(tmp_path / "a"), five_cases(tmp_path / "b")
    report = tmp_path / "run.json"
    assert cli(["run", str(first), str(second), "--json", str(report), "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert str(first) in err[0] and str(second) in err[0] and f"{FIVE}" in err[0], err
    assert "run each root on its own" in err[0]
    assert not report.exists()
    assert cli(["run", str(first), "-q"]) == 1 and cli(["run", str(second), "-q"]) == 1  # each root on its own runs


def test_a_root_given_twice_is_one_root_not_a_collision(tmp_path, capsys):
    spec = five_cases(tmp_path)
    assert cli(["run", str(spec), str(spec / "graph-engine" / "conformance"), "-q"]) == 1
    assert "share" not in capsys.readouterr().err


@pytest.mark.parametrize("args", [["diff", "{r}", "{r}"], ["report", "{r}", "-o", "{out}"],
                                  ["expectations", "update", "--from", "{r}", "{out}"]])
def test_every_reader_refuses_a_report_with_duplicate_ids_located(tmp_path, capsys, args):
    report = run_report(tmp_path / "r.json", [case(f"{FIVE}[c1]", "passed"), case(f"{FIVE}[c2]", "passed"),
                                               case(f"{FIVE}[c1]", "failed", ["expected.final_state"])])
    out = tmp_path / "out"
    assert cli([a.format(r=report, out=out) for a in args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{report}: cases[2]: duplicate id '{FIVE}[c1]' (first at cases[0])" in err[0], err
    assert not out.exists()


# --- 2. expectations update from two builds' runs --------------------------------------------------

def test_a_difference_between_builds_is_scoped_to_the_build_that_fails(tmp_path, capsys):
    old = run_report(tmp_path / "old.json", [case(f"{FIVE}[c1]", "failed", ["expected.final_state"]),
                                             case(f"{FIVE}[c2]", "passed"), case(f"{FIVE}[c3]", "failed")], "0.16.0")
    new = run_report(tmp_path / "new.json", [case(f"{FIVE}[c1]", "passed"), case(f"{FIVE}[c2]", "failed"),
                                             case(f"{FIVE}[c3]", "failed")], "0.17.0")
    path = tmp_path / "exp.toml"
    assert cli(["expectations", "update", "--from", str(old), "--from", str(new), str(path), "--write"]) == 0
    import tomllib

    written = tomllib.loads(path.read_text())
    assert written[f"{FIVE}[c1]"]["outcome"] == "fail" and written[f"{FIVE}[c1]"]["runtime"] == "==0.16.0"
    assert written[f"{FIVE}[c1]"]["checks"] == ["expected.final_state"]
    assert written[f"{FIVE}[c2]"]["outcome"] == "fail" and written[f"{FIVE}[c2]"]["runtime"] == "==0.17.0"
    assert written[f"{FIVE}[c3]"]["outcome"] == "fail" and "runtime" not in written[f"{FIVE}[c3]"]


def test_an_entry_for_every_build_that_one_build_now_passes_is_narrowed_to_the_others(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    path.write_text(f'["{FIVE}[c1]"]\noutcome = "fail"\nkind = "runtime"\nreason = "r"\n', encoding="utf-8")
    old = run_report(tmp_path / "old.json", [case(f"{FIVE}[c1]", "xfail")], "0.16.0")
    new = run_report(tmp_path / "new.json", [case(f"{FIVE}[c1]", "xpass")], "0.17.0")
    assert cli(["expectations", "update", "--from", str(old), "--from", str(new), str(path), "--write"]) == 0
    text = path.read_text()
    assert 'outcome = "fail"' in text and 'runtime = "!=0.17.0"' in text, text
    from oa_conformance.verdicts.expectations import load_all

    assert len(load_all([str(path)], "0.17.0")) == 0 and len(load_all([str(path)], "0.16.0")) == 1


def test_the_same_build_differing_across_runs_is_intermittent(tmp_path, capsys):
    one = run_report(tmp_path / "one.json", [case(f"{FIVE}[c1]", "failed")], "0.17.0")
    two = run_report(tmp_path / "two.json", [case(f"{FIVE}[c1]", "passed")], "0.17.0")
    path = tmp_path / "exp.toml"
    assert cli(["expectations", "update", "--from", str(one), "--from", str(two), str(path), "--write"]) == 0
    assert 'outcome = ["fail", "pass"]' in path.read_text() and "runtime" not in path.read_text()


# --- 3. report writing over its own input ----------------------------------------------------------

def test_report_refuses_to_write_over_one_of_its_runs(tmp_path, capsys):
    run = run_report(tmp_path / "run.json", [case(f"{FIVE}[c1]", "passed")])
    before = run.read_text()
    for argument, output in ((str(run), str(run)), (str(run), os.path.relpath(run)), (f"{run}=mine", str(run))):
        assert cli(["report", argument, "-o", output]) == 2  # RUN.json=LABEL names RUN.json too
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "is one of the reports read" in err[0], err
    assert run.read_text() == before


# --- 4, 13. expectations update and the run's other expectations files; entries matching no case --

def test_update_copies_nothing_another_file_of_the_run_excused(tmp_path, capsys):
    spec = five_cases(tmp_path)
    shipped, mine, report = tmp_path / "shipped.toml", tmp_path / "mine.toml", tmp_path / "run.json"
    shipped.write_text(f'["{FIVE}[c2]"]\noutcome = "fail"\nkind = "runtime"\nreason = "known"\n', encoding="utf-8")
    mine.write_text("# my deviations\n", encoding="utf-8")
    both = ["--expectations", str(shipped), "--expectations", str(mine)]
    assert cli(["run", str(spec), *both, "--json", str(report), "-q"]) == 1
    assert cli(["expectations", "update", "--from", str(report), str(mine), "--write"]) == 0
    written = mine.read_text()
    assert f"[c4]" in written and "[c5]" in written and "[c2]" not in written, written
    capsys.readouterr()
    assert cli(["run", str(spec), *both, "-q"]) == 0, capsys.readouterr().out  # no XPASS: nothing excused twice


def test_update_drops_entries_that_match_no_case_saying_which(tmp_path, capsys):
    spec = five_cases(tmp_path)
    mine, report = tmp_path / "mine.toml", tmp_path / "run.json"
    mine.write_text(f'["{FIVE}[c2]"]\noutcome = "fail"\nkind = "runtime"\nreason = "known"\n\n'
                    f'["{FIVE}[renamed]"]\noutcome = "fail"\nkind = "runtime"\nreason = "gone"\n', encoding="utf-8")
    assert cli(["run", str(spec), "--expectations", str(mine), "--json", str(report), "-q"]) == 1
    capsys.readouterr()
    assert cli(["expectations", "update", "--from", str(report), str(mine), "--write"]) == 0
    err = capsys.readouterr().err
    assert f"{mine}:6: removed {FIVE}[renamed]: it matched no case of {report}" in err, err
    written = mine.read_text()
    assert "renamed" not in written and "[c2]" in written, written
    assert json.loads(report.read_text())["unmatched_expectations"]  # what the update read


# --- 5. a full standard output ------------------------------------------------------------------

def full_stdout(program: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    with open("/dev/full", "w") as full:
        return subprocess.run([sys.executable, "-m", COMMANDS[program], *args],
                              stdout=full, stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=300)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("program, args", [
    ("oa-conformance", ["report", "{run}", "-o", "-"]), ("oa-conformance", ["diff", "{run}", "{run}"]),
    ("oa-conformance", ["check", "{spec}"]), ("oa-conformance", ["expectations", "update", "--from", "{run}", "{tmp}/e.toml"]),
    ("oa-conformance", ["coverage", "{spec}", "--prose", "{tmp}"]), ("oa-conformance", ["run", "{spec}", "--json", "-"]),
    ("oa-lint", ["{spec}"]), ("oa-ast", ["{spec}/graph-engine/conformance/001-five.yaml"]),
])
def test_a_full_standard_output_is_one_line_and_a_failing_status(tmp_path, program, args):
    spec = five_cases(tmp_path)
    (spec / "graph-engine" / "spec.md").write_text("# Graph engine\n\n## 1. Running\n\nA graph MUST run.\n", encoding="utf-8")
    run = run_report(tmp_path / "run.json", [case(f"{FIVE}[c1]", "failed"), case(f"{FIVE}[c2]", "passed")])
    done = full_stdout(program, *[a.format(run=run, spec=spec, tmp=tmp_path) for a in args])
    no_traceback(done.stderr)
    assert done.returncode == 2, done.stderr  # not 1 (findings, a worse verdict): the output itself failed
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"{program}: cannot write standard output: No space left on device", done.stderr
    assert done.stderr.count("standard output") == 1, done.stderr


# --- 6, 18. run's report paths: - is standard output; one path for two reports refused ------------

def test_junitxml_dash_is_standard_output(tmp_path):
    spec = five_cases(tmp_path / "corpus")
    done = command("oa-conformance", "run", str(spec), "--junitxml", "-", "-q", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert not (tmp_path / "-").exists()
    from xml.etree import ElementTree

    suite = ElementTree.fromstring(done.stdout).find("testsuite")
    assert suite.get("tests") == "5" and "capability" in done.stderr  # the table went to stderr


@pytest.mark.parametrize("json_path, junit_path", [("r", "r"), ("r", "./r"), ("-", "-")])
def test_json_and_junitxml_on_one_path_are_refused(tmp_path, capsys, json_path, junit_path):
    spec = five_cases(tmp_path / "corpus")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert cli(["run", str(spec), "--json", json_path, "--junitxml", junit_path, "-q"]) == 2
    finally:
        os.chdir(here)
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"oa-conformance: --junitxml {junit_path}: the path --json writes: give each report a path of its own"], err
    assert not (tmp_path / "r").exists()


# --- 7. JUnit classname relative to the spec root, the same in both front ends ------------------

def test_junit_classname_is_relative_to_the_spec_root_in_both_front_ends(pytester, tmp_path):
    from xml.etree import ElementTree

    five_cases(pytester.path)  # spec/ in the folder both front ends run in
    elsewhere = five_cases(tmp_path / "elsewhere")  # and one outside it
    for spec in ("spec", str(elsewhere)):
        ours, theirs = pytester.path / "ours.xml", pytester.path / "theirs.xml"
        done = command("oa-conformance", "run", spec, "--junitxml", str(ours), "-q", cwd=pytester.path)
        assert done.returncode == 1, done.stderr
        pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", f"--junitxml={theirs}")
        ids = [{(c.get("classname"), c.get("name")) for c in ElementTree.parse(path).getroot().iter("testcase")}
               for path in (ours, theirs)]
        expected = {("graph-engine.conformance.001-five.yaml", f"001-five[{n}]") for n in ("c1", "c2", "c3", "c4", "c5")}
        assert ids[0] == ids[1] == expected, (spec, ids)


# --- 8. a FAILED line's node id pasted back ------------------------------------------------------

@pytest.mark.parametrize("where", ["inside", "outside"])
def test_a_failed_node_id_pasted_back_selects_that_test(pytester, tmp_path, where):
    spec = five_cases(pytester.path if where == "inside" else tmp_path / "corpus")
    root = "spec" if where == "inside" else str(spec)
    first = pytester.runpytest(f"--oa-spec-root={root}", "-p", "no:cacheprovider", "-rf")
    failed = [line.split()[1] for line in first.stdout.lines if line.startswith("FAILED ")]
    assert len(failed) == 3, first.stdout.str()
    again = pytester.runpytest(f"--oa-spec-root={root}", "-p", "no:cacheprovider", "-rf", failed[0])
    again.assert_outcomes(failed=1)
    assert [line.split()[1] for line in again.stdout.lines if line.startswith("FAILED ")] == failed[:1]


# --- 11. coverage's --capability suggests, as run, check and oa-lint do --------------------------

def test_coverage_suggests_the_capability_meant_as_run_does(tmp_path, capsys):
    spec = five_cases(tmp_path)
    (spec / "graph-engine" / "spec.md").write_text("# Graph engine\n\n## 1. Running\n\nA graph MUST run.\n", encoding="utf-8")
    said = []
    for args in (["coverage", str(spec), "--prose", str(tmp_path)], ["run", str(spec)], ["check", str(spec)]):
        assert cli([*args, "--capability", "graph_engine"]) == 2
        said.append(capsys.readouterr().err.strip())
    assert said == ["oa-conformance: --capability graph_engine: no such capability (did you mean 'graph-engine'?)"] * 3, said


# --- 14. --version and the exit-status epilog on every subcommand -------------------------------

SUBCOMMANDS = (["run"], ["check"], ["diff"], ["report"], ["coverage"], ["expectations"], ["expectations", "update"])


@pytest.mark.parametrize("words", SUBCOMMANDS, ids=" ".join)
def test_every_subcommand_takes_version_and_says_its_exit_status(capsys, words):
    from oa_conformance.frontends.cli.oa_conformance import build_parser, version_text

    for flag in ("--version", "--help"):
        with pytest.raises(SystemExit) as exit:
            build_parser().parse_args([*words, flag])
        assert exit.value.code == 0
        out = capsys.readouterr().out
        if flag == "--version":
            assert out.strip() == version_text("oa-conformance")
        else:
            assert "Exit status: 0 " in " ".join(out.split()), out


# --- 15. --strict-expectations says the entry's location once -----------------------------------

@pytest.mark.parametrize("checks", ["", 'checks = ["expected.final_state"]\n'])
def test_strict_expectations_says_the_location_once(tmp_path, capsys, checks):
    spec = five_cases(tmp_path)
    path = tmp_path / "u.toml"
    path.write_text(f'["{FIVE}[c2]"]\noutcome = "fail"\nkind = "untriaged"\n{checks}reason = "r"\n', encoding="utf-8")
    assert cli(["run", str(spec), "--expectations", str(path), "--strict-expectations", "-q", "--processes", "1"]) == 1
    out = capsys.readouterr().out
    block = out.split(f"FAILED  {FIVE}[c2]\n", 1)[1].split("\nFAILED")[0]
    assert block.count(f"{path}:1") == 1 and "untriaged, and under --strict-expectations" in block, block


# --- 16. pytest --tb=line: one line per failure -------------------------------------------------

@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["in-process", "xdist"])
def test_tb_line_is_one_line_per_failure(pytester, xdist):
    spec = five_cases(pytester.path)
    result = pytester.runpytest(f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "--tb=line", *xdist)
    result.assert_outcomes(passed=2, failed=3)
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "FAILURES" in line)
    # (pytest-xdist heads each failure with the worker's line, as it does for every test)
    section = [line for line in lines[start + 1:] if line and not line.startswith("[gw")][:4]
    assert [line.split(": ", 1)[0] for line in section[:3]] == [f"{spec}/graph-engine/conformance/001-five.yaml:{n}" for n in (25, 49, 61)], lines[start:]
    assert all("expected.final_state: failed: final_state.flag: expected 'stop', got 'go'" in line for line in section[:3])
    assert section[3].startswith("=")  # the next section: nothing more per failure


# --- 17. coverage: an unwritable output said at the start; a report of another corpus said ---------

def prose(spec: Path) -> None:
    (spec / "graph-engine" / "spec.md").write_text("# Graph engine\n\n## 1. Running\n\nA graph MUST run.\n", encoding="utf-8")


@pytest.mark.parametrize("target", ["/proc/oa-no-such.json", "/sys/oa-no-such.json", "{tmp}/device"])
def test_an_output_no_file_can_be_made_at_is_refused_before_any_work(tmp_path, capsys, monkeypatch, target):
    """``os.access`` says a root-owned /proc or /sys is writable; only making the file tells. A path
    that exists and is no regular file (a device, a FIFO) would be replaced by the rename."""
    spec = five_cases(tmp_path)
    prose(spec)
    target = target.format(tmp=tmp_path)
    if target.endswith("device"):
        os.mkfifo(target)
    import oa_conformance.frontends.coverage.coverage_map as coverage_map

    monkeypatch.setattr(coverage_map, "build_map", lambda *a, **k: pytest.fail("built the map before refusing the output"))
    for option in ("--json", "--html"):
        assert cli(["coverage", str(spec), "--prose", str(tmp_path), option, target]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"oa-conformance: {option} {target}: "), err
    if target.endswith("device"):
        assert cli(["run", str(spec), "--json", target]) == 2 and "not a regular file" in capsys.readouterr().err
        assert os.path.exists(target) and not os.path.isfile(target)  # still the FIFO


def test_coverage_says_when_a_results_report_ran_another_corpus(tmp_path, capsys):
    old, new = five_cases(tmp_path / "old"), five_cases(tmp_path / "new")
    prose(new)
    report = tmp_path / "old.json"
    assert cli(["run", str(old), "--json", str(report), "-q"]) == 1
    capsys.readouterr()
    assert cli(["coverage", str(new), "--prose", str(tmp_path / "new"), "--results", str(report)]) == 0
    err = capsys.readouterr().err
    assert f"{report}:1: a run over {old}, not over the roots mapped here" in err, err


def test_the_coverage_page_fits_a_1400_px_window(tmp_path, capsys):
    """Long case ids (cited by, verified by) and cited identifiers wrap instead of widening the page."""
    from tools import browser

    from .conftest import shared_spec_root, target_spec_root

    if browser.missing() or target_spec_root() is None or shared_spec_root() is None:
        pytest.skip(f"needs a browser and both corpora: {browser.missing() or 'set OA_TARGET_SPEC and OA_SHARED_SPEC'}")
    page_path = tmp_path / "coverage.html"
    assert cli(["coverage", str(target_spec_root()), "--prose", str(shared_spec_root()), "--html", str(page_path)]) == 0
    capsys.readouterr()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = browser.launch(playwright)
        try:
            page = launched.new_page(viewport={"width": 1400, "height": 900})
            page.goto(page_path.as_uri())
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            assert page.evaluate("document.documentElement.scrollWidth") <= 1400
        finally:
            launched.close()


# --- 18. ./dev with OA_PYTHONS; run outside a checkout --------------------------------------------

def fake_python(path: Path, version: str) -> None:
    """An interpreter as ./dev asks it: its version, and success for everything else (pip, compileall)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\ncase \"$*\" in *version_info*) echo {version};; esac\nexit 0\n", encoding="utf-8")
    path.chmod(0o755)


def test_dev_with_oa_pythons_leaves_the_venv_link_alone_and_says_so(tmp_path):
    from .conftest import REPO

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "dev").write_bytes((REPO / "dev").read_bytes())
    (checkout / "dev").chmod(0o755)
    (checkout / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    stamp = subprocess.run(["sha256sum"], input=(checkout / "pyproject.toml").read_bytes(), capture_output=True).stdout.split()[0]
    bin_dir = tmp_path / "bin"
    for version in ("3.12", "3.13"):
        fake_python(bin_dir / f"python{version}", version)
        fake_python(checkout / f".venv-{version}" / "bin" / "python", version)
        (checkout / f".venv-{version}" / ".oa-installed").write_bytes(stamp + b"\n")
    (checkout / ".venv").symlink_to(".venv-3.12")
    env = dict(os.environ, PATH=f"{bin_dir}:/usr/bin:/bin", PYENV_ROOT=str(tmp_path / "no-pyenv"), OA_PYTHONS="3.13")
    done = subprocess.run(["./dev", "setup"], cwd=checkout, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert os.readlink(checkout / ".venv") == ".venv-3.12"
    assert "dev: .venv left pointing at .venv-3.12 (OA_PYTHONS=3.13" in done.stderr, done.stderr
    env.pop("OA_PYTHONS")
    (checkout / ".venv").unlink()
    (checkout / ".venv").symlink_to(".venv-3.13")
    done = subprocess.run(["./dev", "setup"], cwd=checkout, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and os.readlink(checkout / ".venv") == ".venv-3.12", done.stderr  # unset: the oldest


@pytest.mark.parametrize("subcommand", ["run", "check"])
def test_run_with_no_root_outside_a_checkout_says_what_to_pass(tmp_path, subcommand):
    done = command("oa-conformance", subcommand, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"oa-conformance {subcommand}: no SPEC_ROOT given, and no spec/ here (the default: the fixtures bundled in a checkout "
        "of oa-conformance): give a spec repository, its spec/ folder, a conformance/ folder or a fixture"], done.stderr
