"""Generate trust-dev19.jsonl: the asked thing in other words, and only the asked thing (issue 13,
session 9, words9).

Written before any code change, from the kinds of wrong answer a new person's store showed (the
lead's description, not its cases), in other words, personas and cities, beside twins that must keep
their answer:

- a category question answered by a record that uses a member in another role: "Which sport do I
  do?" by "I cycle to the clinic" (a means of travel), while a sport is stated elsewhere (or none is);
- "How do I get to work?" (the means) answered by a record about work that states no means (a
  shift, a job);
- a past or present amount of a named thing (rent, fees, a bill) answered by another amount (a salary,
  a membership);
- answerable from everyday vocabulary but UNKNOWN: conditions by a named condition, a medicine class
  by a named medicine ("allergic to penicillin"), a diet by what one does not eat, the fastest time by
  a personal best; and a race asked by its distance ("the Cardiff 10k").

The last third of the stores (``HELD_BACK``, cases from gold_trust_1931 on) is the held-back half: not
looked at while fixing, reported apart.

    python benchmarks/gold/trust_dev19_cases.py > benchmarks/gold/trust-dev19.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

STORES = [
    # a sport stated, and a member of sport used as the means of a commute; a shift that states no means
    ("keiko", [fact("tx-cycle", "keiko", "I cycle to the clinic along the river, it takes twenty minutes.", 1, "user.commute"),
               fact("tx-shift", "keiko", "My shift at the clinic starts at 8:30 on weekdays.", 1, "user.shift"),
               fact("tx-job", "keiko", "I work as a dental hygienist in Kita-ku.", 1, "user.job"),
               fact("tx-kendo", "keiko", "I train in kendo at the dojo on Saturday mornings.", 1, "user.kendo"),
               fact("tx-sumo", "keiko", "My dad and I watch the sumo on TV every January.", 2, "user.sumo"),
               fact("tx-son", "keiko", "My son takes the school bus at 7:40.", 2, "son.bus"),
               fact("tx-hay", "keiko", "I get hay fever every spring, the cedar pollen is brutal.", 2, "user.hayfever"),
               fact("tx-rent", "keiko", "My rent is 98,000 yen a month.", 2, "user.rent"),
               fact("tx-salary", "keiko", "I take home about 310,000 yen a month.", 2, "user.salary")], [
        ("Which sport do I do?", V, ["tx-kendo"], ["tx-cycle"],
         "a sport asked: kendo is trained at a dojo; cycling to the clinic is a commute, not a sport"),
        ("How do I get to work?", V, ["tx-cycle"], ["tx-shift", "tx-job"],
         "the means asked: cycling to the clinic, not the shift record"),
        ("Do I have any health conditions?", V, ["tx-hay"], ["tx-son"], "a condition asked: hay fever named"),
        ("How much is my rent?", V, ["tx-rent"], ["tx-salary"], "twin: the rent stated with its word"),
    ]),
    # no sport at all: the commute's member must not answer; no means stated: the shift must not answer
    ("bongani", [fact("tx-dog", "bongani", "I walk the dog on the beach before my shift.", 1, "user.dog"),
                 fact("tx-cycle2", "bongani", "I cycle into town on Saturdays to do the shopping.", 1, "user.town"),
                 fact("tx-shift", "bongani", "My shift at Addington Hospital runs from seven to seven.", 1, "user.shift"),
                 fact("tx-job", "bongani", "I work as a radiographer at Addington Hospital.", 1, "user.job"),
                 fact("tx-salary", "bongani", "My salary was R28,000 a month in 2025.", 1, "user.salary"),
                 fact("tx-medical", "bongani", "Medical aid costs me R2,400 a month.", 2, "user.medical_aid"),
                 fact("tx-braai", "bongani", "We braai at my uncle's place most Sundays.", 2, "user.sundays"),
                 fact("tx-sister", "bongani", "My sister plays netball for a club in Umlazi.", 2, "sister.netball")], [
        ("How do I get to work?", U, [], ["tx-shift", "tx-job", "tx-dog"],
         "hard negative: the shift, the job and the dog's walk say nothing of how I travel to the hospital"),
        ("Which sport do I do?", U, [], ["tx-cycle2"], "hard negative: cycling into town to shop is an errand; no sport stated"),
        ("How much was my rent in 2025?", U, [], ["tx-salary", "tx-medical"],
         "hard negative: the salary and the medical aid are amounts of other things"),
        ("Which sport does my sister play?", V, ["tx-sister"], ["tx-cycle2"], "twin: the sister's netball club"),
    ]),
    # an amount asked by the thing it is the amount of, in other forms ("what was my rent", "how much rent")
    ("priya", [fact("tx-flat", "priya", "I rent a two-bedroom flat in Koregaon Park.", 1, "user.home"),
               fact("tx-due", "priya", "My rent is due on the fifth of every month.", 1, "user.rent_due"),
               fact("tx-salary", "priya", "My salary in 2025 was 95,000 rupees a month.", 1, "user.salary"),
               fact("tx-phone", "priya", "I pay 1,800 rupees a month for my phone and internet.", 1, "user.phone"),
               fact("tx-maid", "priya", "My cook comes at 8 every morning except Sundays.", 2, "user.cook")], [
        ("What was my rent in 2025?", U, [], ["tx-due", "tx-salary"],
         "hard negative: when the rent is due and the salary state no rent amount"),
        ("How much rent did I pay in 2025?", U, [], ["tx-phone", "tx-salary"],
         "hard negative: the phone bill and the salary are amounts of other things"),
        ("How much is my rent?", U, [], ["tx-flat"], "hard negative: a two-bedroom flat is no amount"),
        ("What was my salary in 2025?", V, ["tx-salary"], ["tx-phone"], "twin: the salary stated"),
    ]),
    # health words: a medicine class by a named medicine, conditions by named ones, a diet by what is not eaten
    ("leila", [fact("tx-migraine", "leila", "I've had migraines since my twenties.", 1, "user.migraine"),
               fact("tx-penicillin", "leila", "I'm allergic to penicillin, it gives me hives.", 1, "user.allergy"),
               fact("tx-meat", "leila", "I don't eat meat or fish.", 1, "user.diet"),
               fact("tx-pb", "leila", "My 10k personal best is 52:30, set in Aix last spring.", 1, "user.10k"),
               fact("tx-brother", "leila", "My brother Karim is diabetic.", 2, "brother.health"),
               fact("tx-metro", "leila", "I take the metro to the office from La Timone.", 2, "user.commute"),
               fact("tx-ibu", "leila", "I take ibuprofen when my knee acts up.", 2, "user.knee"),
               fact("tx-cats", "leila", "My cats are allergic to nothing but baths.", 2, "user.cats")], [
        ("Do I have any medical conditions?", V, ["tx-migraine"], ["tx-brother"], "conditions asked: migraines named"),
        ("Which antibiotic am I allergic to?", V, ["tx-penicillin"], ["tx-cats"],
         "a medicine class asked: 'allergic to penicillin' names the antibiotic"),
        ("Am I a vegetarian?", V, ["tx-meat"], ["tx-pb"], "a diet asked: 'I don't eat meat' settles it"),
        ("What is my fastest 10k?", V, ["tx-pb"], ["tx-metro"], "the fastest time asked: a personal best stated"),
        ("Which painkiller do I take?", V, ["tx-ibu"], ["tx-penicillin"], "twin: ibuprofen is a painkiller"),
        ("How do I get to the office?", V, ["tx-metro"], ["tx-pb"], "twin: the metro named with the office"),
    ]),
    # races by their distance
    ("mateo", [fact("tx-half", "mateo", "I'm training for the Valencia half marathon in October.", 1, "user.training"),
               fact("tx-club", "mateo", "I run with a club that meets at the Turia gardens.", 1, "user.club"),
               fact("tx-boss", "mateo", "My boss keeps asking me to race him up the stairs.", 2, "boss.stairs"),
               fact("tx-rent", "mateo", "I pay 850 euros a month for a flat in Russafa.", 1, "user.flat"),
               fact("tx-gym", "mateo", "The gym membership is 39 euros a month.", 2, "user.gym"),
               fact("tx-bike", "mateo", "I ride my bike to the port every morning.", 2, "user.commute")], [
        ("Which race am I training for?", V, ["tx-half"], ["tx-boss"], "a race asked by a distance: the half marathon"),
        ("How much is my rent?", V, ["tx-rent"], ["tx-gym"], "the rent stated as what I pay for the flat"),
        ("What sport do I do?", V, ["tx-half"], ["tx-bike"],
         "twin: training for a half marathon; riding a bike to the port is a commute"),
    ]),
]

# the held-back half: not looked at while fixing
HELD_BACK = [
    ("dmitri", [fact("tx-commute", "dmitri", "The user commutes by tram from Krzyki, about 25 minutes.", 1, "user.commute"),
                fact("tx-hours", "dmitri", "The user's working hours are 9 to 5, with Fridays off in summer.", 1, "user.hours"),
                fact("tx-walk", "dmitri", "The user walks to the bakery every morning for rolls.", 1, "user.bakery"),
                fact("tx-volley", "dmitri", "The user plays volleyball in a league on Tuesday nights.", 1, "user.volleyball"),
                fact("tx-salary", "dmitri", "The user earns 9,500 zloty a month after tax.", 1, "user.salary"),
                fact("tx-fees", "dmitri", "The user's daughter's nursery fees are 1,200 zloty a month.", 2, "daughter.fees"),
                fact("tx-coeliac", "dmitri", "The user is coeliac and avoids gluten.", 2, "user.coeliac"),
                fact("tx-amox", "dmitri", "The user reacts badly to amoxicillin.", 2, "user.amox")], [
        ("How do I get to work?", V, ["tx-commute"], ["tx-hours", "tx-walk"], "the means: commutes by tram"),
        ("What sport do I play?", V, ["tx-volley"], ["tx-walk"], "volleyball in a league; walking to the bakery is an errand"),
        ("How much is my rent?", U, [], ["tx-salary", "tx-fees"], "hard negative: the salary and the nursery fees"),
        ("What illnesses do I have?", V, ["tx-coeliac"], ["tx-amox"], "a condition asked: coeliac"),
        ("How much do I earn?", V, ["tx-salary"], ["tx-fees"], "twin: earnings stated"),
    ]),
    ("ana", [fact("tx-run", "ana", "I run to work along the Douro when it isn't raining.", 1, "user.commute"),
             fact("tx-padel", "ana", "I'm in a padel league at the club in Foz.", 1, "user.padel"),
             fact("tx-shift", "ana", "My shifts at the hotel are mostly evenings.", 1, "user.shift"),
             fact("tx-bill", "ana", "The electricity bill was 64 euros in January.", 1, "user.bill"),
             fact("tx-wage", "ana", "I earned 1,450 euros a month at the hotel last year.", 1, "user.wage"),
             fact("tx-pr", "ana", "My marathon PB is 3:41 from Seville.", 2, "user.marathon"),
             fact("tx-vegan", "ana", "I've been vegetarian since 2019.", 2, "user.diet"),
             fact("tx-thyroid", "ana", "I take levothyroxine for an underactive thyroid.", 2, "user.thyroid")], [
        ("Which sport do I play?", V, ["tx-padel"], ["tx-run"], "padel in a league; running to work is a commute"),
        ("How much was my rent last year?", U, [], ["tx-wage", "tx-bill"], "hard negative: the wage and a bill"),
        ("What was my rent last year?", U, [], ["tx-wage", "tx-bill"], "hard negative: 'what was my rent' asks an amount"),
        ("How much was the electricity bill in January?", V, ["tx-bill"], ["tx-wage"], "twin: the bill stated"),
        ("What's my quickest marathon?", V, ["tx-pr"], ["tx-run"], "the quickest asked: a marathon PB"),
        ("Am I vegetarian?", V, ["tx-vegan"], ["tx-thyroid"], "twin: vegetarian since 2019"),
        ("Am I vegan?", U, [], ["tx-vegan"], "hard negative: vegetarian does not settle vegan"),
        ("Which medication do I take?", V, ["tx-thyroid"], ["tx-bill"], "twin: levothyroxine named"),
    ]),
]


def cases():
    return list(dev8_cases(STORES, 1901)) + list(dev8_cases(HELD_BACK, 1931))


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
