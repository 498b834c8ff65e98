"""A reducer is written with the wrong arguments.

## What it does
Checks how each known reducer is written against graph-engine §2:

* a factory's arguments: `bounded_append` needs `max_len`, a positive integer; `merge_by_key` needs
  `key`, a field name (not `null`); `dedupe_append` takes an optional `key`; no other argument is
  accepted;
* a factory whose required argument has no default cannot be written in the string form;
* a parameter-less reducer (`append` …) is written as a string, not as a factory mapping.

## Why is this bad?
graph-engine §2: invalid factory parameters MUST fail at field registration with
`reducer_configuration_invalid`, before any node runs. A fixture that does not mean to test that
fails to compile everywhere.

A case that expects `expected_compile_error: reducer_configuration_invalid` is correct, not a
finding.

## Example
Bad:
```yaml
fields:
  recent: {type: list<string>, reducer: {bounded_append: {max_length: 3}}, default: []}
  records: {type: list, reducer: merge_by_key, default: []}
```
Good:
```yaml
fields:
  recent: {type: list<string>, reducer: {bounded_append: {max_len: 3}}, default: []}
  records: {type: list, reducer: {merge_by_key: {key: id}}, default: []}
```
"""

from __future__ import annotations

from typing import Iterator

from ....ast.nodes import Scalar
from ..context import Finding, ReducerUse, ScenarioContext, did_you_mean
from ..spec_terms import FACTORY_REDUCERS, PLAIN_REDUCERS, REDUCER_CONFIGURATION_INVALID, FactoryArgument

CODE = "S004"
NAME = "reducer-arguments"
SEVERITY = "error"
KIND = "scenario"
EXPECTED_AS = REDUCER_CONFIGURATION_INVALID


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for name, use in ctx.reducer_uses():
        yield from _use(f"field {name!r}", use)


def _use(where: str, use: ReducerUse) -> Iterator[Finding]:
    reducer = use.name
    if reducer in PLAIN_REDUCERS and use.factory_form:
        yield Finding(use.span, f"{where}: {reducer!r} takes no arguments; write `reducer: {reducer}`")
        return
    parameters = FACTORY_REDUCERS.get(reducer)
    if parameters is None:
        return  # unknown: S003's finding
    if not use.factory_form:
        required = [p.name for p in parameters if p.required]
        if required:
            arguments = ", ".join(f"{p}: ..." for p in required)
            yield Finding(use.span, f"{where}: factory reducer {reducer!r} needs {', '.join(required)}: "
                                    f"write `reducer: {{{reducer}: {{{arguments}}}}}`")
        return
    given = use.arguments
    if given is None:
        yield Finding(use.span, f"{where}: the arguments of {reducer!r} must be a mapping")
        return
    names = [p.name for p in parameters]
    for key, key_span in zip(given.keys, given.key_spans):
        if key not in names:
            yield Finding(key_span, f"{where}: {reducer!r} takes no argument {key!r} (it takes {', '.join(names)}){did_you_mean(key, names)}")
    for parameter in parameters:
        value = given.get(parameter.name)
        if value is None:
            if parameter.required:
                yield Finding(use.span, f"{where}: {reducer!r} needs its {parameter.name!r} argument")
            continue
        problem = _problem(parameter, value)
        if problem:
            yield Finding(value.span, f"{where}: {reducer}({parameter.name}=...) {problem}")


def _problem(parameter: FactoryArgument, value) -> str | None:
    raw = value.value if type(value) is Scalar else value
    if raw is None:
        return None if parameter.nullable else "must not be null"
    if parameter.accepts == "positive int":
        ok = isinstance(raw, int) and not isinstance(raw, bool) and raw >= 1
        return None if ok else f"must be a positive integer, found {raw!r}"
    ok = isinstance(raw, str) and raw != ""
    return None if ok else "must be a field name (a non-empty string)"
