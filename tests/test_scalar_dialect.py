"""Y007: a plain scalar whose YAML 1.1 meaning differs from its YAML 1.2 (core schema) meaning."""

from __future__ import annotations

import pytest

from oa_conformance.frontends.lint import Selection, lint_paths

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


SCALARS = ["yes", "No", "on", "OFF", "y", "012", "0o17", "0x1F", "0b101", "1:20", "2024-01-01", "1_000", "1e3",
           "1.5", ".inf", ".NaN", "~", "null", "True", "plain words", "+12", "-0", "<<x", ""]


def test_the_loaders_document_and_a_yaml_1_1_recompose_agree(tmp_path):
    """Y007 reads the loader's composed document (YAML 1.2 tags) and derives each untagged plain
    scalar's YAML 1.1 tag from its text; a text that may hold a tag is also recomposed the YAML 1.1
    way. On untagged scalars both must find the same scalars with the same messages."""
    body = "note: [" + ", ".join(s for s in SCALARS if s) + "]\nmore: {k: yes, 012: on}\nlast:\n"
    plain = write_fixture(tmp_path / "plain", LINEAR.read_text() + body)
    tagged = write_fixture(tmp_path / "tagged", LINEAR.read_text() + body + "tagged: !!str x\n")  # forces the recompose
    found = [lint_paths([ref.path], Selection.parse(["Y007"])).diagnostics for ref in (plain, tagged)]
    assert len(found[0]) >= 12
    assert [(d.location.line, d.location.column, d.message) for d in found[0]] == [(d.location.line, d.location.column, d.message) for d in found[1]]


def test_an_explicit_tag_is_read_by_both_dialects(tmp_path):
    """`!!str yes` is a string to both readers; `!!int 012` is 12 to YAML 1.2 but octal 10 to 1.1."""
    ref = write_fixture(tmp_path, LINEAR.read_text() + "note: [!!str yes, !!str 012, !!int 012]\n")
    found = lint_paths([ref.path], Selection.parse(["Y007"])).diagnostics
    assert [d.message.split(" is ")[1] for d in found] == ["12 in YAML 1.2 (what the adapter reads) but 10 in YAML 1.1; quote it or write it unambiguously"]


def test_an_aliased_scalar_is_reported_once_at_its_anchor(tmp_path):
    ref = write_fixture(tmp_path, LINEAR.read_text() + "note: [&flag yes, *flag, *flag]\n")
    found = lint_paths([ref.path], Selection.parse(["Y007"])).diagnostics
    assert len(found) == 1 and found[0].location.line == len(LINEAR.read_text().splitlines()) + 1


def test_a_fixture_read_from_elsewhere_is_checked_too():
    from oa_conformance.frontends.lint import lint_file

    found = [d for d in lint_file("<stdin>", LINEAR.read_text() + "note: [on]\n") if d.code == "Y007"]
    assert len(found) == 1 and found[0].location.path == "<stdin>"
