"""Build a store for one invented person: Kenji Morrow, 41 (42 from July), GIS analyst in Vancouver.
python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "kenji"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (36 keys, 11 updated, 3 negatives)
add("user.name", "My name is Kenji Morrow.", "2026-01-05")
add("user.age", "I am 41 years old.", "2026-01-05")
add("user.birthday", "My birthday is 9 July.", "2026-01-05")
add("user.job", "I work as a GIS analyst at BC Hydro.", "2019-02-01", aliases=["job", "work"])
add("user.salary", "I earn 92,000 dollars a year.", "2025-01-01", aliases=["salary", "pay"])
add("user.commute", "I take the SkyTrain to work, about 35 minutes each way.", "2019-02-01", aliases=["commute"])
add("user.home_city", "I live in Vancouver.", "2012-08-01", aliases=["home city"])
add("user.home", "Theo and I own a two-bedroom condo in Mount Pleasant.", "2021-05-01", aliases=["home", "condo", "flat"])
add("user.mortgage", "Our mortgage payment is 2,650 dollars a month.", "2021-05-01", aliases=["mortgage"])
add("user.husband", "My husband Theo Brandt is a landscape gardener.", "2019-08-17", aliases=["husband", "partner"])
add("user.wedding", "Theo and I got married in August 2019 at Jericho Beach.", "2019-08-17", aliases=["wedding"])
add("user.sister", "My sister Hana is a dentist in Calgary.", "2026-01-05", aliases=["sister"])
add("user.nephews", "Hana's twin sons Felix and Oscar are 7.", "2026-01-05", aliases=["nephews"])
add("user.mother", "My mum Ruth is 70 and lives in Nanaimo.", "2026-01-05", aliases=["mother", "mum"])
add("user.bike", "I ride a Trek Domane road bike.", "2023-04-01", aliases=["bike"])
add("user.weekly_distance", "I ride about 150 km a week.", "2025-03-01", aliases=["weekly distance", "cycling"])
add("user.gran_fondo", "I rode the Whistler Gran Fondo, 122 km, in 4 hours 51 minutes.", "2025-09-06")
add("user.ftp", "My FTP is 248 watts.", "2025-11-01", aliases=["FTP"])
add("user.injury", "I broke my left collarbone in a cycling crash on 14 March 2026.", "2026-03-14", aliases=["injury"])
add("user.physio", "I see a physiotherapist, Anjali, at Broadway Physio every Thursday.", "2026-04-02", aliases=["physio"])
add("user.bank", "I bank with RBC.", "2010-09-01", aliases=["bank"])
add("user.trip_savings", "We're saving 500 dollars a month for the Japan trip.", "2026-02-01", aliases=["savings"])
add("user.trip", "We're going to Japan in April 2027: Osaka, Kyoto and Tokyo.", "2026-02-10", aliases=["trip", "travel", "holiday"])
add("user.migraine", "I get migraines and take sumatriptan when one starts.", "2015-01-01", aliases=["medication"])
add("user.allergy", "I'm allergic to shellfish.", "2005-01-01")
add("user.gp", "My family doctor is Dr. Leung at the Mount Pleasant clinic.", "2021-06-01", aliases=["doctor", "GP"])
add("user.hometown", "I grew up in Prince George.", "1985-01-01")
add("user.education", "I studied geography at UBC and graduated in 2007.", "2007-05-01")
add("user.volunteer", "I volunteer fixing bikes at the Bike Kitchen one Saturday a month.", "2024-01-01")
add("user.no_car", "We don't own a car.", "2021-05-01", kind="negative")
add("user.no_alcohol", "I don't drink alcohol.", "2016-01-01", kind="negative")
add("user.no_kids", "Theo and I don't have children.", "2026-01-05", kind="negative")
add("user.mother_health", "My mum had a hip replacement in October 2026.", "2026-10-15")
add("user.dog", "We adopted a border collie mix called Pixel from the SPCA.", "2026-08-22", aliases=["dog", "pet"])
add("user.japanese", "I take a Japanese evening class at Langara College on Mondays.", "2026-09-14", aliases=["language class"])

# ---- updates over the year
upd("user.weekly_distance", "I'm off the bike while my collarbone heals.", "2026-03-16")
upd("user.mortgage", "Our mortgage renewed at a higher rate; the payment is now 3,020 dollars a month.", "2026-05-01")
upd("user.bank", "I moved my accounts to Vancity credit union.", "2026-05-20")
upd("user.weekly_distance", "I'm back to riding about 90 km a week.", "2026-06-20")
upd("user.ftp", "My FTP is down to 205 watts after the injury.", "2026-07-01")
upd("user.age", "I am 42 years old.", "2026-07-09")
upd("user.physio", "I finished my physiotherapy at Broadway Physio.", "2026-07-30")
upd("user.job", "I'm now a senior GIS analyst at TransLink.", "2026-09-08")
upd("user.salary", "My salary is now 104,000 dollars a year.", "2026-09-08")
upd("user.commute", "I cycle to the TransLink office in New Westminster, 17 km each way.", "2026-09-08")

# ---- conversation turns with Dariusz, a hydrologist at BC Hydro (Kenji's colleague, then ex-colleague)
K, D = "Kenji", "Dariusz"
SESSIONS = [
    ("s1", "2026-01-15T12:00:00Z", [
        (D, "Kenji, Ola and I just found out we're expecting, the baby is due in June!"),
        (K, "Congratulations! Theo will be thrilled, he adores babies."),
        (D, "I'm also trying to get my chess rating past 1700 this year, I'm stuck at 1640."),
        (K, "My big goal is to beat my Gran Fondo time from last September."),
    ]),
    ("s2", "2026-02-10T12:30:00Z", [
        (K, "We booked flights to Osaka for April next year."),
        (D, "Nice. Ola's parents live in Krakow, we'll fly there once the baby comes."),
        (K, "My sister is jealous, Hana has always wanted to see Kyoto."),
    ]),
    ("s3", "2026-03-18T12:00:00Z", [
        (K, "I crashed on the seawall on Saturday and broke my collarbone."),
        (D, "Ouch! How long are you off the bike?"),
        (K, "The surgeon said eight to ten weeks, no plate needed thankfully."),
        (D, "I can cover the transmission line mapping for you while you're off."),
    ]),
    ("s4", "2026-04-22T12:00:00Z", [
        (K, "Physio is going well, Anjali has me doing resistance band exercises."),
        (D, "I played in the Vancouver Open last weekend and scored 3.5 out of 5."),
        (K, "My husband is doing all the cooking while my arm heals."),
    ]),
    ("s5", "2026-05-21T12:00:00Z", [
        (K, "I finally left RBC, the fees were ridiculous. Vancity is much better."),
        (D, "We're still with TD. Ola wants to move closer to her work in Victoria next year."),
        (K, "Our mortgage renewed this month and the payment went up by nearly 400 dollars."),
    ]),
    ("s6", "2026-06-25T12:00:00Z", [
        (D, "Zofia was born on June 12th! 3.4 kg, and everyone is healthy."),
        (K, "That's wonderful news, give Ola our love."),
        (K, "I did my first ride back last weekend, 40 km around Stanley Park and out to Spanish Banks."),
    ]),
    ("s7", "2026-07-20T12:00:00Z", [
        (K, "Theo surprised me with a power meter for my birthday."),
        (D, "I'm on parental leave until October, so chess is on hold."),
    ]),
    ("s8", "2026-08-24T12:00:00Z", [
        (K, "We adopted a dog on Saturday, a border collie mix from the SPCA. We named him Pixel."),
        (D, "Zofia will love him. How old is he?"),
        (K, "About two, the shelter thinks. He has so much energy."),
    ]),
    ("s9", "2026-09-10T12:00:00Z", [
        (K, "Started at TransLink on Tuesday, my team works on the bus network redesign."),
        (D, "We miss you at Hydro already. I'm back from leave next month."),
        (K, "Mum is having her hip replaced in October, so I'll be on the ferry to Nanaimo a lot."),
    ]),
    ("s10", "2026-10-28T12:00:00Z", [
        (K, "Ruth's surgery went fine, she's already walking with a frame."),
        (D, "Chess is back on: I'm at 1712 now after the fall tournament."),
        (D, "Ola got the job in Victoria, so we move there in March."),
        (K, "Hana and the boys are flying in from Calgary next week."),
    ]),
    ("s11", "2026-11-23T12:00:00Z", [
        (K, "The Japanese class at Langara is hard, the teacher is very strict."),
        (D, "I signed up for the BMO Vancouver half marathon in May, my first race."),
        (K, "Pixel chewed up one of Theo's gardening gloves last week."),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"built {STORE}: keyed facts and {n} turns for {USER}")
