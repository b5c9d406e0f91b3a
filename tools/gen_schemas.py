"""Write schemas/*.schema.json from memory.vocabulary, so enums have one source.

Run: python tools/gen_schemas.py   (tests/test_schemas.py fails when the files drift; it then
copies schemas/ and config/ into memory/packaged/ with tools/sync_package_data.py)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memory import vocabulary as V  # noqa: E402

INSTANT = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"}
NULLABLE_INSTANT = {"anyOf": [INSTANT, {"type": "null"}]}
SHORT = {"type": "string", "maxLength": 512}
NULLABLE_SHORT = {"type": ["string", "null"], "maxLength": 512}
MEMORY_KEY = {"type": "string", "pattern": r"^[a-z0-9_]+(\.[a-z0-9_]+)*$", "maxLength": 200}
RECORD_ID = {"type": "string", "pattern": "^mem_[0-9a-f]{24}$"}
WHOLE_SCOPE = ("erase only: true erases every record of the scope (an erase must name a record_id, a memory_key "
               "or this)")
SHA256 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
# the retrieval policy's feature flags (docs/POLICIES.md says what each does); the code asks
# for them by name, so the schema is their list: a name not here fails the policy's load
RETRIEVAL_FEATURES = ("feedback_expansion", "context_expansion",
                      "speaker_field", "speaker_search", "subject_attribution", "asserted_support",
                      "date_field", "person_possessors", "relative_dates", "question_dates", "dense_search",
                      "relation_subjects", "dialogue_pronouns", "negative_scope", "follow_supersession",
                      "subject_gate_only", "unseen_modifier_abstains", "role_possessors",
                      "named_subjects", "sentence_attribution", "pronoun_scope", "stated_contest",
                      "irregular_forms", "relation_names",
                      "caller_turns", "caller_clauses", "turn_persons",
                      "answer_types", "relation_synonyms",
                      "negated_openings", "owner_attributes", "subject_only_abstains", "blocked_outweighs",
                      "predicate_required", "owned_subjects", "relation_name_answers",
                      "reply_answers", "abstention_sureness", "unseen_premise",
                      "place_answers", "question_idioms", "dispute_governs",
                      "question_periods",
                      "turn_supersession", "class_words",
                      "dispute_about_subject",
                      "stated_negatives", "historical_negatives", "negative_objects", "yes_no_objects", "when_only_abstains", "statement_persons", "yes_no_predicates", "closing_before", "named_before", "past_values", "speaker_with_relation", "age_answers", "favourite_objects", "compound_heads", "number_answers", "typed_answers", "typed_evidence_order", "replaced_historical", "later_values", "period_needs_time", "value_bridge",
                      "class_lexicon", "relation_lexicon", "relation_is_name", "yes_no_names",
                      "named_months", "dated_records", "change_starts", "period_activity", "recurring_times",
                      "then_links_first", "prospective_mood", "bare_changes", "aspect_words", "asked_head", "current_values",
                      "light_acts", "before_events", "period_doings", "stated_years",
                      "missing_without_time",
                      "asked_attributes", "value_units", "head_members",
                      "everyday_thesaurus", "whole_compounds", "kinship_model",
                      "member_roles", "means_answers", "amount_things", "negated_synonyms",
                      "relation_idioms", "occupation_reading", "age_subjects", "event_questions",
                      "turn_relations", "age_search", "name_subjects", "possessed_names", "linked_names", "we_turns", "race_acts", "idiom_coverage",
                      "kind_members", "typo_terms", "unseen_heads", "errand_means", "thing_phrases", "synonyms_known",
                      "bare_genitives", "qualified_relations", "colloquial_relations", "doing_now", "kin_group", "thing_names", "speaker_relation_names", "occupation_search", "agent_nouns",
                      "past_weekdays", "place_periods", "start_values", "count_so_far", "asked_durations", "period_news", "ended_links", "own_doings",
                      "other_values", "whole_attributes", "place_residence",
                      "typo_transpositions",
                      "occupation_subjects", "indefinite_members",
                      "negation_scope", "latest_values",
                      "compound_senses")


def enum(values):
    return {"type": "string", "enum": list(values)}


def obj(properties, required=None, extra=False):
    return {"type": "object", "properties": properties,
            "required": list(properties) if required is None else required,
            "additionalProperties": extra}


SCOPE = obj({"type": enum(V.SCOPE_TYPES), "key": {"type": "string", "minLength": 1, "maxLength": 256}})
STRING_LIST = {"type": "array", "items": {"type": "string", "maxLength": 1024}}
SOURCE_FIELDS = {
    "type": enum(V.SOURCE_TYPES), "ref": NULLABLE_SHORT, "observed_at": NULLABLE_INSTANT,
    "evidence_hash": {"type": ["string", "null"], "maxLength": 128},
    "session": NULLABLE_SHORT, "speaker": NULLABLE_SHORT,
}


def record_schema():
    transition = obj({
        "operation": enum(V.OPERATIONS), "transaction_id": SHORT,
        "actor": obj({"type": enum(V.ACTOR_TYPES), "id": SHORT}),
        "reason": {"type": ["string", "null"], "maxLength": 2048},
        "from_status": {"anyOf": [enum(V.STATUSES), {"type": "null"}]},
        "to_status": enum(V.STATUSES),
        "valid_to_before": NULLABLE_INSTANT, "valid_to_after": NULLABLE_INSTANT,
        "policy_sha256": SHA256, "recorded_at": INSTANT,
        "envelope_sha256": SHA256, "group_size": {"type": "integer", "minimum": 1},
        "tombstone": {"anyOf": [{"type": "null"}, obj({"memory_key": {"type": ["string", "null"]},
                                                        "value_sha256": SHA256})]},
    }, required=["operation", "transaction_id", "actor", "reason", "from_status", "to_status",
                 "valid_to_before", "valid_to_after", "policy_sha256", "recorded_at"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "memory.record.v1", "title": "One revision of one memory",
        **obj({
            "schema_version": {"const": "memory.record.v1"},
            "id": RECORD_ID, "revision": {"type": "integer", "minimum": 1},
            "memory_key": {"anyOf": [MEMORY_KEY, {"type": "null"}]},
            "kind": enum(V.KINDS), "statement": {"type": "string"},
            "status": enum(V.STATUSES), "scope": SCOPE,
            "valid_time": obj({"from": INSTANT, "to": NULLABLE_INSTANT}),
            "recorded_time": obj({"recorded_at": INSTANT, "recorded_by": SHORT}),
            "source": obj(SOURCE_FIELDS),
            "sensitivity": obj({"classification": enum(V.CLASSIFICATIONS),
                                "credential_present": {"type": "boolean"},
                                "handling": {"type": "string", "enum": ["store", "redacted"]}}),
            "conflict": obj({"state": enum(V.CONFLICT_STATES), "with": {"type": "array", "items": RECORD_ID},
                             "resolution": {"type": ["string", "null"]}}),
            "supersession": obj({"supersedes": {"type": "array", "items": RECORD_ID},
                                 "superseded_by": {"anyOf": [RECORD_ID, {"type": "null"}]},
                                 "reason": {"type": ["string", "null"]}}),
            "verification": obj({"state": enum(V.VERIFICATION_STATES), "method": {"type": ["string", "null"]},
                                 "verified_by": {"type": ["string", "null"]}, "verified_at": NULLABLE_INSTANT}),
            "confidence": enum(V.LEVELS), "importance": enum(V.LEVELS),
            "aliases": STRING_LIST, "tags": STRING_LIST, "negative_triggers": STRING_LIST,
            "transition": transition,
            "hash": obj({"algorithm": {"const": "sha256"}, "canonicalization": {"const": "memory-c14n-v1"},
                         "value": SHA256}),
        }),
    }


def envelope_schema():
    payload = obj({
        "kind": enum(V.KINDS), "statement": {"type": "string", "minLength": 1},
        "confidence": enum(V.LEVELS), "importance": enum(V.LEVELS),
        "aliases": STRING_LIST, "tags": STRING_LIST, "negative_triggers": STRING_LIST,
        "conflict_with": {"type": "array", "items": RECORD_ID},
    }, required=[])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "memory.envelope.v1", "title": "A mutation envelope",
        **obj({
            "schema_version": {"const": "memory.envelope.v1"},
            "transaction_id": {"type": "string", "minLength": 1, "maxLength": 200},
            "operation": enum(V.OPERATIONS),
            "actor": obj({"type": enum(V.ACTOR_TYPES), "id": {"type": "string", "minLength": 1, "maxLength": 200}}),
            "source": obj(SOURCE_FIELDS, required=["type"]),
            "target": obj({"record_id": {"anyOf": [RECORD_ID, {"type": "null"}]},
                           "memory_key": {"anyOf": [MEMORY_KEY, {"type": "null"}]},
                           "whole_scope": {"type": "boolean", "description": WHOLE_SCOPE},
                           "scope": SCOPE}, required=["scope"]),
            "payload": payload,
            "valid_time": obj({"from": NULLABLE_INSTANT, "to": NULLABLE_INSTANT}, required=[]),
            "sensitivity": obj({"classification": enum(V.CLASSIFICATIONS)}, required=[]),
            "reason": {"type": ["string", "null"], "maxLength": 2048},
        }, required=["schema_version", "transaction_id", "operation", "actor", "source", "target"]),
    }


def mutation_policy_schema():
    source_rule = obj({
        "operations": {"type": "object", "propertyNames": enum(V.OPERATIONS),
                       "additionalProperties": enum(V.ADMISSIONS)},
        "scope_types": {"type": "array", "items": enum(V.SCOPE_TYPES), "uniqueItems": True},
        "actor_types": {"type": "array", "items": enum(V.ACTOR_TYPES), "uniqueItems": True},
        "kinds": {"anyOf": [{"type": "null"}, {"type": "array", "items": enum(V.KINDS), "uniqueItems": True}]},
        "requires_evidence_hash": {"type": "boolean"},
        "description": {"type": "string"},
    }, required=["operations", "scope_types", "actor_types", "kinds", "requires_evidence_hash"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "memory.mutation-policy.v1", "title": "Which envelopes are admitted",
        **obj({
            "schema_version": {"const": "memory.mutation-policy.v1"},
            "description": {"type": "string"},
            "caps": obj({k: {"type": "integer", "minimum": 1} for k in
                         ("envelope_bytes", "statement_bytes", "list_items", "list_item_bytes")}),
            "credentials": obj({"action": {"type": "string", "enum": ["refuse", "redact"]}}),
            "operation_actor_types": {"type": "object", "propertyNames": enum(V.OPERATIONS),
                                      "additionalProperties": {"type": "array", "items": enum(V.ACTOR_TYPES)}},
            "sources": {"type": "object", "propertyNames": enum(V.SOURCE_TYPES),
                        "additionalProperties": source_rule},
        }, required=["schema_version", "caps", "credentials", "operation_actor_types", "sources"]),
    }


def forgetting_policy_schema():
    retention = obj({"kind": {"anyOf": [enum(V.KINDS), {"const": "*"}]},
                     "classification": {"anyOf": [enum(V.CLASSIFICATIONS), {"const": "*"}]},
                     "days": {"type": "integer", "minimum": 1}})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "memory.forgetting-policy.v1", "title": "What may support an answer",
        **obj({
            "schema_version": {"const": "memory.forgetting-policy.v1"},
            "description": {"type": "string"},
            "answering_statuses": {"type": "array", "items": {"type": "string", "enum": ["active", "retired"]},
                                   "uniqueItems": True, "minItems": 1},
            "retired_requires_closed_validity": {"type": "boolean"},
            "retention": {"type": "array", "items": retention},
            "abstention_priority": {"type": "array", "items": enum(V.REASON_CODES), "uniqueItems": True,
                                    "minItems": len(V.REASON_CODES), "maxItems": len(V.REASON_CODES)},
            "shared_scopes": {"type": "array", "items": SCOPE},
        }, required=["schema_version", "answering_statuses", "retired_requires_closed_validity",
                     "retention", "abstention_priority", "shared_scopes"]),
    }


def retrieval_policy_schema():
    # every section is closed and lists what the code reads: a misspelled key (a feature flag
    # above all, which would otherwise read as "off") or a missing one fails the load, exit 4
    number = {"type": "number", "minimum": 0}
    count = {"type": "integer", "minimum": 1}
    share = {"type": "number", "minimum": 0, "maximum": 1}
    planner = obj({
        "max_steps": count, "candidates_per_search": count, "rrf_k": number,
        "context_window": {"type": "integer", "minimum": 0}, "default_limit": count,
        "unseen_entity_weight": number, "speaker_weight": {"type": "integer", "minimum": 0},
        "neighbour_weight": number, "dense_weight": number, "unseen_key_weight": number,
        "unseen_time_weight": number, "indefinite_weight": number,
        "own_turns_weight": number, "session_weight": number, "question_form_weight": number,
    })
    decision = obj({"min_coverage": share, "support_coverage": share, "support_ratio": share,
                    "evidence_ratio": share, "swap_ratio": share,
                    "sureness_margin": {"anyOf": [share, {"type": "null"}]}})
    features = obj({name: {"type": "boolean"} for name in RETRIEVAL_FEATURES})
    env_name = {"type": "string", "pattern": "^[A-Z_][A-Z0-9_]*$", "maxLength": 128}
    llm = obj({
        "base_url_env": env_name, "model_env": env_name, "key_env": env_name,
        "timeout_seconds": {"type": "number", "minimum": 1}, "max_steps": count,
        "hits_per_search": count, "rrf_k": number,
    }, required=["base_url_env", "model_env", "key_env", "timeout_seconds", "max_steps"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "memory.retrieval-policy.v1", "title": "How the planner searches",
        **obj({
            "schema_version": {"const": "memory.retrieval-policy.v1"},
            "description": {"type": "string"},
            "bm25": obj({"k1": number, "b": share, "epsilon": number}),
            "planner": planner, "decision": decision, "features": features, "llm": llm,
        }, required=["schema_version", "bm25", "planner", "decision", "features"]),
    }


def manifest_schema():
    shard = obj({"bytes": {"type": "integer", "minimum": 0}, "lines": {"type": "integer", "minimum": 0},
                 "sha256": SHA256})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "memory.manifest.v1", "title": "A scope's shards (per-scope manifest)",
        **obj({
            "schema_version": {"const": "memory.manifest.v1"},
            "scope_digest": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
            "shards": {"type": "object", "additionalProperties": shard},
            "policy_sha256": {"type": "object", "additionalProperties": SHA256},
            "updated_at": INSTANT,
        }),
    }


def query_result_schema():
    evidence = {"type": "object", "required": ["id", "revision", "kind", "status", "statement", "score",
                                               "memory_key", "valid_time", "recorded_time", "source"]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "memory.query-result.v1", "title": "The answer of memory query --json",
        "type": "object",
        "required": ["knowledge_state", "reason_code", "missing_conditions", "query", "scope", "as_of",
                     "evidence", "audit_only", "planner"],
        "properties": {
            "knowledge_state": enum(V.KNOWLEDGE_STATES),
            "reason_code": {"anyOf": [enum(V.REASON_CODES), {"type": "null"}]},
            "missing_conditions": {"type": "array", "items": {"type": "string"}},
            "query": {"type": "string"}, "scope": {"type": "array", "items": SCOPE},
            "as_of": {"type": "object", "required": ["valid_time", "recorded_time"]},
            "evidence": {"type": "array", "items": evidence},
            "audit_only": {"type": "array"},
            "planner": {"type": "object", "required": ["name", "steps"]},
        },
    }


SCHEMAS = {
    "record": record_schema, "envelope": envelope_schema, "mutation-policy": mutation_policy_schema,
    "forgetting-policy": forgetting_policy_schema, "retrieval-policy": retrieval_policy_schema,
    "manifest": manifest_schema, "query-result": query_result_schema,
}


def rendered() -> dict[str, str]:
    return {name: json.dumps(build(), indent=2, ensure_ascii=False) + "\n" for name, build in SCHEMAS.items()}


if __name__ == "__main__":
    for name, text in rendered().items():
        (ROOT / "schemas" / f"{name}.schema.json").write_text(text, encoding="utf-8")
        print(f"wrote schemas/{name}.schema.json")
    # the package ships copies of schemas/ (and config/): keep them in step
    from sync_package_data import sync  # noqa: E402  (tools/ is this script's folder)
    for line in sync():
        print(line)
