"""LongMemEval (``longmemeval_s`` / ``_m`` / ``_oracle`` format) as questions with haystacks.

Contract: ``load_longmemeval(path) -> list[Question]``. Each question owns its
haystack: turns with ``ref`` ``<session_id>:<turn_index>`` (the index in the
original session, so refs stay stable when an empty turn is skipped),
``speaker`` the role, ``date`` the session's ``haystack_dates`` entry
("2023/05/30 (Tue) 23:40", taken as UTC) as an ISO instant. ``question_as_of``
is ``question_date`` parsed the same way. Gold: ``answer_session_ids`` and the
refs of turns marked ``has_answer``. Question ids ending in ``_abs`` are
abstention questions.

A haystack may list the same session id twice (same turns, another date); the
repeat gets the session key ``<session_id>#2`` (``#3`` …) so that every turn
keeps a unique ref and transaction id, and ``session_ids`` maps each key back
to the dataset's id for session-level scoring.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from memory.clock import format_instant
from memory.importers import DatasetError, Turn, item_label, read_json, require_str

_LME_DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"
_PARALLEL_LISTS = ("haystack_dates", "haystack_session_ids", "haystack_sessions")


@dataclass(frozen=True, slots=True)
class Question:
    """One LongMemEval question with its own haystack of dated sessions."""

    dataset: ClassVar[str] = "longmemeval"

    question_id: str
    question_type: str
    question: str
    answer: str
    question_as_of: str
    answer_session_ids: tuple[str, ...]
    answer_turn_refs: tuple[str, ...]
    turns: tuple[Turn, ...]
    session_ids: dict[str, str] = field(default_factory=dict)
    empty_turns: int = 0

    @property
    def scope_key(self) -> str:
        return self.question_id

    @property
    def is_abstention(self) -> bool:
        return self.question_id.endswith("_abs")

    def transaction_id(self, turn: Turn) -> str:
        return f"import:lme:{self.question_id}:{turn.ref}"

    def session_of(self, ref: str) -> str | None:
        """The dataset session id a turn ref belongs to (None for a ref not in this haystack)."""
        key, sep, _ = ref.rpartition(":")
        return self.session_ids.get(key) if sep else None


def load_longmemeval(path: str | Path) -> list[Question]:
    """Read a LongMemEval file; any shape problem raises ``DatasetError`` naming the question."""
    data = read_json(path)
    if not isinstance(data, list):
        raise DatasetError("longmemeval: the top level must be a list of questions")
    return [_question(index, item) for index, item in enumerate(data)]


def parse_longmemeval_date(text: str) -> str:
    """``"2023/05/30 (Tue) 23:40"`` -> ``"2023-05-30T23:40:00Z"`` (ValueError if not that shape)."""
    moment = _dt.datetime.strptime(" ".join(str(text).split()), _LME_DATE_FORMAT)
    return format_instant(moment.replace(tzinfo=_dt.timezone.utc))  # years 1000-9999 only


def _question(index: int, item: Any) -> Question:
    where = item_label("longmemeval", index, item, "question_id")
    if not isinstance(item, dict):
        raise DatasetError(f"{where}: a question must be an object")
    question_id = require_str(item, "question_id", where)
    dates, session_ids, sessions = _parallel_lists(item, where)
    keys = _session_keys(session_ids)
    turns, gold_refs, empty = _haystack(keys, dates, sessions, where)
    answer_sessions = item.get("answer_session_ids")
    if not isinstance(answer_sessions, list) or not all(isinstance(s, str) for s in answer_sessions):
        raise DatasetError(f"{where}: 'answer_session_ids' must be a list of strings")
    return Question(
        question_id=question_id,
        question_type=require_str(item, "question_type", where),
        question=require_str(item, "question", where),
        answer=str(item.get("answer", "")),
        question_as_of=_date(item.get("question_date"), f"{where}: question_date"),
        answer_session_ids=tuple(answer_sessions),
        answer_turn_refs=gold_refs,
        turns=turns,
        session_ids=dict(zip(keys, session_ids)),
        empty_turns=empty,
    )


def _parallel_lists(item: dict, where: str) -> tuple[list, list, list]:
    lists = [item.get(name) for name in _PARALLEL_LISTS]
    for name, value in zip(_PARALLEL_LISTS, lists):
        if not isinstance(value, list):
            raise DatasetError(f"{where}: {name!r} must be a list")
    if len({len(value) for value in lists}) != 1:
        raise DatasetError(f"{where}: haystack_dates, haystack_session_ids and haystack_sessions differ in length")
    if not all(isinstance(s, str) for s in lists[1]):
        raise DatasetError(f"{where}: 'haystack_session_ids' must be strings")
    return lists[0], lists[1], lists[2]


def _session_keys(session_ids: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    keys = []
    for session_id in session_ids:
        seen[session_id] = seen.get(session_id, 0) + 1
        keys.append(session_id if seen[session_id] == 1 else f"{session_id}#{seen[session_id]}")
    return keys


def _haystack(keys: list[str], dates: list, sessions: list, where: str) -> tuple[tuple[Turn, ...], tuple[str, ...], int]:
    turns: list[Turn] = []
    gold: list[str] = []
    empty = 0
    for key, raw_date, session in zip(keys, dates, sessions):
        date = _date(raw_date, f"{where}: session {key} date")
        if not isinstance(session, list):
            raise DatasetError(f"{where}: session {key} must be a list of turns")
        for turn_index, raw in enumerate(session):
            turn, has_answer = _turn(raw, key, turn_index, date, f"{where}: session {key} turn {turn_index}")
            if not turn.text.strip():
                empty += 1
                continue
            turns.append(turn)
            if has_answer:
                gold.append(turn.ref)
    return tuple(turns), tuple(gold), empty


def _turn(raw: Any, key: str, turn_index: int, date: str, where: str) -> tuple[Turn, bool]:
    if not isinstance(raw, dict):
        raise DatasetError(f"{where}: a turn must be an object")
    role = require_str(raw, "role", where)
    content = require_str(raw, "content", where)
    # The statement is kept verbatim; emptiness is judged on the stripped text.
    turn = Turn(ref=f"{key}:{turn_index}", session=key, speaker=role, text=content, date=date)
    return turn, raw.get("has_answer") is True


def _date(raw: Any, where: str) -> str:
    try:
        return parse_longmemeval_date(raw)
    except (TypeError, ValueError) as exc:
        raise DatasetError(f"{where}: not a LongMemEval date ({raw!r})") from exc



