"""Generate trust-dev10.jsonl: what a question asks for, checked against what a record states
(issue 13, session 7, typed).

Written before any code change, from an outside tester's VERIFIED answers whose first cited record
shares words with the question and does not state what it asks (the right record cited second or
third), in other words and other personas. Shapes: "how far" asks a distance, "how often" a
frequency, "how much ... cost" an amount, "how long" a duration, "what time" a clock time, "who
<verb>" the one who did it, "what is X <verb>ing" what X does; a current keyed fact stating the
value comes before a conversation turn that merely mentions it. Beside twins that must still answer
("How far is the station?" / "The station is 2 km away.").

Two kinds of case:
- ordering: the answer is VERIFIED on main too, but a record that does not state what is asked is
  cited before the one that does: that record is a ``hard_negative`` (the report's
  ``hard_negative_outranked`` counts the cases where it comes before the first expected record);
- abstention: no record states what is asked, and the record sharing the question's words answered
  VERIFIED: it is ``forbidden`` and the state UNKNOWN.

    python benchmarks/gold/trust_dev10_cases.py > benchmarks/gold/trust-dev10.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import fact, turn  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

# (user, setup, [(question, state, expected, forbidden, hard negatives, description)])
STORES = [
    ("maya", [fact("tx-cycle", "maya", "I cycle about 12 km to the office every day.", 1, "user.commute"),
              fact("tx-sofar", "maya", "So far I cycle to the office each day without a fall.", 2),
              fact("tx-dentist", "maya", "I go to the dentist twice a year.", 1, "user.dentist"),
              fact("tx-dentist-turn", "maya", "I see the dentist tomorrow, my tooth hurts.", 2),
              fact("tx-parking", "maya", "My parking space costs too much.", 2),
              fact("tx-parking-price", "maya", "I pay 90 euros a month for the parking space.", 2),
              fact("tx-physio", "maya", "My physio is called Nadia.", 1, "user.physio"),
              fact("tx-gym", "maya", "My gym membership renews in May.", 1, "user.gym"),
              fact("tx-bakery", "maya", "The bakery on my street is my favourite so far.", 1),
              fact("tx-pool", "maya", "The pool reopened after the repairs.", 1),
              fact("tx-station", "maya", "The station is 2 km away.", 1, "user.station"),
              fact("tx-swim", "maya", "I swim twice a week.", 1, "user.swim"),
              fact("tx-weigh", "maya", "I weigh 64 kg.", 1, "user.weight")], [
        ("How far do I cycle to the office each day?", V, ["tx-cycle"], [], ["tx-sofar"],
         "'how far' asks a distance: 'so far' states none, the 12 km fact answers first"),
        ("How often do I see the dentist?", V, ["tx-dentist"], [], ["tx-dentist-turn"],
         "'how often' asks a frequency: 'I see the dentist tomorrow' states none, 'twice a year' answers first"),
        ("How much does my parking space cost?", V, ["tx-parking-price"], [], ["tx-parking"],
         "'how much ... cost' asks an amount: 'costs too much' states none, the 90 euros answers first"),
        ("How often do I see my physio?", U, [], ["tx-physio"], [],
         "no record states a frequency: the physio's name does not answer 'how often'"),
        ("How much does my gym membership cost?", U, [], ["tx-gym"], [],
         "no record states an amount: the renewal month does not answer 'how much'"),
        ("How far is the bakery?", U, [], ["tx-bakery"], [],
         "no record states a distance: 'my favourite so far' does not answer 'how far'"),
        ("What time does the pool open?", U, [], ["tx-pool"], [],
         "no record states a clock time: 'reopened after the repairs' does not answer 'what time'"),
        ("How far is the station?", V, ["tx-station"], [], [], "twin: '2 km away' answers 'how far'"),
        ("How often do I swim?", V, ["tx-swim"], [], [], "twin: 'twice a week' answers 'how often'"),
        ("How much do I weigh?", V, ["tx-weigh"], [], [], "twin: '64 kg' answers 'how much'"),
    ]),
    # the third person of an assistant's notes ("The user's ..."), a current fact beside turns
    ("theo", [fact("tx-run", "theo", "The user runs 8 km every Sunday morning.", 1, "user.running"),
              fact("tx-run-turn", "theo", "I run on Sundays, so far so good.", 2),
              fact("tx-choir-meet", "theo", "The user's choir meets on Tuesdays this season.", 1,
                   "user.choir"),
              fact("tx-choir-piece", "theo", "The user's choir sings the Fauré Requiem.", 1,
                   "user.choir_piece"),
              fact("tx-commute", "theo", "The user's commute takes 40 minutes by tram.", 1, "user.commute"),
              fact("tx-commute-turn", "theo", "What a long day, the tram commute was packed again.", 2),
              fact("tx-rent", "theo", "The user rents a flat in the old town.", 1, "user.flat"),
              fact("tx-rent-price", "theo", "Rent for the flat is 850 euros a month.", 2)], [
        ("How far do I run on Sundays?", V, ["tx-run"], [], ["tx-run-turn"],
         "variant, third person: the 8 km fact answers before 'fine so far'"),
        ("What is the choir singing this season?", V, ["tx-choir-piece"], [], ["tx-choir-meet"],
         "'what is the choir singing' asks what it sings: the meeting-day fact does not say"),
        ("How long is my commute?", V, ["tx-commute"], [], ["tx-commute-turn"],
         "'how long' asks a duration: 'a long day' states none, '40 minutes' answers first"),
        ("How much is the rent for my flat?", V, ["tx-rent-price"], [], ["tx-rent"],
         "variant: the amount answers before the flat fact without a price"),
    ]),
    # a conversation (turns) beside the speaker's keyed facts
    ("nina", [fact("tx-van", "nina", "My car is a Volkswagen camper van.", 1, "user.car"),
              turn("tx-van-turn", "nina", "nina", "I'll drive you to the market on Saturday, there's room.", 2),
              fact("tx-boat", "nina", "My boat is moored in the harbour at Sète.", 1, "user.boat_mooring"),
              turn("tx-boat-turn", "nina", "nina", "Yes, the mooring there is cheaper, 900 euros a year.", 2),
              fact("tx-novel", "nina", "Our reading circle is reading Germinal by Zola.", 1, "user.reading"),
              turn("tx-novel-turn", "nina", "nina", "The reading circle picked Germinal, I suggested it.", 2)], [
        ("What car do I drive now?", V, ["tx-van"], [], ["tx-van-turn"],
         "the current keyed fact stating the car comes before a turn that only mentions driving"),
        ("Where is my boat moored now?", V, ["tx-boat"], [], ["tx-boat-turn"],
         "the keyed fact naming the harbour comes before a turn saying only 'there'"),
        ("Who suggested Germinal to the reading circle?", V, ["tx-novel-turn"], [], ["tx-novel"],
         "'who suggested' asks who did it: the fact naming the book and its author does not say"),
        ("How much is the mooring?", V, ["tx-boat-turn"], [], ["tx-boat"],
         "the turn stating the price answers before the fact without one"),
        ("What is the reading circle reading?", V, ["tx-novel"], [], [],
         "twin: the book answers"),
    ]),
]


def cases(first=1001, stores=None):
    """The cases of ``stores`` (default: this file's), numbered from ``first``: trust_dev13_cases.py
    writes its own stores through it."""
    n = first
    for user, setup, qs in (STORES if stores is None else stores):
        for q, state, exp, forb, hard, desc in qs:
            unknown = state == U
            yield {"case_id": "gold_trust_%d" % n, "category": "trust", "description": desc,
                   "setup": sorted(setup, key=lambda step: step["at"]),
                   "query": {"text": q, "user": user, "as_of": None, "recorded_as_of": None, "include_inactive": False},
                   "expect": {"knowledge_state": state, "reason_code": "insufficient_evidence" if unknown else None,
                              "expected": exp, "forbidden": forb, "hard_negatives": hard,
                              "stale_or_retired_trap": False}}
            n += 1


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
