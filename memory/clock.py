"""The injected clock: nothing else in the package reads the wall clock.

A clock is any object with ``now() -> str`` returning an ISO 8601 UTC instant
(``2024-03-01T00:00:00Z``). ``$MEMORY_NOW`` pins it for a whole process.

Every instant the store holds has a four-digit year: an instant whose year (as
written, or once moved to UTC) falls outside 1000-9999 is a ValueError wherever it
is parsed, so it is refused at admission instead of being written as ``999-...``.
"""
from __future__ import annotations

import datetime as _dt
import os
from functools import lru_cache


FIRST_YEAR, LAST_YEAR = 1000, 9999


class InstantOutOfRange(ValueError):
    """A real instant whose year, as written or in UTC, is outside FIRST_YEAR-LAST_YEAR."""


def format_instant(moment: _dt.datetime) -> str:
    """Render an aware datetime as the store's canonical instant (UTC, 'Z', no micros)."""
    try:
        moment = moment.astimezone(_dt.timezone.utc).replace(microsecond=0)
    except OverflowError:  # 9999-12-31T23:59:59-01:00 is past the last UTC instant
        raise InstantOutOfRange(f"instant out of range (years {FIRST_YEAR}-{LAST_YEAR})") from None
    _check_year(moment)
    # strftime's %Y writes year 999 as "999" on glibc, a spelling no schema accepts
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _check_year(moment: _dt.datetime) -> None:
    if not FIRST_YEAR <= moment.year <= LAST_YEAR:
        raise InstantOutOfRange(f"instant out of range (years {FIRST_YEAR}-{LAST_YEAR})")


class SystemClock:
    """The wall clock, read in exactly one place."""

    def now(self) -> str:
        return format_instant(_dt.datetime.now(_dt.timezone.utc))


class FixedClock:
    """A clock that says what it is told; tests and benchmark replays move it."""

    def __init__(self, instant: str) -> None:
        self.instant = normalize_instant(instant)

    def set(self, instant: str) -> None:
        # canonical, so a pinned "2024-03-01" or "...+02:00" is never written as recorded_at
        self.instant = normalize_instant(instant)

    def now(self) -> str:
        return self.instant


def clock_from_env(environ: dict | None = None):
    """``$MEMORY_NOW`` if set, else the wall clock; an unreadable ``$MEMORY_NOW`` is a usage error."""
    environ = os.environ if environ is None else environ
    pinned = environ.get("MEMORY_NOW")
    if not pinned:
        return SystemClock()
    try:
        return FixedClock(pinned)
    except ValueError:
        from .errors import UsageError
        raise UsageError(f"MEMORY_NOW is not a valid ISO 8601 instant in years {FIRST_YEAR}-{LAST_YEAR}",
                         code="invalid_date") from None


def parse_instant(text: str) -> _dt.datetime:
    """Parse an ISO 8601 instant or date; raises ValueError for impossible dates.

    A bare date (``2024-03-01``) means midnight UTC; a naive time is UTC. A year
    outside 1000-9999, as written or in UTC, is a ValueError.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("empty instant")
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    moment = _dt.datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.timezone.utc)
    _check_year(moment)
    return moment


def normalize_instant(text: str) -> str:
    """Any accepted instant spelling -> the canonical ``YYYY-MM-DDTHH:MM:SSZ``."""
    if type(text) is str:
        return _normalized_instant(text)  # an envelope often names one instant twice
    return _normalize_instant(text)


@lru_cache(maxsize=1024)
def option_instant(value: str | None, name: str) -> str | None:
    """An instant a caller gave as an option (``--as-of``, ``--from``...): None stays None; a bad
    value is a usage error naming the option (never echoing the value)."""
    if value is None:
        return None
    from .errors import UsageError
    try:
        return normalize_instant(value)
    except InstantOutOfRange:
        raise UsageError(f"{name} must fall in the years 1000-9999", code="invalid_date") from None
    except (ValueError, TypeError):
        # "--as-of 'last week'": the question reads time words itself ("What did I do last week?"),
        # relative to --as-of; the option takes an instant (named without echoing the value)
        words = name == "--as-of" and isinstance(value, str) and not any(c.isdigit() for c in value)
        raise UsageError(f"{name} is not a valid ISO 8601 instant or date (write e.g. 2026-09-01 or "
                         f"2026-09-01T14:30:00Z)" + ("; words that say when, such as \"last week\", go in the "
                                                     "question itself, read relative to --as-of" if words else ""),
                         code="invalid_date") from None


def _normalized_instant(text: str) -> str:
    return _normalize_instant(text)


def _normalize_instant(text: str) -> str:
    return format_instant(parse_instant(text))  # format_instant checks the UTC year


def add_days(instant: str, days: int) -> str:
    return format_instant(parse_instant(instant) + _dt.timedelta(days=days))
