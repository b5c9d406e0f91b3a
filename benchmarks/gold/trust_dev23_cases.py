"""Generate trust-dev23.jsonl: which time answers (issue 13, session 11, when11).

Written before any code change, from the kinds of wrong answer two new people's stores showed (the
lead's paraphrase, not their cases), in other words, personas and cities, each beside twins that
must still answer:
W1 "now" / "these days" / "still": what the user does now is answered by the record saying it ended
   or changed ("I packed in the job at the council in March", "I'm doing supply teaching now"), not
   by an unrelated recent record; "Am I still at <employer>?" is answered (no) by the record saying
   the user left it;
W2 "so far" / "have I done": the latest cumulative count of done things answers, not an older
   count, and never a count of what is left ("still 212 to go");
W3 "in <a town I used to live in>": the link of the asked slot valid while the home slot held that
   town answers (VERIFIED_HISTORICAL), not the current link;
W4 a relative period ("last week", "on Thursday", "last month"): the user's own turn told in that
   period about the asked thing answers, not the standing record about it;
W5 a measurement of the asked period beats a habitual rate; number words are numbers;
W6 "how long / how many years": a record stating a duration answers, not one naming the place;
W7 starting values: "when I was diagnosed" / "did I start on" select the first link of the slot, and
   the asked kind (a dose, a value) must be held (a plan to start holds no dose).

Cases marked "held back" in their description are the held-back half (README row): not looked at
while fixing, reported apart.

    python benchmarks/gold/trust_dev23_cases.py > benchmarks/gold/trust-dev23.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev7_cases import fact, turn, update  # noqa: E402
from trust_dev11_cases import late  # noqa: E402
from trust_dev14_cases import cases as dev14_cases  # noqa: E402

V, H, U = "VERIFIED", "VERIFIED_HISTORICAL", "UNKNOWN"
IE = "insufficient_evidence"
AT = "2025-06-02T09:00:00Z"     # a Monday; "last week" is 26 May - 1 June
HB = "held back: "

# a housing officer in Dundee who left the council; a tally of munros; a GP in the town she left
MORAG = [late(fact("tx-job", "morag", "I work as a housing officer for Dundee City Council.", "2023-01-10",
                   "user.job"), "2016-04-01"),
         turn("tx-t-left", "morag", "Morag", "I packed in the job at the council in March, I'm not working at "
              "the moment.", "2025-04-02T19:00:00Z", "session_2"),
         fact("tx-bloods", "morag", "My iron levels came back normal from the blood test.", "2025-05-28",
              "user.iron"),
         fact("tx-plan", "morag", "Planning to redo the bathroom over the summer.", "2025-05-30", "user.plans"),
         turn("tx-t-munro1", "morag", "Morag", "I've climbed 70 munros, still 212 to go!", "2024-08-10T18:00:00Z",
              "session_1"),
         turn("tx-t-munro2", "morag", "Morag", "Ben Lawers at the weekend took my tally of munros to 94.",
              "2025-05-12T18:00:00Z", "session_3"),
         late(fact("tx-home", "morag", "I live in Perth.", "2023-01-10", "user.home_city"), "2012-06-01"),
         update("tx-home2", "morag", "tx-home", "We moved to Dundee in the autumn.", "2023-11-02", "user.home_city"),
         late(fact("tx-gp", "morag", "My GP is Dr Lindsay at the Crieff Road practice.", "2023-01-10", "user.gp"),
              "2014-01-01"),
         update("tx-gp2", "morag", "tx-gp", "My new GP is Dr Banerjee at the Lochee health centre.", "2023-12-01",
                "user.gp"),
         fact("tx-sister", "morag", "My sister works as a midwife in Perth.", "2023-01-10", "sister.job")]

# a cyclist in Antwerp now doing supply work; a consultant and a fracture
PIETER = [late(fact("tx-job", "pieter", "I'm a maths teacher at the Sint-Lievenscollege.", "2024-09-01",
                    "user.job"), "2010-09-01"),
          turn("tx-t-supply", "pieter", "Pieter", "Left Sint-Lieven at Easter, I'm doing supply teaching now.",
               "2025-04-25T20:00:00Z", "session_2"),
          fact("tx-cholesterol", "pieter", "My cholesterol test came back at 5.2.", "2025-05-29", "user.cholesterol"),
          fact("tx-cycle", "pieter", "I cycle about 150 km a week.", "2024-09-01", "user.cycling"),
          turn("tx-t-week", "pieter", "Pieter", "Legs are dead, did two hundred and ten k on the bike this week.",
               "2025-05-31T19:00:00Z", "session_3"),
          fact("tx-consultant", "pieter", "My consultant at the ZNA Middelheim is Dr Claes.", "2025-02-01",
               "user.consultant"),
          turn("tx-t-claes", "pieter", "Pieter", "Saw Dr Claes on Wednesday, the scan shows a stress fracture in "
               "my shin.", "2025-05-28T18:00:00Z", "session_3"),
          fact("tx-bank", "pieter", "Our mortgage is with KBC.", "2024-03-01", "user.bank")]

# a runner in Leipzig: a habitual rate and a week told in number words; the years at a firm; a dose
HANNA = [fact("tx-run", "hanna", "I run about 40 km a week.", "2024-10-01", "user.running"),
         turn("tx-t-run", "hanna", "Hanna", "Only managed twenty-six kilometres of running this week with the cold.",
              "2025-05-30T19:00:00Z", "session_4"),
         fact("tx-siemens", "hanna", "I worked at Siemens in Erlangen.", "2024-10-01", "user.former_job"),
         turn("tx-t-siemens", "hanna", "Hanna", "Seventeen years at Siemens, then they closed the Erlangen lab.",
              "2025-02-11T19:00:00Z", "session_2"),
         turn("tx-t-tabs", "hanna", "Hanna", "I start the blood pressure tablets next week.",
              "2025-03-03T19:00:00Z", "session_2"),
         fact("tx-ramipril", "hanna", "I'm on 2.5 mg of ramipril for my blood pressure.", "2025-03-12",
              "user.ramipril"),
         update("tx-ramipril2", "hanna", "tx-ramipril", "The doctor put my ramipril up to 5 mg.", "2025-05-06",
                "user.ramipril"),
         fact("tx-bp", "hanna", "My blood pressure was 162 over 98 when they diagnosed it.", "2025-03-01",
              "user.bp_diagnosis"),
         fact("tx-bp2", "hanna", "My blood pressure is down to 131 over 84.", "2025-05-20", "user.bp")]

# a retired nurse in Galway: a flat sale, a solicitor, a count of quilts; an HbA1c first and now
ROISIN = [late(fact("tx-hba1c", "roisin", "My HbA1c was 61 when I was diagnosed.", "2024-01-15", "user.hba1c"),
               "2023-11-20"),
          update("tx-hba1c2", "roisin", "tx-hba1c", "My HbA1c is down to 47 now.", "2025-04-20", "user.hba1c"),
          fact("tx-solicitor", "roisin", "Our solicitor for the flat sale is Aoife Brennan in Eyre Square.",
               "2025-03-01", "user.solicitor"),
          turn("tx-t-sale", "roisin", "Roisin", "Great news about the flat, the buyers signed the contracts on "
               "Thursday.", "2025-05-29T20:00:00Z", "session_4"),
          turn("tx-t-quilt1", "roisin", "Roisin", "I've made 12 quilts for the hospice, 8 left to go this year.",
               "2025-01-20T20:00:00Z", "session_1"),
          turn("tx-t-quilt2", "roisin", "Roisin", "Finished another two, that's 16 quilts for the hospice so far.",
               "2025-05-10T20:00:00Z", "session_3"),
          late(fact("tx-ward", "roisin", "I worked on the cardiac ward at University Hospital Galway.", "2024-01-15",
                    "user.former_job"), "1988-01-01"),
          late(fact("tx-home", "roisin", "I live in Westport.", "2024-01-15", "user.home_city"), "2001-01-01"),
          update("tx-home2", "roisin", "tx-home", "We moved to Galway to be near the grandchildren.", "2024-09-01",
                 "user.home_city"),
          late(fact("tx-choir", "roisin", "I sing in the Westport community choir.", "2024-01-15", "user.choir"),
               "2005-01-01"),
          update("tx-choir2", "roisin", "tx-choir", "I joined the Galway Cathedral choir.", "2024-10-01",
                 "user.choir")]

# (user, setup, [(question, state, reason, expected, forbidden, hard negatives, as_of, at, description)])
STORES = [
    ("morag", MORAG, [
        ("What do I do for work these days?", V, None, ["tx-t-left"], ["tx-bloods", "tx-plan"], ["tx-job"], None, AT,
         "W1: the turn saying the job ended answers now, not a recent blood result or plan"),
        ("Am I still working for the council?", V, None, ["tx-t-left"], ["tx-bloods"], ["tx-job"], None, AT,
         "W1: a 'still' yes/no answered (no) by the record saying the user left"),
        ("How many munros have I climbed so far?", V, None, ["tx-t-munro2"], ["tx-t-munro1"], [], None, AT,
         "W2: the later tally answers 'so far', not the older count nor what is left"),
        ("Who was my GP in Perth?", H, None, ["tx-gp"], ["tx-gp2"], [], None, AT,
         "W3: the GP link valid while the home slot held Perth"),
        ("What do I do these days?", V, None, ["tx-t-left"], ["tx-bloods", "tx-plan"], ["tx-job"], None, AT,
         "W1 variant: 'these days' with no word of work"),
        ("Who is my GP?", V, None, ["tx-gp2"], ["tx-gp"], [], None, AT, "twin: today's GP"),
        ("What does my sister do?", V, None, ["tx-sister"], [], [], None, AT, "twin: a standing fact"),
    ]),
    ("pieter", PIETER, [
        ("What's my job now?", V, None, ["tx-t-supply"], ["tx-cholesterol"], ["tx-job"], None, AT,
         "W1: 'I'm doing supply teaching now' answers now"),
        ("Do I still teach at the Sint-Lievenscollege?", V, None, ["tx-t-supply"], ["tx-cholesterol"], ["tx-job"],
         None, AT, HB + "W1 variant: a 'still' yes/no about an employer the user left"),
        ("What did the consultant tell me last week?", V, None, ["tx-t-claes"], ["tx-consultant"], [], None, AT,
         "W4: the turn told last week about the consultant answers, not the standing record"),
        ("How far did I cycle last week?", V, None, ["tx-t-week"], ["tx-cycle"], [], None, AT,
         "W5: the week's distance in number words beats the habitual rate"),
        ("What did Dr Claes say on Wednesday?", V, None, ["tx-t-claes"], ["tx-consultant"], [], None, AT,
         "W4 variant: a weekday without 'last', the consultant named"),
        ("How far do I cycle in a week?", V, None, ["tx-cycle"], [], ["tx-t-week"], None, AT,
         "twin: the habitual rate answers a habitual question"),
        ("Who is my consultant?", V, None, ["tx-consultant"], [], ["tx-t-claes"], None, AT, "twin: the standing record"),
        ("Which bank is our mortgage with?", V, None, ["tx-bank"], [], [], None, AT, "twin: a standing fact"),
    ]),
    ("hanna", HANNA, [
        ("How far did I run last week?", V, None, ["tx-t-run"], ["tx-run"], [], None, AT,
         HB + "W5 variant: twenty-six kilometres told in the week, not 40 km a week"),
        ("How many years did I work at Siemens?", V, None, ["tx-t-siemens"], ["tx-siemens"], [], None, AT,
         "W6: a duration in number words answers how many years, not the record naming the firm"),
        ("What dose of ramipril did I start on?", H, None, ["tx-ramipril"], ["tx-t-tabs", "tx-ramipril2"], [], None,
         AT, "W7: the first link of the dose slot, not the plan to start nor today's dose"),
        ("What was my blood pressure when I was diagnosed?", V, None, ["tx-bp"], ["tx-bp2"], [], None, AT,
         HB + "W7 variant: the value stated at the diagnosis, not the latest"),
        ("What dose of ramipril am I on?", V, None, ["tx-ramipril2"], ["tx-ramipril", "tx-t-tabs"], [], None, AT,
         "twin: today's dose"),
        ("Where did I work?", V, None, ["tx-siemens"], [], ["tx-t-siemens"], None, AT, "twin: the firm named"),
    ]),
    ("roisin", ROISIN, [
        ("What was my HbA1c when I was diagnosed?", H, None, ["tx-hba1c"], ["tx-hba1c2"], [], None, AT,
         HB + "W7: the first link of the slot, not today's value"),
        ("What happened with the flat sale last week?", V, None, ["tx-t-sale"], ["tx-solicitor"], [], None, AT,
         HB + "W4 variant: the turn about the sale told last week, not the solicitor's record"),
        ("How many quilts have I made so far?", V, None, ["tx-t-quilt2"], ["tx-t-quilt1"], [], None, AT,
         HB + "W2 variant: 16 so far, not the older 12 nor 8 left"),
        ("Which choir did I sing in when I lived in Westport?", H, None, ["tx-choir"], ["tx-choir2"], [], None, AT,
         HB + "W3 variant: the choir link valid while the user lived in Westport"),
        ("How many years did I work on the cardiac ward?", U, IE, [], ["tx-ward"], [], None, AT,
         HB + "W6 hard negative: the ward is named, no duration stated"),
        ("What is my HbA1c?", V, None, ["tx-hba1c2"], ["tx-hba1c"], [], None, AT, "twin: today's value"),
        ("Which choir do I sing in?", V, None, ["tx-choir2"], ["tx-choir"], [], None, AT, "twin: today's choir"),
    ]),
]


def cases():
    return dev14_cases(STORES, 2301)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
