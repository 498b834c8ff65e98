"""Option values checked where they are parsed (argparse ``type=`` callables), shared by the command
line and the pytest plugin, so a bad number is a usage error up front rather than a surprise later."""

from __future__ import annotations

import argparse
import difflib
import math
import os
import sys

from ..model.discovery import CAPABILITIES


def positive_seconds(text: str) -> float:
    """A finite number of seconds greater than zero (``nan``, ``inf``, ``0`` and ``-5`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: must be a finite number of seconds greater than 0")
    return value


def worker_count(text: str) -> int:
    """A whole number of workers, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: must be 0 or more")
    return value


def positive_count(text: str) -> int:
    """A whole number, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be 1 or more")
    return value


def capability_hint(name: str, known) -> str:
    """What a ``--capability`` that names none of ``known`` probably meant (``graph_engine``: did you
    mean 'graph-engine'?), else the names known: the one hint every command gives."""
    close = difflib.get_close_matches(name.replace("_", "-"), sorted(known), n=1)
    return f"did you mean '{close[0]}'?" if close else f"known: {', '.join(sorted(known))}"


def capability_name(text: str) -> str:
    """One of the capabilities whose vocabulary the adapter knows (``graph-engine``, …): any other
    name would read the fixture against no vocabulary and report false findings."""
    if text in CAPABILITIES:
        return text
    raise argparse.ArgumentTypeError(f"{text!r}: no such capability ({capability_hint(text, CAPABILITIES)})")


def cores_capped(program: str, processes: int) -> int:
    """``--processes``, at most one per core: more only share the cores and each pays the start-up
    (64 on 2 cores ran the target corpus in 22 s against 8 s); a note on stderr says so."""
    cores = os.cpu_count() or 1
    if processes <= cores:
        return processes
    print(f"{program}: --processes {processes}: this machine has {cores} core{'s' if cores > 1 else ''}; using {cores}", file=sys.stderr)
    return cores
