"""Generate trust-dev17.jsonl: what a record says is not always the state (issue 13, session 9,
"state").

Written before any code change, from the kinds of wrong answer a new person's store showed (the
lead's description, not its cases), in other words and other personas, each beside twins that must
still answer:
M1 a record about a PROSPECTIVE or hypothetical state (an interview, applying for, thinking of,
   looking at, might, test-driving) does not state the state it names: it does not answer for the
   current one, whether a keyed fact names it (that fact answers) or not (UNKNOWN); a question
   about the prospect itself still gets it;
M2 a record saying only that a thing CHANGED ("I switched energy suppliers", "we changed dentists")
   does not state the value when a record naming the value exists: that record answers, the change
   is not cited; with no record naming the value, a "which" question is UNKNOWN; a question about
   the change itself still gets it;
M3 "Did I use to <activity>?" / "Did I ever <verb>?" needs the asked activity: a replaced link of
   another slot (the old job, the old city) does not answer it; "Did I use to work for <old
   employer>?" is answered by the replaced link (VERIFIED_HISTORICAL);
M4 the question's time words (still, ever, now, anymore, already, just) carry no content: an
   unrelated turn holding "still" does not answer "Do I still drive the <car>?"; a keyed car
   replaced since gives the successor;
M5 a record holding a generic word of the question ("work", "play") but not its head noun ("what
   shift", "what position") does not answer.

Cases marked "held back" in their description are the held-back half (README row): not looked at
while fixing, reported apart.

    python benchmarks/gold/trust_dev17_cases.py > benchmarks/gold/trust-dev17.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev7_cases import fact, turn, update  # noqa: E402
from trust_dev11_cases import late  # noqa: E402
from trust_dev14_cases import cases as dev14_cases  # noqa: E402

V, H, U = "VERIFIED", "VERIFIED_HISTORICAL", "UNKNOWN"
IE = "insufficient_evidence"
AT = "2025-06-02T09:00:00Z"     # a Monday
HB = "held back: "

KEIKO = [fact("tx-job", "keiko", "I work as a pharmacist at the Boots on Camden High Street.", "2024-09-02",
              "user.job"),
         fact("tx-flat", "keiko", "I live in a flat in Kentish Town with my partner.", "2024-09-02", "user.home"),
         fact("tx-sister", "keiko", "My sister Yui works at a bank in Bristol.", "2024-09-02", "sister.job"),
         fact("tx-yoga", "keiko", "I do yoga on Wednesday evenings.", "2024-09-02", "user.yoga"),
         turn("tx-interview", "keiko", "Keiko", "I've got an interview at the Royal Free hospital pharmacy on "
              "Thursday, wish me luck.", "2025-05-26", "session_3"),
         turn("tx-apply", "keiko", "Keiko", "Thinking of applying for a job at a pharmacy in Leeds, closer to mum.",
              "2025-05-27", "session_3"),
         turn("tx-viewing", "keiko", "Keiko", "We're looking at houses in Walthamstow next weekend.", "2025-05-28",
              "session_3"),
         turn("tx-rabbit", "keiko", "Keiko", "We might get a rabbit for the kids once we have a garden.",
              "2025-05-28", "session_3"),
         turn("tx-tired", "keiko", "Keiko", "Long day at work, the queue for prescriptions never ended.",
              "2025-05-29", "session_4")]

DMITRI = [fact("tx-car", "dmitri", "I drive a grey Skoda Fabia.", "2024-02-01", "user.car"),
          fact("tx-pool", "dmitri", "I swim at the university pool on Mondays.", "2024-02-01", "user.swim"),
          fact("tx-son", "dmitri", "My son Lev studies law in Tartu.", "2024-02-01", "son.study"),
          turn("tx-post", "dmitri", "Dmitri", "I'm applying for a lecturer post at Uppsala University.", "2025-05-12",
               "session_2"),
          turn("tx-sweden", "dmitri", "Dmitri", "If the offer comes through we might move to Sweden in the autumn.",
               "2025-05-12", "session_2"),
          turn("tx-volvo", "dmitri", "Dmitri", "Test-driving a Volvo XC40 on Saturday, fingers crossed.", "2025-05-20",
               "session_3"),
          turn("tx-dacha", "dmitri", "Dmitri", "Planning to buy a dacha near the lake one day.", "2025-05-21",
               "session_3")]

NGOZI = [fact("tx-supplier", "ngozi", "My energy supplier is Octopus Energy.", "2025-03-21", "user.energy"),
         turn("tx-switched", "ngozi", "Ngozi", "I switched energy suppliers in March, the old one kept overcharging "
              "me.", "2025-04-02", "session_2"),
         fact("tx-dentist", "ngozi", "Our dentist is Dr Adeyemi on Mill Road.", "2025-01-15", "family.dentist"),
         turn("tx-dentists", "ngozi", "Ngozi", "We changed dentists after the move, the kids hated the old one.",
              "2025-04-03", "session_2"),
         fact("tx-lenses", "ngozi", "My contact lenses are Acuvue Oasys dailies.", "2025-02-10", "user.lenses"),
         turn("tx-swapped", "ngozi", "Ngozi", "I swapped my contact lenses for a different brand last month, much "
              "comfier.", "2025-04-05", "session_3"),
         turn("tx-banks", "ngozi", "Ngozi", "We changed banks in the spring, the app was hopeless.", "2025-04-06",
              "session_3"),
         fact("tx-knit", "ngozi", "I knit on the train to work.", "2025-01-15", "user.knit"),
         fact("tx-brother", "ngozi", "My brother banks with Monzo.", "2025-01-15", "brother.bank")]

RAVI = [late(fact("tx-arriva", "ravi", "I work as a bus driver for Arriva in Leicester.", "2024-01-05", "user.job"),
             "2012-06-01"),
        update("tx-instructor", "ravi", "tx-arriva", "I work as a driving instructor now, self-employed.", "2024-08-01",
               "user.job"),
        late(fact("tx-leicester", "ravi", "I live in Leicester.", "2024-01-05", "user.city"), "2010-01-01"),
        update("tx-nottingham", "ravi", "tx-leicester", "I moved to Nottingham.", "2024-09-01", "user.city"),
        fact("tx-cricket", "ravi", "I play cricket for the village team on Sundays.", "2024-01-05", "user.cricket"),
        fact("tx-cello", "ravi", "My daughter plays the cello in the school orchestra.", "2024-01-05",
             "daughter.music"),
        turn("tx-late", "ravi", "Ravi", "Had to stay late at work again, two pupils failed their tests.", "2025-05-28",
             "session_2")]

MARTA = [fact("tx-fiat", "marta", "I drive a red Fiat 500.", "2023-03-01", "user.car"),
         update("tx-kia", "marta", "tx-fiat", "I drive a Kia Niro now.", "2025-02-01", "user.car"),
         turn("tx-ferry", "marta", "Marta", "I still can't believe what the ferry to Mallorca costs.", "2025-05-10",
              "session_2"),
         turn("tx-nephew", "marta", "Marta", "Drove my nephew to football, he's still buzzing from the win.",
              "2025-05-11", "session_2"),
         turn("tx-paella", "marta", "Marta", "Best paella I have ever eaten, at that place by the beach in Valencia.",
              "2025-05-12", "session_2"),
         turn("tx-now", "marta", "Marta", "Now that the evenings are longer I walk the dog after dinner.",
              "2025-05-13", "session_3"),
         fact("tx-choir", "marta", "I sing alto in a community choir.", "2024-01-01", "user.choir")]

OLU = [fact("tx-warehouse", "olu", "I work at the Amazon warehouse in Dartford.", "2024-10-01", "user.job"),
       fact("tx-football", "olu", "I play five-a-side football on Thursday nights.", "2024-10-01", "user.football"),
       turn("tx-overtime", "olu", "Olu", "Worked overtime again, my back is killing me.", "2025-05-30", "session_2"),
       turn("tx-match", "olu", "Olu", "We played badly, lost 6-2.", "2025-05-30", "session_2"),
       fact("tx-wife", "olu", "My wife Funmi works nights as a midwife.", "2024-10-01", "wife.job")]

# (user, setup, [(question, state, reason, expected, forbidden, hard negatives, as_of, at, description)])
STORES = [
    ("keiko", KEIKO, [
        ("Where do I work now?", V, None, ["tx-job"], ["tx-interview", "tx-apply"], [], None, AT,
         "M1 twin (answers on main): the keyed job, the interview elsewhere not cited"),
        ("Which pharmacy do I work at?", V, None, ["tx-job"], ["tx-interview", "tx-apply"], [], None, AT,
         "M1: the prospective turns hold 'pharmacy'; the keyed job answers alone"),
        ("Where do I live?", V, None, ["tx-flat"], ["tx-viewing"], [], None, AT,
         HB + "M1 variant: looking at houses elsewhere is no home"),
        ("Do we have a rabbit?", U, IE, [], ["tx-rabbit"], [], None, AT,
         "M1: 'we might get a rabbit' says we have none yet"),
        ("When is my interview?", V, None, ["tx-interview"], [], [], None, AT,
         "M1 twin: the prospect itself asked"),
        ("Where does my sister work?", V, None, ["tx-sister"], ["tx-interview"], [], None, AT,
         "M1 twin: another person's job"),
    ]),
    ("dmitri", DMITRI, [
        ("Which university do I work at?", U, IE, [], ["tx-post", "tx-pool"], [], None, AT,
         "M1: applying for a post is not working there; the pool is no workplace"),
        ("Where do I lecture?", U, IE, [], ["tx-post"], [], None, AT, "M1 variant: the post applied for"),
        ("Do I live in Sweden?", U, IE, [], ["tx-sweden"], [], None, AT,
         HB + "M1 variant: 'we might move to Sweden' is no home"),
        ("What car do I drive?", V, None, ["tx-car"], ["tx-volvo"], [], None, AT,
         "M1 variant: test-driving another car is not driving it"),
        ("Do I have a Volvo?", U, IE, [], ["tx-volvo"], [], None, AT, "M1 variant: a test drive owns nothing"),
        ("Do I own a dacha?", U, IE, [], ["tx-dacha"], [], None, AT,
         HB + "M1 variant: planning to buy is not owning"),
        ("What car am I test-driving on Saturday?", V, None, ["tx-volvo"], [], [], None, AT,
         "M1 twin: the prospect itself asked"),
    ]),
    ("ngozi", NGOZI, [
        ("Who is my energy supplier?", V, None, ["tx-supplier"], ["tx-switched"], [], None, AT,
         "M2: the switch names no supplier; the keyed fact names it"),
        ("Who is our dentist?", V, None, ["tx-dentist"], ["tx-dentists"], [], None, AT,
         "M2 variant: 'we changed dentists'"),
        ("What contact lenses do I wear?", V, None, ["tx-lenses"], ["tx-swapped"], [], None, AT,
         HB + "M2 variant: 'swapped ... for a different brand'"),
        ("Which bank are we with?", U, IE, [], ["tx-banks", "tx-brother"], [], None, AT,
         "M2: a change of bank names no bank, the brother's is not ours"),
        ("When did I switch energy suppliers?", V, None, ["tx-switched"], [], [], None, AT,
         "M2 twin: the change itself asked"),
        ("Why did we change dentists?", V, None, ["tx-dentists"], [], [], None, AT,
         HB + "M2 twin: the change itself asked"),
    ]),
    ("ravi", RAVI, [
        ("Did I use to work as a nurse?", U, IE, [], ["tx-arriva", "tx-instructor", "tx-late"], [], None, AT,
         "M3 guard (UNKNOWN on main): a past job of another kind"),
        ("Did I use to work for Arriva?", H, None, ["tx-arriva"], [], [], None, AT,
         "M3 twin: the replaced job answers, historical"),
        ("Did I use to live in Leicester?", H, None, ["tx-leicester"], [], [], None, AT,
         HB + "M3 twin: the replaced city answers, historical"),
    ]),
    ("marta", MARTA, [
        ("Did I use to drive a Kia?", V, None, ["tx-kia"], ["tx-fiat"], [], None, AT,
         "M3: the replaced Fiat does not say Kia; the Kia is today's car"),
        ("Am I still driving a Fiat?", V, None, ["tx-kia"], ["tx-ferry", "tx-nephew"], [], None, AT,
         "M4: 'still' and another sense of drive carry no answer; the Fiat was replaced by the Kia"),
        ("Do I still drive the Fiat?", V, None, ["tx-kia"], ["tx-ferry", "tx-nephew"], [], None, AT,
         HB + "M4 variant: the keyed car was replaced: now the Kia"),
        ("Do I still go to Mallorca?", U, IE, [], ["tx-ferry"], [], None, AT,
         "M4 variant: 'still' is all that makes the ferry's price a visit"),
        ("Do I ever drive to Valencia?", U, IE, [], ["tx-paella"], [], None, AT,
         HB + "M4 variant: 'ever' and the city are all the paella turn shares"),
        ("Do I still sing in a choir?", V, None, ["tx-choir"], ["tx-ferry", "tx-nephew"], [], None, AT,
         "M4 twin: the asked activity stored"),
    ]),
    ("olu", OLU, [
        ("What shift did I work on Friday?", U, IE, [], ["tx-warehouse", "tx-overtime"], [], None, AT,
         "M5: the overtime turn holds 'work', not the shift"),
        ("What role did I work on Friday?", U, IE, [], ["tx-warehouse", "tx-overtime"], [], None, AT,
         HB + "M5 variant: 'role'"),
        ("What position did I play on Friday?", U, IE, [], ["tx-football", "tx-match"], [], None, AT,
         "M5 variant: the match holds 'played', no position"),
        ("Where do I work?", V, None, ["tx-warehouse"], ["tx-wife"], [], None, AT, "M5 twin: the job answers"),
        ("What sport do I play?", V, None, ["tx-football"], [], [], None, AT, "M5 twin: football is a sport"),
    ]),
]


def cases():
    return dev14_cases(STORES, 1701)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
