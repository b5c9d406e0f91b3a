"""Build a store for one invented person: Henrique Baptista, 52, taxi driver in Porto.
python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "henrique"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (36 keys, 9 updated, 3 negatives)
add("user.name", "My name is Henrique Baptista.", "2026-01-10")
add("user.age", "I am 52 years old.", "2026-02-20")
add("user.job", "I drive a taxi in Porto for Rádio Táxis.", "2015-05-01", aliases=["job", "work"])
add("user.home_city", "I live in Porto.", "2000-01-01", aliases=["home city"])
add("user.home", "I rent a flat in Campanhã.", "2019-03-01", aliases=["home", "flat"])
add("user.shift", "I work the night shift, 8pm to 6am.", "2024-01-01", aliases=["shift", "working hours"])
add("user.children", "I have two teenagers, Beatriz who is 16 and Tiago who is 14.", "2026-01-10", aliases=["kids"])
add("user.ex_wife", "My ex-wife Carla is a nurse at Hospital de São João.", "2020-01-01")
add("user.motorbike", "I own a 1974 Honda CB750 motorbike.", "2010-06-01", aliases=["motorbike", "bike"])
add("user.diabetes", "I have type 2 diabetes.", "2021-03-01")
add("user.medication", "I take metformin twice a day.", "2021-03-01", aliases=["medication"])
add("user.fishing", "I go sea fishing off the Foz breakwater on Sunday mornings.", "2022-01-01", aliases=["hobby"])
add("user.fish_record", "My biggest catch was a 4 kilo sea bass.", "2025-09-14")
add("user.taxi_car", "My taxi is a 2019 Toyota Corolla hybrid.", "2019-02-01", aliases=["car"])
add("user.football", "I support FC Porto and go to matches at the Dragão.", "2000-01-01")
add("user.no_beer", "I don't drink beer anymore.", "2021-03-01", kind="negative")
add("user.no_smoking", "I don't smoke.", "2018-01-01", kind="negative")
add("user.no_sweets", "I don't eat sweets since the diabetes diagnosis.", "2021-03-01", kind="negative")
add("user.birthday", "My birthday is 3 November.", "2026-01-10")
add("user.coffee", "I drink a galão every morning at Café Ceuta.", "2015-01-01")
add("user.taxi_rank", "I wait for fares at the São Bento taxi rank.", "2015-05-01")
add("user.weight", "I weigh 98 kilos.", "2025-01-10")
add("user.doctor", "My doctor is Dr. Sousa at the Centro de Saúde de Campanhã.", "2021-03-01")
add("user.hba1c", "My last HbA1c was 7.8 percent.", "2026-02-01")
add("user.mother", "My mother Amélia lives in Braga and is 81.", "2026-01-10")
add("user.brother", "My brother Paulo runs a bakery in Vila Nova de Gaia.", "2026-01-10")
add("user.languages", "I speak Portuguese, Spanish and a little English.", "2015-01-01")
add("user.salary", "I earn about 1,300 euros a month.", "2025-01-01")
add("user.child_support", "I pay Carla 350 euros a month in child support.", "2020-01-01")
add("user.last_holiday", "I went to the Algarve with the kids in August 2025.", "2025-08-20")
add("user.pet", "I have a canary called Piu.", "2023-04-01")
add("user.club", "I'm a member of the Moto Clube do Porto.", "2012-01-01")
add("user.music", "I listen to fado on the radio while driving.", "2015-01-01")
add("user.rent", "My rent is 650 euros a month.", "2019-03-01")
# facts that start after the move
add("user.vegetables", "In my balcony pots I grow tomatoes, peppers and kale.", "2026-07-01")
add("user.walk", "I walk 5 km along the beach in Matosinhos every evening.", "2026-07-15")

# ---- updates over the year
upd("user.taxi_car", "My taxi is now a 2025 Kia Niro electric.", "2026-03-01")
upd("user.shift", "I switched to the day shift, 7am to 5pm.", "2026-04-01")
upd("user.taxi_rank", "I mostly wait for fares at the airport rank now.", "2026-04-01")
upd("user.home", "I moved to a flat in Matosinhos near the harbour.", "2026-06-15")
upd("user.rent", "My rent is 780 euros a month.", "2026-06-15")
upd("user.medication", "I now take metformin and insulin injections at night.", "2026-07-01")
upd("user.hba1c", "My last HbA1c was 6.9 percent.", "2026-08-20")
upd("user.weight", "I weigh 91 kilos.", "2026-09-01")
upd("user.age", "I am 53 years old.", "2026-11-03")

# ---- conversation turns with Zé, a fellow taxi driver
H, Z = "Henrique", "Zé"
SESSIONS = [
    ("s1", "2026-01-15T13:00:00Z", [
        (Z, "Henrique, how was the night shift? I hate nights, I only do days now."),
        (H, "Long. A drunk tourist left his phone in my taxi at 3am."),
        (Z, "My son Rodrigo just started studying engineering in Coimbra."),
        (H, "Good for him! Beatriz wants to become a vet."),
    ]),
    ("s2", "2026-02-20T12:30:00Z", [
        (H, "Dr. Sousa says my sugar is too high, I need to lose weight."),
        (Z, "I started playing padel twice a week at the club in Maia. You should come."),
        (H, "Padel is not for me, I'd rather fish."),
    ]),
    ("s3", "2026-03-10T12:00:00Z", [
        (Z, "My wife Lúcia and I are going to Madeira in May for our 25th anniversary."),
        (H, "I picked up the new electric Kia last week, it's very quiet."),
        (Z, "How far can it go on a charge?"),
        (H, "About 450 km, enough for two shifts."),
    ]),
    ("s4", "2026-04-05T12:00:00Z", [
        (H, "I moved to the day shift on the first of April, finally I can sleep at night."),
        (Z, "Welcome to the day shift! We can have lunch together at the rank."),
    ]),
    ("s5", "2026-05-19T12:00:00Z", [
        (H, "I took Tiago to the orthodontist yesterday, he needs braces."),
        (Z, "Braces are expensive, Rodrigo's cost us 2,000 euros."),
        (H, "I caught three mackerel on Sunday at Foz."),
        (Z, "We got back from Madeira, the levada walks were beautiful."),
    ]),
    ("s6", "2026-06-20T12:00:00Z", [
        (H, "I finished moving to Matosinhos last weekend, my back hurts from carrying boxes."),
        (Z, "I helped my brother-in-law Nuno paint his café in Gaia."),
    ]),
    ("s7", "2026-07-25T12:00:00Z", [
        (H, "Beatriz got 18 out of 20 in her maths exam."),
        (Z, "My knee is bad, the doctor told me to stop padel for a month."),
        (H, "I started insulin at night this month, the nurse showed me how."),
    ]),
    ("s8", "2026-09-10T12:00:00Z", [
        (H, "I rode the Honda to Braga on Saturday to visit my mother, 55 km each way."),
        (Z, "I'm thinking of selling my taxi licence and retiring next year."),
        (H, "You'd be bored in a week, Zé."),
    ]),
    ("s9", "2026-10-14T12:00:00Z", [
        (Z, "Rodrigo got an internship at Bosch in Braga."),
        (H, "I lost 7 kilos since February, Dr. Sousa is happy."),
        (Z, "My wife Lúcia opened a flower shop in Maia."),
        (Z, "Let's go fishing together at Leça on Sunday."),
        (H, "Carla and I agreed Tiago stays with me every other weekend."),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"built {STORE}: 36 keys, 9 updates, {n} turns")
