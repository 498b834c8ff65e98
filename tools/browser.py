"""The system Chromium, headless, as the report page's tests and benchmark drive it through Playwright.

Debian's ``chromium`` package (``/usr/bin/chromium``; ``.ci/run`` installs it when missing): never a
browser Playwright downloads. The arguments keep the browser itself from reaching the network
(no background updates, sync, QUIC) and let it run as root in a container (``--no-sandbox``).
"""

from __future__ import annotations

import os

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def missing() -> str | None:
    """Why no browser can be launched here, or None."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM} (as root: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    return None


def launch(playwright):
    """A headless Chromium browser from a ``sync_playwright()`` handle."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
