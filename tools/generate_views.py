"""Write the typed views, ``oa_conformance/ast/views.py``, from the vocabulary table.

One class per directive family (:class:`~oa_conformance.model.vocabulary.Family`), one typed
attribute per directive it allows, its docstring taken from the vocabulary row(s): checked-in source
that grep, IDEs and type checkers read, as LibCST generates its typed matchers. Run after editing
the vocabulary::

    .venv/bin/python -m tools.generate_views

``tests/test_views.py`` regenerates in memory and fails while the checked-in file differs. The output
depends only on the table (families and directives in table order), so it is stable.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

from oa_conformance.model.vocabulary import VOCABULARY, Directive, Family, Vocabulary
from oa_conformance.model.vocabulary import shapes as sh

VIEWS = Path(__file__).resolve().parent.parent / "oa_conformance" / "ast" / "views.py"
WIDTH = 100  # the docstrings' wrap width (the code lines are as long as their names)

HEADER = '''"""The typed views: one AST class per directive family, one attribute per directive it allows.

GENERATED from the vocabulary table (:mod:`oa_conformance.model.vocabulary`) by
``python -m tools.generate_views``: do not edit by hand; ``tests/test_views.py`` fails while this
file and the table disagree. An absent directive reads as ``None``. ``directive_attrs`` maps each
directive to its attribute (``from`` → ``from_``); ``holding`` names the directives whose value
can hold a section (what :func:`~oa_conformance.ast.visitor.sections_under` descends into).
"""

from __future__ import annotations

from typing import ClassVar

from .nodes import (
    BindingToken,
    FormatToken,
    Mapping,
    Placeholder,
    PredicateBlock,
    Scalar,
    Section,
    Sequence,
    TypeRef,
)
'''

# The node classes a value of each YAML kind is built as (interpreter/static/build.py).
_KIND_CLASSES = {"scalar": ("Scalar",), "map": ("Mapping",), "list": ("Sequence",)}
_TOKENS = ("FormatToken", "BindingToken")  # what a §5.10 token string in an expected value becomes
# The order a union is written in: the value classes first, then the rest by name.
_RANK = {"Scalar": 0, "Mapping": 1, "Sequence": 2}


def value_classes(shape: sh.Shape, vocabulary: Vocabulary = VOCABULARY) -> frozenset[str]:
    """The names of the node classes the AST builder makes for a value of ``shape``."""
    kind = type(shape)
    if kind in (sh.ScalarShape, sh.Enum, sh.Version):
        return frozenset(("Scalar",))
    if kind is sh.Data or kind is sh.Expect:
        kinds = shape.kinds or ("map", "list", "scalar")  # type: ignore[attr-defined]
        found = frozenset(c for k in kinds for c in _KIND_CLASSES[k])
        return found | frozenset(_TOKENS) if kind is sh.Expect and "scalar" in kinds else found
    if kind is sh.TypeString:
        return frozenset(("TypeRef",))
    if kind is sh.Reference:
        return frozenset(("Scalar", "Placeholder"))
    if kind is sh.SectionShape:
        return frozenset((vocabulary.families[shape.family].class_name,))  # type: ignore[attr-defined]
    if kind is sh.MapOf:
        return frozenset(("Mapping",))
    if kind is sh.ListOf:
        return frozenset(("Sequence",))
    if kind is sh.Predicates:
        return frozenset(("PredicateBlock",))
    if kind is sh.OneOf:
        return frozenset().union(*(value_classes(option, vocabulary) for option in shape.options))  # type: ignore[attr-defined]
    if kind is sh.Nullable:
        return value_classes(shape.inner, vocabulary) | {"Scalar"}  # type: ignore[attr-defined]
    raise TypeError(f"no node class for shape {shape!r}")


def annotation(rows: list[Directive], vocabulary: Vocabulary = VOCABULARY) -> str:
    classes = frozenset().union(*(value_classes(row.shape, vocabulary) for row in rows))
    return " | ".join(sorted(classes, key=lambda name: (_RANK.get(name, 3), name))) + " | None"


def docstring(rows: list[Directive]) -> list[str]:
    """The attribute's docstring lines: each row's doc with where it comes from (several rows: one
    directive name that directories define each their own way)."""
    paragraphs = []
    for row in rows:
        since = f", since {row.since}" if row.since else ""
        scope = ", this directory only" if row.scope == "directory" else ""
        paragraphs.append(f"``{row.name}`` ({row.capability} {row.section}{since}{scope}): {row.doc or 'undocumented'}")
    return _quoted(paragraphs, indent="    ")


def _quoted(paragraphs: list[str], indent: str) -> list[str]:
    """A docstring's lines, each paragraph wrapped to WIDTH (the opening quotes count)."""
    lines: list[str] = []
    for paragraph in paragraphs:
        text = paragraph.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
        first = indent + ('"""' if not lines else "")
        if lines:
            lines.append("")
        lines.extend(textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False))
    if lines[-1].endswith('"'):
        lines[-1] = lines[-1][:-1] + '\\"'
    if len(lines) == 1 and len(lines[0]) + 3 <= WIDTH:
        return [lines[0] + '"""']
    return lines + [indent + '"""']


def _docstring_literal(text: str) -> str:
    literal = '"""' + text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return (literal[:-1] + '\\"' if literal.endswith('"') and len(literal) > 3 else literal) + '"""'


def family_class(family: Family, vocabulary: Vocabulary = VOCABULARY) -> list[str]:
    """The class of one family: its directives in table order (the order of ``_fields``, which
    ``oa-ast --format json`` writes them in)."""
    rows: dict[str, list[Directive]] = {}
    for row in vocabulary.directives_of(family.name):
        rows.setdefault(row.name, []).append(row)
    attrs = {name: found[0].attr for name, found in rows.items()}
    holding = [name for name, found in rows.items() if any(sh.can_hold(row.shape, (sh.SectionShape,)) for row in found)]
    out = [f"class {family.class_name}(Section):"]
    out += [f"    {_docstring_literal(family.doc)}"]  # unwrapped: it is the class's __doc__, the row's doc
    out += ["", f"    family: ClassVar[str] = {_string(family.name)}"]
    out += _wrapped("    directive_attrs: ClassVar[dict[str, str]] = {", [f"{_string(n)}: {_string(a)}" for n, a in attrs.items()], "}")
    out += _wrapped("    holding: ClassVar[frozenset[str]] = frozenset((", [_string(n) for n in holding], "))")
    out += _wrapped("    _fields = (", [_string(n) for n in ("order", *attrs.values())], ")")
    for name, found in rows.items():
        out += ["", f"    {attrs[name]}: {annotation(found, vocabulary)} = None"]
        out += docstring(found)
    return out


def _string(text: str) -> str:
    if not text.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"not a plain name: {text!r}")
    return f'"{text}"'


def _wrapped(opening: str, items: list[str], closing: str) -> list[str]:
    """``opening``, the items filling lines of at most WIDTH (each ending in a comma), ``closing``."""
    if not items:
        return [opening + closing]
    lines, line = [opening], "       "
    for item in items:
        if len(line) + 1 + len(item) + 1 > WIDTH:
            lines.append(line)
            line = "       "
        line += " " + item + ","
    return lines + [line, "    " + closing]


def generate(vocabulary: Vocabulary = VOCABULARY) -> str:
    """The source of ``views.py`` for ``vocabulary``."""
    parts = [HEADER]
    for family in vocabulary.families.values():
        parts.append("\n\n" + "\n".join(family_class(family, vocabulary)) + "\n")
    classes = [family.class_name for family in vocabulary.families.values()]
    by_family = "\n".join(f"    {_string(family.name)}: {family.class_name}," for family in vocabulary.families.values())
    parts.append("\n\n# Every view class, by family name.\n"
                 f"BY_FAMILY: dict[str, type[Section]] = {{\n{by_family}\n}}\n")
    parts.append("\n__all__ = [\n" + "".join(f'    "{name}",\n' for name in sorted(["BY_FAMILY", *classes])) + "]\n")
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.generate_views", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if views.py is out of date")
    args = parser.parse_args(argv)
    wanted = generate()
    current = VIEWS.read_text(encoding="utf-8") if VIEWS.exists() else ""
    if args.check:
        if current != wanted:
            print(f"{VIEWS} is out of date: run python -m tools.generate_views", file=sys.stderr)
            return 1
        return 0
    if current != wanted:
        VIEWS.write_text(wanted, encoding="utf-8")
        print(f"wrote {VIEWS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
