"""Writes the ``trust`` gold category: benchmarks/gold/trust.jsonl (dev), trust-test.jsonl (test) and
trust-dev2.jsonl (a second dev set, ``DEV2``, ids from 101) and trust-dev3.jsonl (a third, ``DEV3``,
ids from 201) and trust-dev4.jsonl (a fourth, ``DEV4``, ids from 301).

Issue 13's six failure classes, each case with a hard negative that would win or leak
without the fix. Written from the issue's descriptions before any code change, not tuned on
the engine. Split: the cases are listed in pairs of the same class; the first of each pair
goes to the dev half (failures may be looked at), the second to the frozen test half (only
ever reported). Regenerate with ``python benchmarks/gold/trust_cases.py``; the JSONL files
are what the benchmark reads (ids never change once published).
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
_ENV = "memory.envelope.v1"


def _source(at, stype="explicit_user", ref=None, session=None, speaker=None):
    return {"type": stype, "ref": ref or f"chat:{at[:10]}#1", "observed_at": at, "evidence_hash": None,
            "session": session, "speaker": speaker}


class Case:
    def __init__(self, user, description, start="2024-01-10T09:00:00Z"):
        self.user, self.description, self.steps, self.day = user, description, [], 0
        self.start = start

    def _at(self, at):
        if at:
            return at
        self.day += 1
        return self.start[:8] + f"{int(self.start[8:10]) + self.day:02d}" + "T09:00:00Z"

    def _scope(self):
        return {"type": "user", "key": self.user}

    def add(self, tx, statement, key=None, kind="fact", aliases=(), tags=(), at=None, valid_from=None,
            valid_to=None, source="explicit_user", triggers=(), expect=None):
        at = self._at(at)
        actor = {"type": "agent", "id": "extractor"} if source == "model_inference" else \
            {"type": "user_via_agent", "id": "assistant"}
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": "add", "actor": actor,
               "source": _source(at, source), "target": {"record_id": None, "memory_key": key, "scope": self._scope()},
               "payload": {"kind": kind, "statement": statement, "confidence": "high", "importance": "medium",
                           "aliases": list(aliases), "tags": list(tags), "negative_triggers": list(triggers)},
               "valid_time": {"from": valid_from or at, "to": valid_to}, "sensitivity": {"classification": "private"},
               "reason": "the user said so"}
        self.steps.append(dict({"at": at, "envelope": env}, **({"expect": expect} if expect else {})))
        return self

    def turn(self, tx, speaker, statement, session="session_1", ref=None, at=None):
        at = self._at(at)
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": "add",
               "actor": {"type": "agent", "id": "chat-logger"},
               "source": _source(at, "conversation", ref or f"D{session[-1]}:{len(self.steps) + 1}", session, speaker),
               "target": {"record_id": None, "memory_key": None, "scope": self._scope()},
               "payload": {"kind": "episode", "statement": statement, "confidence": "high", "importance": "medium",
                           "aliases": [], "tags": [], "negative_triggers": []},
               "valid_time": {"from": at, "to": None}, "sensitivity": {"classification": "private"},
               "reason": "conversation turn kept verbatim"}
        self.steps.append({"at": at, "envelope": env})
        return self

    def update(self, tx, target, statement, key, aliases=(), tags=(), at=None, kind="fact"):
        at = self._at(at)
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": "update",
               "actor": {"type": "user_via_agent", "id": "assistant"}, "source": _source(at),
               "target": {"record_id": f"@{target}", "memory_key": key, "scope": self._scope()},
               "payload": {"kind": kind, "statement": statement, "confidence": "high", "importance": "medium",
                           "aliases": list(aliases), "tags": list(tags), "negative_triggers": []},
               "valid_time": {"from": at, "to": None}, "sensitivity": {"classification": "private"},
               "reason": "the user reported a change"}
        self.steps.append({"at": at, "envelope": env})
        return self

    def op(self, tx, operation, target, key=None, conflict_with=(), at=None, expect=None):
        at = self._at(at)
        actor = {"type": "reviewer", "id": "reviewer"} if operation in ("approve", "reject") else \
            {"type": "user_via_agent", "id": "assistant"}
        env = {"schema_version": _ENV, "transaction_id": tx, "operation": operation, "actor": actor,
               "source": _source(at), "target": {"record_id": f"@{target}", "memory_key": key, "scope": self._scope()},
               "reason": f"the user asked to {operation} it"}
        if conflict_with:
            env["payload"] = {"conflict_with": [f"@{c}" for c in conflict_with]}
        self.steps.append(dict({"at": at, "envelope": env}, **({"expect": expect} if expect else {})))
        return self

    def ask(self, text, state, expected=(), forbidden=(), hard=(), reason=None, as_of=None, trap=False, at=None):
        if state == "UNKNOWN" and reason is None:
            reason = "insufficient_evidence"
        self.query = {"text": text, "user": self.user, "as_of": as_of, "recorded_as_of": None,
                      "include_inactive": False}
        if at:
            self.query["at"] = at
        self.expect = {"knowledge_state": state, "reason_code": reason, "expected": list(expected),
                       "forbidden": list(forbidden), "hard_negatives": list(hard), "stale_or_retired_trap": trap}
        return self


CASES: list[Case] = []


def case(user, description, start="2024-01-10T09:00:00Z"):
    made = Case(user, description, start)
    CASES.append(made)
    return made


# -- class 1: a key term the scope never saw; a generic word must not carry the answer ------------
case("ines", "class 1: visa never stored; the gym membership shares only 'expires'") \
    .add("tx-gym", "My gym membership expires in May.", "user.gym.membership", aliases=["gym"]) \
    .add("tx-flat", "Ines rents a flat in Lyon.", "user.home") \
    .ask("When does my visa expire?", "UNKNOWN", forbidden=["tx-gym"], hard=["tx-gym"])
case("omar", "class 1: the car insurance is not stored; the home insurance shares 'insurance renewal'") \
    .add("tx-home-ins", "Home insurance renewal is due every March with Aviva.", "user.insurance.home",
         aliases=["house insurance"]) \
    .add("tx-cat", "Omar has a tabby cat called Simba.", "user.pets.cat") \
    .ask("When is the renewal of my motorbike insurance?", "UNKNOWN", forbidden=["tx-home-ins"], hard=["tx-home-ins"])
case("greta", "class 1: blood type never stored; a tea record shares 'type'") \
    .add("tx-tea", "My favourite type of tea is oolong.", "user.preference.tea", kind="preference") \
    .add("tx-allergy", "Greta is allergic to penicillin.", "user.health.allergy", aliases=["allergy"]) \
    .ask("What is my blood type?", "UNKNOWN", forbidden=["tx-tea"], hard=["tx-tea"])
case("felix", "class 1: a key term present answers; the generic-word record stays out of the evidence") \
    .add("tx-passport", "Felix's passport expires on 3 June 2027.", "user.documents.passport", aliases=["passport"]) \
    .add("tx-lease", "The lease on the flat expires at the end of August.", "user.home.lease") \
    .ask("When does my passport expire?", "VERIFIED", expected=["tx-passport"], hard=["tx-lease"])
case("hana", "class 1: the wifi password is not stored; the alarm code shares 'home'") \
    .add("tx-alarm", "The home alarm code is kept in the blue notebook.", "user.home.alarm", aliases=["alarm"]) \
    .add("tx-bike", "Hana cycles to work on a red road bike.", "user.commute") \
    .ask("Where is the home wifi password?", "UNKNOWN", forbidden=["tx-alarm"], hard=["tx-alarm"])
case("pavel", "class 1: an airline never stored; the train habit shares 'usually'") \
    .add("tx-train", "Pavel usually takes the train to the office.", "user.commute", aliases=["commute"]) \
    .add("tx-lunch", "He has lunch at his desk most days.", "user.lunch") \
    .ask("Which airline do I usually fly with?", "UNKNOWN", forbidden=["tx-train"], hard=["tx-train"])
case("sofia", "class 1: the daughter's school start is stored; the dentist appointment shares 'start'") \
    .add("tx-dentist", "The dentist appointment starts at 10 on Thursday.", "user.appointments.dentist") \
    .add("tx-school", "Sofia's daughter starts school at Hillside Primary in September.", "user.family.daughter.school",
         aliases=["school"]) \
    .ask("When does my daughter start school?", "VERIFIED", expected=["tx-school"], hard=["tx-dentist"])
case("tomas", "class 1: the piano teacher's fee is not stored; the tennis lesson shares 'lesson cost'") \
    .add("tx-tennis", "A tennis lesson costs 40 euros at the club.", "user.sport.tennis") \
    .add("tx-car", "Tomas drives a grey Skoda Octavia.", "user.car") \
    .ask("How much does a violin lesson cost?", "UNKNOWN", forbidden=["tx-tennis"], hard=["tx-tennis"])
case("nadia", "class 1: the locker number is not stored; the bike lock shares 'number'") \
    .add("tx-lock", "The bike lock number is 4471.", "user.bike.lock") \
    .add("tx-desk", "Nadia sits at desk 12 on the third floor.", "user.office.desk") \
    .ask("What is my gym locker number?", "UNKNOWN", forbidden=["tx-lock"], hard=["tx-lock"])
case("quentin", "class 1: the mortgage rate is stored under its own words; the savings account rate must not lead") \
    .add("tx-savings", "The savings account pays an interest rate of 3.1 percent.", "user.finance.savings") \
    .add("tx-mortgage", "The mortgage has a fixed interest rate of 4.2 percent until 2028.", "user.finance.mortgage",
         aliases=["home loan"]) \
    .ask("What interest rate is my mortgage on?", "VERIFIED", expected=["tx-mortgage"], hard=["tx-savings"])
case("ravi", "class 1: the allergy to bees is not stored; the cat allergy shares 'allergic'") \
    .add("tx-cat-allergy", "Ravi is allergic to cats.", "user.health.allergy.cats") \
    .add("tx-coffee", "Ravi drinks his coffee black.", "user.preference.coffee", kind="preference") \
    .ask("Am I allergic to wasp stings?", "UNKNOWN", forbidden=["tx-cat-allergy"], hard=["tx-cat-allergy"])
case("ulla", "class 1: the kayak brand is not stored; the bike brand shares 'brand'") \
    .add("tx-bike-brand", "Ulla's bike is a Canyon, her favourite brand.", "user.bike.brand") \
    .add("tx-garden", "Ulla grows tomatoes on the balcony.", "user.garden") \
    .ask("What brand is my kayak?", "UNKNOWN", forbidden=["tx-bike-brand"], hard=["tx-bike-brand"])

# -- class 2: whose fact a record states (relations, possessives, dialogue pronouns) ----------------
case("jonas", "class 2: only the brother's shoe size is stored; the user's is unknown") \
    .add("tx-brother-shoe", "My brother's shoe size is 44.", "user.family.brother.shoe_size", aliases=["shoe size"]) \
    .add("tx-boots", "Jonas bought new hiking boots in March.", "user.purchases.boots") \
    .ask("What is my shoe size?", "UNKNOWN", forbidden=["tx-brother-shoe"], hard=["tx-brother-shoe"])
case("lea", "class 2: the user's and the mother's birthdays: the mother's must not answer for the user") \
    .add("tx-mum-bday", "My mum's birthday is on 14 February.", "user.family.mother.birthday", aliases=["birthday"]) \
    .add("tx-own-bday", "Lea was born on 2 August 1991.", "user.birthday", aliases=["birthday", "born"]) \
    .ask("When is my birthday?", "VERIFIED", expected=["tx-own-bday"], forbidden=["tx-mum-bday"], hard=["tx-mum-bday"])
case("kai", "class 2: X's cat vs X's partner: the partner's name must not answer the cat's") \
    .add("tx-partner", "Mira's partner is named Tobias.", "contacts.mira.partner", aliases=["name", "called"]) \
    .add("tx-work", "Mira works as an architect in Ghent.", "contacts.mira.job") \
    .ask("What is the name of Mira's cat?", "UNKNOWN", forbidden=["tx-partner"], hard=["tx-partner"])
case("dara", "class 2: the sister's dog and the user's own dog; the question is about the sister's") \
    .add("tx-own-dog", "My dog is a beagle called Biscuit.", "user.pets.dog", aliases=["dog"]) \
    .add("tx-sister-dog", "My sister's dog is a greyhound called Flash.", "user.family.sister.dog", aliases=["dog"]) \
    .ask("What breed is my sister's dog?", "VERIFIED", expected=["tx-sister-dog"], forbidden=["tx-own-dog"],
         hard=["tx-own-dog"])
case("mia", "class 2: the friend's job must not answer the user's job") \
    .add("tx-friend-job", "My friend Ada works as a nurse at St Mary's.", "contacts.ada.job", aliases=["job", "works"]) \
    .add("tx-hobby", "Mia plays the cello in an amateur orchestra.", "user.hobby") \
    .ask("What is my job?", "UNKNOWN", forbidden=["tx-friend-job"], hard=["tx-friend-job"])
case("noel", "class 2: X's partner's employer vs X's employer: the question asks X's own") \
    .add("tx-zoe-job", "Zoe works at the city library.", "contacts.zoe.job", aliases=["works", "employer"]) \
    .add("tx-zoe-partner-job", "Zoe's husband works at a bakery on Elm Street.", "contacts.zoe.husband.job",
         aliases=["works", "employer"]) \
    .ask("Where does Zoe's husband work?", "VERIFIED", expected=["tx-zoe-partner-job"], forbidden=["tx-zoe-job"],
         hard=["tx-zoe-job"])
case("maya", "class 2: dialogue pronouns: Maya's 'I work as a nurse' is not Jon's job, though it names Jon") \
    .turn("tx-maya-job", "Maya", "Jon, I work as a nurse at the city hospital now.") \
    .turn("tx-jon-reply", "Jon", "That sounds exhausting, but rewarding!") \
    .turn("tx-jon-other", "Jon", "I went hiking in the Alps last weekend.") \
    .ask("Where does Jon work?", "UNKNOWN", forbidden=["tx-maya-job"], hard=["tx-maya-job"])
case("eli", "class 2: dialogue pronouns: 'you' in Sam's turn is Eli; Eli's own 'my' is Eli") \
    .turn("tx-sam-asks", "Sam", "Eli, your new guitar looks amazing, is it a Gibson?") \
    .turn("tx-eli-guitar", "Eli", "Thanks! My guitar is a Fender Stratocaster, bought it used.") \
    .turn("tx-sam-own", "Sam", "My guitar is a Gibson Les Paul, an old one.") \
    .ask("What guitar does Eli play?", "VERIFIED", expected=["tx-eli-guitar"], forbidden=["tx-sam-own"],
         hard=["tx-sam-own"])
case("ivo", "class 2: the neighbour's car must not answer for the user's car") \
    .add("tx-neighbour-car", "My neighbour's car is a blue Tesla Model 3.", "contacts.neighbour.car", aliases=["car"]) \
    .add("tx-bike", "Ivo commutes by e-bike.", "user.commute") \
    .ask("What car do I drive?", "UNKNOWN", forbidden=["tx-neighbour-car"], hard=["tx-neighbour-car"])
case("rosa", "class 2: dialogue pronouns: Ken says 'you' to Rosa about Rosa's trip; the question is about Ken") \
    .turn("tx-ken-you", "Ken", "Rosa, so you are flying to Tokyo in April.") \
    .turn("tx-rosa-yes", "Rosa", "Yes, two weeks in Tokyo and Kyoto.") \
    .turn("tx-ken-own", "Ken", "I will stay home and paint the kitchen.") \
    .ask("Where is Ken flying in April?", "UNKNOWN", forbidden=["tx-ken-you"], hard=["tx-ken-you"])
case("tara", "class 2: the son's allergy vs the user's; the question is the user's own") \
    .add("tx-son-allergy", "Tara's son is allergic to peanuts.", "user.family.son.allergy", aliases=["allergy"]) \
    .add("tx-own-allergy", "Tara is allergic to shellfish.", "user.health.allergy", aliases=["allergy"]) \
    .ask("What am I allergic to?", "VERIFIED", expected=["tx-own-allergy"], forbidden=["tx-son-allergy"],
         hard=["tx-son-allergy"])

# -- class 3: a match on a retired record answers with its successor ------------------------------
case("anna", "class 3: the tea preference moved to rooibos; the successor shares no word with the question") \
    .add("tx-green", "I like green tea.", "user.preference.hot_drink", kind="preference") \
    .update("tx-rooibos", "tx-green", "These days only rooibos.", "user.preference.hot_drink") \
    .add("tx-coffee-shop", "Anna meets friends at the Bean Corner cafe.", "user.social.cafe") \
    .ask("What tea do I like?", "VERIFIED", expected=["tx-rooibos"], forbidden=["tx-green"], trap=True)
case("ben", "class 3: a chain A->B->C answers C") \
    .add("tx-nokia", "Ben's phone is an old Nokia.", "user.device.phone") \
    .update("tx-pixel", "tx-nokia", "He switched to a Pixel 6.", "user.device.phone") \
    .update("tx-iphone", "tx-pixel", "Now an iPhone 15, a gift from work.", "user.device.phone") \
    .ask("What phone does Ben have?", "VERIFIED", expected=["tx-iphone"], forbidden=["tx-nokia", "tx-pixel"], trap=True)
case("cora", "class 3: the gym changed; the successor names only the new place") \
    .add("tx-puregym", "Cora trains at the PureGym gym on King Street.", "user.fitness.venue", aliases=["gym"]) \
    .update("tx-climb", "tx-puregym", "Switched to the Boulderhaus climbing hall.", "user.fitness.venue") \
    .ask("Which gym does Cora go to?", "VERIFIED", expected=["tx-climb"], forbidden=["tx-puregym"], trap=True)
case("dev", "class 3: as of a past instant the then-valid link of a chain answers (historical)") \
    .add("tx-oslo", "Dev lives in Oslo.", "user.home_city", at="2021-02-01T09:00:00Z") \
    .update("tx-bergen", "tx-oslo", "Moved to Bergen for the new job.", "user.home_city", at="2022-06-01T09:00:00Z") \
    .update("tx-tromso", "tx-bergen", "Now up north in Tromso.", "user.home_city", at="2023-09-01T09:00:00Z") \
    .ask("Where does Dev live?", "VERIFIED_HISTORICAL", expected=["tx-bergen"], forbidden=["tx-tromso", "tx-oslo"],
         as_of="2023-01-15T00:00:00Z", trap=True)
case("edda", "class 3: the running club changed; the successor shares no word with the question") \
    .add("tx-harriers", "Edda runs with the Riverside Harriers running club.", "user.sport.club") \
    .update("tx-swim", "tx-harriers", "She quit that and joined the Dolphins masters swim team.", "user.sport.club") \
    .ask("Which running club is Edda in?", "VERIFIED", expected=["tx-swim"], forbidden=["tx-harriers"], trap=True)
case("finn", "class 3: a question giving a year answers with the link valid that year") \
    .add("tx-acme", "Finn works as a tester at Acme.", "user.employer", at="2020-03-01T09:00:00Z") \
    .update("tx-globex", "tx-acme", "Joined Globex as a developer.", "user.employer", at="2022-05-01T09:00:00Z") \
    .ask("Where did Finn work in 2021?", "VERIFIED_HISTORICAL", expected=["tx-acme"], forbidden=["tx-globex"],
         at="2024-01-10T09:00:00Z")
case("gia", "class 3: the diet changed; the successor shares no word; an unrelated record shares one") \
    .add("tx-vegetarian", "Gia eats a vegetarian diet.", "user.diet") \
    .update("tx-vegan", "tx-vegetarian", "Fully plant-based since January, no dairy or eggs.", "user.diet") \
    .add("tx-diet-coke", "Gia hates diet soda.", "user.preference.soda", kind="preference") \
    .ask("Is Gia vegetarian?", "VERIFIED", expected=["tx-vegan"], forbidden=["tx-vegetarian"], trap=True)
case("hugo", "class 3: a past-tense question without --as-of answers with the earlier link") \
    .add("tx-renault", "Hugo used to drive a Renault Clio.", "user.car", at="2019-04-01T09:00:00Z") \
    .update("tx-volvo", "tx-renault", "Bought a Volvo estate for the family.", "user.car", at="2023-02-01T09:00:00Z") \
    .ask("What car did Hugo drive in 2020?", "VERIFIED_HISTORICAL", expected=["tx-renault"], forbidden=["tx-volvo"],
         at="2024-01-10T09:00:00Z")
case("iris", "class 3: a chain of three, the question matches only the first") \
    .add("tx-guitar", "Iris takes guitar lessons on Mondays.", "user.hobby.lessons") \
    .update("tx-piano", "tx-guitar", "Switched to piano with Mrs Hale.", "user.hobby.lessons") \
    .update("tx-singing", "tx-piano", "Now it is singing, Thursday evenings.", "user.hobby.lessons") \
    .ask("When are Iris's guitar lessons?", "VERIFIED", expected=["tx-singing"],
         forbidden=["tx-guitar", "tx-piano"], trap=True)
case("jin", "class 3: the bank changed; the successor names only the new bank") \
    .add("tx-hsbc", "Jin banks with HSBC, the current account in Leeds.", "user.finance.bank") \
    .update("tx-monzo", "tx-hsbc", "Moved everything to Monzo.", "user.finance.bank") \
    .ask("Which bank holds Jin's current account?", "VERIFIED", expected=["tx-monzo"], forbidden=["tx-hsbc"], trap=True)
case("kira", "class 3: as of a past date the first link answers, historical") \
    .add("tx-nurse", "Kira works night shifts as a nurse.", "user.job", at="2021-01-05T09:00:00Z") \
    .update("tx-teacher", "tx-nurse", "Retrained and teaches biology now.", "user.job", at="2023-08-01T09:00:00Z") \
    .ask("What was Kira's job?", "VERIFIED_HISTORICAL", expected=["tx-nurse"], forbidden=["tx-teacher"],
         as_of="2022-01-01T00:00:00Z", at="2024-01-10T09:00:00Z")

# -- class 4: the reason comes from the matches about the question; every condition is doable -----
case("luca", "class 4: the disputed cat's name is not about 'what is my name': no unresolved_conflict") \
    .add("tx-cat-a", "Luca's cat's name is Tom.", "user.pets.cat.name") \
    .add("tx-cat-b", "Luca's cat's name is Tim.", "user.pets.cat.name_alt") \
    .op("tx-dispute", "dispute", "tx-cat-a", conflict_with=["tx-cat-b"]) \
    .add("tx-city", "Luca lives in Turin.", "user.home_city") \
    .ask("What is my full legal name?", "UNKNOWN", forbidden=["tx-cat-a", "tx-cat-b", "tx-city"])
case("mara", "class 4: a dispute whose other side was erased no longer blocks: the survivor answers") \
    .add("tx-a", "Mara's blood group is A positive.", "user.health.blood_group", aliases=["blood type"]) \
    .add("tx-b", "Mara's blood group is O negative.", "user.health.blood_group_note", aliases=["blood type"]) \
    .op("tx-dispute", "dispute", "tx-a", conflict_with=["tx-b"]) \
    .op("tx-erase", "erase", "tx-b") \
    .ask("What is Mara's blood group?", "VERIFIED", expected=["tx-a"])
case("nico", "class 4: a dispute whose other side was forgotten no longer blocks: the survivor answers") \
    .add("tx-x", "Nico's locker at the pool is number 17.", "user.pool.locker") \
    .add("tx-y", "Nico's locker at the pool is number 71.", "user.pool.locker_alt") \
    .op("tx-dispute", "dispute", "tx-x", conflict_with=["tx-y"]) \
    .op("tx-forget", "forget", "tx-y") \
    .ask("What is Nico's pool locker number?", "VERIFIED", expected=["tx-x"], forbidden=["tx-y"])
case("olga", "class 4: resolve accepts a dispute whose other side was erased") \
    .add("tx-a", "Olga's flight lands at 14:20.", "user.travel.landing") \
    .add("tx-b", "Olga's flight lands at 16:40.", "user.travel.landing_alt") \
    .op("tx-dispute", "dispute", "tx-a", conflict_with=["tx-b"]) \
    .op("tx-erase", "erase", "tx-b") \
    .op("tx-resolve", "resolve", "tx-a", conflict_with=["tx-b"]) \
    .ask("When does Olga's flight land?", "VERIFIED", expected=["tx-a"])
case("pia", "class 4: a question about the disputed slot stays a conflict (the reason is about the question)") \
    .add("tx-a", "Pia's dentist is Dr Lowe.", "user.health.dentist") \
    .add("tx-b", "Pia's dentist is Dr Marsh.", "user.health.dentist_alt") \
    .op("tx-dispute", "dispute", "tx-a", conflict_with=["tx-b"]) \
    .add("tx-gp", "Pia's doctor practice is on Mill Road.", "user.health.gp") \
    .ask("Who is Pia's dentist?", "UNKNOWN", reason="unresolved_conflict", forbidden=["tx-a", "tx-b"])
case("remy", "class 4: an unrelated candidate must not turn an unknown into candidate_or_unverified") \
    .add("tx-guess", "Remy's favourite football team is probably Arsenal.", "user.sport.team", source="model_inference") \
    .add("tx-job", "Remy is a carpenter.", "user.job") \
    .ask("What is Remy's favourite book?", "UNKNOWN", forbidden=["tx-guess", "tx-job"])
case("saar", "class 4: an unrelated retired record must not turn an unknown into retired_or_expired") \
    .add("tx-old-gym", "Saar had a membership at FitLife gym.", "user.gym") \
    .op("tx-retire", "retire", "tx-old-gym") \
    .add("tx-cat", "Saar has a cat named Pixel.", "user.pets.cat") \
    .ask("What is Saar's membership number at the library?", "UNKNOWN", forbidden=["tx-old-gym"])
case("timo", "class 4: a dispute whose other side was erased, then resolve: the survivor answers") \
    .add("tx-a", "Timo's shoe size is 43.", "user.shoe_size") \
    .add("tx-b", "Timo's shoe size is 45.", "user.shoe_size_alt") \
    .op("tx-dispute", "dispute", "tx-b", conflict_with=["tx-a"]) \
    .op("tx-erase", "erase", "tx-a") \
    .op("tx-resolve", "resolve", "tx-b", conflict_with=["tx-a"]) \
    .ask("What is Timo's shoe size?", "VERIFIED", expected=["tx-b"])
case("uma", "class 4: an unrelated dispute; the question's own match is retired: retired_or_expired") \
    .add("tx-a", "Uma's car is a red Fiat.", "user.car") \
    .add("tx-b", "Uma's car is a blue Ford.", "user.car_alt") \
    .op("tx-dispute", "dispute", "tx-a", conflict_with=["tx-b"]) \
    .add("tx-yoga", "Uma does yoga at the Lotus studio on Tuesdays.", "user.yoga") \
    .op("tx-retire", "retire", "tx-yoga") \
    .ask("Where does Uma do yoga?", "UNKNOWN", reason="retired_or_expired", forbidden=["tx-yoga", "tx-a", "tx-b"])
case("vera", "class 4: a dispute among three, one side forgotten: the two left stay disputed") \
    .add("tx-a", "Vera's train leaves at 7:10.", "user.train.a") \
    .add("tx-b", "Vera's train leaves at 7:40.", "user.train.b") \
    .add("tx-c", "Vera's train leaves at 8:05.", "user.train.c") \
    .op("tx-dispute", "dispute", "tx-a", conflict_with=["tx-b", "tx-c"]) \
    .op("tx-forget", "forget", "tx-c") \
    .ask("When does Vera's train leave?", "UNKNOWN", reason="unresolved_conflict", forbidden=["tx-a", "tx-b", "tx-c"])
case("wim", "class 4: an unrelated disputed record; the question's subject is simply not stored") \
    .add("tx-a", "Wim's boat is named Zeemeeuw.", "user.boat.name") \
    .add("tx-b", "Wim's boat is named Albatros.", "user.boat.name_alt") \
    .op("tx-dispute", "dispute", "tx-a", conflict_with=["tx-b"]) \
    .ask("What is the name of Wim's dog?", "UNKNOWN", forbidden=["tx-a", "tx-b"])

# -- class 5: a negative bounds only the same subject and predicate ---------------------------------
case("xena", "class 5: 'does not drink alcohol' must not answer what she drinks in the morning") \
    .add("tx-no-alcohol", "Xena does not drink alcohol.", "user.diet.alcohol", kind="negative",
         aliases=["teetotal"], triggers=["beer", "wine", "alcohol"]) \
    .add("tx-run", "Xena runs 5 km every morning.", "user.sport.running") \
    .ask("What does Xena drink in the morning?", "UNKNOWN", forbidden=["tx-no-alcohol"], hard=["tx-no-alcohol"])
case("yann", "class 5: a coffee habit and an off-topic negative: plain VERIFIED, no boundary") \
    .add("tx-coffee", "Yann drinks a flat white every morning.", "user.preference.coffee", kind="preference") \
    .add("tx-no-alcohol", "Yann does not drink alcohol.", "user.diet.alcohol", kind="negative",
         triggers=["beer", "wine"]) \
    .ask("What coffee does Yann drink in the morning?", "VERIFIED", expected=["tx-coffee"],
         forbidden=["tx-no-alcohol"], hard=["tx-no-alcohol"])
case("zara", "class 5: the sister's negative must not bound the user's answer") \
    .add("tx-sister-meat", "Zara's sister does not eat meat.", "user.family.sister.diet", kind="negative",
         triggers=["meat"]) \
    .add("tx-own-food", "Zara loves eating steak and ribs.", "user.preference.food", kind="preference") \
    .ask("What food does Zara love eating?", "VERIFIED", expected=["tx-own-food"], forbidden=["tx-sister-meat"],
         hard=["tx-sister-meat"])
case("abel", "class 5: the same subject and predicate: the negative answers") \
    .add("tx-no-smoke", "Abel does not smoke.", "user.health.smoking", kind="negative", triggers=["cigarettes"]) \
    .add("tx-gym", "Abel lifts weights at the gym three times a week.", "user.fitness") \
    .ask("Does Abel smoke?", "VERIFIED_NEGATIVE", expected=["tx-no-smoke"], hard=["tx-gym"])
case("bo", "class 5: 'does not own a car' must not answer what bike he rides") \
    .add("tx-no-car", "Bo does not own a car.", "user.transport.car", kind="negative", triggers=["car", "drive"]) \
    .add("tx-work", "Bo works from home on Fridays.", "user.work.schedule") \
    .ask("What bike does Bo own?", "UNKNOWN", forbidden=["tx-no-car"], hard=["tx-no-car"])
case("cleo", "class 5: a positive and an on-topic negative: the boundary holds") \
    .add("tx-fish", "Cleo eats fish twice a week.", "user.diet.fish", kind="preference") \
    .add("tx-no-meat", "Cleo does not eat meat.", "user.diet.meat", kind="negative", triggers=["meat", "beef"]) \
    .ask("What does Cleo eat, meat or fish?", "VERIFIED_WITH_NEGATIVE_BOUNDARY", expected=["tx-fish", "tx-no-meat"])
case("dino", "class 5: 'does not watch horror films' must not bound what he watches on Sundays") \
    .add("tx-no-horror", "Dino does not watch horror films.", "user.preference.films.horror", kind="negative",
         triggers=["horror"]) \
    .add("tx-f1", "Dino watches Formula 1 races on Sundays.", "user.preference.sport_tv", kind="preference") \
    .ask("What does Dino watch on Sundays?", "VERIFIED", expected=["tx-f1"], forbidden=["tx-no-horror"],
         hard=["tx-no-horror"])
case("ema", "class 5: the friend's negative must not answer the user's question") \
    .add("tx-friend-fly", "My friend Lou does not fly, ever.", "contacts.lou.travel", kind="negative",
         triggers=["plane", "flight"]) \
    .add("tx-trip", "Ema is planning a trip to Crete in June.", "user.travel.plan") \
    .ask("Do I fly to Crete?", "VERIFIED", expected=["tx-trip"], forbidden=["tx-friend-fly"], hard=["tx-friend-fly"])
case("fred", "class 5: 'does not work weekends' must not answer where he works") \
    .add("tx-no-weekend", "Fred does not work weekends.", "user.work.weekends", kind="negative") \
    .add("tx-cook", "Fred cooks paella for friends.", "user.hobby.cooking") \
    .ask("Where does Fred work?", "UNKNOWN", forbidden=["tx-no-weekend"], hard=["tx-no-weekend"])
case("gwen", "class 5: the same subject and predicate, a paraphrased question: the negative answers") \
    .add("tx-no-dairy", "Gwen does not eat dairy products.", "user.diet.dairy", kind="negative",
         aliases=["lactose"], triggers=["milk", "cheese", "dairy"]) \
    .add("tx-bread", "Gwen bakes her own sourdough bread.", "user.hobby.baking") \
    .ask("Does Gwen eat dairy?", "VERIFIED_NEGATIVE", expected=["tx-no-dairy"], hard=["tx-bread"])
case("hal", "class 5: 'does not drink coffee' must not answer what he drinks at night") \
    .add("tx-no-coffee", "Hal does not drink coffee after noon.", "user.diet.coffee", kind="negative",
         triggers=["coffee"]) \
    .add("tx-tea-night", "Hal has chamomile tea before bed.", "user.preference.evening", kind="preference") \
    .ask("What does Hal drink at night?", "VERIFIED", expected=["tx-tea-night"], forbidden=["tx-no-coffee"],
         hard=["tx-no-coffee"])

# -- class 6: the record holding every content word of the question ranks first --------------------
case("ines2", "class 6: 'choir meets' beats 'choir sings'") \
    .add("tx-bach", "Our choir sings Bach this month, the St John Passion.", "user.choir.repertoire") \
    .add("tx-meets", "Choir meets in the church hall on Fridays.", "user.choir.venue") \
    .ask("Where does my choir meet?", "VERIFIED", expected=["tx-meets"], hard=["tx-bach"])
case("jack", "class 6: 'book club meets' beats a record that repeats 'book' often") \
    .add("tx-books", "Jack reads a book a week, mostly crime books, and lends books to everyone.", "user.reading") \
    .add("tx-club", "The book club meets at the Crown pub.", "user.book_club") \
    .ask("Where does Jack's book club meet?", "VERIFIED", expected=["tx-club"], hard=["tx-books"])
case("kemal", "class 6: 'team trains' beats 'team won'") \
    .add("tx-won", "Kemal's football team won the league, the team's best season, a team effort.", "user.football.result") \
    .add("tx-trains", "The football team trains on Wednesday evenings at Parkside.", "user.football.training") \
    .ask("When does Kemal's football team train?", "VERIFIED", expected=["tx-trains"], hard=["tx-won"])
case("lin", "class 6: 'sister lives' beats a long record about the sister") \
    .add("tx-sister-job", "Lin's sister is a doctor; her sister says the sister job is hard.", "user.family.sister.job") \
    .add("tx-sister-home", "Her sister lives in Vancouver.", "user.family.sister.home") \
    .ask("Where does Lin's sister live?", "VERIFIED", expected=["tx-sister-home"], hard=["tx-sister-job"])
case("moe", "class 6: 'garden party starts' beats 'garden party food'") \
    .add("tx-food", "For the garden party we order food, lots of party food, from the garden centre cafe.",
         "user.party.food") \
    .add("tx-start", "The garden party starts at 3 pm on Saturday.", "user.party.time") \
    .ask("When does the garden party start?", "VERIFIED", expected=["tx-start"], hard=["tx-food"])
case("nell", "class 6: 'piano teacher charges' beats 'piano practice'") \
    .add("tx-practice", "Nell practises piano daily; piano practice, piano scales, piano pieces.", "user.piano.practice") \
    .add("tx-fee", "Her piano teacher charges 35 pounds an hour.", "user.piano.fee") \
    .ask("How much does Nell's piano teacher charge?", "VERIFIED", expected=["tx-fee"], hard=["tx-practice"])
case("otto", "class 6: 'bus leaves' beats a record about the bus route") \
    .add("tx-route", "The number 9 bus goes past the bus station and the school bus stop.", "user.commute.route") \
    .add("tx-leaves", "The school bus leaves at 7:45.", "user.commute.time") \
    .ask("When does the school bus leave?", "VERIFIED", expected=["tx-leaves"], hard=["tx-route"])
case("pam", "class 6: 'yoga class costs' beats 'yoga class yoga'") \
    .add("tx-yoga", "Pam loves yoga; the Monday yoga class is her favourite yoga class.", "user.yoga.class") \
    .add("tx-cost", "The yoga class costs 12 pounds a session.", "user.yoga.cost") \
    .ask("How much does Pam's yoga class cost?", "VERIFIED", expected=["tx-cost"], hard=["tx-yoga"])
case("quin", "class 6: 'cat eats' beats 'cat cat'") \
    .add("tx-cat", "Quin's cat is a Maine Coon cat, a big cat.", "user.pets.cat") \
    .add("tx-eats", "The cat eats salmon pouches.", "user.pets.cat_food") \
    .ask("What does Quin's cat eat?", "VERIFIED", expected=["tx-eats"], hard=["tx-cat"])
case("rhea", "class 6: 'dentist appointment moved' beats 'dentist dentist'") \
    .add("tx-dentist", "Rhea's dentist is a good dentist, the best dentist in town.", "user.health.dentist") \
    .add("tx-moved", "The dentist appointment moved to 4 April.", "user.health.appointment") \
    .ask("When was Rhea's dentist appointment moved to?", "VERIFIED", expected=["tx-moved"], hard=["tx-dentist"])
case("stan", "class 6: 'wifi router reset' beats a record about the router") \
    .add("tx-router", "The router is a Fritzbox router next to the other router.", "user.home.router") \
    .add("tx-reset", "To reset the wifi router, hold the back button for ten seconds.", "user.home.router_reset") \
    .ask("How do I reset the wifi router?", "VERIFIED", expected=["tx-reset"], hard=["tx-router"])
case("tess", "class 6: 'swim lesson starts' beats 'swim swim'") \
    .add("tx-swim", "Tess's son loves to swim; swim, swim, swim all summer.", "user.family.son.swimming") \
    .add("tx-lesson", "His swim lesson starts at 5 on Tuesdays.", "user.family.son.swim_lesson") \
    .ask("When does the swim lesson start?", "VERIFIED", expected=["tx-lesson"], hard=["tx-swim"])



# == the second dev set (trust-dev2.jsonl, ids from 101): written after the first fixes fitted the
# visible cases and before the next code change, to test classes 1, 2 and 5 in new shapes — other
# vocabularies, sentence forms, relations (colleague, neighbour, son, landlord), named people in
# conversations, generic verbs shared with hard negatives ("expire", "called", "work", "meet",
# "name"), and positives that must still answer. All dev: failures may be looked at.
DEV2: list[Case] = []


def dev2(user, description, start="2024-02-01T09:00:00Z"):
    made = Case(user, description, start)
    DEV2.append(made)
    return made


# -- class 1 in new shapes -------------------------------------------------------------------------
dev2("lucia", "class 1: the residence permit is never stored; the licence and the milk share 'expire'") \
    .add("tx-licence", "Lucia's driving licence expires in March 2029.", "user.documents.licence") \
    .add("tx-milk", "The oat milk in the fridge expires on Friday.", "user.kitchen.milk") \
    .add("tx-job", "Lucia works as a translator for a law firm.", "user.work.job") \
    .ask("When does my residence permit expire?", "UNKNOWN", forbidden=["tx-licence", "tx-milk"],
         hard=["tx-licence", "tx-milk"])
dev2("lucia", "class 1 positive: the same store, the licence is asked for and answers") \
    .add("tx-licence", "Lucia's driving licence expires in March 2029.", "user.documents.licence") \
    .add("tx-milk", "The oat milk in the fridge expires on Friday.", "user.kitchen.milk") \
    .add("tx-job", "Lucia works as a translator for a law firm.", "user.work.job") \
    .ask("When does my driving licence expire?", "VERIFIED", expected=["tx-licence"], forbidden=["tx-milk"],
         hard=["tx-milk"])
dev2("bram", "class 1: the tortoise is never stored; the goldfish and the plumber share 'called'") \
    .add("tx-fish", "My goldfish is called Bubbles.", "user.pets.goldfish") \
    .add("tx-plumber", "The plumber is called Stan and comes on Tuesdays.", "user.home.plumber") \
    .ask("What is my tortoise called?", "UNKNOWN", forbidden=["tx-fish", "tx-plumber"], hard=["tx-fish"])
dev2("bram", "class 1 positive: a synonym the extractor put in the aliases answers") \
    .add("tx-fish", "My goldfish is called Bubbles.", "user.pets.goldfish", aliases=["fish"]) \
    .add("tx-plumber", "The plumber is called Stan and comes on Tuesdays.", "user.home.plumber") \
    .ask("What is my fish called?", "VERIFIED", expected=["tx-fish"], forbidden=["tx-plumber"], hard=["tx-plumber"])
dev2("dmitri", "class 1: the accountant is never stored; working from home shares 'work'") \
    .add("tx-home", "Dmitri works from home on Fridays.", "user.work.remote_days") \
    .add("tx-laptop", "Dmitri's laptop is a ThinkPad X1.", "user.devices.laptop") \
    .ask("Where does my accountant work?", "UNKNOWN", forbidden=["tx-home"], hard=["tx-home"])
dev2("rosa", "class 1: the chess club is never stored; the book club shares 'club' and 'meets'") \
    .add("tx-book", "The book club meets on the first Monday of the month.", "user.clubs.book") \
    .add("tx-coffee", "Rosa has coffee with Ana every Sunday.", "user.routine.sunday") \
    .ask("When does the chess club meet?", "UNKNOWN", forbidden=["tx-book"], hard=["tx-book"])
dev2("rosa", "class 1 positive: the book club is asked for and answers") \
    .add("tx-book", "The book club meets on the first Monday of the month.", "user.clubs.book") \
    .add("tx-coffee", "Rosa has coffee with Ana every Sunday.", "user.routine.sunday") \
    .ask("When does the book club meet?", "VERIFIED", expected=["tx-book"], forbidden=["tx-coffee"])
dev2("gus", "class 1: the boat is never stored; the car and the wifi network share 'name'") \
    .add("tx-car", "My first car was named Bertha.", "user.car.first") \
    .add("tx-wifi", "The name of the wifi network at home is Fernweh.", "user.home.wifi") \
    .ask("What is the name of my boat?", "UNKNOWN", forbidden=["tx-car", "tx-wifi"], hard=["tx-wifi"])
dev2("ilse", "class 1: the library card is never stored; the locker and the pizza place share 'number'") \
    .add("tx-locker", "My locker number at the swimming pool is 118.", "user.pool.locker") \
    .add("tx-pizza", "The pizza place's number is saved under Luigi.", "user.contacts.pizza") \
    .ask("What is my library card number?", "UNKNOWN", forbidden=["tx-locker", "tx-pizza"], hard=["tx-locker"])
dev2("owen", "class 1 positive: a stem variant ('serviced') answers; the car service stays out") \
    .add("tx-boiler", "Booked the annual boiler service with HeatCo for 12 October.", "user.home.boiler") \
    .add("tx-car", "The car is due its service in the spring.", "user.car.service") \
    .ask("When is my boiler serviced?", "VERIFIED", expected=["tx-boiler"], forbidden=["tx-car"], hard=["tx-car"])
dev2("kenji", "class 1: the tax return is never stored in a store of things 'due'") \
    .add("tx-ins", "The car insurance payment is due on the 1st of each month.", "user.finance.car_insurance") \
    .add("tx-rent", "The rent is due on the 28th of each month.", "user.finance.rent") \
    .add("tx-dentist", "A dentist check-up is due in April.", "user.health.dentist") \
    .add("tx-cat", "Kenji feeds the cat at 7 every evening.", "user.pets.cat") \
    .ask("When is my tax return due?", "UNKNOWN", forbidden=["tx-ins", "tx-rent", "tx-dentist"], hard=["tx-rent"])
dev2("kenji", "class 1 positive: the same store, the rent is asked for and answers") \
    .add("tx-ins", "The car insurance payment is due on the 1st of each month.", "user.finance.car_insurance") \
    .add("tx-rent", "The rent is due on the 28th of each month.", "user.finance.rent") \
    .add("tx-dentist", "A dentist check-up is due in April.", "user.health.dentist") \
    .add("tx-cat", "Kenji feeds the cat at 7 every evening.", "user.pets.cat") \
    .ask("When is my rent due?", "VERIFIED", expected=["tx-rent"], forbidden=["tx-ins", "tx-dentist"])
dev2("abby", "class 1 positive: filler words the scope never saw do not sink a record holding every noun") \
    .add("tx-yoga", "Abby's yoga class starts at 7:30 on weekdays.", "user.routine.yoga") \
    .add("tx-lunch", "Abby has lunch with her team on Wednesdays.", "user.routine.lunch") \
    .ask("Remind me, what time does my yoga class usually start?", "VERIFIED", expected=["tx-yoga"],
         forbidden=["tx-lunch"])
dev2("chloe", "class 1: a credit card PIN is never stored; the debit card shares 'card' and 'PIN'") \
    .add("tx-debit", "Chloe keeps her debit card PIN only in her head.", "user.finance.debit_pin") \
    .add("tx-bank", "Chloe banks with Monzo.", "user.finance.bank") \
    .ask("Where do I keep my credit card PIN?", "UNKNOWN", forbidden=["tx-debit"], hard=["tx-debit"])
dev2("marek", "class 1: a conversation; the work contract is never mentioned, the lease shares 'expires'") \
    .turn("tx-lease", "Sam", "My lease expires in June, so I'm looking for a new place.") \
    .turn("tx-reply", "Marek", "Good luck with the flat hunt! Let me know if you need help moving.") \
    .ask("When does Sam's work contract expire?", "UNKNOWN", forbidden=["tx-lease"], hard=["tx-lease"])

# -- class 2 in new shapes -------------------------------------------------------------------------
dev2("hugo", "class 2: the colleague's commute is not the user's") \
    .add("tx-colleague", "My colleague's commute takes an hour by train.", "user.work.colleague_commute") \
    .add("tx-desk", "Hugo uses a standing desk at the office.", "user.work.desk") \
    .ask("How long is my commute?", "UNKNOWN", forbidden=["tx-colleague"], hard=["tx-colleague"])
dev2("hugo", "class 2 positive: the colleague's commute answers when the colleague is asked about") \
    .add("tx-colleague", "My colleague's commute takes an hour by train.", "user.work.colleague_commute") \
    .add("tx-desk", "Hugo uses a standing desk at the office.", "user.work.desk") \
    .ask("How long is my colleague's commute?", "VERIFIED", expected=["tx-colleague"], forbidden=["tx-desk"])
dev2("pia", "class 2: the neighbour's dog is not the user's dog") \
    .add("tx-neighbour", "Our neighbour's dog is called Pepper.", "user.neighbours.dog") \
    .add("tx-walk", "Pia walks to the station every morning.", "user.routine.walk") \
    .ask("What is my dog called?", "UNKNOWN", forbidden=["tx-neighbour"], hard=["tx-neighbour"])
dev2("pia", "class 2 positive: the neighbour's dog answers for the neighbour") \
    .add("tx-neighbour", "Our neighbour's dog is called Pepper.", "user.neighbours.dog") \
    .add("tx-walk", "Pia walks to the station every morning.", "user.routine.walk") \
    .ask("What is our neighbour's dog called?", "VERIFIED", expected=["tx-neighbour"], forbidden=["tx-walk"])
dev2("joel", "class 2: the son plays the cello; the user does not, as far as the store knows") \
    .add("tx-son", "My son plays the cello in the school orchestra.", "user.family.son.music") \
    .add("tx-run", "Joel runs 5 km on Saturday mornings.", "user.sport.running") \
    .ask("Do I play the cello?", "UNKNOWN", forbidden=["tx-son"], hard=["tx-son"])
dev2("vera", "class 2: the landlord's phone number is not the user's ('The landlord's ...' opening)") \
    .add("tx-landlord", "The landlord's phone number is 0161 555 0199.", "user.home.landlord_phone") \
    .add("tx-flat", "Vera rents a two-room flat in Salford.", "user.home.flat") \
    .ask("What is my phone number?", "UNKNOWN", forbidden=["tx-landlord"], hard=["tx-landlord"])
dev2("vera", "class 2 positive: the landlord's phone number answers for the landlord") \
    .add("tx-landlord", "The landlord's phone number is 0161 555 0199.", "user.home.landlord_phone") \
    .add("tx-flat", "Vera rents a two-room flat in Salford.", "user.home.flat") \
    .ask("What is my landlord's phone number?", "VERIFIED", expected=["tx-landlord"], forbidden=["tx-flat"])
dev2("tariq", "class 2: the wife (named) teaches chemistry; the user's own teaching is not stored") \
    .add("tx-wife", "Tariq's wife Leila teaches chemistry at Northfield High.", "user.family.wife.job") \
    .add("tx-car", "Tariq drives a silver Honda Jazz.", "user.car") \
    .ask("What subject do I teach?", "UNKNOWN", forbidden=["tx-wife"], hard=["tx-wife"])
dev2("tariq", "class 2 positive: asked about the wife, her record answers") \
    .add("tx-wife", "Tariq's wife Leila teaches chemistry at Northfield High.", "user.family.wife.job") \
    .add("tx-car", "Tariq drives a silver Honda Jazz.", "user.car") \
    .ask("What does my wife teach?", "VERIFIED", expected=["tx-wife"], forbidden=["tx-car"])
dev2("nell", "class 2: the relation sits mid-sentence ('On Sundays my dad plays golf')") \
    .add("tx-dad", "On Sundays my dad plays golf at Fairhaven.", "user.family.dad.golf") \
    .add("tx-swim", "Nell swims at the lido before work.", "user.sport.swim") \
    .ask("When do I play golf?", "UNKNOWN", forbidden=["tx-dad"], hard=["tx-dad"])
dev2("nell", "class 2 positive: the dad's golf answers for the dad") \
    .add("tx-dad", "On Sundays my dad plays golf at Fairhaven.", "user.family.dad.golf") \
    .add("tx-swim", "Nell swims at the lido before work.", "user.sport.swim") \
    .ask("When does my dad play golf?", "VERIFIED", expected=["tx-dad"], forbidden=["tx-swim"])
dev2("mei", "class 2: the flatmate (named) is vegan; the user is not said to be") \
    .add("tx-jo", "Mei's flatmate Jo is vegan.", "user.home.flatmate") \
    .add("tx-mei", "Mei cooks a big pot of curry every Sunday.", "user.routine.cooking") \
    .ask("Am I vegan?", "UNKNOWN", forbidden=["tx-jo"], hard=["tx-jo"])
dev2("mei", "class 2 positive: the flatmate asked about by name") \
    .add("tx-jo", "Mei's flatmate Jo is vegan.", "user.home.flatmate") \
    .add("tx-mei", "Mei cooks a big pot of curry every Sunday.", "user.routine.cooking") \
    .ask("Is Jo vegan?", "VERIFIED", expected=["tx-jo"], forbidden=["tx-mei"])
dev2("amir", "class 2: a named third person's habit (Karim) is not the user's") \
    .add("tx-karim", "Karim plays padel every Thursday evening.", "user.friends.karim") \
    .add("tx-amir", "Amir works late on Thursdays.", "user.work.thursday") \
    .ask("When do I play padel?", "UNKNOWN", forbidden=["tx-karim"], hard=["tx-karim"])
dev2("amir", "class 2 positive: the named person asked about answers") \
    .add("tx-karim", "Karim plays padel every Thursday evening.", "user.friends.karim") \
    .add("tx-amir", "Amir works late on Thursdays.", "user.work.thursday") \
    .ask("When does Karim play padel?", "VERIFIED", expected=["tx-karim"], forbidden=["tx-amir"])
dev2("diary", "class 2: a conversation; 'you work nights' is about Felipe, not about Dana who says it") \
    .turn("tx-dana-you", "Dana", "You work nights at the hospital, so you must be tired all the time.") \
    .turn("tx-felipe", "Felipe", "Exhausted, honestly. But the pay is good.") \
    .turn("tx-dana-gym", "Dana", "I'm off to the gym now, talk later!") \
    .ask("Where does Dana work?", "UNKNOWN", forbidden=["tx-dana-you"], hard=["tx-dana-you"])
dev2("diary", "class 2 positive: 'you' is the other speaker; Dana's turn answers for Felipe") \
    .turn("tx-dana-you", "Dana", "You work nights at the hospital, so you must be tired all the time.") \
    .turn("tx-felipe", "Felipe", "Exhausted, honestly. But the pay is good.") \
    .turn("tx-dana-gym", "Dana", "I'm off to the gym now, talk later!") \
    .ask("Where does Felipe work?", "VERIFIED", expected=["tx-dana-you"], forbidden=["tx-dana-gym"])
dev2("notes", "class 2: a conversation; the speaker's brother works at the airport, not the speaker") \
    .turn("tx-brother", "Dana", "My brother Tom works at the airport, in baggage handling.") \
    .turn("tx-reply", "Felipe", "That must be a busy job around the holidays.") \
    .ask("Where does Dana work?", "UNKNOWN", forbidden=["tx-brother"], hard=["tx-brother"])
dev2("notes", "class 2 positive: the brother asked about through the speaker") \
    .turn("tx-brother", "Dana", "My brother Tom works at the airport, in baggage handling.") \
    .turn("tx-reply", "Felipe", "That must be a busy job around the holidays.") \
    .ask("Where does Dana's brother work?", "VERIFIED", expected=["tx-brother"], forbidden=["tx-reply"])
dev2("log", "class 2: a conversation; 'your new flat' said by Kemal is Ola's flat") \
    .turn("tx-kemal", "Kemal", "Your new flat in Porto looks amazing, Ola!") \
    .turn("tx-ola", "Ola", "Thanks! I still have boxes everywhere.") \
    .ask("Where is Kemal's flat?", "UNKNOWN", forbidden=["tx-kemal"], hard=["tx-kemal"])
dev2("log", "class 2 positive: Kemal's turn answers where Ola's new flat is") \
    .turn("tx-kemal", "Kemal", "Your new flat in Porto looks amazing, Ola!") \
    .turn("tx-ola", "Ola", "Thanks! I still have boxes everywhere.") \
    .ask("Where is Ola's new flat?", "VERIFIED", expected=["tx-kemal"])
dev2("carmen", "class 2: the friend's birthday (named) is not the user's birthday") \
    .add("tx-carlos", "My friend Carlos's birthday is on 9 July.", "user.friends.carlos.birthday") \
    .add("tx-book", "Carmen is reading a novel by Elena Ferrante.", "user.reading") \
    .ask("When is my birthday?", "UNKNOWN", forbidden=["tx-carlos"], hard=["tx-carlos"])

# -- class 5 in new shapes -------------------------------------------------------------------------
dev2("leah", "class 5: an off-topic negative ('does not eat pork') must not bound the breakfast") \
    .add("tx-pork", "Leah does not eat pork.", "user.diet.no_pork", kind="negative", triggers=["pork", "bacon", "ham"]) \
    .add("tx-porridge", "Leah eats porridge for breakfast.", "user.diet.breakfast", kind="preference") \
    .ask("What do I eat for breakfast?", "VERIFIED", expected=["tx-porridge"], forbidden=["tx-pork"], hard=["tx-pork"])
dev2("leah", "class 5 positive: the same subject and predicate, the negative answers") \
    .add("tx-pork", "Leah does not eat pork.", "user.diet.no_pork", kind="negative", triggers=["pork", "bacon", "ham"]) \
    .add("tx-porridge", "Leah eats porridge for breakfast.", "user.diet.breakfast", kind="preference") \
    .ask("Does Leah eat bacon?", "VERIFIED_NEGATIVE", expected=["tx-pork"], forbidden=["tx-porridge"])
dev2("oscar", "class 5: 'never drives at night' does not bound how the user gets to work") \
    .add("tx-night", "Oscar never drives at night.", "user.driving.night", kind="negative") \
    .add("tx-tram", "Oscar takes the tram to work.", "user.commute") \
    .ask("How do I get to work?", "VERIFIED", expected=["tx-tram"], forbidden=["tx-night"], hard=["tx-night"])
dev2("rhea", "class 5: the husband's negative does not bound the user's coffee") \
    .add("tx-husband", "My husband doesn't drink coffee.", "user.family.husband.coffee", kind="negative") \
    .add("tx-espresso", "I drink two espressos a day.", "user.diet.coffee", kind="preference", aliases=["coffee"]) \
    .ask("Do I drink coffee?", "VERIFIED", expected=["tx-espresso"], forbidden=["tx-husband"], hard=["tx-husband"])
dev2("ben", "class 5 positive: an on-topic negative ('does not own a car') answers what colour the car is") \
    .add("tx-nocar", "Ben does not own a car.", "user.transport.car", kind="negative", triggers=["car", "drive"]) \
    .add("tx-bike", "Ben rides a cargo bike to work.", "user.transport.bike") \
    .ask("What colour is my car?", "VERIFIED_NEGATIVE", expected=["tx-nocar"], forbidden=["tx-bike"])
dev2("ola", "class 5: 'never takes the lift' shares only 'take' with a question about headaches") \
    .add("tx-lift", "Ola never takes the lift at work.", "user.habits.lift", kind="negative") \
    .add("tx-plants", "Ola waters the plants on Mondays.", "user.home.plants") \
    .ask("What does Ola take for headaches?", "UNKNOWN", forbidden=["tx-lift"], hard=["tx-lift"])
dev2("elif", "class 5 positive: a positive and an on-topic negative about languages: the boundary holds") \
    .add("tx-speaks", "Elif speaks Spanish and Portuguese fluently.", "user.languages.spoken") \
    .add("tx-no-german", "Elif does not speak German.", "user.languages.not_german", kind="negative",
         triggers=["German", "language"]) \
    .ask("Which languages does Elif speak?", "VERIFIED_WITH_NEGATIVE_BOUNDARY", expected=["tx-speaks", "tx-no-german"])



# -- DEV3: over-abstention and generalization (ids from 201) ---------------------------------------
# Written after the second round (the frozen half failed 4/34, three of them UNKNOWN where VERIFIED
# was expected), before the next code change. Each store is asked several questions: POSITIVES in
# shapes the other sets lack (other verb forms and tenses, irregular plurals, a person named by
# relation and by name, "The user's ..." facts, the user's own conversation turns, keyed facts
# with updates, attribute words a record states without the word) beside hard negative twins on
# the same store (the other person's fact, an unseen thing, an off-topic question).
DEV3: list[Case] = []


def dev3(user, setup, *asks, start="2024-03-01T09:00:00Z"):
    """One store (``setup(case)`` adds its records), one case per (description, question, state,
    expectations) in ``asks``."""
    for description, text, state, expect in asks:
        made = Case(user, description, start)
        setup(made)
        made.ask(text, state, **expect)
        DEV3.append(made)


dev3("amara", lambda c: c
     .add("tx-son", "My son Idris goes to Riverside Academy.", "user.family.son.school")
     .add("tx-noor", "Amara's daughter Noor plays the violin.", "user.family.daughter.music"),
     ("verb form: 'go' asked, 'goes' stored; the son asked by name",
      "What school does Idris go to?", "VERIFIED", dict(expected=["tx-son"], forbidden=["tx-noor"])),
     ("verb form: the son asked by relation",
      "Which school does my son go to?", "VERIFIED", dict(expected=["tx-son"], forbidden=["tx-noor"])),
     ("twin: the daughter's school is not stored; the son's must not answer",
      "What school does Noor go to?", "UNKNOWN", dict(forbidden=["tx-son"], hard=["tx-son"])))

dev3("lars", lambda c: c
     .add("tx-honeymoon", "We went to Lisbon for our honeymoon in 2019.", "user.travel.honeymoon")
     .add("tx-oslo", "Lars goes to Oslo for work every quarter.", "user.work.travel"),
     ("past tense: 'go' asked, 'went' stored",
      "Where did we go on our honeymoon?", "VERIFIED", dict(expected=["tx-honeymoon"], forbidden=["tx-oslo"])),
     ("twin: the anniversary trip is not stored; 'go' alone must not answer",
      "Where did we go for our tenth anniversary?", "UNKNOWN",
      dict(forbidden=["tx-honeymoon", "tx-oslo"], hard=["tx-honeymoon"])))

dev3("priya", lambda c: c
     .add("tx-bike", "Bought a Brompton folding bike in March.", "user.purchases.bike")
     .add("tx-laptop", "Priya's husband bought a new laptop last week.", "user.family.husband.laptop"),
     ("irregular past: 'buy' asked, 'bought' stored",
      "What bike did I buy?", "VERIFIED", dict(expected=["tx-bike"], forbidden=["tx-laptop"])),
     ("twin: the husband's laptop is not the user's",
      "What laptop did I buy?", "UNKNOWN", dict(forbidden=["tx-laptop"], hard=["tx-laptop"])),
     ("irregular past: the husband's purchase asked for",
      "What did my husband buy?", "VERIFIED", dict(expected=["tx-laptop"], forbidden=["tx-bike"])))

dev3("oren", lambda c: c
     .add("tx-move", "Oren is moving to Edinburgh in September.", "user.move")
     .add("tx-sister", "His sister moved to Cardiff last year.", "user.family.sister.move"),
     ("tense: 'moving' stored, 'moving' asked; the sister's move stays out",
      "Where am I moving to?", "VERIFIED", dict(expected=["tx-move"], forbidden=["tx-sister"])),
     ("twin: the brother's move is not stored",
      "Where did my brother move to?", "UNKNOWN", dict(forbidden=["tx-move", "tx-sister"], hard=["tx-sister"])),
     ("tense: 'moved' stored, 'move' asked, about the sister",
      "Where did my sister move?", "VERIFIED", dict(expected=["tx-sister"], forbidden=["tx-move"])))

dev3("wen", lambda c: c
     .add("tx-taught", "Wen taught maths at a secondary school for ten years.", "user.career.teaching")
     .add("tx-mother", "Wen's mother spoke only Cantonese at home.", "user.family.mother.language"),
     ("irregular past: 'teach' asked, 'taught' stored",
      "What did I teach?", "VERIFIED", dict(expected=["tx-taught"], forbidden=["tx-mother"])),
     ("twin: the father's teaching is not stored",
      "What did my father teach?", "UNKNOWN", dict(forbidden=["tx-taught"], hard=["tx-taught"])),
     ("irregular past: 'speak' asked, 'spoke' stored, about the mother",
      "What did my mother speak at home?", "VERIFIED", dict(expected=["tx-mother"], forbidden=["tx-taught"])))

dev3("beth", lambda c: c
     .add("tx-kids", "The children's dentist is Dr Patel on King Street.", "user.family.children.dentist")
     .add("tx-own", "Beth's own dentist is Dr Howe.", "user.health.dentist"),
     ("irregular plural: 'child' asked, 'children' stored",
      "Who is my child's dentist?", "VERIFIED", dict(expected=["tx-kids"], forbidden=["tx-own"])),
     ("twin: the children's piano teacher is not stored",
      "Who is my child's piano teacher?", "UNKNOWN", dict(forbidden=["tx-kids", "tx-own"], hard=["tx-kids"])),
     ("the user's own dentist, with the children's in the store",
      "Who is my dentist?", "VERIFIED", dict(expected=["tx-own"], forbidden=["tx-kids"])))

dev3("rita", lambda c: c
     .add("tx-tooth", "Rita had a wisdom tooth removed in January.", "user.health.tooth")
     .add("tx-knee", "Rita's knee surgery is booked for May.", "user.health.knee"),
     ("irregular plural: 'teeth' asked, 'tooth' stored",
      "When were my wisdom teeth removed?", "VERIFIED", dict(expected=["tx-tooth"], forbidden=["tx-knee"])),
     ("twin: the appendix is never stored; 'removed' alone must not answer",
      "When was my appendix removed?", "UNKNOWN", dict(forbidden=["tx-tooth"], hard=["tx-tooth"])))

dev3("jude", lambda c: c
     .add("tx-sam", "My partner Sam's birthday is on 3 May.", "user.family.partner.birthday")
     .add("tx-own", "Jude's birthday is on 19 November.", "user.birthday"),
     ("named by relation and name: asked by name",
      "When is Sam's birthday?", "VERIFIED", dict(expected=["tx-sam"], forbidden=["tx-own"])),
     ("named by relation and name: asked by relation",
      "When is my partner's birthday?", "VERIFIED", dict(expected=["tx-sam"], forbidden=["tx-own"])),
     ("twin: the sister's birthday is not stored",
      "When is my sister's birthday?", "UNKNOWN", dict(forbidden=["tx-sam", "tx-own"], hard=["tx-sam"])),
     ("the user's own birthday beside the partner's",
      "When is my birthday?", "VERIFIED", dict(expected=["tx-own"], forbidden=["tx-sam"])))

dev3("ken", lambda c: c
     .add("tx-brother", "My brother is called Luca.", "user.family.brother.name")
     .add("tx-luca", "Luca works at Ferrari in Maranello.", "contacts.luca.job")
     .add("tx-ken", "Ken works as a sound engineer.", "user.work.job"),
     ("relation asked, the fact stored by name (another record names the relation)",
      "Where does my brother work?", "VERIFIED", dict(expected=["tx-luca"], forbidden=["tx-ken"])),
     ("twin: the sister's work is not stored",
      "Where does my sister work?", "UNKNOWN", dict(forbidden=["tx-luca", "tx-ken"], hard=["tx-luca"])),
     ("the named person asked by name",
      "Where does Luca work?", "VERIFIED", dict(expected=["tx-luca"], forbidden=["tx-ken"])),
     ("the user's own work, beside the brother's",
      "What do I work as?", "VERIFIED", dict(expected=["tx-ken"], forbidden=["tx-luca"])))

dev3("nina", lambda c: c
     .add("tx-elsa", "Nina's daughter Elsa swims for the county team.", "user.family.daughter.sport")
     .add("tx-nina", "Nina swam competitively at university.", "user.sport.past"),
     ("the daughter asked by name",
      "Does Elsa swim for a team?", "VERIFIED", dict(expected=["tx-elsa"], forbidden=["tx-nina"])),
     ("twin: the son is not stored",
      "Does my son swim?", "UNKNOWN", dict(forbidden=["tx-elsa", "tx-nina"], hard=["tx-elsa"])),
     ("irregular past: 'swim' asked, 'swam' stored, the user's own",
      "Did I swim at university?", "VERIFIED", dict(expected=["tx-nina"], forbidden=["tx-elsa"])))

dev3("cora", lambda c: c
     .add("tx-band", "The user's favourite band is Radiohead.", "user.preference.band", kind="preference")
     .add("tx-finn", "The user's brother Finn plays drums in a punk band.", "user.family.brother.band"),
     ("third person 'The user's ...' answers 'my ...'",
      "What is my favourite band?", "VERIFIED", dict(expected=["tx-band"], forbidden=["tx-finn"])),
     ("twin: the favourite film is never stored",
      "What is my favourite film?", "UNKNOWN", dict(forbidden=["tx-band"], hard=["tx-band"])),
     ("the brother asked by name, 'play' for 'plays'",
      "What band does Finn play in?", "VERIFIED", dict(expected=["tx-finn"], forbidden=["tx-band"])),
     ("twin: the brother's drums are not the user's",
      "Do I play the drums?", "UNKNOWN", dict(forbidden=["tx-finn"], hard=["tx-finn"])))

dev3("dev", lambda c: c
     .add("tx-user", "The user is allergic to shellfish.", "user.health.allergy")
     .add("tx-arjun", "The user's son Arjun is allergic to peanuts.", "user.family.son.allergy"),
     ("third person 'The user is ...' answers 'am I ...'",
      "What am I allergic to?", "VERIFIED", dict(expected=["tx-user"], forbidden=["tx-arjun"])),
     ("the son asked by name",
      "What is Arjun allergic to?", "VERIFIED", dict(expected=["tx-arjun"], forbidden=["tx-user"])),
     ("twin: the daughter's allergy is not stored",
      "What is my daughter allergic to?", "UNKNOWN", dict(forbidden=["tx-user", "tx-arjun"], hard=["tx-arjun"])))

dev3("zara", lambda c: c
     .turn("tx-zara-job", "Zara", "I'm working at Boots as a pharmacist now.")
     .turn("tx-leo", "Leo", "Congrats! I still work nights at the hospital.")
     .turn("tx-zara-commute", "Zara", "My commute is only ten minutes these days."),
     ("the user's own conversation turn answers a first-person question; the friend's does not",
      "Where do I work?", "VERIFIED", dict(expected=["tx-zara-job"], forbidden=["tx-leo"])),
     ("the friend asked by name",
      "Where does Leo work?", "VERIFIED", dict(expected=["tx-leo"], forbidden=["tx-zara-job"])),
     ("twin: the friend's commute is not the user's",
      "How long is Leo's commute?", "UNKNOWN", dict(forbidden=["tx-zara-commute"], hard=["tx-zara-commute"])))

dev3("hal", lambda c: c
     .add("tx-gym-old", "Hal's gym is PureGym on Deansgate.", "user.gym")
     .update("tx-gym-new", "tx-gym-old", "Hal switched to The Gym Group in Salford.", "user.gym")
     .add("tx-wife", "Hal's wife goes to a yoga studio in Chorlton.", "user.family.wife.exercise"),
     ("keyed fact with an update; 'go' asked",
      "Which gym do I go to?", "VERIFIED",
      dict(expected=["tx-gym-new"], forbidden=["tx-gym-old", "tx-wife"], trap=True)),
     ("twin: the brother's gym is not stored",
      "Which gym does my brother go to?", "UNKNOWN",
      dict(forbidden=["tx-gym-old", "tx-gym-new", "tx-wife"], hard=["tx-gym-new"])),
     ("the wife's yoga, 'go' for 'goes'",
      "Where does my wife go for yoga?", "VERIFIED",
      dict(expected=["tx-wife"], forbidden=["tx-gym-old", "tx-gym-new"])))

dev3("ivy", lambda c: c
     .add("tx-car-old", "Ivy drives a Ford Focus.", "user.car")
     .update("tx-car-new", "tx-car-old", "Ivy sold the Focus and bought a Tesla Model 3.", "user.car"),
     ("keyed update: the question matches the old record; the successor answers",
      "What car do I drive?", "VERIFIED", dict(expected=["tx-car-new"], forbidden=["tx-car-old"], trap=True)),
     ("twin: the dad's car is not stored",
      "What car does my dad drive?", "UNKNOWN", dict(forbidden=["tx-car-old", "tx-car-new"], hard=["tx-car-new"])),
     ("irregular past in an update: 'buy' asked, 'bought' stored",
      "What car did I buy?", "VERIFIED", dict(expected=["tx-car-new"], forbidden=["tx-car-old"])))

dev3("mo", lambda c: c
     .add("tx-bristol", "Mo lives in Bristol.", "user.home_city")
     .update("tx-glasgow", "tx-bristol", "Mo moved to Glasgow in June.", "user.home_city"),
     ("keyed update phrased with another verb: the successor answers",
      "Where do I live?", "VERIFIED", dict(expected=["tx-glasgow"], forbidden=["tx-bristol"], trap=True)),
     ("twin: the mum's home is not stored",
      "Where does my mum live?", "UNKNOWN", dict(forbidden=["tx-bristol", "tx-glasgow"], hard=["tx-glasgow"])))

dev3("pat", lambda c: c
     .add("tx-car", "Pat drives a Volvo XC40.", "user.car")
     .add("tx-motorbike", "Pat's motorbike is a Triumph Bonneville.", "user.motorbike"),
     ("attribute word the record states without it: 'make'",
      "What make is my car?", "VERIFIED", dict(expected=["tx-car"], forbidden=["tx-motorbike"])),
     ("twin: the van is never stored",
      "What make is my van?", "UNKNOWN", dict(forbidden=["tx-car", "tx-motorbike"], hard=["tx-car"])),
     ("attribute word the record states without it: 'model'",
      "What model is my motorbike?", "VERIFIED", dict(expected=["tx-motorbike"], forbidden=["tx-car"])))

dev3("fern", lambda c: c
     .add("tx-swim", "My kids' swimming lessons are on Saturday mornings.", "user.family.kids.swimming"),
     ("plural possessive stored, singular asked",
      "When is my kid's swimming lesson?", "VERIFIED", dict(expected=["tx-swim"])),
     ("twin: the piano lesson is never stored",
      "When is my kid's piano lesson?", "UNKNOWN", dict(forbidden=["tx-swim"], hard=["tx-swim"])))

dev3("tess", lambda c: c
     .add("tx-tokyo", "Tess flew to Tokyo with ANA last spring.", "user.travel.tokyo")
     .add("tx-sister", "Tess's sister lives in Osaka.", "user.family.sister.home"),
     ("irregular past: 'fly' asked, 'flew' stored",
      "Which airline did I fly with to Tokyo?", "VERIFIED", dict(expected=["tx-tokyo"], forbidden=["tx-sister"])),
     ("twin: the brother's flight is not stored",
      "Which airline did my brother fly with?", "UNKNOWN", dict(forbidden=["tx-tokyo"], hard=["tx-tokyo"])))

dev3("ada", lambda c: c
     .add("tx-son", "My son won the regional chess tournament.", "user.family.son.chess")
     .add("tx-ada", "Ada plays bridge on Tuesday nights.", "user.hobby.bridge"),
     ("irregular past: 'win' asked, 'won' stored; only the verb is shared besides the relation",
      "What did my son win?", "VERIFIED", dict(expected=["tx-son"], forbidden=["tx-ada"])),
     ("twin: the daughter's win is not stored",
      "What did my daughter win?", "UNKNOWN", dict(forbidden=["tx-son"], hard=["tx-son"])))

dev3("kofi", lambda c: c
     .add("tx-parents", "My parents grew up in Kumasi.", "user.family.parents.origin")
     .add("tx-kofi", "Kofi works in Leeds as a nurse.", "user.work.job"),
     ("irregular past: 'grow up' asked, 'grew up' stored",
      "Where did my parents grow up?", "VERIFIED", dict(expected=["tx-parents"], forbidden=["tx-kofi"])),
     ("twin: the wife's home town is not stored",
      "Where did my wife grow up?", "UNKNOWN", dict(forbidden=["tx-parents"], hard=["tx-parents"])))


# -- DEV4: the same person under another word (ids from 301) ---------------------------------------
# Written after the third round's fixes passed trust-dev3, from probes of shapes dev3 lacks, before
# the next code change: a relation asked by another of its words than the record's (mum / mother,
# dad / father, grandma / grandmother, kids / children, neighbour / neighbor, coworker / colleague,
# roommate / flatmate, boss / manager), a question naming a relation and its name at once ("my
# partner Sam's birthday"), a negative stated with an irregular verb; each beside a twin on the
# same store.
DEV4: list[Case] = []


def dev4(user, setup, *asks, start="2024-04-01T09:00:00Z"):
    for description, text, state, expect in asks:
        made = Case(user, description, start)
        setup(made)
        made.ask(text, state, **expect)
        DEV4.append(made)


dev4("rui", lambda c: c
     .add("tx-mum", "My mother lives in Porto.", "user.family.mother.home")
     .add("tx-me", "Rui lives in Lisbon.", "user.home"),
     ("relation synonym: 'mum' asked, 'mother' stored",
      "Where does my mum live?", "VERIFIED", dict(expected=["tx-mum"], forbidden=["tx-me"])),
     ("twin: the dad's home is not stored",
      "Where does my dad live?", "UNKNOWN", dict(forbidden=["tx-mum", "tx-me"], hard=["tx-mum"])))

dev4("gwen", lambda c: c
     .add("tx-dad", "The user's father worked as a miner in Wales.", "user.family.father.job")
     .add("tx-user", "The user teaches yoga.", "user.job"),
     ("relation synonym: 'dad' asked, 'father' stored, in the third person",
      "Where did my dad work?", "VERIFIED", dict(expected=["tx-dad"], forbidden=["tx-user"])),
     ("twin: the mum's work is not stored",
      "Where did my mum work?", "UNKNOWN", dict(forbidden=["tx-dad", "tx-user"], hard=["tx-dad"])))

dev4("ivo", lambda c: c
     .add("tx-gran", "My grandmother makes plum jam every August.", "user.family.grandmother.jam")
     .add("tx-kids", "My kids go to bed at 8.", "user.family.kids.bedtime")
     .add("tx-tom", "Our neighbor Tom feeds the cat when we travel.", "user.neighbours.tom"),
     ("relation synonym: 'grandma' asked, 'grandmother' stored",
      "When does my grandma make jam?", "VERIFIED", dict(expected=["tx-gran"], forbidden=["tx-kids", "tx-tom"])),
     ("twin: the grandpa's jam is not stored",
      "When does my grandpa make jam?", "UNKNOWN", dict(forbidden=["tx-gran"], hard=["tx-gran"])),
     ("relation synonym: 'children' asked, 'kids' stored",
      "When do my children go to bed?", "VERIFIED", dict(expected=["tx-kids"], forbidden=["tx-gran", "tx-tom"])),
     ("relation spelling: 'neighbour' asked, 'neighbor' stored",
      "Which neighbour feeds our cat?", "VERIFIED", dict(expected=["tx-tom"], forbidden=["tx-gran", "tx-kids"])))

dev4("lin", lambda c: c
     .add("tx-colleague", "My colleague Dev commutes by ferry.", "user.work.colleague")
     .add("tx-boss", "My manager is on leave until March.", "user.work.manager")
     .add("tx-flat", "My flatmate plays the trumpet at night.", "user.home.flatmate"),
     ("relation synonym: 'coworker' asked, 'colleague' stored",
      "How does my coworker commute?", "VERIFIED", dict(expected=["tx-colleague"], forbidden=["tx-boss", "tx-flat"])),
     ("twin: the user's own commute is not stored",
      "How do I commute?", "UNKNOWN", dict(forbidden=["tx-colleague"], hard=["tx-colleague"])),
     ("relation synonym: 'boss' asked, 'manager' stored",
      "When is my boss back from leave?", "VERIFIED", dict(expected=["tx-boss"], forbidden=["tx-colleague", "tx-flat"])),
     ("relation synonym: 'roommate' asked, 'flatmate' stored",
      "What instrument does my roommate play?", "VERIFIED", dict(expected=["tx-flat"], forbidden=["tx-colleague"])),
     ("twin: the neighbour's instrument is not stored",
      "What instrument does my neighbour play?", "UNKNOWN", dict(forbidden=["tx-flat"], hard=["tx-flat"])))

dev4("jo", lambda c: c
     .add("tx-sam", "Sam's birthday is on 3 May.", "contacts.sam.birthday")
     .add("tx-own", "Jo's birthday is on 9 June.", "user.birthday"),
     ("the question names the relation and the name at once",
      "When is my partner Sam's birthday?", "VERIFIED", dict(expected=["tx-sam"], forbidden=["tx-own"])),
     ("twin: another name with the same relation is not Sam",
      "When is my partner Alex's birthday?", "UNKNOWN", dict(forbidden=["tx-sam", "tx-own"], hard=["tx-sam"])))

dev4("leah", lambda c: c
     .add("tx-meat", "Leah never ate meat, even as a child.", "user.diet.meat", kind="negative")
     .add("tx-porridge", "Leah eats porridge for breakfast.", "user.diet.breakfast", kind="preference"),
     # first written VERIFIED_NEGATIVE with the breakfast forbidden; changed after the first run: a
     # positive of the same subject and predicate ("eats") beside the negative is its boundary, as
     # gold_extraction_034 ("works weekdays" beside "does not work on Fridays") has it
     ("a negative with an irregular verb answers, the same predicate's positive bounds it",
      "Does Leah eat meat?", "VERIFIED_WITH_NEGATIVE_BOUNDARY", dict(expected=["tx-meat"])),
     ("twin: the breakfast answers its own question, the negative stays out",
      "What does Leah eat for breakfast?", "VERIFIED", dict(expected=["tx-porridge"], forbidden=["tx-meat"])))

def _line(number: int, made: Case) -> dict:
    return {"case_id": f"gold_trust_{number:03d}", "category": "trust", "description": made.description,
            "setup": made.steps, "query": made.query, "expect": made.expect}


def main() -> None:
    halves = {"trust.jsonl": [], "trust-test.jsonl": [], "trust-dev2.jsonl": [], "trust-dev3.jsonl": [],
              "trust-dev4.jsonl": []}
    for number, made in enumerate(CASES, start=1):
        halves["trust.jsonl" if number % 2 else "trust-test.jsonl"].append(_line(number, made))
    for number, made in enumerate(DEV2, start=101):
        halves["trust-dev2.jsonl"].append(_line(number, made))
    for number, made in enumerate(DEV3, start=201):
        halves["trust-dev3.jsonl"].append(_line(number, made))
    for number, made in enumerate(DEV4, start=301):
        halves["trust-dev4.jsonl"].append(_line(number, made))
    for name, lines in halves.items():
        (HERE / name).write_text("".join(json.dumps(line) + "\n" for line in lines))


if __name__ == "__main__":
    main()
