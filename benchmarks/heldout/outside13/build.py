"""Build a store for one invented person: Henrik Lindqvist, 51 (52 from August), marine engineer in Gothenburg.
python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "henrik"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (36 keys, 11 updated, 3 negatives)
add("user.name", "My name is Henrik Lindqvist.", "2026-01-03")
add("user.age", "I am 51 years old.", "2026-01-03")
add("user.birthday", "My birthday is 14 August.", "2026-01-03")
add("user.job", "I'm chief engineer on the Stena Danica ferry between Gothenburg and Frederikshavn.", "2009-03-01", aliases=["job", "work"])
add("user.rota", "I work two weeks on board, then two weeks off.", "2009-03-01", aliases=["rota", "schedule", "working hours"])
add("user.salary", "I earn 62,000 kronor a month before tax.", "2025-01-01", aliases=["salary", "pay", "wage"])
add("user.home_city", "I live in Gothenburg.", "1996-09-01", aliases=["home city"])
add("user.home", "We own a terraced house in Majorna.", "2012-05-01", aliases=["home", "house"])
add("user.mortgage", "Our mortgage is 11,400 kronor a month.", "2024-01-01", aliases=["mortgage", "housing cost"])
add("user.partner", "My partner Sofia teaches maths at a gymnasium in Mölndal.", "2026-01-03", aliases=["partner", "wife", "Sofia"])
add("user.daughter", "Our daughter Elin is 24 and works as an architect in Copenhagen.", "2026-01-03", aliases=["daughter", "child"])
add("user.son", "Our son Oskar is 21 and studies medicine in Uppsala.", "2026-01-03", aliases=["son", "child"])
add("user.sister", "My sister Karin is a vet in Umeå.", "2026-01-03", aliases=["sister", "sibling"])
add("user.father", "My dad Göran is 79 and lives in a care home in Borås.", "2026-01-03", aliases=["father", "dad"])
add("user.boat", "I have a 1979 Albin Vega sailing boat called Tärnan, moored at Långedrag.", "2015-06-01", aliases=["boat", "sailboat"])
add("user.sailing_miles", "I sailed 1,150 nautical miles in 2025.", "2025-12-31", aliases=["sailing distance"])
add("user.chess_club", "I play chess for SK Kamraterna on Thursday evenings.", "2018-09-01", aliases=["chess", "hobby", "club"])
add("user.chess_rating", "My chess rating is 1840.", "2025-12-01", aliases=["chess rating", "Elo", "rating"])
add("user.hypertension", "I have high blood pressure, diagnosed in 2022.", "2022-10-01", aliases=["blood pressure", "diagnosis"])
add("user.medication", "I take amlodipine 5 mg every morning.", "2022-10-15", aliases=["medication", "tablets", "pills"])
add("user.doctor", "My doctor is Dr Berglund at the Masthugget vårdcentral.", "2016-02-01", aliases=["doctor", "GP"])
add("user.savings", "We have 340,000 kronor in an index fund at Avanza.", "2025-12-01", aliases=["savings", "investments"])
add("user.pension", "I plan to retire at 60.", "2024-01-01", aliases=["pension", "retirement"])
add("user.car", "We drive a 2019 Volvo V60 plug-in hybrid.", "2020-02-01", aliases=["car"])
add("user.commute", "I cycle to the Stena terminal, about 15 minutes.", "2012-05-01", aliases=["commute"])
add("user.trip", "We're going to Japan for three weeks in April 2027.", "2026-10-20", aliases=["trip", "travel plans", "holiday plans"])
add("user.summer_holiday", "We sailed Tärnan to the Koster islands in July 2026.", "2026-07-25", aliases=["holiday", "summer"])
add("user.languages", "I speak Swedish, English and some German.", "2026-01-03", aliases=["languages"])
add("user.football", "I support IFK Göteborg.", "1980-01-01", aliases=["football team"])
add("user.running", "I run 5 km parkrun at Slottsskogen on Saturdays when I'm ashore.", "2023-04-01", aliases=["running", "parkrun"])
add("user.allergy", "I'm allergic to cats.", "1990-01-01", aliases=["allergy"])
add("user.no_smoking", "I don't smoke.", "2005-01-01", kind="negative")
add("user.no_coffee", "I don't drink coffee.", "2015-01-01", kind="negative")
add("user.no_facebook", "I'm not on Facebook.", "2020-01-01", kind="negative")
add("user.knee", "I tore the meniscus in my left knee in May 2026 and had keyhole surgery.", "2026-06-02", aliases=["knee", "injury", "surgery"])
add("user.union", "I'm a member of the Sjöbefälsföreningen officers' union.", "2010-01-01", aliases=["union"])

# ---- updates over the year
upd("user.job", "I'm now a shore-based technical superintendent at Vattenfall's offshore wind service base in Varberg.", "2026-05-04")
upd("user.rota", "I work Monday to Friday, 7:30 to 16:00, ashore.", "2026-05-04")
upd("user.salary", "I earn 71,000 kronor a month at Vattenfall.", "2026-05-04")
upd("user.commute", "I take the train to Varberg, about 45 minutes each way.", "2026-05-04")
upd("user.medication", "My amlodipine went up to 10 mg every morning.", "2026-03-09")
upd("user.chess_rating", "My chess rating is now 1912.", "2026-10-05")
upd("user.age", "I am 52 years old.", "2026-08-14")
upd("user.home", "We sold the Majorna house and bought a flat in Kungsbacka.", "2026-09-26")
upd("user.mortgage", "Our mortgage is 8,900 kronor a month on the Kungsbacka flat.", "2026-09-26")
upd("user.savings", "We have 415,000 kronor in the Avanza index fund.", "2026-11-01")
upd("user.running", "I've stopped running since the knee surgery; I swim 1,500 m twice a week instead.", "2026-06-15")

# ---- conversation turns with Tobias, a second engineer on the Stena Danica
H, T = "Henrik", "Tobias"
SESSIONS = [
    ("s1", "2026-01-20T18:00:00Z", [
        (T, "Henrik, Maja and I are expecting our second baby in July."),
        (H, "Congratulations! Sofia will be thrilled, she still has Alva's drawing on the fridge."),
        (T, "I'm going to sit the chief engineer certificate exam in the spring."),
        (H, "My girl is coming home from Copenhagen for sportlov, first time since Christmas."),
    ]),
    ("s2", "2026-02-18T18:00:00Z", [
        (H, "I've applied for a superintendent job with Vattenfall at the wind farm base in Varberg. Interview on the 2nd of March."),
        (T, "Off the ships? You'd be missed. My brother Jonas did the same thing two years ago, he works for Ørsted in Esbjerg."),
        (H, "Two weeks away at a time is getting hard with Dad in the home in Borås."),
    ]),
    ("s3", "2026-03-10T18:00:00Z", [
        (H, "The doctor doubled my blood pressure pills yesterday, 10 mg now."),
        (T, "My mum takes the same thing, she swears by it."),
        (H, "And I got the Vattenfall job! I start on the 4th of May."),
        (T, "Fantastic. I'm putting in for your job when you go, the chief's post on the Danica."),
    ]),
    ("s4", "2026-04-15T18:00:00Z", [
        (T, "Passed the chief engineer certificate, first time."),
        (H, "Well done. Oskar passed his anatomy exam too, the boy is over the moon."),
        (H, "Elin's been promoted to project lead at her firm in Copenhagen."),
    ]),
    ("s5", "2026-05-28T18:00:00Z", [
        (H, "I tore my knee at parkrun last weekend, they're doing keyhole surgery on Monday."),
        (T, "Ouch. Maja broke her ankle skiing last year, it took her four months."),
        (H, "First weeks at Varberg are good, I manage maintenance for 48 turbines."),
        (T, "Stena gave me your old job, I'm chief on the Danica from June."),
    ]),
    ("s6", "2026-07-28T18:00:00Z", [
        (H, "Back from the Koster islands on Tärnan, 210 nautical miles round trip."),
        (T, "Our son was born on the 9th! We've called him Vilgot."),
        (H, "Karin came down from Umeå for a week and sailed with us."),
    ]),
    ("s7", "2026-08-20T18:00:00Z", [
        (H, "We've sold the Majorna house, we're moving to a flat in Kungsbacka next month."),
        (T, "Kungsbacka is nice. We're looking at a summer house on Orust."),
        (H, "Sofia got a new job too, deputy head at a school in Kungsbacka from January."),
    ]),
    ("s8", "2026-09-30T18:00:00Z", [
        (H, "Moved into the flat on Saturday. The train to Varberg is only 45 minutes now."),
        (T, "Maja goes back to work in March, she's a dentist at Folktandvården in Kortedala."),
        (H, "My little sister turns 48 next week, I need to post her something."),
    ]),
    ("s9", "2026-10-06T18:00:00Z", [
        (H, "Won the club championship section on Sunday, my rating's up to 1912."),
        (T, "You'll be a candidate master soon. I've started playing padel on Tuesdays with Jonas when he's visiting."),
        (H, "We've booked Japan for April, three weeks: Tokyo, Kyoto and Hiroshima."),
    ]),
    ("s10", "2026-11-18T18:00:00Z", [
        (H, "Knee is much better, I'm swimming 1,500 metres twice a week at Kungsbacka simhall."),
        (T, "Alva starts school next autumn, she's already asking for a pencil case."),
        (H, "Göran had his 80th in the care home? No, Dad turns 80 in February. We'll do cake in Borås."),
        (T, "We bought the Orust summer house, 2.1 million kronor."),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"built {STORE}: 36 keys, 11 updates, {n} turns")
