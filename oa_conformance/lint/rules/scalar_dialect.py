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
try:
    _Reader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Reader = yaml.SafeLoader  # type: ignore[misc]


def check(file: FileContext) -> Iterator[Finding]:
    if not os.path.isfile(file.path) or os.path.getsize(file.path) > max_fixture_bytes():
        return  # a FIFO would block, a huge file is refused: Y006 reports both

    try:
        with open(file.path, "rb") as handle:
            node = yaml.compose(handle.read().decode("utf-8-sig"), Loader=_Reader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return  # the loader's own rules report an unreadable file
    yield from _differing(file.path, node, set())


def _differing(path: str, node, seen: set[int]) -> Iterator[Finding]:
    if node is None or id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        if not node.style and node.tag != "tag:yaml.org,2002:merge":  # plain: None, or "" from libyaml
            old = _yaml11.construct_object(node, deep=True)
            new = core_value(_plain_resolver.resolve(yaml.ScalarNode, node.value, (True, False)), node.value)
            if not _same(old, new):
                mark = node.start_mark
                yield Finding(Span(path, mark.line + 1, mark.column + 1),
                              f"plain scalar {node.value!r} is {new!r} in YAML 1.2 (what the adapter reads) but "
                              f"{old!r} in YAML 1.1; quote it or write it unambiguously")
        return
    children = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
    for child in children:
        yield from _differing(path, child, seen)


def _same(old, new) -> bool:
    if isinstance(old, float) and isinstance(new, float) and old != old:
        return new != new
    return type(old) is type(new) and old == new
