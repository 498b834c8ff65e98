"""The typed views (``oa_conformance/ast/views.py``) are the source the vocabulary generates.

The file is checked in so that grep, IDEs and type checkers see one class per directive family and
one typed attribute per directive; these tests keep it from drifting from the table.
"""

from __future__ import annotations

import ast
import difflib

from oa_conformance.ast import views
from oa_conformance.ast.nodes import Scalar, Section
from oa_conformance.model.vocabulary import VOCABULARY, Directive, Family, Vocabulary
from oa_conformance.model.vocabulary import shapes as sh
from tools import generate_views

REGENERATE = ".venv/bin/python -m tools.generate_views"


def test_the_checked_in_views_are_what_the_vocabulary_generates():
    checked_in = generate_views.VIEWS.read_text(encoding="utf-8")
    wanted = generate_views.generate()
    if checked_in != wanted:
        diff = "".join(list(difflib.unified_diff(checked_in.splitlines(True), wanted.splitlines(True),
                                                 "oa_conformance/ast/views.py (checked in)", "regenerated", n=1))[:40])
        raise AssertionError(f"oa_conformance/ast/views.py is out of date with the vocabulary: run {REGENERATE}\n{diff}")


def test_a_vocabulary_edit_changes_the_generated_source():
    """The check above can fail: a row added to the table is a new typed attribute."""
    family = Family("thing", "Thing", "A thing.")
    rows = [Directive("from", ("thing",), sh.STR, "§1", "cap", doc="Where it starts."),
            Directive("then", ("thing",), sh.SectionShape("thing"), "§2", "cap", "0.1.0", doc="What follows.")]
    before = generate_views.generate(Vocabulary([family], rows[:1]))
    after = generate_views.generate(Vocabulary([family], rows))
    assert "    from_: Scalar | None = None\n" in before and "then" not in before
    assert '    then: Thing | None = None\n    """``then`` (cap §2, since 0.1.0): What follows."""\n' in after
    assert '"then"' in after.split("class Thing")[1].split("from_:")[0]  # in holding, directive_attrs, _fields


def test_the_generated_source_is_valid_and_stable():
    source = generate_views.generate()
    tree = ast.parse(source)
    classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    assert classes == [family.class_name for family in VOCABULARY.families.values()]
    assert generate_views.generate() == source


def test_each_view_has_a_typed_attribute_per_directive():
    for family in VOCABULARY.families.values():
        cls = views.BY_FAMILY[family.name]
        assert cls.__name__ == family.class_name and cls.family == family.name
        for row in VOCABULARY.directives_of(family.name):
            assert cls.directive_attrs[row.name] == row.attr
            assert row.attr in cls.__annotations__ and getattr(cls, row.attr) is None


def test_annotations_name_what_the_builder_makes():
    assert views.EdgeDecl.__annotations__["from_"] == "Scalar | None"
    assert views.EdgeDecl.__annotations__["condition"] == "Condition | None"
    assert generate_views.value_classes(sh.Nullable(sh.ListOf(sh.STR))) == {"Sequence", "Scalar"}
    assert generate_views.value_classes(sh.Expect(("scalar",))) == {"Scalar", "FormatToken", "BindingToken"}


def test_an_absent_directive_reads_none_and_a_given_one_its_value():
    edge = views.EdgeDecl.make(order=("from",), key_spans=(None,), from_=Scalar.make(value="a"))
    assert edge.from_ == Scalar.make(value="a") and edge.to is None
    assert edge.given(VOCABULARY.lookup("edge", "from")) == Scalar.make(value="a")
    assert edge.given(VOCABULARY.lookup("edge", "to")) is None
    assert isinstance(edge, Section) and "__dict__" not in Section.__dict__
