"""Running many cases: threads side by side (``runner``), worker processes (``processes``) and the
forkserver they are forked from (``forkserver``). Each case goes through ``oa_conformance.pipeline``."""
