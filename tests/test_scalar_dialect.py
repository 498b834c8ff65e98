"""Y007: a plain scalar whose YAML 1.1 meaning differs from its YAML 1.2 (core schema) meaning."""

from __future__ import annotations

import pytest

from oa_conformance.lint import Selection, lint_paths

from .test_run import LINEAR, write_fixture


@pytest.mark.parametrize("text", ["yes", "on", "Off", "012", "1:20", "2024-01-01", "1_000", "0b101"])
def test_a_dialect_dependent_scalar_is_a_warning(tmp_path, text):
    ref = write_fixture(tmp_path, LINEAR.read_text() + f"note: [{text}]\n")  # Y007 reads the text itself
    found = [d for d in lint_paths([ref.path], Selection.parse(["Y007"])).diagnostics]
    assert len(found) == 1 and found[0].severity == "warning" and repr(text) in found[0].message


@pytest.mark.parametrize("text", ['"yes"', "12", "true", "0x1F", "1.5", "plain words", "~"])
def test_a_scalar_both_dialects_agree_on_is_not(tmp_path, text):
    ref = write_fixture(tmp_path, LINEAR.read_text() + f"note: [{text}]\n")
    assert lint_paths([ref.path], Selection.parse(["Y007"])).diagnostics == ()
