"""Directives specific to the sessions fixtures (the capability's spec and its §3.2 header notes)."""

from __future__ import annotations

from .handlers import NOT_EXECUTED, PART
from .registry import Directive, Family, Handler, Handlers
from .shapes import *  # noqa: F403 - the shape vocabulary is this module's language

CAPABILITY = "sessions"
SES = CAPABILITY
CASE = ("fixture", "case")
RUN = ("fixture", "case", "invocation")
FIXTURES_SINCE = "0.33.0"  # sessions/conformance/001–013 landed with the capability (proposal 0020)


def _local(name: str, where: tuple[str, ...], shape: Shape, doc: str, capability: str = SES, since: str | None = FIXTURES_SINCE, handled_by: Handlers = ()) -> Directive:
    """A directive of the sessions fixture suite's own vocabulary (§3.2), not documented in §5."""
    return Directive(name, where, shape, "§3.2 header", capability, since, doc, scope="directory", handled_by=handled_by)


FAMILIES: list[Family] = [
    Family("session_store_config", "SessionStoreConfig", "A SessionStore backend with options (§5.6, sessions §5).", required=("type",)),
    Family("session_store_behavior", "SessionStoreBehavior", "Synthetic failures the harness store injects (sessions §10)."),
    Family("seeded_session", "SeededSession", "A session record saved in the store before the run (sessions §5, §7).", required=("state",)),
    Family("session_state_projection", "SessionStateProjection",
           "The SessionState projection: which state fields persist across invokes (sessions §4.2).", required=("fields",)),
    Family("session_record_assertions", "SessionRecordAssertions", "Assertions on the session record written to the store (§5.6)."),
    Family("session_store_after", "SessionStoreAfter", "A `load()` against the store after the run, and what it returns (sessions §5, §6).",
           exclusive=(("load_returns_for_session_id", "load_returns_none_for_session_id"),)),
]

DIRECTIVES: list[Directive] = [
    # ---- store registration and invocation binding (§5.6, §5.7) --------------------------------
    Directive("session_store", CASE, OneOf((STR, SectionShape("session_store_config"))), "§5.6", SES, "0.48.0",
              "The SessionStore backend registered on the graph (`in_memory`), or a block with `type` and options.", handled_by=NOT_EXECUTED),
    Directive("type", ("session_store_config",), STR, "§5.6", SES, "0.50.0", "The backend (`in_memory`).", handled_by=PART),
    _local("behavior", ("session_store_config",), SectionShape("session_store_behavior"), "Failures the harness store injects.",
           "harness-chat", "0.50.0", handled_by=PART),
    _local("load_raises", ("session_store_behavior",), STR, "`load()` raises this sessions §10 error category.", "harness-chat", "0.50.0", handled_by=PART),
    # The harness suite injects the same store failure (harness fixture 008's header).
    _local("behavior", ("session_store_config",), SectionShape("session_store_behavior"), "Failures the harness store injects.",
           "harness", "0.49.0", handled_by=PART),
    _local("load_raises", ("session_store_behavior",), STR, "`load()` raises this sessions §10 error category.", "harness", "0.49.0", handled_by=PART),
    Directive("session_id", RUN, STR, "§5.7", SES, "0.48.0", "The session id passed to invoke() (sessions §3).", handled_by=NOT_EXECUTED),
    _local("auto_save", CASE, BOOL, "The store registration's auto-save at invoke exit (default true; sessions §6.3).", handled_by=NOT_EXECUTED),
    _local("session_state", CASE, SectionShape("session_state_projection"), "A SessionState projection narrower than the invoke state (sessions §4.2).", handled_by=NOT_EXECUTED),
    _local("fields", ("session_state_projection",), ListOf(STR), "The state fields persisted across invokes.", handled_by=PART),
    _local("seeded_session", CASE, SectionShape("seeded_session"), "Save this record under the case's `session_id` before the run.", handled_by=NOT_EXECUTED),
    _local("schema_version", ("seeded_session",), STR, "The seeded record's schema version.", handled_by=PART),
    _local("state", ("seeded_session",), Data(("map",)), "The seeded record's state.", handled_by=PART),
    _local("session_migrations", CASE, ListOf(SectionShape("migration")), "Session state migrations registered on the graph (sessions §7).", handled_by=NOT_EXECUTED),
    _local("explicit_save_session", ("node",), BOOL, "After its update merges, the node calls `save_session()` (sessions §6.2).", handled_by=NOT_EXECUTED),

    # ---- per-invocation assertions (§5.6) ------------------------------------------------------
    Directive("loaded_session_state", ("invocation", "expected"), Nullable(Expect(("map",))), "§5.6", SES, "0.48.0",
              "The session state loaded at invoke entry (null: no record existed).", handled_by=NOT_EXECUTED),
    _local("loaded_invoke_state_for_scratch", ("invocation",), Expect(("scalar",)),
           "The value the non-projected `scratch` field held on entry (its default, not the prior invoke's).", handled_by=NOT_EXECUTED),
    Directive("saved_session_assertions", ("invocation", "expected"), SectionShape("session_record_assertions"), "§5.6", SES, "0.48.0",
              "The session record written to the store at invoke exit (or at suspend).", handled_by=NOT_EXECUTED),
    Directive("state", ("session_record_assertions",), Expect(("map",)), "§5.6", SES, "0.48.0", "The saved session state.", handled_by=PART),
    _local("excludes_fields", ("session_record_assertions",), ListOf(STR), "Fields absent from the saved record (outside the projection).", handled_by=PART),
    _local("schema_version", ("session_record_assertions",), Expect(("scalar",)), "The saved record's schema version (after a session migration, sessions §7).", handled_by=PART),
    _local("expected_final_state", ("invocation",), Expect(("map",)), "The invocation's final state (as `expected.final_state`).", handled_by=NOT_EXECUTED),

    # ---- expected outcome ----------------------------------------------------------------------
    _local("no_session_load", ("expected",), BOOL, "The engine never called the store's `load()`.", handled_by=NOT_EXECUTED),
    _local("no_session_save", ("expected",), BOOL, "The engine never called the store's `save()`.", handled_by=NOT_EXECUTED),
    _local("no_auto_save_on_end", ("expected",), BOOL, "The auto-save at END did not run (the invocation did not reach END).", handled_by=NOT_EXECUTED),
    _local("store_untouched", ("expected",), BOOL, "The store received no calls at all.", handled_by=NOT_EXECUTED),
    _local("store_after", ("expected",), SectionShape("session_store_after"), "Load from the store after the run and assert the result.", handled_by=NOT_EXECUTED),
    _local("load_returns_none_for_session_id", ("session_store_after",), STR, "`load(<id>)` returns no record.", handled_by=PART),
    _local("load_returns_for_session_id", ("session_store_after",), STR, "`load(<id>)` returns a record (asserted by the `loaded_*` keys).", handled_by=PART),
    _local("loaded_state", ("session_store_after",), Expect(("map",)), "The loaded record's state.", handled_by=PART),
    _local("loaded_schema_version", ("session_store_after",), Expect(("scalar",)), "The loaded record's schema version.", handled_by=PART),
    _local("inner_pre_state", ("expected",), Expect(("map",)), "The state the subgraph's node saw on entry (sessions §9.1).", handled_by=NOT_EXECUTED),
    _local("instance_pre_states", ("expected",), Expect(("list",)), "The state each fan-out instance saw on entry, in item order (sessions §9.2).", handled_by=NOT_EXECUTED),
]
