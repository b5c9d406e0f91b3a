"""Build a store for one invented person: Marek Novak, 47 (48 from September), land surveyor in Christchurch.
python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "marek"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (36 keys, 11 updated, 3 negatives)
add("user.name", "My name is Marek Novak.", "2026-01-04")
add("user.age", "I am 47 years old.", "2026-01-04")
add("user.birthday", "My birthday is 9 September.", "2026-01-04")
add("user.origin", "I grew up in Brno in the Czech Republic and moved to New Zealand in 2003.", "2003-02-01")
add("user.job", "I work as a land surveyor at Kowhai Geomatics, a private surveying firm.", "2015-05-01", aliases=["job", "work"])
add("user.salary", "I earn about 98,000 NZD a year.", "2025-04-01", aliases=["salary", "pay"])
add("user.commute", "I cycle 11 km to the office in Addington.", "2015-05-01", aliases=["commute"])
add("user.home_city", "I live in Christchurch.", "2003-03-01", aliases=["home city"])
add("user.home", "We own a weatherboard villa in Spreydon.", "2011-10-01", aliases=["home", "house"])
add("user.mortgage", "Our mortgage repayment is 2,350 NZD a month.", "2024-06-01", aliases=["mortgage"])
add("user.bank", "We bank with ANZ.", "2011-10-01", aliases=["bank"])
add("user.wife", "My wife Hine is a speech therapist at Christchurch Hospital.", "2026-01-04", aliases=["wife", "partner"])
add("user.wedding", "Hine and I got married in Akaroa in 2001.", "2001-12-01")
add("user.daughter", "Our daughter Kaia is 24 and works as an architect in Melbourne.", "2026-01-04", aliases=["daughter", "child"])
add("user.son", "Our son Jakub is 20 and studies engineering at the University of Canterbury.", "2026-01-04", aliases=["son", "child"])
add("user.son_home", "Jakub lives at home with us.", "2024-02-01")
add("user.sister", "My sister Lenka is a pharmacologist in Prague.", "2026-01-04", aliases=["sister"])
add("user.mother", "My mother Vera is 76 and still lives in Brno.", "2026-01-04", aliases=["mother", "mum"])
add("user.chess", "I play chess at the Canterbury Chess Club on Thursday nights.", "2012-01-01", aliases=["chess", "hobby"])
add("user.chess_rating", "My chess rating is 1840.", "2025-11-01", aliases=["chess rating", "rating"])
add("user.dog", "We have a border collie called Pepa.", "2020-03-01", aliases=["dog", "pet"])
add("user.garden", "In the vegetable garden I grow garlic, courgettes and runner beans.", "2024-09-01", aliases=["garden"])
add("user.car", "I drive a 2014 Subaru Outback.", "2017-02-01", aliases=["car"])
add("user.knee", "My left knee is fine.", "2025-01-01", aliases=["knee"])
add("user.physio", "I see a physio, Brooke, at Sports Med Riccarton.", "2026-08-03", aliases=["physio", "physiotherapist"])
add("user.blood_pressure", "I take amlodipine 5 mg for high blood pressure.", "2023-05-01", aliases=["medication", "blood pressure"])
add("user.gp", "My GP is Dr. Aroha Tane at Barrington Medical Centre.", "2018-01-01", aliases=["doctor", "GP"])
add("user.kiwisaver", "I put 6 percent of my salary into KiwiSaver.", "2020-04-01", aliases=["KiwiSaver", "retirement savings"])
add("user.savings_goal", "We are saving 15,000 NZD for a trip to Europe.", "2026-01-04", aliases=["savings"])
add("user.trip", "We plan to fly to Prague in April 2027 to visit my mother and Lenka.", "2026-02-10", aliases=["trip", "travel plans"])
add("user.languages", "I speak Czech, English and some German.", "2003-01-01")
add("user.skiing", "I ski at Mt Hutt most winter weekends.", "2015-06-01", aliases=["skiing"])
add("user.running", "I run the Hagley parkrun most Saturdays.", "2022-01-01", aliases=["parkrun", "running"])
add("user.no_alcohol", "I don't drink alcohol.", "2019-01-01", kind="negative")
add("user.no_smoking", "I have never smoked.", "2000-01-01", kind="negative")
add("user.no_social", "I'm not on Instagram.", "2021-01-01", kind="negative")

# ---- updates over the year
upd("user.knee", "I tore the ACL in my left knee skiing at Mt Hutt.", "2026-07-11")
upd("user.knee", "I had ACL reconstruction surgery on my left knee at Forte Health.", "2026-07-29")
upd("user.knee", "My left knee is recovering well; I can walk without crutches and cycle on a trainer.", "2026-10-05")
upd("user.job", "I'm now a senior surveyor at the Christchurch City Council.", "2026-05-04")
upd("user.salary", "I earn 112,000 NZD a year at the council.", "2026-05-04")
upd("user.commute", "I take the bus to the council offices on Hereford Street.", "2026-07-20")
upd("user.bank", "We moved our accounts and mortgage to Kiwibank.", "2026-06-15")
upd("user.mortgage", "Our mortgage repayment is 2,180 NZD a month after refinancing with Kiwibank.", "2026-06-15")
upd("user.chess_rating", "My chess rating is 1905 after the South Island Championship.", "2026-04-26")
upd("user.age", "I am 48 years old.", "2026-09-09")
upd("user.son_home", "Jakub moved into a student flat in Riccarton with two friends.", "2026-02-20")

# ---- conversation turns with Ruth, a hydrologist who was Marek's colleague at Kowhai Geomatics
M, R = "Marek", "Ruth"
SESSIONS = [
    ("s1", "2026-01-22T04:00:00Z", [
        (R, "Happy new year Marek! Dev and I finally booked the Te Araroa trail section from Nelson, we start in March."),
        (M, "That's great. We had a quiet one, Kaia flew home from Melbourne for ten days."),
        (R, "My twins start intermediate school next month, Ella is excited and Finn is not."),
        (M, "My boy is moving out to a flat in Riccarton with his mates, Hine is a bit sad about it."),
    ]),
    ("s2", "2026-03-12T03:30:00Z", [
        (M, "I applied for a senior surveyor role at the city council. The pay is much better."),
        (R, "Go for it. I'm thinking about a job with Environment Canterbury myself, modelling river flows."),
        (M, "My mum rang from Brno, she fell on the ice in February but she's fine now."),
        (R, "Glad Vera is okay. My dad is having a hip replacement in Timaru next month."),
    ]),
    ("s3", "2026-04-28T05:00:00Z", [
        (M, "I got 6.5 out of 9 at the South Island Championship, my rating jumped to 1905."),
        (R, "Impressive! Dev says you should teach Finn, he's obsessed with chess now."),
        (M, "And I accepted the council offer, I start on 4 May. Last day at Kowhai is this Friday."),
        (R, "We'll miss you at Kowhai. Who's going to do the boundary surveys in Rolleston?"),
    ]),
    ("s4", "2026-06-17T02:00:00Z", [
        (M, "We switched banks to Kiwibank this week, the refinance saves us about 170 dollars a month."),
        (R, "Smart. We're still with BNZ, Dev keeps saying we should shop around."),
        (R, "I got the Environment Canterbury job! I start in August."),
        (M, "Congratulations, that's the river modelling role?"),
    ]),
    ("s5", "2026-07-14T06:00:00Z", [
        (M, "Bad news, I tore my ACL skiing at Mt Hutt on Saturday. Surgery is booked for the 29th."),
        (R, "Oh no Marek. How are you getting around?"),
        (M, "Crutches, and Hine drives me everywhere. I'll be taking the bus to work once I'm back."),
        (R, "Finn sprained his wrist at rugby last week too, it's a season for injuries."),
    ]),
    ("s6", "2026-08-20T04:30:00Z", [
        (M, "Physio twice a week with Brooke at Riccarton. She says no skiing for nine months."),
        (R, "So no Mt Hutt until next winter. Dev and I are doing the Routeburn Track at New Year."),
        (M, "Kaia got promoted to project architect in Melbourne, we're so proud of her."),
        (R, "Tell her well done! Ella wants to be an architect now."),
    ]),
    ("s7", "2026-10-07T03:00:00Z", [
        (M, "Off the crutches! I'm cycling on the trainer, 20 minutes a day."),
        (R, "Brilliant. Our twins turned 12 on Sunday, we had twelve kids at the house."),
        (M, "Lenka is coming over from Prague for Christmas, first time in five years."),
        (R, "Lovely. Is she staying with you in Spreydon?"),
        (M, "Yes, in Jakub's old room."),
    ]),
    ("s8", "2026-11-18T05:00:00Z", [
        (R, "We're selling our house in Halswell and moving to Nelson in February, Dev got a job at the port."),
        (M, "Nelson! We'll visit. We've saved about 11,000 of the 15,000 for Prague next April."),
        (M, "Pepa chewed through the garden hose again, the runner beans are flattened."),
        (R, "Ha, our cat just watches. Come for a farewell barbecue in January?"),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"built {STORE}: 36 keys, 11 updates, {n} turns")
