"""Calendar words for instants: how a question names a day that the text never spells out.

``date_words("2023-10-13T10:31:00Z") -> "13 October 2023 Friday"``: the day, the month's
name, the year and the weekday of an ISO instant (UTC), for indexing an episode under the
date it was said. ``relative_date_words(text, instant)`` spells out, the same way, the days
that the text names relative to the instant ("yesterday", "last Saturday", "two weeks ago").
Pure; anything that is not an ISO date gives "".
"""
from __future__ import annotations

import datetime as _dt
import re

from .patterns import Lazy

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def date_words(instant: str | None) -> str:
    """The day, month name, year and weekday of an ISO 8601 date or instant."""
    try:
        day = _dt.date.fromisoformat(str(instant)[:10])
    except ValueError:
        return ""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year} {WEEKDAYS[day.weekday()]}"


# --- relative time expressions ("yesterday", "last Saturday", "two weeks ago", "next month") ---

_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "couple of": 2}
_COUNT = r"\d{1,3}|a\s+couple\s+of|couple\s+of|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
_WEEKDAY = "|".join(WEEKDAYS)
_RELATIVE = Lazy(
    r"(?i)\b(?:"
    r"(?P<day>the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|yesterday|tomorrow|last\s+night)"
    r"|(?P<count>" + _COUNT + r")\s+(?P<unit>day|week|month|year)s?\s+(?P<dir>ago|before|earlier|from\s+now|later)"
    r"|in\s+(?P<ahead>" + _COUNT + r")\s+(?P<ahead_unit>day|week|month|year)s?\b(?!\s+(?:ago|before|earlier))"
    r"|(?:the\s+)?(?P<which>last|past|previous|this|next|coming)\s+(?P<what>weekend|week|month|year|" + _WEEKDAY + r")"
    r")\b")
_DAY_OFFSETS = {"yesterday": -1, "last night": -1, "tomorrow": 1, "the day before yesterday": -2,
                "the day after tomorrow": 2}


def relative_date_words(text: str, instant: str | None) -> str:
    """Each relative time expression in ``text`` resolved against ``instant`` (when it was
    said), in the words ``date_words`` uses: "I went yesterday" said on 8 May 2023 -> "7 May
    2023 Sunday"; "last month" -> "April 2023"; "last year" -> "2022". Expressions that name
    the instant's own day, week, month or year ("today", "this month") add nothing: the
    instant's own date words cover them. Pure; "" when nothing resolves."""
    try:
        anchor = _dt.date.fromisoformat(str(instant)[:10])
    except ValueError:
        return ""
    words = []
    for match in _RELATIVE.finditer(text):
        resolved = _resolved(match, anchor)
        if resolved and resolved not in words:
            words.append(resolved)
    return " ".join(words)


def _resolved(match: re.Match, anchor: _dt.date) -> str:
    try:
        if match["day"]:
            return _day(anchor + _dt.timedelta(days=_DAY_OFFSETS[" ".join(match["day"].lower().split())]))
        if match["count"]:
            sign = -1 if match["dir"].lower() in ("ago", "before", "earlier") else 1
            return _shifted(anchor, sign * _count(match["count"]), match["unit"].lower())
        if match["ahead"]:
            return _shifted(anchor, _count(match["ahead"]), match["ahead_unit"].lower())
        return _named(anchor, match["which"].lower(), match["what"].lower())
    except (OverflowError, ValueError):
        return ""


def _count(text: str) -> int:
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else _COUNTS[text]


def _shifted(anchor: _dt.date, count: int, unit: str) -> str:
    if unit in ("day", "week"):
        return _day(anchor + _dt.timedelta(days=count * (7 if unit == "week" else 1)))
    if unit == "month":
        return _month(anchor, count)
    return str(anchor.year + count)


def _named(anchor: _dt.date, which: str, what: str) -> str:
    """"last Saturday", "next month", "this weekend", "the past week"."""
    back = which in ("last", "past", "previous")
    if what == "month":
        return "" if which == "this" else _month(anchor, -1 if back else 1)
    if what == "year":
        return "" if which == "this" else str(anchor.year + (-1 if back else 1))
    if what == "week":
        return "" if which == "this" else _day(anchor + _dt.timedelta(days=-7 if back else 7))
    target = 5 if what == "weekend" else WEEKDAYS.index(what.capitalize())
    if back:  # the latest such day strictly before the anchor
        day = anchor - _dt.timedelta(days=(anchor.weekday() - target - 1) % 7 + 1)
    else:
        ahead = (target - anchor.weekday()) % 7
        if which != "this" and ahead == 0:
            ahead = 7
        if what == "weekend" and anchor.weekday() == 6 and which == "this":
            ahead = -1  # said on a Sunday, "this weekend" is the one under way
        day = anchor + _dt.timedelta(days=ahead)
    if what == "weekend":  # both its days, each word once: "6 May 2023 Saturday 7 Sunday"
        return " ".join(dict.fromkeys(_day(day).split() + _day(day + _dt.timedelta(days=1)).split()))
    return _day(day)


def _day(day: _dt.date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year} {WEEKDAYS[day.weekday()]}"


def _month(anchor: _dt.date, offset: int) -> str:
    index = anchor.year * 12 + anchor.month - 1 + offset
    return f"{MONTHS[index % 12]} {index // 12}"


# --- the times a question or a record names by the calendar (session 8, "time") ---------------
# Compiled when first used (``_pattern``): most questions name no month, no weekday and no date.

_MONTH_NAMES = "|".join(MONTHS)
_WEEKDAY_NAMES = "|".join(WEEKDAYS)
_PATTERNS = {
    # "last January", "in February", "during March", "back in May" (no year after it: "in March 2021"
    # is an instant, ``decision.question_time``); the month capitalized ("may" is a verb)
    "month": r"\b(?P<how>(?i:last|this\s+past|(?:back\s+)?in|during))\s+(?P<month>" + _MONTH_NAMES + r")\b"
             r"(?!\s*,?\s*\d)",
    # a question about the future keeps its month a plain word ("What will I do in July?")
    "future": r"(?i)\b(?:will|won't|'ll|going\s+to|gonna|planning|plans?\s+to|next|tomorrow)\b",
    # "12 April 2025", "on 12 April", "the 3rd of May", "April 12, 2025", "in March 2021", "in 2019"
    "day_month": r"\b(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>" + _MONTH_NAMES + r")\b"
                 r"(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?",
    "month_day": r"\b(?P<month>" + _MONTH_NAMES + r")\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\b(?!\s*:)"
                 r"(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?",
    "month_year": r"\b(?P<month>" + _MONTH_NAMES + r")\s+(?P<year>(?:19|20)\d\d)\b",
    "year": r"\b(?i:in|during|of|back\s+in)\s+(?P<year>(?:19|20)\d\d)\b",
    # "on Saturday", "Saturday morning" in a record: the latest such day before it was told
    "weekday": r"\b(?:(?i:on)\s+)?(?P<weekday>" + _WEEKDAY_NAMES + r")\b(?!s\b)",
    "this_weekend": r"(?i)\bthis\s+weekend\b",
    # a recurring time a question asks about: "on Sundays", "Sunday mornings", "every Thursday",
    # "at weekends", "on weekends", "every weekend" (not a name: "the Turbocharged Tuesdays event")
    "recurring": r"(?i)\b(?:(?:every|most|all)\s+(?P<every>" + _WEEKDAY_NAMES + r")s?\b"
                 r"|(?:on|at)\s+(?P<plural>" + _WEEKDAY_NAMES + r")s\b"
                 r"|(?P<parts>" + _WEEKDAY_NAMES + r")\s+(?:morning|afternoon|evening|night)s\b"
                 r"|(?:on|at|every|most)\s+(?P<weekend>weekends?)\b|(?P<weekends>weekends)\b)",
    # a record saying the user changed TO a value: it states that value from when it was told
    "change": r"(?i)\b(?:switch(?:ed|ing)?|mov(?:ed|ing)|chang(?:ed|ing)|transferr?(?:ed|ing)?)\s+"
              r"(?:\w+\s+){0,3}?(?:to|into|over)\b"
              r"|\b(?:start(?:ed|ing)?|began|begun|joined|took\s+up|taken\s+up|became)\b",
    "change_from": r"(?i)\bfrom\b|\binstead\s+of\b|\bno\s+longer\b|\bafter\s+(?:\w+\s+){0,4}?years?\b",
    "told_past": r"(?i)\b(?:was|were|did|had)\b|\b(?:I|we)\s+\w+ed\b",
    "asked_past": r"(?i)\b(?:did|was|were|had)\b",
    # a date after these bounds a state ("vegan since January 2024"), it is no day of an event
    "bound": r"(?i)\b(?:since|from|until|till|through|as\s+of|starting)\s+(?:the\s+)?$",
}
_COMPILED: dict[str, re.Pattern] = {}


def _pattern(name: str) -> re.Pattern:
    found = _COMPILED.get(name)
    if found is None:
        found = _COMPILED[name] = re.compile(_PATTERNS[name])
    return found


def _month_span(year: int, month: int) -> tuple[_dt.date, _dt.date]:
    following = _dt.date(year + month // 12, month % 12 + 1, 1)
    return _dt.date(year, month, 1), following - _dt.timedelta(days=1)


def named_months(text: str, today: _dt.date) -> list[tuple[_dt.date, _dt.date]]:
    """The months a question names without a year, back from ``today`` (when it is asked):
    "last January" the latest January before this month; "in February" / "during March" this
    year's when it has begun, last year's only in a question in the past tense ("What shift did I
    work in December?" asked in April). Not read: "last <this month>" (this one or a year ago?),
    a month to come in the present tense ("Where am I travelling in March?" asked in February),
    a question about the future ("What will I do in July?"). Pure; [] when it names none."""
    if not any(m in text for m in MONTHS) or _pattern("future").search(text):
        return []
    spans = []
    for found in _pattern("month").finditer(text):
        month = MONTHS.index(found["month"]) + 1
        if found["how"].lower().startswith(("last", "this")):
            if month == today.month:
                continue
            year = today.year if month < today.month else today.year - 1
        elif month <= today.month:
            year = today.year
        elif _pattern("asked_past").search(text):
            year = today.year - 1
        else:
            continue
        spans.append(_month_span(year, month))
    return spans


def month_phrases(text: str) -> str:
    """``text`` without the months ``named_months`` reads ("What shift did I work in February?" ->
    "What shift did I work ?")."""
    if _pattern("future").search(text):
        return text
    return _pattern("month").sub(" ", text)


def stated_days(text: str, told: _dt.date) -> list[tuple[_dt.date, _dt.date]]:
    """The days a record states by the calendar, each as (first, last), resolved against
    ``told`` (when it was said): "On 12 April I landed a carp" told on 14 April 2025 -> 12
    April 2025; "in 2019" -> that year; "in March 2021" -> that month; "in March" -> the latest
    March begun by then; "on Saturday" / "Saturday morning" -> the latest Saturday before that
    day; "this weekend" told on a Saturday or Sunday -> that weekend. Expressions such as
    "yesterday", "last week" are ``decision.question_period``'s. Pure."""
    spans: list[tuple[_dt.date, _dt.date]] = []
    taken: list[tuple[int, int]] = []

    ahead = _pattern("future").search(text) is not None   # a plan: the next such day, not the last

    def free(found: re.Match) -> bool:
        if any(s < found.end() and found.start() < e for s, e in taken):
            return False
        taken.append(found.span())
        return _pattern("bound").search(text[:found.start()]) is None

    def year_of(month: int, day: int = 1) -> int:
        if ahead:
            return told.year if (month, day) >= (told.month, told.day) else told.year + 1
        return told.year if (month, day) <= (told.month, told.day) else told.year - 1

    has_month = any(m in text for m in MONTHS)
    if has_month:
        for name in ("day_month", "month_day"):
            for found in _pattern(name).finditer(text):
                if not free(found):
                    continue
                month, day = MONTHS.index(found["month"]) + 1, int(found["day"])
                try:
                    date = _dt.date(int(found["year"]) if found["year"] else year_of(month, day), month, day)
                except ValueError:
                    continue
                spans.append((date, date))
        for found in _pattern("month_year").finditer(text):
            if free(found):
                spans.append(_month_span(int(found["year"]), MONTHS.index(found["month"]) + 1))
        for found in _pattern("month").finditer(text):
            if free(found):
                month = MONTHS.index(found["month"]) + 1
                spans.append(_month_span(year_of(month, 1 if ahead else 31), month))
    for found in _pattern("year").finditer(text):
        if free(found):
            year = int(found["year"])
            spans.append((_dt.date(year, 1, 1), _dt.date(year, 12, 31)))
    if any(day in text for day in WEEKDAYS):
        for found in _pattern("weekday").finditer(text):
            if free(found):
                target = WEEKDAYS.index(found["weekday"])
                day = told + _dt.timedelta(days=(target - told.weekday() - 1) % 7 + 1) if ahead else \
                    told - _dt.timedelta(days=(told.weekday() - target - 1) % 7 + 1)
                spans.append((day, day))
    if told.weekday() >= 5 and _pattern("this_weekend").search(text):
        saturday = told - _dt.timedelta(days=told.weekday() - 5)
        spans.append((saturday, saturday + _dt.timedelta(days=1)))
    return spans


def recurring_days(question: str) -> frozenset[str]:
    """The days a recurring time in a question names, lowercased: "What do I do on Sunday
    mornings?" -> {"sunday"}; "every Thursday" -> {"thursday"}; "at weekends" -> {"weekend",
    "saturday", "sunday"}. Empty when it names none."""
    if not any(day.lower() in question.lower() for day in WEEKDAYS) and "weekend" not in question.lower():
        return frozenset()
    days: set[str] = set()
    for found in _pattern("recurring").finditer(question):
        day = found["every"] or found["plural"] or found["parts"]
        if day:
            days.add(day.lower())
        else:
            days |= {"weekend", "saturday", "sunday"}
    return frozenset(days)


def states_change(statement: str) -> bool:
    """Whether a record says the user changed TO a value ("I switched to the day shift", "We
    moved to Accra in March", "I started as a data analyst", "took up the cello") without
    stating the value before ("from nights to days", "instead of", "no longer"): what it states
    holds from when it was told, not before."""
    return _pattern("change").search(statement) is not None and _pattern("change_from").search(statement) is None


def told_in_past(statement: str) -> bool:
    """Whether a record tells something in the past tense ("My biggest catch was a pike", "We
    painted the kitchen"): an event of when it was told or before, not a standing state."""
    return _pattern("told_past").search(statement) is not None
