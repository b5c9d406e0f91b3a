"""Generate trust-dev20.jsonl: then, not now (issue 13, session 10, past10).

Written before any code change, from the kinds of wrong answer two new people's stores showed (the
lead's description, not their cases), in other words, personas and cities, each beside twins that
must still answer:
B1 a PAST value asked by "before <event>" ("before I got faster", "before the landlord put it up",
   "before we refinanced") wants the link of the slot valid before the current one, never the
   current value nor an unrelated record;
B2 "What did I do last weekend?" / "What did I get up to last week?" / "Where did I go last
   Saturday?" wants something the user DID in the period (their own turn said or dated then), not
   a keyed fact that merely was recorded then (a blood result, a bill);
B3 a year named in the question ("How many km did I cycle in 2023?") brings the record stating or
   valid in that year first; the other years' records are context at most;
B4 a yes/no "still/ever" question about a habit ("Do I still go to Tarifa?") needs a record stating
   the habit, not one that only names the place (a complaint about the bus fare there);
B5 an UNKNOWN's reason comes from the matches about the question: records about the user's age
   matching "year" do not make "How far did I swim last year?" `retired_or_expired`.

Cases marked "held back" in their description are the held-back half (README row): not looked at
while fixing, reported apart.

    python benchmarks/gold/trust_dev20_cases.py > benchmarks/gold/trust-dev20.jsonl
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
AT = "2025-06-02T09:00:00Z"     # a Monday
HB = "held back: "

# a cyclist in Gdańsk: replaced values, yearly totals, a weekend told in turns
TOMASZ = [late(fact("tx-ftp", "tomasz", "My FTP on the bike is 210 watts.", "2024-04-01", "user.ftp"), "2023-10-01"),
          update("tx-ftp2", "tomasz", "tx-ftp", "After the winter block my FTP went up to 245 watts.", "2025-03-15",
                 "user.ftp"),
          fact("tx-loan", "tomasz", "Our car loan costs 1,100 zloty a month.", "2024-02-01", "user.car_loan"),
          update("tx-loan2", "tomasz", "tx-loan", "We refinanced the car loan, it is 890 zloty a month now.",
                 "2025-01-20", "user.car_loan"),
          fact("tx-km23", "tomasz", "I cycled 4,900 km in 2023.", "2024-01-03", "cycling.km_2023"),
          fact("tx-km24", "tomasz", "I cycled 6,200 km in 2024.", "2025-01-02", "cycling.km_2024"),
          fact("tx-rhr", "tomasz", "My resting heart rate is 48 beats a minute.", "2025-05-31T18:00:00Z",
               "user.resting_hr"),
          fact("tx-club", "tomasz", "I ride with the Oliwa cycling club.", "2024-02-01", "user.club"),
          turn("tx-t-kashuby", "tomasz", "Tomasz", "Rode the Kashubian lakes loop with the club on Saturday, 140 km "
               "in the rain.", "2025-05-31T20:00:00Z", "session_4"),
          turn("tx-t-bus", "tomasz", "Tomasz", "The bus to Sopot costs a fortune since the new fares.",
               "2025-05-20T10:00:00Z", "session_3"),
          turn("tx-t-sopot", "tomasz", "Tomasz", "I ride out to Sopot most Sunday mornings for coffee.",
               "2025-04-06T10:00:00Z", "session_2")]

# a teacher in Bilbao: rent and commute replaced, an age updated, a weekend told in turns
AMAIA = [late(fact("tx-rent", "amaia", "My rent is 720 euros a month.", "2023-09-01", "user.rent"), "2022-09-01"),
         update("tx-rent2", "amaia", "tx-rent", "The landlord put my rent up to 810 euros a month.", "2025-01-05",
                "user.rent"),
         fact("tx-commute", "amaia", "My commute to school takes 50 minutes by bus.", "2024-09-01", "user.commute"),
         update("tx-commute2", "amaia", "tx-commute", "Since the metro line opened my commute is 25 minutes.",
                "2025-04-01", "user.commute"),
         fact("tx-age", "amaia", "I am 29 years old.", "2024-09-01", "user.age"),
         update("tx-age2", "amaia", "tx-age", "I turned 30 years old in March.", "2025-03-20", "user.age"),
         fact("tx-years", "amaia", "I have taught at the ikastola for six years.", "2024-09-01", "user.tenure"),
         fact("tx-gas", "amaia", "My gas bill for May was 64 euros.", "2025-05-31T12:00:00Z", "user.gas_bill"),
         turn("tx-t-balcony", "amaia", "Amaia", "Spent the whole of Saturday painting the balcony railings with my "
              "dad.", "2025-05-31T19:00:00Z", "session_5"),
         turn("tx-t-mundaka", "amaia", "Amaia", "Drove to Mundaka on Sunday to watch the surfers.",
              "2025-06-01T19:00:00Z", "session_5"),
         turn("tx-t-ferry", "amaia", "Amaia", "The ferry to Plentzia is ridiculously expensive this summer.",
              "2025-05-10T19:00:00Z", "session_4"),
         fact("tx-txoko", "amaia", "I go to the txoko in Getxo every Thursday for dinner with friends.",
              "2024-09-01", "user.txoko")]

# a nurse in Leeds: a phone contract switched, a weight before a diet, a week told in turns
KWAME = [late(fact("tx-phone", "kwame", "My phone contract is 38 pounds a month.", "2024-03-01", "user.phone"),
              "2023-03-01"),
         update("tx-phone2", "kwame", "tx-phone", "I switched to a SIM-only deal for 12 pounds a month.",
                "2025-02-10", "user.phone"),
         fact("tx-weight", "kwame", "I weigh 96 kilos.", "2024-05-01", "user.weight"),
         update("tx-weight2", "kwame", "tx-weight", "Down to 88 kilos after cutting out sugar.", "2025-04-20",
                "user.weight"),
         fact("tx-salary23", "kwame", "In 2023 my salary was 34,000 pounds.", "2024-01-10", "salary.2023"),
         fact("tx-salary24", "kwame", "My salary in 2024 was 37,500 pounds.", "2025-01-10", "salary.2024"),
         fact("tx-bloods", "kwame", "My HbA1c came back at 41 on the last blood test.", "2025-05-28T12:00:00Z",
              "user.hba1c"),
         fact("tx-age", "kwame", "I am 38 years old.", "2024-03-01", "user.age"),
         update("tx-age2", "kwame", "tx-age", "I am 39 years old now.", "2025-02-01", "user.age"),
         turn("tx-t-week", "kwame", "Kwame", "Did three night shifts on the ward and took my niece to the Royal "
              "Armouries on Thursday.", "2025-05-29T21:00:00Z", "session_6"),
         turn("tx-t-harrogate", "kwame", "Kwame", "Parking in Harrogate costs more than the lunch.",
              "2025-05-15T21:00:00Z", "session_5"),
         turn("tx-t-gym", "kwame", "Kwame", "I go to the gym on Kirkstall Road three times a week.",
              "2025-03-01T21:00:00Z", "session_3")]

# (user, setup, [(question, state, reason, expected, forbidden, hard negatives, as_of, at, description)])
STORES = [
    ("tomasz", TOMASZ, [
        ("What was my FTP before I got fitter?", H, None, ["tx-ftp"], ["tx-ftp2"], [], None, AT,
         "B1: 'before <event>' asks the replaced link, not today's 245 watts"),
        ("What did the car loan cost each month before we refinanced?", H, None, ["tx-loan"], ["tx-loan2"], [], None,
         AT, HB + "B1 variant: 'before we refinanced'"),
        ("What is my FTP?", V, None, ["tx-ftp2"], ["tx-ftp"], [], None, AT, "B1 twin: today's value"),
        ("What did I do last weekend?", V, None, ["tx-t-kashuby"], ["tx-rhr"], [], None, AT,
         "B2: the heart rate recorded on Saturday is no activity; the Saturday ride is"),
        ("Where did I ride last Saturday?", V, None, ["tx-t-kashuby"], ["tx-rhr"], ["tx-club"], None, AT,
         HB + "B2 variant: 'last Saturday' (the standing club fact, first written forbidden, is a hard negative: "
         "it holds every asked term and held then, which features.period_needs_time lets answer)"),
        ("How many km did I cycle in 2023?", V, None, ["tx-km23"], ["tx-ftp"], ["tx-km24"], None, AT,
         "B3: the record stating 2023 first, 2024's is context; the FTP held then is no distance"),
        ("How many km did I cycle in 2024?", V, None, ["tx-km24"], ["tx-ftp"], ["tx-km23"], None, AT,
         HB + "B3 variant: the other year"),
        ("Do I still go to Sopot?", V, None, ["tx-t-sopot"], ["tx-t-bus"], [], None, AT,
         "B4 twin: a turn stating the habit answers; the bus fare does not"),
        ("Which club do I ride with?", V, None, ["tx-club"], [], [], None, AT, "twin: a standing fact"),
    ]),
    ("amaia", AMAIA, [
        ("What was my rent before the landlord put it up?", H, None, ["tx-rent"], ["tx-rent2"], [], None, AT,
         "B1: 'before the landlord put it up' asks the replaced rent"),
        ("How long was my commute before the metro opened?", H, None, ["tx-commute"], ["tx-commute2"], [], None, AT,
         HB + "B1 variant: 'before the metro opened'"),
        ("How much is my rent?", V, None, ["tx-rent2"], ["tx-rent"], [], None, AT, "B1 twin: today's rent"),
        ("What did I do last weekend?", V, None, ["tx-t-balcony"], ["tx-gas"], [], None, AT,
         "B2: the gas bill recorded on Saturday is no activity"),
        ("What did I get up to on Saturday?", V, None, ["tx-t-balcony"], ["tx-gas"], [], None, AT,
         HB + "B2 variant: 'on Saturday' (the last one)"),
        ("Do I still take the ferry to Plentzia?", U, IE, [], ["tx-t-ferry"], [], None, AT,
         "B4: a complaint about the fare states no habit"),
        ("Do I still go to Plentzia?", U, IE, [], ["tx-t-ferry"], [], None, AT,
         HB + "B4 variant: 'go' with a place only named in a complaint"),
        ("Do I still go to the txoko?", V, None, ["tx-txoko"], [], [], None, AT, "B4 twin: the habit stated"),
        ("How far did I swim last year?", U, IE, [], ["tx-age", "tx-age2"], [], None, AT,
         "B5: the age records share only 'year'; the reason comes from nothing about swimming"),
        ("How many lengths did I swim in 2024?", U, IE, [], ["tx-age", "tx-years"], [], None, AT,
         HB + "B5 variant: a year named"),
    ]),
    ("kwame", KWAME, [
        ("What did my phone contract cost before I switched?", H, None, ["tx-phone"], ["tx-phone2"], [], None, AT,
         "B1 twin (before a change verb answers on main)"),
        ("How much did I weigh before I cut out sugar?", H, None, ["tx-weight"], ["tx-weight2"], [], None, AT,
         "B1: 'before I cut out sugar' names the change the update tells"),
        ("What was my weight before the diet?", H, None, ["tx-weight"], ["tx-weight2"], [], None, AT,
         HB + "B1 variant: 'before the diet'"),
        ("What did I get up to last week?", V, None, ["tx-t-week"], ["tx-bloods"], [], None, AT,
         "B2: the blood result recorded in the week is no activity"),
        ("What was my salary in 2023?", V, None, ["tx-salary23"], [], ["tx-salary24"], None, AT,
         "B3: the 2023 salary first"),
        ("What was my salary in 2024?", V, None, ["tx-salary24"], [], ["tx-salary23"], None, AT,
         HB + "B3 variant"),
        ("Do I ever go to Harrogate?", U, IE, [], ["tx-t-harrogate"], [], None, AT,
         "B4: parking prices there state no visit habit"),
        ("Do I still go to the gym?", V, None, ["tx-t-gym"], [], [], None, AT, "B4 twin: the habit stated"),
        ("How far did I run last year?", U, IE, [], ["tx-age", "tx-age2"], [], None, AT,
         "B5: the age records share only 'year'"),
        ("How much do I weigh?", V, None, ["tx-weight2"], ["tx-weight"], [], None, AT, "twin: today's weight"),
    ]),
]


def cases():
    return dev14_cases(STORES, 2001)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
