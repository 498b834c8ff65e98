"""The passes a fixture goes through, one module each (``oa_conformance.pipeline`` chains them).

    load           loader.load_path / load_bytes       YAML → value tree
    schema check   schema_check.check_schema           value tree × vocabulary → problems
    build          build.build_fixture                 checked value tree → typed AST
    version check  version_check.check_version         typed AST × target version → problems
    scenarios      scenarios.scenarios                 typed AST → one Scenario per case
    graph build    graph_build.build_graph             scenario × harness → compiled runtime graph
    execute        execute.execute_case                scenario → trace
"""
