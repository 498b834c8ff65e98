"""The package's layers: no import cycle between its first-level parts, no module too long to read.

A first-level part is a subpackage (``interpreter``, ``assertions`` …) or a top-level module
(``pipeline``, ``results`` …). Every import counts, at any depth of a module (a deferred import in a
function, one under ``TYPE_CHECKING``): a cycle between two parts means neither can be read, moved
or tested without the other.
"""

from __future__ import annotations

import ast
import os
from collections import defaultdict
from pathlib import Path


import oa_conformance
from tools import generate_views

PACKAGE = Path(oa_conformance.__file__).parent
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def modules() -> list[tuple[str, Path]]:
    """Every module of the package as (dotted name, path)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), path))
    return found


def part_of(module: str) -> str:
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else pieces[0]


def imports_of(module: str, path: Path, names: frozenset[str] = frozenset()) -> list[tuple[str, int]]:
    """The package modules ``module`` imports, each with the line of its import (``from .pkg import
    name`` is ``pkg.name`` when that is one of ``names``, the modules known)."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.extend((f"{target}.{alias.name}" if f"{target}.{alias.name}" in names else target, node.lineno)
                         for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
    return [(target, line) for target, line in found if target.split(".")[0] == PACKAGE.name]


def part_graph(sources: list[tuple[str, Path]]) -> dict[str, dict[str, list[str]]]:
    """part → the parts it imports → the import lines (``path:line: module -> target``) doing it."""
    graph: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for module, path in sources:
        for target, line in imports_of(module, path):
            source, imported = part_of(module), part_of(target)
            if source != imported:
                graph[source][imported].append(f"{os.path.relpath(path)}:{line}: {module} -> {target}")
    return graph


def cycles(graph: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """Each strongly connected group of more than one part (Tarjan), as its sorted part names."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(part: str) -> None:
        index[part] = low[part] = len(index)
        stack.append(part)
        for other in graph.get(part, {}):
            if other not in index:
                visit(other)
                low[part] = min(low[part], low[other])
            elif other in stack:
                low[part] = min(low[part], index[other])
        if low[part] == index[part]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == part:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for part in sorted(graph):
        if part not in index:
            visit(part)
    return groups


def describe(group: list[str], graph: dict[str, dict[str, list[str]]]) -> str:
    lines = [" <-> ".join(group)]
    for source in group:
        for imported in group:
            lines.extend(f"    {edge}" for edge in graph.get(source, {}).get(imported, ()))
    return "\n".join(lines)


def assert_acyclic(graph: dict[str, dict[str, list[str]]], what: str) -> None:
    found = cycles(graph)
    assert not found, f"import cycles between {what}:\n" + "\n".join(describe(group, graph) for group in found)


def tiny_package(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, Path]]:
    """A throwaway package named like ours: ``files`` (path relative to it → text), as sources."""
    package = tmp_path / PACKAGE.name
    sources = []
    for relative, text in {"__init__.py": "", **files}.items():
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        parts = Path(relative).with_suffix("").parts
        sources.append((".".join((PACKAGE.name, *(parts[:-1] if parts[-1] == "__init__" else parts))), path))
    return sources[1:]


def test_no_import_cycle_between_first_level_parts():
    assert_acyclic(part_graph(modules()), "first-level parts")


def test_the_cycle_check_finds_a_cycle_and_names_its_import_lines(tmp_path):
    """The check above can fail: two parts importing each other are one group, with both lines."""
    sources = tiny_package(tmp_path, {"alpha/__init__.py": "", "alpha/one.py": "import os\nfrom ..beta import thing\n",
                                      "beta.py": "def later():\n    from .alpha.one import other\n",
                                      "gamma.py": "from . import beta\n"})[1:]  # gamma imports into the cycle, is not in it
    graph = part_graph(sources)
    assert cycles(graph) == [["alpha", "beta"]]
    text = describe(["alpha", "beta"], graph)
    assert "one.py:2:" in text and "beta.py:2:" in text and "gamma" not in text


def test_no_module_over_600_lines():
    """Hand-written modules only: the generated views (``tools/generate_views.py``) are one class per
    family, read by their generator's test, not edited by hand."""
    long = {os.path.relpath(path): count for _, path in modules()
            if path != generate_views.VIEWS and (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def long_functions(path: Path) -> list[str]:
    """The functions and methods of a module over :data:`MAX_FUNCTION_LINES` lines (decorators
    aside, docstring included), as ``file:line: name (N lines)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{os.path.relpath(path)}:{node.lineno}: {node.name} ({length} lines)" for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (length := node.end_lineno - node.lineno + 1) > MAX_FUNCTION_LINES]


def test_no_function_over_80_lines():
    long = [found for _, path in modules() for found in long_functions(path)]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_the_function_length_check_finds_a_long_method(tmp_path):
    module = tmp_path / "m.py"
    body = "".join(f"        x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    module.write_text(f"class C:\n    def short(self):\n        return 1\n\n    def long(self):\n{body}")
    assert [found.split(": ", 1)[1] for found in long_functions(module)] == [f"long ({MAX_FUNCTION_LINES + 1} lines)"]


# Decorators that wrap the function they decorate and register nothing anywhere.
WRAPPING_DECORATORS = frozenset(("dataclass", "dataclasses.dataclass", "lru_cache", "functools.lru_cache", "cache",
                                 "contextmanager", "contextlib.contextmanager", "asynccontextmanager",
                                 "contextlib.asynccontextmanager", "property", "staticmethod", "classmethod",
                                 "pytest.hookimpl", "v_args", "_output_as_notes"))


def registrations_at_import(path: Path) -> list[str]:
    """What a module does at import to a table it does not own: a module-level decorator outside
    :data:`WRAPPING_DECORATORS` (``@shape``, ``@predicate``, ``@node_directive``), or a module-level
    call on a name the module imported (``register(x)``, ``other.TABLE.append(x)``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {alias.asname or alias.name.split(".")[0]
                for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                name = ast.unparse(decorator.func if isinstance(decorator, ast.Call) else decorator)
                if name not in WRAPPING_DECORATORS:
                    found.append(f"{path.name}:{decorator.lineno}: @{name}")
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            root = node.value.func
            while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
                root = root.value if not isinstance(root, ast.Call) else root.func
            if isinstance(root, ast.Name) and root.id in imported:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:60]}")
    return found


def test_no_registration_by_import_side_effect():
    """Every registry is an explicit table in its package (``lint/rules/__init__.py``,
    ``interpreter/running/node_table.py``, ``assertions/shapes/__init__.py``, ``assertions/catalogue/__init__.py``):
    importing a module never adds an entry to another module's table."""
    found = [entry for _, path in modules() for entry in registrations_at_import(path)]
    assert not found, "registration at import:\n" + "\n".join(found)


def test_the_registration_check_finds_decorators_and_calls(tmp_path):
    module = tmp_path / "rules.py"
    module.write_text("from .table import register, TABLE\n\n@register('x')\ndef x(): pass\n\nTABLE.append(x)\n"
                      "@dataclass(frozen=True)\nclass Fine: pass\nOWN = []\nOWN.append(1)\n")
    assert registrations_at_import(module) == ["rules.py:3: @register", "rules.py:6: TABLE.append(x)"]


# The static parts read fixtures, prose or run reports and never run anything: nothing they import, at
# any depth (a deferred import counts), reaches the runtime binding, the passes that run a case, or
# openarmature. (`frontends/pages` renders the JSON documents the commands write: it imports no other part.)
STATIC_PARTS = ("frontends.coverage", "frontends.pages", "interpreter.static")
RUNNING = ("host", "scheduling", "pipeline", "assertions", "interpreter.running")


def in_folder(module: str, folder: str) -> bool:
    """``module`` (dotted, with the package) is ``folder`` (dotted, without it) or inside it."""
    return module == f"{PACKAGE.name}.{folder}" or module.startswith(f"{PACKAGE.name}.{folder}.")


def reached_from(part: str, sources: list[tuple[str, Path]]) -> dict[str, str]:
    """Every module a part's modules import, transitively: module → the import line that first reached it."""
    by_name = dict(sources)
    todo = [name for name, _ in sources if in_folder(name, part)]
    reached: dict[str, str] = {}
    while todo:
        module = todo.pop()
        path = by_name.get(module)
        if path is None:
            continue
        for target, line in imports_of(module, path):
            for name in (target, target.rsplit(".", 1)[0]):  # `from .x import y`: y may be a module or a name
                if name in by_name and name not in reached:
                    reached[name] = f"{os.path.relpath(path)}:{line}"
                    todo.append(name)
    return reached


def test_the_static_parts_reach_no_running_part():
    sources = modules()
    for part in STATIC_PARTS:
        reached = reached_from(part, sources)
        bad = {m: where for m, where in reached.items() if any(in_folder(m, r) for r in RUNNING)}
        assert not bad, f"{part} reaches the running parts: {bad}"
        for module, path in sources:
            if in_folder(module, part):
                assert "openarmature" not in {n.split(".")[0] for n in _plain_imports(path)}, module


def _plain_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names] + \
           [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 0]


def test_the_assertion_layer_imports_nothing_from_execution():
    """The assert pass judges a recorded trace: what it needs from execution travels in the trace
    (``CaseTrace.facts``) or comes from the vocabulary, never from ``interpreter/`` or ``host/``."""
    found = [f"{os.path.relpath(path)}:{line}: {module} -> {target}" for module, path in modules()
             if part_of(module) == "assertions" for target, line in imports_of(module, path)
             if part_of(target) in ("interpreter", "host")]
    assert not found, "the assertion layer reaches into execution:\n" + "\n".join(found)


def test_importing_the_assert_pass_loads_no_runtime():
    """Importing the assert pass (and every shape and catalogue row it reads) loads no openarmature
    module and no module of the execution layers."""
    import subprocess
    import sys

    code = ("import sys, oa_conformance.assertions.assert_pass\n"
            "print('\\n'.join(sorted(m for m in sys.modules if m.split('.')[0] == 'openarmature'"
            " or m.startswith(('oa_conformance.interpreter', 'oa_conformance.host')))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert loaded == [], f"importing the assert pass loaded: {loaded}"


def module_graph(sources: list[tuple[str, Path]]) -> dict[str, dict[str, list[str]]]:
    """module → the package modules it imports (at any depth: a function's deferred import counts)
    → the import lines. Importing ``a.b.c`` also runs ``a.b``'s ``__init__``: an edge too, unless the
    importer is itself inside ``a.b`` (its package is already being imported)."""
    names = frozenset(module for module, _ in sources)
    graph: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for module, path in sources:
        for target, line in imports_of(module, path, names):
            while target not in names and "." in target:
                target = target.rsplit(".", 1)[0]
            ancestors = [target.rsplit(".", k)[0] for k in range(1, target.count("."))]
            for imported in [target] + [a for a in ancestors if not (module + ".").startswith(a + ".")]:
                if imported in names and imported != module:
                    graph[module][imported].append(f"{os.path.relpath(path)}:{line}: {module} -> {imported}")
    return graph


def test_no_import_cycle_between_modules():
    """Not even through an import deferred into a function: a module that needs a table listing it
    is handed the table (``NodeContext.steps``, ``ShapeRow(nested=True)``) instead of importing it."""
    assert_acyclic(module_graph(modules()), "modules")


def test_the_module_cycle_check_counts_deferred_imports_and_package_inits(tmp_path):
    sources = tiny_package(tmp_path, {"alpha/__init__.py": "from . import one\n", "alpha/one.py": "def f():\n    from . import two\n",
                                      "alpha/two.py": "from ..beta import later\n",
                                      "beta.py": "def later():\n    from .alpha.one import x\n"})  # runs alpha/__init__ too
    graph = module_graph(sources)
    found = cycles(graph)
    assert [[m.split(".", 1)[1] for m in group] for group in found] == [["alpha", "alpha.one", "alpha.two", "beta"]]
    assert "beta.py:2:" in describe(found[0], graph) and "one.py:2:" in describe(found[0], graph)


# The first-level parts, lowest first (the layers above): a lazy import may only point down. Each is a
# folder but ``pipeline``, the one module that chains the passes, and the package's own ``__init__``
# (empty: importing it runs nothing).
LAYERS = [("oa_conformance", "model"), ("ast", "grammar"), ("host",), ("interpreter",), ("assertions",),
          ("verdicts", "pipeline"), ("scheduling",), ("frontends",)]


def test_every_layer_is_a_folder_and_the_root_holds_at_most_three_modules():
    root_modules = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root_modules) <= 3, root_modules
    folders = {part for parts in LAYERS for part in parts} - {"pipeline", PACKAGE.name}
    assert all((PACKAGE / folder / "__init__.py").is_file() for folder in folders), folders


def test_deferred_imports_point_down_the_layers():
    """An import inside a function (kept for start-up speed) never reaches a higher layer."""
    level = {part: index for index, parts in enumerate(LAYERS) for part in parts}
    assert {part_of(module) for module, _ in modules()} <= set(level), "a first-level part missing from LAYERS"
    found = []
    names = frozenset(module for module, _ in modules())
    for module, path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    for target, line in imports_of(module, path):
                        if line == node.lineno and level.get(part_of(target), 0) > level.get(part_of(module), 0):
                            found.append(f"{os.path.relpath(path)}:{line}: {module} -> {target}")
    assert not found, "deferred imports reaching up the layers:\n" + "\n".join(sorted(set(found)))


# Capability-named modules stand in parallel rooms on purpose (one capability, one role per room:
# vocabulary/graph_engine.py, shapes/graph_engine.py, …); any other module name says one thing.
CAPABILITY_ROOMS = frozenset(("vocabulary", "shapes", "catalogue", "capabilities"))


def test_one_name_one_thing():
    """No class name is defined twice in the package, and no module name is used for two things
    (capability-named modules in their parallel rooms aside)."""
    classes: dict[str, list[str]] = defaultdict(list)
    stems: dict[str, list[str]] = defaultdict(list)
    for module, path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                classes[node.name].append(module)
        if path.stem != "__init__" and path.parent.name not in CAPABILITY_ROOMS:
            stems[path.stem].append(module)
    assert {name: where for name, where in classes.items() if len(where) > 1} == {}
    assert {name: where for name, where in stems.items() if len(where) > 1} == {}
