"""Build a store for one invented person: Aoife Kavanagh, 38 (39 from August), veterinary nurse in Dublin.
python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "aoife"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (37 keys, 11 updated, 3 negatives)
add("user.name", "My name is Aoife Kavanagh.", "2026-01-05")
add("user.age", "I am 38 years old.", "2026-01-05")
add("user.birthday", "My birthday is 14 August.", "2026-01-05")
add("user.job", "I work as a veterinary nurse at Clontarf Vet Clinic.", "2019-04-01", aliases=["job", "work"])
add("user.shift", "I work five days a week, 8 to 4.", "2019-04-01", aliases=["working hours", "shift"])
add("user.salary", "I earn about 41,000 euros a year.", "2025-01-01", aliases=["salary", "pay"])
add("user.commute", "I cycle to work along the coast road.", "2019-04-01", aliases=["commute"])
add("user.home_city", "I live in Dublin.", "2010-09-01", aliases=["home city"])
add("user.home", "We rent a two-bed apartment in Drumcondra.", "2020-06-01", aliases=["home", "apartment", "house"])
add("user.housing_cost", "Our rent is 2,100 euros a month.", "2023-01-01", aliases=["rent", "mortgage"])
add("user.partner", "My partner Declan is a chef at a restaurant in Temple Bar.", "2018-01-01", aliases=["partner"])
add("user.met_partner", "Declan and I met in 2014 at a friend's wedding in Sligo.", "2014-06-01")
add("user.daughter", "Our daughter Saoirse is 8 and goes to Scoil Mhuire primary school.", "2026-01-05", aliases=["daughter", "child"])
add("user.daughter_activity", "Saoirse does Irish dancing on Wednesdays.", "2025-09-01")
add("user.father", "My dad Michael is 79 and a retired postman.", "2026-01-05", aliases=["father", "dad"])
add("user.father_health", "My father has Parkinson's disease.", "2024-02-01")
add("user.father_home", "My father lives on his own in Galway city.", "2015-01-01")
add("user.father_visits", "I drive to Galway to see my dad every second Sunday.", "2024-03-01")
add("user.sister", "My sister Niamh is a primary teacher in Cork.", "2026-01-05", aliases=["sister"])
add("user.dog", "We have a retired greyhound called Biscuit.", "2022-05-01", aliases=["dog", "pet"])
add("user.cat", "We have a grey cat called Mochi.", "2021-03-01", aliases=["cat", "pet"])
add("user.choir", "I sing alto in the Rathmines Community Choir on Tuesday evenings.", "2019-09-01", aliases=["choir"])
add("user.choir_concert", "Our choir's Christmas concert is on 17 December at the Pepper Canister Church.", "2026-11-01")
add("user.running", "I run the parkrun in Phoenix Park every Saturday morning.", "2024-03-01", aliases=["running", "hobby"])
add("user.5k_pb", "My best 5k time is 24 minutes 10 seconds.", "2025-10-04", aliases=["5k personal best", "PB"])
add("user.asthma", "I have asthma.", "2000-01-01")
add("user.medication", "I take a Symbicort preventer inhaler twice a day.", "2025-01-01", aliases=["inhaler", "medication"])
add("user.allergy", "I'm allergic to penicillin.", "2010-01-01")
add("user.gp", "My GP is Dr. Fitzgerald in Phibsborough.", "2020-06-01", aliases=["doctor"])
add("user.car", "I drive a 2012 Ford Fiesta.", "2016-03-01", aliases=["car"])
add("user.allotment", "At our allotment in Glasnevin I grow potatoes, leeks and spinach.", "2025-03-01")
add("user.holiday", "We went camping in Kerry in July 2026.", "2026-07-20", aliases=["holiday"])
add("user.languages", "I speak English and Irish, and some French.", "2010-01-01")
add("user.training", "I qualified as a veterinary nurse from Dundalk IT in 2011.", "2011-06-01")
add("user.deposit", "We saved a 35,000 euro deposit for the house.", "2026-06-01")
add("user.no_meat", "I don't eat meat; I'm vegetarian.", "2015-01-01", kind="negative")
add("user.no_coffee", "I don't drink coffee, only tea.", "2020-01-01", kind="negative")
add("user.no_facebook", "I'm not on Facebook.", "2022-01-01", kind="negative")

# ---- updates over the year
upd("user.job", "I'm now a senior veterinary nurse at the UCD Veterinary Hospital in Belfield.", "2026-03-02")
upd("user.shift", "I work four ten-hour shifts a week, Monday to Thursday.", "2026-03-02")
upd("user.salary", "I earn 47,500 euros a year in the new job.", "2026-03-02")
upd("user.commute", "I drive to work in Belfield, it takes about 40 minutes.", "2026-04-20")
upd("user.car", "I now drive a 2024 Hyundai Kona electric.", "2026-04-18")
upd("user.medication", "I switched to a Fostair inhaler, two puffs morning and night.", "2026-05-10")
upd("user.5k_pb", "My best 5k time is 23 minutes 32 seconds.", "2026-06-13")
upd("user.age", "I am 39 years old.", "2026-08-14")
upd("user.home", "We bought a terraced house in Glasnevin and moved in.", "2026-09-18")
upd("user.housing_cost", "Our mortgage repayment is 1,850 euros a month.", "2026-09-18")
upd("user.father_home", "My father now lives in St. Enda's nursing home in Salthill.", "2026-10-12")

# ---- conversation turns with Priya, a vet at Aoife's old clinic
A, P = "Aoife", "Priya"
SESSIONS = [
    ("s1", "2026-01-20T13:00:00Z", [
        (P, "Aoife, did you hear I signed up for the Dublin Marathon in October? My first one."),
        (A, "Fair play! I'll stick to parkrun, 5k is plenty for me."),
        (P, "Kabir starts junior infants in September, Arjun is already stressing about school places."),
        (A, "Saoirse loved junior infants at Scoil Mhuire, he'll be grand."),
    ]),
    ("s2", "2026-02-12T12:30:00Z", [
        (A, "I had an interview at the UCD Veterinary Hospital yesterday for a senior nurse job."),
        (P, "You'd be brilliant there. I'd miss you at Clontarf though."),
        (A, "Dad had a fall at home last week, my sister Niamh went up from Cork to stay with him."),
        (P, "Oh no, I hope Michael is alright."),
    ]),
    ("s3", "2026-03-05T12:00:00Z", [
        (A, "First week at UCD done. The equine unit is enormous."),
        (P, "My mother is coming over from Kerala for three months in April."),
        (A, "Declan says to bring her to the restaurant, he'll cook something special."),
    ]),
    ("s4", "2026-04-20T12:00:00Z", [
        (A, "Picked up the Kona on Saturday, my first electric car. The range is about 450 km."),
        (P, "Arjun wants one but we can't afford it this year."),
        (P, "I did 28 km on my long run on Sunday, my knees are sore."),
    ]),
    ("s5", "2026-05-14T12:00:00Z", [
        (A, "The GP switched my inhaler after a bad asthma flare during the pollen season."),
        (P, "I started bouldering at Gravity Climbing in Inchicore, it's great for the upper body."),
        (A, "Saoirse's Irish dancing feis is on Saturday, she's so nervous."),
    ]),
    ("s6", "2026-06-15T12:00:00Z", [
        (A, "New parkrun PB on Saturday, 23:32! Himself came to cheer with the little one."),
        (P, "I'm thinking of leaving Clontarf and opening my own small-animal practice in Cork next year."),
        (A, "Cork would suit you, and Niamh could show you around."),
    ]),
    ("s7", "2026-07-24T12:00:00Z", [
        (A, "Back from a week camping in Kerry. Biscuit loved Inch beach."),
        (P, "Arjun got promoted to team lead at Intel."),
        (A, "We're bidding on a house in Glasnevin, fingers crossed."),
    ]),
    ("s8", "2026-09-22T12:00:00Z", [
        (A, "We got the keys on Friday and moved into the Glasnevin house. Mochi hid under the bed for two days."),
        (P, "Kabir settled into junior infants in Lucan, he loves his teacher."),
        (A, "The drive to Dad's in Galway is 210 km, I do it every second Sunday."),
    ]),
    ("s9", "2026-10-20T12:00:00Z", [
        (P, "I finished the marathon in 4 hours 12 minutes!"),
        (A, "Amazing, Priya! Dad moved into a nursing home in Salthill last week, it was a hard decision."),
        (P, "That's tough. My own father had Parkinson's too, back in Kochi."),
        (A, "Declan's mam is minding Saoirse on Tuesdays so I can still go to choir."),
    ]),
    ("s10", "2026-11-18T12:00:00Z", [
        (P, "I handed in my notice, I'm starting at a practice in Cork in January."),
        (A, "We'll miss you! Our choir concert is on 17 December, come before you go."),
        (A, "My daughter wants a puppy for Christmas, but two pets is enough."),
        (P, "Kabir wants a puppy too, Arjun said no."),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"built {STORE}: 37 keys, 11 updates, {n} turns")
