"""Log records and metric observations over the OTel capture (conformance-adapter §5.5, §6.9):
the ``logs`` of the ``otel`` collection and the ``metrics`` collection (docs/TRACE.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...ast.nodes import Scalar
from ...model.diagnostics import Span
from ..matchers import Match, Mismatch, absorb, match, show
from ..rules import Context, Rule, ShapeRow, verdict
from .otel_spans import OBS, _problem, assign, otel

# ---------------------------------------------------------------------------------------------
# Log records and metric observations


def _log_view(record: Any) -> dict[str, Any]:
    """A log record as the fixtures address it: its trace context (``trace_id`` / ``span_id``, the
    OTel LogRecord fields) is read under ``attributes`` beside the record's own attributes."""
    attributes = dict(record["attributes"])
    for key in ("trace_id", "span_id"):
        if record.get(key) is not None:
            attributes.setdefault(key, record[key])
    # `level` (conformance-adapter §5.5, proposal 0116): the record's severity, a first-class
    # LogRecord field, under one name whichever naming the emitter used (severity_level).
    return {"body": record["body"], "attributes": attributes, "severity_text": record["severity_text"],
            "level": severity_level(record["severity_text"]), "event_name": record.get("event_name")}


# The level names Python's logging and OpenTelemetry both use, under OpenTelemetry's short names:
# a fixture's `level: WARNING` is the record the OTel bridge names WARN.
_LEVEL_ALIASES = {"WARNING": "WARN", "CRITICAL": "FATAL"}


def severity_level(name: Any) -> Any:
    """A severity name as one level: upper case, Python's WARNING / CRITICAL as OTel's WARN / FATAL."""
    if not isinstance(name, str):
        return name
    return _LEVEL_ALIASES.get(name.upper(), name.upper())


def _log_matcher(expected: Any, record: Any, bindings: Any, path: str) -> Match:
    problems: list[Mismatch] = []
    view = _log_view(record)
    for key, want in expected.items():
        if key == "attributes_absent":
            problems += [_problem(f"{path}.attributes[{i.value}]", "absent", "present", i.span) for i in want.items if i.value in view["attributes"]]
            continue
        if key not in view:
            problems.append(_problem(f"{path}.{key}", "a log-record field (body, attributes, severity_text, level, event_name)", f"unknown key {key!r}", expected.key_span(key)))
            continue
        if key == "level" and isinstance(want, Scalar):
            want = want.set(value=severity_level(want.value))
        result = match(want, view[key], bindings, f"{path}.{key}", "subset")
        bindings = absorb(problems, result)
    return Match(not problems, bindings, tuple(problems))


@dataclass(frozen=True)
class LogRecordsRule(Rule):
    """The expected log records, each matched by an emitted record, in emission order; records in
    between are allowed. Observability 158's sidecar states the reading: an expected record names
    what must have been logged ("without the name … an unrelated WARNING satisfies the assertion"),
    not every record the run emits."""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        records = list(otel(ctx)["logs"])
        problems: list[Mismatch] = []
        start = 0
        for index, want in enumerate(self.expected.items):
            path = f"log_records[{index}]"
            for position in range(start, len(records)):
                result = _log_matcher(want, records[position], bindings, path)
                if result.ok:
                    bindings, start = result.bindings, position + 1
                    break
            else:
                left = records[start:]
                nearest = _log_matcher(want, left[0], bindings, path).mismatches if left else ()
                problems.append(_problem(path, "a matching record", f"none of the {len(left)} records after the "
                                         f"previous match matches: {show([r['body'] for r in left])}", want.span))
                problems.extend(nearest)
                break
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _log_records(node: Any, span: Span | None) -> Rule:
    return LogRecordsRule("expected.log_records", span, node)


def metrics(ctx: Context) -> list[Any]:
    collections = ctx.trace.collections
    if "metrics" not in collections:  # the OTel capture always records them, metrics on or off
        raise LookupError("the case captured no metrics")
    return list(collections["metrics"])


def _metric_matcher(expected: Any, observation: Any, bindings: Any, path: str) -> Match:
    problems: list[Mismatch] = []
    for key, want in expected.items():
        here = f"{path}.{key}"
        if key == "instrument":
            result = match(want, observation["instrument"], bindings, here)
        elif key == "dimensions":  # §11.3: the observation's dimensions, exactly
            result = match(want, observation["dimensions"], bindings, here, "exact")
        elif key == "value":
            result = match(want, observation["value"], bindings, here)
        else:
            problems.append(_problem(here, "instrument / dimensions / value", f"unknown key {key!r}", expected.key_span(key)))
            continue
        bindings = absorb(problems, result)
    return Match(not problems, bindings, tuple(problems))


@dataclass(frozen=True)
class MetricsRule(Rule):
    """The recorded observations as a set (§6.9): instrument + dimensions for each, the value where
    the fixture gives one (§11.4: durations are asserted for presence only).

    Exhaustive per instrument: on every instrument the list names, the observations are exactly the
    listed ones; `metrics: []` says nothing was recorded at all. (The token-budget fixtures list only
    the budget instruments beside token-usage and duration observations they leave unasserted.)"""

    name: str
    span: Span | None
    expected: Any

    def evaluate(self, ctx: Context, bindings: Any):
        observed = metrics(ctx)
        named = {item.instrument.value for item in self.expected.items}
        if named:
            observed = [o for o in observed if o["instrument"] in named]
        summary = lambda: show([(o["instrument"].rsplit(".", 1)[-1], dict(o["dimensions"]), o["value"]) for o in observed])
        if len(observed) != len(self.expected.items):
            problem = _problem("metrics", f"{len(self.expected.items)} observations", f"{len(observed)}: {summary()}", self.span)
            return (verdict(self.name, self.span, Match(False, bindings, (problem,))),), bindings
        bindings, problems = assign(self.expected.items, observed, _metric_matcher, bindings, "metrics", self.span)
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


def _metrics(node: Any, span: Span | None) -> Rule:
    return MetricsRule("expected.metrics", span, node)


# directive → rule builder
SHAPES = (
    ShapeRow("log_records", _log_records),
    ShapeRow("metrics", _metrics, OBS),
)


__all__ = ["metrics", "severity_level"]
