"""Runtime variants: does any case fail a runtime that changed only as the spec allows?

    ./dev variants [ROOT...] [--variants FILE] [--only ID] [--expectations FILE] [--jobs N]

The mirror image of ``./dev faults`` (tools/runtime_faults.py). Each variant in
``tools/runtime-variants.toml`` is a one-line patch to a *copy* of the installed ``openarmature``
package that changes its behaviour only where the prose leaves it open, with the sentence that
leaves it open::

    [[variant]]
    id = "lp-tool-arguments-spaced"
    file = "llm/providers/openai.py"    # relative to the openarmature package
    old = 'separators=(",", ":"), sort_keys=True'   # must occur exactly once in that file
    new = 'sort_keys=True'
    allows = "llm-provider §8.1.1: ... <JSON-serialized arguments> ..."   # capability § and sentence
    fixture_defects = ["<capability>/<NNN-name>[<case>]"]   # optional: upstream cases
                                        # that pin what the sentence leaves open (each explained in
                                        # the `[[defect]]` table below); never a bundled case

    [[defect]]
    case = "<capability>/<NNN-name>[<case>]"
    variants = ["lp-tool-arguments-spaced"]
    reason = "line 88 pins the compact form; §8.1.1 says only JSON-serialized"

For each variant the corpus runs in a fresh process whose ``PYTHONPATH`` puts the patched copy ahead
of the installed runtime (as for a fault). A case *newly fails* when its verdict is worse than on
the intact runtime (passed, xfail or skipped → failed, error, not implemented or xpass). A variant
passes when no case newly fails, except the upstream cases its ``fixture_defects`` name; exit 1 when
any variant does not pass (a false alarm: the adapter or a bundled case pins what the spec allows).
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tools.runtime_faults import FaultError, detections, outcomes_under, run_corpus

VARIANTS = Path(__file__).with_name("runtime-variants.toml")


@dataclass(frozen=True)
class Variant:
    id: str
    file: str
    old: str
    new: str
    allows: str
    fixture_defects: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "fixture_defects", tuple(self.fixture_defects))


@dataclass(frozen=True)
class Defect:
    """An upstream case that pins what the prose leaves open: it fails the variants named."""

    case: str
    variants: tuple[str, ...]
    reason: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "variants", tuple(self.variants))


def load(path: Path = VARIANTS) -> tuple[list[Variant], list[Defect]]:
    """The variants and the upstream fixture defects of ``path``; raises FaultError when an id repeats,
    a defect names an unknown variant, or a variant's ``fixture_defects`` and the defects disagree."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    variants = [Variant(**entry) for entry in data.get("variant", [])]
    defects = [Defect(**entry) for entry in data.get("defect", [])]
    ids = [v.id for v in variants]
    for repeated in {i for i in ids if ids.count(i) > 1}:
        raise FaultError(f"{path}: variant {repeated!r} is listed twice")
    for defect in defects:
        for name in defect.variants:
            if name not in ids:
                raise FaultError(f"{path}: defect {defect.case!r} names no variant {name!r}")
    listed = {(v.id, case) for v in variants for case in v.fixture_defects}
    explained = {(name, d.case) for d in defects for name in d.variants}
    if listed != explained:
        raise FaultError(f"{path}: fixture_defects and [[defect]] tables disagree: {sorted(listed ^ explained)}")
    return variants, defects


def false_alarms(variant: Variant, baseline: dict[str, str], varied: dict[str, str]) -> list[str]:
    """The cases that got worse under the variant, minus the upstream fixture defects it names."""
    return [case for case in detections(baseline, varied) if case not in variant.fixture_defects]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev variants", description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="*", default=None, metavar="ROOT",
                        help="default: spec/ and the target corpus ($OA_TARGET_SPEC) when set")
    parser.add_argument("--variants", type=Path, default=VARIANTS)
    parser.add_argument("--only", action="append", metavar="ID", help="only this variant (repeatable)")
    parser.add_argument("--expectations", action="append", default=[], metavar="FILE")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="variants run side by side")
    parser.add_argument("--processes", type=int, metavar="N", help="each corpus run's --processes")
    args = parser.parse_args(argv)
    try:
        variants, _ = load(args.variants)
    except (OSError, tomllib.TOMLDecodeError, TypeError, FaultError) as exc:
        print(f"variants: {exc}", file=sys.stderr)
        return 2
    variants = [v for v in variants if not args.only or v.id in args.only]
    roots = args.roots or ["spec", *filter(None, [os.environ.get("OA_TARGET_SPEC")])]
    run_args = [arg for path in args.expectations for arg in ("--expectations", path)]
    run_args += ["--processes", str(args.processes)] if args.processes else []
    baseline = run_corpus(roots, None, run_args)

    def one(variant: Variant) -> tuple[Variant, list[str] | str, list[str]]:
        try:
            varied = outcomes_under(variant, roots, run_args)  # a variant patches like a fault
        except FaultError as exc:
            return variant, str(exc), []
        worse = detections(baseline, varied)
        return variant, false_alarms(variant, baseline, varied), [c for c in worse if c in variant.fixture_defects]

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, variants))
    failing = 0
    for variant, alarms, defects in results:
        known = f" ({len(defects)} upstream fixture defect(s) recorded)" if defects else ""
        if isinstance(alarms, str):
            failing += 1
            print(f"ERROR       {variant.id}: {alarms}")
        elif alarms:
            failing += 1
            more = f" (+{len(alarms) - 3} more)" if len(alarms) > 3 else ""
            print(f"FALSE ALARM {variant.id}: {len(alarms)} case(s) newly fail: {', '.join(alarms[:3])}{more}{known}")
        else:
            print(f"conformant  {variant.id}: no case newly fails{known}")
    print(f"\n{len(results) - failing} of {len(results)} variants pass on {' '.join(roots)}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
