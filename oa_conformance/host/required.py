"""Public names the spec requires of every build that claims a spec version at or after the one
that made them core: a build lacking one contradicts its own claim, so a case that needs it fails
(naming the name and both versions) instead of skipping.

A build declares the spec version it implements (``openarmature.__spec_version__``, read by
:mod:`.identity`). Most of what a case needs is judged by proposal (:mod:`.manifest`): a build that
does not ship a proposal skips its cases. The names here are different: each is core in the spec
from ``since`` on (a proposal that brought it, when one did, is given too), so a build claiming that
spec or a later one must have it on its public surface. A build claiming an older spec, declaring no
spec version, or declaring the proposal not shipped still meets a recognized skip.

This is the one place the binding compares version numbers, and it compares only the build's own
claim with the version a name became required in.
"""

from __future__ import annotations

from typing import NamedTuple

from ..model.version import parse_version


class Required(NamedTuple):
    since: str  # the spec version from which the name is required
    what: str  # the spec's name for it, with its section
    proposal: str | None = None  # the proposal that brought it, when one did


# The runtime's public names (as the binding tables place them, host.detect's `module.name`) → when
# the spec made them core. Spec versions from the spec's CHANGELOG: §6 retry and timing came with
# the capability (proposal 0004, spec 0.5.0); the §6.4 primitive with proposal 0074 (spec 0.65.0).
REQUIRED = {
    "openarmature.graph.RetryMiddleware": Required("0.5.0", "pipeline-utilities §6.1 retry middleware"),
    "openarmature.graph.TimingMiddleware": Required("0.5.0", "pipeline-utilities §6.2 timing middleware"),
    "openarmature.graph.classify_cause_chain": Required(
        "0.65.0", "pipeline-utilities §6.4 cause-chain classification primitive", proposal="0074"),
}


def claimed_contradiction(lacking: str) -> str | None:
    """Why a build lacking ``lacking`` (a public name, as :class:`.detect.RuntimeLacks` names it)
    fails: it claims a spec version that requires the name (and does not declare the proposal that
    brought it unshipped). None when the lack stays a recognized skip."""
    from .identity import implementation_identity
    from .manifest import NOT_SHIPPED, proposal_status

    required = REQUIRED.get(lacking)
    if required is None:
        return None
    claim = implementation_identity()["spec_version"]
    claimed = parse_version(claim) if claim is not None else None
    if claimed is None or claimed < parse_version(required.since):
        return None
    if required.proposal is not None and proposal_status(required.proposal).state == NOT_SHIPPED:
        return None
    return f"runtime claims spec {claim}; {lacking} ({required.what}) required since {required.since} not found"


__all__ = ["REQUIRED", "Required", "claimed_contradiction"]
