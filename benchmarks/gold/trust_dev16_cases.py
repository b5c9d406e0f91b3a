"""Generate trust-dev16.jsonl: answerable questions in other words, relations and everyday vocabulary
(issue 13, session 8, kin8).

Written before any code change, from the kinds of UNKNOWN-but-answerable answers two new testers'
stores showed (the lead's description, not their cases), in other words and other personas, beside
twins that must keep their answer and hard negatives that must stay UNKNOWN:

- a relation named otherwise: "my kids" by "two teenagers, ...", "my mum" by "my mother", "my mum
  and dad" by "my parents", "my partner" by "my girlfriend", "my bird" by "my budgie", and a
  relation asked in the very words of the record ("my sister" against "My sister Marta is a
  midwife in Gdańsk") with a question verb the record does not hold ("do for a living", "live");
- everyday vocabulary: earn/make/income by "salary"/"take home", dish by food, doctorate by PhD,
  "eat meat" by "vegetarian" (VERIFIED by the record that settles it), home by flat, latest by
  last, blood test by a named test;
- hard negatives: the synonym stated about another person (a friend's salary, the wife's PhD), a
  negated or past state ("I used to be vegetarian"), a sibling of the wrong kind (the brother's
  bakery for "my sister"), a pet of another kind (the dog for "my bird").

    python benchmarks/gold/trust_dev16_cases.py > benchmarks/gold/trust-dev16.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"

STORES = [
    # first person, a family and a household
    ("zofia", [fact("tx-teens", "zofia", "I have two teenagers, Kuba who is 16 and Lena who is 14.", 1, "user.children"),
               fact("tx-mother", "zofia", "My mother is called Danuta.", 1, "mother.name"),
               fact("tx-parents", "zofia", "My parents live in Toruń, near the old town.", 1, "parents.home"),
               fact("tx-girlfriend", "zofia", "I live with my girlfriend Ines in a rented flat.", 1, "user.partner"),
               fact("tx-sister", "zofia", "My sister Marta is a midwife in Gdańsk.", 1, "sister.job"),
               fact("tx-brother", "zofia", "My brother Piotr runs a bakery in Kraków.", 1, "brother.job"),
               fact("tx-budgie", "zofia", "My budgie is called Kiwi.", 2, "user.budgie"),
               fact("tx-dog", "zofia", "The neighbours' dog Bruno barks all night.", 2, "neighbours.dog"),
               fact("tx-bus", "zofia", "I take the 8 bus to the office.", 2, "user.commute"),
               fact("tx-names", "zofia", "I named my bike Rocket as a joke.", 2, "user.bike"),
               fact("tx-doing", "zofia", "On Fridays I do yoga in the park.", 2, "user.yoga")], [
        ("What are my children's names?", V, ["tx-teens"], ["tx-names", "tx-budgie"],
         "kids asked, two teenagers stated with their names"),
        ("What's my mum called?", V, ["tx-mother"], ["tx-budgie", "tx-names"], "twin (answers on main): mum asked, 'my mother is called' stated"),
        ("Where do my mum and dad live?", V, ["tx-parents"], ["tx-girlfriend"], "mum and dad asked, parents stated"),
        ("Who is my partner?", V, ["tx-girlfriend"], ["tx-sister"], "twin (answers on main): a partner asked, a girlfriend stated"),
        ("What does my sister do for a living?", V, ["tx-sister"], ["tx-brother", "tx-doing"],
         "twin (answers on main): the relation in the record's own words; 'do for a living' asks the job the record states"),
        ("Where does my sister live?", V, ["tx-sister"], ["tx-parents", "tx-girlfriend"],
         "the sister's city, stated without 'live'"),
        ("What does my brother do?", V, ["tx-brother"], ["tx-sister", "tx-doing"], "variant: 'runs a bakery'"),
        ("What's my bird called?", V, ["tx-budgie"], ["tx-dog", "tx-names"], "a bird asked, a budgie named"),
        ("What's my dog called?", U, [], ["tx-dog", "tx-budgie"],
         "hard negative: the neighbours' dog is not mine; a budgie is no dog"),
        ("What does my cousin do for a living?", U, [], ["tx-sister", "tx-brother"],
         "hard negative: no cousin stored; siblings are not cousins"),
        ("What are my grandchildren called?", U, [], ["tx-teens"], "hard negative: children are not grandchildren"),
    ]),
    # the same shapes in the third person, as an assistant writes them
    ("rahul", [fact("tx-kids", "rahul", "The user has a son, Arjun, and a daughter, Mira.", 1, "user.kids"),
               fact("tx-wife", "rahul", "The user's wife Priti teaches chemistry at a secondary school.", 1, "wife.job"),
               fact("tx-bro", "rahul", "The user's brother Sanjay is a dentist in Leicester.", 1, "brother.job"),
               fact("tx-cat", "rahul", "The user's cat is a grey Persian called Smoke.", 1, "user.cat"),
               fact("tx-garden", "rahul", "The user grows tomatoes in the greenhouse.", 2, "user.garden"),
               fact("tx-tea", "rahul", "The user drinks masala chai every afternoon.", 2, "user.tea")], [
        ("What does my husband do?", U, [], ["tx-wife", "tx-bro"], "hard negative: a wife is no husband"),
        ("What does my spouse do for work?", V, ["tx-wife"], ["tx-bro"], "a spouse asked, the wife stated with her job"),
        ("What does my sister do?", U, [], ["tx-bro", "tx-wife"],
         "hard negative: a sibling of the wrong kind (the brother is a dentist)"),
        ("Where does my brother work?", V, ["tx-bro"], ["tx-wife"], "the brother's city stated with his job"),
        ("What pet do I have?", V, ["tx-cat"], ["tx-garden"], "twin: a cat is a pet (session 7's lexicon)"),
    ]),
    # everyday vocabulary: money, food, education, diet, home, health
    ("amara", [fact("tx-salary", "amara", "My salary is 47,000 a year before tax.", 1, "user.salary"),
               fact("tx-friend-pay", "amara", "My friend Chidi earns twice what I do as a surgeon.", 1, "friend.pay"),
               fact("tx-food", "amara", "My favourite food is jollof rice.", 1, "user.food"),
               fact("tx-phd", "amara", "I have a PhD in soil science from Reading.", 1, "user.phd"),
               fact("tx-veg", "amara", "I'm vegetarian.", 1, "user.diet"),
               fact("tx-flat", "amara", "My flat is in Headingley, above a bike shop.", 1, "user.home"),
               fact("tx-hba1c", "amara", "My last HbA1c came back at 48.", 2, "user.hba1c"),
               fact("tx-run", "amara", "I run five kilometres before breakfast.", 2, "user.running"),
               fact("tx-town", "amara", "The town centre gets busy on Saturdays.", 2, "town.busy"),
               fact("tx-test", "amara", "I passed my driving test at the third attempt.", 2, "user.driving"),
               fact("tx-money", "amara", "I lent my cousin some money for a deposit.", 2, "cousin.loan")], [
        ("How much do I earn?", V, ["tx-salary"], ["tx-friend-pay", "tx-money"], "earn asked, a salary stated"),
        ("What is my income?", V, ["tx-salary"], ["tx-friend-pay", "tx-money"], "variant: income is the salary"),
        ("What's my favourite dish?", V, ["tx-food"], ["tx-run"], "dish asked, favourite food stated"),
        ("What subject is my doctorate in?", V, ["tx-phd"], ["tx-test"], "doctorate asked, PhD stated"),
        ("Do I eat meat?", V, ["tx-veg"], ["tx-run"], "vegetarian settles whether I eat meat (VERIFIED, no)"),
        ("Which part of town is my home in?", V, ["tx-flat"], ["tx-town"], "home asked, the flat's district stated"),
        ("What was my most recent blood test result?", V, ["tx-hba1c"], ["tx-test"],
         "a blood test asked, the last HbA1c stated"),
        ("How much does my brother earn?", U, [], ["tx-salary", "tx-friend-pay"],
         "hard negative: my salary and a friend's pay are not the brother's"),
    ]),
    # the hard negatives of vocabulary: past state, another person's synonym
    ("ewan", [fact("tx-usedveg", "ewan", "I used to be vegetarian, years ago at university.", 1, "user.diet"),
              fact("tx-wife-phd", "ewan", "My wife Isla has a PhD in medieval history.", 1, "wife.phd"),
              fact("tx-wage", "ewan", "I take home about 2,300 a month.", 1, "user.pay"),
              fact("tx-house", "ewan", "Our house is in Morningside, a short walk from the canal.", 1, "user.house"),
              fact("tx-fish", "ewan", "Isla doesn't eat fish.", 2, "wife.fish"),
              fact("tx-golf", "ewan", "I play golf with my father-in-law.", 2, "user.golf")], [
        ("Do I eat meat?", U, [], ["tx-usedveg", "tx-fish"],
         "hard negative: a past diet does not settle the present one"),
        ("What subject is my doctorate in?", U, [], ["tx-wife-phd"], "hard negative: the wife's PhD is not mine"),
        ("What is my wife's doctorate in?", V, ["tx-wife-phd"], ["tx-golf"], "twin: the wife's PhD answers for her"),
        ("How much money do I make?", V, ["tx-wage"], ["tx-golf"], "make money asked, take home stated"),
        ("Which neighbourhood do I live in?", V, ["tx-house"], ["tx-golf"], "live asked, the house's district stated"),
    ]),
]


def cases():
    return dev8_cases(STORES, 1601)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
