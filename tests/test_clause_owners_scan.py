"""``planner._clause_owners`` reads whom a sentence is about from its own scan of the speakers' words
(``_about_named``) and ``_nicknames`` its peers' first-name beginnings from a table made once per set
of peers (``_first_name_starts``): both held here to the loops they replaced (session 11, read11),
on sentences built from names, nicknames, greetings and pronouns."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memory import planner


def _nicknames_reference(others: frozenset, text: str) -> dict[str, str]:
    import re
    found = {}
    if not others:
        return found
    for hit in re.finditer(r"\b([A-Z][a-z]{1,})\b", text):
        word = hit.group(1)
        owners = [o for o in others if o.split()[0].lower().startswith(word.lower())
                  and o.split()[0].lower() != word.lower()]
        if len(owners) == 1 and planner._addressing(text[:hit.start()].rstrip(), text[hit.end():].lstrip()):
            found[word.lower()] = owners[0]
    return found


def _clause_owners_reference(sentence: str, speaker: str, others: frozenset) -> list:
    """The loop as it was: ``_about_names`` scanning the sentence again for the lead."""
    nicknames = _nicknames_reference(others, sentence)
    marks, addressed = [], set()
    for hit in planner._PERSON_WORD.finditer(sentence):
        marks.append((hit.start(), hit.end(), frozenset({speaker}) if hit.group("first") else others))
    lowered = sentence.lower() if sentence.isascii() else None
    for person in others | {speaker}:
        words = {w: person for w in person.split()}
        words.update({nick: owner for nick, owner in nicknames.items() if owner == person})
        for word in words:
            if lowered is not None and word.isascii() and word.lower() not in lowered:
                continue
            for hit in planner._word_pattern(word).finditer(sentence):
                to = planner._addressing(sentence[:hit.start()].rstrip(), sentence[hit.end():].lstrip())
                if to and planner._GREETING.search(sentence[:hit.start()]):
                    continue
                if to and person != speaker:
                    addressed.add(person)
                marks.append((hit.start(), hit.end(), frozenset({person})))
    marks.sort(key=lambda mark: mark[0])
    lead = planner._about_names(sentence, speaker, others)
    if addressed and not planner._FIRST_PERSON_WORDS.search(sentence):
        lead = set(addressed)
    pieces, at, owner = [], 0, frozenset(lead)
    for start, end, who in marks:
        if start < at:
            continue
        pieces.append((owner, sentence[at:start]))
        owner, at = who, start
    pieces.append((owner, sentence[at:]))
    return pieces


PEERS = [frozenset({"Melanie"}), frozenset({"Caroline", "Jo March"}), frozenset({"Melanie", "Mel Gibson"}),
         frozenset({"Carolina", "Caroline"}), frozenset(), frozenset({"Élodie Martin"})]
SPEAKERS = ["Caroline", "Melanie", "user", "Jon"]

EXAMPLES = [
    "Mel, Mel went home early.", "Mel, Mel and I went home early.",   # a nickname said to her, then of her
    "Hey Mel, I'm fine.", "Wow Mel, that painting's amazing", "Thanks Jo! You rock.",
    "Caroline, you did it!", "Melanie said hi to Car.", "Hi Caro, my dog is ill.", "Go Ca!",
    "That charity race sounds great, Mel!", "Jo went to the market, Jo.", "Élodie, we met Élodie there.",
]


def test_examples_equal_the_loops_they_replaced():
    for others in PEERS:
        for speaker in SPEAKERS:
            for sentence in EXAMPLES:
                peers = others - {speaker}
                assert planner._nicknames(peers, sentence) == _nicknames_reference(peers, sentence)
                assert planner._clause_owners(sentence, speaker, peers) == \
                    _clause_owners_reference(sentence, speaker, peers), (sentence, speaker, peers)


def test_a_nickname_said_of_someone_does_not_name_them():
    # "Mel," opens the sentence (said to Melanie: a nickname); the second "Mel" is no word of her name,
    # so the lead is whom ``_about_names`` finds: the speaker ("I"), not Melanie
    sentence = "Mel, Mel and I went home early."
    pieces = planner._clause_owners(sentence, "Caroline", frozenset({"Melanie"}))
    assert pieces[0] == (frozenset({"Caroline"}), "")
    assert pieces == _clause_owners_reference(sentence, "Caroline", frozenset({"Melanie"}))


WORDS = ["Mel", "Melanie", "Jo", "Caro", "Caroline", "Hey", "hi", "I", "my", "you", "your", "we", "went", "the",
         "painting", "congrats", "Élodie", "Gibson", "and", "said", "to"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(["", ",", "!", ".", "?"])), min_size=1, max_size=9),
       st.sampled_from(PEERS), st.sampled_from(SPEAKERS))
def test_drawn_sentences_equal_the_loops_they_replaced(words, others, speaker):
    sentence = " ".join(word + mark for word, mark in words)
    peers = others - {speaker}
    assert planner._nicknames(peers, sentence) == _nicknames_reference(peers, sentence)
    assert planner._clause_owners(sentence, speaker, peers) == _clause_owners_reference(sentence, speaker, peers)
