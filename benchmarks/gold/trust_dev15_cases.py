"""Generate trust-dev15.jsonl: whose fact a conversation turn states (issue 13 class 2, session 8, who).

Written before any code change, from the kinds of wrong answer the session-8 held-out stores show
(the lead's description; these are other words and other personas). A store holds the user's keyed
facts beside conversation turns between the user (speaker = the user's name, the scope's owner) and
a friend (speaker = the friend's name). Shapes, each in 2-3 variants beside twins that must still
answer:

1. a question naming the friend ("What subject does Gwen teach?", "What does Gwen's brother do?")
   is answered by the friend's own first-person turns ("I teach chemistry ...", "My brother Huw is
   a plumber"): in a turn I/my/we are its speaker;
2. a first-person question of the user ("Which sport do I play?", "Do I work from home?") is not
   answered by the friend's first-person turn ("I started playing padel ..., you should come") nor
   by a turn about a third person ("She turned the box room into an office since she works from
   home"), and is still answered by the user's own turns, keyed facts, and the friend's turns
   saying "you" to the user;
3. a person the user names in a turn ("My partner Hannah works as a tester", "Hannah works from
   home on Mondays") is the subject of that record: "What is Hannah's job?" answers.

    python benchmarks/gold/trust_dev15_cases.py > benchmarks/gold/trust-dev15.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trust_dev8_cases import cases as dev8_cases, fact  # noqa: E402

V, U = "VERIFIED", "UNKNOWN"


def turn(tx, user, session, speaker, text, day, minute):
    """A conversation turn as ``memory add --speaker --session`` keeps it, said on 2024-06-0<day>
    at 18:<minute> (turns of a session in the order said)."""
    return said(tx, user, session, speaker, text, "2024-06-0%dT18:%02d:00Z" % (day, minute))


def said(tx, user, session, speaker, text, at):
    """The step adding a conversation turn said at ``at`` (trust_dev18_cases too)."""
    return {"at": at, "envelope": {
        "schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": "add",
        "actor": {"type": "agent", "id": "chat"},
        "source": {"type": "conversation", "ref": session + ":" + tx, "observed_at": at, "evidence_hash": None,
                   "session": session, "speaker": speaker},
        "target": {"record_id": None, "memory_key": None, "scope": {"type": "user", "key": user}},
        "payload": {"kind": "episode", "statement": text, "confidence": "high", "importance": "medium",
                    "aliases": [], "tags": [], "negative_triggers": []},
        "valid_time": {"from": at, "to": None}, "sensitivity": {"classification": "private"},
        "reason": "conversation turn kept verbatim"}}


def chat(user, session, day, rows):
    """Turns of one session: (tx, speaker, text) in the order said."""
    return [turn(tx, user, session, speaker, text, day, i) for i, (tx, speaker, text) in enumerate(rows)]


RHYS = ([fact("tx-job", "rhys", "The user works as a bus driver for Cardiff Bus.", 1, "user.job"),
         fact("tx-home", "rhys", "The user rents a terraced house in Splott.", 1, "user.home"),
         fact("tx-rugby", "rhys", "The user follows rugby and has a Cardiff Blues season ticket.", 1, "user.sport")]
        + chat("rhys", "s1", 3, [
            ("tx-teach", "Gwen", "I teach chemistry at Whitchurch High now, the sixth formers are great."),
            ("tx-r1", "Rhys", "Good for you. Are they keeping you busy?"),
            ("tx-race", "Gwen", "Very. I signed up for the Cardiff 10k in October to stay sane."),
            ("tx-skye", "Gwen", "We spent August on Skye with the kids, it rained every day."),
            ("tx-swim", "Rhys", "I swim at the Empire Pool twice a week before my shift."),
            ("tx-padel", "Gwen", "I started playing padel at the leisure centre, you should come along."),
        ])
        + chat("rhys", "s2", 5, [
            ("tx-plumber", "Gwen", "My brother Huw is a plumber, he could look at your boiler."),
            ("tx-shop", "Gwen", "My wife opened a flower shop on Cowbridge Road last spring."),
            ("tx-hannah", "Rhys", "My partner Hannah works as a software tester at a bank."),
            ("tx-days", "Rhys", "Hannah works from home on Mondays and Fridays."),
            ("tx-ffion", "Gwen", "My sister Ffion changed jobs in May."),
            ("tx-she", "Gwen", "She loves it, she turned the box room into an office since she works from home and "
                               "cycles to the coworking space on Thursdays."),
            ("tx-you", "Gwen", "You were brilliant at the quiz night, you knew every capital city."),
        ]))

INES = ([fact("tx-florist", "ines", "I work as a florist at a shop in Stockbridge.", 1, "user.job"),
         fact("tx-flat", "ines", "I rent a two-bedroom flat in Leith.", 1, "user.home")]
        + chat("ines", "c1", 2, [
            ("tx-medic", "Tomasz", "I work as a paramedic out of the Leith station these days."),
            ("tx-i1", "Ines", "That sounds exhausting, how are the shifts?"),
            ("tx-half", "Tomasz", "Long, but I booked the Edinburgh half marathon for May anyway."),
            ("tx-easter", "Tomasz", "We spent Easter in Krakow with my parents."),
            ("tx-bakery", "Tomasz", "My sister Agata runs a bakery in Portobello."),
            ("tx-husband", "Tomasz", "My husband just got a job as a keeper at the zoo."),
            ("tx-he", "Tomasz", "He's thrilled, he takes the tram there every morning and they gave him a flat "
                                "above the cafe."),
        ])
        + chat("ines", "c2", 4, [
            ("tx-climb", "Tomasz", "I took up bouldering at the climbing wall, you'd love it."),
            ("tx-chloe", "Ines", "My flatmate Chloe works as a nurse at the Royal Infirmary."),
            ("tx-nights", "Ines", "Chloe works nights at the weekend, so the flat is quiet."),
            ("tx-netball", "Ines", "I still play netball on Tuesday evenings."),
            ("tx-yourcar", "Tomasz", "Your little Fiat got me home after the party, you're a star."),
        ]))

# two named speakers, the caller no speaker (the public benchmarks' shape): the speaker tests as they were
CONV = chat("conv-15", "d1", 6, [
    ("tx-maya-job", "Maya", "I teach ceramics at the community college on weekday evenings."),
    ("tx-jon-q", "Jon", "That's cool! My cousin Leila teaches there too, she does life drawing."),
    ("tx-jon-run", "Jon", "I ran the Bristol half last month, you should try one."),
    ("tx-maya-dog", "Maya", "Leila walks her greyhound past my flat every morning."),
])

STORES = [
    ("rhys", RHYS, [
        # 1. the friend's first-person turns answer questions naming the friend
        ("What subject does Gwen teach?", V, ["tx-teach"], [],
         "a question naming the friend is answered by the friend's 'I teach chemistry'"),
        ("Which race did Gwen sign up for?", V, ["tx-race"], [], "variant: the friend's 'I signed up for'"),
        ("Where did Gwen spend August?", V, ["tx-skye"], ["tx-swim"], "variant: 'We spent August' is the friend's"),
        ("What does Gwen's brother do?", V, ["tx-plumber"], ["tx-hannah"],
         "the friend's 'My brother Huw is a plumber' is the friend's brother"),
        ("What did Gwen's wife open?", V, ["tx-shop"], [], "variant: the friend's 'My wife opened'"),
        # twins: the friend's facts are not the user's
        ("What subject do I teach?", U, [], ["tx-teach"], "twin: the friend's 'I teach' is not the user's"),
        ("What does my brother do?", U, [], ["tx-plumber"], "twin: the friend's brother is not the user's"),
        # 2. the user's questions are not answered by the friend's first person or a third person
        ("Which sport do I play?", V, ["tx-swim"], ["tx-padel"],
         "the friend's 'I started playing padel ..., you should come' is the friend's sport"),
        ("Do I play padel?", U, [], ["tx-padel"], "variant: a yes/no question, the friend's padel"),
        ("Do I work from home?", U, [], ["tx-she", "tx-days"],
         "a turn about a third person ('she works from home') is that person's"),
        ("How do I get to work these days?", U, [], ["tx-she"], "variant: 'she cycles to the coworking space'"),
        ("What do I do for work now?", V, ["tx-job"], ["tx-she", "tx-teach"],
         "the keyed job answers, never the third person's work nor the friend's"),
        # twins: the user's own turns and the friend's 'you' still answer the user
        ("Where do I swim?", V, ["tx-swim"], ["tx-padel"], "twin: the user's own turn"),
        ("What did I know at the quiz night?", V, ["tx-you"], [], "twin: the friend's 'you' is said to the user"),
        # 3. a person the user names is the subject of that record
        ("What is Hannah's job?", V, ["tx-hannah"], ["tx-job"], "the user's 'My partner Hannah works as' is Hannah's job"),
        ("Which days does Hannah work from home?", V, ["tx-days"], ["tx-she"],
         "variant: 'Hannah works from home on Mondays' names Hannah"),
        ("What does Ffion do now?", U, [], ["tx-job", "tx-teach"], "twin: nothing states Ffion's new job"),
        # a question naming no one
        ("Who teaches chemistry at Whitchurch High?", V, ["tx-teach"], [], "twin: a question naming no one"),
    ]),
    ("ines", INES, [
        ("What does Tomasz do for a living?", V, ["tx-medic"], ["tx-florist"],
         "a question naming the friend is answered by the friend's 'I work as a paramedic'"),
        ("Which race did Tomasz book?", V, ["tx-half"], [], "variant: the friend's 'I booked'"),
        ("Where did Tomasz spend Easter?", V, ["tx-easter"], [], "variant: the friend's 'We spent Easter'"),
        ("What does Tomasz's sister run?", V, ["tx-bakery"], [], "the friend's 'My sister Agata runs a bakery'"),
        ("Where did Tomasz's husband get a job?", V, ["tx-husband"], [], "variant: the friend's 'My husband'"),
        ("What does my sister run?", U, [], ["tx-bakery"], "twin: the friend's sister is not the user's"),
        ("What do I do for a living?", V, ["tx-florist"], ["tx-medic"], "twin: the keyed job, not the friend's"),
        ("Which sport do I do?", V, ["tx-netball"], ["tx-climb"],
         "the friend's 'I took up bouldering ..., you'd love it' is the friend's sport"),
        ("Do I go bouldering?", U, [], ["tx-climb"], "variant: a yes/no question on the friend's sport"),
        ("How do I get to work every morning?", U, [], ["tx-he"],
         "a turn about a third person ('he takes the tram there every morning') is his"),
        ("Do I live above a cafe?", U, [], ["tx-he"], "variant: 'they gave him a flat above the cafe'"),
        ("What car do I have?", V, ["tx-yourcar"], [], "twin: the friend's 'Your little Fiat' is the user's"),
        ("What is Chloe's job?", V, ["tx-chloe"], ["tx-florist"], "the user's 'My flatmate Chloe works as a nurse'"),
        ("When does Chloe work nights?", V, ["tx-nights"], [], "variant: 'Chloe works nights at the weekend'"),
        ("Where is my flat?", V, ["tx-flat"], ["tx-he"], "twin: the keyed home, not the husband's flat"),
    ]),
]


STORES.append(("conv-15", CONV, [
    ("What does Maya teach?", V, ["tx-maya-job"], ["tx-jon-q"], "twin: a named speaker's own turn"),
    ("What did Jon run last month?", V, ["tx-jon-run"], [], "twin: the speaker's 'I ran', said with 'you'"),
    ("What does Leila teach?", V, ["tx-jon-q"], ["tx-maya-job"],
     "a person named in a turn ('My cousin Leila teaches there too') is the subject of her clause"),
    ("What kind of dog does Leila walk?", V, ["tx-maya-dog"], [], "variant: a turn opening with her name"),
    ("Does Maya have a greyhound?", U, [], ["tx-maya-dog"], "twin: Leila's greyhound is not Maya's"),
]))


def cases():
    return dev8_cases(STORES, 1501)


if __name__ == "__main__":
    for c in cases():
        print(json.dumps(c))
