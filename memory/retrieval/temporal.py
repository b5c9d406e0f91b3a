"""Calendar words for instants: how a question names a day that the text never spells out.

``date_words("2023-10-13T10:31:00Z") -> "13 October 2023 Friday"``: the day, the month's
name, the year and the weekday of an ISO instant (UTC), for indexing an episode under the
date it was said. Pure; anything that is not an ISO date gives "".
"""
from __future__ import annotations

import datetime as _dt

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
