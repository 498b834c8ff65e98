"""Every *.yaml entry of a conformance folder is a fixture or a finding: a dangling symlink, a
directory or a FIFO named like a fixture is reported (never opened blocking, never dropped), and a
fixture over the input size cap is refused with a clear message."""

from __future__ import annotations

import os

from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.frontends.lint import Selection, lint_paths

from .test_run import LINEAR, write_fixture


def odd_entries(tmp_path):
    write_fixture(tmp_path, LINEAR.read_text(), name="001-good.yaml")
    folder = tmp_path / "spec" / "graph-engine" / "conformance"
    (folder / "002-a-directory.yaml").mkdir()
    os.symlink(folder / "missing.yaml", folder / "003-dangling.yaml")
    os.mkfifo(folder / "004-fifo.yaml")
    return folder


def test_check_reports_every_non_regular_entry(tmp_path, capsys):
    odd_entries(tmp_path)
    assert cli(["check", str(tmp_path / "spec")]) == 1
    out = capsys.readouterr().out
    assert "002-a-directory.yaml:1:1: fixture_schema_invalid: cannot read fixture: a directory" in out
    assert "003-dangling.yaml:1:1: fixture_schema_invalid: cannot read fixture: a dangling symbolic link" in out
    assert "004-fifo.yaml:1:1: fixture_schema_invalid: cannot read fixture: a FIFO" in out
    assert "1 clean, 3 with problems" in out


def test_lint_reports_them_as_unreadable(tmp_path):
    odd_entries(tmp_path)
    codes = [(os.path.basename(d.location.path), d.code) for d in lint_paths([str(tmp_path / "spec")], Selection.parse(["Y006"])).diagnostics]
    assert codes == [("002-a-directory.yaml", "Y006"), ("003-dangling.yaml", "Y006"), ("004-fifo.yaml", "Y006")]


def test_a_fixture_over_the_size_cap_is_refused(tmp_path, capsys, monkeypatch):
    ref = write_fixture(tmp_path, LINEAR.read_text())
    monkeypatch.setenv("OA_MAX_FIXTURE_BYTES", "100")
    assert cli(["check", ref.path]) == 1
    assert "over the 100-byte cap (OA_MAX_FIXTURE_BYTES)" in capsys.readouterr().out
