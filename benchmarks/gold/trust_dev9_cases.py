"""Generate trust-dev9.jsonl: a second outside tester's "never stored, yet VERIFIED" answers
(issue 13, session 6, fixd).

Written before any code change. Shapes, each in other words and other personas, beside twins that
must still answer: "my favourite film" is not answered by the owner's favourite *author*; "how old
is X" asks an age, which "my old copy" does not state (nor an age of someone else); "blood type" is
not answered by "blood thinner" (the head noun asked is absent); "my phone number" is not answered
by the phone's model.

    python benchmarks/gold/trust_dev9_cases.py > benchmarks/gold/trust-dev9.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact, turn  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

STORES = [
    ("ana", [fact("tx-author", "ana", "My favourite author is Jean Giono.", 1, "user.fav_author", "preference"),
             fact("tx-wine", "ana", "My favourite wine is Saint-Joseph from the northern Rhône.", 1, "user.fav_wine",
                  "preference"),
             fact("tx-thinner", "ana", "The cardiologist changed my blood thinner yesterday.", 2),
             fact("tx-rivaroxaban", "ana", "I take rivaroxaban as a blood thinner.", 2, "user.medication"),
             fact("tx-phone", "ana", "My phone is a Fairphone 4.", 1, "user.phone"),
             fact("tx-car", "ana", "I drive an old Renault Clio.", 1, "user.car")], [
        ("What is my favourite film?", U, [], ["tx-author", "tx-wine"],
         "the owner's favourite author does not answer the favourite film"),
        ("What's my favourite movie?", U, [], ["tx-author", "tx-wine"], "variant in other words"),
        ("What is my favourite song?", U, [], ["tx-author", "tx-wine"], "variant: another favourite never stored"),
        ("What is my favourite author?", V, ["tx-author"], ["tx-phone"], "twin: the favourite author answers"),
        ("What is my favourite wine?", V, ["tx-wine"], ["tx-phone"], "twin: the favourite wine answers"),
        ("What is my blood type?", U, [], ["tx-thinner", "tx-rivaroxaban"],
         "'blood type' asks the type: a record about a blood thinner does not answer"),
        ("What's my blood group?", U, [], ["tx-thinner", "tx-rivaroxaban"], "variant in other words"),
        ("What blood thinner do I take?", V, ["tx-rivaroxaban"], ["tx-phone"], "twin: the blood thinner answers"),
        ("What's my home phone number?", U, [], ["tx-phone"], "a number asked: the phone's model does not answer"),
        ("What is my mobile number?", U, [], ["tx-phone"], "variant in other words"),
        ("What phone do I have?", V, ["tx-phone"], ["tx-car"], "twin: the phone's model answers"),
        ("How old is my car?", U, [], ["tx-car"], "'an old Renault' states no age"),
    ]),
    ("ana", [fact("tx-blood", "ana", "I'm blood type O negative.", 1, "user.blood_type"),
             fact("tx-thinner", "ana", "The cardiologist changed my blood thinner yesterday.", 2),
             fact("tx-number", "ana", "My phone number is 04 78 12 34 56.", 1, "user.phone_number")], [
        ("What is my blood type?", V, ["tx-blood"], ["tx-thinner"], "twin: the blood type stored answers"),
        ("What is my phone number?", V, ["tx-number"], ["tx-thinner"], "twin: the number stored answers"),
    ]),
    # the tester's store states facts in the third person ("The user's ...")
    ("remy", [fact("tx-author3", "remy", "The user's favourite author is Jean Giono.", 1, "user.fav_author", "preference"),
              fact("tx-wine3", "remy", "The user's favourite wine is Saint-Joseph.", 1, "user.fav_wine", "preference"),
              fact("tx-phone3", "remy", "The user's phone is a Fairphone 4.", 1, "user.phone")], [
        ("What is my favourite film?", U, [], ["tx-author3", "tx-wine3"], "third person: the author does not answer the film"),
        ("What is my favourite colour?", U, [], ["tx-author3", "tx-wine3"], "variant: another favourite"),
        ("Who is my favourite author?", V, ["tx-author3"], ["tx-phone3"], "twin: the author answers"),
        ("What's my home phone number?", U, [], ["tx-phone3"], "third person: the model is no number"),
        ("What phone do I use?", V, ["tx-phone3"], ["tx-wine3"], "twin: the phone answers"),
    ]),
    ("conv-9", [turn("tx-copy", "conv-9", "Didier", "I'll lend you my old copy with the film photos.", 1),
                turn("tx-grandson", "conv-9", "Bernard", "My grandson Léo is 7 and loves boats.", 1),
                turn("tx-oldcar", "conv-9", "Didier", "My old car finally died last week.", 1)], [
        ("How old is Didier?", U, [], ["tx-copy", "tx-oldcar"], "'my old copy' states no age of Didier"),
        ("How old is Bernard?", U, [], ["tx-grandson", "tx-copy"], "the grandson's age is not the speaker's"),
        ("How old is Bernard's grandson?", V, ["tx-grandson"], ["tx-copy"], "twin: the grandson's age"),
    ]),
    ("lena", [fact("tx-leo", "lena", "My grandson Léo is 7.", 1),
              fact("tx-mum", "lena", "My mother was born in 1931.", 1, "mother.birth"),
              fact("tx-old", "lena", "I still use my old sewing machine.", 1)], [
        ("How old is my grandson?", V, ["tx-leo"], ["tx-old"], "twin: an age with a number answers"),
        ("How old is Léo?", V, ["tx-leo"], ["tx-old"], "twin: asked by name"),
        ("How old is my sister?", U, [], ["tx-leo", "tx-old", "tx-mum"], "the grandson's age is not the sister's"),
        ("How old is my sewing machine?", U, [], ["tx-old"], "'my old sewing machine' states no age"),
    ]),
]


def cases():
    return dev8_cases(STORES, 901)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
