"""Graph build: a scenario's AST → real ``openarmature`` objects (§8.3).

Every construct is the runtime's own primitive: ``State`` subclasses with ``Reducer`` annotations,
``GraphBuilder`` nodes and edges, ``add_subgraph_node`` with the runtime's projection strategies,
``add_fan_out_node``, ``add_parallel_branches_node``, the built-in middleware and checkpointers.
What the adapter writes itself is only what a fixture describes as harness behaviour — a node
body that returns a literal update, a failure mock that raises, a test middleware that logs — and
those bodies live in :mod:`.behaviors`.

A name the fixture uses that the adapter does not provide (a checkpointer backend, a harness
callable, a middleware type) raises :class:`HarnessPrimitiveMissing` (§9), never a default.
"""

from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass, field
from typing import Annotated, Any, Iterator

from pydantic import ConfigDict, Field, create_model

from ...host import graph as oa
from ...host.detect import Lacking, RuntimeLacks, require
from ...host.graph import GRAPH, with_subgraph_identity
from ...host.observability import current_correlation_id, current_invocation_id

from ...ast.nodes import Mapping, Scalar, Section, Sequence, TypeRef
from ..static.scenarios import Scenario
from .case_output import captured, forward
from .behaviors import condition_function, count_function, guarded_route
from .middleware import build_middleware, metadata_middleware, wrap_middleware
from .node_body import composite_prelude, node_body
from .node_table import COMPOSITION_KEYS, NODE_MIDDLEWARE
from .harness import Harness, Instruments, InvocationCursor, RunLog, WiringDraft, WiringSlot
from .middleware import BuildSite
from ...model.errors import HarnessPrimitiveMissing
from ...model.vocabulary.tokens import RECORD_TYPES
from .resume import abort_point, migration_function
from ...ast.values import literal

REDUCERS = {
    "last_write_wins": oa.last_write_wins,
    "append": oa.append,
    "merge": oa.merge,
    "concat_flatten": oa.concat_flatten,
    "merge_all": oa.merge_all,
}

_PRIMITIVES = {"string": str, "int": int, "float": float, "bool": bool, "any": Any}


def python_type(ref: TypeRef) -> Any:
    """A §5.2 type string → the annotation the runtime's pydantic ``State`` validates with."""
    if ref.name in _PRIMITIVES:
        return _PRIMITIVES[ref.name]
    if ref.name == "list":
        return list[python_type(ref.args[0])] if ref.args else list
    if ref.name == "dict":
        return dict[python_type(ref.args[0]), python_type(ref.args[1])] if ref.args else dict
    if ref.name in RECORD_TYPES:
        return Any  # a record the runtime or a provider produces (its own object), or a ChatMessage
    return dict[str, Any] | None  # a user-defined record type (§5.2): a mapping of its fields, or none yet


@dataclass(frozen=True)
class BuiltGraph:
    """A compiled graph with what the execute pass needs to drive it."""

    compiled: Any
    state_cls: type
    warnings: tuple[str, ...] = ()
    subgraphs: dict[str, Any] = field(default_factory=dict)
    input_cls: Any = None  # the class of the state passed to invoke(): state_cls or a `runtime_state_subclass`


class UndeclaredState(oa.State):
    """The state of a graph that declares no ``state:`` schema (a name-listed branch's
    ``inner_subgraphs`` entry whose nodes only emit events or call a provider): no schema is
    declared, so the adapter imposes none — every field a node writes is accepted, with the
    default last-write-wins merge, as §5.2 imposes no element type on a bare ``list``. A graph
    that declares ``state:`` (even an empty one) keeps the runtime's closed schema."""

    model_config = ConfigDict(frozen=True, extra="allow")


def state_class(name: str, state: Section | None) -> type:
    """A ``State`` subclass for a fixture's state schema (an open one when none is declared)."""
    fields: dict[str, Any] = {}
    schema_version = None
    if state is not None:
        version = state.schema_version
        schema_version = version.value if isinstance(version, Scalar) else None
        declared = state.fields
        for field_name, decl in (declared.items() if declared is not None else ()):
            fields[field_name] = _field(decl)
    namespace = {"__base__": oa.State if state is not None else UndeclaredState}
    model = create_model(f"{name}State", **namespace, **fields)
    if schema_version is not None:
        model.schema_version = schema_version
    return model


def _field(decl: Section) -> tuple[Any, Any]:
    annotation = python_type(decl.type) if decl.type is not None else Any
    reducers = []
    for spec in (decl.reducer, decl.alt_reducer):
        if spec is None:
            continue
        if isinstance(spec, Scalar):
            if spec.value not in REDUCERS:
                raise HarnessPrimitiveMissing(f"reducer {spec.value!r}", spec.span)
            reducers.append(REDUCERS[spec.value])
        else:  # {factory: {kwargs}}: the runtime's own factory, when the build has it
            factory = spec.keys[0]
            found = getattr(oa, factory, None)  # None: a factory the binding does not know
            if isinstance(found, Lacking):
                raise RuntimeLacks(f"the factory reducer {GRAPH}.{factory}", spec.span)
            raise HarnessPrimitiveMissing(f"factory reducer {factory!r}: the adapter does not build it", spec.span)
    if reducers:
        annotation = Annotated[annotation, *reducers]
    default = decl.default
    if default is None:
        if decl.required is not None and decl.required.value:
            return (annotation, ...)
        return (annotation, None) if annotation is Any else (annotation, Field(default=None))
    value = literal(default)
    if isinstance(value, (list, dict)):
        return (annotation, Field(default_factory=lambda v=value: copy.deepcopy(v)))
    return (annotation, value)


class _GraphCompiler:
    """Builds one graph (the outer one, or a subgraph) and the subgraphs it references."""

    def __init__(self, scenario: Scenario, harness: Harness):
        self.scenario = scenario
        self.harness = harness  # handed to the callbacks it makes (node bodies, middleware)
        self.draft = WiringDraft()  # what it wired where, frozen when build_graph returns
        self.site = BuildSite(harness, self.draft)  # what a middleware factory builds with
        self.declarations = scenario.graph_declarations()
        self.compiled: dict[str, Any] = {}
        self.warnings: list[str] = []

    def subgraph(self, name: str, span: Any) -> Any:
        if name not in self.compiled:
            decl = self.declarations.get(name)
            if decl is None:
                raise HarnessPrimitiveMissing(f"subgraph {name!r} is not declared", span)
            self.compiled[name] = self.graph(decl, name, outermost=False)
        return self.compiled[name]

    def graph(self, source: Section | Scenario, name: str, outermost: bool) -> Any:
        graph = source.view if outermost else source  # the case's graph as its view sees it, or a declared subgraph
        state_cls = state_class(name, graph.state)
        builder = oa.GraphBuilder(state_cls)
        per_node_middleware, per_graph_middleware = self.middleware_config(graph.middleware)
        nodes = graph.nodes
        for node_name, decl in (nodes.items() if nodes is not None else ()):
            middleware = list(per_node_middleware.get(node_name, ()))
            inline = decl.middleware
            if inline is not None:
                middleware.extend(build_middleware(m, self.site, node_name) for m in inline.items)
            wrapping = decl.wrap_with_middleware
            if wrapping is not None:
                middleware.extend(wrap_middleware(m, self.harness.log) for m in wrapping.items)
            middleware.extend(NODE_MIDDLEWARE[directive](spec, self.site, node_name)
                              for directive, spec in decl.items() if directive in NODE_MIDDLEWARE)
            if any(directive in COMPOSITION_KEYS for directive in decl.order):
                prelude = composite_prelude(node_name, decl, self.harness)
                if prelude is not None:
                    middleware.append(prelude)  # innermost: where a function node's body would run
            if outermost:
                dispatched, reached = self.harness_recorder(node_name)
                middleware = [dispatched, *middleware, reached]
                self.draft.wiring.setdefault("declared_nodes", []).append(node_name)
                wiring = _wiring(decl)
                if wiring is not None:
                    self.draft.wiring["nodes"][node_name] = wiring
            self.add_node(builder, node_name, decl, middleware)
        for mw in per_graph_middleware:
            builder.add_middleware(mw)
        entry = graph.entry
        if entry is not None:
            builder.set_entry(entry.value)
        edges = graph.edges
        edges = list(edges.items) if edges is not None else []
        guarded = {edge.from_.value for edge in edges if edge.when is not None}
        for source in guarded:  # a `when:` edge and its siblings from the same node are one conditional edge
            builder.add_conditional_edge(source, guarded_route([edge for edge in edges if edge.from_.value == source]))
        for edge in edges:
            if edge.from_.value not in guarded:
                self.add_edge(builder, edge)
        if outermost:
            checkpointer = self.harness.instruments.checkpointer
            if checkpointer is not None:
                builder.with_checkpointer(checkpointer)
            migrations = graph.migrations
            for decl in (migrations.items if migrations is not None else ()):
                steps = decl.from_version.value, decl.to_version.value
                builder.with_state_migration(*steps, migration_function(decl.migrate.value, *steps, self.harness.log, graph.state, decl.migrate.span))
        with captured() as caught:  # per case, not warnings.catch_warnings: cases run side by side
            compiled = builder.compile()
        for warning in caught:
            if isinstance(warning, warnings.WarningMessage):
                category = getattr(warning.message, "category", None) or type(warning.message).__name__
                self.warnings.append(category)
        forward([item for item in caught if not isinstance(item, warnings.WarningMessage)])  # log records: the case's notes
        return compiled

    def harness_recorder(self, node_name: str):
        """The outermost and innermost per-node middleware that record ``execution_order``.

        A node counts as run once per engine dispatch, when the dispatch reaches the node itself
        (the innermost position): a middleware that short-circuits means the node did not run; a
        retry that reaches it several times is still one dispatch. Outermost nodes run one at a
        time, so one flag per node is enough.
        """
        execution = self.harness.log.execution
        seen = self.harness.log.invocation_ids
        dispatch = {"reached": True}

        async def record_dispatch(state, next_):
            ids = (current_invocation_id(), current_correlation_id())
            if not seen or seen[-1] != ids:
                seen.append(ids)
            dispatch["reached"] = False
            return await next_(state)

        async def record_execution(state, next_):
            if not dispatch["reached"]:
                dispatch["reached"] = True
                execution.append(node_name)
            return await next_(state)

        return record_dispatch, record_execution

    def middleware_config(self, config: Section | None) -> tuple[dict[str, list], list]:
        if config is None:
            return {}, []
        per_node: dict[str, list] = {}
        block = config.per_node
        for node_name, entries in (block.items() if block is not None else ()):
            per_node[node_name] = [build_middleware(m, self.site, node_name) for m in entries.items]
        graph_entries = config.per_graph
        per_graph = [build_middleware(m, self.site, None) for m in (graph_entries.items if graph_entries is not None else ())]
        return per_node, per_graph

    def add_node(self, builder: Any, name: str, decl: Section, middleware: list) -> None:
        kwargs = {"middleware": middleware} if middleware else {}
        # `subgraph_call: {subgraph, inputs, outputs}` (observability) is a subgraph node whose
        # reference and mapping sit in one block rather than beside the node's other directives.
        runs = decl.subgraph_call
        if runs is None and decl.subgraph is not None:
            runs = decl
        if runs is not None:
            child = self.subgraph(runs.subgraph.value, runs.subgraph.span)
            builder.add_subgraph_node(name, child, self.projection(runs), **kwargs)
            with_subgraph_identity(builder, name, runs.subgraph.value)
        elif decl.fan_out is not None:
            self.add_fan_out(builder, name, decl.fan_out, kwargs)
        elif decl.parallel_branches is not None:
            self.add_parallel_branches(builder, name, decl.parallel_branches, kwargs)
        else:
            builder.add_node(name, node_body(name, decl, self.harness), **kwargs)

    def projection(self, decl: Section) -> Any:
        # A present map is the projection even when empty (`outputs: {}` projects nothing out,
        # graph-engine §2): every test here is `is not None`, never truthiness.
        # decl: a node, or a `subgraph_call:` (which has no `mapping:` nor `projects_*`)
        mapping = decl.get("mapping")
        inputs = decl.inputs if decl.inputs is not None else (mapping.inputs if mapping is not None else None)
        outputs = decl.outputs if decl.outputs is not None else (mapping.outputs if mapping is not None else None)
        projects_in, projects_out = decl.get("projects_in"), decl.get("projects_out")
        if projects_in is not None or projects_out is not None:
            if inputs is not None or outputs is not None:
                require(oa.DeclaredSameName)  # both forms need the declared one to exist at all
                return _BothForms(literal(inputs) if inputs is not None else {}, literal(outputs) if outputs is not None else None,
                                  literal(projects_in) if projects_in is not None else [],
                                  literal(projects_out) if projects_out is not None else [])
            return oa.DeclaredSameName(
                in_fields=set(literal(projects_in) if projects_in is not None else ()),
                out_fields=set(literal(projects_out) if projects_out is not None else ()),
            )
        if inputs is not None or outputs is not None:
            return oa.ExplicitMapping(inputs=literal(inputs) if inputs is not None else {}, outputs=literal(outputs) if outputs is not None else None)
        return None

    def add_fan_out(self, builder: Any, name: str, spec: Section, kwargs: dict) -> None:
        subgraph_name = spec.subgraph
        child = self.subgraph(subgraph_name.value, subgraph_name.span)
        options: dict[str, Any] = {}
        for key, value in (("items_field", spec.items_field), ("item_field", spec.item_field), ("collect_field", spec.collect_field),
                           ("target_field", spec.target_field), ("error_policy", spec.error_policy), ("on_empty", spec.on_empty),
                           ("count_field", spec.count_field), ("errors_field", spec.errors_field)):
            if value is not None:
                options[key] = value.value
        count = spec.count
        if count is not None:
            options["count"] = count.value if isinstance(count, Scalar) else count_function(count)
        concurrency = spec.concurrency
        if concurrency is not None:
            options["concurrency"] = concurrency.value if isinstance(concurrency, Scalar) else count_function(concurrency)
        mode = spec.concurrent_mode
        if mode is not None and mode.value == "serial":
            options["concurrency"] = 1
        for key, value in (("inputs", spec.inputs), ("extra_outputs", spec.extra_outputs)):
            if value is not None:
                options[key] = literal(value)
        instance = spec.instance_middleware
        if instance is not None:
            options["instance_middleware"] = [build_middleware(m, self.site, name) for m in instance.items]
        if "item_field" in options:
            self.draft.fan_out_item_fields[name] = options["item_field"]
        abort = spec.abort_after_instance
        if abort is not None:  # a harness crash after that instance's completion save (resume.py)
            self.draft.abort_points[name] = abort.value
            kwargs = {**kwargs, "middleware": [*kwargs.get("middleware", ()), abort_point(self.harness.cursor, self.harness.log, name)]}
        # The compiled subgraph's identity (its declared name): observers report it as `subgraph_name`.
        try:
            builder.add_fan_out_node(name, subgraph=child, subgraph_identity=subgraph_name.value, **options, **kwargs)
        except ValueError as error:  # the builder refused a configuration literal (not a CompileError)
            raise ConfigurationRejected(error) from error

    def add_parallel_branches(self, builder: Any, name: str, spec: Section, kwargs: dict) -> None:
        branches = {}
        for branch_name, branch in branch_entries(spec):
            if isinstance(branch, Scalar):  # a bare name: the branch runs the subgraph declared under that name
                branches[branch_name] = oa.BranchSpec(subgraph=self.subgraph(branch_name, branch.span))
                continue
            options: dict[str, Any] = {}
            if branch.subgraph is not None:
                options["subgraph"] = self.subgraph(branch.subgraph.value, branch.subgraph.span)
            if branch.call is not None:
                options["call"] = node_body(branch_name, branch.call, self.harness)
            for key, value in (("inputs", branch.inputs), ("outputs", branch.outputs)):
                if value is not None:
                    options[key] = literal(value)
            when = branch.when
            if when is not None:
                field_name = when.field.value
                options["when"] = lambda state, f=field_name: bool(getattr(state, f))
            middleware = branch.middleware
            built = [build_middleware(m, self.site, branch_name) for m in middleware.items] if middleware is not None else []
            augment = branch.augment_metadata
            if augment is not None:  # set_invocation_metadata at the top of the branch body: outermost branch middleware
                built.insert(0, metadata_middleware(literal(augment), self.harness.log, branch_name))
            if built:
                options["middleware"] = tuple(built)
            branches[branch_name] = oa.BranchSpec(**options)
        options = {}
        for key, value in (("error_policy", spec.error_policy), ("errors_field", spec.errors_field)):
            if value is not None:
                options[key] = value.value
        builder.add_parallel_branches_node(name, branches=branches, **options, **kwargs)

    def add_edge(self, builder: Any, edge: Section) -> None:
        source = edge.from_.value
        condition = edge.condition
        if condition is not None:
            builder.add_conditional_edge(source, condition_function(condition))
            return
        target = edge.to.value
        builder.add_edge(source, oa.END if target == "END" else target)


class _BothForms(oa.ExplicitMapping):
    """A subgraph node declaring both projection forms: the runtime must reject it at compile time."""

    def __init__(self, inputs, outputs, in_fields, out_fields):
        super().__init__(inputs=inputs, outputs=outputs)
        self.in_fields = set(in_fields)
        self.out_fields = set(out_fields)


class ConfigurationRejected(Exception):
    """The runtime's fan-out registration refused the fixture's configuration with a plain
    ``ValueError`` — how a Python builder rejects a bad literal (an ``on_empty`` other than "raise" /
    "noop", which pipeline-utilities §9 calls "a compile error" without naming a category). A
    build-time outcome like a compile error; ``rejected`` is the runtime's own exception."""

    def __init__(self, rejected: ValueError) -> None:
        super().__init__(str(rejected))
        self.rejected = rejected


def build_graph(scenario: Scenario, instruments: Instruments, log: RunLog, cursor: InvocationCursor) -> tuple[BuiltGraph, Harness]:
    """Compile the scenario's outermost graph (and every subgraph it uses) with the real runtime,
    from the frozen instruments; the node bodies and middleware it makes append to ``log`` and read
    ``cursor`` while the graph runs. Returns the built graph and the case's :class:`Harness`, whose
    wiring is frozen from here on.

    Compile errors propagate as the runtime raises them; the execute pass records them.
    """
    harness = Harness(instruments, log, cursor, WiringSlot())
    compiler = _GraphCompiler(scenario, harness)
    compiled = compiler.graph(scenario, "Case", outermost=True)
    harness.wired.fill(compiler.draft.freeze(compiled))
    input_cls = compiled.state_cls
    subclass = scenario.view.runtime_state_subclass
    if subclass is not None:  # the caller passes an instance of a subclass overriding class attributes
        input_cls = type(f"Runtime{input_cls.__name__}", (input_cls,), literal(subclass))
    return BuiltGraph(compiled, compiled.state_cls, tuple(compiler.warnings), compiler.compiled, input_cls), harness


def branch_entries(spec: Section) -> Iterator[tuple[str, Section | Scalar]]:
    """A ``parallel_branches`` block's branches as ``(name, declaration)``, in declaration order:
    the mapping form (``{name: {subgraph | call, ...}}``), a list of ``{name: ...}`` sections, or
    the observability list of bare names (each a ``Scalar``: the branch runs the subgraph of that
    name, e.g. an ``inner_subgraphs`` entry, with no projection either way)."""
    declared = spec.branches
    if isinstance(declared, Mapping):
        yield from declared.items()
        return
    for branch in declared.items:
        yield (branch.value, branch) if isinstance(branch, Scalar) else (branch.name.value, branch)


def _wiring(decl: Section) -> dict | None:
    """What an outer fan-out / parallel-branches node was built with (the trace's ``wiring``)."""
    def value(found: Any) -> Any:
        return literal(found) if found is not None else None

    fan_out = decl.fan_out
    if fan_out is not None:
        return {"kind": "fan_out", "collect_field": value(fan_out.collect_field), "target_field": value(fan_out.target_field),
                "extra_outputs": value(fan_out.extra_outputs), "errors_field": value(fan_out.errors_field)}
    parallel = decl.parallel_branches
    if parallel is None:
        return None
    branches = {name: {"form": "subgraph", "outputs": None, "when": None} if isinstance(branch, Scalar) else
                {"form": "call" if branch.call is not None else "subgraph", "outputs": value(branch.outputs),
                 "when": branch.when.field.value if branch.when is not None else None}
                for name, branch in branch_entries(parallel)}
    return {"kind": "parallel_branches", "errors_field": value(parallel.errors_field), "branches": branches}


__all__ = ["BuiltGraph", "build_graph", "python_type", "state_class", "Sequence"]
