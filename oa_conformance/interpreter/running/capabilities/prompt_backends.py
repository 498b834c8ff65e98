"""prompt-management's harness primitives: the prompt backends a case declares, and the records they make.

The mock backends are the adapter's (the spec names them as harness mocks, conformance-adapter
§6.8): :class:`PreloadedPromptBackend` serves each ``backends[i].prompts`` record
(``simulate_unavailable``: every fetch raises ``prompt_store_unavailable``), and
:class:`CachingPromptBackend` is §6.8's caching backend on a :class:`ControllableClock`. They build
their ``Prompt`` records with the runtime's models from the fixture's declared values
(:func:`prompt_from_record`), so a case over a mock checks what the runtime does with a record, never
how a backend makes one.

Two extensions make the backend the runtime's own instead: ``filesystem_files``
(:class:`RuntimeFilesystemBackend`, the runtime's filesystem backend over a temporary directory) and
``langfuse_prompts`` (:class:`RuntimeLangfuseBackend`, the runtime's Langfuse backend over
:class:`LangfuseClientDouble`, a double of the Langfuse SDK client: the wire edge).
:func:`build_backends` makes a case's declared backends; :class:`RejectedManager` stands for a
manager the runtime refused to build. Other directories' fixtures declare prompt backends too, so
this module is public to the running passes.
"""

from __future__ import annotations

import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Mapping

from pydantic import ValidationError

from ....host.prompts import (
    CASE_CLOCK,
    ChatPrompt,
    ContentSegment,
    FilesystemPromptBackend,
    ImageInlineBlockTemplate,
    ImageURLBlockTemplate,
    PlaceholderSegment,
    PromptNotFound,
    PromptStoreUnavailable,
    TextBlockTemplate,
    TextPrompt,
    langfuse_prompt_backend,
    langfuse_sdk,
    sampling_config,
    token_budget,
)
from ....ast.nodes import Section
from ....model.trace import plain
from ....model.errors import FixtureInvalid, HarnessPrimitiveMissing
from ....ast.values import literal


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
