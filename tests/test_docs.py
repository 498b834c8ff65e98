"""The docs name what exists: every package path and dotted name in README.md and docs/*.md resolves.

An inline code span (`...`, outside fenced blocks) is checked when it is one of:
- a repository path (``oa_conformance/...``, ``tests/...``, ``tools/...``, ``docs/...``, ``benchmarks/...``):
  it must exist;
- a path inside the package written from a room (``interpreter/static/loader.py``, ``capabilities/captures.py``)
  or a module file (``pipeline.py``): some package path must end with it;
- a dotted name whose first part is a module or package of ``oa_conformance``
  (``pipeline.run_case``, ``report_diff.read_document``, ``oa_conformance.model.vocabulary``): the longest
  module prefix must import and the rest be its attributes, for at least one module of that name.
Paths of the runtime are written ``openarmature/...`` and are not ours. ``ALLOWED`` lists the few deliberate
placeholders and examples; keep it small.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "oa_conformance"
REPO_ROOTS = ("oa_conformance/", "tests/", "tools/", "docs/", "benchmarks/", ".ci/")

# Deliberate examples that name nothing real.
ALLOWED = frozenset({
    "vocabulary/<capability>.py",           # a placeholder for a capability's module
    "assertions/shapes/<concern>.py",       # a placeholder for a concern's module
    "assertions/catalogue/<capability>.py",
    "capabilities/<capability>.py",
    "catalogue/<capability>.py",
})

# Trace document paths (docs/TRACE.md) whose collection is named like a module of ours.
NOT_MODULES = frozenset({"wire.requests", "prompts.fetches", "prompts.fetch_counts"})

FILE = re.compile(r"\S+\.(py|toml|md|html|lark|js|css|png|json|yaml)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?")
PATH = re.compile(r"[\w.\-]+(?:/[\w.\-<>]+)*/?")


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def spans(text: str) -> list[tuple[int, str]]:
    """The inline code spans with their line numbers, fenced blocks left out."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return [(text.count("\n", 0, m.start()) + 1, m.group(1).strip()) for m in SPAN.finditer(text)]


@cache
def package_paths() -> tuple[str, ...]:
    """Every file and folder of the package, relative to the repository ("oa_conformance/ast/nodes.py")."""
    found = []
    for path in PACKAGE.rglob("*"):
        if "__pycache__" not in path.parts:
            found.append(path.relative_to(REPO).as_posix() + ("/" if path.is_dir() else ""))
    return tuple(found)


@cache
def module_names() -> dict[str, tuple[str, ...]]:
    """Last dotted part of every module and package → their qualified names."""
    names: dict[str, list[str]] = {}
    for path in package_paths():
        if path.endswith(".py"):
            dotted = path[: -len(".py")].replace("/", ".").removesuffix(".__init__")
        elif path.endswith("/"):
            dotted = path[:-1].replace("/", ".")
        else:
            continue
        names.setdefault(dotted.rsplit(".", 1)[-1], []).append(dotted)
    return {name: tuple(qualified) for name, qualified in names.items()}


def path_problem(span: str) -> str | None:
    """Why a path span does not resolve, or None (also for a span that is not one of ours)."""
    if span.startswith(REPO_ROOTS):
        return None if (REPO / span).exists() else "no such path"
    rooms = {p.rstrip("/").rsplit("/", 1)[-1] for p in package_paths() if p.endswith("/")}
    if span.endswith(".py") or ("/" in span and span.split("/", 1)[0] in rooms):
        suffix = "/" + span.rstrip("/")
        if any(("/" + p.rstrip("/")).endswith(suffix) for p in package_paths()):
            return None
        return "no package path ends with it"
    return None


def resolves(qualified: str, attributes: list[str]) -> bool:
    try:
        target = importlib.import_module(qualified)
    except ImportError:
        return False
    for attribute in attributes:
        if not hasattr(target, attribute):
            # a submodule not imported by its package yet
            try:
                target = importlib.import_module(f"{target.__name__}.{attribute}")
                continue
            except (ImportError, AttributeError):
                return False
        target = getattr(target, attribute)
    return True


def dotted_problem(span: str) -> str | None:
    """Why a dotted name under the package does not resolve, or None (also when it is not ours)."""
    parts = span.removesuffix("()").split(".")
    if parts[0] == "oa_conformance":
        for cut in range(len(parts), 0, -1):
            if resolves(".".join(parts[:cut]), parts[cut:]):
                return None
        return "does not import"
    candidates = module_names().get(parts[0])
    if not candidates:
        return None  # not a module of ours: a JSON field, a class attribute, another library
    for qualified in candidates:
        # `a.b.c`: a.b may itself be a submodule of a
        for cut in range(len(parts), 0, -1):
            if resolves(".".join([qualified, *parts[1:cut]]), parts[cut:]):
                return None
    return f"no attribute of {', '.join(candidates)}"


def path_dotted_problem(span: str) -> str | None:
    """``frontends/cli/files.write_whole``: a module written as a path, then its attributes."""
    module, *attributes = span.removesuffix("()").split(".")
    suffix = "/" + module.removeprefix("oa_conformance/")
    qualified = [p[: -len(".py")].replace("/", ".").removesuffix(".__init__") for p in package_paths()
                 if ("/" + p).endswith(suffix + ".py")]
    qualified += [p.rstrip("/").replace("/", ".") for p in package_paths() if ("/" + p.rstrip("/")).endswith(suffix)]
    if not qualified:
        return "no package path ends with it"
    if any(resolves(name, attributes) for name in qualified):
        return None
    return f"no attribute of {', '.join(qualified)}"


def problem(span: str) -> str | None:
    if span in ALLOWED or span in NOT_MODULES or span.startswith(("openarmature/", "../", "/")):
        return None
    if "/" in span and re.fullmatch(r"[\w/]+(?:\.[A-Za-z_]\w*)+(?:\(\))?", span) and not FILE.fullmatch(span):
        return path_dotted_problem(span)
    if FILE.fullmatch(span) or "/" in span:
        return path_problem(span) if PATH.fullmatch(span) else None
    if DOTTED.fullmatch(span):
        return dotted_problem(span)
    return None


def unresolved(files: list[Path]) -> list[str]:
    wrong = []
    for path in files:
        for line, span in spans(path.read_text(encoding="utf-8")):
            why = problem(span)
            if why:
                wrong.append(f"{path.relative_to(path.parents[1]) if path.parent.name == 'docs' else path.name}:{line}: `{span}`: {why}")
    return wrong


def test_every_name_the_docs_mention_resolves():
    wrong = unresolved(doc_files())
    assert not wrong, "\n".join(wrong)


def test_the_checker_sees_names_that_do_not_exist(tmp_path):
    page = tmp_path / "PAGE.md"
    page.write_text(
        "A missing module `oa_conformance.interpreter.nowhere`, a missing function `pipeline.run_nothing`,\n"
        "a missing path `oa_conformance/nowhere/`, a stale room `interpreter/capabilities/llm_provider.py`,\n"
        "a missing file `tests/test_nothing.py`.\n"
        "```\nfenced `pipeline.run_nothing` is not read\n```\n"
        "Real ones: `pipeline.run_case`, `oa_conformance/pipeline.py`, `capabilities/captures.py`,\n"
        "`oa_conformance.frontends.cli`, `report_diff.read_document`, `frontends/cli/files.write_whole`,\n"
        "`frontends/cli/files.nothing_here`, and `host.version` is not a module attribute.\n",
        encoding="utf-8",
    )
    found = [entry.split(": `", 1)[1].split("`", 1)[0] for entry in unresolved([page])]
    assert found == [
        "oa_conformance.interpreter.nowhere", "pipeline.run_nothing", "oa_conformance/nowhere/",
        "interpreter/capabilities/llm_provider.py", "tests/test_nothing.py", "frontends/cli/files.nothing_here",
        "host.version",
    ]


@pytest.mark.parametrize("span", sorted(ALLOWED))
def test_the_allowlist_holds_only_placeholders(span):
    assert "<" in span, "an allowed span is a placeholder, not a real name"


def test_the_results_table_counts_outcomes_and_fully_passing_fixtures():
    from tools.results_table import table

    def case(fixture, outcome, category=None):
        return {"fixture": f"{fixture.split('/')[0]}/conformance/{fixture.split('/')[1]}.yaml", "outcome": outcome,
                "category": category}

    report = {"cases": [case("graph-engine/001-a", "passed"), case("graph-engine/001-a", "xfail"),
                        case("graph-engine/002-b", "passed"), case("llm-provider/001-c", "failed", "not_implemented"),
                        case("llm-provider/002-d", "passed"), case("llm-provider/002-d", "xpass")]}
    lines = table(report).splitlines()
    assert lines[2] == "| graph-engine | 2 | 0 | 0 | 0 | 0 | 1 | 0 | 1 / 2 |"
    assert lines[3] == "| llm-provider | 1 | 0 | 1 | 0 | 0 | 0 | 1 | 0 / 2 |"
    assert lines[4] == "| total | 3 | 0 | 1 | 0 | 0 | 1 | 1 | 1 / 4 |"
    assert lines[-1] == "2 fixtures have a passing case and none failing, erroring or xpassing."


def test_the_readme_stays_a_newcomers_page():
    lines = (REPO / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 200, f"README.md has {lines} lines: move reference material to docs/ (issue 33: at most 200)"
