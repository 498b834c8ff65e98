"""Packaging facts the project promises: layout, stdlib `ast` never shadowed, declared versions."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib

import oa_conformance
from oa_conformance.version import TARGET_SPEC_VERSION

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


def test_pyproject_declares_the_target_spec_version_and_the_pinned_runtime():
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert data["tool"]["openarmature"]["spec_version"] == TARGET_SPEC_VERSION == "0.118.2"
    dependencies = data["project"]["dependencies"]
    assert "openarmature[otel,langfuse]==0.17.0" in dependencies
    for name in ("lark", "pyrsistent", "PyYAML", "opentelemetry-sdk", "pytest"):
        assert any(dep.startswith(name) for dep in dependencies), name
    assert data["project"]["requires-python"] == ">=3.12"


def test_the_c_loader_is_in_use():
    import yaml

    from oa_conformance.ast import loader

    assert yaml.__with_libyaml__ and issubclass(loader._Composer, yaml.CSafeLoader)


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
