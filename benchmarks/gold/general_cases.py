"""Writes benchmarks/gold/general-dev.jsonl: a dev set of NEW shapes for the temporal, update,
conflict, forgetting, cross_scope and abstention categories (issue 13: do they generalize?).

Written from DESIGN.md §4-§6 and the issue's promises before any code change, not from what the
engine does. Ids ``gold_<category>_2NN`` (the schema wants ``gold_<category>_<NNN>``; the visible
files stop below 100, so 2NN never collides). Regenerate with
``python benchmarks/gold/general_cases.py``; the JSONL file is what the benchmark reads.
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
_ENV = "memory.envelope.v1"


def _source(at, stype="explicit_user", session=None, speaker=None, ref=None):
    return {"type": stype, "ref": ref or f"chat:{at[:10]}#1", "observed_at": at, "evidence_hash": None,
            "session": session, "speaker": speaker}


class Case:
    def __init__(self, category, user, description):
        self.category, self.user, self.description, self.steps = category, user, description, []

    def _scope(self, user=None):
        return {"type": "user", "key": user or self.user}

    def _step(self, at, env, expect):
        self.steps.append(dict({"at": at, "envelope": env}, **({"expect": expect} if expect else {})))
        return self

    def add(self, tx, at, statement, key=None, kind="fact", aliases=(), tags=(), valid_from=None, valid_to=None,
            source="explicit_user", triggers=(), user=None, sensitivity="private", expect=None):
        actor = {"type": "agent", "id": "extractor"} if source in ("model_inference", "conversation") else \
            {"type": "user_via_agent", "id": "assistant"}
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": "add", "actor": actor,
               "source": _source(at, source), "target": {"record_id": None, "memory_key": key,
                                                         "scope": self._scope(user)},
               "payload": {"kind": kind, "statement": statement, "confidence": "high", "importance": "medium",
                           "aliases": list(aliases), "tags": list(tags), "negative_triggers": list(triggers)},
               "valid_time": {"from": valid_from or at, "to": valid_to},
               "sensitivity": {"classification": sensitivity}, "reason": "the user said so"}
        return self._step(at, env, expect)

    def turn(self, tx, at, speaker, statement, session="session_1", user=None):
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": "add",
               "actor": {"type": "agent", "id": "chat-logger"},
               "source": _source(at, "conversation", session, speaker, ref=f"D1:{len(self.steps) + 1}"),
               "target": {"record_id": None, "memory_key": None, "scope": self._scope(user)},
               "payload": {"kind": "episode", "statement": statement, "confidence": "high", "importance": "medium",
                           "aliases": [], "tags": [], "negative_triggers": []},
               "valid_time": {"from": at, "to": None}, "sensitivity": {"classification": "private"},
               "reason": "conversation turn kept verbatim"}
        return self._step(at, env, None)

    def update(self, tx, at, target, statement, key, kind="fact", aliases=(), tags=(), valid_from=None,
               user=None, triggers=(), expect=None):
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": "update",
               "actor": {"type": "user_via_agent", "id": "assistant"}, "source": _source(at),
               "target": {"record_id": f"@{target}" if target else None, "memory_key": key,
                          "scope": self._scope(user)},
               "payload": {"kind": kind, "statement": statement, "confidence": "high", "importance": "medium",
                           "aliases": list(aliases), "tags": list(tags), "negative_triggers": list(triggers)},
               "valid_time": {"from": valid_from or at, "to": None}, "sensitivity": {"classification": "private"},
               "reason": "the user reported a change"}
        return self._step(at, env, expect)

    def op(self, tx, at, operation, target=None, key=None, conflict_with=(), statement=None, valid_to=None,
           user=None, expect=None, raw_ids=()):
        actor = {"type": "reviewer", "id": "reviewer"} if operation in ("approve", "reject") else \
            {"type": "user_via_agent", "id": "assistant"}
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": operation, "actor": actor,
               "source": _source(at), "target": {"record_id": f"@{target}" if target else None, "memory_key": key,
                                                 "scope": self._scope(user)},
               "reason": f"the user asked to {operation} it"}
        payload = {}
        if conflict_with or raw_ids:
            payload["conflict_with"] = [f"@{c}" for c in conflict_with] + list(raw_ids)
        if statement is not None:
            payload["statement"] = statement
        if payload:
            env["payload"] = payload
        if valid_to:
            env["valid_time"] = {"to": valid_to}
        return self._step(at, env, expect)

    def erase_scope(self, tx, at, user):
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": "erase",
               "actor": {"type": "user_via_agent", "id": "assistant"}, "source": _source(at),
               "target": {"record_id": None, "memory_key": None, "whole_scope": True, "scope": self._scope(user)},
               "reason": "the user asked to erase everything"}
        return self._step(at, env, None)

    def ask(self, text, state, expected=(), forbidden=(), hard=(), reason=None, as_of=None, recorded_as_of=None,
            trap=False, at=None, user=None):
        if state == "UNKNOWN" and reason is None:
            reason = "insufficient_evidence"
        self.query = {"text": text, "user": user or self.user, "as_of": as_of, "recorded_as_of": recorded_as_of,
                      "include_inactive": False}
        if at:
            self.query["at"] = at
        self.expect = {"knowledge_state": state, "reason_code": reason, "expected": list(expected),
                       "forbidden": list(forbidden), "hard_negatives": list(hard), "stale_or_retired_trap": trap}
        return self


CASES: list[Case] = []


def case(category, user, description):
    made = Case(category, user, description)
    CASES.append(made)
    return made


REFUSED = lambda code: {"status": "refused", "code": code}  # noqa: E731


# -- temporal ----------------------------------------------------------------------------
# Inès moved from Lyon to Nantes; the update was recorded days after the move started.
def _ines(description):
    return case("temporal", "ines", description) \
        .add("tx-lyon", "2021-02-01T09:00:00Z", "Inès lives in Lyon, in the Croix-Rousse district.",
             "user.home_city", aliases=["home city", "lives"], valid_from="2020-01-01T00:00:00Z") \
        .add("tx-office", "2021-02-01T09:05:00Z", "Inès's office is in Lyon Part-Dieu.", "user.office_city",
             aliases=["office", "work city"]) \
        .update("tx-nantes", "2023-06-05T09:00:00Z", "tx-lyon", "Inès moved to Nantes with her partner.",
                "user.home_city", aliases=["home city", "moved"], valid_from="2023-06-01T00:00:00Z")


_ines("as-of exactly at the new value's valid_from: half-open validity, the new city answers and the old one "
      "(closed at that instant, matching the question better) does not") \
    .ask("Which city does Inès live in?", "VERIFIED", expected=["tx-nantes"], forbidden=["tx-lyon"],
         hard=["tx-office"], as_of="2023-06-01T00:00:00Z", trap=True, at="2024-01-10T09:00:00Z")

_ines("as-of one second before the boundary: the old city answers, historical; the new one is not yet valid") \
    .ask("Which city does Inès live in?", "VERIFIED_HISTORICAL", expected=["tx-lyon"], forbidden=["tx-nantes"],
         hard=["tx-office"], as_of="2023-05-31T23:59:59Z", at="2024-01-10T09:00:00Z")

case("temporal", "tomas", "a new employer whose valid_from was given with a +02:00 offset starts at 23:00Z "
     "the day before: an as-of between 23:00Z and midnight UTC answers the new employer (instants compare as "
     "instants, not as strings)") \
    .add("tx-acme", "2022-01-10T09:00:00Z", "Tomás works as an engineer at Acme Robotics.", "user.employer",
         aliases=["employer", "works", "job"]) \
    .update("tx-globex", "2024-02-20T09:00:00Z", "tx-acme", "Tomás joined Globex as lead engineer.",
            "user.employer", aliases=["employer", "works", "job"], valid_from="2024-03-01T01:00:00+02:00") \
    .ask("Where does Tomás work as an engineer?", "VERIFIED", expected=["tx-globex"], forbidden=["tx-acme"],
         as_of="2024-02-29T23:30:00Z", trap=True, at="2024-04-01T09:00:00Z")

case("temporal", "marta", "a question naming a year with a season ('in spring 2021'), no --as-of: the gym valid "
     "then answers, historical; today's gym, which matches the question better, is not cited") \
    .add("tx-fitzone", "2019-05-01T09:00:00Z", "Marta trained at FitZone near the harbour.", "user.gym",
         aliases=["gym", "trains"]) \
    .update("tx-urban", "2022-03-01T09:00:00Z", "tx-fitzone", "Marta goes to the Urban gym, a climbing gym.",
            "user.gym", aliases=["gym"]) \
    .add("tx-pool", "2022-04-01T09:00:00Z", "Marta swims at the city pool on Sundays.", "user.pool",
         aliases=["swims"]) \
    .ask("Which gym did Marta go to in spring 2021?", "VERIFIED_HISTORICAL", expected=["tx-fitzone"],
         forbidden=["tx-urban"], hard=["tx-pool"], at="2024-05-01T09:00:00Z")

case("temporal", "tomas", "past tense without --as-of ('previous employer'): the employer before the current "
     "one answers, historical; the current one is not the answer") \
    .add("tx-acme", "2022-01-10T09:00:00Z", "Tomás works as an engineer at Acme Robotics.", "user.employer",
         aliases=["employer", "works", "job"]) \
    .update("tx-globex", "2024-02-20T09:00:00Z", "tx-acme", "Tomás joined Globex as lead engineer.",
            "user.employer", aliases=["employer", "works", "job"]) \
    .add("tx-bank", "2024-02-21T09:00:00Z", "Tomás banks with N26.", "user.bank", aliases=["bank"]) \
    .ask("Who was Tomás's previous employer?", "VERIFIED_HISTORICAL", expected=["tx-acme"],
         forbidden=["tx-globex"], hard=["tx-bank"], at="2024-04-01T09:00:00Z")

case("temporal", "dora", "recorded-as-of between an update and its correction: the store then held the "
     "moved appointment (19 March), neither the original nor the later correction") \
    .add("tx-12mar", "2024-02-01T09:00:00Z", "Dora's dentist appointment is on 12 March at 10:00.",
         "user.dentist_appointment", aliases=["dentist", "appointment"]) \
    .update("tx-19mar", "2024-02-10T09:00:00Z", "tx-12mar", "The dentist moved Dora's appointment to 19 March.",
            "user.dentist_appointment", aliases=["dentist", "appointment"]) \
    .update("tx-26mar", "2024-02-15T09:00:00Z", "tx-19mar", "Correction: it is 26 March, not the 19th.",
            "user.dentist_appointment", aliases=["dentist", "appointment"]) \
    .add("tx-vet", "2024-02-16T09:00:00Z", "Dora's cat has a vet appointment on 19 March.", "user.cat_vet",
         aliases=["vet", "appointment"]) \
    .ask("When is Dora's dentist appointment?", "VERIFIED", expected=["tx-19mar"],
         forbidden=["tx-12mar", "tx-26mar", "tx-vet"], recorded_as_of="2024-02-12T09:00:00Z",
         at="2024-02-20T09:00:00Z")

case("temporal", "kai", "a retire with a future valid_time.to: the membership holds until then, so it still "
     "answers today, VERIFIED (its validity has not ended); the old library card, retired, does not") \
    .add("tx-climb", "2023-07-01T09:00:00Z", "Kai has a membership at the Boulderhaus climbing hall.",
         "user.climbing_membership", aliases=["membership", "climbing"]) \
    .add("tx-library", "2023-07-02T09:00:00Z", "Kai has a membership card for the city library.",
         "user.library_card", aliases=["membership", "library"]) \
    .op("tx-retire-climb", "2024-05-01T09:00:00Z", "retire", "tx-climb", valid_to="2024-06-30T00:00:00Z") \
    .op("tx-retire-library", "2024-05-02T09:00:00Z", "retire", "tx-library") \
    .ask("Where does Kai have a climbing membership?", "VERIFIED", expected=["tx-climb"],
         forbidden=["tx-library"], at="2024-05-10T09:00:00Z")

case("temporal", "kai", "the same future-dated retire, asked after its end: the membership ended, "
     "UNKNOWN retired_or_expired") \
    .add("tx-climb", "2023-07-01T09:00:00Z", "Kai has a membership at the Boulderhaus climbing hall.",
         "user.climbing_membership", aliases=["membership", "climbing"]) \
    .op("tx-retire-climb", "2024-05-01T09:00:00Z", "retire", "tx-climb", valid_to="2024-06-30T00:00:00Z") \
    .ask("Where does Kai have a climbing membership?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-climb"], at="2024-07-01T09:00:00Z")

case("temporal", "ines", "a question naming a year before any record was valid ('in 2018'): nothing held then, "
     "UNKNOWN retired_or_expired (the matches were not yet valid); today's city is not cited") \
    .add("tx-lyon", "2021-02-01T09:00:00Z", "Inès lives in Lyon, in the Croix-Rousse district.",
         "user.home_city", aliases=["home city", "lives"], valid_from="2020-01-01T00:00:00Z") \
    .update("tx-nantes", "2023-06-05T09:00:00Z", "tx-lyon", "Inès moved to Nantes with her partner.",
            "user.home_city", aliases=["home city", "moved", "lives"], valid_from="2023-06-01T00:00:00Z") \
    .ask("Which city did Inès live in in 2018?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-lyon", "tx-nantes"], at="2024-01-10T09:00:00Z")


# -- update ------------------------------------------------------------------------------
case("update", "priya", "a chain of three updates by memory_key (no record_id): the middle value matches the "
     "question best, the first matches too; only the last answers") \
    .add("tx-flat-white", "2023-01-05T09:00:00Z", "Priya orders an oat flat white.", "user.coffee_order",
         aliases=["coffee order"]) \
    .update("tx-cortado", "2023-05-05T09:00:00Z", None, "Priya orders a cortado at the corner café every "
            "morning.", "user.coffee_order", aliases=["coffee order"]) \
    .update("tx-decaf", "2023-09-05T09:00:00Z", None, "Switched to decaf americano, doctor's advice.",
            "user.coffee_order", aliases=["coffee order"]) \
    .add("tx-tea", "2023-09-06T09:00:00Z", "Priya orders chamomile tea in the evening.", "user.evening_tea",
         aliases=["tea"]) \
    .ask("What does Priya order at the corner café every morning?", "VERIFIED", expected=["tx-decaf"],
         forbidden=["tx-flat-white", "tx-cortado"], hard=["tx-tea"], trap=True, at="2024-01-05T09:00:00Z")

case("update", "sam", "an update that changes the kind from fact to negative: the negative answers "
     "(VERIFIED_NEGATIVE); the old positive, matching better, is never cited") \
    .add("tx-drinks", "2022-03-01T09:00:00Z", "Sam drinks red wine and beer at weekends.", "user.alcohol",
         aliases=["alcohol", "drinks"]) \
    .update("tx-sober", "2023-08-01T09:00:00Z", "tx-drinks", "Sam has stopped drinking alcohol completely.",
            "user.alcohol", kind="negative", aliases=["alcohol", "sober"], triggers=["alcohol", "wine", "beer"]) \
    .add("tx-coffee", "2023-08-02T09:00:00Z", "Sam drinks two espressos at weekends.", "user.coffee",
         aliases=["coffee"]) \
    .ask("Does Sam drink wine or beer at weekends?", "VERIFIED_NEGATIVE", expected=["tx-sober"],
         forbidden=["tx-drinks"], hard=["tx-coffee"], trap=True, at="2024-01-05T09:00:00Z")

case("update", "lena", "update, then retire (car sold), then a new add on the same key: the new car answers; "
     "the updated and the retired one do not") \
    .add("tx-golf", "2021-04-01T09:00:00Z", "Lena drives a blue VW Golf.", "user.car", aliases=["car", "drives"]) \
    .update("tx-tesla", "2022-04-01T09:00:00Z", "tx-golf", "Lena drives a red Tesla Model 3 now.", "user.car",
            aliases=["car", "drives"]) \
    .op("tx-sold", "2023-01-10T09:00:00Z", "retire", "tx-tesla") \
    .add("tx-skoda", "2023-06-01T09:00:00Z", "Bought a second-hand green Skoda estate.", "user.car",
         aliases=["car"]) \
    .ask("Which car does Lena drive?", "VERIFIED", expected=["tx-skoda"], forbidden=["tx-golf", "tx-tesla"],
         trap=True, at="2024-01-05T09:00:00Z")

case("update", "lena", "update then retire with nothing after: the slot is empty today, UNKNOWN "
     "retired_or_expired, and neither link is cited") \
    .add("tx-golf", "2021-04-01T09:00:00Z", "Lena drives a blue VW Golf.", "user.car", aliases=["car", "drives"]) \
    .update("tx-tesla", "2022-04-01T09:00:00Z", "tx-golf", "Lena drives a red Tesla Model 3 now.", "user.car",
            aliases=["car", "drives"]) \
    .op("tx-sold", "2023-01-10T09:00:00Z", "retire", "tx-tesla") \
    .add("tx-bike", "2023-02-01T09:00:00Z", "Lena rides a cargo bike to work.", "user.bike", aliases=["bike"]) \
    .ask("Which car does Lena drive?", "UNKNOWN", reason="retired_or_expired", forbidden=["tx-golf", "tx-tesla"],
         hard=["tx-bike"], at="2024-01-05T09:00:00Z")

case("update", "noor", "an update from negative back to a positive fact: the positive answers alone; the "
     "retired negative neither bounds nor answers") \
    .add("tx-no-fish", "2021-01-10T09:00:00Z", "Noor does not eat fish or meat.", "user.diet.fish",
         kind="negative", aliases=["fish", "meat"], triggers=["fish", "meat"]) \
    .update("tx-fish", "2023-03-10T09:00:00Z", "tx-no-fish", "Noor eats salmon and other fish again.",
            "user.diet.fish", aliases=["fish", "salmon"]) \
    .ask("Does Noor eat fish?", "VERIFIED", expected=["tx-fish"], forbidden=["tx-no-fish"], trap=True,
         at="2024-01-05T09:00:00Z")

case("update", "jonas", "the new home city equals the unchanged work city's value: asking where he lives "
     "answers the new home, never the old home; the work city shares the old home's word") \
    .add("tx-home-hh", "2021-01-10T09:00:00Z", "Jonas lives in Hamburg, Altona.", "user.home_city",
         aliases=["home city", "lives"]) \
    .add("tx-work-hh", "2021-01-10T09:05:00Z", "Jonas works in Hamburg at the port authority.", "user.work_city",
         aliases=["work city", "works"]) \
    .update("tx-home-hb", "2023-10-01T09:00:00Z", "tx-home-hh", "Jonas moved to Bremen and commutes.",
            "user.home_city", aliases=["home city", "moved", "lives"]) \
    .ask("Where does Jonas live?", "VERIFIED", expected=["tx-home-hb"], forbidden=["tx-home-hh"],
         hard=["tx-work-hh"], trap=True, at="2024-01-05T09:00:00Z")

case("update", "kim", "a chain of four updates of a phone plan, asked with the first value's word ('Vodafone'): "
     "the match on the first link answers with the last link; no earlier link is cited") \
    .add("tx-red", "2020-01-10T09:00:00Z", "Kim's mobile plan is Vodafone Red with 20 GB.", "user.mobile_plan",
         aliases=["mobile plan", "phone plan"]) \
    .update("tx-o2", "2021-01-10T09:00:00Z", "tx-red", "Kim's mobile plan is O2 Unlimited.", "user.mobile_plan",
            aliases=["mobile plan", "phone plan"]) \
    .update("tx-tmobile", "2022-01-10T09:00:00Z", "tx-o2", "Kim's mobile plan is Telekom MagentaMobil.",
            "user.mobile_plan", aliases=["mobile plan", "phone plan"]) \
    .update("tx-prepaid", "2023-01-10T09:00:00Z", "tx-tmobile", "Prepaid SIM from Lidl Connect now.",
            "user.mobile_plan", aliases=["mobile plan", "phone plan"]) \
    .add("tx-internet", "2023-01-11T09:00:00Z", "Kim's home internet is Vodafone cable.", "user.internet",
         aliases=["internet"]) \
    .ask("Is Kim's mobile plan still Vodafone Red?", "VERIFIED", expected=["tx-prepaid"],
         forbidden=["tx-red", "tx-o2", "tx-tmobile"], hard=["tx-internet"], trap=True, at="2024-01-05T09:00:00Z")

case("update", "kim", "the same four-link chain as of a past instant inside the second link: that link answers, "
     "historical; the later and earlier links do not") \
    .add("tx-red", "2020-01-10T09:00:00Z", "Kim's mobile plan is Vodafone Red with 20 GB.", "user.mobile_plan",
         aliases=["mobile plan", "phone plan"]) \
    .update("tx-o2", "2021-01-10T09:00:00Z", "tx-red", "Switched to O2 Unlimited.", "user.mobile_plan",
            aliases=["mobile plan", "phone plan"]) \
    .update("tx-tmobile", "2022-01-10T09:00:00Z", "tx-o2", "Kim's mobile plan is Telekom MagentaMobil.",
            "user.mobile_plan", aliases=["mobile plan", "phone plan"]) \
    .update("tx-prepaid", "2023-01-10T09:00:00Z", "tx-tmobile", "Prepaid SIM from Lidl Connect now.",
            "user.mobile_plan", aliases=["mobile plan", "phone plan"]) \
    .ask("Which mobile plan was Kim on?", "VERIFIED_HISTORICAL", expected=["tx-o2"],
         forbidden=["tx-red", "tx-tmobile", "tx-prepaid"], as_of="2021-06-01T09:00:00Z", trap=True,
         at="2024-01-05T09:00:00Z")


# -- conflict ----------------------------------------------------------------------------
def _birthday(description):
    return case("conflict", "hugo", description) \
        .add("tx-3may", "2023-01-10T09:00:00Z", "Hugo's birthday is on 3 May.", "user.birthday",
             aliases=["birthday", "born"]) \
        .add("tx-5may", "2023-02-10T09:00:00Z", "Hugo's birthday is on 5 May.", "user.birthday",
             aliases=["birthday", "born"], source="model_inference") \
        .add("tx-3mar", "2023-03-10T09:00:00Z", "Hugo's birthday is on 3 March.", "user.birthday",
             aliases=["birthday", "born"], source="model_inference") \
        .add("tx-sister", "2023-03-11T09:00:00Z", "Hugo's sister Ada has her birthday on 9 May.",
             "user.sister_birthday", aliases=["sister"])


_birthday("a dispute of three records (one active, two candidates): none answers, UNKNOWN unresolved_conflict; "
          "the sister's birthday is about someone else and does not answer either") \
    .op("tx-dispute", "2023-04-01T09:00:00Z", "dispute", "tx-3may", conflict_with=["tx-5may", "tx-3mar"]) \
    .ask("When is Hugo's birthday?", "UNKNOWN", reason="unresolved_conflict",
         forbidden=["tx-3may", "tx-5may", "tx-3mar", "tx-sister"], at="2023-05-01T09:00:00Z")

_birthday("a three-way dispute resolved for a candidate: it answers, the two losers (one the former active "
          "record) never do") \
    .op("tx-dispute", "2023-04-01T09:00:00Z", "dispute", "tx-3may", conflict_with=["tx-5may", "tx-3mar"]) \
    .op("tx-resolve", "2023-04-02T09:00:00Z", "resolve", "tx-5may", conflict_with=["tx-3may", "tx-3mar"]) \
    .ask("When is Hugo's birthday?", "VERIFIED", expected=["tx-5may"], forbidden=["tx-3may", "tx-3mar"],
         hard=["tx-sister"], at="2023-05-01T09:00:00Z")

_birthday("a three-way dispute, one side forgotten: the dispute is reopened among the two left, still "
          "UNKNOWN unresolved_conflict") \
    .op("tx-dispute", "2023-04-01T09:00:00Z", "dispute", "tx-3may", conflict_with=["tx-5may", "tx-3mar"]) \
    .op("tx-forget", "2023-04-02T09:00:00Z", "forget", "tx-3mar") \
    .ask("When is Hugo's birthday?", "UNKNOWN", reason="unresolved_conflict",
         forbidden=["tx-3may", "tx-5may", "tx-3mar"], at="2023-05-01T09:00:00Z")

case("conflict", "hugo", "a two-way dispute whose other side was forgotten: settled, the remaining record "
     "answers again; a resolve naming the forgotten side is not needed") \
    .add("tx-3may", "2023-01-10T09:00:00Z", "Hugo's birthday is on 3 May.", "user.birthday",
         aliases=["birthday", "born"]) \
    .add("tx-5may", "2023-02-10T09:00:00Z", "Hugo's birthday is on 5 May.", "user.birthday",
         aliases=["birthday", "born"], source="model_inference") \
    .op("tx-dispute", "2023-04-01T09:00:00Z", "dispute", "tx-3may", conflict_with=["tx-5may"]) \
    .op("tx-forget", "2023-04-02T09:00:00Z", "forget", "tx-5may") \
    .ask("When is Hugo's birthday?", "VERIFIED", expected=["tx-3may"], forbidden=["tx-5may"],
         at="2023-05-01T09:00:00Z")

case("conflict", "hugo", "a dispute whose other side was erased, then a resolve naming the vanished side: "
     "the resolve is accepted and the holder answers") \
    .add("tx-3may", "2023-01-10T09:00:00Z", "Hugo's birthday is on 3 May.", "user.birthday",
         aliases=["birthday", "born"]) \
    .add("tx-5may", "2023-02-10T09:00:00Z", "Hugo's birthday is on 5 May.", "user.birthday",
         aliases=["birthday", "born"], source="model_inference") \
    .op("tx-dispute", "2023-04-01T09:00:00Z", "dispute", "tx-3may", conflict_with=["tx-5may"]) \
    .op("tx-erase", "2023-04-02T09:00:00Z", "erase", "tx-5may") \
    .op("tx-resolve", "2023-04-03T09:00:00Z", "resolve", "tx-3may", conflict_with=["tx-5may"]) \
    .ask("When is Hugo's birthday?", "VERIFIED", expected=["tx-3may"], at="2023-05-01T09:00:00Z")

case("conflict", "vera", "a dispute in another user's scope about the same slot, worded like the question: it "
     "neither answers for the caller nor turns her answer into unresolved_conflict") \
    .add("tx-bob-a", "2023-01-10T09:00:00Z", "The wifi password at home is on the fridge.", "user.wifi_note",
         aliases=["wifi"], user="bob") \
    .add("tx-bob-b", "2023-01-11T09:00:00Z", "The wifi password at home is in the drawer.", "user.wifi_note",
         aliases=["wifi"], user="bob", source="model_inference") \
    .op("tx-bob-dispute", "2023-01-12T09:00:00Z", "dispute", "tx-bob-a", conflict_with=["tx-bob-b"], user="bob") \
    .add("tx-vera", "2023-01-13T09:00:00Z", "Vera keeps the wifi password note taped under the router.",
         "user.wifi_note", aliases=["wifi", "password"]) \
    .ask("Where is the wifi password at home?", "VERIFIED", expected=["tx-vera"],
         forbidden=["tx-bob-a", "tx-bob-b"], at="2023-02-01T09:00:00Z")

case("conflict", "vera", "a dispute naming another user's record is refused record_not_found, nothing is "
     "written: the caller's record stays active and answers") \
    .add("tx-bob-a", "2023-01-10T09:00:00Z", "Bob parks in space 14 of the garage.", "user.parking",
         aliases=["parking", "parks"], user="bob") \
    .add("tx-vera", "2023-01-13T09:00:00Z", "Vera parks in space 7 of the garage.", "user.parking",
         aliases=["parking", "parks"]) \
    .op("tx-cross-dispute", "2023-01-14T09:00:00Z", "dispute", "tx-vera", conflict_with=["tx-bob-a"],
        expect=REFUSED("record_not_found")) \
    .ask("Which garage space does Vera park in?", "VERIFIED", expected=["tx-vera"], forbidden=["tx-bob-a"],
         at="2023-02-01T09:00:00Z")

case("conflict", "hugo", "recorded-as-of between a dispute and its resolve: the store then held an unresolved "
     "dispute, UNKNOWN unresolved_conflict, although today the holder answers") \
    .add("tx-3may", "2023-01-10T09:00:00Z", "Hugo's birthday is on 3 May.", "user.birthday",
         aliases=["birthday", "born"]) \
    .add("tx-5may", "2023-02-10T09:00:00Z", "Hugo's birthday is on 5 May.", "user.birthday",
         aliases=["birthday", "born"], source="model_inference") \
    .op("tx-dispute", "2023-04-01T09:00:00Z", "dispute", "tx-3may", conflict_with=["tx-5may"]) \
    .op("tx-resolve", "2023-04-10T09:00:00Z", "resolve", "tx-3may", conflict_with=["tx-5may"]) \
    .ask("When is Hugo's birthday?", "UNKNOWN", reason="unresolved_conflict", forbidden=["tx-3may", "tx-5may"],
         recorded_as_of="2023-04-05T09:00:00Z", at="2023-05-01T09:00:00Z")

case("conflict", "gita", "a positive and a negative disputed, resolved for the positive: it answers VERIFIED; "
     "the rejected negative neither answers nor bounds it") \
    .add("tx-no-gluten", "2023-01-10T09:00:00Z", "Gita does not eat gluten.", "user.diet.gluten",
         kind="negative", aliases=["gluten", "bread"], triggers=["gluten", "bread"]) \
    .add("tx-gluten-ok", "2023-01-11T09:00:00Z", "Gita eats bread and pasta with gluten without problems.",
         "user.diet.gluten", aliases=["gluten", "bread"], source="model_inference") \
    .op("tx-dispute", "2023-01-12T09:00:00Z", "dispute", "tx-no-gluten", conflict_with=["tx-gluten-ok"]) \
    .op("tx-resolve", "2023-01-13T09:00:00Z", "resolve", "tx-gluten-ok", conflict_with=["tx-no-gluten"]) \
    .ask("Does Gita eat bread with gluten?", "VERIFIED", expected=["tx-gluten-ok"], forbidden=["tx-no-gluten"],
         at="2023-02-01T09:00:00Z")


# -- forgetting --------------------------------------------------------------------------
_NFC = "Zo\u00eb lives at Rue de l'\u00c9glise 4 in Li\u00e8ge."
_NFD = "Zoe\u0308 lives at Rue de l'E\u0301glise 4 in Lie\u0300ge."

case("forgetting", "zoe", "forget, then re-add the same value in NFD (decomposed accents): refused "
     "value_tombstoned; the question stays UNKNOWN and the forgotten record never appears") \
    .add("tx-addr", "2023-01-10T09:00:00Z", _NFC, "user.home_address", aliases=["address", "lives"]) \
    .add("tx-work", "2023-01-10T09:05:00Z", "Zoë works at the university in Liège.", "user.workplace",
         aliases=["works"]) \
    .op("tx-forget", "2023-02-01T09:00:00Z", "forget", "tx-addr") \
    .add("tx-readd", "2023-03-01T09:00:00Z", _NFD, "user.home_address", aliases=["address"],
         source="model_inference", expect=REFUSED("value_tombstoned")) \
    .ask("What is Zoë's home address?", "UNKNOWN", forbidden=["tx-addr"], hard=["tx-work"],
         at="2023-03-02T09:00:00Z")

case("forgetting", "rafa", "forget, then re-add with a no-break space, upper case and a trailing full stop: "
     "refused; a genuinely different value is accepted and answers, the forgotten one never") \
    .add("tx-penicillin", "2023-01-10T09:00:00Z", "Allergic to penicillin.", "user.allergy.drug",
         aliases=["allergy", "allergic"]) \
    .op("tx-forget", "2023-02-01T09:00:00Z", "forget", "tx-penicillin") \
    .add("tx-readd", "2023-02-02T09:00:00Z", "ALLERGIC\u00a0TO  penicillin", "user.allergy.drug",
         aliases=["allergy"], expect=REFUSED("value_tombstoned")) \
    .add("tx-amoxi", "2023-02-03T09:00:00Z", "Allergic to amoxicillin, a penicillin-type drug.",
         "user.allergy.drug", aliases=["allergy", "allergic"]) \
    .ask("Which drug is Rafa allergic to?", "VERIFIED", expected=["tx-amoxi"], forbidden=["tx-penicillin"],
         at="2023-03-01T09:00:00Z")

case("forgetting", "mika", "forget the head of an update chain: it never answers; its predecessor was closed "
     "by the update and held only until then, so today is UNKNOWN retired_or_expired") \
    .add("tx-band-a", "2021-01-10T09:00:00Z", "Mika plays bass in the band Night Ferries.", "user.band",
         aliases=["band", "plays"]) \
    .update("tx-band-b", "2022-06-10T09:00:00Z", "tx-band-a", "Mika plays bass in the band Paper Moths.",
            "user.band", aliases=["band", "plays"]) \
    .op("tx-forget", "2023-02-01T09:00:00Z", "forget", "tx-band-b") \
    .ask("Which band does Mika play bass in?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-band-a", "tx-band-b"], at="2023-03-01T09:00:00Z")

case("forgetting", "mika", "forget the head of an update chain, ask as of a past instant inside the "
     "predecessor's validity: the predecessor answers, historical; the forgotten head never") \
    .add("tx-band-a", "2021-01-10T09:00:00Z", "Mika plays bass in the band Night Ferries.", "user.band",
         aliases=["band", "plays"]) \
    .update("tx-band-b", "2022-06-10T09:00:00Z", "tx-band-a", "Mika plays bass in the band Paper Moths.",
            "user.band", aliases=["band", "plays"]) \
    .op("tx-forget", "2023-02-01T09:00:00Z", "forget", "tx-band-b") \
    .ask("Which band did Mika play bass in?", "VERIFIED_HISTORICAL", expected=["tx-band-a"],
         forbidden=["tx-band-b"], as_of="2021-12-01T09:00:00Z", at="2023-03-01T09:00:00Z")

case("forgetting", "mika", "forget the head of an update chain, then re-add: the head's value is refused, "
     "the predecessor's value is not tombstoned and may be added again; it answers") \
    .add("tx-band-a", "2021-01-10T09:00:00Z", "Mika plays bass in the band Night Ferries.", "user.band",
         aliases=["band", "plays"]) \
    .update("tx-band-b", "2022-06-10T09:00:00Z", "tx-band-a", "Mika plays bass in the band Paper Moths.",
            "user.band", aliases=["band", "plays"]) \
    .op("tx-forget", "2023-02-01T09:00:00Z", "forget", "tx-band-b") \
    .add("tx-again-b", "2023-02-02T09:00:00Z", "mika plays bass in the band paper moths", "user.band",
         aliases=["band"], expect=REFUSED("value_tombstoned")) \
    .add("tx-again-a", "2023-02-03T09:00:00Z", "Mika plays bass in the band Night Ferries.", "user.band",
         aliases=["band", "plays"]) \
    .ask("Which band does Mika play bass in?", "VERIFIED", expected=["tx-again-a"],
         forbidden=["tx-band-b", "tx-band-a"], at="2023-03-01T09:00:00Z")

case("forgetting", "lio", "forget by memory_key + scope (no record_id), then an extractor's candidate with the "
     "value in fullwidth digits (NFKC-equal) is refused; the question is UNKNOWN") \
    .add("tx-locker", "2023-01-10T09:00:00Z", "Lio's gym locker number is 1234.", "user.gym_locker",
         aliases=["locker"]) \
    .add("tx-bike-lock", "2023-01-10T09:05:00Z", "Lio's bike lock number is 4821.", "user.bike_lock",
         aliases=["lock"]) \
    .op("tx-forget", "2023-02-01T09:00:00Z", "forget", None, key="user.gym_locker") \
    .add("tx-readd", "2023-02-02T09:00:00Z", "Lio's gym locker number is \uff11\uff12\uff13\uff14.",
         "user.gym_locker", aliases=["locker"], source="model_inference", expect=REFUSED("value_tombstoned")) \
    .ask("What is Lio's gym locker number?", "UNKNOWN", forbidden=["tx-locker"], hard=["tx-bike-lock"],
         at="2023-03-01T09:00:00Z")

case("forgetting", "ann", "a value forgotten by 'ann' is still accepted for 'anna' (a scope key that extends "
     "it) and answers for anna") \
    .add("tx-ann", "2023-01-10T09:00:00Z", "Prefers the aisle seat on long flights.", "user.seat_preference",
         aliases=["seat", "flights"], kind="preference") \
    .op("tx-forget", "2023-02-01T09:00:00Z", "forget", "tx-ann") \
    .add("tx-anna", "2023-02-02T09:00:00Z", "prefers the aisle seat on long flights", "user.seat_preference",
         aliases=["seat", "flights"], kind="preference", user="anna") \
    .ask("Which seat does she prefer on long flights?", "VERIFIED", expected=["tx-anna"], forbidden=["tx-ann"],
         user="anna", at="2023-03-01T09:00:00Z")

case("forgetting", "ann", "the same: asked by 'ann', who forgot it, UNKNOWN; anna's identical record never "
     "appears") \
    .add("tx-ann", "2023-01-10T09:00:00Z", "Prefers the aisle seat on long flights.", "user.seat_preference",
         aliases=["seat", "flights"], kind="preference") \
    .op("tx-forget", "2023-02-01T09:00:00Z", "forget", "tx-ann") \
    .add("tx-anna", "2023-02-02T09:00:00Z", "prefers the aisle seat on long flights", "user.seat_preference",
         aliases=["seat", "flights"], kind="preference", user="anna") \
    .ask("Which seat does she prefer on long flights?", "UNKNOWN", forbidden=["tx-ann", "tx-anna"],
         at="2023-03-01T09:00:00Z")


# -- cross_scope -------------------------------------------------------------------------
case("cross_scope", "ann", "user ids that differ only in case are different users: 'Ann's record, matching "
     "word for word, never answers for 'ann'") \
    .add("tx-Ann", "2023-01-10T09:00:00Z", "Ann's passport number ends in 4471 and expires in 2030.",
         "user.passport", aliases=["passport"], user="Ann") \
    .ask("When does Ann's passport expire?", "UNKNOWN", forbidden=["tx-Ann"], at="2023-02-01T09:00:00Z")

case("cross_scope", "ann", "the same two case-variant users: 'ann' gets her own record, never 'Ann's, which "
     "matches better") \
    .add("tx-Ann", "2023-01-10T09:00:00Z", "Ann's passport expires in March 2030.", "user.passport",
         aliases=["passport"], user="Ann") \
    .add("tx-ann", "2023-01-11T09:00:00Z", "Renewed travel document valid until 2027.", "user.passport",
         aliases=["passport"]) \
    .ask("When does Ann's passport expire?", "VERIFIED", expected=["tx-ann"], forbidden=["tx-Ann"],
         at="2023-02-01T09:00:00Z")

case("cross_scope", "anna", "a Cyrillic look-alike user id ('\u0430nna', with U+0430) is another user: "
     "their record never answers for 'anna'") \
    .add("tx-lookalike", "2023-01-10T09:00:00Z", "Anna's bank account is at Sparkasse Köln.", "user.bank",
         aliases=["bank", "account"], user="\u0430nna") \
    .ask("Where does Anna have her bank account?", "UNKNOWN", forbidden=["tx-lookalike"],
         at="2023-02-01T09:00:00Z")

case("cross_scope", "\u0430nna", "the Cyrillic look-alike asks: only her own record answers, never the Latin "
     "'anna's") \
    .add("tx-anna", "2023-01-10T09:00:00Z", "Anna's bank account is at Sparkasse Köln.", "user.bank",
         aliases=["bank", "account"], user="anna") \
    .add("tx-own", "2023-01-11T09:00:00Z", "Has a current account with ING.", "user.bank",
         aliases=["bank", "account"]) \
    .ask("Where does Anna have her bank account?", "VERIFIED", expected=["tx-own"], forbidden=["tx-anna"],
         at="2023-02-01T09:00:00Z")

case("cross_scope", "zo\u00eb", "a user id written NFC in the store and NFD by the caller names the same user "
     "(keys are NFC): her record answers; a look-alike user 'zoe' (no diaeresis) does not leak in") \
    .add("tx-zoe-nfc", "2023-01-10T09:00:00Z", "Zoë's cello lesson is on Thursdays at 17:00.", "user.cello",
         aliases=["cello", "lesson"]) \
    .add("tx-zoe-plain", "2023-01-11T09:00:00Z", "Zoe's cello lesson is on Mondays at 16:00.", "user.cello",
         aliases=["cello", "lesson"], user="zoe") \
    .ask("When is Zoë's cello lesson?", "VERIFIED", expected=["tx-zoe-nfc"], forbidden=["tx-zoe-plain"],
         user="zoe\u0308", at="2023-02-01T09:00:00Z")

case("cross_scope", "lars", "the caller's only match is retired; another user's active record in the same "
     "memory_key slot matches better: UNKNOWN retired_or_expired from the caller's own record, no successor "
     "borrowed across scopes") \
    .add("tx-lars-tea", "2022-01-10T09:00:00Z", "Lars likes green tea with jasmine.", "user.tea",
         aliases=["tea"], kind="preference") \
    .op("tx-lars-retire", "2022-06-10T09:00:00Z", "retire", "tx-lars-tea") \
    .add("tx-mia-tea", "2022-07-10T09:00:00Z", "Likes green tea, jasmine or sencha.", "user.tea",
         aliases=["tea"], kind="preference", user="mia") \
    .ask("What tea does Lars like?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-lars-tea", "tx-mia-tea"], at="2023-01-01T09:00:00Z")

case("cross_scope", "felix", "an update by memory_key when only another user holds that key is refused "
     "record_not_found; another user's conversation where a speaker with the caller's name says it never "
     "answers") \
    .add("tx-otto-key", "2023-01-10T09:00:00Z", "Otto lives in Graz.", "user.home_city",
         aliases=["home city", "lives"], user="otto") \
    .turn("tx-otto-turn", "2023-01-11T09:00:00Z", "Felix", "I live in Salzburg now, near the old town.",
          user="otto") \
    .update("tx-felix-upd", "2023-01-12T09:00:00Z", None, "Felix lives in Linz.", "user.home_city",
            aliases=["home city", "lives"], expect=REFUSED("record_not_found")) \
    .ask("Where does Felix live?", "UNKNOWN", forbidden=["tx-otto-key", "tx-otto-turn"],
         at="2023-02-01T09:00:00Z")

case("cross_scope", "team", "a path-like user id 'team/alpha' is its own scope: nothing of it answers for "
     "'team', and 'team' still gets its own record") \
    .add("tx-alpha", "2023-01-10T09:00:00Z", "The standup meeting is at 09:30 in room Alpha.",
         "project.standup", aliases=["standup", "meeting"], user="team/alpha") \
    .add("tx-team", "2023-01-11T09:00:00Z", "Standup is at 10:00 on the video call.", "project.standup",
         aliases=["standup", "meeting"]) \
    .ask("When is the standup meeting?", "VERIFIED", expected=["tx-team"], forbidden=["tx-alpha"],
         at="2023-02-01T09:00:00Z")


# -- abstention --------------------------------------------------------------------------
case("abstention", "olga", "several ineligible kinds at once on topic — a candidate, a retired record and a "
     "not-yet-valid one: retired_or_expired outranks candidate_or_unverified") \
    .add("tx-cand", "2023-01-10T09:00:00Z", "Olga's piano teacher is Mr. Brandt.", "user.piano_teacher",
         aliases=["piano teacher"], source="model_inference") \
    .add("tx-old", "2023-01-10T09:01:00Z", "Olga's piano teacher was Mrs. Kühn.",
         "user.piano_teacher_2022", aliases=["piano teacher"]) \
    .op("tx-retire", "2023-01-12T09:00:00Z", "retire", "tx-old") \
    .add("tx-future", "2023-01-13T09:00:00Z", "Olga's new piano teacher will be Ms. Ito.",
         "user.piano_teacher_next", aliases=["piano teacher"], valid_from="2023-09-01T00:00:00Z") \
    .ask("Who is Olga's piano teacher?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-cand", "tx-old", "tx-future"], at="2023-02-01T09:00:00Z")

case("abstention", "olga", "a disputed, a candidate and a retired record, all on topic: unresolved_conflict "
     "comes first") \
    .add("tx-a", "2023-01-10T09:00:00Z", "Olga's piano lesson is on Tuesdays.", "user.piano_lesson",
         aliases=["piano lesson"]) \
    .add("tx-b", "2023-01-10T09:05:00Z", "Olga's piano lesson is on Wednesdays.", "user.piano_lesson",
         aliases=["piano lesson"], source="model_inference") \
    .op("tx-dispute", "2023-01-11T09:00:00Z", "dispute", "tx-a", conflict_with=["tx-b"]) \
    .add("tx-cand", "2023-01-12T09:00:00Z", "Olga's piano lesson might be on Fridays.", "user.piano_lesson_alt",
         aliases=["piano lesson"], source="model_inference") \
    .add("tx-old", "2023-01-12T09:05:00Z", "Olga's piano lesson was on Mondays last term.",
         "user.piano_lesson_last_term", aliases=["piano lesson"]) \
    .op("tx-retire", "2023-01-13T09:00:00Z", "retire", "tx-old") \
    .ask("Which day is Olga's piano lesson?", "UNKNOWN", reason="unresolved_conflict",
         forbidden=["tx-a", "tx-b", "tx-cand", "tx-old"], at="2023-02-01T09:00:00Z")

case("abstention", "pavel", "a candidate and a forgotten (rejected) record on topic: the rejected one supports no "
     "reason, candidate_or_unverified") \
    .add("tx-forgot", "2023-01-10T09:00:00Z", "Pavel's blood type is A positive.", "user.blood_type",
         aliases=["blood type"]) \
    .op("tx-forget", "2023-01-11T09:00:00Z", "forget", "tx-forgot") \
    .add("tx-cand", "2023-01-12T09:00:00Z", "Pavel's blood type is 0 negative.", "user.blood_type",
         aliases=["blood type"], source="model_inference") \
    .ask("What is Pavel's blood type?", "UNKNOWN", reason="candidate_or_unverified",
         forbidden=["tx-forgot", "tx-cand"], at="2023-02-01T09:00:00Z")

case("abstention", "pavel", "a sensitive record past its retention window and a candidate, both on topic: "
     "retention counts as retired_or_expired, which outranks the candidate") \
    .add("tx-sens", "2021-01-10T09:00:00Z", "Pavel's therapist is Dr. Roth in Prenzlauer Berg.",
         "user.therapist", aliases=["therapist"], sensitivity="sensitive") \
    .add("tx-cand", "2022-06-12T09:00:00Z", "Pavel's therapist might be Dr. Lenz.", "user.therapist_guess",
         aliases=["therapist"], source="model_inference") \
    .ask("Who is Pavel's therapist?", "UNKNOWN", reason="retired_or_expired", forbidden=["tx-sens", "tx-cand"],
         at="2022-07-01T09:00:00Z")

case("abstention", "ruth", "an on-topic candidate and an off-topic dispute that shares a generic word: the "
     "reason comes from the match about the question, candidate_or_unverified") \
    .add("tx-name-a", "2023-01-10T09:00:00Z", "Ruth's dog is named Biscuit.", "user.dog_name",
         aliases=["dog"]) \
    .add("tx-name-b", "2023-01-10T09:05:00Z", "Ruth's dog is named Pepper.", "user.dog_name",
         aliases=["dog"], source="model_inference") \
    .op("tx-dispute", "2023-01-11T09:00:00Z", "dispute", "tx-name-a", conflict_with=["tx-name-b"]) \
    .add("tx-cand", "2023-01-12T09:00:00Z", "Ruth's dentist is named Dr. Haas.", "user.dentist",
         aliases=["dentist"], source="model_inference") \
    .ask("What is the name of Ruth's dentist?", "UNKNOWN", reason="candidate_or_unverified",
         forbidden=["tx-name-a", "tx-name-b", "tx-cand"], at="2023-02-01T09:00:00Z")

case("abstention", "ruth", "a retired record on topic and an off-topic dispute sharing the verb: "
     "retired_or_expired, not unresolved_conflict") \
    .add("tx-meet-a", "2023-01-10T09:00:00Z", "The book club meets on Thursdays.", "user.book_club",
         aliases=["book club"]) \
    .add("tx-meet-b", "2023-01-10T09:05:00Z", "The book club meets on Fridays.", "user.book_club",
         aliases=["book club"], source="model_inference") \
    .op("tx-dispute", "2023-01-11T09:00:00Z", "dispute", "tx-meet-a", conflict_with=["tx-meet-b"]) \
    .add("tx-choir", "2023-01-12T09:00:00Z", "Ruth's choir meets in St. Mary's church hall.", "user.choir",
         aliases=["choir"]) \
    .op("tx-retire", "2023-01-13T09:00:00Z", "retire", "tx-choir") \
    .ask("Where does Ruth's choir meet?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-meet-a", "tx-meet-b", "tx-choir"], at="2023-02-01T09:00:00Z")

case("abstention", "ivo", "a reviewer-rejected candidate on topic and an unrelated active record: the "
     "rejected one supports no reason, insufficient_evidence") \
    .add("tx-cand", "2023-01-10T09:00:00Z", "Ivo's shoe size is 46.", "user.shoe_size", aliases=["shoe size"],
         source="model_inference") \
    .op("tx-reject", "2023-01-11T09:00:00Z", "reject", "tx-cand") \
    .add("tx-hat", "2023-01-12T09:00:00Z", "Ivo wears a size 58 cap.", "user.hat_size", aliases=["cap"]) \
    .ask("What is Ivo's shoe size?", "UNKNOWN", forbidden=["tx-cand", "tx-hat"], at="2023-02-01T09:00:00Z")

case("abstention", "ivo", "positive twin: an active record on topic beside a disputed, a candidate and a "
     "retired one on the same topic still answers VERIFIED (blockers only decide an UNKNOWN)") \
    .add("tx-a", "2023-01-10T09:00:00Z", "Ivo's shoe size might be 44.", "user.shoe_size_guess",
         aliases=["shoe size"]) \
    .add("tx-b", "2023-01-10T09:05:00Z", "Ivo's shoe size might be 45.", "user.shoe_size_guess",
         aliases=["shoe size"], source="model_inference") \
    .op("tx-dispute", "2023-01-11T09:00:00Z", "dispute", "tx-a", conflict_with=["tx-b"]) \
    .add("tx-cand", "2023-01-12T09:00:00Z", "Ivo's shoe size is 47 in boots.", "user.boot_size",
         aliases=["shoe size", "boots"], source="model_inference") \
    .add("tx-old", "2023-01-12T09:05:00Z", "Ivo's shoe size was 42 as a teenager.", "user.old_shoe_size",
         aliases=["shoe size"]) \
    .op("tx-retire", "2023-01-13T09:00:00Z", "retire", "tx-old") \
    .add("tx-true", "2023-01-14T09:00:00Z", "Measured at the shop: Ivo wears shoe size 46.", "user.shoe_size",
         aliases=["shoe size"]) \
    .ask("What is Ivo's shoe size?", "VERIFIED", expected=["tx-true"],
         forbidden=["tx-a", "tx-b", "tx-cand", "tx-old"], at="2023-02-01T09:00:00Z")



# -- second round (general-dev2.jsonl), written after the first fixes, before any further change --
FIRST = len(CASES)

case("temporal", "pia", "a retroactive update (recorded in February, valid from 1 January) seen as recorded "
     "before it was written: the store then held the old employer as current, VERIFIED; the new one did not "
     "exist yet") \
    .add("tx-old-job", "2022-05-01T09:00:00Z", "Pia is a product designer at Lumen Studio.", "user.employer",
         aliases=["employer", "works", "job"]) \
    .update("tx-new-job", "2024-02-20T09:00:00Z", "tx-old-job", "Pia joined Fernweh Travel as design lead.",
            "user.employer", aliases=["employer", "works", "job"], valid_from="2024-01-01T00:00:00Z") \
    .ask("Where does Pia work as a designer?", "VERIFIED", expected=["tx-old-job"], forbidden=["tx-new-job"],
         as_of="2024-01-15T09:00:00Z", recorded_as_of="2024-02-01T09:00:00Z", at="2024-03-01T09:00:00Z")

case("temporal", "pia", "the same retroactive update, asked as of mid-January with today's knowledge: the new "
     "employer answers (it held from 1 January); the old one, matching better, does not") \
    .add("tx-old-job", "2022-05-01T09:00:00Z", "Pia is a product designer at Lumen Studio.", "user.employer",
         aliases=["employer", "works", "job"]) \
    .update("tx-new-job", "2024-02-20T09:00:00Z", "tx-old-job", "Pia joined Fernweh Travel as design lead.",
            "user.employer", aliases=["employer", "works", "job"], valid_from="2024-01-01T00:00:00Z") \
    .ask("Where does Pia work as a designer?", "VERIFIED", expected=["tx-new-job"], forbidden=["tx-old-job"],
         as_of="2024-01-15T09:00:00Z", trap=True, at="2024-03-01T09:00:00Z")

case("temporal", "omar", "a lease added with both ends of its validity (2020-2022), asked 'in 2021' without "
     "--as-of: it answers, historical") \
    .add("tx-lease", "2023-01-10T09:00:00Z", "Omar rented the flat on Keizersgracht under a two-year lease.",
         "user.lease", aliases=["lease", "rented", "flat"], valid_from="2020-06-01T00:00:00Z",
         valid_to="2022-06-01T00:00:00Z") \
    .add("tx-car-lease", "2023-01-11T09:00:00Z", "Omar leases a Renault Zoe.", "user.car_lease",
         aliases=["car"]) \
    .ask("Which flat did Omar rent in 2021?", "VERIFIED_HISTORICAL", expected=["tx-lease"],
         hard=["tx-car-lease"], at="2023-02-01T09:00:00Z")

case("temporal", "omar", "the same lease asked about today: its validity ended, UNKNOWN retired_or_expired") \
    .add("tx-lease", "2023-01-10T09:00:00Z", "Omar rented the flat on Keizersgracht under a two-year lease.",
         "user.lease", aliases=["lease", "rented", "flat"], valid_from="2020-06-01T00:00:00Z",
         valid_to="2022-06-01T00:00:00Z") \
    .ask("Which flat does Omar rent?", "UNKNOWN", reason="retired_or_expired", forbidden=["tx-lease"],
         at="2023-02-01T09:00:00Z")

case("temporal", "bea", "a question naming a month ('in October 2023') between two updates: the link valid at "
     "the end of that month answers, not the one valid at the end of the year") \
    .add("tx-a", "2023-01-05T09:00:00Z", "Bea's team lead is Carla.", "user.team_lead",
         aliases=["team lead", "manager"]) \
    .update("tx-b", "2023-09-01T09:00:00Z", "tx-a", "Bea's team lead is Dmitri.", "user.team_lead",
            aliases=["team lead", "manager"]) \
    .update("tx-c", "2023-12-01T09:00:00Z", "tx-b", "Bea's team lead is Efua.", "user.team_lead",
            aliases=["team lead", "manager"]) \
    .ask("Who was Bea's team lead in October 2023?", "VERIFIED_HISTORICAL", expected=["tx-b"],
         forbidden=["tx-a", "tx-c"], at="2024-03-01T09:00:00Z")

case("update", "yara", "A -> B -> A again: the re-asserted first value answers; as the live record it is "
     "the third link, the first one (same words) is retired and not cited") \
    .add("tx-a", "2021-01-10T09:00:00Z", "Yara's favourite climbing area is Fontainebleau.",
         "user.fav_climbing_area", aliases=["climbing", "favourite"], kind="preference") \
    .update("tx-b", "2022-01-10T09:00:00Z", "tx-a", "Yara's favourite climbing area is the Frankenjura.",
            "user.fav_climbing_area", aliases=["climbing", "favourite"], kind="preference") \
    .update("tx-a2", "2023-01-10T09:00:00Z", "tx-b", "Back to Fontainebleau as her favourite climbing area.",
            "user.fav_climbing_area", aliases=["climbing", "favourite"], kind="preference") \
    .ask("What is Yara's favourite climbing area?", "VERIFIED", expected=["tx-a2"], forbidden=["tx-a", "tx-b"],
         trap=True, at="2024-01-05T09:00:00Z")

case("update", "yara", "A -> B -> A again, as of a past instant inside B: B answers, historical; neither A "
     "does") \
    .add("tx-a", "2021-01-10T09:00:00Z", "Yara's favourite climbing area is Fontainebleau.",
         "user.fav_climbing_area", aliases=["climbing", "favourite"], kind="preference") \
    .update("tx-b", "2022-01-10T09:00:00Z", "tx-a", "Yara's favourite climbing area is the Frankenjura.",
            "user.fav_climbing_area", aliases=["climbing", "favourite"], kind="preference") \
    .update("tx-a2", "2023-01-10T09:00:00Z", "tx-b", "Back to Fontainebleau as her favourite climbing area.",
            "user.fav_climbing_area", aliases=["climbing", "favourite"], kind="preference") \
    .ask("What is Yara's favourite climbing area?", "VERIFIED_HISTORICAL", expected=["tx-b"],
         forbidden=["tx-a", "tx-a2"], as_of="2022-06-01T09:00:00Z", at="2024-01-05T09:00:00Z")

case("update", "yara", "an update naming a retired link (not the head) by record_id is refused "
     "invalid_transition, nothing written: the head still answers") \
    .add("tx-a", "2021-01-10T09:00:00Z", "Yara's gym is Bloc Hütte.", "user.gym", aliases=["gym"]) \
    .update("tx-b", "2022-01-10T09:00:00Z", "tx-a", "Yara trains at Kegel now.", "user.gym", aliases=["gym"]) \
    .update("tx-stale", "2022-02-10T09:00:00Z", "tx-a", "Yara's gym is Bloc Hütte Ost.", "user.gym",
            aliases=["gym"], expect=REFUSED("invalid_transition")) \
    .ask("Which gym does Yara go to?", "VERIFIED", expected=["tx-b"], forbidden=["tx-a"], trap=True,
         at="2022-03-01T09:00:00Z")

case("update", "ravi", "an update with a future valid_from in a chain whose head was updated by memory_key: "
     "today the current link answers, the future one is not yet valid and is not cited") \
    .add("tx-a", "2023-01-10T09:00:00Z", "Ravi's commute is by bus line 7.", "user.commute",
         aliases=["commute"]) \
    .update("tx-b", "2023-06-10T09:00:00Z", None, "Ravi cycles to work along the canal.", "user.commute",
            aliases=["commute", "cycles"]) \
    .update("tx-c", "2024-01-20T09:00:00Z", None, "From April Ravi will take the train to the new office.",
            "user.commute", aliases=["commute", "train"], valid_from="2024-04-01T00:00:00Z") \
    .ask("How does Ravi commute to work?", "VERIFIED", expected=["tx-b"], forbidden=["tx-a", "tx-c"],
         at="2024-02-01T09:00:00Z")

case("conflict", "hugo", "an update of a disputed record is refused (only an active record is updated); the "
     "dispute stands, UNKNOWN unresolved_conflict") \
    .add("tx-3may", "2023-01-10T09:00:00Z", "Hugo's birthday is on 3 May.", "user.birthday",
         aliases=["birthday", "born"]) \
    .add("tx-5may", "2023-02-10T09:00:00Z", "Hugo's birthday is on 5 May.", "user.birthday",
         aliases=["birthday", "born"], source="model_inference") \
    .op("tx-dispute", "2023-04-01T09:00:00Z", "dispute", "tx-3may", conflict_with=["tx-5may"]) \
    .update("tx-upd", "2023-04-02T09:00:00Z", "tx-3may", "Hugo's birthday is on 4 May.", "user.birthday",
            aliases=["birthday"], expect=REFUSED("invalid_transition")) \
    .ask("When is Hugo's birthday?", "UNKNOWN", reason="unresolved_conflict", forbidden=["tx-3may", "tx-5may"],
         at="2023-05-01T09:00:00Z")

case("conflict", "hugo", "a resolved dispute asked as of a past instant before the resolve: the holder's "
     "validity started before it, so it answers (VERIFIED, still valid); the loser never") \
    .add("tx-3may", "2023-01-10T09:00:00Z", "Hugo's birthday is on 3 May.", "user.birthday",
         aliases=["birthday", "born"]) \
    .add("tx-5may", "2023-02-10T09:00:00Z", "Hugo's birthday is on 5 May.", "user.birthday",
         aliases=["birthday", "born"], source="model_inference") \
    .op("tx-dispute", "2023-04-01T09:00:00Z", "dispute", "tx-3may", conflict_with=["tx-5may"]) \
    .op("tx-resolve", "2023-04-10T09:00:00Z", "resolve", "tx-5may", conflict_with=["tx-3may"]) \
    .ask("When is Hugo's birthday?", "VERIFIED", expected=["tx-5may"], forbidden=["tx-3may"],
         as_of="2023-03-01T09:00:00Z", at="2023-05-01T09:00:00Z")

case("conflict", "lea", "a dispute between two records of different slots, the question matching one side "
     "far better: both are excluded, UNKNOWN unresolved_conflict; an unrelated active record is not cited") \
    .add("tx-flight", "2023-01-10T09:00:00Z", "Lea's flight to Oslo leaves at 07:10 from gate B12.",
         "user.trip.flight", aliases=["flight"]) \
    .add("tx-train", "2023-01-10T09:05:00Z", "Lea takes the night train to Oslo instead.", "user.trip.mode",
         aliases=["trip"], source="model_inference") \
    .op("tx-dispute", "2023-01-11T09:00:00Z", "dispute", "tx-flight", conflict_with=["tx-train"]) \
    .add("tx-hotel", "2023-01-12T09:00:00Z", "Lea's hotel in Oslo is near the opera.", "user.trip.hotel",
         aliases=["hotel"]) \
    .ask("When does Lea's flight to Oslo leave?", "UNKNOWN", reason="unresolved_conflict",
         forbidden=["tx-flight", "tx-train", "tx-hotel"], at="2023-02-01T09:00:00Z")

case("forgetting", "nia", "forget a candidate (never approved): it is rejected and its value tombstoned; the "
     "same guess from the extractor again is refused, and the question is UNKNOWN") \
    .add("tx-guess", "2023-01-10T09:00:00Z", "Nia's middle name is Josephine.", "user.middle_name",
         aliases=["middle name"], source="model_inference") \
    .op("tx-forget", "2023-01-11T09:00:00Z", "forget", "tx-guess") \
    .add("tx-guess-again", "2023-01-12T09:00:00Z", "nia's middle name is josephine", "user.middle_name",
         aliases=["middle name"], source="model_inference", expect=REFUSED("value_tombstoned")) \
    .ask("What is Nia's middle name?", "UNKNOWN", forbidden=["tx-guess"], at="2023-02-01T09:00:00Z")

case("forgetting", "nia", "erase by memory_key removes every value the slot held, with no tombstone: the "
     "same value may be stored again and answers; the erased links never appear") \
    .add("tx-a", "2022-01-10T09:00:00Z", "Nia's pharmacy is Apotheke am Markt.", "user.pharmacy",
         aliases=["pharmacy"]) \
    .update("tx-b", "2022-06-10T09:00:00Z", "tx-a", "Nia's pharmacy is Linden-Apotheke.", "user.pharmacy",
            aliases=["pharmacy"]) \
    .op("tx-erase", "2023-01-10T09:00:00Z", "erase", None, key="user.pharmacy") \
    .add("tx-again", "2023-01-11T09:00:00Z", "Nia's pharmacy is Linden-Apotheke.", "user.pharmacy",
         aliases=["pharmacy"]) \
    .ask("Which pharmacy does Nia use?", "VERIFIED", expected=["tx-again"], forbidden=["tx-a", "tx-b"],
         at="2023-02-01T09:00:00Z")

case("forgetting", "nia", "forget with payload.statement naming the value to tombstone (the user's own words, "
     "not the record's): re-adding those words is refused, the record never answers") \
    .add("tx-rec", "2023-01-10T09:00:00Z", "Nia's ex-partner is called Jonah Pike.", "user.ex_partner",
         aliases=["ex-partner", "ex"]) \
    .op("tx-forget", "2023-01-11T09:00:00Z", "forget", "tx-rec", statement="Jonah Pike") \
    .add("tx-again", "2023-01-12T09:00:00Z", "JONAH PIKE", "user.ex_partner", aliases=["ex"],
         source="model_inference", expect=REFUSED("value_tombstoned")) \
    .ask("What is the name of Nia's ex-partner?", "UNKNOWN", forbidden=["tx-rec"], at="2023-02-01T09:00:00Z")

case("cross_scope", "ugo", "another user's record that is about the caller (Lucia noted Ugo's pizza) is hers, "
     "not his: it never answers for Ugo, his own record does") \
    .add("tx-same", "2023-01-10T09:00:00Z", "Ugo's favourite pizza is quattro formaggi.", "user.friend_pizza",
         aliases=["pizza", "favourite"], kind="preference", user="lucia") \
    .add("tx-same-ugo", "2023-01-10T09:05:00Z", "Ugo's favourite pizza is a marinara.", "user.pizza",
         aliases=["pizza"], kind="preference") \
    .ask("What is Ugo's favourite pizza?", "VERIFIED", expected=["tx-same-ugo"], forbidden=["tx-same"],
         at="2023-02-01T09:00:00Z")

case("cross_scope", "ugo", "as of a past instant, another user's record valid then and matching better "
     "never answers; the caller's own record was not yet valid: UNKNOWN retired_or_expired") \
    .add("tx-lucia", "2020-01-10T09:00:00Z", "Lucia's piano teacher is Signora Bassi.", "user.piano_teacher",
         aliases=["piano teacher"], user="lucia") \
    .add("tx-ugo", "2023-01-10T09:00:00Z", "Ugo's piano teacher is Maestro Conti.", "user.piano_teacher",
         aliases=["piano teacher"]) \
    .ask("Who is the piano teacher?", "UNKNOWN", reason="retired_or_expired", forbidden=["tx-lucia", "tx-ugo"],
         as_of="2021-01-01T09:00:00Z", at="2023-02-01T09:00:00Z")

case("cross_scope", "ugo", "an erase of the whole scope of another user leaves the caller's records: they "
     "still answer") \
    .add("tx-lucia", "2023-01-10T09:00:00Z", "Lucia's dentist is Dr. Ferri.", "user.dentist",
         aliases=["dentist"], user="lucia") \
    .add("tx-ugo", "2023-01-10T09:05:00Z", "Ugo's dentist is Dr. Sala.", "user.dentist", aliases=["dentist"]) \
    .add("tx-lucia-2", "2023-01-11T09:00:00Z", "Lucia's dentist appointment is in March.",
         "user.dentist_appointment", aliases=["dentist"], user="lucia") \
    .erase_scope("tx-erase-lucia", "2023-01-12T09:00:00Z", "lucia") \
    .ask("Who is Ugo's dentist?", "VERIFIED", expected=["tx-ugo"], forbidden=["tx-lucia", "tx-lucia-2"],
         at="2023-02-01T09:00:00Z")

case("abstention", "tess", "an on-topic record whose validity ended (added with valid_time.to) and a candidate: "
     "retired_or_expired outranks candidate_or_unverified") \
    .add("tx-expired", "2023-01-10T09:00:00Z", "Tess's parking permit covers zone C.", "user.parking_permit",
         aliases=["parking permit"], valid_from="2022-01-01T00:00:00Z", valid_to="2023-01-01T00:00:00Z") \
    .add("tx-cand", "2023-01-11T09:00:00Z", "Tess's parking permit might cover zone D.", "user.parking_permit_guess",
         aliases=["parking permit"], source="model_inference") \
    .ask("Which zone does Tess's parking permit cover?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-expired", "tx-cand"], at="2023-02-01T09:00:00Z")

case("abstention", "tess", "only a not-yet-valid record on topic (a future valid_from): UNKNOWN "
     "retired_or_expired, not insufficient_evidence, and it is not cited") \
    .add("tx-future", "2023-01-10T09:00:00Z", "Tess's new phone number from March is 0176 5550 1234.",
         "user.phone", aliases=["phone number"], valid_from="2023-03-01T00:00:00Z") \
    .add("tx-email", "2023-01-11T09:00:00Z", "Tess's email is tess@example.org.", "user.email",
         aliases=["email"]) \
    .ask("What is Tess's phone number?", "UNKNOWN", reason="retired_or_expired", forbidden=["tx-future"],
         hard=["tx-email"], at="2023-02-01T09:00:00Z")

case("abstention", "tess", "a disputed record about someone else (her brother) and an on-topic candidate: the "
     "reason comes from the match about the question, candidate_or_unverified") \
    .add("tx-bro-a", "2023-01-10T09:00:00Z", "Tess's brother Finn is allergic to peanuts.",
         "family.brother.allergy", aliases=["allergy", "allergic"]) \
    .add("tx-bro-b", "2023-01-10T09:05:00Z", "Tess's brother Finn is allergic to cashews.",
         "family.brother.allergy", aliases=["allergy", "allergic"], source="model_inference") \
    .op("tx-dispute", "2023-01-11T09:00:00Z", "dispute", "tx-bro-a", conflict_with=["tx-bro-b"]) \
    .add("tx-cand", "2023-01-12T09:00:00Z", "Tess is allergic to birch pollen.", "user.allergy",
         aliases=["allergy", "allergic"], source="model_inference") \
    .ask("Is Tess allergic to anything?", "UNKNOWN", reason="candidate_or_unverified",
         forbidden=["tx-bro-a", "tx-bro-b", "tx-cand"], at="2023-02-01T09:00:00Z")



# -- third round (general-dev3.jsonl), written after 72206fb, before any further change ------------
SECOND = len(CASES)

def _plans(category, description):
    return case(category, "kim", description) \
        .add("tx-red", "2020-01-10T09:00:00Z", "Kim's mobile plan is Vodafone Red with 20 GB.", "user.mobile_plan",
             aliases=["mobile plan", "phone plan"]) \
        .update("tx-o2", "2021-01-10T09:00:00Z", "tx-red", "Switched to O2 Unlimited.", "user.mobile_plan",
                aliases=["mobile plan", "phone plan"]) \
        .update("tx-tmobile", "2022-09-01T09:00:00Z", "tx-o2", "Kim's mobile plan is Telekom MagentaMobil.",
                "user.mobile_plan", aliases=["mobile plan", "phone plan"]) \
        .add("tx-internet", "2022-09-02T09:00:00Z", "Kim's home internet is Vodafone cable.", "user.internet",
             aliases=["internet"])


_plans("temporal", "'in the autumn of 2022' (ends 30 November) after a September change: the new plan "
       "answers, historical only if it ended (it did not): VERIFIED") \
    .ask("Which mobile plan did Kim have in the autumn of 2022?", "VERIFIED", expected=["tx-tmobile"],
         forbidden=["tx-red", "tx-o2"], hard=["tx-internet"], at="2024-01-05T09:00:00Z")

_plans("temporal", "'during 2021': the link valid at the end of 2021 answers, historical") \
    .ask("What mobile plan was Kim on during 2021?", "VERIFIED_HISTORICAL", expected=["tx-o2"],
         forbidden=["tx-red", "tx-tmobile"], hard=["tx-internet"], at="2024-01-05T09:00:00Z")

_plans("update", "'used to' over a chain of three: the link before the current one answers (not the first)") \
    .ask("Which mobile plan did Kim use to have?", "VERIFIED_HISTORICAL", expected=["tx-o2"],
         forbidden=["tx-tmobile", "tx-red"], hard=["tx-internet"], at="2024-01-05T09:00:00Z")

_plans("update", "'previous' over a chain of three, asked with the first link's word: the link before the "
       "current one answers") \
    .ask("What was Kim's previous mobile plan, the Vodafone one?", "VERIFIED_HISTORICAL", expected=["tx-o2"],
         forbidden=["tx-tmobile", "tx-red"], at="2024-01-05T09:00:00Z")

case("forgetting", "kim", "forget the middle link of a chain, ask as of its time: the first link was closed "
     "when it began, the forgotten one never answers: UNKNOWN retired_or_expired") \
    .add("tx-red", "2020-01-10T09:00:00Z", "Kim's mobile plan is Vodafone Red with 20 GB.", "user.mobile_plan",
         aliases=["mobile plan", "phone plan"]) \
    .update("tx-o2", "2021-01-10T09:00:00Z", "tx-red", "Kim's mobile plan is O2 Unlimited.", "user.mobile_plan",
            aliases=["mobile plan", "phone plan"]) \
    .update("tx-tmobile", "2022-09-01T09:00:00Z", "tx-o2", "Kim's mobile plan is Telekom MagentaMobil.",
            "user.mobile_plan", aliases=["mobile plan", "phone plan"]) \
    .op("tx-forget", "2023-01-10T09:00:00Z", "forget", "tx-o2") \
    .ask("Which mobile plan is Kim on?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-red", "tx-o2", "tx-tmobile"], as_of="2021-06-01T09:00:00Z", at="2024-01-05T09:00:00Z")

case("forgetting", "kim", "forget the middle link of a chain, ask today: the head answers; the forgotten "
     "link is not shown as evidence") \
    .add("tx-red", "2020-01-10T09:00:00Z", "Kim's mobile plan is Vodafone Red with 20 GB.", "user.mobile_plan",
         aliases=["mobile plan", "phone plan"]) \
    .update("tx-o2", "2021-01-10T09:00:00Z", "tx-red", "Kim's mobile plan is O2 Unlimited.", "user.mobile_plan",
            aliases=["mobile plan", "phone plan"]) \
    .update("tx-tmobile", "2022-09-01T09:00:00Z", "tx-o2", "Telekom MagentaMobil since September.",
            "user.mobile_plan", aliases=["mobile plan", "phone plan"]) \
    .op("tx-forget", "2023-01-10T09:00:00Z", "forget", "tx-o2") \
    .ask("Is Kim's mobile plan O2 Unlimited?", "VERIFIED", expected=["tx-tmobile"],
         forbidden=["tx-red", "tx-o2"], trap=True, at="2024-01-05T09:00:00Z")

case("conflict", "lea", "a dispute naming a retired record is refused invalid_transition (only active or "
     "candidate records are disputed); the current record answers") \
    .add("tx-a", "2023-01-10T09:00:00Z", "Lea's yoga class is on Mondays.", "user.yoga", aliases=["yoga class"]) \
    .update("tx-b", "2023-03-10T09:00:00Z", "tx-a", "Lea's yoga class moved to Thursdays.", "user.yoga",
            aliases=["yoga class"]) \
    .add("tx-c", "2023-03-11T09:00:00Z", "Lea's yoga class is on Saturdays.", "user.yoga_guess",
         aliases=["yoga class"], source="model_inference") \
    .op("tx-dispute", "2023-03-12T09:00:00Z", "dispute", "tx-c", conflict_with=["tx-a"],
        expect=REFUSED("invalid_transition")) \
    .ask("When is Lea's yoga class?", "VERIFIED", expected=["tx-b"], forbidden=["tx-a", "tx-c"], trap=True,
         at="2023-04-01T09:00:00Z")

case("cross_scope", "ugo", "as recorded at a past instant, another user's record then current never answers; "
     "the caller's own, recorded later, did not exist yet: UNKNOWN") \
    .add("tx-lucia", "2020-01-10T09:00:00Z", "Lucia's piano teacher is Signora Bassi.", "user.piano_teacher",
         aliases=["piano teacher"], user="lucia") \
    .add("tx-ugo", "2023-01-10T09:00:00Z", "Ugo's piano teacher is Maestro Conti.", "user.piano_teacher",
         aliases=["piano teacher"]) \
    .ask("Who is the piano teacher?", "UNKNOWN", forbidden=["tx-lucia", "tx-ugo"],
         recorded_as_of="2021-01-01T09:00:00Z", at="2023-02-01T09:00:00Z")


# -- fourth round (general-dev4.jsonl): "before X" questions from an outside tester's personal store --------
THIRD = len(CASES)

_TODAY = "2026-11-30T09:00:00Z"


def _moves(category, description, *extra):
    """The tester's store: facts added today with --key and a past --from, then updated the same way."""
    made = case(category, "sam", description) \
        .add("tx-leeds", _TODAY, "I live in Leeds.", "user.home_city", valid_from="2020-05-01T00:00:00Z") \
        .update("tx-manchester", _TODAY, None, "I live in Manchester.", "user.home_city",
                valid_from="2025-03-01T00:00:00Z") \
        .add("tx-nurse", _TODAY, "I work as a nurse at St. Mary's hospital.", "user.job",
             valid_from="2019-01-01T00:00:00Z") \
        .update("tx-acme", _TODAY, None, "I work as a software developer at Acme.", "user.job",
                valid_from="2024-02-01T00:00:00Z")
    for tx, statement, key in extra:
        made.add(tx, _TODAY, statement, key)
    return made


_ASKED = "2026-12-01T09:00:00Z"
_moves("update", "'before <the current value>': the link before the one naming it answers, historical") \
    .ask("Where did I live before Manchester?", "VERIFIED_HISTORICAL", expected=["tx-leeds"],
         forbidden=["tx-manchester", "tx-nurse", "tx-acme"], at=_ASKED)
_moves("update", "'before I moved': the value before the current one") \
    .ask("Which city did I live in before I moved?", "VERIFIED_HISTORICAL", expected=["tx-leeds"],
         forbidden=["tx-manchester"], at=_ASKED)
_moves("update", "'before <the current employer>': the previous job answers") \
    .ask("What did I do before Acme?", "VERIFIED_HISTORICAL", expected=["tx-nurse"],
         forbidden=["tx-acme", "tx-leeds", "tx-manchester"], at=_ASKED)
_moves("update", "'before I changed jobs': the previous job answers") \
    .ask("Where did I work before I changed jobs?", "VERIFIED_HISTORICAL", expected=["tx-nurse"],
         forbidden=["tx-acme"], at=_ASKED)
_moves("update", "'before <the first value>': nothing held before it: UNKNOWN retired_or_expired, never "
       "today's value") \
    .ask("Where did I live before Leeds?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-leeds", "tx-manchester"], at=_ASKED)
_moves("temporal", "'before <a year>': as of just before it") \
    .ask("Where did I live before 2022?", "VERIFIED_HISTORICAL", expected=["tx-leeds"],
         forbidden=["tx-manchester"], at=_ASKED)
_moves("temporal", "'before <a month and year>': as of just before it") \
    .ask("What was my job before February 2024?", "VERIFIED_HISTORICAL", expected=["tx-nurse"],
         forbidden=["tx-acme"], at=_ASKED)
_moves("temporal", "a year before anything held: UNKNOWN retired_or_expired") \
    .ask("Where did I live in 2019?", "UNKNOWN", reason="retired_or_expired",
         forbidden=["tx-leeds", "tx-manchester"], at=_ASKED)
_moves("update", "twin: the present tense answers today's value") \
    .ask("Where do I live?", "VERIFIED", expected=["tx-manchester"], forbidden=["tx-leeds"], at=_ASKED)
_moves("update", "twin: today's job") \
    .ask("Where do I work?", "VERIFIED", expected=["tx-acme"], forbidden=["tx-nurse"], at=_ASKED)
_moves("update", "twin: 'before work' names no value of a slot (both jobs say work): no flip to the past",
       ("tx-run", "Before work I go for a run along the canal.", "user.morning_routine")) \
    .ask("What do I do before work?", "VERIFIED", expected=["tx-run"], forbidden=["tx-nurse"], at=_ASKED)
_moves("update", "twin: 'before bed' names no value of a slot: no flip to the past",
       ("tx-read", "Before bed I read for half an hour.", "user.evening_routine")) \
    .ask("What do I do before bed?", "VERIFIED", expected=["tx-read"], forbidden=["tx-nurse", "tx-leeds"],
         at=_ASKED)


# ids: gold_<category>_2NN (first round), _3NN (second), _4NN (third) and _5NN (fourth), numbered per category in order
def _lines(cases, start):
    numbers: dict[str, int] = {}
    lines = []
    for made in cases:
        numbers[made.category] = numbers.get(made.category, start) + 1
        lines.append({"case_id": f"gold_{made.category}_{numbers[made.category]:03d}", "category": made.category,
                      "description": made.description, "setup": made.steps, "query": made.query,
                      "expect": made.expect})
    return "".join(json.dumps(line) + "\n" for line in lines)


def main() -> None:
    (HERE / "general-dev.jsonl").write_text(_lines(CASES[:FIRST], 200))
    (HERE / "general-dev2.jsonl").write_text(_lines(CASES[FIRST:SECOND], 300))
    (HERE / "general-dev3.jsonl").write_text(_lines(CASES[SECOND:THIRD], 400))
    (HERE / "general-dev4.jsonl").write_text(_lines(CASES[THIRD:], 500))


if __name__ == "__main__":
    main()
