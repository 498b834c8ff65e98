"""The one Jinja2 environment every page renders with: the package's templates, autoescaped.

Every page extends ``base.html``, which inlines ``page.css`` and the page's script: a page is one
self-contained file that makes no request (no fonts, no CDN, no external script or style).
"""

from __future__ import annotations

from functools import cache

import jinja2


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("oa_conformance.frontends.pages", "templates"),
        # Every template is HTML (the .css and .js files are included inside <style> / <script>
        # and hold no expressions): every value is escaped unless a template says otherwise.
        autoescape=True,
        undefined=jinja2.StrictUndefined,  # a misspelt name is an error, never an empty cell
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["percent"] = lambda part, whole: f"{100 * part / whole:.2f}" if whole else "0"
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)
