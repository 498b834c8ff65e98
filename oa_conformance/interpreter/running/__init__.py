"""The running passes: a scenario built into a real runtime graph (``graph_build``, ``node_body``,
``node_table``, ``middleware``, ``behaviors``, the per-capability harnesses in ``capabilities/``) and
executed into a trace (``execute``)."""
