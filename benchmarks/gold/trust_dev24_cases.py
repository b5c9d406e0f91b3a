"""Generate trust-dev24.jsonl: whose fact, whose name (issue 13 class 2, session 11, whose11).

Written before any code change, from the kinds of wrong answer two new people's stores showed (the
lead's paraphrase, not their cases), in other words, personas and cities. Shapes, each in 2-3
variants beside twins that must keep their answer:

1. a relative's NAME ("What's my sister's name?", "What's my grandson called?", "husbands name?"
   typed casually) is any record naming that relation (an appositive, "our first grandchild, Osian,
   ..."), never the caller's own "My name is ...";
2. colloquial relations ("our lad", "my girl", "our eldest") are relations: the answer needs the
   asked attribute of that person ("My son Emyr is a surveyor in Bergen"), not a turn that only
   mentions them ("Our lad says he might come home");
3. a NAMED third person ("What does Emyr do for a living?") is never answered by the caller's own
   record (I/my without that name);
4. a friend's own life told in the friend's turns (the other speaker's I/my is the friend): where
   she works now, her husband's name, when her son marries, the trek she plans, where her dad lives;
5. a friend's plan is no value: "put our names down for a spaniel puppy" does not name the puppy,
   the later "the pup's called Canela" does;
6. who-over-family ("Which of my kids lives in Edinburgh?", "Who in my family is a nurse?")
   answered from the members' own records.

Held back (not looked at while fixing; reported apart): the cases of the store "kemi"
(ids gold_trust_2424 onwards).

    python benchmarks/gold/trust_dev24_cases.py > benchmarks/gold/trust-dev24.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact  # noqa: E402
from trust_dev18_cases import chat  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

GWEN = [fact("tx-name", "gwen", "My name is Gwen Pritchard.", 1, "user.name"),
        fact("tx-sis", "gwen", "My sister Ffion lives in Carmarthen with her two boys.", 1, "sister.home"),
        fact("tx-gk", "gwen", "Our first grandchild, Osian, was born in Swansea in February.", 1, "grandchild.birth"),
        fact("tx-job", "gwen", "I teach piano from home.", 1, "user.job"),
        fact("tx-lad", "gwen", "Our lad says he might come home for Easter.", 2, "son.visit"),
        fact("tx-son", "gwen", "My son Emyr is a surveyor in Bergen.", 2, "son.job"),
        fact("tx-dau", "gwen", "My daughter Cerys lives in Cardiff, near the bay.", 2, "daughter.home"),
        fact("tx-girl", "gwen", "My girl rang on Sunday, she sounded tired.", 2, "daughter.call"),
        fact("tx-huw", "gwen", "My husband Huw still sails every Sunday in Aberaeron.", 2, "husband.sailing"),
        fact("tx-home", "gwen", "I live in Aberystwyth, up by the university.", 2, "user.home")]

RAFA = ([fact("tx-r-name", "rafa", "My name is Rafael Ortiz.", 1, "user.name"),
         fact("tx-r-job", "rafa", "I work as a mechanic at the bus depot in Delicias.", 1, "user.job"),
         fact("tx-r-walk", "rafa", "I'm planning to walk the Camino from Leon in October.", 1, "user.plan"),
         fact("tx-r-dad", "rafa", "My dad lives in Huesca, in the old town.", 1, "dad.home"),
         fact("tx-r-bro", "rafa", "My brother Nacho runs a tapas bar in Teruel.", 1, "brother.job")]
        + chat("rafa", "l1", "2024-06-03", [
            ("tx-l-move", "Lucia", "Big news, I've moved to the tourist office on Plaza del Pilar."),
            ("tx-r1", "Rafa", "Congratulations! Is it far from your flat?"),
            ("tx-l-husb", "Lucia", "Not really, my husband Jorge drops me off on his way to the hospital."),
            ("tx-l-son", "Lucia", "And my son Pablo finally proposed to his girlfriend!"),
        ])
        + chat("rafa", "l2", "2024-06-05", [
            ("tx-l-wed", "Lucia", "Our Pablo's wedding is on 14 September, up in Jaca."),
            ("tx-l-trek", "Lucia", "Jorge and I are planning the Annapurna circuit for next spring."),
            ("tx-l-dad", "Lucia", "My dad still lives in Tudela, he won't leave the house."),
            ("tx-l-plan", "Lucia", "Oh, and Jorge and I have put our names down for a spaniel puppy."),
            ("tx-r2", "Rafa", "A puppy! My dad had spaniels when I was a kid."),
        ])
        + chat("rafa", "l3", "2024-06-07", [
            ("tx-l-pup", "Lucia", "The pup's called Canela, she has already chewed my slippers."),
            ("tx-r3", "Rafa", "Ha, send me a photo."),
        ]))

INGRID = [fact("tx-i-job", "ingrid", "I work as a librarian at the university in Trondheim.", 1, "user.job"),
          fact("tx-magnus", "ingrid", "My son Magnus lives in Edinburgh and works for a wind farm company.", 1,
               "son.home"),
          fact("tx-sigrid", "ingrid", "Our eldest, Sigrid, is a nurse at St Olav's hospital.", 1, "daughter.job"),
          fact("tx-jonas", "ingrid", "My youngest, Jonas, is studying engineering at NTNU.", 1, "son2.study"),
          fact("tx-mag-rent", "ingrid", "Magnus says the rent in Edinburgh is shocking.", 2, "son.rent"),
          fact("tx-per", "ingrid", "My brother Per lives in Bergen with his wife.", 2, "brother.home"),
          fact("tx-astrid", "ingrid", "My friend Astrid moved to Bergen last year.", 2, "astrid.home"),
          fact("tx-eldest", "ingrid", "Our eldest is coming for Christmas this year.", 2, "daughter.visit")]

# held back: the same shapes in other words, not looked at while fixing
KEMI = ([fact("tx-k-name", "kemi", "My name is Kemi Adeyemi.", 1, "user.name"),
         fact("tx-k-job", "kemi", "I'm a pharmacist at the Royal Infirmary.", 1, "user.job"),
         fact("tx-tunde", "kemi", "My brother Tunde drives for a logistics firm in Bolton.", 1, "brother.job"),
         fact("tx-dayo", "kemi", "My son Dayo is a junior doctor in Leeds.", 1, "son.job"),
         fact("tx-boy", "kemi", "Our boy says the night shifts are killing him.", 2, "son.shifts"),
         fact("tx-zainab", "kemi", "Our first granddaughter, Zainab, was born to Dayo and Halima in April.", 2,
              "granddaughter.birth"),
         fact("tx-femi", "kemi", "My husband Femi is retiring from the bus company in June.", 2, "husband.job"),
         fact("tx-k-mum", "kemi", "My mum lives in Stockport now.", 2, "mum.home")]
        + chat("kemi", "b1", "2024-06-04", [
            ("tx-b-job", "Bola", "I finally moved to the Salford office last month."),
            ("tx-k1", "Kemi", "Oh that's closer to you!"),
            ("tx-b-dau", "Bola", "My daughter Ife is getting married on 3 October, can you believe it?"),
            ("tx-b-mum", "Bola", "My mum still lives in Ibadan, she'll fly over for it."),
            ("tx-b-plan", "Bola", "We've put our names down for a rescue greyhound too."),
        ])
        + chat("kemi", "b2", "2024-06-06", [
            ("tx-b-grey", "Bola", "The greyhound is called Biscuit, he's so gentle."),
            ("tx-k2", "Kemi", "Biscuit! Love it."),
        ]))

STORES = [
    ("gwen", GWEN, [
        ("What's my sister's name?", V, ["tx-sis"], ["tx-name"], "a relative's name: 'My sister Ffion lives ...'"),
        ("What's my grandson called?", V, ["tx-gk"], ["tx-name"],
         "a grandchild named in apposition ('Our first grandchild, Osian, ...'), not the caller's name"),
        ("husbands name?", V, ["tx-huw"], ["tx-name"], "typed casually, no 'my': 'My husband Huw', not the caller's name"),
        ("What does our lad do?", V, ["tx-son"], ["tx-lad", "tx-job"],
         "a colloquial relation: 'our lad' is the son, whose job is stored under 'my son Emyr'"),
        ("Where does my girl live?", V, ["tx-dau"], ["tx-girl", "tx-home"],
         "variant: 'my girl' is the daughter, 'My daughter Cerys lives in Cardiff'"),
        ("What does Emyr do for a living?", V, ["tx-son"], ["tx-job"],
         "a named third person: the son's record, never the caller's own job"),
        ("What is my name?", V, ["tx-name"], [], "twin: the caller's own name"),
        ("What do I do for work?", V, ["tx-job"], ["tx-son"], "twin: the caller's own job"),
    ]),
    ("rafa", RAFA, [
        ("Where does Lucia work now?", V, ["tx-l-move"], ["tx-r-job"],
         "the friend's own 'I've moved to the tourist office', not the caller's job"),
        ("What's Lucia's husband called?", V, ["tx-l-husb"], ["tx-r-name"],
         "the friend's 'my husband Jorge', not the caller's name"),
        ("When is Lucia's son getting married?", V, ["tx-l-wed"], [],
         "the friend's 'Our Pablo's wedding is on 14 September', Pablo her son by her earlier turn"),
        ("Which trek is Lucia planning?", V, ["tx-l-trek"], ["tx-r-walk"],
         "the friend's 'Jorge and I are planning the Annapurna circuit', not the caller's plan"),
        ("Where does Lucia's dad live?", V, ["tx-l-dad"], ["tx-r-dad"], "the friend's dad, not the caller's"),
        ("What did Lucia call the new puppy?", V, ["tx-l-pup"], ["tx-l-plan"],
         "a plan is no value: 'put our names down' names no puppy, 'The pup's called Canela' does"),
        ("What does Nacho do for a living?", V, ["tx-r-bro"], ["tx-r-job"],
         "a named third person: 'My brother Nacho runs a tapas bar', not the caller's job"),
        ("Where do I work?", V, ["tx-r-job"], ["tx-l-move"], "twin: the caller's own job"),
        ("Where does my dad live?", V, ["tx-r-dad"], ["tx-l-dad"], "twin: the caller's own dad"),
    ]),
    ("ingrid", INGRID, [
        ("Which of my kids lives in Edinburgh?", V, ["tx-magnus"], ["tx-i-job"],
         "who over the family: the son's own record"),
        ("Who in my family is a nurse?", V, ["tx-sigrid"], ["tx-i-job"],
         "variant: 'family' as the kin group, the eldest's own record"),
        ("Which of my relatives lives in the same city as Astrid?", V, ["tx-per"], [],
         "variant: the brother lives in Bergen, where Astrid moved"),
        ("What's our eldest doing now?", V, ["tx-sigrid"], ["tx-eldest", "tx-i-job"],
         "a colloquial relation: 'our eldest' is Sigrid the nurse, not the Christmas visit"),
        ("What does Per do for a living?", U, [], ["tx-i-job"],
         "hard negative: nothing states the brother's job, the caller's own job is not his"),
        ("Where do I work?", V, ["tx-i-job"], ["tx-sigrid"], "twin: the caller's own job"),
    ]),
    ("kemi", KEMI, [
        ("What's my granddaughter called?", V, ["tx-zainab"], ["tx-k-name"],
         "held back: 'Our first granddaughter, Zainab, ...'"),
        ("whats my husbands name", V, ["tx-femi"], ["tx-k-name"], "held back: typed casually, 'My husband Femi'"),
        ("What does our boy do?", V, ["tx-dayo"], ["tx-boy", "tx-k-job"], "held back: 'our boy' is the son Dayo"),
        ("What does Tunde do for work?", V, ["tx-tunde"], ["tx-k-job"], "held back: a named third person"),
        ("Where does Bola work now?", V, ["tx-b-job"], ["tx-k-job"], "held back: the friend's 'I finally moved ...'"),
        ("When is Bola's daughter getting married?", V, ["tx-b-dau"], [], "held back: the friend's daughter"),
        ("Where does Bola's mum live?", V, ["tx-b-mum"], ["tx-k-mum"], "held back: the friend's mum, not the caller's"),
        ("What's Bola's greyhound called?", V, ["tx-b-grey"], ["tx-b-plan"],
         "held back: 'put our names down' names no greyhound"),
        ("Who in my family is a doctor?", V, ["tx-dayo"], ["tx-k-job"], "held back: the son's own record"),
        ("What is my job?", V, ["tx-k-job"], ["tx-tunde", "tx-dayo"], "held back twin: the caller's own job"),
    ]),
]


def cases():
    return dev8_cases(STORES, 2401)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
