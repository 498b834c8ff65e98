"""The implementation's own identity, as the runtime package declares it (``__implementation_name__``,
``__version__``, ``__spec_version__``); one a build does not declare is ``None``."""

from __future__ import annotations

import openarmature


def implementation_identity() -> dict[str, str | None]:
    return {"implementation_name": getattr(openarmature, "__implementation_name__", None),
            "implementation_version": getattr(openarmature, "__version__", None),
            "spec_version": getattr(openarmature, "__spec_version__", None)}


__all__ = ["implementation_identity"]
