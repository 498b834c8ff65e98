"""The captured wire (conformance-adapter §6): the real provider classes talk HTTP to this.

Every openarmature provider takes an ``httpx.AsyncBaseTransport`` (its documented test seam). A
:class:`CapturedWire` is one: it serves the fixture's canned responses in order and records every
request the runtime sent — method, URL, path, headers, the parsed JSON body and the raw bytes.
Nothing leaves the process: there is no socket behind it, and a request for a host the case did
not configure is refused (recorded, answered with an error the runtime sees as a connection
failure), so a wrong base URL can never reach a real server.

Each capability turns its own fixture form (``mock_provider.responses``, ``mock_llm``,
``mock_embedding`` …) into :class:`Canned` values; the wire knows nothing about providers. A case
with several mocked providers (an embedding and a rerank provider, each with its own mock list)
gives each its own *lane* (:meth:`CapturedWire.lane`): a transport view serving that lane's
responses in order, recording into the same wire. What it recorded becomes the trace document's
``wire`` collection (:meth:`CapturedWire.document`):

    wire
      requests[]   {index, method, url, host, path, query, headers (lower-cased names), json,
                   duplicate_keys, body, lane (only for a lane's request)}
                   ``json`` is absent when the body is not JSON; ``body`` is the text;
                   ``duplicate_keys`` ({key: occurrences}, beside ``json``) names every key some object
                   of the body text repeats (at any depth), which ``json`` cannot show: it keeps the last
      responses[]  {index, request (the index of the request it answered), status, headers, body (the
                   JSON value, or the text of a raw body), failure (connect | timeout | read, or
                   null), declared_at ("path:line:col" of the canned entry), lane (only for a
                   lane's response; ``index`` then counts within the lane), raises ({error_type,
                   message}: the literal exception the call raised instead, when the entry has one)}
      declared     how many canned responses the fixture declared
      unused       how many of them no request consumed
      overrun      requests that arrived after the canned responses ran out, or that no content-keyed
                   entry (``when_request``) answers (each also failed)
      refused[]    requests to a host the case did not configure
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Awaitable, Callable, Iterable

import httpx


@dataclass(frozen=True)
class Canned:
    """One canned HTTP answer, as the fixture declared it."""

    status: int = 200
    body: Any = None  # JSON-serialisable: sent as JSON (when ``raw`` is None)
    raw: bytes | None = None  # sent verbatim: malformed bodies, server-sent event streams
    headers: tuple[tuple[str, str], ...] = ()
    delay_s: float = 0.0  # slept (on the case's clock) before answering
    failure: str | None = None  # "connect" | "timeout" | "read": raise the httpx transport error instead; "cancel": CancelledError
    declared_at: str | None = None  # "path:line:col" of the fixture entry, for messages
    # conformance-adapter §5.15 `raises: {error_type, message}` on a non-2xx entry: the call raises an
    # exception with these literal values while the status still fixes its §7 category (see
    # CapturedWire.literal_exception); the body stays the vendor's error body, for the record.
    raises: tuple[str, str] | None = None
    # The JSON body of the one request this entry answers, whatever its arrival position (a double
    # keyed by content, not position: for requests the spec lets go out in any order, e.g. the chunks
    # of a chunk-and-stitch call). None: the entry answers by position, in arrival order.
    when_request: Any = None


class WireUnmatched(httpx.TransportError):
    """A request whose body no unused content-keyed entry (``when_request``) answers."""


class WireExhausted(httpx.TransportError):
    """The runtime sent more requests than the fixture declared responses for."""


class WireRefused(httpx.ConnectError):
    """A request for a host the case never configured (the wire never reaches a real network)."""


_FAILURES = {"connect": httpx.ConnectError, "timeout": httpx.ReadTimeout, "read": httpx.ReadError}


@dataclass
class CapturedWire(httpx.AsyncBaseTransport):
    """Serves ``responses`` in order to requests for ``hosts`` and records every request."""

    responses: list[Canned]
    hosts: frozenset[str] = frozenset()  # allowed hosts; empty: any host of a configured provider
    sleep: Any = asyncio.sleep  # the case's clock (a controlled clock never really sleeps)
    requests: list[dict[str, Any]] = field(default_factory=list)
    served: list[dict[str, Any]] = field(default_factory=list)
    overrun: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    lanes: dict[str, list[Canned]] = field(default_factory=dict)  # lane name -> its own canned responses
    # lane name (None: the wire's own queue) -> what the provider on that lane raises for an answer
    # (status_classifier): the class a `raises` entry's literal exception is made from
    classifiers: dict[str | None, Callable[[Canned], Awaitable[type]]] = field(default_factory=dict)

    def lane(self, name: str, responses: Iterable[Canned]) -> httpx.AsyncBaseTransport:
        """A transport for one provider of the case, serving ``responses`` in order on its own."""
        self.lanes[name] = list(responses)
        return _Lane(self, name)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.serve(request, None)

    async def serve(self, request: httpx.Request, lane: str | None) -> httpx.Response:
        content = await request.aread()
        record = request_record(len(self.requests), request, content)
        if lane is not None:
            record["lane"] = lane
        if self.hosts and request.url.host not in self.hosts:
            self.refused.append(record)
            raise WireRefused(f"the captured wire refuses host {request.url.host!r} (configured: {sorted(self.hosts)})", request=request)
        self.requests.append(record)
        queue = self.responses if lane is None else self.lanes[lane]
        index = self._entry_for(queue, lane, record, request)
        canned = queue[index]
        served = {"index": index, "request": record["index"], "status": canned.status, "headers": dict(canned.headers),
                  "body": canned.body if canned.raw is None else canned.raw.decode("utf-8", errors="replace"),
                  "failure": canned.failure, "declared_at": canned.declared_at}
        if lane is not None:
            served["lane"] = lane
        self.served.append(served)
        if canned.delay_s:
            await self.sleep(canned.delay_s)
        if canned.failure == "cancel":  # the language's cancellation signal, not a transport error
            raise asyncio.CancelledError("canned cancellation")
        if canned.failure is not None:
            raise _FAILURES[canned.failure](f"canned {canned.failure} failure", request=request)
        if canned.raises is not None:
            served["raises"] = {"error_type": canned.raises[0], "message": canned.raises[1]}
            raise await self.literal_exception(canned, lane)
        if canned.raw is not None:
            return httpx.Response(canned.status, headers=list(canned.headers), content=canned.raw, request=request)
        if canned.body is None:
            return httpx.Response(canned.status, headers=list(canned.headers), request=request)
        return httpx.Response(canned.status, headers=list(canned.headers), json=canned.body, request=request)

    def _entry_for(self, queue: list[Canned], lane: str | None, record: dict[str, Any], request: httpx.Request) -> int:
        """The index in ``queue`` of the entry answering this request: the next one in arrival order,
        or, when the entries are keyed by content, the first unused one whose ``when_request`` is
        the request's JSON body."""
        used = [served["index"] for served in self.served if served.get("lane") == lane]
        where = f" for the {lane} lane" if lane is not None else ""
        if any(canned.when_request is not None for canned in queue):
            for index, canned in enumerate(queue):
                if index not in used and "json" in record and canned.when_request == record["json"]:
                    return index
            self.overrun += 1
            raise WireUnmatched(f"request {record['index'] + 1} (body {record['body'][:200]}) matches no unused "
                                f"`when_request` entry{where}", request=request)
        if len(used) >= len(queue):
            self.overrun += 1
            raise WireExhausted(f"request {record['index'] + 1} arrived but the fixture declares only {len(queue)} "
                                f"responses{where}", request=request)
        return len(used)

    async def literal_exception(self, canned: Canned, lane: str | None) -> BaseException:
        """§5.15 ``raises``: the exception the lane's real provider raises for this answer — its class,
        so its §7 category, is the runtime's own reading of the status — renamed to the literal
        ``error_type`` and carrying the literal message. Raised from the transport, it reaches the
        provider as its own error would (it is no ``httpx`` error), so the failure event is built
        from it."""
        classify = self.classifiers.get(lane)
        if classify is None:
            raise RuntimeError(f"no classifier for the {lane or 'default'} lane of the captured wire")
        base = await classify(replace(canned, raises=None))
        error_type, message = canned.raises  # type: ignore[misc]
        return type(error_type, (base,), {"__module__": base.__module__})(message)

    def document(self) -> dict[str, Any]:
        """The ``wire`` collection of the trace document."""
        declared = len(self.responses) + sum(len(queue) for queue in self.lanes.values())
        return {
            "requests": list(self.requests),
            "responses": list(self.served),
            "declared": declared,
            "unused": max(0, declared - len(self.served)),
            "overrun": self.overrun,
            "refused": list(self.refused),
        }


@dataclass
class _Lane(httpx.AsyncBaseTransport):
    """One lane of a :class:`CapturedWire` (what a provider of the case is given as its transport)."""

    wire: CapturedWire
    name: str

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.wire.serve(request, self.name)


def request_record(index: int, request: httpx.Request, content: bytes) -> dict[str, Any]:
    """One request as plain data; header names lower-cased (HTTP names are case-insensitive)."""
    record: dict[str, Any] = {
        "index": index,
        "method": request.method,
        "url": str(request.url),
        "host": request.url.host,
        "path": request.url.path,
        "query": dict(request.url.params.multi_items()),
        "headers": {name.lower(): value for name, value in request.headers.multi_items()},
        "body": content.decode("utf-8", errors="replace"),
    }
    repeated: dict[str, int] = {}
    try:
        record["json"] = json.loads(content, object_pairs_hook=_KeyCounter(repeated)) if content else None
    except ValueError:
        return record  # not JSON: ``json`` stays absent, ``body`` holds the text
    record["duplicate_keys"] = repeated
    return record


@dataclass
class _KeyCounter:
    """A ``json.loads`` object hook that builds each object and notes the keys its text repeats.

    ``json.loads`` keeps the last of two equal keys, so a body that emits a managed key twice would
    read as sending it once; this keeps the repetition (the most occurrences in any one object)."""

    repeated: dict[str, int]

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        counts = Counter(key for key, _ in pairs)
        for key, occurrences in counts.items():
            if occurrences > 1:
                self.repeated[key] = max(occurrences, self.repeated.get(key, 0))
        return dict(pairs)


def sse_body(chunks: Iterable[Any]) -> bytes:
    """A server-sent-event stream body: one ``data:`` event per chunk (a mapping is sent as JSON,
    a string such as the ``[DONE]`` sentinel verbatim), each ended by a blank line."""
    events = [f"data: {chunk if isinstance(chunk, str) else json.dumps(chunk)}\n\n" for chunk in chunks]
    return "".join(events).encode("utf-8")


def status_classifier(make_provider: Callable[[httpx.AsyncBaseTransport], Any],
                      call: Callable[[Any], Awaitable[Any]]) -> Callable[[Canned], Awaitable[type]]:
    """What a provider raises for one canned answer: a throwaway provider (``make_provider`` over a
    wire serving only that answer) is called once (``call``) in an empty context, so no invocation,
    observer or span of the case sees it, and the class of what it raised is returned."""
    async def classify(canned: Canned) -> type:
        provider = make_provider(CapturedWire([canned]))
        try:
            await asyncio.get_running_loop().create_task(call(provider), context=contextvars.Context())
        except Exception as raised:
            return type(raised)
        finally:
            await provider.aclose()
        raise RuntimeError(f"the provider raised nothing for a {canned.status} answer")
    return classify


def hosts_of(base_urls: Iterable[str]) -> frozenset[str]:
    """The hosts a case configured its providers with: the only ones the wire answers."""
    return frozenset(httpx.URL(url).host for url in base_urls if url)


__all__ = ["Canned", "CapturedWire", "WireExhausted", "WireRefused", "WireUnmatched", "hosts_of", "request_record", "sse_body"]
