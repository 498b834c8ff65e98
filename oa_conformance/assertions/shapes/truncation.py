"""§5.5.5 truncation of an oversized string value, checked property by property:
``{<key>: {max_bytes, marker_pattern, utf8_valid, prefix_of_full_serialization}}``.

One checker for both backends that assert it — OTel span attributes (``attribute_truncation``,
observability 014) and Langfuse metadata values (``metadata_truncation``, conformance-adapter §5.5,
proposal 0119: "§5.5.5 applied directly to a plain-string metadata value"): the same four
properties of the same cut. What differs is only the evidence the trace holds. Langfuse metadata
values are harvested untruncated from the run's events, so the kept part is compared byte for byte
with a source value, and a U+FFFD the source lacks is a split multi-byte sequence. An OTel payload
attribute is a serialization the trace does not hold untruncated (``sources`` is None), so the
marker's byte total must exceed the bytes kept, and only an unencodable value (a lone surrogate)
is invalid UTF-8.
"""

from __future__ import annotations

import re
from typing import Any

from ...ast.nodes import Mapping, Scalar
from ..matchers import Mismatch, show

TRUNCATION_PROPERTIES = ("max_bytes", "marker_pattern", "utf8_valid", "prefix_of_full_serialization")
# A truncated payload keeps this marker, so a truncated JSON document no longer parses.
TRUNCATION_MARKER = "…[truncated"
# The whole §5.5.5 marker, with the untruncated size in bytes.
MARKER_WITH_TOTAL = re.compile(r"…\[truncated, ([0-9]+) bytes total\]$")


def truncation_mismatches(expected: Any, values: Any, sources: dict[str, tuple[str, ...]] | None, path: str,
                          what: str = "metadata value") -> list[Mismatch]:
    """Each named value of ``values`` (a span's attributes, an observation's metadata) against its
    truncation properties. ``sources``: the untruncated values by key, when the trace holds them."""
    problems: list[Mismatch] = []
    if not isinstance(expected, Mapping):
        return [Mismatch(path, f"a mapping of {what} key → truncation properties", show(values), getattr(expected, "span", None))]
    for key, properties in expected.items():
        where = f"{path}.{key}"
        value = values.get(key)
        if not isinstance(value, str):
            problems.append(Mismatch(where, f"a present string {what}", show(value), expected.key_span(key)))
            continue
        marker = properties.get("marker_pattern").value if isinstance(properties.get("marker_pattern"), Scalar) else None
        for prop, want in properties.items():
            if prop not in TRUNCATION_PROPERTIES or not isinstance(want, Scalar):
                problems.append(Mismatch(f"{where}.{prop}", f"one of {', '.join(TRUNCATION_PROPERTIES)}", show(prop), properties.key_span(prop)))
                continue
            held, seen = _holds(prop, want.value, value, None if sources is None else sources.get(key, ()), marker)
            if not held:
                problems.append(Mismatch(f"{where}.{prop}", f"{prop}: {show(want.value)}", seen, properties.key_span(prop)))
    return problems


def _holds(prop: str, want: Any, value: str, sources: tuple[str, ...] | None, marker: str | None) -> tuple[bool, str]:
    """Whether one property of a truncated value holds, with what was seen."""
    encoded = value.encode("utf-8", "surrogatepass")
    if prop == "max_bytes":
        return len(encoded) <= want, f"{len(encoded)} bytes"
    if prop == "marker_pattern":
        return re.search(want, value) is not None, f"ends {show(value[-48:])}"
    if prop == "utf8_valid":  # a split multi-byte sequence shows as a lone surrogate or U+FFFD after decoding
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            return not want, f"not encodable as UTF-8 ({error.reason})"
        broken = sources is not None and "\ufffd" in value and not any("\ufffd" in full for full in sources)
        return broken != want, "a U+FFFD replacement character the source lacks" if broken else "valid UTF-8"
    if sources is None:  # no untruncated source in the trace: the marker's total must exceed what was kept
        total = MARKER_WITH_TOTAL.search(value)
        if total is None:
            return not want, f"no '…[truncated, N bytes total]' marker: ends {show(value[-48:])}"
        kept = len(value[:total.start()].encode("utf-8", "surrogatepass"))
        return (int(total.group(1)) > kept) == want, f"the marker's total {total.group(1)} bytes against {kept} kept"
    kept = _cut_prefix(value, marker).encode("utf-8", "surrogatepass")
    if not sources:
        return False, "no untruncated value of this field in the run's events to compare with"
    prefixed = any(full.encode("utf-8", "surrogatepass").startswith(kept) for full in sources)
    return prefixed == want, f"the kept {len(kept)} bytes are{'' if prefixed else ' not'} a prefix of a source value"


def _cut_prefix(value: str, marker_pattern: str | None) -> str:
    """The value without its truncation marker (the pattern's match, else the §5.5.5 marker's text)."""
    if marker_pattern is not None:
        found = re.search(marker_pattern, value)
        if found is not None:
            return value[:found.start()]
    return value.split(TRUNCATION_MARKER, 1)[0]
