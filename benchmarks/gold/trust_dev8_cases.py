"""Generate trust-dev8.jsonl: an outside tester's wrong VERIFIED answers on a personal store
(issue 13, session 6, fixb).

Written before any code change. Shapes, each in other words beside twins that must still answer:
an update that kept kind ``negative`` while its statement says the opposite ("I've started
drinking coffee every morning") is a plain fact; a negative bounds only what it negates ("I don't
like horror films" does not say what films I like); a key noun the scope never saw
("amoxicillin") is not answered by a record sharing a verb ("I take insulin every morning"); a
question naming a person (Jordan) is not answered by the speaker's own fact ("I play guitar") nor
by a record naming the person but not what is asked; a yes/no question's predicate ("a beagle") is
stated of the asked subject (the cat), not of another (the dog); "before" at the end of a question,
"before Leeds" and a past question naming an older value ask about the earlier link of a slot.

    python benchmarks/gold/trust_dev8_cases.py > benchmarks/gold/trust-dev8.jsonl
"""

import json

DAY = "2024-06-0{}T09:00:00Z"


def fact(tx, user, text, day, key=None, kind="fact", frm=None, op="add"):
    at = DAY.format(day)
    if key is None and kind == "fact":
        kind = "episode"   # the tester's store holds a statement added without --key as an episode
    elif key is None:
        # a negative needs a key in an envelope: one of no words a question holds
        key = "misc.q" + "".join(chr(ord("a") + int(d)) for d in "%03d" % (sum(map(ord, tx)) % 1000))
    return {"at": at, "envelope": {
        "schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": op,
        "actor": {"type": "user_via_agent", "id": "assistant"},
        "source": {"type": "explicit_user", "ref": "chat:" + tx, "observed_at": at, "evidence_hash": None,
                   "session": None, "speaker": None},
        "target": {"record_id": None, "memory_key": key, "scope": {"type": "user", "key": user}},
        "payload": {"kind": kind, "statement": text, "confidence": "high", "importance": "medium", "aliases": [],
                    "tags": [], "negative_triggers": []},
        "valid_time": {"from": frm or at, "to": None}, "sensitivity": {"classification": "private"},
        "reason": "the user reported a change" if op == "update" else "the user said so"}}


# the outside tester's store (its add.sh), every record keyed as an envelope must be; "Jordan works as a
# software engineer." and the like were added without --key
def _full():
    rows = [
        ("tx-name", "My name is Sam Carter.", "user.name", "fact", None, "add"),
        ("tx-nurse", "I work as a nurse at St James's hospital.", "user.job", "fact", "2018-03-01", "add"),
        ("tx-manc", "I live in Manchester.", "user.home_city", "fact", "2015-01-01", "add"),
        ("tx-leeds", "I moved to Leeds.", "user.home_city", "fact", "2021-08-15", "update"),
        ("tx-tom-job", "My brother Tom is an electrician.", "brother.job", "fact", None, "add"),
        ("tx-anna-kids", "My sister Anna has two kids, Lily and Max.", "sister.kids", "fact", None, "add"),
        ("tx-partner", "My partner is called Jordan.", "user.partner", "fact", None, "add"),
        ("tx-jordan-job", "Jordan works as a software engineer.", None, "fact", None, "add"),
        ("tx-mum", "My mum Helen lives in Cardiff.", "mum.home", "fact", None, "add"),
        ("tx-dog", "I have a dog called Biscuit, a beagle.", "user.dog", "fact", None, "add"),
        ("tx-cat", "We also have a cat named Pepper.", None, "fact", None, "add"),
        ("tx-allergy", "I am allergic to penicillin.", "user.allergy", "fact", None, "add"),
        ("tx-nocoffee", "I don't drink coffee.", "user.coffee", "negative", "2020-01-01", "add"),
        ("tx-diet", "I never eat meat; I'm vegetarian.", "user.diet", "preference", None, "add"),
        ("tx-green", "My favourite colour is green.", "user.fav_colour", "preference", "2019-01-01", "add"),
        ("tx-blue", "My favourite colour is now blue.", "user.fav_colour", "preference", "2024-02-01", "update"),
        ("tx-tea", "I prefer tea with oat milk.", "user.tea", "preference", None, "add"),
        ("tx-honda", "I drive a red Honda Jazz.", "user.car", "fact", "2017-05-01", "add"),
        ("tx-toyota", "I sold the Honda and now drive a Toyota Yaris.", "user.car", "fact", "2023-09-10", "update"),
        ("tx-trip", "I am planning a trip to Japan in April 2027.", "user.trip", "fact", None, "add"),
        ("tx-flight", "My flight to Tokyo is on 3 April 2027 from Manchester airport.", None, "fact", None, "add"),
        ("tx-swim", "I go swimming every Tuesday and Thursday.", "user.exercise", "preference", None, "add"),
        ("tx-study", "I was studying for a master's in public health in 2022.", None, "fact", "2022-01-01", "add"),
        ("tx-birthday", "My birthday is on 12 March.", "user.birthday", "fact", None, "add"),
        ("tx-diabetes", "I have type 1 diabetes.", "user.condition", "fact", None, "add"),
        ("tx-gp", "My GP is Dr Patel.", "user.gp", "fact", None, "add"),
        ("tx-insulin", "I take insulin every morning.", None, "fact", None, "add"),
        ("tx-phone", "My phone number ends in 4421.", None, "fact", None, "add"),
        ("tx-languages", "I speak French and a bit of Spanish.", "user.languages", "fact", None, "add"),
        ("tx-firefox", "I use Firefox as my browser.", "user.browser", "preference", "2016-01-01", "add"),
        ("tx-brave", "I switched from Firefox to Brave.", "user.browser", "preference", "2024-05-01", "update"),
        ("tx-tom-home", "My brother Tom lives in Bristol.", "brother.home", "fact", None, "add"),
        ("tx-anna-job", "Anna is a primary school teacher.", "sister.job", "fact", None, "add"),
        ("tx-married", "Jordan and I got married in June 2020.", "user.marriage", "fact", None, "add"),
        ("tx-team", "I support Leeds United.", "user.team", "fact", None, "add"),
        ("tx-house", "Our house has three bedrooms.", None, "fact", None, "add"),
        ("tx-guitar", "I play guitar.", "user.instrument", "fact", None, "add"),
        ("tx-book", "I'm reading Middlemarch at the moment.", "user.book", "fact", None, "add"),
        ("tx-films", "I don't like horror films.", None, "negative", None, "add"),
        ("tx-shift", "My night shifts are on Fridays.", "user.shift", "fact", None, "add"),
        ("tx-bed11", "I usually go to bed at 11pm.", "user.bedtime", "preference", "2020-01-01", "add"),
        ("tx-bed10", "These days I go to bed at 10pm.", "user.bedtime", "preference", "2025-01-01", "update"),
        ("tx-coffee", "I've started drinking coffee, a flat white every morning.", "user.coffee", "negative", None,
         "update"),
    ]
    return [fact(tx, "sam", text, 1 if op == "add" else 2, key, kind, frm and frm + "T00:00:00Z", op)
            for tx, text, key, kind, frm, op in rows]


FULL = _full()

def turn(tx, user, speaker, text, day):
    """A conversation turn as the leaderboard's add keeps it (source conversation, a session, a speaker)."""
    at = DAY.format(day)
    return {"at": at, "envelope": {
        "schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": "add",
        "actor": {"type": "agent", "id": "chat-logger"},
        "source": {"type": "conversation", "ref": "D1:" + tx, "observed_at": at, "evidence_hash": None,
                   "session": "session_1", "speaker": speaker},
        "target": {"record_id": None, "memory_key": None, "scope": {"type": "user", "key": user}},
        "payload": {"kind": "episode", "statement": text, "confidence": "high", "importance": "medium", "aliases": [],
                    "tags": [], "negative_triggers": []},
        "valid_time": {"from": at, "to": None}, "sensitivity": {"classification": "private"},
        "reason": "conversation turn kept verbatim"}}


V, H, N, U = "VERIFIED", "VERIFIED_HISTORICAL", "VERIFIED_NEGATIVE", "UNKNOWN"

# (store, [(question, state, expected txs, forbidden txs, description)])
STORES = [
    ("sam", [fact("tx-nocoffee", "sam", "I don't drink coffee.", 1, "user.coffee", "negative", "2020-01-01T00:00:00Z"),
             fact("tx-coffee", "sam", "I've started drinking coffee every morning.", 3, "user.coffee", "negative",
                  op="update"),
             fact("tx-films", "sam", "I don't like horror films.", 1, None, "negative"),
             fact("tx-tea", "sam", "I prefer tea with oat milk.", 2, "user.tea", "preference")], [
        ("Do I drink coffee?", V, ["tx-coffee"], ["tx-nocoffee"],
         "an update kept kind negative but states no negation: a plain fact, the current value"),
        ("How often do I drink coffee?", V, ["tx-coffee"], ["tx-nocoffee"],
         "variant: the positive successor answers, not as a negative"),
        ("Did I use to drink coffee?", H, ["tx-nocoffee"], ["tx-coffee"],
         "the retired negative answers the past: historical, not today's VERIFIED_NEGATIVE"),
        ("What kind of films do I like?", U, [], ["tx-films"],
         "a negative of horror films does not say what films I like"),
        ("Which films do I like?", U, [], ["tx-films"], "variant: the negative names a narrower object"),
        ("Do I like horror films?", N, ["tx-films"], [], "twin: the negative answers what it negates"),
        ("What milk do I take in my tea?", V, ["tx-tea"], ["tx-films"], "twin: a preference still answers"),
    ]),
    ("kit", [fact("tx-nomeat", "kit", "I don't eat meat.", 1, "user.diet", "negative", "2019-01-01T00:00:00Z"),
             fact("tx-chicken", "kit", "I eat chicken and fish again now.", 2, "user.diet", "negative", op="update")], [
        ("Do I eat meat?", V, ["tx-chicken"], ["tx-nomeat"],
         "variant: the negative's successor states no negation and answers as a plain fact"),
        ("Do I eat fish?", V, ["tx-chicken"], ["tx-nomeat"], "variant: the successor answers by its own words"),
    ]),
    ("sam", [fact("tx-insulin", "sam", "I take insulin every morning.", 1),
             fact("tx-allergy", "sam", "I am allergic to penicillin.", 1, "user.allergy"),
             fact("tx-swim", "sam", "I go swimming every Tuesday.", 2, "user.exercise", "preference")], [
        ("Can I take amoxicillin?", U, [], ["tx-insulin"], "a medicine the scope never saw: the shared verb does not answer"),
        ("Should I take ibuprofen?", U, [], ["tx-insulin"], "variant: another unseen medicine"),
        ("What do I drink in the morning?", U, [], ["tx-insulin"], "the verb asked is not the record's; only 'morning' is shared"),
        ("What do I eat every morning?", U, [], ["tx-insulin"], "variant: another verb the record lacks"),
        ("What do I take every morning?", V, ["tx-insulin"], ["tx-swim"], "twin: the record's own verb answers"),
        ("Do I take insulin?", V, ["tx-insulin"], ["tx-allergy"], "twin: yes/no with the record's object"),
        ("Am I allergic to penicillin?", V, ["tx-allergy"], ["tx-insulin"], "twin: the allergy answers"),
    ]),
    ("sam", FULL, [
        # (changed in session 11, asked11, ``other_values``: written UNKNOWN, Jordan's other job answers "no")
        ("Is Jordan a nurse?", V, ["tx-jordan-job"], ["tx-nurse", "tx-married"],
         "the speaker's own job is not Jordan's; Jordan's other job answers no"),
        ("Does Jordan work at St James's hospital?", U, [], ["tx-nurse"], "variant: the speaker's workplace is not Jordan's"),
        ("Does Jordan play guitar?", U, [], ["tx-guitar", "tx-married"], "the speaker's instrument is not Jordan's"),
        ("What instrument does Jordan play?", U, [], ["tx-guitar"], "variant: asked by its type"),
        ("What does Jordan drink?", U, [], ["tx-married", "tx-jordan-job", "tx-partner"],
         "records naming Jordan but not the predicate asked do not answer"),
        ("What does Jordan eat for breakfast?", U, [], ["tx-married", "tx-jordan-job", "tx-partner"],
         "variant: nothing about Jordan's breakfast"),
        ("Is my brother a nurse?", V, ["tx-tom-job"], ["tx-nurse"],
         "the brother is not the speaker; his other job answers no (changed in session 11: was UNKNOWN)"),
        ("Does Jordan work as a software engineer?", V, ["tx-jordan-job"], ["tx-nurse"], "twin: Jordan's job answers"),
        ("Do I play guitar?", V, ["tx-guitar"], [], "twin: the speaker's instrument"),
        ("Am I a nurse?", V, ["tx-nurse"], ["tx-jordan-job"], "twin: the speaker's job"),
        ("When did Jordan and I get married?", V, ["tx-married"], ["tx-nurse"], "twin: the marriage names both"),
        ("Is my brother an electrician?", V, ["tx-tom-job"], ["tx-nurse"], "twin: the brother's job"),
    ]),
    ("sam", [fact("tx-dog", "sam", "My dog Biscuit is a beagle.", 1, "user.dog"),
             fact("tx-cat", "sam", "We also have a cat named Pepper.", 1),
             fact("tx-car", "sam", "My car is a blue Toyota Yaris.", 2, "user.car")], [
        ("Is my cat a beagle?", U, [], ["tx-cat", "tx-dog"], "the beagle is the dog, not the cat"),
        ("Is my car a beagle?", U, [], ["tx-car", "tx-dog"], "variant: another owned thing"),
        ("Is my cat blue?", U, [], ["tx-cat", "tx-car"], "variant: the car's colour is not the cat's"),
        ("Is my dog a beagle?", V, ["tx-dog"], ["tx-cat"], "twin: the dog is the beagle"),
        ("What is my cat called?", V, ["tx-cat"], ["tx-dog"], "twin: the cat's name"),
        ("Is my car blue?", V, ["tx-car"], ["tx-cat"], "twin: the car's colour"),
    ]),
    ("sam", [fact("tx-manc", "sam", "I live in Manchester.", 1, "user.home_city", frm="2015-01-01T00:00:00Z"),
             fact("tx-leeds", "sam", "I moved to Leeds.", 2, "user.home_city", frm="2021-08-15T00:00:00Z", op="update"),
             fact("tx-honda", "sam", "I drive a red Honda Jazz.", 1, "user.car", frm="2017-05-01T00:00:00Z"),
             fact("tx-toyota", "sam", "I sold the Honda and now drive a Toyota Yaris.", 2, "user.car",
                  frm="2023-09-10T00:00:00Z", op="update"),
             fact("tx-team", "sam", "I support Leeds United.", 2, "user.team")], [
        ("Where did I live before Leeds?", H, ["tx-manc"], ["tx-leeds", "tx-team"],
         "'before Leeds' names the current link: the one before it answers, historical"),
        ("Where was I living before Leeds?", H, ["tx-manc"], ["tx-leeds", "tx-team"], "variant in other words"),
        ("What car did I have before?", H, ["tx-honda"], ["tx-toyota"], "'before' ending the question asks the previous link"),
        ("What did I drive before?", H, ["tx-honda"], ["tx-toyota"], "variant in other words"),
        ("What did I drive before the Yaris?", H, ["tx-honda"], ["tx-toyota"], "twin: already right"),
        ("When did I move to Manchester?", H, ["tx-manc"], ["tx-leeds"],
         "a past question naming the older value: that link answers, not its successor"),
        ("Did I live in Manchester?", H, ["tx-manc"], ["tx-leeds"], "variant in other words"),
        ("Where do I live?", V, ["tx-leeds"], ["tx-manc"], "twin: today's value"),
        ("Do I live in Manchester?", V, ["tx-leeds"], ["tx-manc"], "twin: present tense, the successor answers"),
        ("What car do I drive?", V, ["tx-toyota"], ["tx-honda"], "twin: today's car"),
        ("When did I move to Leeds?", V, ["tx-leeds"], ["tx-manc"], "twin: the current link names Leeds"),
        ("Which team do I support?", V, ["tx-team"], ["tx-leeds"], "twin: the team"),
    ]),
    # added after the first round of code (commit 4e22607), from the brief's "UNKNOWN but answerable"
    # list; their baseline is that commit (benchmarks/reports/gold-trust-dev8-camping-baseline.json)
    ("conv-1", [turn("tx-c1", "conv-1", "Caroline", "Hey Mel! I went to an LGBTQ support group yesterday and it was so powerful.", 1),
                turn("tx-m1", "conv-1", "Melanie", "That's great! I just painted a sunset over the lake last week.", 1),
                turn("tx-c2", "conv-1", "Caroline", "I'm thinking of studying counseling so I can help others.", 1),
                turn("tx-m2", "conv-1", "Melanie", "My kids and I went camping at the beach in June.", 1)], [
        ("Where did Melanie camp?", V, ["tx-m2"], ["tx-c1", "tx-c2"],
         "'My kids and I went camping' is the speaker's too, not only her kids'"),
        ("Did Melanie go camping?", V, ["tx-m2"], ["tx-c1", "tx-c2"], "variant: a yes/no question"),
        ("When did Melanie go camping?", V, ["tx-m2"], ["tx-c1", "tx-c2"], "variant: asked when"),
        ("Where did Melanie go camping with her kids?", V, ["tx-m2"], ["tx-c1"], "twin: the kids asked too"),
        ("Where did Caroline go camping?", U, [], ["tx-m2"], "Melanie's camping is not Caroline's"),
    ]),
    ("sam", [fact("tx-bakery", "sam", "My brother and I run a bakery in Leeds.", 1, "user.business"),
             fact("tx-sister", "sam", "My sister Anna is a primary school teacher.", 1, "sister.job")], [
        ("What business do I run?", V, ["tx-bakery"], ["tx-sister"], "a fact opening 'My brother and I' is the owner's too"),
        ("Where is my bakery?", V, ["tx-bakery"], ["tx-sister"], "variant: the owner's bakery"),
        ("What does my sister run?", U, [], ["tx-bakery"], "the brother's and the owner's bakery is not the sister's"),
    ]),
]


def cases(stores=None, first=801):
    """The cases of ``stores`` (default: this file's), numbered from ``first`` (trust_dev9_cases too)."""
    n = first
    for user, setup, qs in STORES if stores is None else stores:
        for q, state, exp, forb, desc in qs:
            unknown = state == U
            yield {"case_id": "gold_trust_%d" % n, "category": "trust", "description": desc,
                   "setup": sorted(setup, key=lambda step: step["at"]),
                   "query": {"text": q, "user": user, "as_of": None, "recorded_as_of": None, "include_inactive": False},
                   "expect": {"knowledge_state": state, "reason_code": "insufficient_evidence" if unknown else None,
                              "expected": exp, "forbidden": forb, "hard_negatives": [], "stale_or_retired_trap": False}}
            n += 1


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
