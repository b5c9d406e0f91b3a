"""Build a store for one invented person: Fiona Baird, 57 (58 from July), bus driver in Glasgow.
python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "fiona"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (36 keys, 11 updated, 3 negatives)
add("user.name", "My name is Fiona Baird.", "2026-01-04")
add("user.age", "I am 57 years old.", "2026-01-04")
add("user.birthday", "My birthday is 3 July.", "2026-01-04")
add("user.job", "I drive the number 75 bus for First Glasgow out of the Caledonia depot.", "1998-05-01", aliases=["job", "work"])
add("user.driving_since", "I've been driving buses since 1998.", "1998-05-01")
add("user.shift", "I work early shifts, 5:30 in the morning till 2 in the afternoon.", "2015-01-01", aliases=["shift", "working hours"])
add("user.salary", "I earn about 32,000 pounds a year.", "2025-04-01", aliases=["salary", "pay", "wage"])
add("user.commute", "I get the subway from Partick to the depot.", "2018-03-01", aliases=["commute"])
add("user.home_city", "I live in Glasgow.", "1968-07-03", aliases=["home city"])
add("user.home", "We rent a tenement flat in Partick.", "2018-03-01", aliases=["home", "flat", "house"])
add("user.housing_cost", "Our rent is 850 pounds a month.", "2024-01-01", aliases=["rent", "mortgage"])
add("user.husband", "My husband Alasdair is a joiner, semi-retired now.", "2026-01-04", aliases=["husband", "partner"])
add("user.son", "Our son Ross is 31 and works as a physiotherapist in Toronto.", "2026-01-04", aliases=["son", "child"])
add("user.daughter", "Our daughter Kirsty is 28 and is a paramedic in Edinburgh.", "2026-01-04", aliases=["daughter", "child"])
add("user.grandson", "Kirsty's son Finlay was born in March 2025.", "2025-03-11", aliases=["grandson", "grandchild"])
add("user.mother", "My mum Jean is 84 and lives in sheltered housing in Largs.", "2026-01-04", aliases=["mother", "mum"])
add("user.brother", "My brother Hamish runs a fishing boat out of Mallaig.", "2026-01-04", aliases=["brother"])
add("user.dog", "We have a border collie called Bran.", "2021-08-01", aliases=["dog", "pet"])
add("user.cycling_club", "I ride with the Kelvin Valley Wheelers on Sunday mornings.", "2022-04-01", aliases=["cycling", "hobby", "club"])
add("user.bike", "My bike is a steel Ribble touring bike.", "2022-04-01", aliases=["bike", "bicycle"])
add("user.annual_distance", "I cycled 3,400 km in 2025.", "2025-12-31")
add("user.longest_ride", "My longest ride is 112 km, from Glasgow to Callander and back.", "2024-06-01", aliases=["longest ride"])
add("user.football", "I support Partick Thistle.", "1975-01-01", aliases=["football team"])
add("user.diabetes", "I have type 2 diabetes, diagnosed in 2019.", "2019-02-01")
add("user.medication", "I take metformin 500 mg twice a day.", "2019-03-01", aliases=["medication", "tablets"])
add("user.hba1c", "My last HbA1c was 58 mmol/mol.", "2025-11-20", aliases=["blood sugar", "HbA1c"])
add("user.gp", "My GP is Dr Anand at the Dumbarton Road surgery.", "2018-04-01", aliases=["doctor", "GP"])
add("user.savings", "We have 12,000 pounds saved in a Nationwide ISA.", "2025-12-01", aliases=["savings"])
add("user.car_loan", "We still owe 4,200 pounds on the car loan.", "2025-12-01", aliases=["car loan", "debt"])
add("user.car", "We drive a 2017 Skoda Octavia estate.", "2021-01-01", aliases=["car"])
add("user.trip", "We're flying to Toronto in February 2027 to see Ross for three weeks.", "2026-09-01", aliases=["trip", "travel plans"])
add("user.holiday", "We had a week on Arran in June 2026.", "2026-06-20", aliases=["holiday"])
add("user.no_alcohol", "I don't drink alcohol.", "2010-01-01", kind="negative")
add("user.no_fish", "I don't eat fish.", "1980-01-01", kind="negative")
add("user.no_whatsapp", "I'm not on WhatsApp.", "2023-01-01", kind="negative")
add("user.sleep_apnoea", "I was diagnosed with sleep apnoea and use a CPAP machine at night.", "2026-05-18", aliases=["sleep apnoea", "diagnosis"])

# ---- updates over the year
upd("user.job", "I'm now a driver trainer at the First Glasgow training school in Larkfield.", "2026-04-06")
upd("user.shift", "I work Monday to Friday, 8:30 to 4:30, as a trainer.", "2026-04-06")
upd("user.salary", "I earn 36,500 pounds a year as a driver trainer.", "2026-04-06")
upd("user.commute", "I drive to the Larkfield training school, about 25 minutes.", "2026-04-06")
upd("user.medication", "My metformin went up to 1000 mg twice a day.", "2026-02-10")
upd("user.hba1c", "My latest HbA1c was 49 mmol/mol.", "2026-08-25")
upd("user.age", "I am 58 years old.", "2026-07-03")
upd("user.longest_ride", "My longest ride is now 161 km, the Etape Loch Ness sportive.", "2026-04-26")
upd("user.home", "We bought a bungalow in Bishopbriggs and moved in.", "2026-09-12")
upd("user.housing_cost", "Our mortgage is 720 pounds a month.", "2026-09-12")
upd("user.car_loan", "We paid off the car loan in full.", "2026-10-30")

# ---- conversation turns with Tariq, a fellow driver at the Caledonia depot
F, T = "Fiona", "Tariq"
SESSIONS = [
    ("s1", "2026-01-15T14:30:00Z", [
        (T, "Fiona, I've entered the Glasgow half marathon in October. First time I've run further than 10k."),
        (F, "Rather you than me. I'll stick to the bike, Ally says I'm never off it on a Sunday."),
        (T, "Leila wants to open a second bakery, in Shawlands this time."),
        (F, "Her cardamom buns would sell out in a day. Our Kirsty still talks about them."),
    ]),
    ("s2", "2026-02-11T14:30:00Z", [
        (F, "Dr Anand doubled my metformin yesterday, my sugars have been creeping up."),
        (T, "My dad is the same, he's on insulin now."),
        (F, "I've applied for the driver trainer post at Larkfield. Interview is on the 24th."),
        (T, "You'd be great at it. I'm asking for a transfer to the Scotstoun depot, it's ten minutes from our house."),
    ]),
    ("s3", "2026-03-12T14:30:00Z", [
        (F, "I got the trainer job! I start on the 6th of April."),
        (T, "Brilliant. Imran got his offer from Strathclyde to study civil engineering."),
        (F, "Finlay turned one yesterday, Kirsty had a wee party for him in Leith."),
    ]),
    ("s4", "2026-04-27T14:30:00Z", [
        (F, "Did the Etape Loch Ness yesterday, 161 km, my longest ride ever. My legs are done in."),
        (T, "Respect. I did 16 km on Saturday, half marathon training is going fine."),
        (F, "First three weeks of training new drivers: I've got six trainees in my group."),
    ]),
    ("s5", "2026-05-20T14:30:00Z", [
        (F, "The sleep clinic at Gartnavel says I've got sleep apnoea. I have to wear a mask at night now."),
        (T, "My uncle has that, the CPAP changed his life."),
        (F, "Mum had a wee fall in Largs, Hamish came down from Mallaig to check on her."),
        (T, "I'm going to Lahore in December for my brother Bilal's wedding."),
    ]),
    ("s6", "2026-06-29T14:30:00Z", [
        (F, "Back from Arran. We cycled round the island, it's 90 km."),
        (T, "Leila signed the lease on the Shawlands shop, it opens in September."),
        (F, "Ross phoned from Toronto, he's engaged to his girlfriend Megan!"),
    ]),
    ("s7", "2026-08-14T14:30:00Z", [
        (F, "We've had an offer accepted on a bungalow in Bishopbriggs. 185,000 pounds."),
        (T, "Great news. I got the transfer, I start at Scotstoun in September."),
        (F, "My wee brother is thinking of selling the boat and retiring."),
    ]),
    ("s8", "2026-09-16T14:30:00Z", [
        (F, "We moved into the bungalow on Saturday. Bran loves the garden."),
        (T, "Imran moved into halls on Friday, the house is very quiet."),
        (F, "Ross and Megan are getting married in Toronto next June, that's why we're going over in February to help plan."),
    ]),
    ("s9", "2026-10-06T14:30:00Z", [
        (T, "Finished the half marathon in 1 hour 58 minutes!"),
        (F, "Under two hours, well done! Alasdair is building me a bike shed at the new house."),
        (T, "My cricket club, Clydesdale, made me vice-captain for next season."),
    ]),
    ("s10", "2026-11-24T14:30:00Z", [
        (F, "Car loan's cleared at last, and the HbA1c came back at 49, the nurse was pleased."),
        (T, "Leila's second bakery is doing well, she's hired two more staff."),
        (F, "Jean's ninety next year? No, she's 85 in March. We'll have a party in Largs."),
        (T, "I fly to Lahore on the 12th of December."),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"built {STORE}: 36 keys, 11 updates, {n} turns")
