"""Every input, every front end, round two (issue 26): what a new user met, each through the
installed command run as its own process (``python -m …``) or pytest run from an outside folder."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from oa_conformance.model.version import TARGET_SPEC_VERSION
from oa_conformance.model.vocabulary import VOCABULARY

from .conftest import REPO
from .test_every_input import no_traceback, target_fixture_text
from .test_run import LINEAR

pytest_plugins = ["pytester"]

COMMANDS = {"oa-conformance": "oa_conformance.frontends.cli.oa_conformance", "oa-lint": "oa_conformance.frontends.cli.oa_lint",
            "oa-ast": "oa_conformance.frontends.cli.oa_ast"}


def command(program: str, *args: str, cwd: Path | None = None, env: dict | None = None, preexec=None,
            stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    """``program args`` as the user runs it: its own process, its own exit status."""
    return subprocess.run([sys.executable, "-m", COMMANDS[program], *args], cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})), preexec_fn=preexec, stdin=stdin, timeout=300)


def good_spec(root: Path) -> Path:
    """``root/spec`` holding one clean fixture, with its sidecar."""
    folder = root / "spec" / "graph-engine" / "conformance"
    folder.mkdir(parents=True)
    (folder / "001-good.yaml").write_text(LINEAR.read_text(), encoding="utf-8")
    (folder / "001-good.md").write_text("# good\n", encoding="utf-8")
    return root / "spec"


# --- High: files discovery passes over ------------------------------------------------------------

def test_files_that_look_like_fixtures_are_reported_by_every_front_end(pytester):
    spec = good_spec(pytester.path)
    folder = spec / "graph-engine" / "conformance"
    (folder / "sub").mkdir()
    for name in ("002-x.yml", "003-x.YAML", "sub/005-x.yaml"):
        (folder / name).write_text(LINEAR.read_text(), encoding="utf-8")
        (folder / name).with_suffix(".md").write_text("# prose\n", encoding="utf-8")
    (folder / "006-lone.md").write_text("# a sidecar whose fixture is gone\n", encoding="utf-8")
    (folder / "README.md").write_text("# not a sidecar\n", encoding="utf-8")
    passed_over = [f"{folder}/{name}:1:1" for name in ("002-x.yml", "003-x.YAML", "006-lone.md", "sub/005-x.yaml")]

    for args in (["check", str(spec)], ["run", str(spec), "-q"]):
        done = command("oa-conformance", *args)
        assert done.returncode == 0, done.stdout + done.stderr  # warnings: the fixture that runs decides
        warned = [line for line in done.stdout.splitlines() if ": warning: " in line]
        assert [line.split(": warning: ")[0] for line in warned] == passed_over, done.stdout
        assert "README.md" not in done.stdout and "002-x.md" not in done.stdout  # a sidecar of a reported file: one finding
        assert "rename it 002-x.yaml" in done.stdout and "not its subfolders" in done.stdout
        assert "no 006-lone.yaml beside it" in done.stdout
    linted = command("oa-lint", str(spec))
    assert linted.returncode == 1
    assert re.findall(r"^(\S+:1:1): L004 ", linted.stdout, re.M) == passed_over, linted.stdout
    assert command("oa-lint", str(spec), "--ignore", "L004").returncode == 0

    result = pytester.run(sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, warnings=4)
    out = result.stdout.str()
    assert all(f"PytestCollectionWarning: {where}: warning: " in out for where in passed_over), out


# --- Medium ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("program, args", [
    ("oa-conformance", ["check", "."]), ("oa-conformance", ["check", "./"]), ("oa-conformance", ["run", ".", "-q"]),
    ("oa-lint", ["."]), ("oa-lint", ["./"]),
])
def test_a_relative_root_is_judged_by_what_it_names(tmp_path, program, args):
    folder = good_spec(tmp_path) / "graph-engine" / "conformance"
    done = command(program, *args, cwd=folder)
    assert done.returncode == 0 and "not a spec repository" not in done.stderr, done.stdout + done.stderr
    if args[0] == "check":
        assert "graph-engine      1         0" in done.stdout


def test_every_capability_marker_is_registered_from_the_capability_table(pytester, monkeypatch):
    spec = good_spec(pytester.path)
    adapter = spec / "conformance-adapter" / "conformance"
    adapter.mkdir(parents=True)
    (adapter / "001-adapter.yaml").write_text(target_fixture_text("conformance-adapter", 1), encoding="utf-8")
    monkeypatch.setenv("PYTHONWARNINGS", "error")  # the pytest processes below: any warning is an error
    strict = pytester.run(sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "--strict-markers",
                          "-m", "conformance_adapter or graph_engine", "-W", "error")
    assert strict.ret == 0, strict.stdout.str()
    assert "PytestUnknownMarkWarning" not in strict.stdout.str() + strict.stderr.str()
    monkeypatch.delenv("PYTHONWARNINGS")
    listed = pytester.run(sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "--markers")
    for capability in VOCABULARY.capabilities:  # derived: a capability the vocabulary gains gets its marker
        assert f"@pytest.mark.{capability.replace('-', '_')}: conformance fixtures of {capability}" in listed.stdout.str()
    warned = pytester.run(sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", "-p", "no:cacheprovider",
                          "-m", "conformance_adapter")
    warned.assert_outcomes(passed=4, deselected=1)
    assert "PytestUnknownMarkWarning" not in warned.stdout.str()


def limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (400, 400))  # a disk that fills up after 400 bytes


def test_ctrl_c_as_the_reports_temporary_file_is_made_leaves_nothing_behind(tmp_path, monkeypatch):
    """Ctrl-C handled as the open that creates the report's temporary file returns (where Python
    handles a signal that came during a call): the old report stays, and no temporary file."""
    from oa_conformance.frontends.cli import files

    report = tmp_path / "report.json"
    report.write_text("the previous report\n", encoding="utf-8")
    real_open = os.open

    def open_then_interrupted(*args, **kwargs):
        os.close(real_open(*args, **kwargs))
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "open", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.write_whole(str(report), "the new report\n")
    monkeypatch.undo()
    assert report.read_text(encoding="utf-8") == "the previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]  # no temporary file left


def test_a_report_that_cannot_be_written_is_one_line_and_leaves_the_old_file(tmp_path):
    report = tmp_path / "report.json"
    report.write_text("the previous report\n", encoding="utf-8")
    done = command("oa-conformance", "run", str(LINEAR), "-q", "--processes", "1", "--json", str(report), preexec=limit_file_size)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"oa-conformance: --json {report}: cannot write the report: File too large\n"
    assert report.read_text(encoding="utf-8") == "the previous report\n"  # not truncated
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]  # no temporary file left
    written = command("oa-conformance", "run", str(LINEAR), "-q", "--processes", "1", "--json", str(report))
    assert written.returncode == 0 and json.loads(report.read_text())["cases"][0]["outcome"] == "passed"
    assert oct(report.stat().st_mode & 0o777) == oct(0o666 & ~current_umask())  # as a file written in place
    refused = command("oa-conformance", "run", str(LINEAR), "-q", "--processes", "1", "--json", "/sys/r.json")
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1 and "--json /sys/r.json" in refused.stderr
    no_traceback(refused.stderr)


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def close_stdin() -> None:
    os.close(0)


@pytest.mark.parametrize("program", ["oa-ast", "oa-lint"])
def test_a_closed_standard_input_cannot_be_read(program):
    done = command(program, "-", preexec=close_stdin, stdin=None)
    assert done.returncode == 2 and "cannot read standard input" in done.stderr, done.stderr
    no_traceback(done.stderr)


@pytest.mark.parametrize("tag", ["!foo", "!!python/name:os.system"])
def test_a_tag_no_reader_builds_is_one_y001(tmp_path, tag):
    fixture = tmp_path / "001-tag.yaml"
    fixture.write_text(LINEAR.read_text().replace("entry: first", f"entry: {tag} first"), encoding="utf-8")
    done = command("oa-lint", str(fixture))
    assert done.returncode == 1, done.stdout + done.stderr
    assert [line.split()[1] for line in done.stdout.splitlines()] == ["Y001"], done.stdout


def test_an_encoding_without_the_characters_escapes_them(tmp_path):
    ascii_only = {"PYTHONIOENCODING": "ascii"}
    explained = command("oa-lint", "--explain", "G003", env=ascii_only)
    assert explained.returncode == 0 and explained.stderr == "", explained.stderr
    assert "\\u2014" in explained.stdout or "\\xa7" in explained.stdout  # the rule's — and §, escaped
    folder = tmp_path / "spec" / "graph-engine" / "conformance"
    folder.mkdir(parents=True)
    (folder / "001-umlaut.yaml").write_text(LINEAR.read_text() + "entrü: x\n", encoding="utf-8")
    linted = command("oa-lint", str(tmp_path / "spec"), env=ascii_only)
    assert linted.returncode == 1 and "unknown directive 'entr\\xfc'" in linted.stdout, linted.stderr
    c_locale = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    for args in (["run", str(tmp_path / "spec"), "--processes", "1"], ["check", str(tmp_path / "spec")]):
        done = command("oa-conformance", *args, env=c_locale)
        assert done.returncode == 1 and "entr\\xfc" in done.stdout, done.stderr
        no_traceback(done.stderr)


# --- Low ------------------------------------------------------------------------------------------

def close_stdout() -> None:
    os.close(1)


@pytest.mark.parametrize("program, args", [
    ("oa-conformance", ["run", str(LINEAR)]), ("oa-conformance", ["run", str(LINEAR), "--processes", "1"]),
    ("oa-conformance", ["check", str(LINEAR)]), ("oa-lint", [str(LINEAR)]), ("oa-ast", [str(LINEAR)]),
    ("oa-lint", ["--explain", "G003"]),
])
def test_a_closed_standard_output_is_quiet(program, args):
    done = command(program, *args, preexec=close_stdout)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr


def test_a_newline_in_a_file_name_stays_on_its_line(tmp_path):
    folder = tmp_path / "spec" / "graph-engine" / "conformance"
    folder.mkdir(parents=True)
    (folder / "001-a\nb.yaml").write_text("entyr: x\n", encoding="utf-8")
    checked = command("oa-conformance", "check", str(tmp_path / "spec"))
    linted = command("oa-lint", str(tmp_path / "spec"))
    for done in (checked, linted):
        assert done.returncode == 1
        located = [line for line in done.stdout.splitlines() if ":1:1: " in line]
        assert located and all(line.startswith(f"{folder}/001-a\\nb.yaml:1:1: ") for line in located), done.stdout
        assert not any(line.startswith("b.yaml") for line in done.stdout.splitlines()), done.stdout


def test_check_prints_the_table_first_and_aligned(tmp_path):
    spec = good_spec(tmp_path)
    done = command("oa-conformance", "check", str(spec), "--capability", "graph-engine")
    assert done.stdout.splitlines() == ["capability    clean  problems", "graph-engine      1         0", "1 clean, 0 with problems"]
    loose = tmp_path / "001-loose.yaml"  # outside a capability folder: the capability column reads "-"
    loose.write_text(LINEAR.read_text(), encoding="utf-8")
    header, row, _ = command("oa-conformance", "check", str(loose)).stdout.splitlines()
    assert (header, row) == ("capability  clean  problems", "-               1         0")


def test_the_readme_names_the_version_cut_off_check_applies(tmp_path):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"newer than the target, {TARGET_SPEC_VERSION} →" in readme and "newer than 0.109.0" not in readme
    major, minor, patch = TARGET_SPEC_VERSION.split(".")
    for version, status in ((TARGET_SPEC_VERSION, 0), (f"{major}.{minor}.{int(patch) + 1}", 1)):
        fixture = tmp_path / "spec" / "graph-engine" / "conformance" / "001-version.yaml"
        fixture.parent.mkdir(parents=True, exist_ok=True)
        fixture.write_text(f"conformance_version: {version}\n" + LINEAR.read_text(), encoding="utf-8")
        done = command("oa-conformance", "check", str(tmp_path / "spec"))
        assert done.returncode == status, done.stdout


def test_json_dash_is_standard_output(tmp_path):
    done = command("oa-conformance", "run", str(LINEAR), "-q", "--processes", "1", "--json", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cases"][0]["outcome"] == "passed"  # the report alone
    assert "1 of 1 cases" in done.stderr and not (tmp_path / "-").exists()


def test_more_processes_than_cores_are_capped_with_a_note():
    cores = os.cpu_count() or 1
    done = command("oa-conformance", "run", str(LINEAR), "-q", "--processes", str(cores + 62))
    assert done.returncode == 0
    assert done.stderr == f"oa-conformance: --processes {cores + 62}: this machine has {cores} core{'s' if cores > 1 else ''}; using {cores}\n"
    linted = command("oa-lint", str(LINEAR), "--processes", str(cores + 62))
    assert linted.returncode == 0 and f"using {cores}" in linted.stderr


def test_oa_ast_given_a_folder_is_a_usage_error(tmp_path):
    done = command("oa-ast", str(good_spec(tmp_path)))
    assert done.returncode == 2 and "a directory; give one fixture file" in done.stderr


@pytest.mark.parametrize("report, message", [
    ({"cases": [{"id": "x"}]}, "not a --json report of run: cases[0] has no 'duration_s'"),
    ({"runs": []}, 'not a --json report of run (no "cases" list)'),
])
def test_a_bad_durations_report_is_one_located_line(tmp_path, report, message):
    durations = tmp_path / "old.json"
    durations.write_text(json.dumps(report), encoding="utf-8")
    done = command("oa-conformance", "run", str(LINEAR), "-q", "--durations", str(durations))
    assert done.returncode == 2 and done.stderr == f"oa-conformance: --durations {durations}: {message}\n", done.stderr
    durations.write_text('{"cases": [\n', encoding="utf-8")
    done = command("oa-conformance", "run", str(LINEAR), "-q", "--durations", str(durations))
    assert done.returncode == 2 and done.stderr.startswith(f"oa-conformance: --durations {durations}:2:1: not JSON"), done.stderr
