"""Record revisions: ids, construction, the canonical hash, tombstone keys.

A record id is fixed at creation from (scope digest, transaction id) — never
from position or from other records' content. Each revision is a full copy of
the record with its ``transition`` row and ``hash``; the hash is sha256 over
the ``memory-c14n-v1`` canonical form of the revision without ``hash``
(``memory/jsonio.py`` documents the rule).
"""
from __future__ import annotations

import copy
import hashlib
import re
import unicodedata

from .jsonio import CANONICALIZATION, canonical_bytes, nfc_canonical
from .paths import scope_digest

SCHEMA_VERSION = "memory.record.v1"


def record_id_for(scope: dict, transaction_id: str) -> str:
    seed = f"{scope_digest(scope['type'], scope['key'])}\0{transaction_id}".encode("utf-8")
    return "mem_" + hashlib.sha256(seed).hexdigest()[:24]


def content_hash(revision: dict) -> str:
    body = {k: v for k, v in revision.items() if k != "hash"}
    return hashlib.sha256(canonical_bytes(body)).hexdigest()


def seal(revision: dict) -> dict:
    """NFC-normalize a revision and attach its hash (returns a new dict, which may hold the
    revision's own nested values: a caller builds ``revision`` for this call and lets it go)."""
    body, encoded = nfc_canonical({k: v for k, v in revision.items() if k != "hash"})
    body["hash"] = {"algorithm": "sha256", "canonicalization": CANONICALIZATION,
                    "value": hashlib.sha256(encoded).hexdigest()}  # body has no hash yet
    return body


def hash_ok(revision: dict) -> bool:
    stated = (revision.get("hash") or {}).get("value")
    return stated == content_hash(revision)


def next_revision(current: dict, **changes) -> dict:
    """A copy of ``current`` with ``changes`` applied and the revision bumped (unsealed)."""
    revision = copy.deepcopy({k: v for k, v in current.items() if k != "hash"})
    for key, value in changes.items():
        revision[key] = value
    revision["revision"] = current["revision"] + 1
    return revision


_PUNCT_EDGES = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)
_SPACES = re.compile(r"\s+")


# every ASCII character that ``[\W_]`` matches: the edge punctuation of an ASCII value
_ASCII_EDGES = "".join(c for c in map(chr, range(128)) if not c.isalnum())


def normalize_value(text: str) -> str:
    """The form a tombstone compares: NFKC, case-folded, spaces folded, edge punctuation off."""
    if text.isascii():
        # the same steps with str methods (every add hashes its value): NFKC leaves ASCII as
        # it is, casefold is lower, split() and ``\s`` agree on whitespace
        return " ".join(text.lower().split()).strip(_ASCII_EDGES)
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _PUNCT_EDGES.sub("", _SPACES.sub(" ", folded).strip())


def tombstone_hash(memory_key: str | None, value: str) -> str:
    seed = f"{memory_key or ''}\0{normalize_value(value)}".encode("utf-8")
    return hashlib.sha256(seed).hexdigest()


def statement_bytes(revision: dict) -> int:
    return len(revision.get("statement", "").encode("utf-8"))
