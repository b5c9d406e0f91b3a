"""Generate trust-dev7.jsonl: the outside testers' session-6 wrong answers (issue 13).

Written before any code change, each shape in 2-3 variants beside twins that must still
answer: a dispute about the question's slot governs over an episode that talks about the same
thing (F1); a later turn that cancels or replaces an earlier one (cancel, no longer, instead,
changed my mind) is not answered around (F2); "yesterday", "last week", "two weeks ago",
"last month", "N days ago" set the period records are judged in, relative to when the question
is asked (F3); a "where" question needs a record stating a place (F4); "for a living" asks for
a job, not where one lives (F5); a record naming a kind of thing answers a question asking for
the class ("any pets?" / "my cat") (F6).

    python benchmarks/gold/trust_dev7_cases.py > benchmarks/gold/trust-dev7.jsonl
"""

import json


def _at(day: str) -> str:
    return day if "T" in day else day + "T09:00:00Z"


def fact(tx, user, text, day, key=None, kind="fact"):
    return _env(tx, user, text, day, key, kind, {"type": "explicit_user", "ref": "chat:" + tx, "session": None,
                                                  "speaker": None}, "the user said so")


def turn(tx, user, speaker, text, day, session="session_1"):
    return _env(tx, user, text, day, None, "episode", {"type": "conversation", "ref": "D1:" + tx, "session": session,
                                                        "speaker": speaker}, "conversation turn kept verbatim")


def update(tx, user, of, text, day, key):
    step = fact(tx, user, text, day, key)
    step["envelope"]["operation"] = "update"
    step["envelope"]["target"]["record_id"] = "@" + of
    step["envelope"]["reason"] = "the user reported a change"
    return step


def dispute(tx, user, one, other, day, key=None):
    at = _at(day)
    return {"at": at, "envelope": {
        "schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": "dispute",
        "actor": {"type": "user_via_agent", "id": "assistant"},
        "source": {"type": "explicit_user", "ref": "chat:" + tx, "observed_at": at, "evidence_hash": None,
                   "session": None, "speaker": None},
        "target": {"record_id": "@" + one, "memory_key": key, "scope": {"type": "user", "key": user}},
        "payload": {"conflict_with": ["@" + other]}, "reason": "the user's statements contradict each other"}}


def _env(tx, user, text, day, key, kind, src, reason):
    at = _at(day)
    actor = {"type": "agent", "id": "chat-logger"} if src["type"] == "conversation" else \
        {"type": "user_via_agent", "id": "assistant"}
    return {"at": at, "envelope": {
        "schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": "add", "actor": actor,
        "source": {"type": src["type"], "ref": src["ref"], "observed_at": at, "evidence_hash": None,
                   "session": src["session"], "speaker": src["speaker"]},
        "target": {"record_id": None, "memory_key": key, "scope": {"type": "user", "key": user}},
        "payload": {"kind": kind, "statement": text, "confidence": "high", "importance": "medium", "aliases": [],
                    "tags": [], "negative_triggers": []},
        "valid_time": {"from": at, "to": None}, "sensitivity": {"classification": "private"}, "reason": reason}}


V, U = "VERIFIED", "UNKNOWN"

# (user, setup, [(question, state, reason, expected, forbidden, query at or None, description)])
STORES = [
    # F1: a dispute about the question's slot governs over an episode on the same thing
    ("nina", [fact("tx-fri", "nina", "My sister arrives on Friday.", "2024-06-01", "sister.arrival"),
              fact("tx-sat", "nina", "My sister arrives on Saturday.", "2024-06-02", "sister.arrival_alt"),
              dispute("tx-disp", "nina", "tx-fri", "tx-sat", "2024-06-02T10:00:00Z", "sister.arrival"),
              turn("tx-t-maria", "nina", "nina", "My sister Maria is visiting next weekend.", "2024-06-03"),
              fact("tx-work", "nina", "I work at the city library.", "2024-06-03", "job")], [
        ("When does my sister arrive?", U, "unresolved_conflict", [], ["tx-fri", "tx-sat", "tx-t-maria"], None,
         "F1: the keyed facts about the sister's arrival are disputed; the visiting turn does not get around it"),
        ("What day does my sister arrive?", U, "unresolved_conflict", [], ["tx-fri", "tx-sat", "tx-t-maria"], None,
         "F1 variant: the same slot asked with 'what day'"),
        ("When is my sister visiting?", U, "unresolved_conflict", [], ["tx-fri", "tx-sat", "tx-t-maria"], None,
         "F1 (the tester's words): the visit is the disputed arrival; the turn does not answer around the dispute"),
        ("What is my sister's name?", V, None, ["tx-t-maria"], ["tx-fri", "tx-sat"], None,
         "F1 twin: the turn alone answers a different question (the sister's name)"),
        ("Where do I work?", V, None, ["tx-work"], ["tx-fri", "tx-sat"], None,
         "F1 twin: an unrelated fact still answers beside the dispute"),
    ]),
    ("omar", [fact("tx-tue", "omar", "The plumber is coming on Tuesday.", "2024-06-01", "plumber.visit"),
              fact("tx-thu", "omar", "The plumber is coming on Thursday.", "2024-06-02", "plumber.visit_alt"),
              dispute("tx-disp", "omar", "tx-tue", "tx-thu", "2024-06-02T10:00:00Z", "plumber.visit"),
              turn("tx-t-boiler", "omar", "omar", "The plumber is coming this week to fix the boiler.", "2024-06-03")], [
        ("When is the plumber coming?", U, "unresolved_conflict", [], ["tx-tue", "tx-thu", "tx-t-boiler"], None,
         "F1 variant: the plumber's day is disputed; the turn saying 'this week' does not answer around it"),
        ("What is the plumber fixing?", V, None, ["tx-t-boiler"], ["tx-tue", "tx-thu"], None,
         "F1 twin: the turn alone answers what the plumber fixes (no disputed fact is about it)"),
    ]),
    ("ines", [fact("tx-f7", "ines", "My flight to Oslo leaves at 7am.", "2024-06-01", "flight.departure"),
              fact("tx-f9", "ines", "My flight to Oslo leaves at 9am.", "2024-06-02", "flight.departure_alt"),
              dispute("tx-disp", "ines", "tx-f7", "tx-f9", "2024-06-02T10:00:00Z", "flight.departure"),
              turn("tx-t-oslo", "ines", "ines", "My Oslo flight leaves early on Monday, I need a taxi.", "2024-06-03"),
              fact("tx-gym", "ines", "My gym is on Elm Street.", "2024-06-03", "gym")], [
        ("When does my flight to Oslo leave?", U, "unresolved_conflict", [], ["tx-f7", "tx-f9", "tx-t-oslo"], None,
         "F1 variant: the departure time is disputed; the turn about the same flight does not settle it"),
        ("Where is my gym?", V, None, ["tx-gym"], ["tx-f7", "tx-f9"], None, "F1 twin: unrelated fact answers"),
    ]),
    ("ines", [fact("tx-f7", "ines", "My flight to Oslo leaves at 7am.", "2024-06-01", "flight.departure"),
              turn("tx-t-oslo", "ines", "ines", "My Oslo flight leaves early on Monday, I need a taxi.", "2024-06-03")], [
        ("When does my flight to Oslo leave?", V, None, ["tx-f7"], [], None,
         "F1 twin: without the dispute the keyed fact answers"),
    ]),
    # F2: a later turn that cancels or replaces an earlier one
    ("paul", [turn("tx-t-lisbon", "paul", "paul", "We're planning a trip to Lisbon in March.", "2024-01-10"),
              turn("tx-t-dentist", "paul", "paul", "I booked a dentist appointment for the 3rd of March.", "2024-01-12"),
              turn("tx-t-cancel", "paul", "paul", "I'll cancel the Lisbon trip, we're going to Porto instead.",
                   "2024-02-05", "session_2")], [
        ("Where am I travelling in March?", V, None, ["tx-t-cancel"], ["tx-t-lisbon"], None,
         "F2: the later turn replaces the Lisbon trip: it answers (the earlier one is not cited)"),
        ("Am I going to Lisbon?", V, None, ["tx-t-cancel"], ["tx-t-lisbon"], None,
         "F2 variant: asked by the place; the cancelled plan is not cited as the answer"),
        ("When is my dentist appointment?", V, None, ["tx-t-dentist"], ["tx-t-cancel"], None,
         "F2 twin: a turn on another subject is untouched by the cancellation"),
    ]),
    ("rosa", [turn("tx-t-piano", "rosa", "rosa", "I signed up for piano lessons on Wednesdays.", "2024-03-01"),
              turn("tx-t-quit", "rosa", "rosa", "I changed my mind about the piano lessons, I'm not doing them anymore.",
                   "2024-04-02", "session_2"),
              turn("tx-t-swim", "rosa", "rosa", "Swimming lessons are on Saturday mornings.", "2024-04-03", "session_2")], [
        ("When are my piano lessons?", V, None, ["tx-t-quit"], ["tx-t-piano"], None,
         "F2 variant: 'changed my mind ... not anymore' retires the earlier plan: the later turn answers"),
        ("When are my swimming lessons?", V, None, ["tx-t-swim"], ["tx-t-piano"], None,
         "F2 twin: another lesson stays answerable"),
    ]),
    ("theo", [turn("tx-t-acme", "theo", "theo", "My new job at Acme starts on Monday.", "2024-05-01"),
              turn("tx-t-globex", "theo", "theo", "I'm no longer joining Acme, I'm staying at Globex instead.",
                   "2024-05-20", "session_2")], [
        ("Where is my new job?", V, None, ["tx-t-globex"], ["tx-t-acme"], None,
         "F2 variant: 'no longer ... instead' replaces the Acme job"),
    ]),
    ("paul", [turn("tx-t-lisbon", "paul", "paul", "We're planning a trip to Lisbon in March.", "2024-01-10"),
              turn("tx-t-guide", "paul", "paul", "I'll cancel my gym membership, it costs too much.", "2024-02-05",
                   "session_2")], [
        ("Where am I travelling in March?", V, None, ["tx-t-lisbon"], ["tx-t-guide"], None,
         "F2 twin: a later cancellation of something else does not touch the trip"),
    ]),
    # F3: relative time words set the period, relative to when the question is asked
    ("omar", [turn("tx-t-shoes", "omar", "omar", "I bought running shoes at the mall.", "2024-05-08"),
              turn("tx-t-bike", "omar", "omar", "I bought a new bike at the market.", "2024-06-04", "session_2")], [
        ("What did I buy last week?", V, None, ["tx-t-bike"], ["tx-t-shoes"], "2024-06-10T09:00:00Z",
         "F3: 'last week' (3-9 June asked on 10 June) is the period the purchase is judged in"),
        ("What did I buy 6 days ago?", V, None, ["tx-t-bike"], ["tx-t-shoes"], "2024-06-10T09:00:00Z",
         "F3 variant: 'N days ago' names a day"),
        ("What did I buy last month?", V, None, ["tx-t-shoes"], ["tx-t-bike"], "2024-06-10T09:00:00Z",
         "F3 variant: 'last month' is May"),
        ("What did I buy yesterday?", V, None, ["tx-t-bike"], ["tx-t-shoes"], "2024-06-05T09:00:00Z",
         "F3 variant: 'yesterday' is 4 June"),
        ("What did I buy yesterday?", U, "insufficient_evidence", [], ["tx-t-bike", "tx-t-shoes"],
         "2024-06-10T09:00:00Z", "F3: nothing was bought on 9 June"),
        ("What did I buy two weeks ago?", U, "insufficient_evidence", [], ["tx-t-bike", "tx-t-shoes"],
         "2024-06-10T09:00:00Z", "F3: nothing was bought in the week of 27 May"),
        ("What did I buy at the market?", V, None, ["tx-t-bike"], ["tx-t-shoes"], "2024-06-10T09:00:00Z",
         "F3 twin: no time words, the content answers"),
    ]),
    ("kim", [fact("tx-globex", "kim", "I work at Globex.", "2024-01-01", "job"),
             update("tx-initech", "kim", "tx-globex", "I work at Initech.", "2024-06-01", "job")], [
        ("Where did I work last month?", "VERIFIED_HISTORICAL", None, ["tx-globex"], ["tx-initech"],
         "2024-06-20T09:00:00Z", "F3 keyed: 'last month' (May) is when the job is judged: Globex then"),
        ("Where do I work?", V, None, ["tx-initech"], ["tx-globex"], "2024-06-20T09:00:00Z",
         "F3 twin: today's job"),
    ]),
    # F4: a 'where' question needs a record stating a place
    ("lena", [fact("tx-cat", "lena", "My cat Luna hates the new apartment.", "2024-06-01", "cat"),
              fact("tx-office", "lena", "My new office has a great coffee machine.", "2024-06-01", "office"),
              fact("tx-wedding", "lena", "The wedding was lovely, we danced all night.", "2024-06-02", "wedding"),
              fact("tx-hosp", "lena", "I work at the hospital in Leeds.", "2024-06-02", "job")], [
        ("Where is my new apartment?", U, "insufficient_evidence", [], ["tx-cat"], None,
         "F4: shares 'new apartment', states no place"),
        ("Where is my new office?", U, "insufficient_evidence", [], ["tx-office"], None,
         "F4 variant: the office's coffee machine is no place"),
        ("Where was the wedding?", U, "insufficient_evidence", [], ["tx-wedding"], None,
         "F4 variant: the wedding was lovely, said nowhere where"),
        ("What does my cat hate?", V, None, ["tx-cat"], ["tx-office"], None,
         "F4 twin: the same record answers what it states"),
        ("Where do I work?", V, None, ["tx-hosp"], ["tx-cat"], None, "F4 twin: a place is stated"),
    ]),
    ("lena", [fact("tx-apt", "lena", "My new apartment is on Rua Augusta in Lisbon.", "2024-06-01", "home"),
              fact("tx-office", "lena", "My new office is near Canary Wharf.", "2024-06-01", "office")], [
        ("Where is my new apartment?", V, None, ["tx-apt"], ["tx-office"], None, "F4 twin: the place is stated"),
        ("Where is my new office?", V, None, ["tx-office"], ["tx-apt"], None, "F4 twin: 'near' states a place"),
    ]),
    # F5: 'for a living' asks for a job, not where one lives
    ("sara", [fact("tx-nurse", "sara", "I work as a nurse at St Mary's.", "2024-06-01", "job"),
              fact("tx-leeds", "sara", "I live in Leeds.", "2024-06-01", "home")], [
        ("What do I do for a living?", V, None, ["tx-nurse"], ["tx-leeds"], None,
         "F5: 'for a living' asks the job; 'living' is not 'live'"),
        ("What does my brother do for a living?", U, "insufficient_evidence", [], ["tx-nurse", "tx-leeds"], None,
         "F5 variant: the brother's job is not stored"),
        ("Where do I live?", V, None, ["tx-leeds"], ["tx-nurse"], None, "F5 twin: where one lives"),
    ]),
    ("sara", [fact("tx-leeds", "sara", "I live in Leeds.", "2024-06-01", "home"),
              fact("tx-cake", "sara", "I love baking lemon cake.", "2024-06-01", "hobby")], [
        ("What do I do for a living?", U, "insufficient_evidence", [], ["tx-leeds", "tx-cake"], None,
         "F5 variant: no job stored; the home city does not answer"),
    ]),
    # F6: a class word ("pets", "vehicle") is answered by a record naming a kind of it
    ("lena", [fact("tx-cat", "lena", "My cat Luna sleeps all day.", "2024-06-01", "cat"),
              fact("tx-car", "lena", "My car is a red Honda Civic.", "2024-06-01", "car"),
              fact("tx-tea", "lena", "I drink green tea every morning.", "2024-06-01", "tea")], [
        ("Do I have any pets?", V, None, ["tx-cat"], ["tx-car", "tx-tea"], None, "F6: a cat is a pet"),
        ("What kind of pet do I have?", V, None, ["tx-cat"], ["tx-car"], None, "F6 variant: asked for the kind"),
        ("Do I own a vehicle?", V, None, ["tx-car"], ["tx-cat"], None, "F6 variant: a car is a vehicle"),
        ("Does my sister have any pets?", U, "insufficient_evidence", [], ["tx-cat"], None,
         "F6 twin: the owner's cat is not the sister's pet"),
    ]),
    ("ola", [fact("tx-tea", "ola", "I drink green tea every morning.", "2024-06-01", "tea"),
             fact("tx-bike", "ola", "I ride my bike to work.", "2024-06-01", "commute")], [
        ("Do I have any pets?", U, "insufficient_evidence", [], ["tx-tea", "tx-bike"], None,
         "F6 twin: no animal stored"),
    ]),
]


def cases():
    n = 701
    for user, setup, qs in STORES:
        for q, state, reason, exp, forb, at, desc in qs:
            query = {"text": q, "user": user, "as_of": None, "recorded_as_of": None, "include_inactive": False}
            if at:
                query["at"] = at
            yield {"case_id": "gold_trust_%d" % n, "category": "trust", "description": desc, "setup": setup,
                   "query": query,
                   "expect": {"knowledge_state": state, "reason_code": reason, "expected": exp, "forbidden": forb,
                              "hard_negatives": [], "stale_or_retired_trap": False}}
            n += 1


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
