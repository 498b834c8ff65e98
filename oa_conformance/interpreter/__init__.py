"""The passes a fixture goes through, one module each (``oa_conformance.pipeline`` chains them): the static
passes in ``static/`` read and check a fixture and run nothing; the running ones in ``running/`` build
the real runtime graph and execute it.

    load           static.loader.load_path / load_bytes       YAML → value tree
    schema check   static.schema_check.check_schema           value tree × vocabulary → problems
    build          static.build.build_fixture                 checked value tree → typed AST
    version check  static.version_check.check_version         typed AST × target version → problems
    scenarios      static.scenarios.scenarios                 typed AST → one Scenario per case
    graph build    running.graph_build.build_graph             scenario × harness → compiled runtime graph
    execute        running.execute.execute_case                scenario → trace
"""
