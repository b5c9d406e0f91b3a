"""Generate trust-dev14.jsonl: questions about a time answered by what was true THEN (issue 13,
class 3, session 8, "time").

Written before any code change, from the kinds of wrong answer an outside tester's stores showed
(described by the lead, in his words), in other words and other personas, each beside twins that
must still answer:
T1 a dated question ("in 2021", --as-of in that year) where a slot matching it held another value
   then than now is answered by that slot's then-valid link, VERIFIED_HISTORICAL, cited first; a
   standing fact true throughout (the city, the job) is context at most;
T2 a record saying the user switched / moved / started TO a value at time t states it only from t:
   it does not answer a question about a period before t ("last January", "in February" asked in
   April) with the new value; the slot's earlier link does, when there is one;
T3 a period question ("last Sunday", "yesterday") needs a record whose time falls in the period:
   the turn's or fact's own time, or a date it states; an event dated outside the period ("My
   biggest catch was ...", said months before) does not answer;
T4 a period question is answered by a turn said in the period whose own relative time ("this
   weekend", "on Saturday", said that Sunday) puts it there, also when the question asks only
   "what did I do";
T5 a recurring time in the question ("on Sunday mornings", "on Friday nights") must be stated by
   the record: a shift-change turn that only shares "morning" does not answer.

    python benchmarks/gold/trust_dev14_cases.py > benchmarks/gold/trust-dev14.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev7_cases import fact, turn, update  # noqa: E402
from trust_dev11_cases import late  # noqa: E402

V, H, U = "VERIFIED", "VERIFIED_HISTORICAL", "UNKNOWN"
IE = "insufficient_evidence"
MON = "2025-06-02T09:00:00Z"     # a Monday
APR = "2025-04-10T09:00:00Z"     # a Thursday


TOMAS = [late(fact("tx-city", "tomas", "I live in Porto.", "2024-01-08", "user.city"), "2012-04-01"),
         late(fact("tx-flat", "tomas", "We live in a rented flat in Boavista, near the Casa da Música.", "2024-01-08",
                   "user.home"), "2019-05-01"),
         late(update("tx-house", "tomas", "tx-flat", "We live in a house in Foz do Douro, bought last spring.",
                     "2024-01-08T10:00:00Z", "user.home"), "2023-03-15"),
         late(fact("tx-job", "tomas", "I work as an architect at Gaia Studio and drive to the building sites for work.",
                   "2024-01-08", "user.job"), "2017-09-01"),
         late(fact("tx-panda", "tomas", "I drive a Fiat Panda for work.", "2024-01-08", "user.car"), "2018-02-01"),
         update("tx-yaris", "tomas", "tx-panda", "I drive a Toyota Yaris hybrid for work.", "2024-01-20", "user.car"),
         fact("tx-sister", "tomas", "My sister lives in Lisbon with her two kids.", "2024-01-08", "sister.city"),
         turn("tx-garage", "tomas", "Tomas", "Dropped the Yaris at the garage for new tyres.", "2025-05-10",
              "session_4")]

HANA = [late(fact("tx-osaka", "hana", "I live in Osaka.", "2023-05-02", "user.city"), "2010-01-01"),
        late(fact("tx-namba", "hana", "We live in a sixth-floor apartment in Namba.", "2023-05-02", "user.apartment"),
             "2018-10-01"),
        update("tx-tennoji", "hana", "tx-namba", "We live in an apartment in Tennoji now, next to the zoo.",
               "2024-02-01", "user.apartment"),
        late(fact("tx-school", "hana", "I teach English at a language school in Umeda and cycle to work.",
                  "2023-05-02", "user.job"), "2016-04-01"),
        late(fact("tx-grey", "hana", "I cycle to work on a grey Bridgestone city bike.", "2023-05-02", "user.bike"),
             "2017-03-01"),
        update("tx-brompton", "hana", "tx-grey", "I cycle to work on an orange Brompton folding bike.", "2024-06-15",
               "user.bike"),
        turn("tx-persimmon", "hana", "Hana", "Our neighbour in Tennoji brought us a bag of persimmons.", "2025-05-01",
             "session_2")]

MAREK = [late(fact("tx-ward", "marek", "I work as a nurse on the cardiology ward at St Luke's.", "2023-02-01",
                   "user.job"), "2020-01-10"),
         turn("tx-switch", "marek", "Marek", "I switched to the day shift on Monday, finally sleeping at night again.",
              "2025-03-12", "session_5"),
         turn("tx-kids", "marek", "Marek", "Picked the kids up from school, then a nap before work.", "2025-01-14",
              "session_3"),
         fact("tx-swim", "marek", "I swim at the leisure centre on Saturday mornings.", "2023-02-01", "user.swim")]

SOFIA = [late(fact("tx-night", "sofia", "I work the night shift at the Kornblume bakery.", "2024-03-01",
                   "user.shift"), "2023-01-09"),
         update("tx-early", "sofia", "tx-night", "I switched to the early morning shift at the bakery.", "2025-02-20",
                "user.shift"),
         fact("tx-cat", "sofia", "My cat Pixel sleeps on the radiator all day.", "2024-03-01", "cat.habit"),
         turn("tx-rolls", "sofia", "Sofia", "We sold out of poppy seed rolls by eight.", "2025-03-30", "session_2")]

DMITRI = [fact("tx-started", "dmitri", "I started as a data analyst at Nordbank.", "2025-03-03", "user.job"),
          fact("tx-run", "dmitri", "I run along the harbour three times a week.", "2024-06-01", "user.running"),
          fact("tx-sister-d", "dmitri", "My sister works at the post office in Tartu.", "2024-06-01", "sister.job")]

ANA = [turn("tx-pike", "ana", "Ana", "My biggest catch was a four kilo pike at Lac d'Annecy.", "2025-01-19",
            "session_1"),
       fact("tx-sundays", "ana", "I go fishing on the Rhône on Sunday mornings.", "2023-04-01", "user.fishing"),
       fact("tx-carp", "ana", "My biggest catch ever was a 6 kg carp in 2019.", "2024-08-01", "user.record_catch"),
       turn("tx-waders", "ana", "Ana", "Bought new waders at Decathlon, the old ones leaked.", "2025-05-30",
            "session_3")]

ANA_TROUT = ANA + [turn("tx-trout", "ana", "Ana", "Caught two brown trout below the weir this morning!",
                        "2025-06-01T19:00:00Z", "session_4")]

PAUL = [fact("tx-landed", "paul", "On 12 April I landed a big mirror carp at the Étang de Thau.", "2025-04-14",
                  "catch.april_carp"),
        fact("tx-rod", "paul", "I fish with a carbon rod my father gave me.", "2024-02-01", "user.rod"),
        turn("tx-bait", "paul", "Paul", "Ordered more boilies for the summer.", "2025-05-28", "session_2")]

JOAO = [turn("tx-moving", "joao", "Joao", "Finally finished moving house this weekend, my back is killing me.",
             "2025-06-01T20:00:00Z", "session_7"),
        late(fact("tx-teach", "joao", "I teach maths at a secondary school in Braga.", "2024-09-01", "user.job"),
             "2015-09-01"),
        turn("tx-match", "joao", "Joao", "Watched the Benfica match with my cousins, great game.",
             "2025-05-18T21:00:00Z", "session_6")]

RUI = [fact("tx-honda", "rui", "I ride a Honda CB500 motorbike.", "2022-05-01", "user.motorbike"),
       turn("tx-braga", "rui", "Rui", "Rode up to Braga on Saturday, the mountain roads were empty.",
            "2025-06-01T18:00:00Z", "session_8"),
       turn("tx-guima", "rui", "Rui", "Rode to Guimarães with the club today, lovely weather.",
            "2025-04-13T17:00:00Z", "session_5"),
       fact("tx-office", "rui", "I work at an insurance office in Porto.", "2022-05-01", "user.job")]

LENA = [turn("tx-paint", "lena", "Lena", "Spent last weekend painting the kids' bedroom a pale green.",
             "2025-06-02T08:00:00Z", "session_3"),
        turn("tx-concert", "lena", "Lena", "We went to a jazz concert at the Philharmonie, wonderful evening.",
             "2025-05-10T22:00:00Z", "session_2"),
        fact("tx-lena-job", "lena", "I work as a translator from home.", "2023-01-01", "user.job")]

LUCIA = [turn("tx-morning", "lucia", "Lucia", "I switched to the morning shift at the pharmacy, so I start at 7 now.",
              "2025-05-05", "session_2"),
         fact("tx-yoga", "lucia", "I do yoga on Wednesday evenings at the studio.", "2024-01-10", "user.yoga"),
         fact("tx-lucia-dog", "lucia", "My dog Bruno needs a long walk every day.", "2024-01-10", "dog.walks")]

LUCIA_BREAD = LUCIA + [fact("tx-bake", "lucia", "On Sunday mornings I bake bread with my daughter.", "2024-01-10",
                            "user.sunday")]

KARL = [fact("tx-depot", "karl", "I work night shifts at the parcel depot.", "2024-09-01", "user.job"),
        fact("tx-darts", "karl", "I play darts at the Crown on Tuesday evenings.", "2024-09-01", "user.darts"),
        turn("tx-karl-tired", "karl", "Karl", "Slept till noon again, the shift ran late.", "2025-05-20",
             "session_1")]

ELSA = [late(fact("tx-museum", "elsa", "I work as a guide at the Musée des Confluences.", "2024-01-05", "user.job"),
             "2021-06-01"),
        fact("tx-elsa-bike", "elsa", "I cycle along the Saône every Sunday morning.", "2024-01-05", "user.cycling"),
        turn("tx-elsa-tour", "elsa", "Elsa", "Led a school group round the dinosaur hall today.",
             "2025-05-27T16:00:00Z", "session_4")]

RUI_MONDAY = [fact("tx-honda2", "rui", "I ride a Honda CB500 motorbike.", "2022-05-01", "user.motorbike"),
              turn("tx-braga2", "rui", "Rui", "Rode up to Braga on Saturday with the club, the mountain roads were empty.",
                   "2025-06-02T08:00:00Z", "session_8"),
              turn("tx-guima2", "rui", "Rui", "Rode to Guimarães on Sunday, lovely weather.",
                   "2025-04-14T08:00:00Z", "session_5")]

KOFI = [turn("tx-accra", "kofi", "Kofi", "We moved to Accra in March, the new flat is near Osu.", "2025-03-20",
             "session_2"),
        fact("tx-ship", "kofi", "I work for a shipping company at the port of Tema.", "2024-10-01", "user.job"),
        turn("tx-kofi-rain", "kofi", "Kofi", "The rain flooded the road to the port again.", "2025-01-15",
             "session_1")]

NINA = [fact("tx-pool", "nina", "I go to the pool every morning before work.", "2024-02-01", "user.pool"),
        fact("tx-nina-job", "nina", "I work as a dental nurse in Graz.", "2024-02-01", "user.job"),
        turn("tx-nina-shop", "nina", "Nina", "Went to the market for apples and cheese.", "2025-05-31", "session_2")]

# (user, setup, [(question, state, reason, expected, forbidden, hard negatives, as_of, at, description)])
STORES = [
    ("tomas", TOMAS, [
        ("Where did I live in 2021?", H, None, ["tx-flat"], ["tx-house", "tx-sister"], ["tx-city"], None, MON,
         "T1: a year; the home slot's link then answers, not only the standing city"),
        ("Where did I live in 2021?", H, None, ["tx-flat"], ["tx-house", "tx-sister"], ["tx-city"],
         "2021-09-01T00:00:00Z", MON, "T1 variant: --as-of in that year"),
        ("What car did I drive for work in 2020?", H, None, ["tx-panda"], ["tx-yaris", "tx-garage"], ["tx-job"],
         None, MON, "T1: the car slot's earlier link, not the standing job fact"),
        ("What did I drive for work in 2020?", H, None, ["tx-panda"], ["tx-yaris", "tx-garage"], ["tx-job"],
         None, MON, "T1 variant: no 'car'; the job fact holds every word asked too"),
        ("Where do I live?", V, None, ["tx-city"], ["tx-flat"], [], None, MON, "T1 twin: now, the city"),
        ("What car do I drive for work?", V, None, ["tx-yaris"], ["tx-panda"], [], None, MON,
         "T1 twin: now, the current car"),
    ]),
    ("hana", HANA, [
        ("Where did I live in 2022?", H, None, ["tx-namba"], ["tx-tennoji", "tx-persimmon"], ["tx-osaka"],
         "2022-08-01T00:00:00Z", MON, "T1 variant: --as-of 2022, the apartment then, not the city"),
        ("What bike did I cycle to work on in 2021?", H, None, ["tx-grey"], ["tx-brompton"], ["tx-school"], None,
         MON, "T1 variant: the bike slot's link then, not the job fact that also cycles to work"),
        ("Where do I live?", V, None, ["tx-osaka"], ["tx-namba"], [], None, MON, "T1 twin: now"),
    ]),
    ("marek", MAREK, [
        ("What shift was I working last January?", U, IE, [], ["tx-switch"], [], APR, APR,
         "T2: the March switch to days says nothing of January's shift but that it was not days"),
        ("Which shift did I work in February?", U, IE, [], ["tx-switch"], [], APR, APR,
         "T2 variant: a month without a year, before the switch"),
        ("What shift was I working in January 2025?", U, IE, [], ["tx-switch"], [], APR, APR,
         "T2 variant: a month with its year (an instant, not a period) before the switch"),
        ("What shift am I on now?", V, None, ["tx-switch"], [], [], APR, APR, "T2 twin: now, the day shift"),
    ]),
    ("sofia", SOFIA, [
        ("What shift was I working last December?", H, None, ["tx-night"], ["tx-early"], [],
         "2025-04-01T09:00:00Z", "2025-04-01T09:00:00Z", "T2: the slot gives the value before the switch"),
        ("What shift did I work in January?", H, None, ["tx-night"], ["tx-early"], [],
         "2025-04-01T09:00:00Z", "2025-04-01T09:00:00Z", "T2 variant: 'in January', asked in April"),
        ("What shift do I work?", V, None, ["tx-early"], ["tx-night"], [], "2025-04-01T09:00:00Z",
         "2025-04-01T09:00:00Z", "T2 twin: now"),
    ]),
    ("dmitri", DMITRI, [
        ("Where was I working in 2024?", U, IE, [], ["tx-started", "tx-sister-d"], [], None, MON,
         "T2 variant: 'I started at Nordbank', said in March 2025, does not say where I worked in 2024"),
        ("Where did I work as a data analyst in 2024?", U, IE, [], ["tx-started", "tx-sister-d"], [], None, MON,
         "T2 variant: 'I started as a data analyst', said in March 2025, holds from then"),
        ("What did I start as at Nordbank?", V, None, ["tx-started"], ["tx-sister-d"], [], None, MON,
         "T2 twin: no time asked"),
    ]),
    ("ana", ANA, [
        ("What did I catch last Sunday?", U, IE, [], ["tx-pike", "tx-carp", "tx-sundays"], [], None, MON,
         "T3: a catch told in January does not answer for last Sunday"),
        ("What fish did I catch yesterday?", U, IE, [], ["tx-pike", "tx-carp", "tx-sundays"], [], None, MON,
         "T3 variant: 'yesterday'"),
        ("What was my biggest catch?", V, None, ["tx-pike"], [], [], None, MON, "T3 twin: no period"),
    ]),
    ("ana", ANA_TROUT, [
        ("What did I catch last Sunday?", V, None, ["tx-trout"], ["tx-pike", "tx-carp"], [], None, MON,
         "T3 twin: the catch said that Sunday answers"),
    ]),
    ("paul", PAUL, [
        ("What did I land last weekend?", U, IE, [], ["tx-landed"], [], None, MON,
         "T3 variant: a fact stating its own date (12 April) outside the period"),
        ("What did I land on 12 April?", V, None, ["tx-landed"], [], [], None, MON,
         "T3 twin: the date it states"),
    ]),
    ("joao", JOAO, [
        ("What did I do last weekend?", V, None, ["tx-moving"], ["tx-match"], [], None, MON,
         "T4: 'this weekend' said that Sunday is last weekend asked on Monday"),
    ]),
    ("rui", RUI, [
        ("Where did I ride the motorbike last weekend?", V, None, ["tx-braga"], ["tx-guima"], ["tx-honda"], None,
         MON, "T4: 'on Saturday' said that Sunday"),
        ("What motorbike do I ride?", V, None, ["tx-honda"], [], [], None, MON, "T4 twin: no period"),
    ]),
    ("lena", LENA, [
        ("What did I do last weekend?", V, None, ["tx-paint"], ["tx-concert"], [], None, "2025-06-03T09:00:00Z",
         "T4 variant: 'last weekend' said on Monday morning, asked on Tuesday"),
    ]),
    ("rui", RUI_MONDAY, [
        ("Where did I ride the motorbike last weekend?", V, None, ["tx-braga2"], ["tx-guima2"], ["tx-honda2"], None,
         "2025-06-03T09:00:00Z", "T4 variant: 'on Saturday' said on Monday is the Saturday before"),
    ]),
    ("kofi", KOFI, [
        ("Where did I live in January?", U, IE, [], ["tx-accra"], [], APR, APR,
         "T2 variant: 'moved to Accra in March' says nothing of January but that it was not Accra"),
        ("When did I move to Accra?", V, None, ["tx-accra"], [], [], APR, APR, "T2 twin: the move itself"),
    ]),
    ("nina", NINA, [
        ("Where do I go every Thursday?", U, IE, [], ["tx-pool", "tx-nina-shop"], [], None, MON,
         "T5 variant: 'every morning' is no Thursday"),
        ("Where do I go every morning?", V, None, ["tx-pool"], [], [], None, MON, "T5 twin: the time stated"),
    ]),
    ("lucia", LUCIA, [
        ("What do I do on Sunday mornings?", U, IE, [], ["tx-morning", "tx-yoga"], [], None, MON,
         "T5: the shift change shares only 'morning'"),
        ("When do I do yoga?", V, None, ["tx-yoga"], [], [], None, MON, "T5 twin: a recurring time stated"),
    ]),
    ("lucia", LUCIA_BREAD, [
        ("What do I do on Sunday mornings?", V, None, ["tx-bake"], ["tx-morning"], [], None, MON,
         "T5 twin: the record stating Sunday mornings answers"),
    ]),
    ("karl", KARL, [
        ("What do I do on Friday nights?", U, IE, [], ["tx-depot", "tx-darts"], [], None, MON,
         "T5 variant: night shifts do not say Fridays"),
        ("What do I do on Tuesday evenings?", V, None, ["tx-darts"], ["tx-depot"], [], None, MON,
         "T5 twin: the weekday is stated"),
    ]),
    ("elsa", ELSA, [
        ("Where did I work last month?", V, None, ["tx-museum"], [], [], None, MON,
         "twin: a standing job fact held through last month"),
        ("What do I do on Sunday mornings?", V, None, ["tx-elsa-bike"], ["tx-museum"], [], None, MON,
         "T5 twin: 'every Sunday morning' states it"),
    ]),
]


def cases(stores=None, first=1401):
    """The cases of ``stores`` (default: this file's), numbered from ``first`` (trust_dev17_cases too)."""
    n = first
    for user, setup, qs in STORES if stores is None else stores:
        for q, state, reason, exp, forb, hard, as_of, at, desc in qs:
            yield {"case_id": "gold_trust_%d" % n, "category": "trust", "description": desc,
                   "setup": sorted(setup, key=lambda step: step["at"]),
                   "query": {"text": q, "user": user, "as_of": as_of, "recorded_as_of": None,
                             "include_inactive": False, "at": at},
                   "expect": {"knowledge_state": state, "reason_code": reason, "expected": exp, "forbidden": forb,
                              "hard_negatives": hard, "stale_or_retired_trap": False}}
            n += 1


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
