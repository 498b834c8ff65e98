"""The directive table: well formed, documented, and the source of the AST classes."""

from __future__ import annotations

import pytest

from oa_conformance.ast import views
from oa_conformance.pipeline import read_fixture
from oa_conformance.model.vocabulary import VOCABULARY, Directive, Family, Vocabulary
from oa_conformance.model.vocabulary import shapes as sh


def test_every_directive_is_documented_and_placed():
    for directive in VOCABULARY.all_directives():
        assert directive.doc and directive.section and directive.capability, directive.name
        assert directive.scope in ("general", "directory")
        for family in directive.where:
            assert family in VOCABULARY.families


def test_every_family_has_a_generated_class_with_a_field_per_directive():
    for family in VOCABULARY.families.values():
        cls = views.BY_FAMILY[family.name]
        assert cls.__name__ == family.class_name and cls.__doc__ == family.doc
        for directive in VOCABULARY.directives_of(family.name):
            assert directive.attr in cls._fields


def test_class_names_are_unique():
    names = [f.class_name for f in VOCABULARY.families.values()]
    assert len(names) == len(set(names))


def test_registry_refuses_contradictions():
    fam = Family("thing", "Thing", "doc")
    one = Directive("a", ("thing",), sh.STR, "§1", "x", doc="d")
    with pytest.raises(ValueError, match="declared twice"):
        Vocabulary([fam], [one, one])
    with pytest.raises(ValueError, match="unknown family"):
        Vocabulary([fam], [Directive("a", ("other",), sh.STR, "§1", "x", doc="d")])
    with pytest.raises(ValueError, match="constrains undeclared"):
        Vocabulary([Family("thing", "Thing", "doc", required=("b",))], [one])


def test_the_rows_that_declare_a_wait_name_its_unit():
    """The scheduler's declared waits are these rows' numbers (``Directive.waits``), each family's
    read through ``waits_in``; a row of one name gives one unit however many directories share it."""
    declaring = {(family, d.name, d.waits) for d in VOCABULARY.all_directives() if d.waits for family in d.where}
    assert {(family, name) for family, name, _ in declaring} >= {("node", "sleep_ms"), ("observer", "sleep_ms_per_event"),
                                                                 ("pacing", "first_invocation"), ("pacing", "subsequent_invocations")}
    units = {}
    for family, name, unit in declaring:
        assert units.setdefault((family, name), unit) == unit, (family, name)
        assert (views.BY_FAMILY[family].directive_attrs[name], 1000 if unit == "ms" else 1) in VOCABULARY.waits_in(family)
    assert VOCABULARY.waits_in("expected") == ()
    with pytest.raises(ValueError, match="unknown wait unit"):
        Directive("a", ("thing",), sh.INT, "§1", "x", doc="d", waits="minutes")


def test_directory_vocabulary_applies_only_in_its_directory():
    local = [d for d in VOCABULARY.all_directives() if d.scope == "directory"]
    assert local, "the corpus uses §3.2 per-directory vocabularies"
    directive = local[0]
    family = directive.where[0]
    assert VOCABULARY.lookup(family, directive.name, directive.capability) is directive
    other = next(c for c in ("graph-engine", "sessions") if c != directive.capability)
    found = VOCABULARY.lookup(family, directive.name, other)
    assert found is None or found.scope == "general"


def test_a_directory_directive_is_rejected_elsewhere(tmp_path):
    spec = tmp_path / "spec" / "graph-engine" / "conformance"
    spec.mkdir(parents=True)
    fixture = spec / "001-x.yaml"
    fixture.write_text("calls: []\n")  # llm-provider and prompt-management each have their own `calls`
    problems = read_fixture(str(fixture)).diagnostics
    assert [p.category for p in problems] == ["fixture_directive_unknown"]
    moved = tmp_path / "spec" / "prompt-management" / "conformance"
    moved.mkdir(parents=True)
    (moved / "001-x.yaml").write_text("calls: []\n")
    assert read_fixture(str(moved / "001-x.yaml")).diagnostics == ()
