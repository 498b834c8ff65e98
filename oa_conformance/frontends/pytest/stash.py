"""The pytest session's state, one ``StashKey`` each: what the hooks, the collectors
(``collection``) and the items (``item``) share through ``config.stash``."""

from __future__ import annotations

from pathlib import Path

import pytest

from .cases_ahead import CasesAhead
from ...verdicts.expectations import Expectations
from .xdist_shares import Shares

SCHEDULER = pytest.StashKey[CasesAhead]()
ROOTS = pytest.StashKey["tuple[Path, ...]"]()
EXPECTATIONS = pytest.StashKey[Expectations]()
SEEN = pytest.StashKey["set[Path]"]()
COLLECTED = pytest.StashKey["set[str]"]()
WHOLE = pytest.StashKey["set[str]"]()  # capabilities collected through their folder (not a file given alone)
GIVEN_FILES = pytest.StashKey["set[Path]"]()
SHARES = pytest.StashKey[Shares]()  # which fixtures this process reads and runs (xdist_shares)
ORPHANS = pytest.StashKey[list]()  # an xdist controller's record of crashed workers' shares
SESSION = pytest.StashKey[pytest.Session]()
MARKERS = pytest.StashKey["set[str]"]()
