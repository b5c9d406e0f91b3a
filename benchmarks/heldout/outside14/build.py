"""Build a store for one invented person: Ravi Chandran, 57 (58 from July), hospital pharmacist in
Edinburgh who retires in June 2026 and moves to North Berwick; a new type 2 diabetes diagnosis.
python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "ravi"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (35 keys, 11 updated, 3 negatives)
add("user.name", "My name is Ravi Chandran.", "2026-01-05")
add("user.age", "I am 57 years old.", "2026-01-05")
add("user.birthday", "My birthday is 3 July.", "2026-01-05")
add("user.job", "I am the lead pharmacist at the Royal Infirmary of Edinburgh.", "2011-05-01", aliases=["job", "work"])
add("user.commute", "I take the number 24 bus to work.", "2011-05-01", aliases=["commute"])
add("user.home_city", "I live in Edinburgh.", "1998-09-01", aliases=["home city"])
add("user.home", "We own a three-bedroom flat in Morningside.", "2004-03-01", aliases=["home", "flat", "house"])
add("user.mortgage", "Our mortgage is 640 pounds a month.", "2015-01-01", aliases=["mortgage"])
add("user.partner", "My wife Helen is a piano teacher.", "1994-06-01", aliases=["wife", "partner"])
add("user.wedding", "Helen and I got married in 1994 in Dundee.", "1994-06-01", aliases=["wedding"])
add("user.son", "Our son Nikhil is 29 and works as a data analyst in Toronto.", "2026-01-05", aliases=["son", "child"])
add("user.daughter", "Our daughter Meera is 26 and a junior doctor in Newcastle.", "2024-08-01", aliases=["daughter", "child"])
add("user.brother", "My older brother Suresh runs a newsagent in Leicester.", "2026-01-05", aliases=["brother"])
add("user.chess_club", "I play chess for the Edinburgh Chess Club on Wednesday nights.", "2010-09-01", aliases=["chess"])
add("user.chess_rating", "My chess rating is 1840.", "2025-01-10", aliases=["chess rating", "rating"])
add("user.munros", "I have climbed 143 of the 282 Munros.", "2025-09-20", aliases=["Munros", "hill walking"])
add("user.badminton", "I play badminton at the Meadowbank sports centre on Monday evenings.", "2019-01-01", aliases=["badminton"])
add("user.pension", "My NHS pension will be about 28,000 pounds a year.", "2026-01-10", aliases=["pension"])
add("user.lump_sum", "I got a tax-free pension lump sum of 84,000 pounds.", "2026-07-15", aliases=["lump sum"])
add("user.isa", "We have 22,000 pounds in a cash ISA.", "2025-04-06", aliases=["savings", "ISA"])
add("user.diabetes", "I was diagnosed with type 2 diabetes in April 2026.", "2026-04-14", aliases=["diabetes", "diagnosis"])
add("user.medication", "I take metformin 500 mg twice a day.", "2026-04-20", aliases=["medication", "tablets"])
add("user.hba1c", "My HbA1c was 58 at diagnosis.", "2026-04-14", aliases=["HbA1c", "blood sugar"])
add("user.gp", "My GP is Dr. Walker at the Bruntsfield Medical Practice.", "2004-03-01", aliases=["GP", "doctor"])
add("user.car", "I drive a 2017 Skoda Octavia estate.", "2019-05-01", aliases=["car"])
add("user.japan", "Helen and I are going to Japan for three weeks in October 2026.", "2026-02-20", aliases=["Japan trip", "holiday"])
add("user.toronto_trip", "We plan to visit Nikhil in Toronto in May 2027.", "2026-11-20", aliases=["Toronto trip", "travel plans"])
add("user.languages", "I speak English and Tamil.", "1990-01-01", aliases=["languages"])
add("user.birthplace", "I was born in Chennai and came to Scotland in 1990 to study pharmacy at Strathclyde.", "1990-09-01")
add("user.volunteering", "I volunteer at the North Berwick RNLI shop on Saturdays.", "2026-11-14", aliases=["volunteering"])
add("user.dog", "We have a border terrier called Pickle.", "2020-04-01", aliases=["dog", "pet"])
add("user.garden", "In the cottage garden I grow courgettes, runner beans and kale.", "2026-10-10", aliases=["garden", "vegetables"])
add("user.no_smoking", "I don't smoke.", "1990-01-01", kind="negative")
add("user.no_alcohol", "I don't drink alcohol.", "1990-01-01", kind="negative")
add("user.no_beef", "I don't eat beef.", "1990-01-01", kind="negative")

# ---- updates over the year
upd("user.chess_rating", "My chess rating is 1905.", "2026-06-20")
upd("user.job", "I'm retired now; I left my pharmacist job at the Royal Infirmary at the end of June 2026.", "2026-07-01")
upd("user.age", "I am 58 years old.", "2026-07-03")
upd("user.daughter", "Our daughter Meera is now a GP trainee in Durham.", "2026-08-05")
upd("user.home_city", "I live in North Berwick now.", "2026-09-12")
upd("user.home", "We bought a cottage on Quality Street in North Berwick and moved in.", "2026-09-12")
upd("user.mortgage", "We paid off the mortgage when we sold the Morningside flat; we have no mortgage now.", "2026-09-12")
upd("user.gp", "My GP is now Dr. Khan at the North Berwick Health Centre.", "2026-09-25")
upd("user.medication", "My metformin dose went up to 1,000 mg twice a day.", "2026-09-30")
upd("user.munros", "I have climbed 151 of the 282 Munros.", "2026-10-04")
upd("user.hba1c", "My HbA1c is down to 49.", "2026-10-20")

# ---- conversation turns with Callum, a pharmacy technician who worked with Ravi at the Infirmary
R, C = "Ravi", "Callum"
SESSIONS = [
    ("s1", "2026-01-14T12:30:00Z", [
        (C, "Ravi, I got the pharmacy manager job at St John's in Livingston, I start in April."),
        (R, "Brilliant news, Callum. I've told HR I'm retiring at the end of June, so we'll both be gone from the Infirmary."),
        (C, "Shona says you'll be bored within a month."),
        (R, "Not a chance, I've still got 139 Munros to go."),
    ]),
    ("s2", "2026-02-20T12:30:00Z", [
        (R, "Helen booked the Japan trip last night: Tokyo, Kyoto and Hiroshima in October."),
        (C, "Isla and her fiance have set the wedding date, 22 August in Oban."),
        (R, "Our boy says he might fly over from Toronto for Christmas."),
        (C, "My mum is having her hip replaced in Inverness next month."),
    ]),
    ("s3", "2026-04-16T12:00:00Z", [
        (R, "The GP phoned with my blood results, it's type 2 diabetes."),
        (C, "Sorry to hear that. My dad had it for years and managed fine with diet."),
        (R, "I start metformin next week and I'm cutting out the rice, which is hard for a Tamil boy."),
        (C, "First week at St John's done, the drive along the M8 is grim."),
    ]),
    ("s4", "2026-06-22T12:00:00Z", [
        (R, "Won all five games at the Edinburgh Congress, my rating went up to 1905."),
        (C, "Ha, you're a menace. I've bought an e-bike, a Cube, for getting to Livingston station."),
        (R, "My big brother was up from Leicester for the weekend, Suresh still beats me at carrom."),
    ]),
    ("s5", "2026-07-10T12:00:00Z", [
        (R, "Last day at the Infirmary was lovely, the team gave me a chess set carved from Scottish oak."),
        (C, "You earned it after fifteen years. How's retirement so far?"),
        (R, "The lump sum came through, 84 grand; we'll put some of it towards the new house."),
        (C, "Shona and I have put our names down for a Labrador puppy."),
    ]),
    ("s6", "2026-08-25T12:00:00Z", [
        (R, "We've had an offer accepted on a cottage in North Berwick, we move mid-September."),
        (C, "Isla's wedding on Saturday was perfect, the rain held off until the ceilidh."),
        (R, "Meera has started her GP training in Durham, she's much happier than she was in Newcastle."),
    ]),
    ("s7", "2026-10-28T12:00:00Z", [
        (R, "Back from Japan last week; Kyoto was the highlight, the wife wants to go back for the cherry blossom."),
        (C, "I'm planning to walk the West Highland Way next May with my brother-in-law."),
        (R, "The diabetes nurse says my HbA1c has dropped to 49, so the diet is working."),
        (C, "Our Labrador puppy arrived, we called her Bramble."),
    ]),
    ("s8", "2026-11-20T12:00:00Z", [
        (R, "I've started volunteering in the RNLI shop on Saturdays."),
        (C, "My mum's hip is healing well, she's walking to the shops again."),
        (R, "Pickle loves the beach here, he runs straight into the sea every morning."),
        (R, "We're flying to Toronto next May to see Nikhil and his girlfriend Chloe."),
        (R, "It's only 25 miles into Edinburgh for chess club, and the train takes 33 minutes."),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"{STORE}: 35 keys, {n} turns")
