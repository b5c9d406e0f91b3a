"""Recognize statements that carry a secret, and redact them when policy says so.

The patterns name well-known credential shapes; a hit is refused
(``credential_detected``) by default or replaced by ``[REDACTED:<kind>]``.
The matched text itself is never reported anywhere.
"""
from __future__ import annotations

import re

_PATTERNS = {
    "private_key": r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----",
    "aws_access_key": r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
    "github_token": r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b",
    "openai_key": r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\b",
    "slack_token": r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b",
    "google_api_key": r"\bAIza[0-9A-Za-z_-]{35}\b",
    "jwt": r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    "bearer_token": r"\b[Bb]earer\s+[A-Za-z0-9._~+/-]{20,}=*",
    "assignment": (r"(?i)\b(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|"
                   r"auth[_-]?token|client[_-]?secret)\b\s*(?:[:=]|\bis\b)\s*['\"]?[^\s'\"]{6,}"),
}
_COMPILED = [(kind, re.compile(pattern)) for kind, pattern in _PATTERNS.items()]


def credential_kinds(text: str) -> list[str]:
    """The kinds of secret found in ``text`` (empty when clean)."""
    return [kind for kind, pattern in _COMPILED if pattern.search(text)]


def redact(text: str) -> str:
    for kind, pattern in _COMPILED:
        text = pattern.sub(f"[REDACTED:{kind}]", text)
    return text
