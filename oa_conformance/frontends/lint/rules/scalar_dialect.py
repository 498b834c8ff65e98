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

import operator
import re
from itertools import chain
from functools import lru_cache, partial
from typing import Iterator

import yaml

from ....interpreter.static.yaml_compose import CORE_SCALAR_TAGS, IntegerTooLong, core_value, may_alias
from ....model.diagnostics import span_at
from ..context import DocumentContext, Finding

CODE = "Y007"
NAME = "scalar-dialect"
SEVERITY = "warning"
KIND = "document"

_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"
_ScalarNode = yaml.ScalarNode
_SequenceNode = yaml.SequenceNode
_Reader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_yaml11_tag = lru_cache(maxsize=1 << 16)(partial(yaml.resolver.Resolver.resolve, _Reader("")))

# Where YAML can put a tag (``!!str yes``, ``!local``): at the start of a node — after a space, a
# flow indicator, a colon or at the very start. An untagged plain scalar's YAML 1.2 tag (in the
# loader's composed document) and its YAML 1.1 tag both follow from its text alone; a tagged one's
# YAML 1.1 tag is its explicit tag, so a text that may hold one is also composed the YAML 1.1 way
# and the two node graphs are walked side by side (one corpus file, for a `!` inside a string).
_TAG = re.compile(r"(?:\A|[\s\[{,:])!")


class _Yaml11Composer(_Reader):  # type: ignore[misc,valid-type]
    """PyYAML's YAML 1.1 composer, with the per-node Python calls that cost most made cheap: the
    implicit resolver memoised, the path-resolver hooks (unused by the safe loader) replaced by C
    built-ins that do nothing, as the adapter's own loader does."""

    resolve = staticmethod(_yaml11_tag)
    descend_resolver = staticmethod(operator.is_)
    ascend_resolver = staticmethod(tuple)


def check(document: DocumentContext) -> Iterator[Finding]:
    shared = may_alias(document.text)
    if "!" not in document.text or _TAG.search(document.text) is None:  # `in` first: the regex scans slowly
        found = [(node, differs) for node in _plain_scalars(document.root, shared)
                 if (differs := _untagged(node.tag, node.value)) is not None]
    else:
        loader = _Yaml11Composer(document.text)
        try:
            yaml11_root = loader.get_single_node()
        finally:
            loader.dispose()
        # The same text composed twice has the same shape: the n-th plain scalars are the same scalar.
        pairs = zip(_plain_scalars(document.root, shared), _plain_scalars(yaml11_root, shared))
        found = [(node, differs) for node, yaml11_node in pairs
                 if (differs := _compare(yaml11_node.tag, node.tag, node.value)) is not None]
    for node, (new, old) in found:
        mark = node.start_mark
        yield Finding(span_at(document.path, mark.line, mark.column),
                      f"plain scalar {node.value!r} is {new!r} in YAML 1.2 (what the adapter reads) but "
                      f"{old!r} in YAML 1.1; quote it or write it unambiguously")


def _plain_scalars(root, shared: bool) -> list[yaml.ScalarNode]:
    """Every plain scalar node under ``root``, each once, in an order fixed by the tree's shape
    (the same for two compositions of one text; findings are sorted by position afterwards). With
    ``shared`` (the text may hold an alias), each node once however often it is aliased.

    The hot loop of Y007, one pass over every node of every fixture, so it is written for speed:
    a scalar child (most of them) is handled where it is met, only collections go on the stack."""
    if shared:
        return [node for node in _distinct_nodes(root) if type(node) is _ScalarNode and not node.style]
    if type(root) is _ScalarNode:
        return [root] if not root.style else []
    plain: list = []
    keep = plain.append
    stack = [root]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        # A plain scalar's style is None or "": only those are resolved by tag.
        if type(node) is _SequenceNode:
            for item in node.value:
                if type(item) is not _ScalarNode:
                    push(item)
                elif not item.style:
                    keep(item)
        else:
            for key, value in node.value:
                if type(key) is not _ScalarNode:
                    push(key)
                elif not key.style:
                    keep(key)
                if type(value) is not _ScalarNode:
                    push(value)
                elif not value.style:
                    keep(value)
    return plain


def _distinct_nodes(root) -> list:
    """Every node under ``root`` once, however often an alias repeats it."""
    found: list = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        found.append(node)
        if type(node) is _SequenceNode:
            stack.extend(node.value)
        elif type(node) is not _ScalarNode:
            stack.extend(chain.from_iterable(node.value))
    return found


@lru_cache(maxsize=1 << 16)
def _untagged(tag12: str, text: str):
    """:func:`_compare` for an untagged plain scalar: its YAML 1.1 tag is PyYAML's implicit one."""
    return _compare(_yaml11_tag(_ScalarNode, text, (True, False)), tag12, text)


def _compare(tag11: str, tag12: str, text: str):
    """(YAML 1.2 value, YAML 1.1 value) of a plain scalar when the two differ, else None."""
    if tag11 == _MERGE or (tag11 == _STR and tag12 == _STR):
        return None  # `<<` is refused by the loader (Y001); a string in both dialects is the same text
    if tag12 not in CORE_SCALAR_TAGS:
        return None  # an explicit tag (`!!binary`): the loader refuses it (Y001), one finding for it
    try:
        new = core_value(tag12, text)
    except IntegerTooLong:
        return None  # the loader reports it (at the scalar)
    try:
        old = _yaml11_value(tag11, text)
    except yaml.constructor.ConstructorError:
        return None  # a tag no YAML reader builds (`!foo`, `!!python/name:…`): the loader's Y001 says so
    return None if _same(old, new) else (new, old)


def _yaml11_value(tag: str, text: str):
    """What PyYAML's safe YAML 1.1 constructor makes of ``text`` under ``tag`` (a fresh constructor
    each time: a constructor keeps every node it has built)."""
    return yaml.constructor.SafeConstructor().construct_object(_ScalarNode(tag, text), deep=True)


def _same(old, new) -> bool:
    if isinstance(old, float) and isinstance(new, float) and old != old:
        return new != new
    return type(old) is type(new) and old == new
