"""Generate trust-dev18.jsonl: whose fact it is (issue 13 class 2, session 9, who9).

Written before any code change, from the kinds of wrong answer the session-9 held-out store shows
(the lead's description, not its cases), in other words, personas and cities. Shapes, each in 2-3
variants beside twins that must keep their answer:

1. a relation named by a multi-word idiom ("my other half", "my significant other", "my OH") is
   that relation: asked as "my partner", "my wife", "my husband" (and the reverse);
2. a nested relation ("Aylin's husband", "Farid's daughter") is about Y-of-X: the caller's own
   record never answers it;
3. an attribute of a named pet or thing ("How old is my dog Krümel?") is answered only by a record
   about that pet, never by the caller's own attribute ("I am 41");
4. in a conversation, I/my in a turn is its speaker: a question about the friend ("What was Kemal's
   marathon time?", "What is Kemal's wife called?", "Where does Kemal work now?") is answered by the
   friend's own first-person turns exactly as the caller's are by the caller's;
5. "last week"/"yesterday" asked about a relation ("What did my dad do last week?") is answered by
   the turn of that week naming the relation;
6. a job asked in other words ("What does my uncle do?", "What is Ana's job?") is answered by what
   the person teaches, runs or works as.

Held back (not looked at while fixing; reported apart): the cases of the store "ewa"
(ids gold_trust_1823 onwards).

    python benchmarks/gold/trust_dev18_cases.py > benchmarks/gold/trust-dev18.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact  # noqa: E402
from trust_dev15_cases import said  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"


def turn(tx, user, session, speaker, text, date, minute=0):
    """A conversation turn as ``memory add --speaker --session`` keeps it, said on ``date`` (YYYY-MM-DD)
    at 19:<minute>."""
    return said(tx, user, session, speaker, text, "%sT19:%02d:00Z" % (date, minute))


def chat(user, session, date, rows):
    """Turns of one session: (tx, speaker, text) in the order said."""
    return [turn(tx, user, session, speaker, text, date, i) for i, (tx, speaker, text) in enumerate(rows)]


LEONIE = [fact("tx-oh", "leonie", "My other half Jannik works as a sound engineer at the Elbphilharmonie.", 1,
               "partner.job"),
          fact("tx-job", "leonie", "I work as a pharmacist in Altona.", 1, "user.job"),
          fact("tx-age", "leonie", "I am 41.", 1, "user.age"),
          fact("tx-dog", "leonie", "My dog Krümel is a wire-haired dachshund.", 1, "user.dog"),
          fact("tx-bro", "leonie", "My brother Sven lives in Kiel with his girlfriend.", 1, "brother.home"),
          fact("tx-aylin", "leonie", "My friend Aylin's husband is called Mehmet.", 2, "friend.spouse"),
          fact("tx-car", "leonie", "My car is a dark red Golf.", 2, "user.car"),
          fact("tx-uncle", "leonie", "My uncle Rafael teaches geography at a school in Seville.", 2, "uncle.job"),
          fact("tx-bike", "leonie", "I cycle to work along the Elbe when it is dry.", 2, "user.commute")]

OLU = [fact("tx-so", "olu", "The user's significant other, Bisi, is a structural engineer.", 1, "partner.job"),
       fact("tx-gp", "olu", "The user is a GP at a practice in Salford.", 1, "user.job"),
       fact("tx-uage", "olu", "The user is 35 years old.", 1, "user.age"),
       fact("tx-rabbit", "olu", "The user has a lop-eared rabbit called Clover.", 1, "user.rabbit"),
       fact("tx-cat", "olu", "The user's cat Pepper turned twelve in March.", 1, "user.cat"),
       fact("tx-farid", "olu", "The user's colleague Farid has a daughter at university in Leeds.", 2, "farid.kids"),
       fact("tx-ana", "olu", "The user's neighbour Ana runs a small hostel near Piccadilly.", 2, "ana.job"),
       fact("tx-house", "olu", "The user lives in a terraced house in Chorlton.", 2, "user.home")]

MARISOL = ([fact("tx-arch", "marisol", "I work as an architect in Valencia.", 1, "user.job"),
            fact("tx-mymara", "marisol", "I ran the Valencia marathon in 4:05 last December.", 1, "user.marathon"),
            fact("tx-myhome", "marisol", "I live in Benimaclet with two flatmates.", 1, "user.home")]
           + chat("marisol", "k1", "2024-06-03", [
               ("tx-k-wife", "Kemal", "My wife Derya just got promoted to head of radiology."),
               ("tx-m1", "Marisol", "Amazing, tell her congratulations from me!"),
               ("tx-k-mara", "Kemal", "And I finished the Istanbul marathon in 3:38, my best ever."),
               ("tx-k-clinic", "Kemal", "I started at the new veterinary clinic in Ruzafa last month."),
           ])
           + chat("marisol", "k2", "2024-06-05", [
               ("tx-k-son", "Kemal", "My son Emre turns ten next week, we're throwing a party."),
               ("tx-m2", "Marisol", "I'm still at the studio, drowning in drawings."),
               ("tx-k-you", "Kemal", "You should bring your bike on Sunday, we're riding to the beach."),
           ]))

HIROSHI = ([fact("tx-hjob", "hiroshi", "I teach maths at a sixth-form college in Brighton.", 1, "user.job")]
           + chat("hiroshi", "h1", "2024-05-20", [
               ("tx-dad-old", "Hiroshi", "My dad had his teeth cleaned at the dentist this morning."),
           ])
           + chat("hiroshi", "h2", "2024-06-12", [
               ("tx-dad-fish", "Hiroshi", "My dad went sea fishing off Shoreham with his old neighbour."),
               ("tx-me-pot", "Hiroshi", "I went to a pottery class in Kemptown after work."),
           ])
           + chat("hiroshi", "h3", "2024-06-18", [
               ("tx-sis", "Hiroshi", "My sister Keiko took the twins to the aquarium."),
               ("tx-me-run", "Hiroshi", "I did a slow run along the seafront."),
           ])
           + [turn("tx-hlast", "hiroshi", "h4", "Hiroshi", "Quiet day at home with the cat.", "2024-06-19")])

# held back: the same shapes in other words, not looked at while fixing
EWA = ([fact("tx-fella", "ewa", "My OH Connor drives a taxi in Gdynia.", 1, "partner.job"),
        fact("tx-ewa-age", "ewa", "I'm 52.", 1, "user.age"),
        fact("tx-ewa-job", "ewa", "I work at the port authority in Gdańsk.", 1, "user.job"),
        fact("tx-parrot", "ewa", "My parrot Rio is a green Amazon.", 1, "user.parrot"),
        fact("tx-joanna", "ewa", "My friend Joanna's husband is a ferry captain.", 2, "joanna.husband"),
        fact("tx-ewa-home", "ewa", "I live in a flat in Oliwa.", 2, "user.home")]
       + chat("ewa", "b1", "2024-06-04", [
           ("tx-b-half", "Bogdan", "I came in at 1:52 in the Sopot half, not bad for an old man."),
           ("tx-e1", "Ewa", "Not bad at all!"),
           ("tx-b-kid", "Bogdan", "My daughter Zosia starts at the music school in September."),
           ("tx-b-job", "Bogdan", "I moved to the shipyard's design office in April."),
       ])
       + chat("ewa", "b2", "2024-06-10", [
           ("tx-e-bro", "Ewa", "My brother repaired the roof of the summer house."),
           ("tx-e-me", "Ewa", "I spent the afternoon reading on the balcony."),
       ])
       + [turn("tx-elast", "ewa", "b3", "Ewa", "Rainy today, staying in.", "2024-06-14")])

STORES = [
    ("leonie", LEONIE, [
        ("What does my partner do?", V, ["tx-oh"], ["tx-job", "tx-bro"], "'my other half' is the partner"),
        ("What is my other half's job?", V, ["tx-oh"], ["tx-job"],
         "variant: the idiom asked; the caller's own job must not stand beside it"),
        ("What is my dog's age?", U, [], ["tx-age", "tx-dog"],
         "the dog's breed is not its age, the caller's age is not the dog's"),
        ("What age is my dachshund?", U, [], ["tx-age", "tx-dog"], "variant: a dachshund, nothing states its age"),
        ("Where does Aylin's husband work?", U, [], ["tx-job", "tx-oh"],
         "twin (UNKNOWN on main): a nested relation, the caller's and the partner's jobs are not his"),
        ("What does my uncle do?", V, ["tx-uncle"], ["tx-job"], "a job stated by what the uncle teaches"),
        ("How old am I?", V, ["tx-age"], ["tx-dog"], "the caller's own age, 'I am 41'"),
        ("What breed is my dog?", V, ["tx-dog"], ["tx-car"], "twin: the dog's own record"),
    ]),
    ("olu", OLU, [
        ("How old is Clover?", U, [], ["tx-uage", "tx-cat"], "a pet named: the user's age is not the rabbit's"),
        ("What age is my rabbit?", U, [], ["tx-uage", "tx-cat"], "variant: the rabbit's age asked, the user's stated"),
        ("How old is my cat?", V, ["tx-cat"], ["tx-uage"], "the cat's own record, never beside the user's age"),
        ("What does Farid's daughter do?", U, [], ["tx-gp"],
         "twin (UNKNOWN on main): a nested relation, the user's job is not Farid's daughter's"),
        ("What does Ana do?", V, ["tx-ana"], ["tx-gp"], "a job stated by what she runs (a hostel)"),
    ]),
    ("marisol", MARISOL, [
        ("What does Kemal's wife do?", V, ["tx-k-wife"], ["tx-arch"], "the friend's 'My wife Derya ... head of radiology'"),
        ("What time did Kemal run the marathon in?", V, ["tx-k-mara"], ["tx-mymara"],
         "the friend's 'I finished ... in 3:38', not the caller's marathon"),
        ("Where does Kemal work now?", V, ["tx-k-clinic"], ["tx-arch"], "the friend's 'I started at the new clinic'"),
        ("What is Kemal's job?", V, ["tx-k-clinic"], ["tx-arch"], "variant: the clinic he started at is his job"),
        ("What is my son's name?", U, [], ["tx-k-son"], "twin: the friend's son is not the caller's"),
        ("What was my marathon time?", V, ["tx-mymara"], ["tx-k-mara"], "twin: the caller's own marathon"),
    ]),
    ("hiroshi", HIROSHI, [
        ("What did my dad do last week?", V, ["tx-dad-fish"], ["tx-dad-old", "tx-me-pot"],
         "a turn of last week naming the relation"),
        ("What did my sister do yesterday?", V, ["tx-sis"], ["tx-me-run"], "variant: yesterday's turn naming the sister"),
        ("What did my mum do last week?", U, [], ["tx-dad-fish", "tx-me-pot"], "twin: the dad's week is not the mum's"),
    ]),
    ("ewa", EWA, [
        ("What does my boyfriend do?", V, ["tx-fella"], ["tx-ewa-job"], "held back: 'my OH' is the partner"),
        ("How old is my parrot Rio?", U, [], ["tx-ewa-age"], "held back: the caller's age is not the parrot's"),
        ("Where does Joanna's husband live?", U, [], ["tx-ewa-home"], "held back: nested relation, the caller's home"),
        ("What does Joanna's husband do?", V, ["tx-joanna"], ["tx-ewa-job"], "held back twin: the nested record"),
        ("What was Bogdan's half marathon time?", V, ["tx-b-half"], [], "held back: the friend's 'I came in at 1:52'"),
        ("What is Bogdan's daughter called?", V, ["tx-b-kid"], [], "held back: the friend's 'My daughter Zosia'"),
        ("Where does Bogdan work now?", V, ["tx-b-job"], ["tx-ewa-job"], "held back: 'I moved to the design office'"),
        ("What did my brother do last week?", V, ["tx-e-bro"], ["tx-e-me"], "held back: last week's turn naming him"),
    ]),
]


def cases():
    return dev8_cases(STORES, 1801)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
