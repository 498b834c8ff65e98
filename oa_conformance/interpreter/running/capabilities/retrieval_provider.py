"""The retrieval-provider directory's harness contract (its fixtures' §3.2 header comments).

Every case is a graph whose nodes call the bound embedding / rerank provider (``calls_embed`` /
``calls_rerank``, node directives of :mod:`.retrieval_mock`). The provider is the runtime's real
one for the case's construction block or ``mapping:``, talking to a captured wire that serves the
``mock_embedding`` / ``mock_rerank`` entries; the wire-request expectations beside ``expected:``
(``expected_wire_request`` …) are checked by this directory's shapes
(``assertions/shapes/retrieval_provider.py``) over the ``wire`` collection. Typed-event collectors
(``typed_observers``, fixture 013's header) are the shared capture of :mod:`.typed_events`.
"""

from __future__ import annotations

from .contract import CapabilityHarness

# The wire-request expectations beside `expected:` are the rows handled by
# case_expectation("retrieval-provider"), judged with this directory's shapes.
HARNESS = CapabilityHarness(capability="retrieval-provider", captures=("retrieval", "typed_events"))
