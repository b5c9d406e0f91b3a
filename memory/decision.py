"""The decision: which matches may answer, the knowledge state, and why not.

Pure functions of (matches, instants, policies). Validity decides, status
qualifies: a record answers for instant T when T lies in its half-open valid
time and it is active — or retired with a closed valid time. Candidates,
disputed and rejected records answer at no instant. An UNKNOWN carries the
first applicable reason in the forgetting policy's priority order and the
conditions that would have allowed an answer.
"""
from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .clock import add_days, format_instant, parse_instant
from .policy import ForgettingPolicy
from .retrieval.patterns import Lazy
from .retrieval.temporal import month_phrases, named_months, stated_days, told_in_past
from .retrieval.tokenize import tokenize
from .store import CALLING_OFF

# why a matching record could not answer -> the abstention reason it supports
BLOCKERS = {
    "disputed": "unresolved_conflict",
    "retired": "retired_or_expired",
    "expired": "retired_or_expired",
    "not_yet_valid": "retired_or_expired",
    "retention": "retired_or_expired",
    "candidate": "candidate_or_unverified",
    "rejected": None,   # never right: it supports no reason of its own
}


@dataclass
class Match:
    record: dict
    score: float          # BM25 of the whole question
    rank_score: float     # the planner's fused score (orders evidence)
    coverage: float       # idf-weighted share of the question's terms the record holds
    created_at: str
    context: list = field(default_factory=list)
    support: float | None = None  # how far it alone supports an answer (None: its coverage)
    valid_at: str | None = None   # the instant its validity is judged at, when not the query's as-of
    chain: list = field(default_factory=list)   # the other links of its memory_key slot, shown as context
    anchored: bool = False    # holds what the question is about (``planner.thing_terms``): cited at any support
    # what it states of the question whoever it is about (``stated_contest``): what contests an
    # answer (``_uncontested``) in place of its coverage, None: its coverage
    stated: float | None = None
    # its best support of the question asked of another speaker (``planner.swapped_questions``,
    # ``decision.swap_ratio``), None: not measured
    swapped: float | None = None
    # about the slot the question asks, whatever its words (``planner.subject_slot``)
    slot: bool = False
    # holds a noun the question asks about, not a name (``planner.key_terms`` and ``thing_terms``
    # less ``planner.name_terms``; True when it asks about none): what lets a weak support answer
    # (``abstention_score``)
    asked: bool = False
    # the question asks about a noun (as ``asked`` reads them) its scope never saw: the premise
    # of a weak answer that holds none of them is not in the scope (``abstention_score``;
    # ``features.unseen_premise`` off: always True)
    unseen_asked: bool = False

    def sufficient(self, min_coverage: float) -> bool:
        """Enough, alone, to answer (``planner.support``: about the question's subject, stated):
        above ``min_coverage``. Not at it: one seen term against one unseen key noun weighing
        ``planner.unseen_key_weight`` 4 is exactly 1/5, and "When does my visa expire?" was
        answered by "My gym membership expires in May"."""
        return (self.coverage if self.support is None else self.support) > min_coverage

    def defer(self, record_id: str, support: Callable[[str], float] | None = None,
              stated: Callable[[str], float] | None = None, swapped: Callable[[str], float] | None = None,
              swapped_none: Callable[[str], bool] | None = None) -> None:
        """``support``, ``stated`` or ``swapped`` measured when first read, not now
        (``query._evaluate``): each a measure (record_id -> float) run on ``record_id`` then. The
        decision reads no support of a match holding none of the question (coverage 0: ``decide``'s
        weak matches), and a stated or swapped support only when the best support is too weak to
        rule them out (``_uncontested``, ``swapped_better``). Setting the field drops what was
        deferred. (One function per question for every match: nothing is made per match.)
        ``swapped_none``: record_id -> whether the deferred ``swapped`` reads None, known without
        measuring it (``holds_swapped``); without it, it reads a value."""
        found = self.__dict__
        found["_measured_as"] = record_id
        found["_swapped_none"] = swapped_none
        if support is not None:
            found["_later_support"] = support
        if stated is not None:
            found["_later_stated"] = stated
        if swapped is not None:
            found["_later_swapped"] = swapped

    def holds_swapped(self) -> bool:
        """``self.swapped is not None``, without measuring a deferred swapped support: the swapped
        questions' support tests are set up only when a value is read (``decide``'s sureness)."""
        found = self.__dict__
        if found["_later_swapped"] is None:
            return found["_swapped"] is not None
        none = found.get("_swapped_none")
        return none is None or not none(found["_measured_as"])

    def deferred(self, name: str) -> bool:
        """Whether ``name`` (``support``, ``stated``, ``swapped``) is deferred and not yet measured: at most
        1 then (a support measure's value, in [0, 1]; a stated or swapped one may read None, which
        ``_uncontested`` reads as the coverage, itself at most 1, and ``swapped_better`` skips)."""
        return self.__dict__.get("_later_" + name) is not None


def _deferred_field(name: str) -> property:
    """A field of ``Match`` that ``Match.defer`` may leave unmeasured until it is read. Both keys are
    in every match's ``__dict__`` (the setter, which ``__init__`` calls, writes them), so copying one
    match's ``__dict__`` into another (``follow_supersession``) copies what is deferred too."""
    value_key, later_key = "_" + name, "_later_" + name

    def get(match: Match):
        found = match.__dict__
        later = found[later_key]
        if later is not None:
            found[value_key], found[later_key] = later(found["_measured_as"]), None
        return found[value_key]

    def put(match: Match, value) -> None:
        match.__dict__[value_key], match.__dict__[later_key] = value, None
    return property(get, put)


Match.support = _deferred_field("support")    # after ``dataclass``: its ``__init__`` keeps the default None
Match.stated = _deferred_field("stated")
Match.swapped = _deferred_field("swapped")


def blocker(record: dict, created_at: str, as_of: str, now: str, policy: ForgettingPolicy) -> str | None:
    """None when the record may answer for ``as_of``; else what stops it."""
    status = record["status"]
    if status in ("disputed", "candidate", "rejected"):
        return status
    if status not in policy.answering_statuses:
        return "retired"
    valid = record["valid_time"]
    if status == "retired" and valid["to"] is None and policy.retired_requires_closed_validity:
        return "retired"
    if as_of < valid["from"]:
        return "not_yet_valid"
    if valid["to"] is not None and as_of >= valid["to"]:
        return "retired" if status == "retired" else "expired"
    days = policy.retention_days(record["kind"], record["sensitivity"]["classification"])
    if days is not None and add_days(created_at, days) <= now:
        return "retention"
    return None


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# the part of a year a question may name before it: "in spring 2021", "in early 2021", "in March 2021",
# "in the summer of 2021" -> (month, day) its end falls on (None: the end of the year)
_PART_ENDS = {**{m: (i, None) for i, m in enumerate(_MONTHS, start=1)},
              "early": (4, 30), "spring": (5, 31), "mid": (8, 31), "summer": (8, 31), "autumn": (11, 30),
              "fall": (11, 30), "late": None, "winter": None}
_PART = "|".join(sorted(_PART_ENDS, key=len, reverse=True))
_YEAR = Lazy(r"\b(?:back\s+)?(?:in|during|of)\s+(?:the\s+)?(?:(?P<part>" + _PART + r")(?:[\s-]+of)?[\s-]+)?"
                   r"(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
_FORMERLY = Lazy(r"(?i)\b(?:used to|previously|formerly|before that|back then|previous|former)\b")
# "Which plan did Kim use to have?" (but not "What do I use to clean the oven?")
_DID_USE_TO = Lazy(r"(?i)\bdid\b[^?.!]*?\b(use to)\b")
# "before 2022", "before March 2024", "before 2024-02-01": as of the second before it began
_BEFORE_DATE = Lazy(r"(?i)\bbefore\s+(?:(?P<month>" + "|".join(_MONTHS) + r")\s+)?(?P<year>(?:19|20)\d\d)"
                          r"(?:-(?P<mm>\d\d)-(?P<dd>\d\d))?\b")
# "before I moved", "before Kim changed jobs", "before moving": the value before the current one
_BEFORE_CHANGE = Lazy(r"(?i)\bbefore\s+(?:\w+\s+)?(?:moved|moving|changed|changing|switched|switching|"
                            r"relocated|relocating|quit|quitting)\b[^?.!,;]*")
# "before Manchester", "before Acme": the words a link of a slot holds (``_named_link``)
_BEFORE_WORDS = Lazy(r"(?i)\bbefore\s+(?!that\b)([^?.!,;]+)")
_NOT_NAMING = frozenset("a an the my our your his her their its i me we you he she they it at in on to of for "
                        "and or then this that s".split())


# ``features.question_periods``: a period named back from when the question is asked ("yesterday",
# "last week", "two weeks ago", "last month", "6 days ago", "the past year", "last Saturday")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "couple of": 2}
_PERIOD = Lazy(
    r"(?i)\b(?:(?P<day>the\s+day\s+before\s+yesterday|yesterday|last\s+night)"
    r"|(?P<count>\d{1,3}|a\s+couple\s+of|couple\s+of|an?|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)\s+(?P<unit>day|week|month|year)s?\s+ago"
    r"|(?:the\s+)?(?P<which>last|past|previous)\s+(?P<what>weekend|week|month|year|" + "|".join(_WEEKDAYS) + r"))\b")


def question_period(question: str, as_of: str, months: bool = False) -> tuple[str, str] | None:
    """The period a question names back from ``as_of`` (when it is asked), as (first, last)
    instant: "yesterday" and "N days ago" a day, "last week" and "N weeks ago" a Monday-to-Sunday
    week, "last month" and "N months ago" a calendar month, "last year" a calendar year, "last
    weekend" a Saturday and Sunday, "the past week/month/year" the days up to ``as_of``; several
    give the span of all. None when it names none (``features.question_periods``). ``months``
    (``features.named_months``): a month without a year, "last January", "in February" asked in
    April (``temporal.named_months``), is one too."""
    try:
        now = parse_instant(as_of)
    except ValueError:
        return None
    today = now.date()
    spans = [_period(found, today) for found in _PERIOD.finditer(question)]
    spans = [span for span in spans if span is not None]
    if months:
        spans += named_months(question, today)
    if not spans:
        return None
    first, last = min(s for s, _ in spans), max(e for _, e in spans)
    start = _dt.datetime(first.year, first.month, first.day, tzinfo=_dt.timezone.utc)
    end = min(_dt.datetime(last.year, last.month, last.day, 23, 59, 59, tzinfo=_dt.timezone.utc), now)
    return format_instant(start), format_instant(end)


def _period(found: re.Match, today: _dt.date) -> tuple[_dt.date, _dt.date] | None:
    day = _dt.timedelta(days=1)
    try:
        if found["day"]:
            back = 2 if "before" in found["day"].lower() else 1
            return today - back * day, today - back * day
        if found["count"]:
            text = " ".join(found["count"].lower().split())
            count, unit = (int(text) if text.isdigit() else _COUNT_WORDS[text]), found["unit"].lower()
        else:
            which, unit = found["which"].lower(), found["what"].lower()
            if which == "past" and unit in ("week", "month", "year"):   # the days up to now
                return today - {"week": 7, "month": 30, "year": 365}[unit] * day, today
            if unit == "weekend" or unit in _WEEKDAYS:
                target = 5 if unit == "weekend" else _WEEKDAYS.index(unit)
                latest = today - ((today.weekday() - target - 1) % 7 + 1) * day
                return latest, latest + (day if unit == "weekend" else 0 * day)
            count = 1
        if unit == "day":
            return today - count * day, today - count * day
        if unit == "week":
            monday = today - count * 7 * day - today.weekday() * day
            return monday, monday + 6 * day
        if unit == "month":
            index = today.year * 12 + today.month - 1 - count
            first = _dt.date(index // 12, index % 12 + 1, 1)
            following = _dt.date((index + 1) // 12, (index + 1) % 12 + 1, 1)
            return first, following - day
        return _dt.date(today.year - count, 1, 1), _dt.date(today.year - count, 12, 31)
    except (ValueError, OverflowError):
        return None


def _end_of(year: str, part: str | None) -> str:
    end = _PART_ENDS.get((part or "").lower())
    if end is None:
        return f"{year}-12-31T23:59:59Z"
    month, day = end
    if day is None:   # a month: its last day
        day = 31 if month in (1, 3, 5, 7, 8, 10, 12) else 30 if month != 2 else \
            (29 if int(year) % 4 == 0 and (int(year) % 100 or int(year) % 400 == 0) else 28)
    return f"{year}-{month:02d}-{day:02d}T23:59:59Z"


# ``features.closing_before``: "What car did I have before?" — "before" closing a question is "previously"
_CLOSING_BEFORE = Lazy(r"(?i)\bbefore\s*[?.!]*\s*$")


def question_time(question: str, as_of: str, periods: bool = False, closing_before: bool = False,
                  months: bool = False) -> tuple[str, bool, str]:
    """When a question asks about, and what it asks once that is said: the end of the period it
    names ("in 2021", "in spring 2021", "in March 2021"), if before ``as_of``, else ``as_of``; whether
    it asks about the value before the one valid then ("used to", "previously", "my previous
    employer"); and the question without those words. They set the instant the records are judged
    at, as ``--as-of`` does: no record has to hold them (a year the scope never saw is no unseen
    key noun that would make "Which gym did Marta go to in 2021?" unanswerable). With ``periods``
    (``features.question_periods``), a period named back from ``as_of`` ("last month", "two weeks
    ago": ``question_period``) ends the same way, and its words are no search words either.
    ``closing_before``: "before" closing the question ("What car did I have before?") asks about
    the previous value too. ``months``: with ``periods``, a month without a year is such a period
    (``question_period``)."""
    closing = closing_before and _CLOSING_BEFORE.search(question) is not None
    if closing:
        question = _CLOSING_BEFORE.sub("?", question)
    instant, ends = as_of, []
    if periods:
        period = question_period(question, as_of, months)
        if period is not None:
            ends.append(period[1])
            question = _PERIOD.sub(" ", question)
            if months:
                question = month_phrases(question)
    ends += [_end_of(m.group("year"), m.group("part")) for m in _YEAR.finditer(question)]
    ends += [_second_before(m) for m in _BEFORE_DATE.finditer(question)]
    if ends:
        instant = min(max(ends), as_of)
    rest = _FORMERLY.sub(" ", _YEAR.sub(" ", _BEFORE_DATE.sub(" ", question)))
    changed = _BEFORE_CHANGE.search(rest)
    rest = _BEFORE_CHANGE.sub(" ", rest)
    did_use_to = _DID_USE_TO.search(rest)
    if did_use_to:
        rest = rest[:did_use_to.start(1)] + rest[did_use_to.end(1):]
    before = bool(_FORMERLY.search(question) or did_use_to or changed or closing)
    return instant, before, " ".join(rest.split())


# a period beginning this long after everything a question matched was said is not the question's frame
PERIOD_HORIZON_DAYS = 365


def period_applies(period: tuple[str, str] | None, starts: list[str]) -> bool:
    """Whether a question's period frames the matches whose validity starts at ``starts``: not
    when it begins more than ``PERIOD_HORIZON_DAYS`` after every one of them. A question asked
    of old data without a date (a benchmark's conversations, asked "now"), "What did Joanna
    write yesterday?", means the conversation's yesterday, which no instant here names: its
    words stay search words. A store that last heard of the matter a few weeks ago and is
    asked about yesterday knows nothing said then."""
    if period is None:
        return False
    horizon = add_days(period[0], -PERIOD_HORIZON_DAYS)
    return any(start >= horizon for start in starts)


def said_in(record: dict, period: tuple[str, str], standing: bool = True, asked: frozenset[str] = frozenset(),
            held: frozenset[str] | set[str] = frozenset(), dated: bool = False) -> bool:
    """Whether a record may answer a question about ``period`` (``question_period``): a
    conversation turn when it was said then (its validity starts when it was said) or names a
    time then, back from when it was said ("I finally cleaned my sneakers last month", said on
    24 May, answers "Which shoes did I clean last month?" asked that day); any other record when
    it held at some instant of it, or without ``standing`` when something of it happened in it
    (``_timed_in``) or it holds every term ``asked`` (the question without the words naming the
    period; ``held``: the record's terms) and held then: "I work at the library" answers "Where
    did I work last month?", "I grow beans in my allotment" not "What did I sow there last week?".
    ``dated`` (``features.dated_records``): the days a record states by the calendar, back from when
    it was told (``_told_days``: "on Saturday" told on Monday, "this weekend" told on a Sunday, "On 12
    April", "in 2019"), place it too; and a record other than a turn that states such days, or tells
    an event in the past tense ("My biggest catch ever was a carp"), answers only for them, or for
    when it was told: it is no standing fact holding through the period."""
    valid = record["valid_time"]
    if record["kind"] == "episode":
        if period[0] <= valid["from"] <= period[1]:
            return True
        named = question_period(record["statement"], valid["from"])
        if named is not None and named[0] <= period[1] and named[1] >= period[0]:
            return True
        return dated and any(first <= period[1] and last >= period[0] for first, last in _told_days(record))
    if not standing:
        chain = record["supersession"]
        if dated and not (chain["supersedes"] or chain["superseded_by"]):
            days = _told_days(record)
            if days:
                return any(first <= period[1] and last >= period[0] for first, last in days)
            if told_in_past(record["statement"]):
                told = _told_at(record)
                return period[0] <= told <= period[1]
        return _timed_in(record, period) or (bool(asked) and asked <= held and _held_through(record, period))
    return valid["from"] <= period[1] and (valid["to"] is None or valid["to"] > period[0])


def _told_at(record: dict) -> str:
    """When a record was told: its source's observed_at, else the start of its validity."""
    return (record.get("source") or {}).get("observed_at") or record["valid_time"]["from"]


def _told_days(record: dict) -> list[tuple[str, str]]:
    """``features.dated_records``: the days a record states by the calendar, as (first, last)
    instants, resolved against when it was told (``temporal.stated_days``)."""
    try:
        told = parse_instant(_told_at(record)).date()
    except ValueError:
        return []
    return [(f"{first.isoformat()}T00:00:00Z", f"{last.isoformat()}T23:59:59Z")
            for first, last in stated_days(record["statement"], told)]


def dated_by(record: dict, instant: str) -> bool:
    """Whether a record dates what it tells at or before ``instant`` by its own words ("last
    month", "in August", "on 12 April", resolved against when it was told; ``features.change_starts``)."""
    named = question_period(record["statement"], _told_at(record))
    return (named is not None and named[0] <= instant) or any(first <= instant for first, _ in _told_days(record))


def _held_through(record: dict, period: tuple[str, str]) -> bool:
    valid = record["valid_time"]
    return valid["from"] <= period[1] and (valid["to"] is None or valid["to"] > period[0])


def _timed_in(record: dict, period: tuple[str, str]) -> bool:
    """``features.period_needs_time``: a record other than a turn answers a question bounded to a
    period when something of it happened then: its validity began or ended in the period, it was
    observed then, or it is a link of a slot with a history (what the slot held then is asked,
    "Where did I work last month?" after a job change). A standing fact that held long before and
    after ("I grow beans and leeks in my allotment") says nothing of what happened in the period
    ("What did I sow in the allotment last week?")."""
    valid, chain = record["valid_time"], record["supersession"]
    if chain["supersedes"] or chain["superseded_by"]:
        return True
    observed = (record.get("source") or {}).get("observed_at")
    return any(instant is not None and period[0] <= instant <= period[1]
               for instant in (valid["from"], valid["to"], observed))


def _second_before(found: re.Match) -> str:
    """The last second before the day, month or year a "before <date>" names."""
    year, month = int(found.group("year")), 1
    if found.group("mm"):
        start = f"{year:04d}-{found.group('mm')}-{found.group('dd')}T00:00:00Z"
    else:
        if found.group("month"):
            month = _MONTHS.index(found.group("month").lower()) + 1
        start = f"{year:04d}-{month:02d}-01T00:00:00Z"
    try:
        return format_instant(parse_instant(start) - _dt.timedelta(seconds=1))
    except ValueError:   # "before 2024-13-45": no such day, the question names no instant
        return "9999-12-31T23:59:59Z"


def _named_words(question: str) -> frozenset[str] | None:
    """The words after "before" when they may name a value ("before Manchester", "before Acme"),
    not a date, a change ("before I moved") or "before that"; None when there are none."""
    if _BEFORE_DATE.search(question) or _BEFORE_CHANGE.search(question):
        return None
    found = _BEFORE_WORDS.search(question)
    if found is None:
        return None
    words = frozenset(w for w in re.findall(r"\w+", found.group(1).lower()) if w not in _NOT_NAMING and len(w) > 1)
    return words or None


def _named_link(words: frozenset[str] | None, links: list[dict]) -> dict | None:
    """The one link of a slot with a history whose statement holds every word "before" names;
    None when no link or more than one does ("before work" when every job says "work")."""
    if not words:
        return None
    holding = [link for link in links if words <= set(re.findall(r"\w+", link["statement"].lower()))]
    return holding[0] if len(holding) == 1 else None


def event_words(question: str) -> frozenset[str] | None:
    """``features.before_events``: the words after "before" in a question in the past tense when they
    tell an event in two words or more ("before I got fitter", "before the diet", "before the
    landlord put it up"), not a date, a change verb (``_BEFORE_CHANGE``) or a bare word ("before
    tax", "before Christmas"); None otherwise. Where they name no link of a slot with a history
    (``_named_link``), the question asks the link before the current one."""
    if not _PAST.search(question):
        return None
    named = _named_words(question)
    found = _BEFORE_WORDS.search(question)
    if not named or found is None or len(re.findall(r"\w+", found.group(1))) < 2:
        return None
    return named


def question_instant(question: str, as_of: str, periods: bool = False,
                     closing_before: bool = False, months: bool = False) -> tuple[str, bool]:
    """``question_time`` without the rest of the question."""
    instant, before, _ = question_time(question, as_of, periods, closing_before, months)
    return instant, before


def question_rest(question: str, as_of: str, records, *, periods: bool = False, closing_before: bool = False,
                  named_values: bool = False, months: bool = False, before_events: bool = False) -> str:
    """The question without the words that say when (``question_time``), which set the instant a
    keyed record is judged at. ``named_values`` (``features.named_before``): "before Leeds" too,
    when Leeds names one link of a memory_key slot with a history (``_named_link``): the value the
    question dates by is not what it asks about, and "I support Leeds United" shares only that
    with "Where did I live before Leeds?". ``records``: every record of the scope (a view)."""
    rest = question_time(question, as_of, periods, closing_before, months)[2]
    named = _named_words(question) if named_values else None
    if named:
        keyed_slots = getattr(records, "keyed_slots", None)
        slots = keyed_slots() if keyed_slots is not None else _keyed_slots(records.values())
        if any(len(links) > 1 and _named_link(named, links) is not None for links in slots.values()):
            without = " ".join(_BEFORE_WORDS.sub(" ", rest).split())
            # "What did I do before Acme?" asks nothing else: the value stays its only words
            rest = without if tokenize(without) else rest
            return rest
    if before_events and event_words(question):
        rest = _event_rest(rest, records)
    return rest


def _event_rest(rest: str, records) -> str:
    """``features.before_events``: the question without "before <event>" when what is left is about a
    memory_key slot with a history (it shares a term with one of its links or its key): the event
    dates the value asked ("What was my weight before the diet?"), it is not asked about."""
    without = " ".join(_BEFORE_WORDS.sub(" ", rest).split())
    asked = set(tokenize(without))
    if not asked:
        return rest
    keyed_slots = getattr(records, "keyed_slots", None)
    slots = keyed_slots() if keyed_slots is not None else _keyed_slots(records.values())
    for key, links in slots.items():
        if len(links) > 1 and any(not asked.isdisjoint(tokenize(link["statement"] + " " + key.replace(".", " ")
                                                                  .replace("_", " "))) for link in links):
            return without
    return rest


# ``features.past_values``: a question in the past tense ("When did I move to Manchester?", "Did I
# live in Manchester?") and the names it gives (capitalized words past the first)
_PAST = Lazy(r"(?i)\b(?:did|was|were|had)\b")
_NAME_WORD = Lazy(r"(?<=\s)[A-Z][\w-]*")


def _past_named_words(question: str) -> frozenset[str] | None:
    """The names a question in the past tense gives ("Manchester"), lowercased; None when it is
    not in the past tense or names nothing."""
    if not _PAST.search(question):
        return None
    words = frozenset(w.lower() for w in _NAME_WORD.findall(question) if w.lower() not in _NOT_NAMING)
    return words or None


def follow_supersession(matches: list[Match], records: dict[str, dict], created: dict[str, str], *,
                        question: str, as_of: str, now: str, policy: ForgettingPolicy,
                        periods: bool = False, closing_before: bool = False, past_values: bool = False,
                        named_values: bool = False, later_values: bool = False, value_bridge: bool = False,
                        asked_things: frozenset[str] | None = None,
                        holders: Callable[[str], list[str]] | None = None, months: bool = False,
                        current_values: bool = False, before_events: bool = False) -> list[Match]:
    """A match on a record of a memory_key slot (or a supersession chain) answers with the link
    of that slot valid when the question asks about (``question_instant``): the successor of a
    retired record, through any number of updates (A -> B -> C answers C), or the link valid in
    the year the question names. The matched record keeps its place (it stays blocked, or
    answers if it is that link); the link it leads to is added with the match's scores and
    the other links as ``chain``. ``records``: every record of the scope (a view).

    ``closing_before``: "before" closing the question asks about the previous link
    (``question_time``). ``past_values``: a question in the past tense naming a value that one
    earlier link of a slot holds and the current one does not ("When did I move to Manchester?"
    after "I live in Manchester." was updated to "I moved to Leeds.") asks about that link: it
    answers as of when it held, and the slot's other links do not answer for it (a present
    question, "Do I live in Manchester?", still gets today's value). With either, and with
    ``named_values`` for "before Leeds" (``features.named_before``), a match outside that slot
    sharing with the question only the value it names does not support it. ``later_values``
    (``features.later_values``): a match naming the value of a later link does not support a
    question the slot answers with a replaced one (``_silence_later_values``). ``value_bridge``
    with ``asked_things`` (what the question is about, ``planner.thing_terms``): a record naming
    one link's value leads a question naming no thing to that slot (``_bridge_named_values``;
    ``holders``: the scope's index, term -> the ids holding it). ``current_values``
    (``features.current_values``): a question asking before ("Did I use to drive a Kia?") naming a
    value only the current link holds is answered by that link (``_current_named``)."""
    asked_instant, asked_before = question_instant(question, as_of, periods, closing_before, months)
    named = _named_words(question)
    events = event_words(question) if before_events else None
    past_named = _past_named_words(question) if past_values and not named and not asked_before \
        and asked_instant == as_of else None
    now_named = _past_named_words(question) if current_values and asked_before and not named else None
    silenced: set[str] = set()
    slot_links: set[str] = set()     # the links of a slot whose value the question names
    dated_by: frozenset[str] = frozenset()   # the value it names ("Leeds", "Manchester")
    slots: dict | None = None
    added: dict[str, Match] = {}
    present = {m.record["id"]: m for m in matches}
    for match in matches:
        record = match.record
        if record["kind"] == "episode" or not (record["memory_key"] or record["supersession"]["supersedes"]
                                               or record["supersession"]["superseded_by"]):
            continue
        if slots is None:
            # a store's current view parses a slot's records only when a match asks for that slot
            keyed_slots = getattr(records, "keyed_slots", None)
            slots = keyed_slots() if keyed_slots is not None else _keyed_slots(records.values())
        links = _links(record, records, slots)
        instant, before = asked_instant, asked_before
        link = _named_link(named, links) if len(links) > 1 else None
        if link is not None:
            # "before Manchester" names a value of this slot: it is asked as of the second before
            # that value began to hold (nothing then: an UNKNOWN, never today's value)
            instant = min(instant, _second_before_instant(link["valid_time"]["from"]))
            if named_values:
                slot_links |= {one["id"] for one in links}
                dated_by = named
        elif events and len(links) > 1:
            before = True   # "before I got fitter": an event no link names; the link before the current one
        if len(links) < 2:
            if instant != as_of and not _start_unknown(record, match.created_at, instant):
                match.valid_at = instant  # "in 2021": the lease that held 2020-2022 answers, historical
            continue
        if instant != as_of:
            # a slot with a history is answered as of the year asked about, whether or not a
            # link held then: nothing valid then is an UNKNOWN (retired_or_expired), not today's value
            match.valid_at = instant
        current = _current_named(now_named, links, policy, created, as_of, now) if now_named else None
        if current is not None:
            # "Did I use to drive a Kia?" while the Kia is today's car: the earlier links do not say
            # Kia; the current link answers, as it is now
            silenced |= {link["id"] for link in links if link["id"] != current["id"]}
            slot_links |= {link["id"] for link in links}
            dated_by = now_named
            if current["id"] not in present and current["id"] not in added:
                added[current["id"]] = Match(current, match.score, match.rank_score, match.coverage,
                                             created[current["id"]], support=match.support,
                                             chain=[link for link in links if link["id"] != current["id"]])
            continue
        older = _past_link(past_named, links, policy)
        if older is not None:
            # the question names an earlier value: that link answers, judged when it held
            silenced |= {link["id"] for link in links if link["id"] != older["id"]}
            slot_links |= {link["id"] for link in links}
            dated_by = past_named
            if older["id"] == record["id"]:
                match.valid_at = older["valid_time"]["from"]
            elif older["id"] not in present and older["id"] not in added:
                added[older["id"]] = Match(older, match.score, match.rank_score, match.coverage, created[older["id"]],
                                           support=match.support, valid_at=older["valid_time"]["from"],
                                           chain=[link for link in links if link["id"] != older["id"]])
            continue
        answering = [link for link in links if blocker(link, created[link["id"]], instant, now, policy) is None]
        if not answering:
            continue
        chosen = answering[-1]
        if before:
            earlier = [link for link in links if link["valid_time"]["from"] < chosen["valid_time"]["from"]
                       and link["status"] in policy.answering_statuses]
            if not earlier:
                continue
            chosen = earlier[-1]
            if chosen["id"] != record["id"]:
                # "my previous employer" asks about when the previous one held: judged then, the
                # matched record (the later link) was not yet valid and is not the answer
                match.valid_at = chosen["valid_time"]["from"]
        valid_at = None if chosen is answering[-1] and instant == as_of else \
            (instant if chosen is answering[-1] else chosen["valid_time"]["from"])
        if chosen["id"] == record["id"]:
            if valid_at:
                match.valid_at = valid_at  # it answers itself: no chain to show
            continue
        previous = added.get(chosen["id"]) or present.get(chosen["id"])
        if chosen["id"] in present and _strength(present[chosen["id"]])[0] >= _strength(match)[0] \
                and present[chosen["id"]].coverage > 0:
            # the successor answers the question by itself: nothing to borrow, no chain (one holding
            # none of the question's words is never read: ``other_values``' "I moved to Leeds" for
            # "Do I live in Manchester?" borrows the match's coverage)
            continue
        if previous is None or _strength(previous) < _strength(match):
            successor = Match(chosen, match.score, match.rank_score, match.coverage, created[chosen["id"]],
                              support=match.support, valid_at=valid_at,
                              chain=[link for link in links if link["id"] != chosen["id"]])
            if chosen["id"] in present:
                present[chosen["id"]].__dict__.update(successor.__dict__)
            else:
                added[chosen["id"]] = successor
    asked = set(tokenize(question)) - set(tokenize(" ".join(dated_by)))
    for match in matches:
        if match.record["id"] in silenced:
            match.support = 0.0   # another value of the slot than the one the question names
        elif dated_by and match.record["id"] not in slot_links and asked.isdisjoint(tokenize(match.record["statement"])):
            # shares with the question only the value it names of a slot ("My flight ... from
            # Manchester airport" for "When did I move to Manchester?"): about another thing
            match.support = 0.0
    found = matches + list(added.values())
    if value_bridge and asked_things is not None and (asked_before or named or asked_instant < now):
        things = asked_things - set(tokenize(" ".join(named or ())))
        if not things:
            if slots is None:
                keyed_slots = getattr(records, "keyed_slots", None)
                slots = keyed_slots() if keyed_slots is not None else _keyed_slots(records.values())
            found += _bridge_named_values(found, records, created, slots, named=named, instant=asked_instant,
                                          before=asked_before, now=now, policy=policy, holders=holders)
    if later_values and slots is not None:
        _silence_later_values(found, records, created, slots, as_of=as_of, now=now, policy=policy)
    return found


def _names(statement: str) -> set[str]:
    """Capitalized words past the first of a statement: the names it gives ("Tesla", "Zoe")."""
    return set(tokenize(" ".join(w for w in statement.strip().split()[1:] if w[:1].isupper())))


def _key_of(records, record_id: str) -> str | None:
    """The memory_key of a record other than an episode, read from the view's columns when it has
    them (nothing parsed), else from the record."""
    column = getattr(records, "column", None)
    if column is not None:
        return None if column("kind", record_id) == "episode" else column("key", record_id) or None
    record = records[record_id]
    return None if record["kind"] == "episode" else record["memory_key"]


def _bridge_named_values(matches: list[Match], records, created: dict[str, str], slots: dict, *,
                         named: frozenset[str] | None, instant: str, before: bool, now: str,
                         policy: ForgettingPolicy, holders: Callable[[str], list[str]] | None = None) -> list[Match]:
    """``features.value_bridge``: a question about a past instant or a replaced value that names
    no thing of its own ("What was I driving in 2022?", "What did I drive before the Tesla?"),
    matched by a record naming the value one link of a slot with a history holds and no other
    link does ("I'll drive you to the station, the Tesla has room": the car slot's Tesla), asks
    that slot: the link valid then (or before the link named) answers with that record's scores
    and shows the other links as ``chain``; the record, naming another value, does not support it.
    Only names (capitalized words) tie a record to a link: "electric" ties nothing. ``holders``
    (term -> the ids of the records holding it, the scope's index): only the slots of the records
    holding one of a match's names are read; None: every slot."""
    present = {m.record["id"]: m for m in matches}
    added: dict[str, Match] = {}
    only_names: dict[str, list] = {}   # memory_key -> (link, the names only it holds), each slot once

    def named_links(key: str) -> list:
        if key not in only_names:
            links = sorted(slots[key], key=lambda r: (r["valid_time"]["from"], r["id"])) if key in slots else []
            terms = [set(tokenize(link["statement"])) for link in links]
            only_names[key] = [(link, _names(link["statement"]) - set().union(*(t for j, t in enumerate(terms)
                                                                               if j != i)))
                               for i, link in enumerate(links)] if len(links) > 1 else []
        return only_names[key]

    for match in [m for m in matches if not m.record["memory_key"]]:
        # (its support, measured when read: ``Match.defer``, is read only once a slot's link is named
        # by it alone; one of 0 bridges nothing. What comes before is read from the statement and the
        # slots, and only this match's own fields change below: the value read is the one before the loop)
        supporting: bool | None = None
        held = set(tokenize(match.record["statement"]))
        if holders is None:
            keys = list(slots)
        else:   # the slots a record holding one of its names is keyed to, through the index
            keys = list(dict.fromkeys(key for name in _names(match.record["statement"]) for rid in holders(name)
                                      if rid in records and (key := _key_of(records, rid))))
        for key in keys:
            only = named_links(key)
            naming = [link for link, names in only if held & names]
            if len(naming) != 1:
                continue
            if supporting is None:
                supporting = match.support != 0
            if not supporting:
                break
            links = [link for link, _ in only]
            at = instant
            link = _named_link(named, links)
            if link is not None:
                at = min(at, _second_before_instant(link["valid_time"]["from"]))
            answering = [one for one in links if blocker(one, created[one["id"]], at, now, policy) is None]
            if not answering:
                continue
            chosen = answering[-1]
            if before and link is None:
                earlier = [one for one in links if one["valid_time"]["from"] < chosen["valid_time"]["from"]
                           and one["status"] in policy.answering_statuses]
                if not earlier:
                    continue
                chosen = earlier[-1]
            if chosen is naming[0]:
                continue
            valid_at = at if chosen is answering[-1] else chosen["valid_time"]["from"]
            previous = added.get(chosen["id"]) or present.get(chosen["id"])
            if previous is None or _strength(previous) < _strength(match):
                bridged = Match(chosen, match.score, match.rank_score, match.coverage, created[chosen["id"]],
                                support=match.support, valid_at=valid_at,
                                chain=[one for one in links if one["id"] != chosen["id"]])
                if chosen["id"] in present:
                    present[chosen["id"]].__dict__.update(bridged.__dict__)
                else:
                    added[chosen["id"]] = bridged
            match.support, match.stated, match.swapped = 0.0, 0.0, None   # it names another value
    return list(added.values())


def _silence_later_values(matches: list[Match], records, created: dict[str, str], slots: dict, *, as_of: str,
                          now: str, policy: ForgettingPolicy) -> None:
    """``features.later_values``: when a link of a slot answers as a value replaced since (judged
    at a past instant: "used to", "before the Tesla", "in 2021"; its validity has ended), a match
    outside that slot naming what only a later link holds, and nothing only the answering link
    holds, states the later value: it does not support the question ("I'll drive you to the
    station, the Tesla has room" for "What car did I use to drive?" when the car was a Skoda
    until the Tesla replaced it). A record naming both ("I sold the Skoda for the Tesla") stays."""
    slot_ids: set[str] = set()
    later: set[str] = set()
    own: set[str] = set()
    for match in matches:
        record = match.record
        # (its support, measured when read, last: ``Match.defer``)
        if record["kind"] == "episode" or record["valid_time"]["to"] is None or record["valid_time"]["to"] > now \
                or match.support == 0 \
                or blocker(record, created[record["id"]], match.valid_at or as_of, now, policy) is not None:
            continue
        links = _links(record, records, slots)
        if len(links) < 2:
            continue
        slot_ids |= {link["id"] for link in links}
        held = set(tokenize(record["statement"]))
        after = set().union(*(tokenize(link["statement"]) for link in links
                              if link["valid_time"]["from"] > record["valid_time"]["from"]))
        others = set().union(*(tokenize(link["statement"]) for link in links if link["id"] != record["id"]))
        later |= after - held
        own |= held - others
    if not later:
        return
    for match in matches:
        if match.record["id"] in slot_ids:
            continue
        terms = set(tokenize(match.record["statement"]))
        if terms & later and not terms & own and match.support != 0:
            match.support, match.stated, match.swapped = 0.0, 0.0, None


# ``features.turn_supersession``: words by which a speaker calls off or replaces what they said before
# (kept with the store's current view, which marks the turns holding one as it reads them)
_CANCELS = CALLING_OFF
# the pieces of a turn a cancelling word speaks of: "I'll cancel the Lisbon trip, we're going to Porto instead"
_CLAUSE_END = Lazy(r"(?i)[.!?;,]+\s*|\s+(?:but|so|because|and\s+then)\s+")


def follow_turns(matches: list[Match], turns_calling_off: list[dict], created: dict[str, str], terms,
                 ignore: frozenset[str], as_of: str) -> list[Match]:
    """A conversation turn that a later turn of the same speaker calls off or replaces (a piece
    of it says cancel, called off, no longer, instead, changed my mind, anymore... about a thing
    the earlier turn names) no longer answers: "We're planning a trip to Lisbon in March", then
    "I'll cancel the Lisbon trip, we're going to Porto instead". The later turn answers in its
    place, with its support when that is better (its rank is its own: ranking is unchanged), and
    shows it as ``chain``. "Instead of" names a substitute, not a change of plan.
    ``turns_calling_off``: the scope's turns holding such a word (``planner.turns_calling_off``),
    of which those said by ``as_of`` are read; ``terms``: record id -> its terms; ``ignore``:
    terms that name no thing (words that say when)."""
    cancelling = []
    for record in turns_calling_off:
        said = record["valid_time"]["from"]
        if said > as_of or not _turn_speaker(record):
            continue
        pieces = [frozenset(tokenize(piece)) for piece in _CLAUSE_END.split(record["statement"])
                  if _CANCELS.search(piece)]
        named = frozenset().union(*pieces) - ignore
        if named:
            cancelling.append((record, said, named))
    if not cancelling:
        return matches
    present = {m.record["id"]: m for m in matches}
    added: list[Match] = []
    for earlier in [m for m in matches if m.record["kind"] == "episode" and _turn_speaker(m.record)]:
        said, speaker = earlier.record["valid_time"]["from"], _turn_speaker(earlier.record)
        held = terms(earlier.record["id"])
        replacing = [(s, record) for record, s, named in cancelling
                     if s > said and _turn_speaker(record) == speaker and not named.isdisjoint(held)]
        if not replacing:
            continue
        record = max(replacing, key=lambda pair: pair[0])[1]
        later = present.get(record["id"])
        if later is None:
            later = present[record["id"]] = Match(record, 0.0, 0.0, 0.0, created[record["id"]], support=0.0)
            added.append(later)   # after every match found by the searches
        if _strength(later) < _strength(earlier):
            later.coverage = max(later.coverage, earlier.coverage)
            later.support, later.stated, later.anchored = earlier.support, earlier.stated, earlier.anchored
        later.chain = later.chain + [earlier.record]
        earlier.support = 0.0   # called off: it may not answer (what it states may still contest an answer)
    return matches + added


def _turn_speaker(record: dict) -> str | None:
    return ((record.get("source") or {}).get("speaker") or "").strip().lower() or None


def _past_link(words: frozenset[str] | None, links: list[dict], policy: ForgettingPolicy) -> dict | None:
    """``past_values``: the one link of a slot with a history, not its last, whose statement holds
    every name the question gives, when the last link holds none of them; else None."""
    if not words or len(links) < 2:
        return None
    held = lambda link: words & set(re.findall(r"\w+", link["statement"].lower()))  # noqa: E731
    holding = [link for link in links if held(link) == words and link["status"] in policy.answering_statuses]
    if len(holding) != 1 or holding[0] is links[-1] or held(links[-1]):
        return None
    return holding[0]


def _current_named(words: frozenset[str], links: list[dict], policy: ForgettingPolicy, created: dict[str, str],
                   as_of: str, now: str) -> dict | None:
    """``features.current_values``: the link of a slot valid at ``as_of`` when it alone holds one of
    the names a question asking before gives ("Did I use to drive a Kia?": "I drive a Kia Niro now",
    the Fiat before it not): the past reading weighs the tense, the value asked is today's."""
    current = [link for link in links if blocker(link, created[link["id"]], as_of, now, policy) is None]
    if not current:
        return None
    held = set(tokenize(current[-1]["statement"]))
    if words.isdisjoint(held):
        return None
    earlier = [link for link in links if link["id"] != current[-1]["id"]]
    if any(not words.isdisjoint(tokenize(link["statement"])) for link in earlier):
        return None
    return current[-1]


def _second_before_instant(instant: str) -> str:
    return format_instant(parse_instant(instant) - _dt.timedelta(seconds=1))


def _keyed_slots(records) -> dict[str, list[dict]]:
    """memory_key -> the records other than episodes holding it, in ``records``' order."""
    slots: dict[str, list[dict]] = {}
    for other in records:
        if other["kind"] != "episode" and other["memory_key"]:
            slots.setdefault(other["memory_key"], []).append(other)
    return slots


def _start_unknown(record: dict, created_at: str, instant: str) -> bool:
    """Nobody said when the record began to hold: its validity is open and starts when it was
    recorded (the default), and the question asks about an instant before that. "Graduated from
    TU Berlin in 2019", said in 2024, answers "where did I graduate in 2019?": the year is when its
    event happened, not an instant the record was known not to hold."""
    valid = record["valid_time"]
    return valid["to"] is None and valid["from"] == created_at and instant < valid["from"]


def _strength(match: Match) -> tuple:
    return (match.coverage if match.support is None else match.support, match.coverage, match.rank_score)


def _links(record: dict, records: dict[str, dict], slots: dict) -> list[dict]:
    """Every record of ``record``'s slot and supersession chain, by the start of its validity."""
    found = {r["id"]: r for r in slots.get(record["memory_key"], ())} if record["memory_key"] else {}
    found[record["id"]] = record
    todo = [record]
    while todo:
        current = todo.pop()
        linked = list(current["supersession"]["supersedes"]) + [current["supersession"]["superseded_by"]]
        for record_id in linked:
            if record_id and record_id not in found and record_id in records:
                found[record_id] = records[record_id]
                todo.append(records[record_id])
    return sorted(found.values(), key=lambda r: (r["valid_time"]["from"], r["id"]))


@dataclass
class Decision:
    knowledge_state: str
    reason_code: str | None
    missing_conditions: list[str]
    evidence: list[Match]
    blocked: list[tuple[Match, str]]
    # every match that may be shown (not blocked), sufficient or not, about the subject or not, in
    # rank order: what a retrieval caller gets (``query.search_eligible``)
    eligible: list[Match] = field(default_factory=list)
    # the evidence the answered state rests on (each sufficient alone); the rest of ``evidence`` is
    # related: cited, not what the state was read from. Empty for an UNKNOWN
    answers: list[Match] = field(default_factory=list)


def decide(matches: list[Match], *, as_of: str, now: str, policy: ForgettingPolicy, min_coverage: float,
           scope_label: str, query_terms: list[str], support_coverage: float = 0.0,
           support_ratio: float = 0.0, evidence_ratio: float = 0.0, swap_ratio: float = 0.0,
           outweigh: bool = False, dispute_governs: bool = False, stated_negatives: bool = False,
           historical_negatives: bool = False, replaced_historical: bool = False,
           question: str | None = None, caller: str = "",
           covered: Callable[[str], bool] | None = None,
           sureness_margin: float | None = None) -> Decision:
    """Answer when an eligible match is sufficient: its support (``Match.sufficient``) reaches
    ``min_coverage``; then every eligible match above ``support_coverage`` is listed as
    evidence, best first. With ``support_ratio``, the best support must also reach that share of
    the best coverage: when a record about someone else covers the question far better than
    anything about its subject, the question is most likely about the wrong person. With
    ``evidence_ratio``, a match is listed as evidence only when it holds what the question is
    about (``Match.anchored``) or its support reaches that share of the best support: "My driving
    licence expires in 2029" answers "when does my driving licence expire?", and "The oat milk
    expires on Friday", which shares only the verb, is not cited. With ``swap_ratio``, it does not
    answer when the question asked of another speaker is supported far better (``swapped_better``).
    With ``sureness_margin`` (``decision.sureness_margin``), whether the support suffices is
    decided by the ``abstention_score`` instead: it answers when the score is below the margin,
    from the records that reach ``min_coverage`` or, failing them, from those that support it.
    With ``dispute_governs``, conversation turns do not answer around a dispute between stated
    facts about the question (``_disputed_slot``): the dispute gives the reason.
    ``stated_negatives``, ``historical_negatives`` and ``replaced_historical``: how the state reads
    negatives and ended answers (``_answered_state``).
    ``question``, ``caller`` and ``covered`` (a term -> whether an eligible record of the scope
    holds it) word an insufficient_evidence UNKNOWN's missing condition (``_uncovered_words``)."""
    answering, blocked, eligible, slot_disputes = [], [], [], []
    for match in matches:
        weak = match.coverage < min(min_coverage, support_coverage) or match.coverage <= 0
        why = blocker(match.record, match.created_at, match.valid_at or as_of, now, policy)
        if why is None:
            eligible.append(match)  # what a retrieval caller may see, in rank order
        elif why == "disputed" and match.slot and match.record["kind"] != "episode":
            slot_disputes.append((match, why))   # ``planner.subject_slot``: it governs an episode answer
        if weak:
            continue
        if why:
            if match.sufficient(min_coverage):
                blocked.append((match, why))
        else:
            answering.append(match)
    # a record that fails the subject test (support 0) is about someone else: it may contest an
    # answer (``_uncontested``) but is never listed as evidence for it
    evidence = [m for m in answering if m.support != 0]
    # ``sureness_margin``: a question naming one speaker (the swap test measured it) is decided by
    # its ``abstention_score``; any other question as before (the score is then min_coverage's)
    graded = sureness_margin is not None and _swap_measured(eligible)
    if not graded:
        supported = any(m.sufficient(min_coverage) for m in evidence) and _uncontested(answering, support_ratio) \
            and not swapped_better(answering, swap_ratio)
    else:   # ``abstention_score(...) < sureness_margin``, measuring no more than it takes
        supported = bool(evidence) and _sure_below(eligible, min_coverage, sureness_margin)
    if supported \
            and not (outweigh and _outweighed(evidence, blocked, support_ratio)) \
            and not (dispute_governs and _disputed_slot(evidence, blocked + slot_disputes, min_coverage,
                                                        support_ratio)):
        evidence = [m for m in evidence if m.coverage >= support_coverage]
        answers = [m for m in evidence if m.sufficient(min_coverage)]
        if not answers and graded:   # below min_coverage: what holds the thing asked
            answers = [m for m in evidence if m.asked] or evidence
        if evidence_ratio > 0:
            best = max(_strength(m)[0] for m in evidence)
            evidence = [m for m in evidence if m.anchored or _strength(m)[0] >= evidence_ratio * best]
            # the state speaks for the records that answer: one cited only for holding the thing
            # asked about (anchored), far below the best, does not make a past answer current
            answers = [m for m in answers if _strength(m)[0] >= evidence_ratio * best] or answers
        return Decision(_answered_state(answers, now, stated_negatives, historical_negatives, replaced_historical),
                        None, [], evidence, blocked, eligible, answers)
    if dispute_governs and slot_disputes and _disputed_slot(evidence, blocked + slot_disputes, min_coverage,
                                                            support_ratio):
        blocked = blocked + [pair for pair in slot_disputes if pair not in blocked]
    reason = _first_reason(blocked, policy)
    if reason == "insufficient_evidence" and question is not None:
        held = covered or _held_by(eligible)
        words = _uncovered_words(question, caller, held)
        asked = () if words else _uncovered_words(question, caller, lambda term: False)
        return Decision("UNKNOWN", reason, [_uncovered(scope_label, words, asked)], [],
                        blocked, eligible)
    return Decision("UNKNOWN", reason, _missing(reason, blocked, as_of, scope_label, query_terms), [], blocked,
                    eligible)


def _swap_measured(eligible: list[Match]) -> bool:
    """``any(m.swapped is not None for m in eligible if m.coverage > 0)``, measuring no swapped
    support (``Match.holds_swapped``)."""
    return any(m.holds_swapped() for m in eligible if m.coverage > 0)


def _sure_below(eligible: list[Match], min_coverage: float, margin: float) -> bool:
    """``abstention_score(eligible, …, min_coverage) < margin`` for a question whose swap test was
    measured (``_swap_measured``: the score does not read the confidence then), reading a swapped
    support only when the bound of 1 does not settle it, and no more of them than it takes: the
    score is the best swapped support less the best support, a float difference that grows with the
    swapped support."""
    matching = [m for m in eligible if m.coverage > 0]
    evidence = [m for m in matching if m.support != 0]
    best = max(((m.coverage if m.support is None else m.support) for m in evidence), default=0.0)
    if best <= 0 or (best <= min_coverage and not any(m.asked for m in evidence)
                     and any(m.unseen_asked for m in evidence)):
        return 1.0 < margin
    if 1.0 - best < margin:
        return True
    return all(m.swapped - best < margin for m in matching if m.swapped is not None)


def swapped_better(matches: list[Match], swap_ratio: float) -> bool:
    """``decision.swap_ratio``: the question asked of another speaker (``Match.swapped``) is
    supported far better than as asked — the best support is below ``swap_ratio`` times the
    best swapped support: "What did Caroline realize after her charity race?" when only Melanie
    ran one. 0: off."""
    if swap_ratio <= 0 or not matches:
        return False
    best = max((m.coverage if m.support is None else m.support) for m in matches)
    # a deferred swapped support (``Match.defer``) is a support measure's value, at most 1
    # (``planner.support``: a share of the question's non-negative weights, or 1): measured only when
    # that bound does not already settle the comparison
    if any(m.deferred("swapped") for m in matches):
        known = [m.swapped for m in matches if not m.deferred("swapped") and m.swapped is not None]
        if best >= swap_ratio * max(known + [1.0]):
            return False
    swapped = [m.swapped for m in matches if m.swapped is not None]
    if not swapped:
        return False
    return best < swap_ratio * max(swapped)


def confidence(eligible: list[Match], support_ratio: float, swap_ratio: float = 0.0,
               blocked: list[tuple[Match, str]] = (), outweigh: bool = False) -> float:
    """The best support among the eligible matches that may be evidence, or 0 when it is
    contested (``_uncontested``) or outweighed by a memory that may not answer (``_outweighed``):
    ``decide`` answers (blockers aside) when it reaches min_coverage."""
    matching = [m for m in eligible if m.coverage > 0]
    evidence = [m for m in matching if m.support != 0]
    if not evidence or not _uncontested(matching, support_ratio) or swapped_better(matching, swap_ratio) \
            or (outweigh and _outweighed(evidence, list(blocked), support_ratio)):
        return 0.0
    return max((m.coverage if m.support is None else m.support) for m in evidence)


def sureness(eligible: list[Match], confidence: float) -> float:
    """``features.abstention_sureness``: how sure an abstention is that the question cannot be
    answered, a second signal beside ``confidence`` (the benchmarks' sureness curve ranks
    abstentions by it). For a question naming one speaker (``Match.swapped`` measured): by how
    much the question asked of another speaker is better supported than as asked — the best
    swapped support minus the best support. "What did Caroline realize after her charity
    race?" when Melanie's turns hold it and Caroline's share a word is sure (0.6 or more); "What
    Console does Nate own?" when no turn of anyone holds it is not (0): nothing shows the
    question is about the wrong person, only that the words are not there. Otherwise ungraded:
    1 when the support test abstains (``confidence`` 0), minus ``confidence`` when it answers."""
    matching = [m for m in eligible if m.coverage > 0]
    swapped = [m.swapped for m in matching if m.swapped is not None]
    if not swapped:
        return 1.0 if confidence <= 0 else -confidence
    best = max(((m.coverage if m.support is None else m.support) for m in matching if m.support != 0), default=0.0)
    return max(swapped) - best


def abstention_score(eligible: list[Match], confidence: float, min_coverage: float) -> float:
    """``decision.sureness_margin``: the shipped decision's abstention score — the query abstains
    when it is at or above the margin, so the benchmarks' curve over it is the decision's own
    (chosen on LoCoMo's dev half, ``datasets.operating_point``). ``sureness`` where a record can
    answer, with what a record can answer from:

    - nothing supports the question (no eligible record of support above 0): 1, whatever the
      other speaker's turns say ("What Console does Nate own?" has no record to answer with);
    - a question naming one speaker of a conversation (the swap test measured it): the best
      support of the question asked of another speaker minus the best support as asked
      (``sureness``), but 1 when the best support is at or below ``min_coverage``, no supporting
      record holds a noun the question asks about, other than a name (``Match.asked``), and one
      of those nouns is one the scope never saw (``Match.unseen_asked``): the premise is not in
      the scope. "When does Sam's work contract expire?" beside Sam's "My lease expires in June"
      shares only the verb (and Sam), and no record ever said "contract"; "What is Caroline's
      relationship status?" beside her turn about her relationship holds the thing asked about,
      in a long conversation whose words are seldom the question's;
    - any other question (a personal store's facts): ``min_coverage`` decides as before — 1 when
      the confidence is at or below it, minus the confidence otherwise."""
    matching = [m for m in eligible if m.coverage > 0]
    evidence = [m for m in matching if m.support != 0]
    swapped = [m.swapped for m in matching if m.swapped is not None]
    if not swapped:
        return 1.0 if confidence <= min_coverage else -confidence
    best = max(((m.coverage if m.support is None else m.support) for m in evidence), default=0.0)
    if best <= 0 or (best <= min_coverage and not any(m.asked for m in evidence)
                     and any(m.unseen_asked for m in evidence)):
        return 1.0
    return max(swapped) - best


def _outweighed(evidence: list[Match], blocked: list[tuple[Match, str]], support_ratio: float) -> bool:
    """A memory about the question exists but may not answer (rejected, retired, disputed...),
    the ledger names nothing that replaced it among the answers (no record of its memory_key
    slot, of its supersession chain or of its dispute), and the best answer supports the
    question less than ``support_ratio`` of it: that answer shares only a generic word with the
    question ("What is Ivo's shoe size?" after the shoe size was rejected, answered by "Ivo wears
    a size 58 cap"). The blocked memory decides the reason instead. Episodes do not weigh: a
    turn outside the as-of says nothing about whether an earlier one answers. Only with
    ``features.blocked_outweighs`` (``decide``'s ``outweigh``)."""
    if support_ratio <= 0 or not evidence:
        return False
    best = max(_strength(m)[0] for m in evidence)
    return any(best < support_ratio * _strength(m)[0] and not any(_linked(m.record, e.record) for e in evidence)
               for m, _ in blocked if m.record["kind"] != "episode" and m.support != 0)


def _disputed_slot(evidence: list[Match], blocked: list[tuple[Match, str]], min_coverage: float,
                   support_ratio: float) -> bool:
    """``features.dispute_governs``: every match that answers is a conversation turn, and a stated
    fact in an unresolved dispute (not an episode) supports the question at least ``support_ratio``
    of the best of them: the ledger holds the question's value and it is contested. "When does my
    sister arrive?" with "My sister arrives on Friday" and "... on Saturday" disputed is not
    answered by the turn "My sister Maria is visiting next weekend"; that turn still answers what
    the disputed facts do not state ("What is my sister's name?")."""
    answers = [m for m in evidence if m.sufficient(min_coverage)]
    if not answers or any(m.record["kind"] != "episode" for m in answers):
        return False
    disputed = [_strength(m)[0] for m, why in blocked if why == "disputed" and m.record["kind"] != "episode"
                and m.support != 0]
    if any(m.slot for m, why in blocked if why == "disputed" and m.record["kind"] != "episode"):
        return True   # about the slot the question asks, in other words (``planner.subject_slot``)
    return bool(disputed) and max(disputed) >= support_ratio * max(_strength(m)[0] for m in answers)


def _linked(one: dict, other: dict) -> bool:
    """The ledger ties the two: one memory_key slot, a supersession or a dispute between them."""
    if one["memory_key"] and one["memory_key"] == other["memory_key"]:
        return True
    def ties(a, b):
        return b["id"] in a["conflict"]["with"] or b["id"] in a["supersession"]["supersedes"] \
            or a["supersession"]["superseded_by"] == b["id"]
    return ties(one, other) or ties(other, one)


def _uncontested(evidence: list[Match], support_ratio: float) -> bool:
    if support_ratio <= 0:
        return True
    best_support = max((m.coverage if m.support is None else m.support) for m in evidence)
    # a deferred ``stated`` (``Match.defer``) is a support measure's value, at most 1: measured only
    # when that bound does not already settle the comparison
    if any(m.deferred("stated") for m in evidence) and best_support >= support_ratio * max(
            (1.0 if m.deferred("stated") else m.coverage if m.stated is None else m.stated) for m in evidence):
        return True
    return best_support >= support_ratio * max((m.coverage if m.stated is None else m.stated) for m in evidence)


# ``features.stated_years``: a year a record names in its own words
_STATED_YEAR = Lazy(r"\b(?:19|20)\d\d\b")


def year_answers(evidence: list[Match], question: str, min_coverage: float) -> list[Match] | None:
    """``features.stated_years``: the answers to a question naming a year ("How many km did I cycle
    in 2023?", "What was my salary in 2024?") when some sufficient ones state that year in their own
    words ("I cycled 4,900 km in 2023."): those, in their order; the rest — another year's total, a
    fact that merely held then ("My FTP on the bike is 210 watts") — are context, not the answer.
    None when the question names no year or no answer states it (the year then only sets the
    instant: ``question_time``)."""
    years = {found.group("year") for found in _YEAR.finditer(question)}
    if not years:
        return None
    stating = [m for m in evidence if m.sufficient(min_coverage)
               and not years.isdisjoint(_STATED_YEAR.findall(m.record["statement"]))]
    return stating or None


def answered_state(evidence: list[Match], now: str, stated_negatives: bool = False,
                   historical_negatives: bool = False, replaced_historical: bool = False) -> str:
    """``_answered_state``, for an answer whose evidence a later reading narrowed (``year_answers``)."""
    return _answered_state(evidence, now, stated_negatives, historical_negatives, replaced_historical)


def _answered_state(evidence: list[Match], now: str, stated_negatives: bool = False,
                    historical_negatives: bool = False, replaced_historical: bool = False) -> str:
    """The state of an answer. ``stated_negatives``: a record answers as a negative only when its
    statement negates something (``states_negation``): an update that kept kind ``negative`` while
    saying "I've started drinking coffee every morning" is a plain fact. ``historical_negatives``:
    answers whose validity has ended are VERIFIED_HISTORICAL, negatives too — "Did I use to drink
    coffee?" answered by the retired "I don't drink coffee." is the past, and VERIFIED_NEGATIVE
    would say the user does not drink coffee today. ``replaced_historical``
    (``features.replaced_historical``): one answer whose validity has ended is enough: an answer
    judged at a past instant that gives a value replaced since is the past, whatever standing
    fact ("My choir rehearses on Tuesdays") is cited beside it; an answer for now never holds an
    ended record, so today's answers stay VERIFIED."""
    negative = any(_answers_negative(m.record, stated_negatives) for m in evidence)
    positive = any(not _answers_negative(m.record, stated_negatives) for m in evidence)
    over = [m.record["valid_time"]["to"] is not None and m.record["valid_time"]["to"] <= now for m in evidence]
    ended = all(over) or (replaced_historical and any(over))
    if ended and historical_negatives:
        return "VERIFIED_HISTORICAL"
    if negative and positive:
        return "VERIFIED_WITH_NEGATIVE_BOUNDARY"
    if negative:
        return "VERIFIED_NEGATIVE"
    return "VERIFIED_HISTORICAL" if ended else "VERIFIED"


# ``features.stated_negatives``: the words by which a statement negates, refuses or gives up
# something ("I don't drink coffee", "has stopped drinking", "never eats meat", "avoids gluten")
_NEGATING = Lazy(r"(?i)n't\b|\b(?:not|never|no|none|nothing|nobody|nowhere|neither|nor|without|cannot|unable|"
                       r"stop|stops|stopped|quit|quits|gave\s+up|give\s+up|gives\s+up|avoid|avoids|avoided|"
                       r"refuse|refuses|refused|dislike|dislikes|disliked|hate|hates|hated|allergic|intolerant)\b"
                       r"|\w-free\b")


def states_negation(statement: str) -> bool:
    """Whether a statement negates something (``_NEGATING``)."""
    return bool(_NEGATING.search(statement.replace("\u2019", "'")))


def _answers_negative(record: dict, stated_negatives: bool) -> bool:
    return record["kind"] == "negative" and (not stated_negatives or states_negation(record["statement"]))


def _first_reason(blocked: list[tuple[Match, str]], policy: ForgettingPolicy) -> str:
    present = {BLOCKERS[why] for _, why in blocked} - {None}
    for reason in policy.abstention_priority:
        if reason in present:
            return reason
    return "insufficient_evidence"


def _missing(reason: str, blocked, as_of: str, scope_label: str, query_terms: list[str]) -> list[str]:
    ids = lambda wanted: sorted({m.record["id"] for m, why in blocked if BLOCKERS[why] == wanted})  # noqa: E731
    if reason == "unresolved_conflict":
        return [f"a resolve envelope settling the dispute among {', '.join(ids(reason))}"]
    if reason == "retired_or_expired":
        # the instant the records were judged at: the question's ("in 2019", "before Leeds"), else --as-of
        judged = sorted({m.valid_at or as_of for m, why in blocked if BLOCKERS[why] == reason})
        return [f"an active record valid at {' or '.join(judged)} (the matches {', '.join(ids(reason))} "
                "were retired, expired or not yet valid then)"]
    if reason == "candidate_or_unverified":
        return [f"a reviewer's approval of candidate {', '.join(ids(reason))}"]
    terms = ", ".join(dict.fromkeys(query_terms)) if query_terms else "the question's terms"
    return [f"an active record in scope {scope_label} that covers: {terms}"]


# -- what an insufficient_evidence UNKNOWN misses: the question's words no eligible record holds ----

_WORD = Lazy(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_POSSESSIVE = Lazy(r"['\u2019]s$", re.IGNORECASE)
# words that carry how a question is put, not what it asks about: never named as what is missing
# written out as terms (no stemming at import), in the order ``tokenize(_FILLER_TEXT)`` gives them
_FILLER_TEXT = ("call calls called calling go goes went gone going take takes took taken taking like likes liked "
                "get gets got getting make makes made do does did done have has had say says said tell told "
                "think thought know knew known want wanted use used happen happened come came thing things "
                "user kind sort type")
_FILLER = frozenset(("call", "go", "goe", "went", "gone", "take", "took", "taken", "like", "get", "got", "make",
                     "made", "done", "say", "said", "tell", "told", "think", "thought", "know", "knew", "known",
                     "want", "use", "happen", "come", "came", "thing", "user", "kind", "sort", "type"))


def _uncovered_words(question: str, caller: str, covered: Callable[[str], bool]) -> list[str]:
    """The question's own words (as written, a possessive 's dropped, each once) that no eligible
    record of the scope holds: not stop words, not the filler of how a question is put, not the
    caller's own name (the scope is about them)."""
    own = frozenset(tokenize(caller))
    words, seen = [], set()
    for found in _WORD.finditer(question):
        word = _POSSESSIVE.sub("", found.group(0))
        terms = [t for t in tokenize(word) if t not in _FILLER and t not in own]
        key = tuple(terms)
        if not terms or key in seen:
            continue
        seen.add(key)
        if not all(covered(term) for term in terms):
            words.append(word)
    return words


def _held_by(matches: list[Match]) -> Callable[[str], bool]:
    """Without the scope's index: the terms the eligible matches' statements hold."""
    held = {t for m in matches for t in tokenize(m.record["statement"])}
    return held.__contains__


def _uncovered(scope_label: str, words: list[str], asked: list[str] = ()) -> str:
    """What is missing: the question's words no record holds, else the words each held by some
    record and by none together (named, so the caller sees what to add or ask otherwise)."""
    if words:
        return f"an active record in scope {scope_label} that covers: {', '.join(words)}"
    together = f": {', '.join(asked)}" if asked else ""
    return (f"an active record in scope {scope_label} that covers the question's words together{together} "
            "(each is held by some record, none holds enough of them)")


# -- what a record's mood and aspect let it state (session 9, "state") --------------------------

# ``features.prospective_mood``: a clause naming a state only as a prospect, a wish or a plan — an
# attempt at it (applying for, an interview at, test-driving, looking at houses), an intention (plan
# to, thinking of, hoping to, want to, would like to) or a possibility (might, if, one day) — does
# not state that the state holds
_PROSPECT = Lazy(r"(?i)\b(?:might|if|hop(?:e|es|ed|ing)\s+to|plan(?:s|ned|ning)?\s+(?:to|on)|"
                 r"think(?:s|ing)?\s+(?:of|about)|consider(?:s|ing)?|wants?\s+to|wanted\s+to|"
                 r"would\s+(?:like|love)\s+to|appl(?:y|ies|ied|ying)\s+(?:for|to)|"
                 r"interview(?:s|ed|ing)?\s+(?:at|for|with)|looking\s+(?:at|for|into)|"
                 r"test[-\s]?driv\w*|one\s+day|some\s?day)\b")
# a question about what may come is answered by the prospect ("When is my interview?", "Where
# will we move?", "What am I hoping to buy?")
_ASKS_AHEAD = Lazy(r"(?i)\b(?:will|going\s+to|gonna|next|upcoming|soon|plan\w*|hop(?:e|es|ed|ing)|might|"
                   r"would|could|if|consider\w*|think\w*|want\w*|appl(?:y|ies|ied|ying))\b")
# ``features.bare_changes``: a clause saying a thing changed (switched suppliers, changed dentists,
# swapped my lenses for a different brand) that names no value it changed to or from
_CHANGE_VERB = Lazy(r"(?i)\b(?:switch|swap|chang|replac|mov|trad)(?:e|es|ed|ing|ped|ping)?\b")
_CHANGE_VALUE = Lazy(r"(?i)\b(?:to|into|from|over|instead|now)\b|\bfor\s+(?!(?:a|an|the|my|our)?\s*"
                     r"(?:different|new|another|other|better|cheaper)\b)")


# the question's first auxiliary: only a question in the present asks the state as it is now
_FIRST_AUXILIARY = Lazy(r"(?i)(?:\b(?:do|does|did|am|is|are|was|were|have|has|had|will|would|can|could|should|shall|"
                        r"may|might|must)\b|'(?:s|re|m|ve|d|ll)\b)")
_PRESENT_AUXILIARIES = frozenset(("do", "does", "am", "is", "are", "'s", "'re", "'m"))


def mood_marks(statement: str) -> tuple[bool, bool]:
    """(whether ``statement`` holds a prospect's marker, whether it holds a change verb): what
    ``states_only_prospect`` and ``states_bare_change`` need before they read its clauses (kept per
    record by the caller: it depends on the record alone)."""
    return _PROSPECT.search(statement) is not None, _CHANGE_VERB.search(statement) is not None


def asks_present(question: str) -> bool:
    """Whether a question asks a state as it is now: its first auxiliary is a present one ("Where do
    I work?", "Which bank are we with?", "Who is my dentist?"), not a past, perfect or future one
    ("What was done about the brakes?", "What preparations have I made?", "What did I do?")."""
    found = _FIRST_AUXILIARY.search(question.replace("\u2019", "'"))
    return found is not None and found.group(0).lower() in _PRESENT_AUXILIARIES


def _clauses_holding(statement: str, terms: frozenset[str]) -> list[str]:
    """The clauses of ``statement`` (cut at punctuation and but/so/because) holding one of the
    question's ``terms``; all of them when none does (it matched by a synonym or a class)."""
    clauses = [c for c in _CLAUSE_END.split(statement) if c and c.strip()]
    return [c for c in clauses if not terms.isdisjoint(tokenize(c))] or clauses


def states_only_prospect(statement: str, question: str, terms: frozenset[str]) -> bool:
    """``features.prospective_mood``: whether every clause of ``statement`` holding the question's
    ``terms`` names its state as a prospect (``_PROSPECT``: "I've got an interview at the Royal Free
    pharmacy on Thursday", "We might move to Sweden", "Test-driving a Volvo on Saturday") — it does
    not say the state holds: not where I work, where I live, what I drive. A question asking about
    what may come (``_ASKS_AHEAD``: will, plan, hoping, next …), naming the prospect's own word
    ("When is my interview?", "What car am I test-driving?") or not in the present (``asks_present``:
    "What preparations have I made for the walk?") is answered by it: not read."""
    if not _PROSPECT.search(statement) or _ASKS_AHEAD.search(question) or not asks_present(question):
        return False
    clauses = _clauses_holding(statement, terms)
    for clause in clauses:
        found = _PROSPECT.search(clause)
        if found is None or found.start() > _last_held(clause, terms):
            return False   # "Élodie's husband Karim might want it": all it holds is said before the modal
        said = tokenize(found.group(0))
        if said and said[0] in terms:
            return False
    return True


def _last_held(clause: str, terms: frozenset[str]) -> int:
    """Where the last word of ``clause`` holding one of ``terms`` begins (its length when none does):
    what a prospect names comes after its marker ("Amira might babysit", "an interview at the Royal
    Free pharmacy"); what comes before it all is asserted ("Élodie's husband Karim might …")."""
    last = len(clause)
    for word in _WORD.finditer(clause):
        if not terms.isdisjoint(tokenize(word.group(0))):
            last = word.start()
    return last


def states_bare_change(statement: str, question: str, terms: frozenset[str]) -> bool:
    """``features.bare_changes``: whether every clause of ``statement`` holding the question's
    ``terms`` says only that a thing changed (``_CHANGE_VERB`` with no value after it,
    ``_CHANGE_VALUE``: "I switched energy suppliers in March", "We changed dentists after the move",
    "I swapped my contact lenses for a different brand"): it names no value, so it answers no
    question about the value ("Who is my energy supplier?") — the record naming it does, or none.
    "I switched to Octopus", "swapped the Fiat for a Kia" name one. A question about the change
    itself ("When did I switch energy suppliers?", "Why did we change dentists?") or not in the
    present (``asks_present``: "What was done about the brakes?" / "The garage replaced the pads") is
    not read."""
    if not _CHANGE_VERB.search(statement) or _CHANGE_VERB.search(question) or not asks_present(question):
        return False
    for clause in _clauses_holding(statement, terms):
        found = _CHANGE_VERB.search(clause)
        if found is None or _CHANGE_VALUE.search(clause, found.end()):
            return False
    return True
