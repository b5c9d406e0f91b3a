"""The one place envelopes and caller scopes are built (DESIGN §5).

- ``user_scope(user)``: the scope a caller's id names, ``{"type": "user", "key": ...}``.
  The id is NFC-normalized here, so ``Ange\\u0301le`` and ``Angèle`` are one scope for
  reads, writes and erasure through every front door (CLI, HTTP, MCP, Python).
- ``build(operation, scope, ...)``: a ``memory.envelope.v1`` dict. Every writer (the
  façade's verbs, the server's leaderboard add, the dataset importers, tests)
  builds through it, so a field the contract adds is added once.
- ``source(...)``: the ``source`` object, every key present.

Pure: nothing here reads or writes a store; admission (``memory.envelope``)
judges what is built.
"""
from __future__ import annotations

import unicodedata

from .errors import InputError, UsageError

SCHEMA_VERSION = "memory.envelope.v1"


def user_scope(user: str) -> dict:
    """Scope user:<user>, its key NFC-normalized; an empty or blank id is ``scope_required``."""
    if not isinstance(user, str) or not user.strip():
        # a usage error (exit 2), as `memory query` has always said it: one code, one exit status
        raise UsageError("a scope needs a non-empty user (--user)", code="scope_required")
    try:
        user.encode("utf-8")  # a shell argument that is not UTF-8 arrives with lone surrogates
    except UnicodeEncodeError:
        raise InputError("the user id is not valid UTF-8", code="invalid_utf8") from None
    return {"type": "user", "key": unicodedata.normalize("NFC", user)}


def source(source_type: str, *, ref: str | None = None, observed_at: str | None = None,
           session: str | None = None, speaker: str | None = None, evidence_hash: str | None = None) -> dict:
    return {"type": source_type, "ref": ref, "observed_at": observed_at, "evidence_hash": evidence_hash,
            "session": session, "speaker": speaker}


def build(operation: str, scope: dict, *, transaction_id: str, actor: dict, source: dict,
          record_id: str | None = None, memory_key: str | None = None, whole_scope: bool = False,
          payload: dict | None = None, valid_time: dict | None = None, sensitivity: str | None = None,
          reason: str | None = None) -> dict:
    """One envelope; ``payload``, ``valid_time`` and ``sensitivity`` appear only when given.

    ``whole_scope`` is written only when true: an erase of a whole scope must say so.
    """
    target = {"record_id": record_id, "memory_key": memory_key, "scope": scope}
    if whole_scope:
        target["whole_scope"] = True
    envelope = {"schema_version": SCHEMA_VERSION, "transaction_id": transaction_id, "operation": operation,
                "actor": actor, "source": source, "target": target, "reason": reason}
    if payload is not None:
        envelope["payload"] = payload
    if valid_time is not None:
        envelope["valid_time"] = valid_time
    if sensitivity is not None:
        envelope["sensitivity"] = {"classification": sensitivity}
    return envelope
