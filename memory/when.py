"""Which time answers a question (issue 13, session 11, when11).

A question says WHEN it asks in its own words, and that selects which link of a slot, or which
dated record, answers it:

- "in <a town I used to live in>" (``features.place_periods``): while a replaced link of another
  slot (the home) held the value the question names, not now (``place_dated``);
- "did I start on", "at first", "when I was diagnosed" (``features.start_values``): the first link
  of the slot asked, or the record stating the start in its own words (``asks_start``,
  ``first_links``, ``start_answers``);
- "so far", "have I ... done" with "how many" (``features.count_so_far``): the latest told count of
  done things, never a count of what is left (``latest_counts``);
- "how many years", "how many weeks" (``features.asked_durations``): a record stating a duration
  (``asks_duration``, ``states_duration``);
- "on Saturday" in a question in the past tense (``features.past_weekdays``): the last Saturday,
  as "last Saturday" is (``past_weekdays``).

The patterns are ``Lazy``: nothing is compiled when the read path is imported.
"""
from __future__ import annotations

from collections.abc import Callable

from .retrieval.patterns import Lazy
from .retrieval.tokenize import tokenize

# ``features.past_weekdays``: a question in the past tense ("did", "was", "were", "had", "happened")
_PAST = Lazy(r"(?i)\b(?:did|was|were|had|happened|went|got|said|told)\b")
_WEEKDAY_ON = Lazy(r"(?i)\bon\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b")


def past_weekdays(question: str) -> str:
    """``features.past_weekdays``: "on Saturday" in a question in the past tense ("What did I get up
    to on Saturday?") names the last Saturday before the question is asked, as "last Saturday"
    does: the question with "last" for "on". A question not in the past tense ("What am I doing
    on Saturday?" asks the next one) is returned as it is."""
    if not _PAST.search(question) or not _WEEKDAY_ON.search(question):
        return question
    return _WEEKDAY_ON.sub(lambda found: "last " + found.group(1), question)


# ``features.place_periods``: a name given in the question (a capitalized word past the first) after
# "in" or "at", with the clause that dates by it ("when I lived in Perth", "while we were in Rouen")
_NAME_PHRASE = Lazy(r"(?:\b(?:when|while)\s+(?:I|we)\s+(?:[\w']+\s+){0,2})?\b(?:back\s+)?(?:in|at)\s+"
                    r"((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)*)")


def place_dated(question: str, slots, keys_holding: Callable[[set[str]], list[str]] | None = None) -> str:
    """``features.place_periods``: a question in the past tense naming, after "in" or "at", a value
    that one replaced link of a memory_key slot with a history holds and no other link does ("Who
    was my GP in Perth?" after "I live in Perth." was updated to "We moved to Dundee."), where
    nothing else of the question is about that slot, asks about when that link held: the phrase is
    read as "before <the day its successor began>", which ``decision.question_time`` reads as the
    instant the question is judged at, and the slot asked (the GP) answers with its link valid then
    (``follow_supersession``: VERIFIED_HISTORICAL). The name dates the question; it is not asked.
    ``slots``: memory_key -> its records (a view's ``keyed_slots``, which parses a slot when it is
    asked for); ``keys_holding``: terms -> the keys of the records holding them (through the index),
    the only slots read (None: every slot). Returns the question as it is when it names no such value."""
    if not _PAST.search(question):
        return question
    for found in _NAME_PHRASE.finditer(question):
        words = set(tokenize(found.group(1)))
        if not words:
            continue
        rest = set(tokenize(question[:found.start()] + " " + question[found.end():]))
        ends = []
        for key in (list(slots) if keys_holding is None else keys_holding(words)):
            links = slots[key] if key in slots else []
            if len(links) < 2:
                continue
            holding = [link for link in links if words <= set(tokenize(link["statement"]))]
            if len(holding) != 1:
                continue
            slot_terms = set(tokenize(key.replace(".", " ").replace("_", " ")))
            for link in links:
                slot_terms |= set(tokenize(link["statement"]))
            if not rest.isdisjoint(slot_terms):
                continue   # the question asks about this slot ("Did I live in Perth?": ``past_values``)
            end = _replaced_at(holding[0], links)
            if end is not None:
                ends.append(end)
        if len(ends) == 1:
            return question[:found.start()].rstrip() + " before " + ends[0][:10] + question[found.end():]
    return question


def _replaced_at(link: dict, links: list[dict]) -> str | None:
    """When a link of a slot stopped holding: the end of its validity, else the start of the link
    after it; None while it holds (the current link dates nothing past)."""
    to = link["valid_time"]["to"]
    if to:
        return to
    later = sorted(one["valid_time"]["from"] for one in links if one["valid_time"]["from"] > link["valid_time"]["from"])
    return later[0] if later else None


# ``features.start_values``: a question asking the value a history started from ("What dose did I start
# on?", "my starting weight", "at first", "originally", "when I was diagnosed", "when I started")
_ASKS_START = Lazy(r"(?i)\b(?:did|do)\s+(?:I|we|you|he|she|they)\s+(?:first\s+)?start(?:ed)?\s+(?:on|with|at|off|out)\b"
                   r"|\bstarting\s+\w+|\b(?:at\s+first|originally|initially|to\s+begin\s+with|at\s+the\s+(?:start|"
                   r"outset|beginning))\b|\bwhen\s+(?:I|we|he|she|they)\s+(?:was\s+|were\s+|got\s+|first\s+)*"
                   r"(?P<event>diagnosed|started|began|begun|joined)\b")


# a question asking when, not what: "When did I start at Siemens?" asks the date of a start
_ASKS_WHEN = Lazy(r"(?i)^\W*(?:when|since\s+when|how\s+long|(?:in\s+|on\s+)?what\s+(?:year|month|day|date|time))\b")


def asks_start(question: str) -> bool:
    """Whether a question asks the value a history started from (``_ASKS_START``); not one asking
    when it started ("When did I start at Siemens?": the link naming Siemens says)."""
    return _ASKS_START.search(question) is not None and _ASKS_WHEN.search(question) is None


def first_links(matches: list, links_of: Callable[[dict], list[dict]], answering: frozenset[str]) -> list:
    """``features.start_values``: a question asking the value a history started from ("What dose of
    ramipril did I start on?", "What was my HbA1c when I was diagnosed?") is answered by the FIRST
    link of the slot a match belongs to, judged when it held (VERIFIED_HISTORICAL once replaced),
    not today's link: the other links support nothing and are shown as its ``chain``. A match whose
    slot has one link is left as it is. ``links_of``: record -> the links of its slot and chain
    (``decision._links``), by when each began; ``answering``: the statuses that answer. Returns
    the matches with each first link added where no match holds it."""
    from .decision import Match   # the decision imports nothing from here

    present = {m.record["id"]: m for m in matches}
    added: dict[str, Match] = {}
    silenced: set[str] = set()
    firsts: set[str] = set()
    for match in matches:
        record = match.record
        if record["kind"] == "episode" or not (record["memory_key"] or record["supersession"]["supersedes"]
                                               or record["supersession"]["superseded_by"]):
            continue
        links = [link for link in links_of(record) if link["status"] in answering]
        if len(links) < 2:
            continue
        first = links[0]
        firsts.add(first["id"])
        silenced |= {link["id"] for link in links if link["id"] != first["id"]}
        chain = [link for link in links if link["id"] != first["id"]]
        if first["id"] in present:
            held = present[first["id"]]
            held.valid_at, held.chain = first["valid_time"]["from"], chain
        elif first["id"] not in added or added[first["id"]].rank_score < match.rank_score:
            added[first["id"]] = Match(first, match.score, match.rank_score, match.coverage, match.created_at,
                                       support=match.support, valid_at=first["valid_time"]["from"], chain=chain)
    for match in matches:
        if match.record["id"] in silenced - firsts:
            match.support, match.stated, match.swapped = 0.0, 0.0, None
    return matches + list(added.values())


def start_answers(evidence: list, question: str, min_coverage: float) -> list | None:
    """``features.start_values``: the answers to a question dating by an event of starting ("What was
    my blood pressure when I was diagnosed?") that state the event in their own words ("... 162
    over 98 when they diagnosed it"): those, in their order; the rest (today's reading) are context.
    None when the question names no such event or no answer states it."""
    found = _ASKS_START.search(question)
    if found is None or not found.group("event"):
        return None
    event = set(tokenize(found.group("event")))
    stating = [m for m in evidence if m.sufficient(min_coverage) and event <= set(tokenize(m.record["statement"]))]
    return stating or None


# ``features.count_so_far``: a question asking how many of something are done up to now ("How many
# munros have I climbed so far?", "How many books have I read this year?")
_ASKS_COUNT = Lazy(r"(?i)^\W*how\s+many\b")
_UP_TO_NOW = Lazy(r"(?i)\b(?:so\s+far|to\s+date|up\s+to\s+now|until\s+now|in\s+total|altogether|all\s+told|yet)\b"
                  r"|\b(?:have|has|'ve)\s+(?:I|we|you|he|she|they)\b")
# a number spelt in digits or words (the English cardinals), and a count of what is left after it
_UNITS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
          "seventeen|eighteen|nineteen")
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_NUMBER = (r"(?:\d[\d.,]*|(?:(?:" + _UNITS + r"|(?:" + _TENS + r")(?:[\s-](?:one|two|three|four|five|six|seven|eight|"
           r"nine))?|a|an)(?:[\s-]+(?:hundred|thousand)(?:[\s-]+(?:and[\s-]+)?(?:" + _TENS + r"|" + _UNITS +
           r")(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?)?)?))")
_COUNTED = Lazy(r"(?i)(?<![\w.,])" + _NUMBER + r"(?![\w])(?P<after>(?:\s+[\w'-]+){0,3})")
_LEFT = Lazy(r"(?i)\b(?:to\s+go|left|remaining|still\s+to\b|more\s+to\b)")


def asks_count_so_far(question: str) -> bool:
    """Whether a question asks how many of something are done up to now (``_ASKS_COUNT``, ``_UP_TO_NOW``)."""
    return _ASKS_COUNT.search(question) is not None and _UP_TO_NOW.search(question) is not None


def states_done_count(statement: str) -> bool:
    """Whether a statement states a count that is no count of what is left: "took my tally to 94",
    "I've climbed 70 munros, still 212 to go" (70), not "8 left to go" alone. "a"/"an" count only
    before hundred or thousand."""
    for found in _COUNTED.finditer(statement):
        number = found.group(0)[:len(found.group(0)) - len(found.group("after"))].strip().lower()
        if number in ("a", "an"):
            continue
        if not _LEFT.match(found.group("after").strip()) and not _LEFT.search(" ".join(found.group("after").split()[:2])):
            return True
    return False


def latest_counts(evidence: list, question: str, min_coverage: float) -> list | None:
    """``features.count_so_far``: the answer to "how many ... so far" / "how many ... have I ..."
    when several sufficient answers state a count of done things: the one told last (a running
    tally's latest value); the older counts, and a count of what is left ("still 212 to go", "8
    left"), are context, not the answer. None when the question asks no such count or fewer than
    two answers state one."""
    if not asks_count_so_far(question):
        return None
    counting = [m for m in evidence if m.sufficient(min_coverage) and states_done_count(m.record["statement"])]
    if len(counting) < 2:
        return None
    latest = max(counting, key=lambda m: (_told(m.record), m.record["id"]))
    return [latest] + [m for m in evidence if m is not latest and m not in counting]


_SO_FAR = Lazy(r"(?i)\b(?:so\s+far|to\s+date|up\s+to\s+now|until\s+now|in\s+total|altogether|all\s+told)\b")


def left_count_test(question: str) -> Callable[[str, dict], bool] | None:
    """``features.count_so_far``: ``(record_id, record) -> whether it fails``: a question asking how
    many are done up to now is not supported by a record whose every count is of what is left ("I've
    still got 139 to go": no count of done things); asked "so far" ("to date", "in total"), by none
    stating a count of done things ("The wool for the blanket squares came from Kraków"). None when
    the question asks no such count."""
    if not asks_count_so_far(question):
        return None
    if _SO_FAR.search(question):
        return lambda record_id, record: not states_done_count(record["statement"])
    return lambda record_id, record: states_left_count_only(record["statement"])


def states_left_count_only(statement: str) -> bool:
    """Whether every count a statement states is of what is left ("139 to go", "8 left")."""
    numbers = [found for found in _COUNTED.finditer(statement)
               if found.group(0)[:len(found.group(0)) - len(found.group("after"))].strip().lower() not in ("a", "an")]
    return bool(numbers) and not states_done_count(statement)


def _told(record: dict) -> str:
    return (record.get("source") or {}).get("observed_at") or record["valid_time"]["from"]


# ``features.asked_durations``: "how many years/months/weeks ..." asks a duration
_ASKS_DURATION = Lazy(r"(?i)^\W*how\s+many\s+(?:more\s+)?(?:seconds|minutes|hours|days|nights|weeks|fortnights|months|"
                      r"years|decades)\b")
_DURATION = Lazy(r"(?i)(?<![\w])" + _NUMBER + r"[\s-]*(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|"
                 r"fortnights?|months?|years?|yrs?|decades?)\b|\b(?:a|half\s+a|a\s+couple\s+of|a\s+few|several|many)"
                 r"\s+(?:seconds?|minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|years?|decades?)\b"
                 r"|\b(?:from|between)\s+(?:\w+\s+)?(?:19|20)\d\d\s+(?:to|and|until|till)\s+(?:\w+\s+)?(?:19|20)\d\d\b"
                 r"|\b(?:19|20)\d\d\s*[-\u2013]\s*(?:19|20)?\d\d\b|\bsince\s+(?:\w+\s+)?(?:19|20)\d\d\b")


# a count of time between two events or back from one, which the records' dates give ("How many days
# passed between ...", "How many weeks ago did I ...", "How many months after I moved ...")
_BETWEEN = Lazy(r"(?i)\b(?:passed|pass|elapsed|between|since|ago|until|till|before|after|when|left|remain|remaining|"
                r"to\s+go)\b")


def asks_duration(question: str) -> bool:
    """Whether a question asks a count of a unit of time that a record must state as a duration ("How
    many years did I work at Siemens?"); not one asking the time between or since events ("How many
    days passed between ...", "How many weeks ago ..."), which the records' dates give."""
    return _ASKS_DURATION.search(question) is not None and _BETWEEN.search(question) is None


def states_duration(statement: str) -> bool:
    """Whether a statement states a duration: a count of a unit of time in digits or words
    ("Seventeen years at Siemens", "for 3 months"), or two dated ends ("from 2004 to 2021",
    "2004-2021", "since 2019")."""
    return _DURATION.search(statement.replace("\u2019", "'")) is not None


def duration_test(question: str) -> Callable[[str, dict], bool] | None:
    """``features.asked_durations``: ``(record_id, record) -> whether it fails``: a question asking a
    count of a unit of time is supported only by a record stating a duration (``states_duration``):
    "I worked at Siemens in Erlangen" names the firm and says nothing of how many years. None when
    the question asks none."""
    if not asks_duration(question):
        return None
    return lambda record_id, record: not states_duration(record["statement"])



def may_name_place(question: str) -> bool:
    """The cheap gate of ``place_dated``: a question in the past tense naming something after "in" or "at"."""
    return _PAST.search(question) is not None and _NAME_PHRASE.search(question) is not None


# ``features.period_news``: the words by which a question about a period asks what was told or what
# happened ("What did the consultant tell me last week?", "What news did I get from the bank?", "What
# happened with the flat sale?"), as text (stemmed when first asked: nothing is stemmed at import)
_NEWS_TEXT = "tell told telling say said saying news hear heard happen happened happening update updates get got " \
             "learn learned learnt find found out word"
_news_terms: list[frozenset[str]] = []


def news_terms() -> frozenset[str]:
    """The terms of ``_NEWS_TEXT``."""
    if not _news_terms:
        _news_terms.append(frozenset(tokenize(_NEWS_TEXT)))
    return _news_terms[0]


def asked_news_things(asked_terms: frozenset[str]) -> frozenset[str]:
    """``features.period_news``: what a question about a period asks news of — its terms once the
    period's words are gone, less the words of telling or happening — when it holds one of those
    words and something else; empty otherwise ("What did I do last weekend?" is ``period_activity``'s)."""
    news = news_terms()
    if asked_terms.isdisjoint(news):
        return frozenset()
    return asked_terms - news


def thing_names(things: frozenset[str], holders: Callable[[str], list[str]], records) -> frozenset[str]:
    """The names (capitalized words past the first, as terms) that the scope's stated facts give a
    thing asked of ("My consultant at the Middelheim is Dr Claes" -> dr, claes, middelheim for
    "consultant"), read from the records holding one of its terms (``holders``: the index) that are
    no conversation turn."""
    found: set[str] = set()
    for term in things:
        for record_id in holders(term):
            record = records.get(record_id) if hasattr(records, "get") else records[record_id]
            if record is None or record["kind"] == "episode":
                continue
            found |= set(tokenize(" ".join(w for w in record["statement"].strip().split()[1:] if w[:1].isupper())))
    return frozenset(found - things)


# ``features.ended_links``: a question asking about now ("What's my job now?", "these days", "still")
_ASKS_NOW = Lazy(r"(?i)\b(?:now|nowadays|these\s+days|currently|at\s+the\s+moment|at\s+present|still|any\s*more|"
                 r"any\s+longer)\b")
# a clause saying the caller ended something: left it, quit, packed it in, stopped, retired from it
_ENDS = Lazy(r"(?i)\b(?:left|quit|quitting|packed\s+in|pack(?:ed|ing)\s+(?:it|that|the\s+\w+)\s+in|stopped|gave\s+up|"
             r"given\s+up|retired|no\s+longer|handed\s+in\s+(?:my|our)\s+notice|made\s+redundant|laid\s+off|"
             r"finished\s+(?:at|with|up\s+at))\b")
_CLAUSE = Lazy(r"[.;!?]+\s*|,\s+|\s+(?:but|and\s+then|so)\s+")


def asks_now(question: str) -> bool:
    """Whether a question asks about now in so many words (``_ASKS_NOW``)."""
    return _ASKS_NOW.search(question) is not None


def ended_links(matches: list, question: str, caller: str) -> list:
    """``features.ended_links``: a question asking about now ("What's my job now?", "Am I still at the
    council?") whose answer would be the current link of a memory_key slot told before a record of
    the caller's that ENDS it — a clause saying they left, quit, packed in, stopped or retired from
    something the link names (a term of the link the question does not hold, after the ending word in
    the clause: "Left Sint-Lieven at Easter, I'm doing supply teaching now" for "I'm a maths teacher at
    the Sint-Lievenscollege"; not "The user" of "The user is a retired engineer") —
    is answered by that later record: it takes the link's support (when better), shows it as
    ``chain``, and the link supports nothing (what it said no longer holds now). Only matches of the
    question are read, and the support of the keyed ones only (few)."""
    if not asks_now(question):
        return matches
    asked = set(tokenize(question))
    enders = []
    for match in matches:
        record = match.record
        if record["kind"] == "episode":
            speaker = ((record.get("source") or {}).get("speaker") or "").strip().lower()
            if speaker and speaker not in (caller.strip().lower(), "user"):
                continue
        # what each ending clause ends: its words after the ending word ("Left Sint-Lieven", "packed in
        # the job at the council"; not "The user" of "The user is a retired engineer")
        pieces = [set(tokenize(piece[found.end():])) for piece in _CLAUSE.split(record["statement"])
                  for found in [_ENDS.search(piece)] if found is not None]
        if pieces:
            enders.append((match, set().union(*pieces), _told(record)))
    if not enders:
        return matches
    for match in matches:
        record = match.record
        if record["kind"] == "episode" or not record["memory_key"] or record["valid_time"]["to"] is not None:
            continue
        own = set(tokenize(record["statement"])) - asked
        later = [(told, ender) for ender, held, told in enders
                 if ender is not match and told > record["valid_time"]["from"] and not own.isdisjoint(held)
                 and ender.record["memory_key"] != record["memory_key"]]
        if not later or not match.support:
            continue
        ender = max(later, key=lambda pair: pair[0])[1]
        if (ender.support or 0.0) < match.support:
            ender.support, ender.stated = match.support, match.stated
            ender.coverage = max(ender.coverage, match.coverage)
            ender.anchored = ender.anchored or match.anchored
        ender.chain = ender.chain + [record]
        match.support, match.stated, match.swapped = 0.0, 0.0, None
    return matches


# ``features.own_doings``: "What do I do (these days)?" asks the caller's work
_OWN_DOING = Lazy(r"(?i)^(\W*what\s+do\s+(?:I|we)\s+do)(\s+(?:now|nowadays|these\s+days|currently|today|at\s+the\s+"
                  r"moment))?(\s*[?.!]*\s*)$")


def own_doing(question: str) -> str:
    """``features.own_doings``: "What do I do these days?" read as "What do I do for work these days?"
    (as "for a living" is read): the caller's work is asked, and its words find the records saying it
    — the job, the turn saying it ended. Any other question is returned as it is."""
    found = _OWN_DOING.match(question)
    if found is None:
        return question
    return found.group(1) + " for work" + (found.group(2) or "") + found.group(3)
