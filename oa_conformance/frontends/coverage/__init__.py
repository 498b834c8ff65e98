"""The normative coverage map (``oa-conformance coverage``, docs/COVERAGE.md): the spec prose's
RFC 2119 statements, the fixtures' citations resolved to them, the cases that verify them and the
accounting file's reasons. Static: it reads Markdown, YAML and JSON, and runs nothing.

One module per pass — ``prose`` (statements), ``citations`` (what sidecars and header comments
cite), ``resolve`` (citation → statements), ``outcomes`` (run reports), ``accounting``
(``spec-coverage.toml``) — chained by ``build.build_map``; ``text`` renders the map.
"""
