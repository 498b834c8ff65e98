"""Packaging facts the project promises: layout, stdlib `ast` never shadowed, declared versions."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import oa_conformance
from oa_conformance.model.version import TARGET_SPEC_VERSION

from .conftest import REPO

PROBE = "import ast, sys; print(ast.__file__); assert hasattr(ast, 'parse') and hasattr(ast, 'NodeVisitor')"


def test_subpackages_live_inside_one_import_package():
    package = os.path.dirname(oa_conformance.__file__)
    for name in ("grammar", "ast", "interpreter", "assertions"):
        assert os.path.isfile(os.path.join(package, name, "__init__.py")), name
    assert not os.path.exists(REPO / "ast") and not os.path.exists(REPO / "grammar")


def run_probe(cwd, extra_path=None):
    env = dict(os.environ)
    if extra_path:
        env["PYTHONPATH"] = extra_path
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_ast_is_the_standard_library_everywhere(tmp_path):
    stdlib = os.path.dirname(os.__file__)
    # from the repo root (with or without it on PYTHONPATH), from tests/, and installed (elsewhere)
    for cwd, extra in ((REPO, None), (REPO, str(REPO)), (REPO / "tests", str(REPO)), (tmp_path, None)):
        assert run_probe(cwd, extra).startswith(stdlib), (cwd, extra)
    done = subprocess.run([sys.executable, "-c", "import oa_conformance.ast as a; print(a.__file__)"], cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip().endswith(os.path.join("oa_conformance", "ast", "__init__.py"))
    # under pytest, in this very process
    import ast

    assert ast.__file__.startswith(stdlib)


def test_pyproject_declares_the_target_spec_version_and_the_runtime_range():
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert data["tool"]["openarmature"]["spec_version"] == TARGET_SPEC_VERSION == "0.118.2"
    dependencies = data["project"]["dependencies"]
    assert "openarmature[otel,langfuse]>=0.16,<0.18" in dependencies
    for name in ("lark", "pyrsistent", "PyYAML", "opentelemetry-sdk", "pytest"):
        assert any(dep.startswith(name) for dep in dependencies), name
    assert data["project"]["requires-python"] == ">=3.12"


def test_the_c_loader_is_in_use():
    import yaml

    from oa_conformance.interpreter.static import yaml_compose

    assert yaml.__with_libyaml__ and issubclass(yaml_compose._Composer, yaml.CSafeLoader)


# Imports each module of the package first, as a fresh interpreter would: the package's own modules
# are dropped from sys.modules before each one (third-party modules stay cached; import cycles are
# among our modules), so a module that only imports when another was imported before it fails here.
EACH_MODULE_FIRST = """
import importlib, pkgutil, sys, traceback
import oa_conformance
names = sorted(m.name for m in pkgutil.walk_packages(oa_conformance.__path__, "oa_conformance."))
failed = []
for name in names:
    for loaded in [m for m in sys.modules if m == "oa_conformance" or m.startswith("oa_conformance.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception:
        failed.append(name + ": " + traceback.format_exc().strip().splitlines()[-1])
print(len(names))
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def test_every_module_imports_first():
    done = subprocess.run([sys.executable, "-c", EACH_MODULE_FIRST], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert int(done.stdout.split()[0]) > 50  # the walk found the package's modules


# The host binding (oa_conformance/host/) is the one part of the package that imports openarmature;
# nothing anywhere imports a private openarmature name (a leading underscore in the module path or
# the imported name), and the binding names none as an optional() lookup either.
PACKAGE_DIR = Path(oa_conformance.__file__).parent
HOST_DIR = PACKAGE_DIR / "host"


def _runtime_imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """``(line, module, imported names)`` of each openarmature import (and each
    ``optional("openarmature…", name)`` / ``import_module("openarmature…")`` lookup) in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names if alias.name.split(".")[0] == "openarmature"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "openarmature":
            found.append((node.lineno, node.module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in ("optional", "import_module"):
            strings = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
            if strings and strings[0].split(".")[0] == "openarmature":
                found.append((node.lineno, strings[0], strings[1:]))
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_only_the_host_binding_imports_openarmature():
    outside = [f"{path.relative_to(PACKAGE_DIR)}:{line}: {module}" for path in PACKAGE_DIR.rglob("*.py")
               if HOST_DIR not in path.parents for line, module, _ in _runtime_imports(path)]
    assert outside == []
    assert any(_runtime_imports(path) for path in HOST_DIR.glob("*.py"))  # the check can see an import


def test_no_private_openarmature_name_is_imported():
    private = [f"{path.relative_to(PACKAGE_DIR)}:{line}: {module} {names}" for path in PACKAGE_DIR.rglob("*.py")
               for line, module, names in _runtime_imports(path)
               if any(_private(part) for part in module.split(".")) or any(_private(name) for name in names)]
    assert private == []


def test_the_binding_tables_name_no_private_runtime_name():
    import importlib

    tables = {path.stem: importlib.import_module(f"oa_conformance.host.{path.stem}") for path in HOST_DIR.glob("*.py")}
    tables = {name: module.RUNTIME for name, module in tables.items() if hasattr(module, "RUNTIME")}
    assert {"graph", "llm", "retrieval", "prompts", "observability", "checkpoint"} <= set(tables)
    private = [(area, name, module) for area, table in tables.items() for name, module in table.items()
               if _private(name) or any(_private(part) for part in module.split("."))]
    assert private == []
    assert all(module.split(".")[0] == "openarmature" for table in tables.values() for module in table.values())


def test_the_import_checks_see_what_they_forbid(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import openarmature\nfrom openarmature.prompts.backends.filesystem import _sampling_from_dict\n"
                      "def f():\n    from openarmature._usage import x\n    return optional('openarmature.graph', '_nodes')\n")
    found = _runtime_imports(sample)
    assert [line for line, _, _ in found] == [1, 2, 4, 5]
    assert sum(any(_private(p) for p in module.split(".")) or any(map(_private, names)) for _, module, names in found) == 3
