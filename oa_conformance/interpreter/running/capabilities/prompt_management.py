"""prompt-management: direct calls against mock PromptBackends and the runtime's PromptManager.

The directory's harness contract (the header comment of its first fixture; conformance-adapter
§6.8): the harness builds mock ``PromptBackend``s preloaded with each ``backends[i].prompts`` list
(``simulate_unavailable``: every fetch raises ``prompt_store_unavailable``; ``caching``: §6.8's
caching backend with a controllable clock), composes them into real ``PromptManager``s (``manager``,
``secondary_manager``, ``tertiary_manager``, each with its optional ``LabelResolver`` and
``default_cache_ttl_seconds``), and performs ``calls`` / ``secondary_calls`` / ``tertiary_calls`` in
order — fetch, render, get, advance_clock, and the ``PromptGroup`` constructor.

Only the mock backends are the adapter's (the spec names them as harness mocks); managers,
resolvers, prompts, rendering, groups and errors are the runtime's own classes. The mocks build their
``Prompt`` records with the runtime's models from the fixture's declared values (``version``,
``template_hash``, ``sampling`` and ``token_budget`` read by the binding's own readers in
``host/prompts.py``), so a case over a mock checks what the runtime does with a record, never how a
backend makes one. A backend declared with ``filesystem_files`` (an extension) is the runtime's own
filesystem backend instead (:class:`RuntimeFilesystemBackend`): there the version, the hash, the
fetch errors and the sourced config are the runtime's. One declared with ``langfuse_prompts`` (an
extension) is the runtime's own Langfuse backend over a double of the Langfuse SDK client
(:class:`RuntimeLangfuseBackend`): the SDK's client-side cache is the double's, everything the backend
makes of what the SDK returns is the runtime's.

What a case did becomes two trace collections (docs/TRACE.md): ``calls`` (one entry per call:
its target, operation, result or error, the backend fetches it caused) and ``prompts`` (each
backend's fetch log, read counts and clock; the captured results by ``capture_as`` name).

The backends (mock and runtime) and the records they make live in :mod:`.prompt_backends`.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError

from ....host.llm import Message
from ....host.prompts import MappingLabelResolver, PromptGroup, PromptManager, prompt_manager

from ....ast.nodes import Scalar, Section
from ...static.scenarios import Scenario
from ....model.trace import CaseTrace, plain
from ..error_record import error_record
from ....model.errors import FixtureInvalid, HarnessPrimitiveMissing
from ....ast.values import literal
from .contract import CapabilityHarness
from .prompt_backends import (
    CachingPromptBackend,
    PreloadedPromptBackend,
    RejectedManager,
    RuntimeFilesystemBackend,
    RuntimeLangfuseBackend,
    build_backends,
)

CAPABILITY = "prompt-management"
GROUP_TARGET = "construct_prompt_group"


# ---------------------------------------------------------------------------------------------
# Running a case


MESSAGES = TypeAdapter(list[Message])


class PromptCase:
    """One case's backends, managers and captures, and what each call did."""

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.log: list[dict] = []
        self.backends = build_backends(scenario.view.backends, self.log)
        self.managers: dict[str, PromptManager] = {}
        self.captured: dict[str, Any] = {}  # capture name -> the runtime object
        self.captures: dict[str, Any] = {}  # capture name -> its plain record
        self.calls: list[dict] = []

    # ---- construction ---------------------------------------------------------------------------

    def backend(self, name: str, span: Any) -> PreloadedPromptBackend:
        if name not in self.backends:
            raise HarnessPrimitiveMissing(f"prompt backend {name!r} (the case declares {sorted(self.backends)})", span)
        return self.backends[name]

    def manager(self, which: str, span: Any) -> PromptManager:
        if which in self.managers:
            return self.managers[which]
        decl = self.scenario.view.named(which)  # the manager a call's `target` names
        if decl is None and which != "manager":
            raise FixtureInvalid(f"the call targets {which!r}, which the case does not declare", span)
        listed = decl.backends if decl is not None else None
        names = [item.value for item in listed.items] if listed is not None else list(self.backends)
        backends = [self.backend(name, listed.span if listed is not None else span) for name in names]
        if not backends:
            raise FixtureInvalid(f"the {which} has no backend to compose (the case declares none)", decl.span if decl is not None else span)
        kwargs: dict[str, Any] = {}
        resolver_ref = decl.label_resolver_ref if decl is not None else None
        if resolver_ref is not None:
            resolver = self.scenario.view.named(resolver_ref.value)
            if not isinstance(resolver, Section) or resolver.family != "label_resolver":
                raise FixtureInvalid(f"label_resolver_ref {resolver_ref.value!r} names no label resolver of the case", resolver_ref.span)
            kwargs["label_resolver"] = MappingLabelResolver(literal(resolver.mapping))
        default_ttl = decl.default_cache_ttl_seconds if decl is not None else None
        if default_ttl is not None:
            # Passed as given, a negative one included: prompt-management §6 makes rejecting it at
            # construction the runtime's duty, so the runtime's answer is what the case judges.
            kwargs["default_cache_ttl_seconds"] = default_ttl.value
        try:
            self.managers[which] = prompt_manager(*backends, **kwargs)
        except HarnessPrimitiveMissing:
            raise
        except Exception as rejected:  # the runtime refused the manager: each call through it raises that
            self.managers[which] = RejectedManager(rejected)
        return self.managers[which]

    # ---- calls ----------------------------------------------------------------------------------

    async def run(self) -> None:
        for block, calls in call_blocks(self.scenario):
            for index, call in enumerate(calls.items if calls is not None else ()):
                await self.perform(block, index, call)

    async def perform(self, block: str, index: int, call: Section) -> None:
        target = call.target
        operation = call.operation
        entry: dict[str, Any] = {"block": block, "index": index, "target": literal(target),
                                 "operation": operation.value if operation is not None else GROUP_TARGET}
        capture = call.capture_as
        if capture is not None:
            entry["capture_as"] = capture.value
        if call.members_refs is not None:
            entry["members_refs"] = literal(call.members_refs)
        start = len(self.log)
        act = self.action(call, target, operation)  # a malformed call stops the case before it runs
        try:
            result = await act()
        except (FixtureInvalid, HarnessPrimitiveMissing):
            raise
        except Exception as raised:  # the runtime's answer to the call: what the expectations judge
            entry["error"] = error_fields(raised)
        else:
            if result is not None:
                entry["result"] = result_data(result)
                if capture is not None:
                    self.captured[capture.value] = result
                    self.captures[capture.value] = entry["result"]
        entry["fetches"] = self.log[start:]
        self.calls.append(entry)

    def action(self, call: Section, target: Any, operation: Any):
        """The call as a coroutine function, after checking it names what its operation needs."""
        if isinstance(target, Scalar) and target.value == GROUP_TARGET:
            return self.group_action(call)
        if operation is None:
            raise FixtureInvalid("the call names no operation", call.span)
        op = operation.value
        if isinstance(target, Section) and target.backend is not None:
            backend = self.backend(target.backend.value, target.backend.span)
            if op == "advance_clock":
                seconds = self.required(call, call.seconds, "seconds")
                if not isinstance(backend, (CachingPromptBackend, RuntimeLangfuseBackend)):
                    raise FixtureInvalid(f"advance_clock on backend {backend.name!r}, which is not a caching backend", target.backend.span)
                return _sync(lambda: backend.clock.advance(seconds.value))
            if op != "fetch":
                raise FixtureInvalid(f"{op} goes through a manager; a backend only fetches (prompt-management §5)", operation.span)
            name, label = self.required(call, call.name, "name").value, _literal(call.label)
            kwargs = _ttl(call)
            return lambda: backend.fetch(name, *((label,) if label is not None else ()), **kwargs)
        if isinstance(target, Section) and not (target.manager is not None and target.manager.value):
            raise FixtureInvalid("a structured target is {backend: <name>} or {manager: true}", target.span)
        manager = self.manager(target.value if isinstance(target, Scalar) else "manager", target.span)
        if op == "fetch":
            name = self.required(call, call.name, "name").value
            return lambda: manager.fetch(name, _literal(call.label), **_ttl(call))
        if op == "get":
            name = self.required(call, call.name, "name").value
            variables, placeholders = _literal(call.variables), self.placeholders(call)
            return lambda: manager.get(name, _literal(call.label), variables, placeholders=placeholders, **_ttl(call))
        if op == "render":
            variables, placeholders = _literal(call.variables), self.placeholders(call)
            source = self.prompt_source(call, manager)

            async def render() -> Any:
                return manager.render(await source(), variables, placeholders=placeholders)
            return render
        raise FixtureInvalid(f"{op} needs a {{backend: <name>}} target", operation.span)

    def prompt_source(self, call: Section, manager: PromptManager):
        """What a render renders: ``fetched_prompt`` (fetched through the manager first) or
        ``fetched_prompt_ref`` (an earlier call's capture)."""
        fetched, ref = call.fetched_prompt, call.fetched_prompt_ref
        if (fetched is None) == (ref is None):
            raise FixtureInvalid("render needs exactly one of fetched_prompt and fetched_prompt_ref", call.span)
        if fetched is not None:
            return lambda: manager.fetch(fetched.name.value, _literal(fetched.label))
        if ref.value not in self.captured:
            raise FixtureInvalid(f"fetched_prompt_ref {ref.value!r}: no earlier call captured a result under that name", ref.span)
        return _sync(lambda: self.captured[ref.value])

    def group_action(self, call: Section):
        group_name, refs = self.required(call, call.group_name, "group_name").value, self.required(call, call.members_refs, "members_refs")
        for item in refs.items:
            if item.value not in self.captured:
                raise FixtureInvalid(f"members_refs: no earlier call captured {item.value!r}", item.span)
        members = [self.captured[item.value] for item in refs.items]
        return _sync(lambda: PromptGroup(group_name=group_name, members=members))

    def placeholders(self, call: Section) -> dict[str, Any] | None:
        given = call.placeholders
        if given is None:
            return None
        try:
            return {name: MESSAGES.validate_python(literal(messages)) for name, messages in given.items()}
        except ValidationError as problem:
            raise FixtureInvalid(f"placeholders: not llm-provider §3 messages: {problem}", call.key_span("placeholders")) from problem

    @staticmethod
    def required(call: Section, value: Any, name: str) -> Any:
        """``value``, the call's directive ``name``: refused at the call when the call lacks it."""
        if value is None:
            raise FixtureInvalid(f"{call.operation.value if call.operation is not None else GROUP_TARGET} needs `{name}`", call.span)
        return value

    def collections(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "prompts": {
                "backends": {name: backend.state() for name, backend in self.backends.items()},
                "fetches": self.log,
                "fetch_counts": {name: backend.state()["fetch_count"] for name, backend in self.backends.items()},
                "captures": self.captures,
            },
        }


def _ttl(call: Section) -> dict[str, Any]:
    """The call's ``cache_ttl_seconds`` as keyword arguments: absent, none (the callee's default
    applies); ``null``, the explicit unset value (prompt-management §6 asks both to mean the same)."""
    return {} if call.cache_ttl_seconds is None else {"cache_ttl_seconds": literal(call.cache_ttl_seconds)}


def _literal(node: Any) -> Any:
    """A directive's value as plain data (absent: None)."""
    return literal(node) if node is not None else None


def _sync(function):
    async def call() -> Any:
        return function()
    return call


def result_data(result: Any) -> Any:
    """A runtime record as the trace keeps it: JSON-like, with unset optional fields absent (not null,
    §5.8) — a Message is ``{role, content}``, a Prompt without sampling has no ``sampling`` key. A
    value the spec leaves opaque (an ``observability_entities`` entry holding the Langfuse SDK's prompt
    object) is kept as its type's name."""
    try:
        return result.model_dump(mode="json", exclude_none=True)
    except PydanticSerializationError:
        return result.model_dump(mode="json", exclude_none=True, fallback=_opaque)


def _opaque(value: Any) -> str:
    kind = type(value)
    return f"<{kind.__module__}.{kind.__qualname__}>"


def error_fields(error: BaseException) -> dict[str, Any]:
    """The call's error: category, message, type, cause chain, and the fields it exposes (a prompt
    error's name / version / label / variables / description, prompt-management §11)."""
    record = error_record(error)
    exposed = {key: _exposed(value) for key, value in vars(error).items() if not key.startswith("_")}
    return {"category": record.category, "message": str(error), "type": record.type_name,
            "chain": [dict(link) for link in record.chain], "fields": exposed}


def _exposed(value: Any) -> Any:
    if isinstance(value, BaseException):
        return {"type": type(value).__name__, "message": str(value), "category": getattr(value, "category", None)}
    if isinstance(value, list):
        return [_exposed(item) for item in value]
    return value


def call_blocks(scenario: Scenario) -> tuple[tuple[str, Any], ...]:
    """The case's call lists by directive, in the order they run (an absent one: None)."""
    view = scenario.view
    return (("calls", view.calls), ("secondary_calls", view.secondary_calls), ("tertiary_calls", view.tertiary_calls))


def is_direct(scenario: Scenario) -> bool:
    return any(calls is not None for _, calls in call_blocks(scenario))


async def run_direct(scenario: Scenario) -> CaseTrace:
    case = PromptCase(scenario)
    try:
        await case.run()
    finally:
        for backend in case.backends.values():
            if isinstance(backend, RuntimeFilesystemBackend):
                backend.close()
    return CaseTrace(collections=plain(case.collections()))


HARNESS = CapabilityHarness(capability=CAPABILITY, is_direct=is_direct, run_direct=run_direct)
