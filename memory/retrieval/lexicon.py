"""The category lexicon: words naming a category and the members a record names instead.

"What vegetables do I grow?" is answered by "I grow leeks and parsnips": the question names a
category (vegetables), the record a member of it. ``memory/packaged/lexicon/classes.json`` holds a
few dozen everyday categories (vegetable, fruit, sport, team, language, drink, medication and its
kinds, instrument, pet, vehicle, car, job, colour, country, city ...) with their common members,
and the relation groups whose words stand for each other (a wife is a spouse; a GP is a doctor; a
son is one of the kids). It is read by the support and coverage tests (``features.class_lexicon``,
``features.relation_lexicon``), never by BM25: what a search finds, and its order, is unchanged.

Three rules keep a member from answering what it does not state:

- a category counts only where the question asks a member of it: the category word right after
  what/which/any ("which city", "any pets"), after "kind/type/sort of", or after one other word
  ("which football team");
- a member counts only in a clause that does not negate it ("I no longer grow potatoes", "gave up
  tennis", "but not courgettes"): ``positive_terms``;
- whose member it is stays the subject tests' business (a member stated about another person
  never answers): the lexicon only says what the record holds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..jsonio import loads_trusted    # orjson: the packaged tables parse ~2.5x faster than with ``json``
from ..paths import PACKAGED   # the package data folder, not importlib.resources (start-up)
from .patterns import Lazy
from .tokenize import tokenize


@dataclass(frozen=True)
class Category:
    """One category: its name, the members' terms (a phrase holds all of its terms) and whether a
    record stating a place by name holds it (city, country)."""
    name: str
    place: bool = False
    after: Lazy | None = None   # words after which a capitalised name is a member
    strict: bool = False   # its members are names: one counts only with the rest of the question held
    single: bool = False   # its members exclude each other for one subject (a job, a colour, a car's make)

    @property
    def members(self) -> tuple[frozenset[str], ...]:
        return _members(self.name)


@lru_cache(maxsize=None)
def _member_union(name: str) -> frozenset[str]:
    """Every term of a category's members (``held_categories`` reads a member only where one is held)."""
    return frozenset().union(*_members(name))


@lru_cache(maxsize=None)
def _members(name: str) -> tuple[frozenset[str], ...]:
    """A category's members' terms (members of '@other' resolved), stemmed when the category is
    first asked about: stemming all ~1,000 members cost every `memory query` process ~35 ms on its
    first question, whatever it asked."""
    raw = _load()["classes"]

    def members(name: str, seen: frozenset[str]) -> set[frozenset[str]]:
        found: set[frozenset[str]] = set()
        for member in _split(raw[name].get("members", "")):
            if member.startswith("@"):
                other = member[1:]
                if other in raw and other not in seen:
                    found |= members(other, seen | {other})
                continue
            terms = frozenset(tokenize(member))
            if terms:
                found.add(terms)
        return found

    return tuple(sorted(members(name, frozenset({name})), key=sorted))


@lru_cache(maxsize=1)
def _load() -> dict:
    return loads_trusted(PACKAGED.joinpath("lexicon", "classes.json").read_bytes())


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


@lru_cache(maxsize=1)
def categories() -> dict[str, Category]:
    """The term of each word naming a category -> the category (its members stemmed on first use)."""
    raw = _load()["classes"]
    out: dict[str, Category] = {}
    for name, entry in raw.items():
        after = _split(entry.get("after", ""))
        pattern = Lazy(r"(?i:\b(?:%s))\s+(?:the\s+)?[A-Z]" % "|".join(
            re.escape(words).replace(r"\ ", r"\s+") for words in after)) if after else None
        category = Category(name, bool(entry.get("place")), pattern, bool(entry.get("strict")),
                            bool(entry.get("single")))
        for word in _split(entry["names"]):
            terms = tokenize(word)
            if len(terms) == 1:   # a category is named by one word
                out.setdefault(terms[0], category)
    return out


@lru_cache(maxsize=1)
def relation_groups() -> dict[str, frozenset[str]]:
    """relation term -> the other terms that name the same relation when the question says it:
    a general word ("spouse", "partner", "kids") takes every word of its group, a specific word
    ("wife", "son") only the general ones (a wife is a spouse, not a husband); a group's "states"
    words ("married") say the relation of the owner without naming it."""
    found: dict[str, set[str]] = {}
    for group in _load()["relations"]:
        general = {t for word in _split(group.get("general", "")) for t in tokenize(word)}
        specific = {t for word in _split(group.get("specific", "")) for t in tokenize(word)}
        states = {t for word in _split(group.get("states", "")) for t in tokenize(word)}
        for term in general:
            found.setdefault(term, set()).update(general | specific | states)
        for term in specific:
            found.setdefault(term, set()).update(general | states | {term})
    return {term: frozenset(others - {term}) for term, others in found.items()}


@lru_cache(maxsize=1)
def _relation_words() -> frozenset[str]:
    return frozenset(word.lower() for group in _load()["relations"] for key in ("general", "specific", "states")
                     for word in _split(group.get(key, "")))


# ``features.relation_idioms``: a relation idiom stands where a possessive or "the" stands before it
_IDIOM_OWNER = r"(\b(?:[Mm]y|[Oo]ur|[Yy]our|[Hh]is|[Hh]er|[Tt]heir|[Tt]he\s+user's|[Tt]he|[^\W\d_][\w-]*'s))\s+"


@lru_cache(maxsize=1)
def relation_idioms() -> tuple[re.Pattern, dict[str, str]] | None:
    """The relation groups' idioms ("my other half", "my significant other", "my OH", "the missus"):
    a pattern finding one after its owner (a possessive or "the"; a phrase written in capitals only in
    capitals, "OH" is no "oh"), and idiom (lowercased, one space) -> the group's general words, which
    it stands for. None when the lexicon holds no idiom."""
    words: dict[str, str] = {}
    alternatives = []
    for group in _load()["relations"]:
        for phrase in _split(group.get("idioms", "")):
            words[" ".join(phrase.lower().split())] = " ".join(_split(group.get("general", "")))
            written = re.escape(phrase).replace(r"\ ", r"\s+")
            alternatives.append(written if phrase.isupper() else "(?i:%s)" % written)
    if not alternatives:
        return None
    # "the other half of the team" names no one
    return re.compile(_IDIOM_OWNER + "(%s)(?![\\w-])(?!\\s+of\\b)" % "|".join(alternatives)), words


def idiom_relations(text: str) -> tuple[str, frozenset[str]]:
    """``features.relation_idioms``: ``text`` with each relation idiom read as its group's first
    general word ("What does my other half do?" -> "What does my spouse do?"), and the terms of the
    general words of the idioms it held (none when it held none)."""
    found = relation_idioms()
    if found is None:
        return text, frozenset()
    pattern, words = found
    held: set[str] = set()

    def read(match: re.Match) -> str:
        general = words[" ".join(match.group(2).lower().split())]
        held.update(tokenize(general))
        return match.group(1) + " " + general.split()[0]
    read_text = pattern.sub(read, text.replace("\u2019", "'"))
    return (read_text, frozenset(held)) if held else (text, frozenset())


_STANDING_FOR: set[str] = set()   # the colloquial words read as one relation ("lad = son")


@lru_cache(maxsize=1)
def _colloquial_pattern() -> tuple[re.Pattern, dict[str, str]] | None:
    """``features.colloquial_relations``: the relation groups' colloquial words ("our lad", "my girl",
    "our eldest"): a pattern finding one after the owner's my/our (not "the boy", "his girl"), not
    followed by a relation word ("my eldest brother" is a brother), and word -> the words it stands
    for ("lad = son" in the lexicon: son; else the group's general words). None when the lexicon
    holds none."""
    words: dict[str, str] = {}
    _STANDING_FOR.clear()
    for group in _load()["relations"]:
        for word in _split(group.get("colloquial", "")):
            # "lad = son": the word it stands for; else the group's one-word general words ("child", "kids")
            word, _, meant = (part.strip() for part in word.partition("="))
            words[word.lower()] = meant or " ".join(w for w in _split(group.get("general", "")) if " " not in w)
            if meant:
                _STANDING_FOR.add(word.lower())
    if not words:
        return None
    relation = "|".join(sorted(re.escape(w) for w in _relation_words() | set(words)))
    return re.compile(r"(\b(?:[Mm]y|[Oo]ur))\s+(?i:(%s))(?![\w-])(?!\s+(?i:%s)\b)"
                      % ("|".join(sorted(map(re.escape, words))), relation)), words


def colloquial_relations(text: str) -> tuple[str, frozenset[str]]:
    """``features.colloquial_relations``: ``text`` with each colloquial relation word after my/our read
    as its group's first general word ("What does our lad do?" -> "What does our child do?"), and the
    terms of the general words it held (none when it held none)."""
    lowered = text.lower()
    if "my " not in lowered and "our " not in lowered:   # the owner's my/our is always before one
        return text, frozenset()
    found = _colloquial_pattern()
    if found is None:
        return text, frozenset()
    pattern, words = found
    held: set[str] = set()

    def read(match: re.Match) -> str:
        word = match.group(2)
        meant = words[word.lower()]
        held.update(tokenize(meant))
        # a word standing for one relation is that relation ("our lad": "our son"); one naming a member
        # of a group keeps what it says of them ("our eldest": "our eldest child", not "our youngest")
        return match.group(1) + " " + (meant if word.lower() in _STANDING_FOR else word + " " + meant.split()[0])
    read_text = pattern.sub(read, text.replace("\u2019", "'"))
    return (read_text, frozenset(held)) if held else (text, frozenset())


def colloquial_words(terms) -> frozenset[str]:
    """``features.colloquial_relations``: the terms of the colloquial words naming a relation whose
    terms are among ``terms`` ("son": lad, lads, boy, boys, and eldest, youngest ... of the children):
    what a search for that relation also looks for."""
    found = _colloquial_pattern()
    if found is None:
        return frozenset()
    wanted = set(terms) | {t for term in terms for t in relation_groups().get(term, ())}
    return frozenset(t for word, meant in found[1].items() if not wanted.isdisjoint(tokenize(meant))
                     for t in tokenize(word))


@lru_cache(maxsize=1)
def kin_group() -> tuple[frozenset[str], frozenset[str]]:
    """``features.kin_group``: the terms of the words naming the owner's family as a group ("family",
    "relatives") and those of the relations it is made of (``classes.json`` "kin")."""
    kin = _load().get("kin", {})
    return (frozenset(t for word in _split(kin.get("general", "")) for t in tokenize(word)),
            frozenset(t for word in _split(kin.get("members", "")) for t in tokenize(word)))


def relation_word_terms(text: str) -> frozenset[str]:
    """The terms of the words of a text that are relation words of the lexicon themselves ("my
    doctor", "my teenagers"), not words stemming like one ("doctorate")."""
    return frozenset(t for word in re.findall(r"[^\W\d_][\w'-]*", text.replace("\u2019", "'"))
                     if word.lower().removesuffix("'s").removesuffix("'") in _relation_words()
                     for t in tokenize(word))


# the words after which a category word asks for a member: "which city", "any pets", "what kind of
# music", "my favourite sport", or one word later ("which football team")
_ASKED = Lazy(r"(?i)\b(?:what|which|whatever|any|favou?rite)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?"
                    r"([^\W\d_][\w'-]*)(?:\s+([^\W\d_][\w'-]*))?")
# a word after what/which that is no modifier of a category word: "What do you grow?", "Which is ..."
_NOT_MODIFIERS = frozenset("do does did is are was were am has have had can could will would should shall may might "
                           "must i you he she we they my your his her our their the a an".split())


# ``everyday_thesaurus``: "Which part of town ...", "What area of the city ..." ask a place in it
_ASKED_PART = re.compile(r"(?i)\b(?:what|which)\s+(parts?|areas?|end)\s+of\s+(?:the\s+)?([^\W\d_][\w'-]*)")


def asked_parts(question: str) -> dict[str, frozenset[str]]:
    """``everyday_thesaurus``: the place categories a question asks a part of ("Which part of town
    is my home in?"), by the term naming each, with the terms of the word naming the part: a
    place the record names holds both."""
    known = categories()
    found = {}
    for hit in _ASKED_PART.finditer(question.replace("\u2019", "'")):
        terms = tokenize(hit.group(2))
        if len(terms) == 1 and terms[0] in known and known[terms[0]].place:
            found[terms[0]] = frozenset(tokenize(hit.group(1)))
    return found


def asked_categories(question: str) -> dict[str, Category]:
    """The categories a question asks a member of, by the term that names each."""
    known = categories()
    found: dict[str, Category] = {}
    for hit in _ASKED.finditer(question.replace("\u2019", "'")):
        first = tokenize(hit.group(1))
        if len(first) == 1 and first[0] in known:
            found[first[0]] = known[first[0]]
            continue
        if hit.group(2) and hit.group(1).lower() not in _NOT_MODIFIERS:
            second = tokenize(hit.group(2))
            if len(second) == 1 and second[0] in known:
                found[second[0]] = known[second[0]]
    return found


# a clause that negates or ends what it states ("I no longer grow potatoes", "gave up tennis", "used to")
_NEGATING = Lazy(r"(?i)n't\b|\b(?:not|never|no|none|nor|neither|without|cannot|stopped|stop|stops|quit|quits|"
                       r"gave\s+up|give\s+up|gives\s+up|giving\s+up|anymore|any\s+more|used\s+to|avoid|avoids|"
                       r"hate|hates|dislike|dislikes|allergic)\b")
_CLAUSES = Lazy(r"[.;:!?,()]|\b(?:but|although|though|whereas|while|except|instead)\b", re.IGNORECASE)


# ``features.negation_scope`` (issue 13, session 11, asked11): "and" before a negating word opens a clause of
# its own, so a negation does not reach back over what was stated before it ("The user is coeliac and
# avoids gluten": coeliac is stated, gluten avoided; "I love tennis and hate golf")
_SCOPED_CLAUSES = Lazy(r"[.;:!?,()]|\b(?:but|although|though|whereas|while|except|instead)\b|\band\s+(?=(?:not|never|no|"
                       r"avoid|avoids|avoided|hate|hates|dislike|dislikes|stopped|quit|quits|gave\s+up|gives\s+up|"
                       r"[^\W\d_]+n't|cannot)\b)", re.IGNORECASE)


def _clauses_of(scoped: bool) -> Lazy:
    return _SCOPED_CLAUSES if scoped else _CLAUSES


def negates(text: str) -> bool:
    """Whether a text negates or refuses something ("What drink do I avoid?", "I no longer ...")."""
    return bool(_NEGATING.search(text.replace("\u2019", "'")))


def positive_terms(statement: str, scoped: bool = False) -> frozenset[str]:
    """The terms of the clauses of a statement that negate nothing: a member named in a clause
    saying "no longer", "not", "gave up" is not stated ("I grow leeks but not potatoes": leeks).
    ``scoped`` (``negation_scope``): "and" before a negating word opens a clause."""
    text = statement.replace("\u2019", "'")
    held: set[str] = set()
    for clause in _clauses_of(scoped).split(text):
        if clause and not _NEGATING.search(clause):
            held.update(tokenize(clause))
    return frozenset(held)


def positive_clauses(statement: str) -> list[str]:
    """The clauses of a statement that negate nothing (``positive_terms``' clauses, as written)."""
    return [clause for clause in _CLAUSES.split(statement.replace("\u2019", "'"))
            if clause and not _NEGATING.search(clause)]


# a place named after a preposition of place, or after a verb of moving and "to": "lives in Montréal",
# "moved to Norway", "from Lyon"; a capitalised word that is a time, a language or a nationality is no place
_NAMED_PLACE = Lazy(r"\b(?:(?:in|from|near|around|outside|across|at\s+home\s+in)|(?:moved|moving|moves|move|"
                          r"relocated|relocating|emigrated|went|goes|going|gone|flew|flying|travelled|traveled|"
                          r"headed|back)\s+(?:back\s+)?to)\s+(?:the\s+)?([A-Z][\w'-]*)")
_NOT_PLACES_TEXT = ("january february march april may june july august september october november "
                    "december monday tuesday wednesday thursday friday saturday sunday christmas "
                    "easter spring summer autumn winter")


@lru_cache(maxsize=None)
def _not_places() -> frozenset[str]:
    """The terms of ``_NOT_PLACES_TEXT``, stemmed on first use: a table stemmed at import costs
    every `memory query` process (pure-Python Snowball), most of which never read a place."""
    return frozenset(tokenize(_NOT_PLACES_TEXT))


def names_place(statement: str) -> bool:
    """Whether a clause of the statement that negates nothing names a place ("lives in Rotterdam")."""
    text = statement.replace("\u2019", "'")
    languages = {t for cat in ("languag", "nation") for m in getattr(categories().get(cat), "members", ())
                 for t in m}
    for clause in _CLAUSES.split(text):
        if not clause or _NEGATING.search(clause):
            continue
        for hit in _NAMED_PLACE.finditer(clause):
            terms = tokenize(hit.group(1))
            if terms and not set(terms) & (_not_places() | languages):
                return True
    return False


@lru_cache(maxsize=1)
def _member_phrases() -> frozenset[frozenset[str]]:
    """Every member of a category or kind said in two words or more ("blood thinner", "maine coon")."""
    return frozenset(member for category in categories().values() for member in category.members if len(member) > 1) \
        | frozenset(member for name in _kinds() for member in _kind_members(name) if len(member) > 1)


def names_member(terms: frozenset[str]) -> bool:
    """Whether ``terms`` are those of a member the lexicon writes in several words."""
    return terms in _member_phrases()


def held_categories(asked: dict[str, Category], held: frozenset[str], positive: frozenset[str],
                    place: bool, statement: str = "") -> frozenset[str]:
    """The asked category terms a record holds: a member whose terms it holds in a clause that
    negates nothing (``positive``), for a place category a place it names (``place``), or a name
    after the category's 'after' words in such a clause of ``statement`` ("supports Legia Warsaw")."""
    stated = held & positive
    found = set()
    for term, category in asked.items():
        # (a record holding no term of any member holds none: most records, ~50 members a category)
        if (category.place and place) or (not stated.isdisjoint(_member_union(category.name)) and any(
                member <= stated for member in category.members)) \
                or (category.after is not None and _names_after(category.after, statement)):
            found.add(term)
    return frozenset(found)


def _names_after(pattern: Lazy, statement: str) -> bool:
    return any(clause and not _NEGATING.search(clause) and pattern.search(clause)
               for clause in _CLAUSES.split(statement.replace("\u2019", "'")))


def member_terms(asked: dict[str, Category]) -> list[str]:
    """Every term of the members of the asked categories (to find the records naming one)."""
    return sorted({t for category in asked.values() for member in category.members for t in member})


# ``features.everyday_thesaurus``: the packaged groups of everyday words that stand for each other in a
# question about one's own life (``memory/packaged/lexicon/thesaurus.json``): "How much do I earn?" is
# held by "My salary is 47,000 a year", "my doctorate" by "a PhD", "Do I eat meat?" by "I'm vegetarian"
@lru_cache(maxsize=1)
def _thesaurus() -> dict:
    return loads_trusted(PACKAGED.joinpath("lexicon", "thesaurus.json").read_bytes())


def stemmed_thesaurus() -> list[dict]:
    """The thesaurus' groups as terms, stemmed here (``tools/gen_thesaurus_terms.py`` writes them out
    as ``thesaurus-terms.json``, so that no `memory query` process stems ~700 phrases): each group's
    phrases ("phrases", lists of terms; a phrase read as fewer words than it has is another word and
    left out: "work out" would be "work") and which of them it writes out ("written": the others are
    a category's members taken by '@')."""
    found = []
    for domain in _thesaurus()["groups"].values():
        for group in domain:
            words = _split(group)
            written = [frozenset(tokenize(p)) for p in words if not p.startswith("@")
                       and (len(p.split()) == 1 or len(tokenize(p)) > 1)]
            phrases = [p for p in dict.fromkeys(
                written + [member for p in words if p.startswith("@") for member in _members(p[1:])]) if p]
            if len(phrases) > 1:
                found.append({"phrases": [sorted(p) for p in phrases],
                              "written": [at for at, p in enumerate(phrases) if p in set(written)]})
    return found


@lru_cache(maxsize=1)
def _stemmed() -> list[dict]:
    return loads_trusted(PACKAGED.joinpath("lexicon", "thesaurus-terms.json").read_bytes())["groups"]


@lru_cache(maxsize=1)
def _groups_written() -> tuple[frozenset[frozenset[str]], ...]:
    """Each group's phrases as written out (not a category's members it takes by '@')."""
    return tuple(frozenset(frozenset(group["phrases"][at]) for at in group["written"]) for group in _stemmed())


@lru_cache(maxsize=1)
def synonym_groups() -> tuple[tuple[frozenset[str], ...], ...]:
    """Each group's phrases as their terms (a phrase holds all its terms; '@job' the members of the
    category job), read as written out by ``tools/gen_thesaurus_terms.py``: never stemmed in a query."""
    return tuple(tuple(frozenset(p) for p in group["phrases"]) for group in _stemmed())


@lru_cache(maxsize=1)
def _groups_by_term() -> dict[str, tuple[int, ...]]:
    found: dict[str, list[int]] = {}
    for at, group in enumerate(synonym_groups()):
        for phrase in group:
            for term in phrase:
                if at not in found.setdefault(term, []):
                    found[term].append(at)
    return {term: tuple(ats) for term, ats in found.items()}


def asked_synonyms(terms) -> tuple[tuple[frozenset[str], tuple[frozenset[str], ...], frozenset], ...]:
    """The phrases of the thesaurus a question holds whole, each with the other phrases of its
    group and those of them the group writes out: ((asked phrase terms, (other phrase terms, ...),
    written), ...)."""
    held = frozenset(terms)
    groups, written = synonym_groups(), _groups_written()
    found = []
    for at in sorted({at for t in held for at in _groups_by_term().get(t, ())}):
        for phrase in groups[at]:
            # a member a group takes by '@' is held by it, never asks it ("am I a pilot?" is not
            # answered by "The user works as a nurse")
            if phrase <= held and phrase in written[at]:
                others = tuple(p for p in groups[at] if not p <= held)
                if others:
                    found.append((phrase, others, written[at]))
    return tuple(found)


# a role the record gives someone: "is a dentist", "I'm a nurse", "works as a tiler", "trained as an architect"
_STATES_ROLE = re.compile(r"(?i)(?:\b(?:is|am|are|was|were|works?|worked|working|job|trained|qualified|became|become)"
                          r"|'m|'re)\s+(?:as\s+)?(?:a|an)\s+((?:[^\W\d_][\w-]*\s+){0,2}[^\W\d_][\w-]*)")


def synonym_held(asked: tuple, stated: frozenset[str], statement: str | None = None,
                 compounds: bool = False) -> frozenset[str]:
    """The question's terms a record holds in other words: those of each asked phrase whose group
    has another phrase all of whose terms the record states (``stated``: in clauses negating nothing).
    A category's member the group takes by '@' counts only as a role the ``statement`` gives ("is a
    dentist", not "loves his garden" for a gardener: members stem like everyday words). With
    ``compounds`` (``features.whole_compounds``) a one-word phrase the ``statement`` says only inside
    a longer phrase of the thesaurus is that phrase: "a flat white with oat milk" names a coffee, not
    a flat ("Where do I live?"), "my blood work" no work."""
    roles = None
    tokens = None
    found: set[str] = set()
    for phrase, others, written in asked:
        for other in others:
            if not other <= stated:
                continue
            if compounds and statement is not None and len(other) == 1 and next(iter(other)) in _compounds():
                if tokens is None:
                    tokens = tokenize(statement)
                if _only_in_compounds(next(iter(other)), tokens):
                    continue
            if other not in written:
                if statement is None:
                    continue
                if roles is None:
                    roles = [frozenset(tokenize(hit.group(1))) for hit in _STATES_ROLE.finditer(
                        statement.replace("\u2019", "'"))]
                if not any(other <= role for role in roles):
                    continue
            found |= phrase
            break
    return frozenset(found)


@lru_cache(maxsize=1)
def _compounds() -> dict[str, tuple[frozenset[str], ...]]:
    """term -> the phrases of two or more terms the thesaurus writes out holding it."""
    found: dict[str, set[frozenset[str]]] = {}
    for group in _groups_written():
        for phrase in group:
            if len(phrase) > 1:
                for term in phrase:
                    found.setdefault(term, set()).add(phrase)
    return {term: tuple(phrases) for term, phrases in found.items()}


def _only_in_compounds(term: str, tokens: list[str]) -> bool:
    """Whether every place ``tokens`` say ``term`` is inside a longer written phrase said there word
    by word (the phrase's terms, in any order, side by side: "flat white", "white flat")."""
    at = [i for i, t in enumerate(tokens) if t == term]
    if not at:
        return False
    for i in at:
        if not any(frozenset(tokens[start:start + len(phrase)]) == phrase
                   for phrase in _compounds()[term]
                   for start in range(max(0, i - len(phrase) + 1), i + 1)):
            return False
    return True


@lru_cache(maxsize=1)
def _other_senses() -> dict[str, tuple[frozenset[str], ...]]:
    """term -> the written phrases of two or more terms holding it in a group that does not hold the
    term alone: another sense of it ("river bank" beside riverside, not bank; "spare time", "blood
    work", "flat white"), not a kind of it ("red wine" beside wine, "bank account" beside bank)."""
    found: dict[str, set[frozenset[str]]] = {}
    for group in _groups_written():
        for phrase in group:
            if len(phrase) > 1:
                for term in phrase:
                    if frozenset({term}) not in group:
                        found.setdefault(term, set()).add(phrase)
    return {term: tuple(phrases) for term, phrases in found.items()}


def compound_terms(term: str) -> tuple[frozenset[str], ...]:
    """``compound_senses``: the written phrases holding ``term`` in another sense (``_other_senses``)."""
    return _other_senses().get(term, ())


def only_in_compounds(term: str, tokens: list[str]) -> bool:
    """Whether every place ``tokens`` say ``term`` is inside a written phrase holding it in another
    sense, said there word by word (False for a term no such phrase holds)."""
    phrases = compound_terms(term)
    at = [i for i, t in enumerate(tokens) if t == term]
    if not phrases or not at:
        return False
    return all(any(frozenset(tokens[start:start + len(phrase)]) == phrase for phrase in phrases
                   for start in range(max(0, i - len(phrase) + 1), i + 1)) for i in at)


def synonym_terms(asked: tuple) -> list[str]:
    """Every term of the other phrases the asked groups write out (to find the records stating one;
    a category's members taken by '@' are read, not searched: "work" would search ~150 jobs)."""
    return sorted({t for _, others, written in asked for other in others if other in written for t in other})


# ``member_roles``: the head of a noun phrase is its last noun ("any medical conditions" asks a condition,
# not a medicine): where both words after what/which/any name a category, the second is asked
def asked_heads(question: str) -> dict[str, Category]:
    """``asked_categories``, a category word followed by another read as that one's modifier."""
    known = categories()
    found: dict[str, Category] = {}
    for hit in _ASKED.finditer(question.replace("\u2019", "'")):
        first = tokenize(hit.group(1))
        second = tokenize(hit.group(2)) if hit.group(2) and hit.group(1).lower() not in _NOT_MODIFIERS else []
        for terms in (second, first):
            if len(terms) == 1 and terms[0] in known:
                found[terms[0]] = known[terms[0]]
                break
    return found


# ``member_roles``: a member said as the means of a journey ("I cycle to the clinic", "cycle into town",
# "run to work", "by bike", "commute on my bike") is no member of the category a question asks ("Which
# sport do I do?"): it says how one travels, not what one plays. A round trip ("swim to the pier and
# back") is the exercise itself.
_JOURNEY = Lazy(r"(?i)\b([^\W\d_][\w'-]*)\s+(?:(?:in|back|over|down|up|across|out)\s+)?(?:to|into)\s+(?!(?:the\s+|my\s+|a\s+)?"
                r"\w+\s+and\s+back\b)(?:the|my|our|his|her|their|a|an|work|school|college|uni|town|church|class|(?-i:[A-Z]))|"
                r"\b(?:by|on\s+(?:my|his|her|their|the|a|an))\s+([^\W\d_][\w'-]*)|"
                r"\bcommut\w*\s+(?:\w+\s+)?(?:by|on)\s+(?:(?:my|his|her|their|our|the|a|an)\s+)?([^\W\d_][\w'-]*)")


# and a member watched or followed ("We watch the sumo", "follows rugby") is no member of what one does,
# unless the question asks what one watches, follows or supports
_SPECTATOR = Lazy(r"(?i)\b(?:watch|watches|watching|watched|follow|follows|following|followed)\s+(?:the\s+|a\s+|"
                  r"some\s+|live\s+)?([^\W\d_][\w'-]*)")
_ASKS_SPECTATOR = Lazy(r"(?i)\b(?:watch|watches|watching|watched|follow|follows|following|followed|fan|fans|support|"
                       r"supports|supporting|like|likes|love|loves|enjoy|enjoys|favou?rite)\b")


def journey_terms(statement: str) -> frozenset[str]:
    """The terms of the words a statement uses as the means of a journey (``_JOURNEY``): a means of the
    transport category ("cycle", "bike", "walk"), not any word before "to" ("I take my dog to the vet")."""
    found: set[str] = set()
    for hit in _JOURNEY.finditer(statement.replace("\u2019", "'")):
        for word in hit.groups():
            if word:
                found.update(tokenize(word))
    return frozenset(found) & _member_union("transport") if found and "transport" in _load()["classes"] \
        else frozenset()


def asks_spectator(question: str) -> bool:
    """Whether a question asks what one watches, follows, supports or likes ("Which sport do I watch?")."""
    return bool(_ASKS_SPECTATOR.search(question.replace("\u2019", "'")))


def spectator_terms(statement: str) -> frozenset[str]:
    """The terms of the words a statement says are watched or followed (``_SPECTATOR``)."""
    return frozenset(t for hit in _SPECTATOR.finditer(statement.replace("\u2019", "'")) for t in tokenize(hit.group(1)))


# ``negated_synonyms``: a clause negates by a plain negation ("I don't eat meat") or by a word of refusing
# ("allergic to penicillin"); a yes/no question is settled by either polarity, a question holding the
# refusing word itself ("Which antibiotic am I allergic to?") asks what that clause names. What ended
# ("I gave up meat", "stopped smoking", "no longer") settles a yes/no question as a negation does; a past
# state ("I used to be vegetarian", "formerly") settles nothing now.
_ENDED = Lazy(r"(?i)\b(?:used\s+to|former|formerly)\b")
_NEGATOR_WORDS = Lazy(r"(?i)n't\b|\b(?:not|never|no|none|nor|neither|without|cannot|stop|stops|stopped|quit|quits|"
                      r"gave\s+up|give\s+up|gives\s+up|giving\s+up|anymore|avoid|avoids|hate|hates|dislike|dislikes|"
                      r"allergic)\b")


def asked_negators(question: str) -> frozenset[str]:
    """The negating words a question holds itself, lower-cased ("allergic", "avoid")."""
    return frozenset(hit.group(0).lower() for hit in _NEGATOR_WORDS.finditer(question.replace("\u2019", "'")))


def stated_terms(statement: str, asked: frozenset[str], settled: bool, scoped: bool = False) -> frozenset[str]:
    """``positive_terms``, with the terms of a clause whose negating words the question holds itself
    (``asked``: "allergic" for "Which antibiotic am I allergic to?"), and with ``settled`` (a yes/no
    question) of a clause plainly negated ("I don't eat meat" settles "Am I a vegetarian?"); never a
    clause saying what ended ("I used to be vegetarian"). ``scoped``: as ``positive_terms``'."""
    text = statement.replace("\u2019", "'")
    held: set[str] = set()
    for clause in _clauses_of(scoped).split(text):
        if not clause:
            continue
        negators = {hit.group(0).lower() for hit in _NEGATOR_WORDS.finditer(clause)}
        if _NEGATING.search(clause) and (_ENDED.search(clause) or not (settled or negators <= asked)
                                         or not negators):
            continue
        held.update(tokenize(clause))
    return frozenset(held)


# ``amount_things``: the words of a thing whose value is an amount of money ("What was my rent in 2025?",
# "How much rent did I pay?"): an amount answers only for the thing it is the amount of
@lru_cache(maxsize=1)
def _amount_words() -> frozenset[str]:
    return frozenset(word.lower() for word in _split(_load().get("amounts", {}).get("words", "")))


@lru_cache(maxsize=1)
def amount_terms() -> frozenset[str]:
    """The terms of the words naming a thing whose value is an amount (``classes.json`` "amounts")."""
    return frozenset(t for word in _amount_words() if len(word.split()) == 1 for t in tokenize(word))


# ``kind_members``: what a value or a member is a kind OF, as data (``classes.json`` "kinds"): a count in a
# kind's unit ("1,100 nautical miles" is a distance, "500 mg" a dose, "3 litres" a volume) or a member of
# it ("Our Maine Coon ..." is a cat, "a whippet" a dog) holds the kind's names ("far", "dose", "cat")
# (every English cardinal word: "did forty-one k", "seventeen years", "two hundred and ten km")
_KIND_COUNT = (r"(?:\d[\d.,]*|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
               r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
               r"hundred|thousand|half(?:\s+an?)?|a\s+few|few|several|a\s+couple\s+of)")


@lru_cache(maxsize=1)
def _kinds() -> dict[str, dict]:
    return {name: entry for name, entry in _load().get("kinds", {}).items() if isinstance(entry, dict)}


@lru_cache(maxsize=1)
def _kinds_by_term() -> dict[str, tuple[str, ...]]:
    """name term -> the kinds it names (stemmed when a question is first read for kinds)."""
    found: dict[str, list[str]] = {}
    for name, entry in _kinds().items():
        for word in _split(entry.get("names", "")):
            for term in tokenize(word):
                found.setdefault(term, []).append(name)
    return {term: tuple(names) for term, names in found.items()}


def asked_kinds(terms) -> tuple[str, ...]:
    """The kinds whose names a question's terms hold ("far", "dose", "cat")."""
    by_term = _kinds_by_term()
    return tuple(sorted({name for t in terms for name in by_term.get(t, ())}))


@lru_cache(maxsize=None)
def kind_names(name: str) -> frozenset[str]:
    """The terms of the words naming a kind."""
    return frozenset(t for word in _split(_kinds()[name].get("names", "")) for t in tokenize(word))


@lru_cache(maxsize=None)
def _kind_units(name: str) -> re.Pattern | None:
    """A count followed by one of the kind's units ("1,100 nautical miles", "500mg"), compiled when the
    kind is first asked."""
    units = sorted(_split(_kinds()[name].get("units", "")), key=len, reverse=True)
    if not units:
        return None
    return re.compile(r"(?i)(?<![\w])" + _KIND_COUNT + r"[\s-]*(?:%s)(?![\w])" % "|".join(
        re.escape(unit).replace(r"\ ", r"\s+") for unit in units))


@lru_cache(maxsize=None)
def _kind_members(name: str) -> tuple[frozenset[str], ...]:
    """The terms of each member of a kind; '@dog' takes the dog kind's members (a breed is a breed of dog)."""
    found: list[frozenset[str]] = []
    for member in _split(_kinds()[name].get("members", "")):
        if member.startswith("@"):
            found.extend(_kind_members(member[1:]))
        elif tokenize(member):
            found.append(frozenset(tokenize(member)))
    return tuple(found)


def states_unit(name: str, statement: str) -> bool:
    """Whether a clause of a statement negating nothing counts something in a unit of the kind."""
    pattern = _kind_units(name) if name in _kinds() else None
    if pattern is None:
        return False
    return any(clause and not _NEGATING.search(clause) and pattern.search(clause)
               for clause in re.split(r"[.;:!?()]|\b(?:but|although|though|whereas|except|instead)\b",
                                      statement.replace("\u2019", "'")))


def held_kinds(kinds: tuple[str, ...], statement: str, positive: frozenset[str]) -> frozenset[str]:
    """The names' terms of the asked ``kinds`` a record holds: a count in one of a kind's units, or one
    of its members whose terms it states in a clause negating nothing (``positive``)."""
    found: set[str] = set()
    for name in kinds:
        if any(member <= positive for member in _kind_members(name)) or states_unit(name, statement):
            found |= kind_names(name)
    return frozenset(found)


def kind_members(name: str) -> tuple[frozenset[str], ...]:
    """The terms of each member of a kind ("maine coon" -> {main, coon})."""
    return _kind_members(name) if name in _kinds() else ()


@lru_cache(maxsize=1)
def lexicon_words() -> frozenset[str]:
    """Every single word of the packaged lexicon's tables (the words whose stems ``stems.json`` holds):
    real words, never read as a typo of another (``features.typo_terms``)."""
    return frozenset(loads_trusted(PACKAGED.joinpath("lexicon", "stems.json").read_bytes())["stems"])


# ``errand_means``: a verb of moving with an object that is no vehicle ("I walk the dog round the park", "I
# drive my son to football", "rode the horse") says what one does with someone or something, not how one
# travels: "walk my bike" or "drive the van" keep their vehicle
_MOVING_OBJECT = Lazy(r"(?i)\b(?:walk|walks|walked|walking|drive|drives|drove|driving|driven|ride|rides|rode|riding|"
                      r"ridden|cycle|cycles|cycled|cycling)\s+(?:the|my|our|his|her|their|its|a|an)\s+"
                      r"([^\W\d_][\w'-]*)")


def without_errands(statement: str) -> str:
    """``statement`` without each verb of moving whose object is no member of the transport or vehicle
    class ("I walk the dog round the park before work" -> "I  round the park before work")."""
    known = categories()
    means = (_member_union("transport") if "transport" in _load()["classes"] else frozenset()) | \
        (_member_union("vehicle") if "vehicle" in _load()["classes"] else frozenset())
    if not known:
        return statement

    def gone(hit: re.Match) -> str:
        return hit.group(0) if set(tokenize(hit.group(1))) & means else " "
    return _MOVING_OBJECT.sub(gone, statement.replace("\u2019", "'"))


@lru_cache(maxsize=1)
def _single_categories() -> tuple[Category, ...]:
    """The categories whose members exclude each other for one subject ('single': true)."""
    return tuple({c.name: c for c in categories().values() if c.single}.values())


def single_values(terms: frozenset[str]) -> tuple[tuple[Category, frozenset[str]], ...]:
    """``features.other_values``: the members of a 'single' category that ``terms`` hold, with
    their category ("a plumber": job, plumber; "red": colour, red)."""
    return tuple((category, member) for category in _single_categories()
                 if not terms.isdisjoint(_member_union(category.name))
                 for member in category.members if member <= terms)


def holds_member(category: Category, positive: frozenset[str]) -> bool:
    """Whether terms stated in clauses negating nothing hold a member of ``category``."""
    return not positive.isdisjoint(_member_union(category.name)) and any(
        member <= positive for member in category.members)

