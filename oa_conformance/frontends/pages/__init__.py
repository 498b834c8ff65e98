"""The HTML pages the project makes, each one self-contained file rendered by one Jinja2 environment
(``environment.py``) from the templates beside it: the report page over ``run --json`` reports
(``report_page.py``) and the coverage map of the spec's normative statements (``coverage_page.py``).

Pages take plain data (the JSON documents the commands write) and import nothing that runs a case:
no runtime, no interpreter, no host binding.
"""

from .coverage_page import render_coverage_page
from .report_page import render_report_page

__all__ = ["render_coverage_page", "render_report_page"]
