"""Generate trust-dev22.jsonl: the asked thing must be there (issue 13, session 10, lex10).

Written before any code change, from the kinds of wrong answer two new people's stores showed (the
lead's paraphrase, not their cases), in other words, personas and cities, beside twins that must keep
their answer:

- a value counted in a unit the distance/weight/volume reading does not know ("1,100 nautical miles",
  "three laps of the lake", "2 litres", "a stone heavier") is not read as its kind;
- a member of a category named by a breed or a make/model ("our Bernese", "a Dacia Sandero") is not
  read as a member of the animal or of cars;
- an attribute no record holds (the airline of a flight, a blood group, a pet's age) answered by the
  thing's record that states none;
- a record holding only a generic word of the question answers before the one holding the asked
  head (a make, a club, cities);
- a verb of ending in another domain ("I stopped running at 40") answering when I retire;
- everyday health and money words: a chronic illness by a named condition, a dose by "500 mg", typos
  a person types at a shell ("wheres my brothr live").

The last third of the stores (``HELD_BACK``, cases from gold_trust_2241 on) is the held-back half: not
looked at while fixing, reported apart.

    python benchmarks/gold/trust_dev22_cases.py > benchmarks/gold/trust-dev22.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

STORES = [
    # units: a distance in nautical miles and in laps; a volume in litres; a weight in stone
    ("siobhan", [fact("tx-sail", "siobhan", "We sailed 1,100 nautical miles round Ireland on the Saoirse.", 1, "user.sailing"),
                 fact("tx-club", "siobhan", "The sailing club bar in Howth does a great chowder.", 1, "user.club"),
                 fact("tx-laps", "siobhan", "I jog six laps of Stephen's Green at lunchtime.", 1, "user.jog"),
                 fact("tx-lunch", "siobhan", "Lunchtime jogs keep me sane at the office.", 2, "user.lunch"),
                 fact("tx-water", "siobhan", "I drink about 3 litres of water a day since the kidney stone.", 1, "user.water"),
                 fact("tx-tap", "siobhan", "The water in the office tastes of chlorine.", 2, "office.water"),
                 fact("tx-dog", "siobhan", "Our Bernese mountain dog is called Fionn.", 1, "user.dog"),
                 fact("tx-vet", "siobhan", "Fionn weighs 48 kilos, the vet says that's fine.", 2, "dog.weight"),
                 fact("tx-sister", "siobhan", "My sister's dog is called Brandy.", 2, "sister.dog"),
                 fact("tx-ferry", "siobhan", "The ferry crossing to Inis Mor is 22 nautical miles.", 2, "ferry.distance"),
                 fact("tx-cancel", "siobhan", "The ferry to Inis Mor was cancelled twice in March.", 2, "ferry.cancel")], [
        ("How far did we sail round Ireland?", V, ["tx-sail"], ["tx-club"], "a distance in nautical miles"),
        ("How far do I jog at lunchtime?", V, ["tx-laps"], ["tx-lunch"], "a distance in laps of a park"),
        ("How much water do I drink a day?", V, ["tx-water"], ["tx-tap"], "a volume in litres"),
        ("How far is the ferry crossing to Inis Mor?", V, ["tx-ferry"], ["tx-cancel"], "a distance in nautical miles"),
        ("What is my dog called?", V, ["tx-dog"], ["tx-sister"], "twin: the Bernese mountain dog is a dog by its own word"),
        ("How much does Fionn weigh?", V, ["tx-vet"], ["tx-dog"], "twin: a weight in kilos"),
    ]),
    # members: a cat by its breed, a car by its make and model
    ("lukas", [fact("tx-cat", "lukas", "Our Maine Coon is called Strudel.", 1, "user.pet"),
               fact("tx-neighbour", "lukas", "The neighbour's kids are called Mia and Ben.", 1, "neighbour.kids"),
               fact("tx-car", "lukas", "I drive a Dacia Sandero, bought it used in 2021.", 1, "user.vehicle"),
               fact("tx-lift", "lukas", "I give my colleague a lift to the depot on Mondays.", 1, "user.lift"),
               fact("tx-job", "lukas", "I work nights at the DHL depot near Leipzig airport.", 2, "user.job"),
               fact("tx-flight", "lukas", "Flying to Lisbon on the 3rd of May for my cousin's wedding.", 1, "user.trip"),
               fact("tx-test", "lukas", "Had my blood test at the Hausarzt on Tuesday.", 1, "user.bloods"),
               fact("tx-cholesterol", "lukas", "My cholesterol came back at 5.9, a bit high.", 2, "user.cholesterol")], [
        ("What is my cat called?", V, ["tx-cat"], ["tx-neighbour"], "a cat named by its breed: a Maine Coon"),
        ("What car do I drive?", V, ["tx-car"], ["tx-lift"], "a car by its make and model: a Dacia Sandero"),
        ("Which airline am I flying to Lisbon with?", U, [], ["tx-flight"], "hard negative: the flight states no airline"),
        ("What's my blood group?", U, [], ["tx-test"], "hard negative: a blood test states no blood group"),
        ("When am I flying to Lisbon?", V, ["tx-flight"], [], "twin: the date of the flight stated"),
    ]),
    # an unstored attribute of a stored thing; the record with the asked head first
    ("aroha", [fact("tx-dog", "aroha", "My dog Kiri loves the beach at Piha.", 1, "user.dog"),
               fact("tx-bike", "aroha", "Bike's in the shop for a service this week.", 1, "user.bike_service"),
               fact("tx-trek", "aroha", "My bike is a Giant Talon, bought second-hand.", 2, "user.bike"),
               fact("tx-club", "aroha", "Club night at the bowls club was loud again.", 1, "user.club_night"),
               fact("tx-team", "aroha", "I play netball for the Ponsonby Pythons on Wednesdays.", 2, "user.netball"),
               fact("tx-retire", "aroha", "I stopped surfing at 50 after my shoulder went.", 1, "user.surf"),
               fact("tx-mum", "aroha", "Mum is 78 and still gardens every day.", 2, "mum.age")], [
        ("How old is my dog?", U, [], ["tx-dog"], "hard negative: the dog's record states no age"),
        ("What make is my bike?", V, ["tx-trek"], ["tx-bike"], "the make asked: the Giant, not the service record"),
        ("At what age will I retire?", U, [], ["tx-retire"], "hard negative: stopped surfing is no retirement"),
        ("How old is my mum?", V, ["tx-mum"], ["tx-dog"], "twin: mum's age stated"),
    ]),
    # everyday health and money words; typos typed at a shell
    ("graham", [fact("tx-diab", "graham", "I was diagnosed with type 2 diabetes last spring.", 1, "user.diabetes"),
                fact("tx-knee", "graham", "Twisted my knee on the stairs, it's healing.", 1, "user.knee"),
                fact("tx-met", "graham", "I take 500 mg metformin twice a day with meals.", 1, "user.metformin"),
                fact("tx-nurse", "graham", "The diabetes nurse at the surgery is called Pauline.", 2, "user.nurse"),
                fact("tx-rent", "graham", "I pay 720 pounds a month for the flat in Leith.", 1, "user.flat"),
                fact("tx-council", "graham", "The council tax letter came on Friday.", 2, "user.council"),
                fact("tx-brother", "graham", "My brother lives in Inverness with his wife.", 1, "brother.city"),
                fact("tx-doc", "graham", "My doctor is called Dr Fraser, at the Leith surgery.", 1, "user.doctor")], [
        ("Do I have a chronic illness?", V, ["tx-diab"], ["tx-knee"], "a chronic condition named: type 2 diabetes"),
        ("What dose of metformin am I on?", V, ["tx-met"], ["tx-nurse"], "a dose: 500 mg"),
        ("How much is my rent?", V, ["tx-rent"], ["tx-council"], "rent stated as what I pay for the flat"),
        ("wheres my brothr live", V, ["tx-brother"], [], "typos: brothr"),
        ("waht is my docter called", V, ["tx-doc"], [], "typos: docter"),
    ]),
    # commute: walking the dog before work is no means of getting to work
    ("farida", [fact("tx-walk", "farida", "I walk the dog round the park before work.", 1, "user.dog_walk"),
                fact("tx-job", "farida", "I'm a pharmacist at the Boots on Deansgate.", 1, "user.job"),
                fact("tx-gym", "farida", "I swim 30 lengths at the leisure centre on Sundays.", 2, "user.swim"),
                fact("tx-weight", "farida", "I've put on half a stone since Christmas.", 2, "user.weight"),
                fact("tx-whippet", "farida", "Our whippet is called Moss.", 1, "user.pet"),
                fact("tx-cousin", "farida", "My cousin's baby is called Zara.", 2, "cousin.baby")], [
        ("What's my dog called?", V, ["tx-whippet"], ["tx-cousin"], "a dog named by its breed: a whippet"),
        ("How do I get to work?", U, [], ["tx-walk", "tx-job"], "hard negative: walking the dog before work is no commute"),
        ("How far do I swim on Sundays?", V, ["tx-gym"], [], "twin: lengths are a distance"),
    ]),
]

# the held-back half: not looked at while fixing
HELD_BACK = [
    ("teodor", [fact("tx-row", "teodor", "I rowed 640 nautical miles with the club last year.", 1, "user.rowing"),
                fact("tx-regatta", "teodor", "The club regatta in Gdynia was rained off.", 1, "club.regatta"),
                fact("tx-horse", "teodor", "My Haflinger mare is called Pola.", 1, "user.horse"),
                fact("tx-niece", "teodor", "My niece is called Zuzia.", 2, "niece.name"),
                fact("tx-van", "teodor", "I drive a Skoda Octavia estate for work.", 1, "user.car"),
                fact("tx-hours", "teodor", "I drive four hours a day some weeks.", 2, "user.hours"),
                fact("tx-train", "teodor", "Taking the train to Berlin on Friday.", 1, "user.trip"),
                fact("tx-asthma", "teodor", "I have asthma, it flares up in winter.", 1, "user.asthma"),
                fact("tx-cough", "teodor", "Had a cough all last week.", 2, "user.cough")], [
        ("How far did I row with the club last year?", V, ["tx-row"], ["tx-regatta"], "a distance in nautical miles"),
        ("What's my horse called?", V, ["tx-horse"], ["tx-niece"], "a horse by its breed and sex"),
        ("What car do I drive?", V, ["tx-van"], ["tx-hours"], "a car by make and model: a Skoda Octavia"),
        ("Which train company am I travelling with to Berlin?", U, [], ["tx-train"], "hard negative: no operator stated"),
        ("Do I have a chronic illness?", V, ["tx-asthma"], ["tx-cough"], "a chronic condition: asthma"),
        ("What's my blood type?", U, [], ["tx-asthma"], "hard negative: no blood type stored"),
    ]),
    ("ines", [fact("tx-cat", "ines", "Our ragdoll Lulu sleeps on the radiator.", 1, "user.cat"),
              fact("tx-lev", "ines", "I take 75 micrograms of levothyroxine every morning.", 1, "user.levo"),
              fact("tx-thyroid", "ines", "The thyroid clinic is on the third floor.", 2, "clinic.floor"),
              fact("tx-darts", "ines", "I throw for the Red Lion in the Tuesday darts league.", 1, "user.darts"),
              fact("tx-night", "ines", "Club night at the Red Lion was heaving.", 2, "user.club_night"),
              fact("tx-sister", "ines", "My sister lives in Braga and teaches maths.", 1, "sister.city")], [
        ("How old is my cat?", U, [], ["tx-cat"], "hard negative: no age of the cat stated"),
        ("What dose of levothyroxine am I on?", V, ["tx-lev"], ["tx-thyroid"], "a dose in micrograms"),
        ("Which team do I play darts for?", V, ["tx-darts"], ["tx-night"], "the team stated by 'throw for'"),
        ("wher does my sistr live", V, ["tx-sister"], [], "typos: sistr"),
    ]),
]


def cases():
    return list(dev8_cases(STORES, 2201)) + list(dev8_cases(HELD_BACK, 2241))


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
