"""A plain scalar means one thing to a YAML 1.1 reader and another to a YAML 1.2 reader.

## What it does
Reports an unquoted scalar whose value under YAML 1.1 (PyYAML's default resolver: `yes`/`on`/`off`
are booleans, `012` is octal, `1:20` is sexagesimal, `2024-01-01` a date, `1_000` an int) differs
from its value under the YAML 1.2 core schema, which the adapter uses.

## Why is this bad?
Fixtures are a cross-language contract: a reader in another language, or one on the older
dialect, would see another value, and a case's meaning would depend on the YAML library. Quoting
the scalar (or writing it the way both dialects agree on) removes the ambiguity.

## Example
Bad:
```yaml
expected:
  final_state: {answer: yes, mode: 012}
```
Good:
```yaml
expected:
  final_state: {answer: "yes", mode: 12}
```
"""

from __future__ import annotations

import os
from functools import lru_cache, partial
from typing import Iterator

import yaml

from ...ast.loader import _plain_resolver, core_value, max_fixture_bytes
from ...diagnostics import Span
from ..context import FileContext, Finding

CODE = "Y007"
NAME = "scalar-dialect"
SEVERITY = "warning"
KIND = "file"

_yaml11 = yaml.constructor.SafeConstructor()
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_Reader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Yaml11Composer(_Reader):  # type: ignore[misc,valid-type]
    """PyYAML's YAML 1.1 composer, with the per-node Python calls that cost most made cheap: the
    implicit resolver memoised per (kind, value, implicit), the path-resolver hooks (unused by the
    safe loader) replaced by C built-ins that do nothing, as the adapter's own loader does."""

    resolve = staticmethod(lru_cache(maxsize=1 << 16)(partial(yaml.resolver.Resolver.resolve, _Reader(""))))
    descend_resolver = staticmethod(slice)
    ascend_resolver = staticmethod(tuple)


def check(file: FileContext) -> Iterator[Finding]:
    if not os.path.isfile(file.path) or os.path.getsize(file.path) > max_fixture_bytes():
        return  # a FIFO would block, a huge file is refused: Y006 reports both

    try:
        with open(file.path, "rb") as handle:
            loader = _Yaml11Composer(handle.read().decode("utf-8-sig"))
            try:
                node = loader.get_single_node()
            finally:
                loader.dispose()
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return  # the loader's own rules report an unreadable file
    yield from _differing(file.path, node)


def _differing(path: str, root) -> Iterator[Finding]:
    """Every plain scalar under ``root`` whose YAML 1.1 value differs from its YAML 1.2 one, in
    document order; one walk with an explicit stack, each (possibly aliased) node once."""
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.style or node.tag == _MERGE:  # only plain scalars are resolved (style None or "")
                continue
            new_tag = _plain_resolver.resolve(yaml.ScalarNode, node.value, (True, False))
            if node.tag == _STR and new_tag == _STR:
                continue  # a string in both dialects: the same text
            old = _yaml11.construct_object(node, deep=True)
            new = core_value(new_tag, node.value)
            if not _same(old, new):
                mark = node.start_mark
                yield Finding(Span(path, mark.line + 1, mark.column + 1),
                              f"plain scalar {node.value!r} is {new!r} in YAML 1.2 (what the adapter reads) but "
                              f"{old!r} in YAML 1.1; quote it or write it unambiguously")
            continue
        children = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
        stack.extend(reversed(children))


def _same(old, new) -> bool:
    if isinstance(old, float) and isinstance(new, float) and old != old:
        return new != new
    return type(old) is type(new) and old == new
