"""docs/RESULTS.md's table from a run's JSON report: outcomes per capability, and fixtures whose every case passed.

    .venv/bin/oa-conformance run ../shared/openarmature-spec-0.118.2 --expectations oa-expectations.toml --json run.json
    .venv/bin/python -m tools.results_table run.json

Prints the Markdown table, then how many fixtures have a passing case and none failing, erroring or xpassing.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict

from oa_conformance.verdicts.outcomes import COLUMNS, RUN_FAILING, Outcome, column_of


def column(case: dict) -> str:
    return column_of(case["outcome"], case.get("category"))


def table(report: dict) -> str:
    counts: dict[str, Counter] = defaultdict(Counter)
    fixtures: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for case in report["cases"]:
        capability = case["fixture"].split("/", 1)[0]
        counts[capability][column(case)] += 1
        fixtures[capability][case["fixture"]].append(case["outcome"])
    lines = ["| capability | " + " | ".join(COLUMNS) + " | fixtures fully passing |",
             "|---|" + "--:|" * (len(COLUMNS) + 1)]
    total, all_passing, all_fixtures = Counter(), 0, 0
    for capability in sorted(counts):
        passing = sum(all(o == Outcome.PASSED for o in outcomes) for outcomes in fixtures[capability].values())
        lines.append(f"| {capability} | " + " | ".join(str(counts[capability][c]) for c in COLUMNS)
                     + f" | {passing} / {len(fixtures[capability])} |")
        total += counts[capability]
        all_passing += passing
        all_fixtures += len(fixtures[capability])
    lines.append("| total | " + " | ".join(str(total[c]) for c in COLUMNS) + f" | {all_passing} / {all_fixtures} |")
    some_pass = sum(Outcome.PASSED in outcomes and not RUN_FAILING & set(outcomes)
                    for capability in fixtures.values() for outcomes in capability.values())
    return "\n".join(lines) + f"\n\n{some_pass} fixtures have a passing case and none failing, erroring or xpassing.\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as file:
        print(table(json.load(file)), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
