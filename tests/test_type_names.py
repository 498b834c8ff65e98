"""A misspelt type name (two edits from a known one) or a record type given type arguments is
fixture_schema_invalid everywhere (one resolver for the schema check,
lint and the graph build), never a silent unconstrained field."""

from __future__ import annotations

import pytest

from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.frontends.lint import lint_paths

from .test_run import LINEAR, only_result, write_fixture


@pytest.mark.parametrize("spelling", ["list<strng>", "Optional[int]", "strng", "dict<string,lst>", "error_entry<int>"])
def test_an_unknown_type_name_is_reported_by_check_lint_and_run(tmp_path, capsys, spelling):
    text = LINEAR.read_text()
    assert "type: int" in text
    ref = write_fixture(tmp_path, text.replace("type: int", f'type: "{spelling}"', 1))
    assert cli(["check", ref.path]) == 1
    assert "unknown type name" in capsys.readouterr().out
    assert any("unknown type name" in d.message for d in lint_paths([ref.path]).diagnostics)
    result = only_result(ref)
    assert (result.outcome, result.category) == ("error", "fixture_schema_invalid")


@pytest.mark.parametrize("spelling", ["list<record>", "list[ChatMessage]", "dict<str,integer>", "any", "list<error_entry>", "dict<string,scored_item>"])
def test_known_names_and_aliases_still_read(tmp_path, capsys, spelling):
    ref = write_fixture(tmp_path, LINEAR.read_text().replace("type: int", f'type: "{spelling}"', 1))
    cli(["check", ref.path])
    assert "unknown type name" not in capsys.readouterr().out
