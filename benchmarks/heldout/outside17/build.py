"""Build a store for one invented person: Greta Lindqvist, 51 (52 from 19 May), piano tuner in Uppsala
who leaves the piano shop to go self-employed in June 2026, after breaking her wrist in February.
python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "greta"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (35 keys, 10 updated, 3 negatives)
add("user.name", "My name is Greta Lindqvist.", "2026-01-04")
add("user.age", "I am 51 years old.", "2026-01-04")
add("user.birthday", "My birthday is 19 May.", "2026-01-04")
add("user.job", "I work as a piano tuner and technician at Musikhuset Fyris, a piano shop in Uppsala.", "2012-03-01", aliases=["job", "work"])
add("user.income", "I earn 34,000 kronor a month before tax.", "2025-01-01", aliases=["salary", "pay", "income"])
add("user.workshop", "I rent a workshop in Boländerna for 4,200 kronor a month.", "2026-06-01", aliases=["workshop"])
add("user.education", "I trained as a piano technician at Malungs folkhögskola.", "1996-06-01")
add("user.tunings_2025", "I tuned 212 pianos in 2025.", "2026-01-04")
add("user.home_city", "I live in Uppsala.", "2001-08-01", aliases=["home city"])
add("user.home", "We own a yellow wooden house in Luthagen.", "2008-05-01", aliases=["home", "house"])
add("user.mortgage", "Our mortgage is 6,800 kronor a month.", "2024-01-01", aliases=["mortgage"])
add("user.husband", "My husband Olof is an electrician at Uppsala University Hospital.", "2015-01-01", aliases=["husband"])
add("user.married", "Olof and I got married in 1998 in Visby.", "1998-07-11", aliases=["wedding"])
add("user.daughter", "Our daughter Elsa is 26 and works as an architect in Berlin.", "2026-01-04", aliases=["daughter", "child"])
add("user.son", "Our son Viktor is 23 and studies medicine in Lund.", "2026-01-04", aliases=["son", "child"])
add("user.sister", "My younger sister Karin runs a bakery in Västerås.", "2026-01-04", aliases=["sister"])
add("user.mother", "My mother Birgitta is 79 and lives alone in Sundsvall.", "2026-01-04", aliases=["mother", "mum"])
add("user.cat", "We have a ginger cat called Pelle, he is 9.", "2026-01-04", aliases=["cat", "pet"])
add("user.chess_rating", "My chess rating is 1650.", "2025-09-01", aliases=["chess rating", "Elo"])
add("user.chess_club", "I play chess at Upsala Schacksällskap on Tuesday evenings.", "2019-09-01", aliases=["chess club"])
add("user.bank", "I bank with Handelsbanken.", "2005-01-01", aliases=["bank"])
add("user.japan_savings", "We are saving 3,000 kronor a month for a trip to Japan.", "2026-01-10")
add("user.travel", "We plan a three-week trip to Japan in spring 2027: Tokyo, Kyoto and Hiroshima.", "2026-01-10", aliases=["holiday", "trip"])
add("user.language", "I am learning Japanese on Duolingo, 20 minutes a day.", "2026-01-10", aliases=["language"])
add("user.wrist", "I broke my right wrist falling off my bike on the ice.", "2026-02-09", aliases=["injury", "wrist"])
add("user.physio", "I see a physiotherapist, Annika, twice a week for my wrist.", "2026-02-23", aliases=["physio"])
add("user.car", "I drive a 2015 Volvo V70.", "2016-03-01", aliases=["car"])
add("user.commute", "I cycle to the shop, 4 km each way.", "2012-03-01", aliases=["commute"])
add("user.allergy", "I'm allergic to penicillin.", "2010-01-01")
add("user.blood_pressure", "My blood pressure is a bit high; I take 5 mg amlodipine every morning.", "2024-03-01", aliases=["medication"])
add("user.garden", "In the garden I grow potatoes, leeks and rhubarb.", "2020-05-01", aliases=["garden"])
add("user.sports", "I go cross-country skiing in winter and swim at Fyrishov in summer.", "2018-01-01", aliases=["sport", "exercise"])
add("user.no_alcohol", "I don't drink alcohol.", "2010-01-01", kind="negative")
add("user.never_japan", "I have never been to Japan.", "2026-01-10", kind="negative")
add("user.no_grandchildren", "I don't have any grandchildren.", "2026-01-04", kind="negative")

# ---- updates during the year
upd("user.wrist", "My wrist has healed and the physiotherapist discharged me.", "2026-05-12")
upd("user.age", "I am 52 years old.", "2026-05-19")
upd("user.job", "I now run my own piano tuning business, Lindqvist Pianoservice, as a self-employed tuner.", "2026-06-01")
upd("user.income", "I charge 1,450 kronor per piano tuning and aim for 25 tunings a month.", "2026-06-01")
upd("user.bank", "I moved my accounts to Swedbank.", "2026-07-01")
upd("user.car", "I bought a used Renault Kangoo van for the business.", "2026-09-01")
upd("user.commute", "I drive the van to customers' homes all over Uppsala county.", "2026-09-01")
upd("user.son", "Our son Viktor is doing his medical internship at Skåne University Hospital in Malmö.", "2026-09-01")
upd("user.chess_rating", "My chess rating is now 1712.", "2026-10-05")
upd("user.travel", "Our Japan trip is booked: we fly from Arlanda on 3 April 2027, three weeks in Tokyo, Kyoto and Hiroshima.", "2026-11-20")

# ---- conversation turns with Tomasz, organist at Uppsala Cathedral and Greta's chess friend
G, T = "Greta", "Tomasz"
SESSIONS = [
    ("s1", "2026-01-12T18:00:00Z", [
        (T, "Happy new year, Greta! Agnieszka and I spent Christmas in Kraków with her parents."),
        (G, "Lovely. We had both kids home: Elsa flew up from Berlin and Viktor took the train from Lund."),
        (T, "Zofia starts school in August, she's already packing her school bag."),
    ]),
    ("s2", "2026-02-16T18:00:00Z", [
        (G, "I slipped on the ice on my bike last Monday and broke my wrist. Six weeks in a cast."),
        (T, "Oh no! How will you tune pianos?"),
        (G, "I can't. The shop put me on sick leave, and my sister drove over from Västerås to help."),
    ]),
    ("s3", "2026-03-20T18:00:00Z", [
        (T, "I've been asked to play the organ at a wedding in Sigtuna in June."),
        (G, "The cast is off. Annika, my physio, says my grip strength is back to 60 percent."),
        (G, "Mum called, she had a fall too but nothing broken. Birgitta is indestructible."),
    ]),
    ("s4", "2026-04-22T18:00:00Z", [
        (G, "I've decided: I'm leaving Musikhuset Fyris and going self-employed from June."),
        (T, "Brave! Our organ at the cathedral needs new bellows, 400,000 kronor, and the parish is fundraising."),
        (G, "My other half thinks I'm mad, but he's supportive."),
    ]),
    ("s5", "2026-05-25T18:00:00Z", [
        (G, "I played in the club championship and won four of my seven games."),
        (T, "Agnieszka is pregnant, the baby is due in November!"),
        (G, "Congratulations! My boy passed his exams in Lund with top marks."),
    ]),
    ("s6", "2026-06-20T18:00:00Z", [
        (G, "First three weeks on my own: 19 tunings, including a Steinway at Katedralskolan."),
        (T, "The Sigtuna wedding went well, though the bride was an hour late."),
        (G, "Karin sent me a cake for the opening, she makes the best cardamom buns in Västerås."),
    ]),
    ("s7", "2026-07-28T18:00:00Z", [
        (G, "Olof and I spent ten days in Berlin with our eldest; she has a new boyfriend, Jonas, who is a cellist."),
        (T, "We're thinking of moving back to Kraków next year; I applied for a job at St Mary's Basilica."),
        (G, "I switched banks to Swedbank, Handelsbanken's business fees were ridiculous."),
    ]),
    ("s8", "2026-09-08T18:00:00Z", [
        (T, "Zofia started school last week and she loves her teacher, Fru Ek."),
        (G, "I bought a used Renault Kangoo for the business, 89,000 kronor."),
        (G, "Viktor moved to Malmö for his internship at the hospital."),
    ]),
    ("s9", "2026-10-14T18:00:00Z", [
        (G, "My rating went up to 1712 after the autumn tournament in Västerås; I stayed with my sister."),
        (T, "I got the Kraków job! We move in March."),
        (G, "Pelle had to have two teeth out, the vet bill was 3,900 kronor."),
    ]),
    ("s10", "2026-11-24T18:00:00Z", [
        (T, "Our son Marek was born on 16 November, 3.4 kilos!"),
        (G, "Wonderful! And our Japan trip is booked: we fly from Arlanda on 3 April."),
        (G, "Mum turns 80 in January, so we're planning a party in Sundsvall."),
        (T, "I'm going to miss Uppsala, and our Tuesday chess."),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"built {STORE}: 35 keys, 10 updates, {n} turns")
