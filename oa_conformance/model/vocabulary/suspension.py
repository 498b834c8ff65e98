"""Directives specific to the suspension fixtures (the capability's spec and its §3.2 header notes)."""

from __future__ import annotations

from .handlers import NOT_EXECUTED, PART
from .registry import Directive, Family, Handler
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "suspension"
SUS = CAPABILITY
NODE = ("node",)

FAMILIES: list[Family] = [
    Family("descriptor", "SignalDescriptor", "A suspension signal descriptor (suspension §3)."),
    Family("descriptor_expectation", "DescriptorExpectation",
           "The signal descriptor expected on a suspended outcome: exact `metadata` or `metadata_includes` (§5.8).",
           exclusive=(("metadata", "metadata_includes"),)),
    Family("conditional_suspend", "ConditionalSuspend",
           "Suspend only in the fan-out instance whose item index matches (§5.1, suspension §8.2).",
           required=("suspend_on_item_index", "descriptor")),
    Family("checkpointer_assertions", "CheckpointerAssertions",
           "Assertions on the checkpointer backend after the invocation (§5.6, suspension §8.5)."),
]

DIRECTIVES: list[Directive] = [
    # ---- node behaviour (§5.1) -----------------------------------------------------------------
    Directive("signal_id", ("descriptor",), STR, "§5.1", SUS, "0.48.0", "The signal the suspension waits for.", handled_by=PART),
    Directive("metadata", ("descriptor",), Data(("map",)), "§5.1", SUS, "0.48.0", "Descriptor metadata.", handled_by=PART),
    Directive("suspend_with_descriptor", NODE, SectionShape("descriptor"), "§5.1", SUS, "0.48.0", "The node calls suspend(descriptor).", handled_by=NOT_EXECUTED),
    Directive("conditional_suspend", NODE, SectionShape("conditional_suspend"), "§5.1", SUS, "0.48.0",
              "Inside a fan-out instance: suspend when the item index matches, else run `on_other_indices`.", handled_by=NOT_EXECUTED),
    Directive("suspend_on_item_index", ("conditional_suspend",), INT, "§5.1", SUS, "0.48.0",
              "The instance (item index) that calls suspend().", handled_by=PART),
    Directive("descriptor", ("conditional_suspend",), SectionShape("descriptor"), "§5.1", SUS, "0.48.0",
              "The descriptor the matching instance suspends with.", handled_by=PART),
    Directive("on_other_indices", NODE + ("conditional_suspend",), SectionShape("node"), "§5.1", SUS, "0.48.0",
              "Node directives the other instances run (typically `update_from_field`); a sibling of `conditional_suspend` "
              "or, per §5.1, inside it.", handled_by=(Handler("not_executed", families=("node",)), Handler("part", families=("conditional_suspend",)))),

    # ---- invocation (§5.7) ---------------------------------------------------------------------
    Directive("signal_payload", ("invocation", "invoke"), Data(("map",)), "§5.7", SUS, "0.48.0",
              "With `resume_invocation`: resume a suspended invocation, merging this payload into state (suspension §7).", handled_by=NOT_EXECUTED),

    # ---- expected outcome (§5.8, §5.6) ---------------------------------------------------------
    Directive("suspended_state", ("expected",), Expect(("map",)), "§5.8", SUS, "0.48.0",
              "With `outcome: suspended`: the state at the suspension point.", handled_by=NOT_EXECUTED),
    Directive("descriptor", ("expected",), SectionShape("descriptor_expectation"), "§5.8", SUS, "0.48.0",
              "With `outcome: suspended`: the signal descriptor on the suspended outcome.", handled_by=NOT_EXECUTED),
    Directive("suspending_node", ("expected",), STR, "§5.8", SUS, "0.48.0",
              "With `outcome: suspended`: the (outer-graph) node the outcome names as suspending.", handled_by=NOT_EXECUTED),
    Directive("signal_id", ("descriptor_expectation",), Expect(("scalar",)), "§5.8", SUS, "0.48.0", "The descriptor's signal id.", handled_by=PART),
    Directive("metadata", ("descriptor_expectation",), Expect(("map",)), "§5.8", SUS, "0.48.0", "The descriptor's metadata, exactly.", handled_by=PART),
    Directive("metadata_includes", ("descriptor_expectation",), Expect(("map",)), "§5.8", SUS, "0.48.0",
              "Keys the descriptor's metadata contains at least (e.g. the engine-annotated `fan_out_index` / `branch_name`).", handled_by=PART),
    Directive("middleware_log_captured", ("expected",), Expect(("list",)), "§3.2 header", SUS, None,
              "The markers the wrapping test middleware logged, in order (a suspended node skips its post-next() marker).",
              scope="directory", handled_by=NOT_EXECUTED),
    Directive("checkpointer_assertions", ("expected",), SectionShape("checkpointer_assertions"), "§5.6", SUS, "0.48.0",
              "The checkpointer backend's state when the invocation returned.", handled_by=NOT_EXECUTED),
    Directive("paused_invocation_record_exists", ("checkpointer_assertions",), BOOL, "§5.6", SUS, "0.48.0",
              "A paused-invocation record was written to the configured backend.", handled_by=PART),
    Directive("record_type", ("checkpointer_assertions",), STR, "§5.6", SUS, "0.48.0",
              "The stored record's type discriminator (`suspended` for a paused-invocation record).", handled_by=PART),
]

# The suspension suite registers its OTel observer through `observers:` with `behavior: otel`
# (fixture header of the OTel-status fixture), although §5.5 says OTel emission is not an observer
# behaviour: accepted here, for this directory only, and flagged by the linter's notes.
DIRECTIVES.append(
    Directive("behavior", ("observer",), Enum(("record", "accumulate", "raise", "otel")), "§3.2 header", CAPABILITY, None,
              "What the observer does per event; `otel` attaches the OTel observer with the in-memory span exporter.",
              scope="directory", handled_by=PART)
)
