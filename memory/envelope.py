"""Admission of one envelope: parse, caps, schema, then the mutation policy.

Pure: (raw bytes or dict, MutationPolicy) -> Admitted, or RefusedError/InputError
with a stable code at the first refusal. Nothing here reads or writes the store;
state-dependent rules (idempotency, tombstones, keys) live in ``lifecycle``.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime

from . import schemas
from .clock import FIRST_YEAR, LAST_YEAR, InstantOutOfRange, normalize_instant
from .credentials import fields_with_credentials, redact
from .errors import InputError, RefusedError
from .jsonio import canonical_bytes, loads_strict, nfc
from .policy import MutationPolicy

_LIST_FIELDS = ("aliases", "tags", "negative_triggers", "conflict_with")
# the free-text fields that policy ``credentials.action: redact`` may rewrite; a secret anywhere
# else is refused whatever the policy says
_REDACTABLE = frozenset({"reason", "payload.statement", "payload.aliases", "payload.tags",
                         "payload.negative_triggers"})


@dataclass(frozen=True)
class Admitted:
    envelope: dict           # NFC-normalized, instants canonical, possibly redacted
    admission: str           # admit_active | admit_candidate
    envelope_sha256: str     # of the envelope as the caller sent it (idempotency key)
    credential_present: bool


def _encodable_size(value: object) -> int:
    """Canonical byte size; refuses what the store could never encode or hash."""
    try:
        return len(canonical_bytes(value))
    except TypeError as exc:  # orjson: lone surrogates, nesting past 255, non-JSON values
        if "surrogates" in str(exc) or "UTF-8" in str(exc):
            raise InputError("envelope holds a lone surrogate (not encodable as UTF-8)",
                             code="invalid_utf8") from None
        raise InputError("envelope holds values JSON cannot carry, or is nested too deeply",
                         code="schema_violation") from None


def parse_envelope(raw: bytes | str | dict, policy: MutationPolicy) -> dict:
    """Bytes -> dict, enforcing the byte cap before any parsing work."""
    if isinstance(raw, dict):
        size = _encodable_size(raw)
        value = raw
    elif isinstance(raw, (bytes, bytearray, memoryview, str)):
        try:
            data = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
        except UnicodeEncodeError:
            raise InputError("envelope holds a lone surrogate (not encodable as UTF-8)",
                             code="invalid_utf8") from None
        size = len(data)
        if size > policy.caps["envelope_bytes"]:
            raise InputError(f"envelope is {size} bytes; the cap is {policy.caps['envelope_bytes']}",
                             code="envelope_too_large")
        value = loads_strict(data, what="envelope")
        _encodable_size(value)  # a "\ud800" escape parses but can never be stored
    else:
        raise InputError("an envelope must be JSON bytes, text or an object", code="schema_violation")
    if size > policy.caps["envelope_bytes"]:
        raise InputError(f"envelope is {size} bytes; the cap is {policy.caps['envelope_bytes']}",
                         code="envelope_too_large")
    if not isinstance(value, dict):
        raise InputError("an envelope must be a JSON object", code="schema_violation")
    return value


def envelope_sha256(envelope: dict) -> str:
    return hashlib.sha256(canonical_bytes(nfc(envelope))).hexdigest()


# the schema's pattern, matched whole: its ``$`` (Python ``re.search``) also matches before a final
# newline, and "user.city\n" would then be a second key beside "user.city", each with an active record
_MEMORY_KEY = re.compile(r"[a-z0-9_]+(?:\.[a-z0-9_]+)*")


def _check_key_exactly(envelope: dict) -> None:
    key = envelope["target"].get("memory_key")
    if key is not None and not _MEMORY_KEY.fullmatch(key):
        raise InputError("envelope fails its schema (1 problem(s)): target/memory_key: must be a memory key: "
                         "lowercase words joined by dots, such as user.home_city",
                         code="schema_violation")


def _check_caps(envelope: dict, caps: dict) -> None:
    payload = envelope.get("payload") or {}
    statement = payload.get("statement")
    if isinstance(statement, str) and len(statement.encode("utf-8")) > caps["statement_bytes"]:
        raise InputError(f"statement exceeds {caps['statement_bytes']} bytes", code="statement_too_large")
    for name in _LIST_FIELDS:
        items = payload.get(name)
        if isinstance(items, list):
            if len(items) > caps["list_items"]:
                raise InputError(f"payload.{name} has {len(items)} items; the cap is {caps['list_items']}",
                                 code="list_too_long")
            if any(isinstance(i, str) and len(i.encode("utf-8")) > caps["list_item_bytes"] for i in items):
                raise InputError(f"an item of payload.{name} exceeds {caps['list_item_bytes']} bytes",
                                 code="list_too_long")


def _canonical_instants(envelope: dict) -> dict:
    valid = envelope.get("valid_time") or {}
    for end in ("from", "to"):
        if valid.get(end):
            valid[end] = _canonical(valid[end], f"valid_time.{end}", "invalid_valid_time")
    source = envelope.get("source") or {}
    if source.get("observed_at"):
        source["observed_at"] = _canonical(source["observed_at"], "source.observed_at", "schema_violation")
    if valid.get("from") and valid.get("to") and valid["to"] <= valid["from"]:
        raise InputError("valid_time.to must be after valid_time.from", code="invalid_valid_time")
    return envelope


# the canonical spelling itself: ``normalize_instant`` gives it back unchanged when it names a
# real instant (datetime checks that), so its parse and strftime are skipped (twice per envelope)
_CANONICAL_INSTANT = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z")


def _already_canonical(instant: object) -> bool:
    match = _CANONICAL_INSTANT.fullmatch(instant) if type(instant) is str else None
    if match is None:
        return False
    year, *rest = map(int, match.groups())
    try:
        datetime(year, *rest)
    except ValueError:
        return False
    return FIRST_YEAR <= year <= LAST_YEAR


def _canonical(instant: str, field: str, unreal_code: str) -> str:
    if _already_canonical(instant):
        return instant
    try:
        return normalize_instant(instant)
    except InstantOutOfRange:
        # stored as written, year 999 would come back as "999-..." and fail the record's own schema
        raise InputError(f"{field} is outside years {FIRST_YEAR}-{LAST_YEAR}", code="instant_out_of_range") from None
    except ValueError:
        raise InputError(f"{field} is not a real instant", code=unreal_code) from None


def _check_policy(envelope: dict, policy: MutationPolicy) -> str:
    operation, source_type = envelope["operation"], envelope["source"]["type"]
    admission = policy.admission(source_type, operation)
    if admission == "reject_persistence":
        raise RefusedError(f"source '{source_type}' may not '{operation}'", code="operation_not_permitted")
    rule = policy.source_rule(source_type)
    actor_type = envelope["actor"]["type"]
    needed_actor = policy.actor_types_for(operation)
    if needed_actor is not None and actor_type not in needed_actor:
        raise RefusedError(f"'{operation}' needs an actor of type {', '.join(needed_actor)}",
                           code="actor_not_permitted")
    if actor_type not in rule["actor_types"]:
        raise RefusedError(f"actor type '{actor_type}' may not write as '{source_type}'", code="actor_not_permitted")
    scope_type = envelope["target"]["scope"]["type"]
    if scope_type not in rule["scope_types"]:
        raise RefusedError(f"source '{source_type}' may not write '{scope_type}' scopes", code="scope_not_permitted")
    kind = (envelope.get("payload") or {}).get("kind")
    if kind is not None and rule["kinds"] is not None and kind not in rule["kinds"]:
        raise RefusedError(f"source '{source_type}' may not write kind '{kind}'", code="kind_not_permitted")
    if rule["requires_evidence_hash"] and not envelope["source"].get("evidence_hash"):
        raise RefusedError(f"source '{source_type}' needs source.evidence_hash", code="evidence_required")
    return admission


# every string of schemas/envelope.schema.json whose value the caller chooses: enums, instants and
# record ids are left out (their schema admits no secret); the schema is closed, so nothing else can
# be stored. tests/test_envelope.py checks this list against the schema.
_FREE_STRINGS = ("transaction_id", "reason", "actor.id", "source.ref", "source.session", "source.speaker",
                 "source.evidence_hash", "target.memory_key", "target.scope.key", "payload.statement")
_FREE_LISTS = ("payload.aliases", "payload.tags", "payload.negative_triggers")


def _free_strings(envelope: dict) -> list[tuple[str, str]]:
    """(field name, text) for every free string of an envelope that passed its schema.

    Written out, not walked, as it runs for every envelope admitted; tests/test_envelope.py
    checks that it returns exactly the fields listed above."""
    actor, source, target = envelope["actor"], envelope["source"], envelope["target"]
    payload = envelope.get("payload") or {}
    named = (("transaction_id", envelope["transaction_id"]), ("reason", envelope.get("reason")),
             ("actor.id", actor["id"]), ("source.ref", source.get("ref")), ("source.session", source.get("session")),
             ("source.speaker", source.get("speaker")), ("source.evidence_hash", source.get("evidence_hash")),
             ("target.memory_key", target.get("memory_key")), ("target.scope.key", target["scope"]["key"]),
             ("payload.statement", payload.get("statement")))
    out = [(name, text) for name, text in named if text is not None]
    for name in _FREE_LISTS:
        items = payload.get(name[8:])
        if items:
            out.extend((name, item) for item in items)
    return out


def _screen_credentials(envelope: dict, policy: MutationPolicy) -> bool:
    # every string that is stored: an identifier or provenance field (transaction_id, actor.id,
    # source.*) is kept as long as the record, and the reason outlives the content in erasure rows
    found = fields_with_credentials(_free_strings(envelope))
    if not found:
        return False
    where = ", ".join(found)  # field names are structure, never content
    if not policy.redacts_credentials:
        raise RefusedError(f"the envelope looks like it carries a credential (in {where})", code="credential_detected")
    if any(name not in _REDACTABLE for name in found):
        # redacting an identifier would change what it identifies (two redacted ids would collide)
        raise RefusedError(f"a credential in {where} cannot be redacted, only refused", code="credential_detected")
    payload = envelope.get("payload") or {}
    for name in found:
        if name == "reason":
            envelope["reason"] = redact(envelope["reason"])
        else:
            field = name.split(".", 1)[1]
            payload[field] = redact(payload[field]) if field == "statement" else [redact(t) for t in payload[field]]
    return True


def admit(raw: bytes | str | dict, policy: MutationPolicy) -> Admitted:
    """Every state-free rule, in order; the first refusal raises with its code."""
    envelope = parse_envelope(raw, policy)
    schemas.check("envelope", envelope, what="envelope")
    _check_key_exactly(envelope)
    _check_caps(envelope, policy.caps)
    normalized = nfc(envelope)  # one walk serves the idempotency digest and the admitted copy
    digest = hashlib.sha256(canonical_bytes(normalized)).hexdigest()
    envelope = _canonical_instants(normalized)
    admission = _check_policy(envelope, policy)
    credential_present = _screen_credentials(envelope, policy)
    return Admitted(envelope, admission, digest, credential_present)
