"""The assertion layer: value matchers, expected-outcome shapes and invariant predicates, all pure
rule objects over the recorded execution trace.

``rules`` (the rule objects and selectors), ``matchers`` (§5.10 values), ``error_rules`` and
``case_rules``; ``shapes/`` (the ``expected:`` shapes, tabled in its ``__init__``) and
``catalogue/`` (the predicate rows). Importing this package alone loads nothing, so ``oa-lint`` —
which needs only the predicate catalogue — does not pay for the shape modules and the runtime
pieces they reach.
"""
