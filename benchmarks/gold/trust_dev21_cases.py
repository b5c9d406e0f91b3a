"""Generate trust-dev21.jsonl: whose fact it is, through relations, names and chains (issue 13 class 2,
session 10, kin10).

Written before any code change, from the kinds of wrong answer two new people's stores showed (the
lead's description, not their cases), in other words, personas and cities. Shapes, each in 2-3
variants beside twins that must keep their answer:

1. "name"/"called" never carries an answer alone: "What's my grandson called?", "What is my boat's
   name?" are not answered by the caller's own "My name is ..."; that answers only "What is my name?";
2. a nested relation ("Dario's wife", "Priya's husband", "my friend Dario's wife") is answered by
   the record of that person: the friend's own "My wife Carmen ..." turn, a fact "My friend Priya's
   husband Arun works at ...", never the caller's own fact of the same kind;
3. a relative's own facts told under the name ("Tadhg moved to Toronto", "Our Niamh teaches ...")
   answer the relation's question where another record links the name ("my son Tadhg");
4. a friend's own facts in his first-person turns ("I finished the Cardiff half in 1:41", "I play
   water polo", "We called the baby Mateo") answer a question naming the friend, never with the
   caller's own record of the same kind;
5. "How old am I?" is answered by the caller's age said in other words ("I turned 61 in March").

Held back (not looked at while fixing; reported apart): the cases of the store "ruth"
(ids gold_trust_2126 onwards).

    python benchmarks/gold/trust_dev21_cases.py > benchmarks/gold/trust-dev21.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact  # noqa: E402
from trust_dev18_cases import chat  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

MOIRA = [fact("tx-name", "moira", "My name is Moira Fraser.", 1, "user.name"),
         fact("tx-boat", "moira", "My boat is a 28-foot sloop moored at Kessock.", 1, "user.boat"),
         fact("tx-gd", "moira", "My granddaughter started at the nursery in Nairn this spring.", 1, "granddaughter.school"),
         fact("tx-niece", "moira", "My niece Isla is training to be a vet in Glasgow.", 1, "niece.study"),
         fact("tx-age", "moira", "I turned 61 in March.", 1, "user.age"),
         fact("tx-ailsa", "moira", "Our Ailsa's a physio in Dundee.", 2, "ailsa.job"),
         fact("tx-sis", "moira", "My sister Ailsa is coming up for the Highland games.", 2, "sister.visit"),
         fact("tx-job", "moira", "I work part-time at the library in Dingwall.", 2, "user.job"),
         fact("tx-dog", "moira", "My collie sleeps by the stove.", 2, "user.dog")]

ELENA = ([fact("tx-e-name", "elena", "My name is Elena Marsh.", 1, "user.name"),
          fact("tx-e-job", "elena", "I work as a dental nurse in Clifton.", 1, "user.job"),
          fact("tx-e-half", "elena", "I ran the Bristol half marathon in 2:05 last year.", 1, "user.half"),
          fact("tx-e-sport", "elena", "I play netball on Wednesday evenings.", 1, "user.sport"),
          fact("tx-e-wed", "elena", "My husband and I married in Bath in 2015.", 1, "user.wedding"),
          fact("tx-priya", "elena", "My friend Priya's husband Arun works at the Airbus site in Filton.", 2,
               "priya.husband")]
         + chat("elena", "d1", "2024-06-03", [
             ("tx-d-wife", "Dario", "My wife Carmen has just opened a bakery in Bedminster."),
             ("tx-e1", "Elena", "That's brilliant, I'll come by on Saturday!"),
             ("tx-d-job", "Dario", "And I've started at the council as a planner, first week done."),
             ("tx-d-half", "Dario", "I finished the Cardiff half in 1:41 on Sunday."),
         ])
         + chat("elena", "d2", "2024-06-06", [
             ("tx-d-polo", "Dario", "I play water polo at Hengrove on Monday nights now."),
             ("tx-e2", "Elena", "Still doing my netball, the league starts soon."),
             ("tx-d-baby", "Dario", "We called the baby Mateo, after my grandad."),
         ]))

DECLAN = [fact("tx-tadhg", "declan", "Tadhg moved to Toronto with his work last year.", 1, "tadhg.home"),
          fact("tx-son", "declan", "My son Tadhg is an electrician.", 1, "son.job"),
          fact("tx-dau", "declan", "My daughter Roisin lives in Salthill with her partner.", 1, "daughter.home"),
          fact("tx-niamh", "declan", "Our Niamh teaches at the Gaelscoil in Oranmore.", 1, "niamh.job"),
          fact("tx-sister", "declan", "My sister Niamh rang me on Sunday.", 2, "sister.call"),
          fact("tx-home", "declan", "I live in Knocknacarra, near the prom.", 2, "user.home"),
          fact("tx-dj", "declan", "I'm a retired harbour pilot.", 2, "user.job"),
          fact("tx-dname", "declan", "My name is Declan Walsh.", 2, "user.name"),
          fact("tx-dage", "declan", "I'm 67.", 2, "user.age"),
          fact("tx-gson", "declan", "My grandson is starting at the university in Limerick in September.", 2,
               "grandson.study")]

# held back: the same shapes in other words, not looked at while fixing
RUTH = ([fact("tx-r-name", "ruth", "My name is Ruth Okafor.", 1, "user.name"),
         fact("tx-r-age", "ruth", "I turned 45 in June.", 1, "user.age"),
         fact("tx-r-canal", "ruth", "My narrowboat is moored at Rodley.", 1, "user.boat"),
         fact("tx-r-nephew", "ruth", "My nephew Kwame is studying law in Sheffield.", 1, "nephew.study"),
         fact("tx-r-ngozi", "ruth", "Ngozi works as a midwife at Jimmy's.", 1, "ngozi.job"),
         fact("tx-r-sis", "ruth", "My sister Ngozi has two boys.", 2, "sister.kids"),
         fact("tx-r-job", "ruth", "I work in payroll at the council.", 2, "user.job"),
         fact("tx-r-10k", "ruth", "I ran the Leeds 10k in 55 minutes.", 2, "user.10k"),
         fact("tx-r-swim", "ruth", "I swim at the John Charles Centre.", 2, "user.sport")]
        + chat("ruth", "b1", "2024-06-04", [
            ("tx-b-husb", "Bram", "My husband Pieter got a job at the Royal Armouries."),
            ("tx-r1", "Ruth", "Oh he'll love that!"),
            ("tx-b-10k", "Bram", "I did the Leeds 10k in 48 minutes, a personal best."),
            ("tx-b-fence", "Bram", "I've taken up fencing at the university club."),
        ]))

STORES = [
    ("moira", MOIRA, [
        ("What's my granddaughter called?", U, [], ["tx-name"],
         "the caller's own name is not the granddaughter's, nothing names her"),
        ("What is my boat's name?", U, [], ["tx-name"], "variant: a thing's name, the caller's name is not it"),
        ("What is my dog called?", U, [], ["tx-name"], "variant: the collie is never named"),
        ("What is my niece's name?", V, ["tx-niece"], ["tx-name"], "the niece's own record names her"),
        ("What is my name?", V, ["tx-name"], [], "twin: the caller's own name"),
        ("How old am I?", V, ["tx-age"], [], "the caller's age in other words: 'I turned 61 in March'"),
        ("What does my sister do?", V, ["tx-ailsa"], ["tx-job"],
         "the sister's own fact under her name ('Our Ailsa's a physio'), linked by 'my sister Ailsa'"),
        ("What is my job?", V, ["tx-job"], ["tx-ailsa"], "twin: the caller's own work"),
    ]),
    ("elena", ELENA, [
        ("What's my friend Dario's wife called?", V, ["tx-d-wife"], ["tx-e-name"],
         "a chain: the friend's 'My wife Carmen', not the caller's name"),
        ("What is Dario's wife's name?", V, ["tx-d-wife"], ["tx-e-name"], "variant: the nested name asked"),
        ("What does Dario's wife do?", V, ["tx-d-wife"], ["tx-e-job"],
         "variant: the friend's wife's bakery, not the caller's job"),
        ("What is Dario's new job?", V, ["tx-d-job"], ["tx-e-job"],
         "the friend's 'I've started at the council as a planner'"),
        ("What time did Dario run the Cardiff half in?", V, ["tx-d-half"], ["tx-e-half"],
         "the friend's 'I finished ... in 1:41', not the caller's half"),
        ("What sport does Dario play?", V, ["tx-d-polo"], ["tx-e-sport"], "the friend's water polo"),
        ("What did Dario and Carmen call the baby?", V, ["tx-d-baby"], ["tx-e-name"],
         "the friend's 'We called the baby Mateo'"),
        ("Where does Priya's husband work?", V, ["tx-priya"], ["tx-e-job"], "a nested relation in one fact"),
        ("What is Priya's husband called?", V, ["tx-priya"], ["tx-e-name"], "variant: his name, not the caller's"),
        ("What sport do I play?", V, ["tx-e-sport"], ["tx-d-polo"], "twin: the caller's own sport"),
        ("What was my half marathon time?", V, ["tx-e-half"], ["tx-d-half"], "twin: the caller's own half"),
    ]),
    ("declan", DECLAN, [
        ("Where does my son live?", V, ["tx-tadhg"], ["tx-home", "tx-dau"],
         "the son's own fact under his name, linked by 'My son Tadhg'"),
        ("What does my sister do?", V, ["tx-niamh"], ["tx-dj"], "'Our Niamh teaches ...', linked by 'My sister Niamh'"),
        ("What is my grandson's name?", U, [], ["tx-dname"],
         "the grandson's record names no one, the caller's name is not his"),
        ("Which of my children lives in Toronto?", V, ["tx-tadhg"], ["tx-home"],
         "a who-question over the family, answered by the member's own record under his name"),
        ("Who in my family is a teacher?", V, ["tx-niamh"], ["tx-dj"], "variant: the sister who teaches, under her name"),
        ("How old am I?", V, ["tx-dage"], ["tx-gson"], "twin: 'I'm 67.'"),
        ("What is my daughter's name?", V, ["tx-dau"], ["tx-dname"], "twin: the daughter's own record names her"),
    ]),
    ("ruth", RUTH, [
        ("What's my narrowboat called?", U, [], ["tx-r-name"], "held back: the boat is never named"),
        ("What is my nephew called?", V, ["tx-r-nephew"], ["tx-r-name"], "held back: the nephew's own record"),
        ("What age am I?", V, ["tx-r-age"], [], "held back: 'I turned 45 in June'"),
        ("What is my sister's job?", V, ["tx-r-ngozi"], ["tx-r-job"], "held back: 'Ngozi works as a midwife'"),
        ("Where does Bram's husband work?", V, ["tx-b-husb"], ["tx-r-job"], "held back: the friend's 'My husband Pieter'"),
        ("What is Bram's husband called?", V, ["tx-b-husb"], ["tx-r-name"], "held back: his name, not the caller's"),
        ("What was Bram's 10k time?", V, ["tx-b-10k"], ["tx-r-10k"], "held back: the friend's 48 minutes"),
        ("What sport has Bram taken up?", V, ["tx-b-fence"], ["tx-r-swim"], "held back: the friend's fencing"),
        ("What was my 10k time?", V, ["tx-r-10k"], ["tx-b-10k"], "held back twin: the caller's own 10k"),
    ]),
]


def cases():
    return dev8_cases(STORES, 2101)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
