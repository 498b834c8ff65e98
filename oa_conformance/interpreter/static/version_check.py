"""Version check: a fixture newer than the adapter's target is refused (§4.4, §8.5, §9).

The vocabulary is additive, so a fixture declaring ``conformance_version`` ≤ the target runs; one
declaring a newer version may use directives this adapter does not know, and is reported as
``fixture_version_unsupported`` rather than run with silent gaps.
"""

from __future__ import annotations

from ...ast.nodes import Mapping, Scalar, Section
from ...ast.visitor import Visitor
from ...model.diagnostics import FIXTURE_SCHEMA_INVALID, FIXTURE_VERSION_UNSUPPORTED, Diagnostic
from ...model.version import TARGET_SPEC_VERSION, parse_version


def check_version(fixture: Section | Mapping, target: str = TARGET_SPEC_VERSION) -> tuple[Diagnostic, ...]:
    """Problems with the fixture's ``conformance_version`` against ``target`` (none when absent).

    Takes the typed ``Fixture`` or, when the schema check failed and no typed AST exists, the
    value tree: a fixture that is too new is expected to fail the schema check too, and the version
    is the problem worth reporting first.
    """
    checker = _VersionChecker(parse_version(target), target)
    checker.visit(fixture)
    return tuple(checker.diagnostics)


class _VersionChecker(Visitor):
    def __init__(self, target: tuple[int, int, int], target_text: str):
        self.target = target
        self.target_text = target_text
        self.diagnostics: list[Diagnostic] = []

    def visit_Fixture(self, node: Section | Mapping) -> None:
        declared = node.get("conformance_version")  # node: a section, or the raw mapping of a file the schema check refused
        if not isinstance(declared, Scalar):
            return
        text = str(declared.value)
        version = parse_version(text)
        if version is None:
            self.diagnostics.append(Diagnostic(declared.span, FIXTURE_SCHEMA_INVALID, "version", f"conformance_version {text!r} is not a version (expected X.Y.Z)"))
        elif version > self.target:
            message = f"fixture declares conformance_version {text}, newer than the {self.target_text} this adapter targets"
            self.diagnostics.append(Diagnostic(declared.span, FIXTURE_VERSION_UNSUPPORTED, "version", message))

    visit_Mapping = visit_Fixture  # the root of a value tree that did not pass the schema check
