"""The expected-shape table (assertions/shapes/): every shape module is listed and each directive
is claimed once, nothing registers at import, and the one §5.5.5 truncation checker fails an OTel
span attribute (observability 014) at the property the fault breaks."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import pytest

from oa_conformance.assertions import shapes

from .faults import failed_at, line_of, replace_value, run_text, target_text

ASSERTIONS_DIR = Path(shapes.__file__).parent.parent


def test_every_shape_module_is_listed_and_each_directive_claimed_once():
    modules = {info.name for info in pkgutil.iter_modules(shapes.__path__)}
    tabled = {module.__name__.rsplit(".", 1)[-1] for module in shapes.MODULES}
    assert {name for name in modules if hasattr(__import__(f"{shapes.__name__}.{name}", fromlist=["SHAPES"]), "SHAPES")} == tabled
    rows = [row.key for module in shapes.MODULES for row in module.SHAPES]
    assert len(rows) == len(set(rows)) == len(shapes.SHAPES)


def _module_level_calls(path: Path) -> list[str]:
    """Module-level statements that are bare calls, and decorators on module-level definitions: the
    two ways a module could fill a registry when imported."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = [f"{path.name}:{node.lineno}" for node in tree.body if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)]
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found += [f"{path.name}:{d.lineno}" for d in node.decorator_list
                      if not (isinstance(d, ast.Call) and getattr(d.func, "id", "") == "dataclass") and getattr(d, "id", "") != "dataclass"]
    return found


def test_no_shape_registers_itself_at_import():
    paths = sorted(ASSERTIONS_DIR.glob("*.py")) + sorted((ASSERTIONS_DIR / "shapes").glob("*.py"))
    assert [found for path in paths for found in _module_level_calls(path)] == []


OBS, F014 = "observability", "014-otel-llm-payload-truncation.yaml"


@pytest.mark.parametrize("property_, value", [("max_bytes", "100"), ("prefix_of_full_serialization", "false"),
                                              ("utf8_valid", "false"), ("marker_pattern", '"…\\\\[cut\\\\]$"')])
def test_a_wrong_attribute_truncation_fails_at_its_property(tmp_path, target_spec, property_, value):
    """Fault in the fixture: one truncation property of the input-messages attribute no longer
    describes what the runtime emitted, so the case fails there, naming the property."""
    text = target_text(OBS, F014)
    line = line_of(text, f"{property_}:", after="attribute_truncation:")
    [result] = run_text(tmp_path, replace_value(text, line, property_, value), OBS, F014)
    failed_at(result, line)
    assert f"attribute_truncation.openarmature.llm.input.messages.{property_}" in result.reason, result.reason


def test_the_attribute_truncation_case_passes(tmp_path, target_spec):
    [result] = run_text(tmp_path, target_text(OBS, F014), OBS, F014)
    assert result.outcome == "passed", result.reason


def test_every_rule_class_overrides_evaluate_and_none_check():
    """One rule protocol: a rule implements ``evaluate``; ``Rule.check`` alone wraps it, so what a
    rule needs and the trace lacks (a ``LookupError``) fails its check the same way for every rule."""
    from oa_conformance.assertions import assert_pass  # noqa: F401 (loads every rule module)
    from oa_conformance.assertions.rules import Rule

    def below(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)

    classes = {c for c in below(Rule) if c.__module__.startswith("oa_conformance.")}
    assert len(classes) > 30
    assert sorted(c.__qualname__ for c in classes if "check" in vars(c)) == []
    assert sorted(c.__qualname__ for c in classes if not c.__subclasses__() and c.evaluate is Rule.evaluate) == []
