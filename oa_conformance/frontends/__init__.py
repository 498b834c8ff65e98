"""The front ends: the commands (``cli/``), the pytest plugin (``pytest/``), the linter (``lint/``),
the coverage map (``coverage/``), the HTML pages (``pages/``), and the outputs they share (``report``,
``junit``, ``expectations_from_runs``, ``options``)."""
