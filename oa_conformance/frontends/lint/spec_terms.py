"""The names the specs define that lint rules check fixtures against.

Kept as data in one place, each with the spec section it comes from, so a rule reads as logic and a
spec change is a one-line edit here.
"""

from __future__ import annotations

from typing import NamedTuple

# graph-engine §2: the sentinel routing target that halts execution (not a node name).
END = "END"

# graph-engine §2 "Compiled graph": the canonical compile-time error categories.
NO_DECLARED_ENTRY = "no_declared_entry"
UNREACHABLE_NODE = "unreachable_node"
DANGLING_EDGE = "dangling_edge"
MULTIPLE_OUTGOING_EDGES = "multiple_outgoing_edges"
CONFLICTING_REDUCERS = "conflicting_reducers"
MAPPING_REFERENCES_UNDECLARED_FIELD = "mapping_references_undeclared_field"
CONFLICTING_PROJECTION_FORMS = "conflicting_projection_forms"
REDUCER_CONFIGURATION_INVALID = "reducer_configuration_invalid"

COMPILE_ERRORS = (
    NO_DECLARED_ENTRY,
    UNREACHABLE_NODE,
    DANGLING_EDGE,
    MULTIPLE_OUTGOING_EDGES,
    CONFLICTING_REDUCERS,
    MAPPING_REFERENCES_UNDECLARED_FIELD,
    CONFLICTING_PROJECTION_FORMS,
    REDUCER_CONFIGURATION_INVALID,
)

# graph-engine §4: invocation-time categories — a conditional edge returned no declared node, and
# state failed schema validation at a graph boundary.
ROUTING_ERROR = "routing_error"
STATE_VALIDATION_ERROR = "state_validation_error"

# graph-engine §2 "Reducer": the parameter-less canonical reducers (the string form, §5.2) …
PLAIN_REDUCERS = ("last_write_wins", "append", "merge", "concat_flatten", "merge_all")
DEFAULT_REDUCER = "last_write_wins"


class FactoryArgument(NamedTuple):
    """One construction parameter of a canonical factory reducer."""

    name: str
    required: bool
    accepts: str  # "positive int" or "field name"
    nullable: bool


# … and the factory reducers with their construction parameters (the mapping form, §5.2;
# graph-engine §2, proposal 0023). A factory's `key` is written as a field name.
FACTORY_REDUCERS: dict[str, tuple[FactoryArgument, ...]] = {
    "bounded_append": (FactoryArgument("max_len", True, "positive int", False),),
    "dedupe_append": (FactoryArgument("key", False, "field name", True),),
    "merge_by_key": (FactoryArgument("key", True, "field name", False),),
}

# conformance-adapter §5.10: the format matcher that a disambiguating suffix may label.
LABELLED_FORMAT = "uuid-hex"
