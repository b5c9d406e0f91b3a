"""Generate trust-dev13.jsonl: what is asked must be stated (issue 13, session 8, asked).

Written before any code change, from the kinds of wrong answer an outside tester's stores showed
(as the lead described them), in other words and other personas. A question asks an ATTRIBUTE of
a THING ("What colour is my van?", "When is the quiz night?", "Where is the farmers' market?",
"What was Marek's time in the half marathon?"); a record that names the thing but states no value
of the attribute (its make and year, that I go to the quiz night, that I buy eggs there, that he
signed up) does not answer it, nor one stating a value of the attribute about something else (a
monthly payment to my brother for "How much did the van cost?"). Beside twins that must still
answer ("What colour is my bike?" / "My bike is a green Dawes."), answerable questions whose value
is stated in a way not read before (a swim in pool lengths, a range "on a charge", "55 km away",
a lab result as a number), and an ordering case: the keyed fact naming the car asked about before
the job record that only says what I drive.

Kinds of case:
- abstention: UNKNOWN (insufficient_evidence), the thing's record ``forbidden``;
- answer: VERIFIED with the record stating the value ``expected`` (twins, values stated otherwise);
- ordering: VERIFIED, a record that does not state what is asked is a ``hard_negative``.

    python benchmarks/gold/trust_dev13_cases.py > benchmarks/gold/trust-dev13.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import fact, turn  # noqa: E402
from trust_dev10_cases import cases as dev10_cases  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

# (user, setup, [(question, state, expected, forbidden, hard negatives, description)])
STORES = [
    # an attribute never stated of a thing that is stored, first person, keyed facts
    ("odile", [fact("as-van", "odile", "I own a 2017 Ford Transit van.", 1, "user.van"),
               fact("as-loan", "odile", "I pay my brother 150 euros a month until the loan is settled.", 1,
                    "user.loan"),
               fact("as-van-use", "odile", "I use the Transit for the flower stall at the market.", 2),
               fact("as-son", "odile", "My son Mathis is nine years old.", 1, "user.son"),
               fact("as-bike", "odile", "My bike is a green Dawes.", 1, "user.bike"),
               fact("as-sofa", "odile", "The sofa cost 800 pounds.", 2, "user.sofa"),
               fact("as-stall", "odile", "The flower stall opens at 7am on Saturdays.", 2, "user.stall"),
               fact("as-sister", "odile", "My sister Claire was born in Nantes.", 1, "user.sister"),
               fact("as-dog", "odile", "Our dog Pilou sleeps in the van.", 3),
               fact("as-kettle", "odile", "The kettle is broken again.", 3)], [
        ("What colour is my van?", U, [], ["as-van"], [],
         "the van's record gives its make and year, no colour: UNKNOWN, not the van"),
        ("How much did I pay for the Transit?", U, [], ["as-van", "as-loan", "as-van-use"], [],
         "the only amount is a monthly payment to my brother; the van's records state no price"),
        ("Which hospital was Mathis born in?", U, [], ["as-son"], [],
         "the son's record gives his name and age, not where he was born"),
        ("Where was my son born?", U, [], ["as-son"], [],
         "variant: 'where ... born' asks a place; the son's name and age state none"),
        ("What colour is my bike?", V, ["as-bike"], [], [], "twin: 'a green Dawes' states the colour"),
        ("How much did the sofa cost?", V, ["as-sofa"], [], [], "twin: '800 pounds' states the price"),
        ("Where was my sister born?", V, ["as-sister"], [], [], "twin: 'born in Nantes' states the place"),
        ("What colour is our dog?", U, [], ["as-dog"], [],
         "the dog's record says where it sleeps, no colour"),
    ]),
    # the third person of an assistant's notes, an attribute of a possession
    ("hugo", [fact("as-car", "hugo", "The user drives a 2020 Kia Niro.", 1, "user.car"),
              fact("as-rent", "hugo", "The user pays his landlord 700 euros each month.", 1, "user.rent"),
              fact("as-watch", "hugo", "The user's watch is a silver Seiko.", 1, "user.watch"),
              fact("as-boat", "hugo", "The user bought a small sailing boat last summer.", 2, "user.boat"),
              fact("as-laptop", "hugo", "The user's laptop cost 1200 euros.", 2, "user.laptop"),
              fact("as-garden", "hugo", "The user grows tomatoes in the garden.", 2)], [
        ("What colour is my car?", U, [], ["as-car"], [],
         "the car's record gives its make and year: no colour stated"),
        ("What was the price of my boat?", U, [], ["as-boat", "as-rent"], [],
         "the boat's record states no price; the rent is an amount about something else"),
        ("What colour is my watch?", V, ["as-watch"], [], [], "twin: 'a silver Seiko' states the colour"),
        ("How much did my laptop cost?", V, ["as-laptop"], [], [], "twin: '1200 euros' states the price"),
    ]),
    # when and where asked of a thing the records mention without a date, a time or a place
    ("ines", [fact("as-quiz", "ines", "I'm going to the quiz night with Ada.", 1),
              fact("as-club", "ines", "The rowing club has a new coach called Piet.", 1),
              fact("as-market", "ines", "The farmers' market has the best goat cheese.", 2),
              fact("as-keys", "ines", "I keep losing the spare keys.", 2),
              fact("as-concert", "ines", "The concert is on 12 December.", 2, "user.concert"),
              fact("as-allot", "ines", "My allotment is in St Werburghs.", 1, "user.allotment"),
              fact("as-marek-race", "ines", "Marek signed up for the half marathon in May.", 2),
              fact("as-jo-race", "ines", "Jo ran the 10k in 48 minutes.", 2),
              fact("as-dentist", "ines", "My dentist is called Dr Osei.", 3, "user.dentist"),
              fact("as-book", "ines", "The book club is reading Middlemarch.", 3, "user.book_club"),
              fact("as-choir", "ines", "The choir rehearses on Wednesday evenings.", 3, "user.choir"),
              fact("as-gym", "ines", "I go to the gym after work.", 3, "user.gym"),
              fact("as-lena", "ines", "Lena bought new trainers for the race.", 3),
              fact("as-bath", "ines", "I ran the Bath half in 1:58.", 3, "user.bath_half")], [
        ("When is the quiz night?", U, [], ["as-quiz"], [],
         "the quiz night's record says who I go with, no date or time"),
        ("When does the rowing club train?", U, [], ["as-club"], [],
         "the rowing club's record names the coach, no day or time"),
        ("Where is the farmers' market?", U, [], ["as-market"], [],
         "the market's record says what it sells, not where it is"),
        ("Where are the spare keys?", U, [], ["as-keys"], [],
         "'I keep losing the spare keys' says nowhere where they are"),
        ("What was Marek's time in the half marathon?", U, [], ["as-marek-race"], [],
         "signing up for the race states no finishing time"),
        ("When does the book club meet?", U, [], ["as-book"], [],
         "the book club's record says what it reads, no date or time"),
        ("When is the concert?", V, ["as-concert"], [], [], "twin: 'on 12 December' states the date"),
        ("Where is the allotment?", V, ["as-allot"], [], [], "twin: 'in St Werburghs' states the place"),
        ("What was Jo's time in the 10k?", V, ["as-jo-race"], [], [], "twin: '48 minutes' states the time"),
        ("When does the choir rehearse?", V, ["as-choir"], [], [], "twin: 'on Wednesday evenings' states when"),
        ("When do I go to the gym?", V, ["as-gym"], [], [], "twin: 'after work' states when"),
        ("What colour are Lena's new trainers?", U, [], ["as-lena"], [],
         "Lena's trainers are named with no colour"),
        ("What was my time in the Bath half?", V, ["as-bath"], [], [], "twin: '1:58' states the time"),
    ]),
    # distances and amounts stated in ways not read before: answerable
    ("ruth", [fact("as-swim", "ruth", "I swim 40 lengths of the pool every morning.", 1, "user.swim"),
              fact("as-pool", "ruth", "The pool is closed on Mondays.", 1),
              fact("as-ev", "ruth", "My electric car does about 450 km on a charge.", 1, "user.ev"),
              fact("as-mum", "ruth", "My mother lives 55 km away, in Chartres.", 1, "user.mother"),
              fact("as-lab", "ruth", "My latest cholesterol result was 5.2.", 2, "user.cholesterol"),
              fact("as-lab-old", "ruth", "The GP wants to check my cholesterol again in spring.", 2)], [
        ("How far do I swim every morning?", V, ["as-swim"], [], [],
         "'40 lengths of the pool' states a distance"),
        ("How much did I pay for my electric car?", U, [], ["as-ev", "as-lab"], [],
         "the car's record states its range, no price; no amount is stated of it"),
        ("How far can my electric car go on a charge?", V, ["as-ev"], [], [],
         "'about 450 km on a charge' states a distance"),
        ("How far away does my mother live?", V, ["as-mum"], [], [], "'55 km away' states a distance"),
        ("What was my latest cholesterol result?", V, ["as-lab"], [], ["as-lab-old"],
         "the result stated as a number answers before the record that only mentions a check"),
    ]),
    # the keyed fact naming the car asked about before the job record saying what I drive
    ("kofi", [fact("as-job", "kofi", "I drive a taxi around Bristol five nights a week.", 1, "user.job"),
              fact("as-workcar", "kofi", "My car for work is a Toyota Prius now.", 2, "user.work_car"),
              fact("as-quizk", "kofi", "The pub quiz is on Thursdays at 8pm.", 1, "user.quiz"),
              fact("as-fund", "kofi", "I give Ama 50 pounds a week for the school fund.", 1, "user.fund"),
              fact("as-honda", "kofi", "I bought a Honda Jazz for my wife in 2021.", 2, "user.honda")], [
        ("What car do I drive for work now?", V, ["as-workcar"], [], ["as-job"],
         "the keyed fact naming the car comes before the job record that says 'I drive a taxi'"),
        ("How much did I pay for the Honda?", U, [], ["as-fund", "as-honda"], [],
         "the only amount is a weekly sum given to Ama; the Honda's record states no price"),
        ("When is the pub quiz?", V, ["as-quizk"], [], [], "twin: 'on Thursdays at 8pm' states when"),
    ]),
    # added after the first round of code (see the gold README): shapes the first 33 cases lacked
    ("wen", [fact("as-eggs", "wen", "I buy eggs at the farmers' market every Saturday.", 1),
             fact("as-door", "wen", "I painted the front door last spring.", 1),
             fact("as-appt", "wen", "I need to book a dentist appointment.", 2),
             fact("as-zoe", "wen", "Zoe's birthday party will be at the bowling alley.", 2),
             fact("as-boiler", "wen", "The boiler repair took two days.", 2),
             fact("as-coat", "wen", "I left my coat somewhere last night.", 3),
             fact("as-tom", "wen", "Tom's new bike is a red Trek.", 1),
             fact("as-eyes", "wen", "I have brown eyes.", 1, "user.eyes"),
             fact("as-lib", "wen", "The library opens at 9.", 2),
             fact("as-walk", "wen", "I walk the dog before breakfast.", 2, "user.dog_walk"),
             fact("as-priya", "wen", "Priya finished the marathon in just under four hours.", 3)], [
        ("Where is the farmers' market?", U, [], ["as-eggs"], [],
         "'at the farmers' market' says where I buy eggs, not where the market is"),
        ("What is the colour of my front door?", U, [], ["as-door"], [],
         "painting the door last spring states no colour"),
        ("When is my dentist appointment?", U, [], ["as-appt"], [],
         "needing to book the appointment states no date"),
        ("When is Zoe's birthday?", U, [], ["as-zoe"], [],
         "the birthday party's place states no date"),
        ("How much was the boiler repair?", U, [], ["as-boiler"], [],
         "'took two days' is a duration, no amount"),
        ("Where is my coat?", U, [], ["as-coat"], [], "'somewhere' names no place"),
        ("What colour is Tom's new bike?", V, ["as-tom"], [], [], "twin: 'a red Trek' states the colour"),
        ("What colour are my eyes?", V, ["as-eyes"], [], [], "twin: 'brown eyes' states the colour"),
        ("When does the library open?", V, ["as-lib"], [], [], "twin: 'at 9' states the time"),
        ("When do I walk the dog?", V, ["as-walk"], [], [], "twin: 'before breakfast' states when"),
        ("What was Priya's time in the marathon?", V, ["as-priya"], [], [],
         "twin: 'just under four hours' states the time"),
    ]),
    # added after the second round of code: the head noun held by a member of its category or by the key
    # ("a Toyota Prius" is a car), a year or a day asked of a thing
    ("arlo", [fact("as-taxi", "arlo", "I drive a taxi for work, mostly nights.", 1, "user.job"),
              fact("as-prius", "arlo", "These days it's a Toyota Prius.", 2, "user.work_car")], [
        ("What car do I drive for work now?", V, ["as-prius"], [], ["as-taxi"],
         "the keyed fact naming a car of the lexicon comes before the job record that says 'I drive a taxi'"),
    ]),
    ("bea", [fact("as-tvan", "bea", "I drive a Ford Transit van.", 1, "user.van"),
             fact("as-kbike", "bea", "My bike is from 2019.", 1, "user.bike"),
             fact("as-bins", "bea", "The bins get collected by the council.", 1),
             fact("as-recycle", "bea", "Recycling goes out on alternate Mondays.", 1)], [
        ("What year is my van?", U, [], ["as-tvan"], [], "the van's record states no year"),
        ("What year is my bike?", V, ["as-kbike"], [], [], "twin: 'from 2019' states the year"),
        ("What day are the bins collected?", U, [], ["as-bins"], [], "who collects the bins states no day"),
        ("What day does the recycling go out?", V, ["as-recycle"], [], [],
         "twin: 'on alternate Mondays' states the day"),
    ]),
    # added after the third round of code: twins an earlier rule lost (a time from now, a season, a colour
    # the lexicon lacked, a quantity of time asked by "how much") and attributes never stated
    ("cyd", [fact("as-appt2", "cyd", "My next appointment is in two weeks.", 1, "user.appointment"),
             fact("as-lease", "cyd", "My lease ends in spring.", 1, "user.lease"),
             fact("as-curtains", "cyd", "The curtains are cream.", 1),
             fact("as-sleep", "cyd", "I sleep about seven hours a night.", 1, "user.sleep"),
             fact("as-email", "cyd", "I spend about two hours a day on email.", 2),
             fact("as-umbrella", "cyd", "I left my umbrella on the bus.", 2),
             fact("as-phone", "cyd", "My new phone is a Pixel 8.", 2, "user.phone"),
             fact("as-ana", "cyd", "Ana trained for the triathlon for months.", 3),
             fact("as-lou", "cyd", "Lou loves football practice.", 3),
             fact("as-karim", "cyd", "Karim's car is a Renault Clio from 2012.", 3)], [
        ("When is my next appointment?", V, ["as-appt2"], [], [], "twin: 'in two weeks' states when"),
        ("When does my lease end?", V, ["as-lease"], [], [], "twin: 'in spring' states when"),
        ("What colour are the curtains?", V, ["as-curtains"], [], [], "twin: 'cream' is a colour"),
        ("How much sleep do I get?", V, ["as-sleep"], [], [], "twin: a quantity of sleep is a duration"),
        ("How much time do I spend on email?", V, ["as-email"], [], [], "twin: a quantity of time is a duration"),
        ("What colour is my umbrella?", U, [], ["as-umbrella"], [], "leaving the umbrella on the bus states no colour"),
        ("How much was my new phone?", U, [], ["as-phone"], [], "'a Pixel 8' is a model, no price"),
        ("What was Ana's time in the triathlon?", U, [], ["as-ana"], [],
         "training for months states no time taken"),
        ("When does Lou's football practice start?", U, [], ["as-lou"], [],
         "loving football practice states no time"),
        ("What colour is Karim's car?", U, [], ["as-karim"], [], "a Renault Clio from 2012: no colour"),
    ]),
]


def cases(first=1301):
    return dev10_cases(first, STORES)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
