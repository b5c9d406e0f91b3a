"""Build a store for one invented person: Nadia Okafor, 29, chemistry teacher in Bristol."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import writer  # noqa: E402
from memory import api  # noqa: E402

USER = "nadia"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (36 keys, 7 updated, 3 negatives)
add("user.name", "My name is Nadia Okafor.", "2026-01-05")
add("user.age", "I am 29 years old.", "2026-03-14")
add("user.job", "I teach chemistry at Hartcliffe Academy.", "2022-09-01", aliases=["job", "work"])
add("user.home_city", "I live in Bristol.", "2020-09-01", aliases=["home city"])
add("user.home", "I rent a one-bedroom flat in Easton.", "2021-03-01", aliases=["home", "flat"])
add("user.commute", "I cycle 6 miles to work each way.", "2022-09-01", aliases=["commute"])
add("user.sport", "I go bouldering three times a week at The Climbing Academy.", "2023-01-10")
add("user.instrument", "I play the cello in the Bristol Community Orchestra.", "2018-09-01")
add("user.pet", "I have a tabby cat called Marmite.", "2021-06-01")
add("user.sister", "My sister Ife is a paramedic in Cardiff.", "2024-01-01")
add("user.partner", "My girlfriend Hannah works as a software tester.", "2024-02-14", aliases=["partner"])
add("user.beehives", "I keep two beehives on my allotment in St Werburghs.", "2024-04-01")
add("user.allotment_veg", "On the allotment I grow courgettes, runner beans and beetroot.", "2024-04-01")
add("user.diet", "I'm vegetarian.", "2019-01-01")
add("user.no_alcohol", "I don't drink alcohol.", "2020-01-01", kind="negative")
add("user.no_car", "I don't own a car.", "2020-01-01", kind="negative")
add("user.no_mushrooms", "I never eat mushrooms.", "2015-01-01", kind="negative")
add("user.allergy", "I'm allergic to penicillin.", "2010-01-01")
add("user.birthday", "My birthday is 14 March.", "2026-01-05")
add("user.morning_drink", "I drink a flat white every morning.", "2022-01-01")
add("user.swim", "I swim 40 lengths at Jubilee Pool every Sunday.", "2025-01-01")
add("user.language", "I'm learning Portuguese on Duolingo.", "2025-01-01")
add("user.salary", "My salary is £38,000 a year.", "2022-09-01")
add("user.holiday_2025", "In August 2025 I went hiking in the Picos de Europa.", "2025-08-20")
add("user.next_holiday", "I'm going to Lisbon for a week in April 2027.", "2026-10-01")
add("user.gp", "My GP is Dr Amir Haddad at Whiteladies Health Centre.", "2021-04-01")
add("user.bike", "I ride a green Brompton folding bike.", "2022-05-01")
add("user.injury", "I sprained my left wrist bouldering on 3 November 2026.", "2026-11-03")
add("user.book_club", "I go to a book club on the first Thursday of each month.", "2023-02-01")
add("user.favourite_food", "My favourite food is jollof rice.", "2026-01-05")
add("user.parents", "My parents live in Lagos.", "2026-01-05")
add("user.degree", "I have a PhD in inorganic chemistry from the University of Bath.", "2020-07-01")
add("user.football", "I support Bristol City.", "2026-01-05")
add("user.colleague", "Callum Reid is my colleague who teaches physics at Hartcliffe Academy.", "2022-09-01")
add("user.house_purchase", "I bought a two-bedroom terraced house in Bedminster on 15 May 2026.", "2026-05-15")

# ---- updates over the year
upd("user.morning_drink", "I gave up coffee in January 2026 and now drink green tea every morning.", "2026-01-10")
upd("user.beehives", "I keep three beehives on my allotment in St Werburghs.", "2026-05-30")
upd("user.home", "I live in my own terraced house in Bedminster.", "2026-05-15")
upd("user.job", "I am head of science at Redland Green School.", "2026-09-01")
upd("user.commute", "I walk 20 minutes to work.", "2026-09-01")
upd("user.salary", "My salary is £47,500 a year.", "2026-09-01")
upd("user.age", "I am 30 years old.", "2027-03-14")   # future-dated: not yet valid on 2026-12-01

# ---- conversation turns between Nadia and her colleague Callum
sessions = {
    "s1": ("2026-02-10T17:00:00Z", [
        ("Callum", "How was the weekend, Nadia?"),
        ("Nadia", "Good! Hannah and I saw a film at the Watershed, and I did a long bouldering session on Sunday."),
        ("Callum", "I finally signed up for the Bristol Half Marathon in September."),
        ("Nadia", "Brave. I'll stick to climbing walls."),
    ]),
    "s2": ("2026-04-22T12:30:00Z", [
        ("Nadia", "We had an offer accepted on a house in Bedminster today!"),
        ("Callum", "Congratulations! How many bedrooms?"),
        ("Nadia", "Two bedrooms and a tiny garden, perfect for Marmite."),
        ("Callum", "My brother Euan is a plumber if you need one, he lives in Keynsham."),
    ]),
    "s3": ("2026-06-03T16:00:00Z", [
        ("Callum", "Did the bees swarm again?"),
        ("Nadia", "Yes, I caught the swarm and started a third hive last Saturday."),
        ("Callum", "How much honey did you get last year?"),
        ("Nadia", "About 18 kilos from the two hives."),
    ]),
    "s4": ("2026-07-15T13:00:00Z", [
        ("Nadia", "I've accepted the head of science job at Redland Green, starting in September."),
        ("Callum", "We'll miss you in the physics corridor. Is the pay better?"),
        ("Nadia", "Much better, and I can walk there from the new house."),
        ("Callum", "I'm off to the Isle of Skye for two weeks in August with my wife Kirsty."),
    ]),
    "s5": ("2026-09-28T18:00:00Z", [
        ("Callum", "I ran the half marathon in 1 hour 52 minutes!"),
        ("Nadia", "Amazing! My first weeks at Redland were chaotic but good."),
        ("Callum", "Does Hannah like the new house?"),
        ("Nadia", "She loves it, she turned the box room into an office since she works from home on Mondays and Fridays."),
    ]),
    "s6": ("2026-11-10T17:30:00Z", [
        ("Nadia", "I sprained my wrist bouldering last week so no cello for a while."),
        ("Callum", "Ouch. Are you still playing in the orchestra concert in December?"),
        ("Nadia", "Hopefully, it's on 12 December at St George's."),
        ("Callum", "I've started learning Gaelic with my kids, Isla and Rory."),
        ("Nadia", "Lovely. My Portuguese speaking exam is on 5 December."),
    ]),
    "s7": ("2026-11-24T19:00:00Z", [
        ("Callum", "Kirsty and I are moving to Edinburgh in the new year."),
        ("Nadia", "No way! Will you keep teaching?"),
        ("Callum", "Yes, I've got a physics job at a school in Leith."),
        ("Nadia", "We'll have to visit. Hannah has always wanted to see the castle."),
    ]),
}
from datetime import datetime, timedelta
n = 0
for sid, (start, turns) in sessions.items():
    t0 = datetime.fromisoformat(start.replace("Z", "+00:00"))
    for i, (speaker, text) in enumerate(turns):
        at = (t0 + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        ok(api.add(store, USER, text, speaker=speaker, session=f"chat-{sid}", valid_from=at,
                   tx=f"chat-{sid}-{i}", ref=f"chat-{sid}:{i}", actor={"type": "agent", "id": "outside9"}))
        n += 1
print("built", STORE, "turns", n)
