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
    assert data["tool"]["openarmature"]["spec_version"] == TARGET_SPEC_VERSION == "0.109.0"
    dependencies = data["project"]["dependencies"]
    assert "openarmature[otel,langfuse]==0.17.0" in dependencies
    for name in ("lark", "pyrsistent", "PyYAML", "opentelemetry-sdk", "pytest"):
        assert any(dep.startswith(name) for dep in dependencies), name
    assert data["project"]["requires-python"] == ">=3.12"


def test_the_c_loader_is_in_use():
    import yaml

    from oa_conformance.ast import loader

    assert yaml.__with_libyaml__ and issubclass(loader._Composer, yaml.CSafeLoader)
