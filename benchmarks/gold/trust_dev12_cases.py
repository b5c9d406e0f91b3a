"""Generate trust-dev12.jsonl: answerable questions asked in other words (issue 13, session 7, lexicon).

Written before any code change, from an outside tester's UNKNOWN-but-answerable answers (and earlier
testers'), each shape in other words and other personas, beside twins that must keep their answer:

- a category word in the question (vegetables, sport, medication, language, city, country, team,
  anticoagulant ...) is answered by a record stating a MEMBER of the category about the asked
  subject ("I grow leeks and parsnips" for "What vegetables do I grow?"), never by a member stated
  about another person, nor by a member the record negates;
- a relation has synonyms (spouse/wife/husband/partner; doctor/GP/physician; kids/son/daughter),
  and "The user's wife is Colette." names the wife as "my wife Colette" does;
- a yes/no question naming a relation's name ("Is Tariq's brother called Omar?") is answered, the
  false side included, by the record naming that relation otherwise ("my brother Yusuf"): VERIFIED
  with that record as evidence, as "Is Kim's mobile plan O2 Unlimited?" answers with the plan held.

    python benchmarks/gold/trust_dev12_cases.py > benchmarks/gold/trust-dev12.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact, turn  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

STORES = [
    # category words answered by a member, first person facts
    ("priya", [fact("tx-veg", "priya", "I grow leeks, parsnips and broad beans on my allotment.", 1, "user.allotment"),
               fact("tx-sport", "priya", "I play badminton at the leisure centre every Sunday.", 1, "user.sunday"),
               fact("tx-meds", "priya", "I'm on metformin for my blood sugar.", 1, "user.meds"),
               fact("tx-lang", "priya", "I speak Gujarati with my parents.", 1, "user.lang"),
               fact("tx-bro-veg", "priya", "My brother Kiran grows chillies and aubergines.", 2, "brother.garden"),
               fact("tx-bro-drink", "priya", "My brother Kiran only drinks oat lattes.", 2, "brother.drink"),
               fact("tx-car", "priya", "I drive a blue Skoda.", 1, "user.car")], [
        ("What vegetables do I grow?", V, ["tx-veg"], ["tx-bro-veg"],
         "a category word (vegetables) answered by the members the record names (leeks, parsnips)"),
        ("Which sport do I play?", V, ["tx-sport"], ["tx-car"], "variant: badminton is a sport"),
        ("What medication am I taking?", V, ["tx-meds"], ["tx-car"], "variant: metformin is a medication"),
        ("Which language do I use with my parents?", V, ["tx-lang"], ["tx-car"],
         "variant: Gujarati is a language"),
        ("What vegetables does Kiran grow?", V, ["tx-bro-veg"], ["tx-veg"], "twin: the brother's vegetables by name"),
        ("What vegetables does my brother grow?", V, ["tx-bro-veg"], ["tx-veg"],
         "twin: the brother's vegetables by relation"),
        ("What drink do I have every morning?", U, [], ["tx-bro-drink"],
         "a member (lattes) stated about another person does not answer the owner's question"),
        ("Which sport does my brother play?", U, [], ["tx-sport"],
         "twin: the owner's badminton is not the brother's sport"),
        ("What fruit do I grow?", U, [], ["tx-veg", "tx-bro-veg"],
         "twin: vegetables are not fruit; the category asked has no member stored"),
    ]),
    # negated members must not answer; third person ("The user ...") as the Bernard store states facts
    ("odile", [fact("tx-nopot", "odile", "The user no longer grows potatoes.", 1, "user.potatoes"),
               fact("tx-notennis", "odile", "The user gave up tennis after her knee operation.", 1, "user.tennis"),
               fact("tx-warfarin", "odile", "The user takes warfarin to thin her blood.", 1, "user.medication"),
               fact("tx-son", "odile", "The user's son is Ilyes, who lives in Rotterdam.", 1, "user.son"),
               fact("tx-sis", "odile", "The user's sister Maud moved to Norway last year.", 1, "sister.home"),
               fact("tx-wife", "odile", "The user's wife is Hélène.", 1, "user.spouse"),
               fact("tx-gp", "odile", "The user's GP is Dr Ferrand.", 1, "user.gp")], [
        ("What vegetables do I grow?", U, [], ["tx-nopot"],
         "a negated member (no longer grows potatoes) does not answer"),
        ("Which sport do I play?", U, [], ["tx-notennis"], "variant: gave up tennis is no sport played"),
        ("Which anticoagulant am I on?", V, ["tx-warfarin"], ["tx-son"], "warfarin is an anticoagulant"),
        ("What blood thinner do I take?", V, ["tx-warfarin"], ["tx-son"], "variant: a blood thinner by its name"),
        ("Which city is my son in?", V, ["tx-son"], ["tx-sis"], "a city asked, a place stated of the son"),
        ("What country does my sister live in now?", V, ["tx-sis"], ["tx-son"], "variant: Norway is a country"),
        ("Which city is my daughter in?", U, [], ["tx-son", "tx-sis"], "twin: no daughter stored"),
        ("What's my wife called?", V, ["tx-wife"], ["tx-gp"], "'The user's wife is Hélène' names the wife"),
        ("What is my spouse's name?", V, ["tx-wife"], ["tx-gp"], "variant: a spouse is a wife or a husband"),
        ("What's my husband called?", U, [], ["tx-wife", "tx-gp"], "twin: a wife is not a husband"),
        ("Who is my doctor?", V, ["tx-gp"], ["tx-wife"], "a GP is a doctor"),
        ("Who is my physician?", V, ["tx-gp"], ["tx-wife"], "variant in other words"),
        ("Who is my dentist?", U, [], ["tx-gp"], "twin: a GP is no dentist"),
    ]),
    # relation classes in the first person
    ("marek", [fact("tx-kids", "marek", "My son is called Jonas and my daughter is called Ewa.", 1, "user.kids"),
               fact("tx-partner", "marek", "I'm married to Agnieszka.", 1, "user.marriage"),
               fact("tx-team", "marek", "I support Legia Warsaw.", 1, "user.football"),
               fact("tx-bro-team", "marek", "My brother supports Lech Poznań.", 1, "brother.football")], [
        ("What are my kids called?", V, ["tx-kids"], ["tx-team"], "kids are a son and a daughter"),
        ("What is my partner's name?", V, ["tx-partner"], ["tx-team"], "'married to' names the spouse"),
        ("Which team do I support?", V, ["tx-team"], ["tx-bro-team"], "a team named by the club"),
        ("Which team does my brother support?", V, ["tx-bro-team"], ["tx-team"], "twin: the brother's team"),
        ("Which team does my sister support?", U, [], ["tx-team", "tx-bro-team"], "twin: no sister stored"),
    ]),
    # a yes/no question naming a relation's name: the record naming the relation otherwise answers (the false side)
    ("conv-12", [turn("tx-yusuf", "conv-12", "Tariq", "My brother Yusuf is driving up from Leicester on Friday.", 1),
                 turn("tx-omar", "conv-12", "Nadia", "I'm seeing my cousin Omar at the weekend.", 1),
                 turn("tx-small", "conv-12", "Tariq", "Have a good time with him!", 1)], [
        ("Is Tariq's brother called Omar?", V, ["tx-yusuf"], ["tx-omar"],
         "a yes/no question on a relation's name stated otherwise: the brother Yusuf answers (no)"),
        ("Is Tariq's brother named Yusuf?", V, ["tx-yusuf"], ["tx-omar"], "twin: the same name, yes"),
        ("Is Nadia's brother called Omar?", U, [], ["tx-omar", "tx-yusuf"],
         "twin: Omar is Nadia's cousin and no brother of Nadia's is named"),
    ]),
    ("beth", [fact("tx-sister", "beth", "My sister is Clara.", 1, "sister.name"),
              fact("tx-cousin", "beth", "My cousin Rosa lives in Seville.", 1, "cousin.home"),
              fact("tx-husband", "beth", "The user's husband is Gareth.", 1, "user.spouse")], [
        ("Is my sister named Rosa?", V, ["tx-sister"], ["tx-cousin"], "the sister is named otherwise (Clara): no"),
        ("Is my husband's name Tom?", V, ["tx-husband"], ["tx-cousin"], "variant: the husband is Gareth"),
        ("Is my brother called Gareth?", U, [], ["tx-husband", "tx-sister"],
         "twin: Gareth is the husband; no brother stored"),
    ]),
]


def cases():
    return dev8_cases(STORES, 1201)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
