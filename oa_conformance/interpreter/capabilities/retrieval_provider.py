"""The retrieval-provider directory's harness contract (its fixtures' §3.2 header comments).

Every case is a graph whose nodes call the bound embedding / rerank provider (``calls_embed`` /
``calls_rerank``, node directives of :mod:`..retrieval_mock`). The provider is the runtime's real
one for the case's construction block or ``mapping:``, talking to a captured wire that serves the
``mock_embedding`` / ``mock_rerank`` entries; the wire-request expectations beside ``expected:``
(``expected_wire_request`` …) are checked by this directory's shapes
(``assertions/retrieval_provider_shapes.py``) over the ``wire`` collection. Typed-event collectors
(``typed_observers``, fixture 013's header) are the shared capture of :mod:`.typed_events`.
"""

from __future__ import annotations

from ..retrieval_mock import DIRECTIVES, open_retrieval
from . import CapabilityHarness, captures, register
from .typed_events import TYPED_EVENT_DIRECTIVES, open_typed_events

# Case-level expectations (not under `expected:`): each is checked by the shape registered under its
# name for this directory.
EXPECTATIONS = frozenset((
    "expected_wire_request", "expected_wire_request_count", "expected_wire_request_absent_keys", "expected_wire_headers",
    "expected_wire_url",
))

HARNESS = register(CapabilityHarness(
    capability="retrieval-provider",
    case_directives=DIRECTIVES | EXPECTATIONS | TYPED_EVENT_DIRECTIVES,
    case_expectations=EXPECTATIONS,
    instrument=captures(open_retrieval, open_typed_events),
))
