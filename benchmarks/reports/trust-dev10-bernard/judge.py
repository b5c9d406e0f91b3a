# Run beside /tmp/outside8/home/qs.py (the tester's 80 questions).
"""Judge run.py's raw JSON: verdict on the state and the FIRST cited statement.
right: the first cited statement holds the expected value's key string (KEY); right-state-wrong-kind:
it does, but a past value asked (PAST) answers as VERIFIED, not VERIFIED_HISTORICAL;
VERIFIED-but-wrong: answered and the first cited statement does not hold it (a lower citation may),
or answered where UNKNOWN is expected; UNKNOWN-but-answerable: UNKNOWN where a value is stored.
    python judge.py RAW.json [OTHER_RAW.json]   (counts; with OTHER, the questions whose verdict moved)"""
import json, sys
from collections import Counter
KEY = {1:"Fayolle",2:"hydraulic",3:"Croix-Rousse",4:"14 March",5:"Colette",6:"Grenoble",7:"Montr",8:"three",
 9:"Lou",10:"Hirondelle",11:"tomatoes",12:"fibrillation",13:"rivaroxaban",14:"apixaban",15:"apixaban",16:"Benhamou",
 17:"Thursday",18:"Zoe",19:"Peugeot",20:"Peugeot",21:"Giono",22:"spaniel",23:"Filou",24:"Didier",25:"pétanque",
 26:"Saint-Joseph",27:"Italian",28:"Turin",29:"bernard.fayolle",30:"5 km",31:"coffee",32:"pork",33:"Japan",
 34:"Hussard",35:"Étranger",36:"Regain",37:"once a year",38:"six months",39:"Talloires",40:"Sévrier",41:"82",42:"88",
 43:"Restos",44:"pharmacist",45:"Fairphone",46:"electric",57:"garlic",59:"knee",60:"last month",61:"greenhouse",
 62:"Clémence",63:"violin",64:"Josiane",65:"Josiane",66:"Nadia",67:"22 May",68:"Clinique du Parc",69:"camper",
 70:"Karim",71:"Paola",72:"Turin",73:"baguette",74:"1400",75:"Mathieu",76:"4th of January",77:"I proposed",
 78:"greenhouse",79:"Josiane"}
PAST = {14, 15, 19, 20, 35, 36, 38, 40, 42}
from qs import Q
def judge(o, cls):
    n, state = o["n"], o["state"]
    if cls == "U":
        return "right" if state == "UNKNOWN" else "VERIFIED-but-wrong"
    if state == "UNKNOWN":
        return "UNKNOWN-but-answerable"
    key = KEY[n].lower()
    if key in o["ev"].lower():
        if n in PAST and state == "VERIFIED":
            return "right-state-wrong-kind"
        return "right"
    return "VERIFIED-but-wrong"
raw = json.load(open(sys.argv[1]))
c = Counter(); rows = []
for o, (q, asof, exp, cls) in zip(raw, Q):
    v = judge(o, cls); c[v] += 1; rows.append((o["n"], v))
print(dict(c))
if len(sys.argv) > 2:
    other = {o["n"]: judge(o, cls) for o, (q, a, e, cls) in zip(json.load(open(sys.argv[2])), Q)}
    for n, v in rows:
        if other[n] != v: print(n, other[n], "->", v)
