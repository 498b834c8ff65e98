"""Adapter capabilities a case may require (``requires_capability``, conformance-adapter §5.5).

A capability is a property of the implementation under test that the spec declares non-portable,
so a fixture gates each arm of a contract on it (fixture 158: the raise arm for an implementation
that can establish its Langfuse client's bound provider, the suppress floor for one that cannot).
This adapter never *declares* a capability: it **probes** the installed runtime's public API once
per process (:data:`PROBES`, one function per capability name) and a case whose requirement the
probe contradicts is a recognized skip naming the capability and what the probe saw — never a pass.
A probe that cannot decide (the runtime lacks the API it drives) skips both arms.

The capability names are the ``adapter_capability_requirement`` family's directives
(``model/vocabulary/observability.py``); ``tests/test_adapter_capabilities.py`` keeps the two in step.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any, Callable, NamedTuple

from ...ast.nodes import Scalar
from ..static.scenarios import Scenario
from .case_output import captured


class Probed(NamedTuple):
    """What a probe found: ``has`` (None: undecidable) and how it knows, for the skip reason."""

    has: bool | None
    evidence: str


class CapabilityMismatch(NamedTuple):
    capability: str
    required: bool
    probed: Probed

    def __str__(self) -> str:
        if self.probed.has is None:
            return f"the case requires adapter capability {self.capability} = {str(self.required).lower()}, which cannot be established: {self.probed.evidence}"
        have = "has" if self.probed.has else "does not have"
        return (f"the case requires adapter capability {self.capability} = {str(self.required).lower()}; "
                f"this runtime {have} it ({self.probed.evidence})")


ISOLATION_UNAVAILABLE = "langfuse_provider_isolation_unavailable"


def probe_langfuse_bound_provider_detection() -> Probed:
    """Whether the runtime establishes which TracerProvider its credentials-built Langfuse client is
    bound to — observed by effect through its public API, the way observability §6 defines it: a
    same-credential SDK client bound to a provider the runtime did not build is constructed first
    (on a private provider, never the global one), then ``LangfuseObserver.from_credentials`` is
    asked for a payload-emitting observer with the same key. Only an implementation that detects
    the binding can take §6's raise arm (``langfuse_provider_isolation_unavailable``); one that
    cannot must not raise (it suppresses). Raised → capable; constructed → not capable."""
    try:
        from langfuse import Langfuse
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
        from pydantic import SecretStr
        from ...host.observability import LangfuseObserver
    except ImportError as missing:
        return Probed(None, f"the probe's API is not importable: {missing}")
    from .capabilities.langfuse_capture import NO_NETWORK_HOST, RefusingTransport, sdk_options

    key = f"pk-oa-capability-probe-{uuid.uuid4().hex}"
    with captured():  # the probe's own warnings and log records are nobody's case output
        primed = Langfuse(public_key=key, secret_key="sk-oa-probe", host=NO_NETWORK_HOST, tracer_provider=TracerProvider(),
                          **sdk_options(InMemorySpanExporter(), RefusingTransport()))
        try:
            LangfuseObserver.from_credentials(
                public_key=key, secret_key=SecretStr("sk-oa-probe"), host=NO_NETWORK_HOST,
                langfuse_kwargs=sdk_options(InMemorySpanExporter(), RefusingTransport()), disable_provider_payload=False)
        except TypeError as unsupported:  # no from_credentials keyword surface: no mode (b) at all
            return Probed(None, f"LangfuseObserver.from_credentials is not the §8.9 mode-(b) surface: {unsupported}")
        except Exception as raised:
            category = getattr(raised, "category", None)
            if category == ISOLATION_UNAVAILABLE:
                return Probed(True, f"from_credentials over a primed same-key client on a foreign provider raised {category}")
            return Probed(None, f"the probe's construction raised {type(raised).__name__}: {raised}")
        finally:
            primed.shutdown()
        return Probed(False, f"from_credentials over a primed same-key client on a foreign provider did not raise {ISOLATION_UNAVAILABLE}")


# Capability name → probe. A name a fixture may require and no probe answers is rejected by the
# schema check (it is not a directive of the requirement family), never silently assumed.
PROBES: dict[str, Callable[[], Probed]] = {
    "langfuse_bound_provider_detection": probe_langfuse_bound_provider_detection,
}

_PROBED: dict[str, Probed] = {}
_LOCK = threading.Lock()


def probed(capability: str) -> Probed:
    """The probe's answer for ``capability``, computed once per process (cases run in threads)."""
    with _LOCK:
        if capability not in _PROBED:
            _PROBED[capability] = PROBES[capability]()
        return _PROBED[capability]


def capability_mismatches(scenario: Scenario) -> list[CapabilityMismatch]:
    """The ``requires_capability`` entries the runtime does not meet (empty: assert the case)."""
    required: Any = scenario.view.requires_capability
    mismatches = []
    for name, value in (required.items() if required is not None else ()):
        if not isinstance(value, Scalar):
            continue
        found = probed(name)
        if found.has is None or found.has != bool(value.value):
            mismatches.append(CapabilityMismatch(name, bool(value.value), found))
    return mismatches
