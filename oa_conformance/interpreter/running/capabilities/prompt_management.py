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

The backend and prompt construction (:func:`prompt_from_record`, :class:`PreloadedPromptBackend`,
:class:`CachingPromptBackend`) is public: other directories' fixtures declare prompt backends too.
"""

from __future__ import annotations

import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Mapping

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError

from ....host.llm import Message
from ....host.prompts import (
    ChatPrompt,
    ContentSegment,
    FilesystemPromptBackend,
    ImageInlineBlockTemplate,
    ImageURLBlockTemplate,
    MappingLabelResolver,
    PlaceholderSegment,
    PromptGroup,
    PromptManager,
    PromptNotFound,
    PromptStoreUnavailable,
    TextBlockTemplate,
    CASE_CLOCK,
    TextPrompt,
    langfuse_prompt_backend,
    langfuse_sdk,
    prompt_manager,
    sampling_config,
    token_budget,
)

from ....ast.nodes import Scalar, Section
from ...static.scenarios import Scenario
from ....model.trace import CaseTrace, plain
from ..error_record import error_record
from ....model.errors import FixtureInvalid, HarnessPrimitiveMissing
from ....ast.values import literal
from .contract import CapabilityHarness

CAPABILITY = "prompt-management"
GROUP_TARGET = "construct_prompt_group"


# ---------------------------------------------------------------------------------------------
# Harness primitives: the mock backends


class ControllableClock:
    """§6.8's controllable clock: seconds since the case began, advanced only by ``advance_clock``."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def advance(self, seconds: float) -> None:
        self.seconds += seconds


def prompt_from_record(record: Mapping[str, Any], fetched_at: datetime | None = None) -> Any:
    """A runtime ``TextPrompt`` / ``ChatPrompt`` from a fixture's prompt record (plain data: name,
    label, version, template_hash, ``template`` or ``chat_template``, optional sampling, token_budget,
    observability_entities). A chat template the runtime would reject at construction (a duplicate or
    non-identifier placeholder, an image block in a non-user segment, an empty block list) is built
    unvalidated, as the runtime's own Langfuse backend does: prompt-management §11 makes render the
    normative point where those raise. Raises ``ValueError`` for a record it cannot read."""
    fields: dict[str, Any] = {
        "name": record["name"],
        "version": str(record["version"]),
        "label": record["label"],
        "template_hash": record["template_hash"],
        "fetched_at": fetched_at or datetime.now(UTC),
    }
    if record.get("sampling") is not None:
        fields["sampling"] = sampling_config(record["sampling"])
    if record.get("token_budget") is not None:
        fields["token_budget"] = token_budget(record["token_budget"])
    if record.get("observability_entities") is not None:
        fields["observability_entities"] = dict(record["observability_entities"])
    if "chat_template" not in record:
        return TextPrompt(template=record["template"], **fields)
    segments = [_segment(segment, f"chat_template[{index}]") for index, segment in enumerate(record["chat_template"])]
    return _lenient(ChatPrompt, kind="chat", chat_template=segments, **fields)


def _lenient(model: Any, **fields: Any) -> Any:
    """``model(**fields)``, or — when the runtime rejects it at construction — the same record built
    unvalidated, so the render-time check the spec makes normative is the one that runs."""
    try:
        return model(**fields)
    except ValidationError:
        return model.model_construct(**fields)


def _segment(segment: Any, where: str) -> Any:
    if not isinstance(segment, Mapping):
        raise ValueError(f"{where}: a segment is a mapping ({{role, content}} or {{placeholder}}), found {segment!r}")
    if set(segment) == {"placeholder"}:
        return _lenient(PlaceholderSegment, type="placeholder", placeholder=str(segment["placeholder"]))
    if set(segment) != {"role", "content"}:
        raise ValueError(f"{where}: a segment has either `role` and `content` or only `placeholder`, found keys {sorted(segment)}")
    content = segment["content"]
    if not isinstance(content, str):
        if not isinstance(content, list):
            raise ValueError(f"{where}.content: text or a list of content blocks, found {content!r}")
        content = [_block(block, f"{where}.content[{index}]") for index, block in enumerate(content)]
    return _lenient(ContentSegment, type="content", role=segment["role"], content=content)


def _block(block: Any, where: str) -> Any:
    """A fixture content-block template (the llm-provider §3.1 shape) as the runtime's template model."""
    kind = block.get("type") if isinstance(block, Mapping) else None
    if kind == "text" and set(block) == {"type", "text"}:
        return TextBlockTemplate(text=block["text"])
    source = block.get("source") if kind == "image" else None
    if isinstance(source, Mapping) and source.get("type") == "url" and set(source) == {"type", "url"}:
        if block.get("media_type") is not None:
            raise ValueError(f"{where}: a URL image block with media_type (the runtime's URL block template has none)")
        return ImageURLBlockTemplate(url=source["url"], detail=block.get("detail"))
    if isinstance(source, Mapping) and source.get("type") == "inline" and set(source) == {"type", "base64_data"}:
        return ImageInlineBlockTemplate(base64_data=source["base64_data"], media_type=block.get("media_type", ""), detail=block.get("detail"))
    raise ValueError(f"{where}: not a text block or an image block with a url / inline source: {block!r}")


class PreloadedPromptBackend:
    """The preloaded in-memory mock ``PromptBackend`` (§3.2 header): serves its records by
    ``(name, label)``, reading its source on every fetch — ``cache_ttl_seconds`` is a no-op, as for
    every cacheless backend (prompt-management §5). ``unavailable``: every fetch raises
    ``PromptStoreUnavailable``. Each fetch is logged (backend, name, label, cache_ttl_seconds,
    outcome, whether it read the source) into ``log``, shared by the case's backends."""

    caching = False

    def __init__(self, name: str, records: list[Mapping[str, Any]], unavailable: bool = False, log: list | None = None):
        self.name = name
        self.unavailable = unavailable
        self.log = log if log is not None else []
        self.records: dict[tuple[str, str], Mapping[str, Any]] = {}
        for record in records:
            key = (record["name"], record["label"])
            if key in self.records:
                raise ValueError(f"backend {name!r} declares the prompt {key} twice")
            prompt_from_record(record)  # a record the backend cannot serve is a fixture problem, found now
            self.records[key] = record

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    async def fetch(self, name: str, label: str = "production", *, cache_ttl_seconds: int | None = None) -> Any:
        entry = {"backend": self.name, "name": name, "label": label, "cache_ttl_seconds": cache_ttl_seconds}
        self.log.append(entry)
        try:
            prompt = self.serve(name, label, cache_ttl_seconds, entry)
        except Exception as error:
            entry["outcome"] = getattr(error, "category", type(error).__name__)
            raise
        entry.setdefault("outcome", "served")
        return prompt

    def serve(self, name: str, label: str, cache_ttl_seconds: int | None, entry: dict) -> Any:
        return self.read_source(name, label, entry)

    def read_source(self, name: str, label: str, entry: dict) -> Any:
        entry["source_read"] = True
        if self.unavailable:
            raise PromptStoreUnavailable(f"backend {self.name!r} is unavailable (simulated)", name=name, label=label)
        record = self.records.get((name, label))
        if record is None:
            raise PromptNotFound(f"no prompt ({name!r}, {label!r}) in backend {self.name!r}", name=name, label=label, backend=self.name)
        return prompt_from_record(record)

    def state(self) -> dict[str, Any]:
        mine = [e for e in self.log if e["backend"] == self.name]
        return {"caching": self.caching, "unavailable": self.unavailable, "fetch_count": len(mine),
                "source_read_count": sum(1 for e in mine if e.get("source_read"))}


class CachingPromptBackend(PreloadedPromptBackend):
    """§6.8's caching prompt backend: caches by ``(name, label)`` and counts source reads;
    ``cache_ttl_seconds`` None serves a cached entry, 0 bypasses the cache, N > 0 serves an entry
    younger than N seconds on its controllable clock. A served entry keeps its original
    ``fetched_at`` (prompt-management §5). A negative value is rejected (§5)."""

    caching = True

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.clock = ControllableClock()
        self.cache: dict[tuple[str, str], tuple[Any, float]] = {}

    def serve(self, name: str, label: str, cache_ttl_seconds: int | None, entry: dict) -> Any:
        if cache_ttl_seconds is not None and cache_ttl_seconds < 0:
            raise ValueError(f"cache_ttl_seconds must be >= 0, got {cache_ttl_seconds}")
        cached = self.cache.get((name, label))
        if cached is not None and cache_ttl_seconds != 0:
            prompt, stored_at = cached
            if cache_ttl_seconds is None or self.clock.seconds - stored_at < cache_ttl_seconds:
                entry["outcome"] = "cached"
                entry["source_read"] = False
                return prompt
        prompt = self.read_source(name, label, entry)
        self.cache[(name, label)] = (prompt, self.clock.seconds)
        return prompt

    def state(self) -> dict[str, Any]:
        return {**super().state(), "clock_seconds": self.clock.seconds}


class RuntimeFilesystemBackend:
    """The runtime's own ``FilesystemPromptBackend`` over a fresh directory holding a case's
    ``filesystem_files`` (an extension: prompt-management §3 / §5 bind the backend that computes
    ``version`` / ``template_hash``, raises the §11 fetch errors and parses the sourced config — code
    a mock would stand in for). Only the fetch log is the adapter's: each fetch is recorded as a
    mock's is, then handed to the runtime's backend unchanged."""

    caching = False
    unavailable = False

    def __init__(self, name: str, files: Mapping[str, str], config_source: str, log: list):
        self.name = name
        self.log = log
        self.root = Path(tempfile.mkdtemp(prefix="oa-prompts-"))
        for relative, text in files.items():
            path = PurePosixPath(relative)
            if path.is_absolute() or ".." in path.parts or not path.parts:
                raise ValueError(f"filesystem_files: {relative!r} is not a path under the backend's root")
            target = self.root.joinpath(*path.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        self.runtime = FilesystemPromptBackend(self.root, sampling_source=config_source, token_budget_source=config_source)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    async def fetch(self, name: str, label: str = "production", *, cache_ttl_seconds: int | None = None) -> Any:
        entry = {"backend": self.name, "name": name, "label": label, "cache_ttl_seconds": cache_ttl_seconds, "source_read": True}
        self.log.append(entry)
        try:
            prompt = await self.runtime.fetch(name, label, cache_ttl_seconds=cache_ttl_seconds)
        except Exception as error:
            entry["outcome"] = getattr(error, "category", type(error).__name__)
            raise
        entry["outcome"] = "served"
        return prompt

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def state(self) -> dict[str, Any]:
        mine = [e for e in self.log if e["backend"] == self.name]
        return {"caching": False, "unavailable": False, "fetch_count": len(mine), "source_read_count": len(mine)}


# The Langfuse SDK's default client-side cache TTL (``get_prompt`` without ``cache_ttl_seconds``).
LANGFUSE_SDK_DEFAULT_TTL_SECONDS = 60


class LangfuseClientDouble:
    """A double of the Langfuse SDK client at the one call the runtime's ``LangfusePromptBackend``
    makes, ``get_prompt(name, label=, cache_ttl_seconds=)`` — the wire edge. It answers with the SDK's
    own ``TextPromptClient`` / ``ChatPromptClient`` built from the declared records and keeps the SDK's
    client-side cache by ``(name, label)`` on a controllable clock: ``cache_ttl_seconds`` 0 reads the
    source, N > 0 serves an entry younger than N seconds, ``None`` the SDK default TTL. A cache hit
    returns the very object the source read returned, as the SDK does. Each call is logged."""

    def __init__(self, records: list[Mapping[str, Any]], sdk: Mapping[str, Any]):
        self.sdk = sdk
        self.clock = ControllableClock()
        self.cache: dict[tuple[str, str], tuple[Any, float]] = {}
        self.calls: list[dict[str, Any]] = []
        self.records: dict[tuple[str, str], Any] = {}
        for record in records:
            key = (record["name"], record["label"])
            if key in self.records:
                raise ValueError(f"the Langfuse double declares the prompt {key} twice")
            self.records[key] = self.sdk_prompt(record)

    def sdk_prompt(self, record: Mapping[str, Any]) -> Any:
        kind = record.get("type", "text")
        if kind not in ("text", "chat"):
            raise ValueError(f"a Langfuse prompt's type is text or chat, found {kind!r}")
        fields = {"name": record["name"], "version": int(record["version"]), "prompt": record["prompt"],
                  "config": dict(record.get("config") or {}), "labels": [record["label"]], "tags": []}
        if kind == "chat":
            return self.sdk["ChatPromptClient"](self.sdk["Prompt_Chat"](**fields))
        return self.sdk["TextPromptClient"](self.sdk["Prompt_Text"](**fields))

    def get_prompt(self, name: str, *, label: str = "production", cache_ttl_seconds: int | None = None) -> Any:
        call = {"name": name, "label": label, "cache_ttl_seconds": cache_ttl_seconds}
        self.calls.append(call)
        ttl = LANGFUSE_SDK_DEFAULT_TTL_SECONDS if cache_ttl_seconds is None else cache_ttl_seconds
        cached = self.cache.get((name, label))
        if cached is not None and self.clock.seconds - cached[1] < ttl:
            call["source_read"] = False
            return cached[0]
        call["source_read"] = True
        served = self.records.get((name, label))
        if served is None:
            raise self.sdk["NotFoundError"]({"message": f"prompt {name!r} with label {label!r} not found"})
        self.cache[(name, label)] = (served, self.clock.seconds)
        return served


class RuntimeLangfuseBackend:
    """The runtime's own ``LangfusePromptBackend`` over a :class:`LangfuseClientDouble` (``langfuse_prompts``,
    an extension: prompt-management §3 / §3.1 / §5 bind the backend that forwards ``cache_ttl_seconds``,
    stamps ``fetched_at``, hashes a chat template and projects the vendor config). Only the SDK client
    and the fetch log are the adapter's — and the wall clock the backend stamps ``fetched_at`` from,
    which reads the case's controllable clock during a fetch (``CaseClockDatetime``, a clock edge)."""

    caching = True
    unavailable = False

    def __init__(self, name: str, records: list[Mapping[str, Any]], log: list, span: Any = None):
        sdk = langfuse_sdk()
        if sdk is None:
            raise HarnessPrimitiveMissing("the Langfuse SDK (openarmature's [langfuse] extra), for a langfuse_prompts backend", span)
        self.name = name
        self.log = log
        self.client = LangfuseClientDouble(records, sdk)
        self.clock = self.client.clock
        self.runtime = langfuse_prompt_backend(self.client)
        if self.runtime is None:
            raise HarnessPrimitiveMissing("the runtime's LangfusePromptBackend, for a langfuse_prompts backend", span)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    async def fetch(self, name: str, label: str = "production", *, cache_ttl_seconds: int | None = None) -> Any:
        entry = {"backend": self.name, "name": name, "label": label, "cache_ttl_seconds": cache_ttl_seconds}
        self.log.append(entry)
        reads_before = len(self.client.calls)
        on_case_clock = CASE_CLOCK.set(self.clock)  # fetched_at from the case's clock: the same on every run
        try:
            prompt = await self.runtime.fetch(name, label, cache_ttl_seconds=cache_ttl_seconds)
        except Exception as error:
            entry["outcome"] = getattr(error, "category", type(error).__name__)
            raise
        finally:
            CASE_CLOCK.reset(on_case_clock)
            entry["source_read"] = any(call.get("source_read") for call in self.client.calls[reads_before:])
        entry["outcome"] = "served" if entry["source_read"] else "cached"
        return prompt

    def state(self) -> dict[str, Any]:
        mine = [e for e in self.log if e["backend"] == self.name]
        return {"caching": True, "unavailable": False, "fetch_count": len(mine),
                "source_read_count": sum(1 for e in mine if e.get("source_read")), "clock_seconds": self.clock.seconds}


def build_backends(declared: Any, log: list) -> dict[str, Any]:
    """The case's ``backends:`` list (AST) as mock backends (or the runtime's filesystem backend) by
    name; a block they cannot be built from is ``fixture_schema_invalid`` at its line."""
    backends: dict[str, Any] = {}
    for decl in (declared.items if declared is not None else ()):
        name = decl.name.value
        if name in backends:
            raise FixtureInvalid(f"two backends are named {name!r}", decl.name.span)
        if decl.filesystem_files is not None:
            if _flag(decl.caching) or _flag(decl.simulate_unavailable):
                raise FixtureInvalid(f"backend {name!r}: the runtime's filesystem backend is neither caching nor simulated unavailable", decl.span)
            source = decl.filesystem_config_source
            try:
                backends[name] = RuntimeFilesystemBackend(name, literal(decl.filesystem_files),
                                                          source.value if source is not None else "none", log)
            except ValueError as problem:
                raise FixtureInvalid(f"backend {name!r}: {problem}", decl.filesystem_files.span) from problem
            continue
        if decl.langfuse_prompts is not None:
            if _flag(decl.caching) or _flag(decl.simulate_unavailable):
                raise FixtureInvalid(f"backend {name!r}: the Langfuse double keeps the SDK's own cache and is never simulated unavailable", decl.span)
            try:
                backends[name] = RuntimeLangfuseBackend(name, literal(decl.langfuse_prompts), log, decl.langfuse_prompts.span)
            except (ValueError, KeyError, TypeError, ValidationError) as problem:
                raise FixtureInvalid(f"backend {name!r}: langfuse_prompts: {problem}", decl.langfuse_prompts.span) from problem
            continue
        if decl.filesystem_config_source is not None:
            raise FixtureInvalid(f"backend {name!r}: filesystem_config_source without filesystem_files", decl.filesystem_config_source.span)
        kind = CachingPromptBackend if _flag(decl.caching) else PreloadedPromptBackend
        records = decl.prompts
        try:
            backends[name] = kind(name, [_record(r) for r in (records.items if records is not None else ())],
                                  unavailable=_flag(decl.simulate_unavailable), log=log)
        except (ValueError, ValidationError) as problem:
            raise FixtureInvalid(f"backend {name!r}: {problem}", decl.span) from problem
    return backends


def _record(decl: Section) -> dict[str, Any]:
    return {name: literal(value) for name, value in decl.items()}


def _flag(value: Any) -> bool:
    """A boolean directive's value (absent: false)."""
    return bool(value.value) if value is not None else False


class RejectedManager:
    """A manager the runtime refused to construct: every call through it raises what the
    constructor raised, so a call's ``raises`` judges the runtime's rejection (prompt-management §6:
    a negative ``default_cache_ttl_seconds`` is rejected at construction)."""

    def __init__(self, rejected: BaseException):
        self.rejected = rejected

    async def fetch(self, *args: Any, **kwargs: Any) -> Any:
        raise self.rejected

    async def get(self, *args: Any, **kwargs: Any) -> Any:
        raise self.rejected

    def render(self, *args: Any, **kwargs: Any) -> Any:
        raise self.rejected


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
