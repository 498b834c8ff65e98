"""Synthetic payloads a fixture asks the harness to generate instead of spelling them out.

``base64_data_synthetic: {bytes: N}`` in a message's image source stands for N bytes of image data
the harness makes up (the redaction rule under test is about the shape, not the bytes); ``content_
repeat: {char, bytes}`` expands to a long text. The generator is deterministic, so an assertion can
name "the synthetic blob's prefix" (``forbidden_substring_kind: synthetic_base64_prefix``) and look for it.
"""

from __future__ import annotations

import base64

# How much of the blob's start an assertion searches for: long enough never to occur by chance.
PREFIX_CHARS = 32


def synthetic_bytes(count: int) -> bytes:
    return bytes((index * 7 + 3) % 256 for index in range(count))


def synthetic_base64(count: int) -> str:
    """A base64 blob ``count`` characters long ("a base64 blob of the specified byte length": the
    encoded text is what a message carries)."""
    return base64.b64encode(synthetic_bytes(-(-count * 3 // 4))).decode("ascii")[:count]


def forbidden_prefixes(kind: str) -> list[str]:
    """The substrings a ``forbidden_substring_kind`` names."""
    if kind == "synthetic_base64_prefix":
        return [synthetic_base64(PREFIX_CHARS)[:PREFIX_CHARS]]
    raise LookupError(f"unknown forbidden_substring_kind {kind!r}")
