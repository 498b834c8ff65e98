"""Directives specific to the harness and harness-chat fixtures (the capabilities' specs and their §3.2
header notes): the harness under test, synthetic transmissions, chat turns and signal arrivals."""

from __future__ import annotations

from ..trace.record import ASSERTED_OUTCOMES
from .handlers import NOT_EXECUTED, PART
from .registry import Directive, Family, Handlers
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "harness"
HAR = CAPABILITY
CHAT = "harness-chat"
CASE = ("fixture", "case")

OUTCOME = Enum(ASSERTED_OUTCOMES)
DISPATCH_PATH = Enum(("3.0", "3.1", "3.2", "3.3"))  # harness §3.0–§3.3 inbound dispatch paths
ERROR_BUCKET = Enum(("session_terminating", "retryable_transient", "user_correctable"))  # harness §7.1–§7.3


def _local(name: str, where: tuple[str, ...], shape: Shape, section: str, doc: str, capability: str = HAR, handled_by: Handlers = ()) -> Directive:
    """A directive of one fixture suite's own vocabulary (§3.2): only accepted in that directory."""
    since = "0.49.0" if capability == HAR else "0.50.0"  # the suites landed with their capabilities
    return Directive(name, where, shape, section, capability, since, doc, scope="directory", handled_by=handled_by)


FAMILIES: list[Family] = [
    Family("harness_config", "HarnessConfig", "The harness under test: its mode and signal coordinator (harness §2).", required=("mode",)),
    # ---- harness: synthetic transmissions ------------------------------------------------------
    Family("transmission", "Transmission", "One synthetic inbound transmission the harness dispatches (harness §3).", required=("payload",)),
    Family("transmission_expected", "TransmissionExpected", "What the harness did with one transmission (harness §3–§7)."),
    Family("harness_invoke_args", "HarnessInvokeArgs", "The arguments the harness passed to invoke() (harness §3, §8)."),
    # ---- harness-chat: send() turns and signal arrivals ----------------------------------------
    Family("chat_turn", "ChatTurn", "One `send()` call of the chat harness (harness-chat §5).", required=("user_message",)),
    Family("chat_turn_expected", "ChatTurnExpected", "The `ChatTurnOutcome` one `send()` returned (harness-chat §5.2)."),
    Family("signal_arrival", "SignalArrival", "An external signal delivered through the harness signal coordinator (harness-chat §8.2).",
           required=("signal_id",)),
    Family("listener_callback_expectation", "ListenerCallbackExpectation",
           "The subscribed listener's callback after a resumed turn (harness-chat §8.2).", required=("listener",)),
]

DIRECTIVES: list[Directive] = [
    # ---- the harness under test (both suites) --------------------------------------------------
    Directive("harness", CASE, SectionShape("harness_config"), "§3.2 header", HAR, "0.49.0",
              "Wrap the graph in the harness under test, in this mode.", handled_by=NOT_EXECUTED),
    Directive("mode", ("harness_config",), Enum(("sessioned", "stateless")), "§3.2 header", HAR, "0.49.0",
              "Sessioned (resolves a session id per transmission) or stateless (never does; harness §3.0).", handled_by=PART),
    Directive("signal_coordinator", ("harness_config",), STR, "§3.2 header", HAR, "0.49.0",
              "The signal coordinator backend (`in_memory`; harness §6).", handled_by=PART),

    # ---- harness: transmissions ----------------------------------------------------------------
    _local("transmissions", CASE, ListOf(SectionShape("transmission")), "§3.2 header", "Synthetic transmissions, dispatched in order.", handled_by=NOT_EXECUTED),
    _local("name", ("transmission",), STR, "§3.2 header", "The transmission's name (placeholders refer to it).", handled_by=PART),
    _local("payload", ("transmission",), Data(("map",)), "§3.2 header", "The transport payload the harness receives.", handled_by=PART),
    _local("dispatch_intent", ("transmission",), Enum(("new_session", "existing_session", "signal_resume")), "harness §3.4",
           "The caller intent the harness classifies the transmission by.", handled_by=PART),
    _local("signal_payload", ("transmission",), Data(("map",)), "harness §3.3", "The payload a signal-resume transmission delivers.", handled_by=PART),
    _local("expected", ("transmission",), SectionShape("transmission_expected"), "§3.2 header", "What the harness did with the transmission.", handled_by=PART),

    _local("dispatch_path", ("transmission_expected",), DISPATCH_PATH, "harness §3.4", "The inbound dispatch path taken.", handled_by=PART),
    _local("invoke_args", ("transmission_expected",), SectionShape("harness_invoke_args"), "harness §3", "The arguments passed to invoke().", handled_by=PART),
    _local("invoke_outcome", ("transmission_expected",), OUTCOME, "harness §5", "The outcome invoke() returned.", handled_by=PART),
    _local("final_state", ("transmission_expected",), Expect(("map",)), "harness §5.1", "The invocation's final state.", handled_by=PART),
    _local("descriptor", ("transmission_expected",), SectionShape("descriptor_expectation"), "harness §5.3",
           "The signal descriptor on the suspended outcome.", handled_by=PART),
    _local("descriptor_read_from_outcome", ("transmission_expected",), BOOL, "harness §5.3", "The harness read the descriptor from the outcome.", handled_by=PART),
    _local("signal_subscription_registered", ("transmission_expected",), BOOL, "harness §5.3",
           "The harness registered a signal subscription with the coordinator.", handled_by=PART),
    _local("harness_did_not_block", ("transmission_expected",), BOOL, "harness §5.3", "The harness exited without blocking on the suspended turn.", handled_by=PART),
    _local("harness_signal_subscription_registered", ("transmission_expected",), BOOL, "harness §5.3",
           "The harness registered a signal subscription for the suspended invocation (§5.3 step 2).", handled_by=PART),
    _local("harness_auto_retried", ("transmission_expected",), BOOL, "harness §7.1",
           "Whether the harness retried the invocation on its own (SHOULD NOT for session-terminating errors).", handled_by=PART),
    _local("signal_correlation_resolved", ("transmission_expected",), BOOL, "harness §6",
           "The coordinator found the paused invocation by signal id.", handled_by=PART),
    _local("resolved_to_invocation_id", ("transmission_expected",), Reference(), "harness §6",
           "The paused invocation the signal resolved to (a `<from <transmission> suspended outcome>` placeholder).", handled_by=PART),
    _local("error_category", ("transmission_expected",), STR, "harness §7", "The category of the error invoke() surfaced.", handled_by=PART),
    _local("error_bucket", ("transmission_expected",), ERROR_BUCKET, "harness §7", "The harness §7 bucket the error was classified into.", handled_by=PART),
    _local("outbound_shape", ("transmission_expected",), Enum(("completion_response", "error_response", "suspended_acknowledgment")),
           "harness §5", "The shape of the harness's outbound response.", handled_by=PART),
    _local("outbound_payload_includes", ("transmission_expected",), Expect(("map",)), "harness §5",
           "Keys the outbound payload contains at least.", handled_by=PART),
    _local("session_store_load_calls", ("transmission_expected",), INT, "harness §8.1", "How many times the SessionStore's `load()` was called.", handled_by=PART),
    _local("session_store_save_calls", ("transmission_expected",), INT, "harness §8.1", "How many times the SessionStore's `save()` was called.", handled_by=PART),

    _local("session_id", ("harness_invoke_args",), Expect(("scalar",)), "harness §3", "The session id passed.", handled_by=PART),
    _local("session_id_caller_supplied", ("harness_invoke_args",), BOOL, "harness §3.1",
           "The session id came from the payload, not auto-generated.", handled_by=PART),
    _local("session_id_present", ("harness_invoke_args",), BOOL, "harness §3.0", "Whether a session id was passed at all.", handled_by=PART),
    _local("session_id_auto_generated", ("harness_invoke_args",), BOOL, "harness §3.1",
           "The session id was minted by the harness, not supplied by the caller.", handled_by=PART),
    _local("session_id_absent_verified", ("harness_invoke_args",), BOOL, "harness §3.0",
           "The adapter verified the call site passed no session id.", handled_by=PART),
    _local("resume_invocation", ("harness_invoke_args",), Reference(), "harness §3.3", "The invocation resumed (a placeholder).", handled_by=PART),
    _local("signal_payload", ("harness_invoke_args",), Expect(("map",)), "harness §3.3", "The signal payload passed on resume.", handled_by=PART),

    # ---- harness-chat: chat turns --------------------------------------------------------------
    _local("chat_turns", CASE, ListOf(SectionShape("chat_turn")), "§3.2 header", "Sequential `send()` calls.", CHAT, handled_by=NOT_EXECUTED),
    _local("name", ("chat_turn",), STR, "§3.2 header", "The turn's name.", CHAT, handled_by=PART),
    _local("session_id", ("chat_turn",), STR, "harness-chat §5.1", "The session the message is sent under.", CHAT, handled_by=PART),
    _local("user_message", ("chat_turn",), Data(("map",)), "harness-chat §3", "The inbound `ChatMessage`.", CHAT, handled_by=PART),
    _local("subscribe_listener", ("chat_turn",), STR, "harness-chat §8.2",
           "Register a subscribed listener under this name for the turn's post-resume reply.", CHAT, handled_by=PART),
    _local("expected", ("chat_turn",), SectionShape("chat_turn_expected"), "harness-chat §5.2", "The turn's `ChatTurnOutcome`.", CHAT, handled_by=PART),

    _local("outcome", ("chat_turn_expected", "listener_callback_expectation"), OUTCOME, "harness-chat §5.2",
           "The `ChatTurnOutcome` variant.", CHAT, handled_by=PART),
    _local("dispatch_path", ("chat_turn_expected",), DISPATCH_PATH, "harness-chat §6", "The harness §3 dispatch path taken.", CHAT, handled_by=PART),
    _local("replies", ("chat_turn_expected", "listener_callback_expectation"), Expect(("list",)), "harness-chat §7",
           "The new assistant messages of this turn only.", CHAT, handled_by=PART),
    _local("final_state", ("chat_turn_expected",), Expect(("map",)), "harness-chat §4",
           "The session state after the turn (with `messages_count` / `messages_history_contains` matchers).", CHAT, handled_by=PART),
    _local("pending_messages", ("chat_turn_expected",), Expect(("list",)), "harness-chat §8.1",
           "The messages a suspended turn carries.", CHAT, handled_by=PART),
    _local("signal_descriptor", ("chat_turn_expected",), SectionShape("descriptor_expectation"), "harness-chat §8.1",
           "The signal descriptor a suspended turn carries.", CHAT, handled_by=PART),
    _local("error_bucket", ("chat_turn_expected",), ERROR_BUCKET, "harness-chat §10", "The harness §7 bucket of the error.", CHAT, handled_by=PART),
    _local("error_category", ("chat_turn_expected",), STR, "harness-chat §10", "The underlying error category.", CHAT, handled_by=PART),
    _local("reply", ("chat_turn_expected",), Expect(("map",)), "harness-chat §10",
           "The system-shaped error reply (`content_matches_template` / `content_includes` matchers).", CHAT, handled_by=PART),

    # ---- harness-chat: signal arrivals ---------------------------------------------------------
    _local("signal_arrivals", CASE, ListOf(SectionShape("signal_arrival")), "harness-chat §8.2",
           "External signals delivered after the turns, in order.", CHAT, handled_by=NOT_EXECUTED),
    _local("signal_id", ("signal_arrival",), STR, "harness-chat §8.2", "The signal id delivered.", CHAT, handled_by=PART),
    _local("signal_payload", ("signal_arrival",), Data(("map",)), "harness-chat §8.2", "The signal's payload.", CHAT, handled_by=PART),
    _local("expected_listener_callback", ("signal_arrival",), SectionShape("listener_callback_expectation"), "harness-chat §8.2",
           "The listener callback the resumed turn fires.", CHAT, handled_by=PART),
    _local("listener", ("listener_callback_expectation",), STR, "harness-chat §8.2", "The subscribed listener's name.", CHAT, handled_by=PART),
]
