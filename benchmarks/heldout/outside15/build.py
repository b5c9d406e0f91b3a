"""Build a store for one invented person: Meg (Margaret) Holloway, 58 (59 from September), chemistry
teacher in Hobart, Tasmania, who retires in July 2026. python build.py STORE   (the folder is replaced)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import add_sessions, writer  # noqa: E402
from memory import api  # noqa: E402

USER = "meg"
STORE, store, ok, add, upd = writer(USER)

# ---- keyed facts (36 keys, 10 updated, 3 negatives)
add("user.name", "My name is Margaret Holloway, but everyone calls me Meg.", "2026-01-10")
add("user.age", "I am 58 years old.", "2026-01-10")
add("user.birthday", "My birthday is 3 September.", "2026-01-10", aliases=["birthday"])
add("user.job", "I teach chemistry at Taroona High School.", "2001-02-01", aliases=["job", "work"])
add("user.income", "I earn about 118,000 dollars a year teaching.", "2025-01-01", aliases=["salary", "income", "pay"])
add("user.home_city", "I live in Hobart, Tasmania.", "1995-01-01", aliases=["home city"])
add("user.home", "We live in a weatherboard house in Sandy Bay.", "2003-04-01", aliases=["home", "house"])
add("user.partner", "My husband Graham is a land surveyor with the state government.", "1990-01-01", aliases=["husband", "partner"])
add("user.son", "Our son Liam is 29 and works as a sound engineer in Melbourne.", "2026-01-10", aliases=["son", "child"])
add("user.daughter", "Our daughter Rosie is 26 and lives in Vancouver, where she is doing a PhD in oceanography.", "2026-01-10", aliases=["daughter", "child"])
add("user.brother", "My younger brother Pete runs a surf shop in Margaret River.", "2026-01-10", aliases=["brother", "sibling"])
add("user.mother", "My mum Joan is 84 and lives in Launceston.", "2026-01-10", aliases=["mother", "mum"])
add("user.dog", "We have a kelpie called Juno.", "2021-05-01", aliases=["dog", "pet"])
add("user.boat", "I sail a Tasar dinghy called Kestrel.", "2018-10-01", aliases=["boat", "dinghy"])
add("user.sailing_club", "I race with the Royal Yacht Club of Tasmania on Wednesday evenings.", "2018-10-01", aliases=["sailing", "club"])
add("user.sailing_result", "Kestrel finished 4th overall in the club's 2025-26 summer series.", "2026-04-01")
add("user.cycling", "I cycle about 120 km a week.", "2024-01-01", aliases=["cycling", "bike"])
add("user.diabetes", "I was diagnosed with type 2 diabetes in March 2026.", "2026-03-18", aliases=["diagnosis", "health"])
add("user.medication", "I take metformin 500 mg twice a day.", "2026-03-20", aliases=["medication", "tablets"])
add("user.hba1c", "My HbA1c was 7.4% at diagnosis.", "2026-03-18", aliases=["blood sugar", "HbA1c"])
add("user.gp", "My GP is Dr Anand at the Battery Point clinic.", "2012-01-01", aliases=["doctor", "GP"])
add("user.allergy", "I'm allergic to bee stings and carry an EpiPen.", "1998-01-01", aliases=["allergy"])
add("user.super", "My superannuation balance is about 640,000 dollars.", "2026-06-30", aliases=["super", "retirement savings"])
add("user.mortgage", "We paid off the Sandy Bay mortgage in 2019.", "2019-11-01", aliases=["mortgage"])
add("user.car", "I drive a 2015 Subaru Forester.", "2015-06-01", aliases=["car"])
add("user.trip", "We fly to Vancouver on 14 October 2026 to visit Rosie for three weeks.", "2026-05-05", aliases=["trip", "holiday", "travel"])
add("user.trip_2027", "Next April we plan to walk the Kumano Kodo in Japan.", "2026-11-01", aliases=["Japan trip"])
add("user.languages", "I speak English and a little Japanese.", "2010-01-01")
add("user.volunteer", "I volunteer at the Hobart Repair Café on the first Saturday of every month.", "2022-03-01", aliases=["volunteering"])
add("user.garden", "In the veggie patch I grow tomatoes, zucchini and broad beans.", "2020-09-01", aliases=["vegetable garden", "veggie patch"])
add("user.degree", "I did my chemistry degree at the University of Tasmania, graduating in 1989.", "1989-12-01")
add("user.retirement_gift", "My school gave me a telescope as a retirement present.", "2026-07-03")
add("user.grandchild", "Liam and his partner Chloe are expecting their first baby in November.", "2026-08-05", aliases=["grandchild", "baby"])
add("user.no_alcohol", "I don't drink alcohol.", "2015-01-01", kind="negative")
add("user.no_smoking", "I have never smoked.", "1990-01-01", kind="negative")
add("user.no_instagram", "I'm not on Instagram.", "2020-01-01", kind="negative")

# ---- updates over the year
upd("user.job", "I retired from teaching in July 2026 and now tutor chemistry students two afternoons a week.", "2026-07-03")
upd("user.income", "Since retiring my income is a super pension of about 4,200 dollars a month.", "2026-07-03")
upd("user.medication", "I now take metformin 1000 mg twice a day.", "2026-06-15")
upd("user.hba1c", "My latest HbA1c is 6.3%.", "2026-09-22")
upd("user.age", "I am 59 years old.", "2026-09-03")
upd("user.cycling", "Since retiring I cycle about 200 km a week.", "2026-08-01")
upd("user.car", "I now drive a 2026 BYD Atto 3 electric car.", "2026-08-10")
upd("user.home", "We sold the Sandy Bay house for 1.12 million dollars and moved to a two-bedroom unit in Kingston Beach.", "2026-09-25")
upd("user.boat", "I sold Kestrel in November 2026; I now crew on my brother-in-law's yacht.", "2026-11-15")
upd("user.grandchild", "My first grandchild, Ada, was born on 9 November 2026 to Liam and Chloe.", "2026-11-09")

# ---- conversation turns with Ngaire, a PE teacher and Meg's colleague at Taroona High
M, N = "Meg", "Ngaire"
SESSIONS = [
    ("s1", "2026-01-22T10:00:00Z", [
        (N, "Meg, I'm applying for the deputy principal job at Brooks High in Launceston. Tane says go for it."),
        (M, "Go for it! I'm counting down, only two terms left before I retire in July."),
        (N, "The twins start year 12 next month, Mere wants to study vet science."),
        (M, "Rosie was the same at that age, now she's chasing whales for her PhD in Canada."),
    ]),
    ("s2", "2026-03-25T04:00:00Z", [
        (M, "The doctor rang last week, my blood test came back and it's type 2 diabetes."),
        (N, "Oh Meg, that's a lot. How are you feeling?"),
        (M, "Fine really, just tired. Graham's been cooking low-carb for both of us."),
        (N, "Tane did the same when his dad got diagnosed. I got the Launceston job by the way, we move at the end of June!"),
    ]),
    ("s3", "2026-05-06T08:00:00Z", [
        (M, "Booked the flights to see our daughter in Vancouver, we leave on 14 October."),
        (N, "Lovely. Are you going to see your brother in WA before then?"),
        (M, "Pete's coming to us instead, he's flying over for my farewell in July."),
        (N, "I'm doing the Point to Pinnacle in November, 21 kilometres uphill, what was I thinking."),
    ]),
    ("s4", "2026-07-04T09:00:00Z", [
        (M, "Last day yesterday! Twenty-five years at Taroona High and they gave me a telescope."),
        (N, "You deserved it. We've been in Launceston a week, the house is still full of boxes."),
        (M, "Mum's thrilled you're in Launceston, she says to pop in for a cuppa."),
        (N, "I will! Tell Joan I'll bring scones."),
    ]),
    ("s5", "2026-08-12T07:00:00Z", [
        (M, "We accepted an offer on the house last week, settlement is in September."),
        (N, "How much did it go for, if you don't mind me asking?"),
        (M, "1.12 million, more than we hoped. We're buying a two-bedroom place at Kingston Beach."),
        (N, "Tane's started as station officer at the Launceston fire station, he loves it."),
        (M, "My son rang too, he and Chloe are expecting in November."),
    ]),
    ("s6", "2026-09-10T06:00:00Z", [
        (M, "Sixty-two kilometres on the bike this morning, down the Channel Highway and back."),
        (N, "Show off. I'm up to 15 km training runs for Point to Pinnacle."),
        (M, "Rosie got engaged to Mateo in August, so the Vancouver trip is a celebration now."),
        (N, "Congratulations to the girl! Aroha got into nursing at UTAS, Mere is still waiting to hear about vet science."),
    ]),
    ("s7", "2026-11-20T05:00:00Z", [
        (M, "Liam's baby arrived on the ninth, a little girl called Ada, 3.4 kilos."),
        (N, "A grandmother! How was Canada?"),
        (M, "Wonderful, three weeks of rain and whales. Graham's knee played up on the hikes though."),
        (N, "We bought a campervan, a 2009 Toyota HiAce, for the school holidays."),
        (M, "I sold the Tasar, I'm going to crew on Graham's brother's yacht in the Bruny Island race instead."),
        (N, "I finished Point to Pinnacle in 2 hours 41 minutes, my legs still hurt."),
    ]),
]
n = add_sessions(store, USER, SESSIONS, ok)
print(f"built {STORE}: 36 keys, 10 updates, {n} turns")
