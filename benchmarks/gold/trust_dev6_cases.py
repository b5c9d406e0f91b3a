"""Generate trust-dev6.jsonl: the outside tester's session-5 wrong answers (issue 13).

Written before any code change. Shapes: a record holding only the question's
subject does not answer a predicate it lacks ("What is my dog allergic to?"
from "My dog is a beagle named Biscuit."); a first-person statement is about
the speaker, not what the speaker has ("my cat"); a record naming a relation
("My sister Maria ...") answers that relation's name. Each beside twins that
must still answer, on facts and on conversation turns.

    python benchmarks/gold/trust_dev6_cases.py > benchmarks/gold/trust-dev6.jsonl
"""

import json

DAY = "2024-06-0{}T09:00:00Z"


def fact(tx, user, text, day, key=None, kind="fact"):
    return _env(tx, user, text, day, key, kind, {"type": "explicit_user", "ref": "chat:" + tx, "session": None, "speaker": None}, "the user said so")


def turn(tx, user, speaker, text, day):
    return _env(tx, user, text, day, None, "episode", {"type": "conversation", "ref": "D1:" + tx, "session": "session_1", "speaker": speaker}, "conversation turn kept verbatim")


def _env(tx, user, text, day, key, kind, src, reason):
    at = DAY.format(day)
    actor = {"type": "agent", "id": "chat-logger"} if src["type"] == "conversation" else {"type": "user_via_agent", "id": "assistant"}
    return {"at": at, "envelope": {
        "schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": "add", "actor": actor,
        "source": {"type": src["type"], "ref": src["ref"], "observed_at": at, "evidence_hash": None, "session": src["session"], "speaker": src["speaker"]},
        "target": {"record_id": None, "memory_key": key, "scope": {"type": "user", "key": user}},
        "payload": {"kind": kind, "statement": text, "confidence": "high", "importance": "medium", "aliases": [], "tags": [], "negative_triggers": []},
        "valid_time": {"from": at, "to": None}, "sensitivity": {"classification": "private"}, "reason": reason}}


# (store, [(question, expected tx or None, forbidden, description)])
STORES = [
    ("alice", [fact("tx-dog", "alice", "Alice's dog is a beagle named Biscuit.", 1, "dog"),
               fact("tx-bob-allergy", "bob", "I'm allergic to peanuts.", 1, "allergy"),
               fact("tx-job", "alice", "Alice works as a teacher in Leeds.", 2, "job")], [
        ("What is my dog allergic to?", None, ["tx-dog", "tx-bob-allergy"], "the dog's record holds the subject, not the allergy asked of it"),
        ("What breed is my dog?", "tx-dog", ["tx-job"], "twin: the dog's breed is stated"),
        ("What is my dog's name?", "tx-dog", ["tx-job"], "twin: the dog's name is stated"),
    ]),
    ("alice", [fact("tx-dog", "alice", "Alice's dog is a beagle named Biscuit.", 1, "dog"),
               fact("tx-pollen", "alice", "I'm allergic to pollen.", 2, "allergy")], [
        ("What is my dog allergic to?", None, ["tx-dog", "tx-pollen"], "the allergy word elsewhere in the scope does not let the dog's record answer"),
        ("What am I allergic to?", "tx-pollen", ["tx-dog"], "twin: the owner's allergy answers"),
    ]),
    ("carla", [fact("tx-car", "carla", "My car is a red Honda Civic.", 1, "car"),
               fact("tx-flat", "carla", "My flat cost 900 pounds a month.", 2, "rent")], [
        ("How old is my car?", None, ["tx-car"], "the car's record does not state its age"),
        ("What colour is my car?", "tx-car", ["tx-flat"], "twin: the car's colour is stated"),
    ]),
    ("alice", [turn("tx-t-cat", "alice", "alice", "My cat Luna is a grey tabby.", 1),
               turn("tx-t-spiders", "alice", "alice", "Honestly I'm scared of spiders.", 2)], [
        ("What is my cat scared of?", None, ["tx-t-cat", "tx-t-spiders"], "turn: the cat's turn holds the subject only; the speaker's fear is hers"),
        ("What am I scared of?", "tx-t-spiders", ["tx-t-cat"], "twin turn: the speaker's fear answers"),
        ("What colour is my cat?", "tx-t-cat", ["tx-t-spiders"], "twin turn: the cat's colour is stated"),
    ]),
    ("bob", [turn("tx-t-peanut", "bob", "bob", "I'm allergic to peanuts, so please remember that for recipes.", 1),
             turn("tx-t-hi", "bob", "assistant", "Noted, I'll keep peanuts out of your recipes.", 1)], [
        ("What is my cat allergic to?", None, ["tx-t-peanut", "tx-t-hi"], "turn: a first-person allergy is the speaker's, not his cat's"),
        ("What am I allergic to?", "tx-t-peanut", [], "twin turn: the speaker's allergy answers"),
    ]),
    ("bob", [fact("tx-peanut", "bob", "I'm allergic to peanuts.", 1, "allergy"),
             fact("tx-diet", "bob", "I eat mostly vegetarian food.", 2, "diet")], [
        ("What is my son allergic to?", None, ["tx-peanut"], "the owner's allergy does not answer for his son"),
        ("What does my dog eat?", None, ["tx-diet"], "the owner's diet is not his dog's"),
        ("What do I eat?", "tx-diet", ["tx-peanut"], "twin: the owner's diet answers"),
        ("What am I allergic to?", "tx-peanut", ["tx-diet"], "twin: the owner's allergy answers"),
    ]),
    ("alice", [turn("tx-t-sister", "alice", "alice", "My sister Maria is visiting next weekend.", 1),
               turn("tx-t-work", "alice", "alice", "Work has been busy at the library.", 2)], [
        ("What is my sister's name?", "tx-t-sister", ["tx-t-work"], "turn: 'My sister Maria' names the sister"),
        ("What is my brother's name?", None, ["tx-t-sister"], "turn: the sister's name is not the brother's"),
        ("When is my sister visiting?", "tx-t-sister", ["tx-t-work"], "twin turn: the visit is stated"),
    ]),
    ("dev", [fact("tx-brother", "dev", "My brother Luca lives in Turin.", 1, "brother.home"),
             fact("tx-boss", "dev", "My boss Priya approved my leave.", 2, "work.leave")], [
        ("What is my brother's name?", "tx-brother", ["tx-boss"], "'My brother Luca' names the brother"),
        ("What's my boss called?", "tx-boss", ["tx-brother"], "'My boss Priya' names the boss"),
        ("What is my mother's name?", None, ["tx-brother", "tx-boss"], "no record names the mother"),
        ("Where does my brother live?", "tx-brother", ["tx-boss"], "twin: the brother's city answers"),
    ]),
]


def cases():
    n = 501
    for user, setup, qs in STORES:
        for q, exp, forb, desc in qs:
            yield {"case_id": "gold_trust_%d" % n, "category": "trust", "description": desc, "setup": setup,
                   "query": {"text": q, "user": user, "as_of": None, "recorded_as_of": None, "include_inactive": False},
                   "expect": {"knowledge_state": "VERIFIED" if exp else "UNKNOWN", "reason_code": None if exp else "insufficient_evidence",
                              "expected": [exp] if exp else [], "forbidden": forb, "hard_negatives": [], "stale_or_retired_trap": False}}
            n += 1


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
