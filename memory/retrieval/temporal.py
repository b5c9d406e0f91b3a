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
