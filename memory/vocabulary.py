"""The one registry of closed vocabularies.

Schema enums (``schemas/*.json``), policy keys and the CLI's ``click.Choice``
lists all come from here; ``tests/test_schemas.py`` fails when a schema file
drifts from this module.
"""
from __future__ import annotations

STATUSES = ("candidate", "active", "disputed", "retired", "rejected")
KINDS = ("fact", "preference", "decision", "instruction", "project_context", "workflow",
         "security_boundary", "negative", "episode")
SCOPE_TYPES = ("user", "agent", "project", "global")
SOURCE_TYPES = ("explicit_user", "repository_evidence", "conversation", "raw_import", "model_inference")
ACTOR_TYPES = ("user_via_agent", "agent", "reviewer", "importer", "automation")
OPERATIONS = ("add", "update", "retire", "dispute", "resolve", "approve", "reject", "forget", "erase")
ADMISSIONS = ("admit_active", "admit_candidate", "reject_persistence")
CLASSIFICATIONS = ("public", "private", "sensitive")
LEVELS = ("high", "medium", "low")
CONFLICT_STATES = ("none", "unresolved", "resolved")
VERIFICATION_STATES = ("verified", "unverified", "rejected")
KNOWLEDGE_STATES = ("VERIFIED", "VERIFIED_HISTORICAL", "VERIFIED_NEGATIVE",
                    "VERIFIED_WITH_NEGATIVE_BOUNDARY", "UNKNOWN")
REASON_CODES = ("unresolved_conflict", "retired_or_expired", "candidate_or_unverified",
                "insufficient_evidence")
PLANNERS = ("deterministic", "llm")
MUTATION_RESULT_STATUSES = ("applied", "idempotent", "refused")

# Refusal codes a mutation can answer with, and what each means.
REFUSAL_CODES = {
    "invalid_json": "the envelope is not valid JSON",
    "invalid_utf8": "the envelope is not valid UTF-8",
    "duplicate_key": "a JSON object repeats a key",
    "non_finite_number": "NaN or Infinity in the input",
    "schema_violation": "the envelope does not match schemas/envelope.schema.json",
    "envelope_too_large": "the envelope exceeds caps.envelope_bytes",
    "statement_too_large": "the statement exceeds caps.statement_bytes",
    "list_too_long": "a list exceeds caps.list_items",
    "operation_not_permitted": "the policy rejects this source type for this operation",
    "actor_not_permitted": "this actor type may not perform this operation",
    "scope_not_permitted": "this source type may not write this scope type",
    "kind_not_permitted": "this source type may not write this kind",
    "evidence_required": "this source type needs source.evidence_hash",
    "credential_detected": "a stored field (statement, reason, ids, source, lists) looks like a secret",
    "transaction_conflict": "the transaction_id was used with a different envelope",
    "record_not_found": "no such record in the target scope",
    "key_already_active": "the memory_key already has an active record: use update",
    "duplicate_active_record": "the same value is already the active record",
    "value_tombstoned": "the value was forgotten or rejected and may not come back",
    "invalid_transition": "the operation does not apply to the record's status",
    "invalid_valid_time": "the valid-time interval is empty or out of order",
    "instant_out_of_range": "an instant's year, as written or in UTC, is outside 1000-9999",
    "invalid_target": "the target names the wrong things for this operation",
}
