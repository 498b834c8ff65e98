"""The ``oa-ast`` command line: formats, spans, checks, stdin and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oa_conformance.ast.dump import from_data
from oa_conformance.frontends.cli.oa_ast import main
from oa_conformance.pipeline import read_fixture

from .conftest import BUNDLED_SPEC

FIXTURE = str(BUNDLED_SPEC / "graph-engine" / "conformance" / "001-linear-reducers.yaml")


def test_text_dump_is_a_quiet_tree(capsys):
    assert main([FIXTURE]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Fixture\n")
    assert "  nodes:\n    first: NodeDecl\n" in out
    assert "type: TypeRef list<string>" in out
    assert "@" not in out  # spans only on request


def test_show_spans(capsys):
    assert main([FIXTURE, "--show-spans"]) == 0
    out = capsys.readouterr().out
    assert "    first: NodeDecl  @12:5\n" in out and "    fields:  @6:5\n" in out


def test_json_reads_back_to_an_equal_ast(capsys):
    assert main([FIXTURE, "--format", "json", "--show-spans"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["_type"] == "Fixture" and data["_span"] == [4, 1]
    assert from_data(data) == read_fixture(FIXTURE).fixture


def test_yaml_reads_back_to_an_equal_ast(capsys):
    assert main([FIXTURE, "--format", "yaml"]) == 0
    again = read_fixture(FIXTURE, capsys.readouterr().out)
    assert again.ok and again.fixture == read_fixture(FIXTURE).fixture


def test_stop_after_prints_problems_with_locations(tmp_path, capsys):
    broken = tmp_path / "broken.yaml"
    broken.write_text(Path(FIXTURE).read_text(encoding="utf-8").replace("entry: first", "entry: first\nentyr: oops"))
    assert main([str(broken), "--stop-after", "schema"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [f"{broken}:10:1: fixture_directive_unknown: unknown directive 'entyr' in fixture at the top level (did you mean 'entry'?)"]


def test_stop_after_on_a_clean_fixture(capsys):
    assert main([FIXTURE, "--stop-after", "version"]) == 0
    assert capsys.readouterr().out == ""


def test_problems_without_stop_after_go_to_stderr(tmp_path, capsys):
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [1\n")
    assert main([str(broken)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and f"{broken}:1:4: fixture_schema_invalid: invalid YAML" in captured.err


def test_missing_file_is_a_usage_error(capsys):
    assert main(["/no/such/fixture.yaml"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_bad_option_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([FIXTURE, "--format", "xml"])
    assert exit_info.value.code == 2


def test_stdin_through_the_installed_entry_point():
    text = Path(FIXTURE).read_text(encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "oa_conformance.frontends.cli.oa_ast", "-", "--format", "json"],
                          input=text, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["_type"] == "Fixture"


def test_stdin_problem_is_reported_against_stdin():
    done = subprocess.run([sys.executable, "-m", "oa_conformance.frontends.cli.oa_ast", "-", "--stop-after", "schema"],
                          input="entry: a\nentry: b\n", capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stdout.startswith("<stdin>:2:1: fixture_schema_invalid: duplicate key 'entry'")
