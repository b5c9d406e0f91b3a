"""LoCoMo (``locomo10.json`` format) as conversations of turns plus their QA items.

Contract: ``load_locomo(path) -> list[Conversation]``. Each conversation keeps
its sessions in numeric order (``session_2`` before ``session_10``); a turn's
``ref`` is its ``dia_id``, its ``session`` the session key (``session_1``), its
``date`` the session's ``session_N_date_time`` ("1:56 pm on 8 May, 2023") as an
ISO 8601 UTC instant (the dataset names no zone, so UTC is assumed). A shared
photo's ``blip_caption`` is appended to the text as ``[shares a photo: …]``,
because a question may ask about what the photo shows. ``session_N_date_time``
keys without a session (conv-26 has spare ones) are ignored. QA evidence is
kept raw; ``memory.benchmark.metrics.normalize_evidence`` resolves it.
"""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memory.clock import format_instant
from memory.importers import DatasetError, Turn, item_label, read_json, require_list, require_str

_SESSION_KEY = re.compile(r"session_(\d+)")
_LOCOMO_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y")


@dataclass(frozen=True, slots=True)
class LocomoQuestion:
    """One QA item: category 1 multi-hop … 5 adversarial; ``evidence`` as written."""

    index: int
    question: str
    category: int
    evidence: tuple[str, ...]
    answer: str | None


@dataclass(frozen=True, slots=True)
class Conversation:
    """One LoCoMo sample: two speakers, their dated turns, the questions about them."""

    dataset: ClassVar[str] = "locomo"

    sample_id: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[LocomoQuestion, ...]
    empty_turns: int = 0

    @property
    def scope_key(self) -> str:
        return self.sample_id

    def transaction_id(self, turn: Turn) -> str:
        return f"import:locomo:{self.sample_id}:{turn.ref}"


def load_locomo(path: str | Path) -> list[Conversation]:
    """Read a LoCoMo file; any shape problem raises ``DatasetError`` naming the sample."""
    data = read_json(path)
    if not isinstance(data, list):
        raise DatasetError("locomo: the top level must be a list of samples")
    return [_conversation(index, item) for index, item in enumerate(data)]


def parse_locomo_date(text: str) -> str:
    """``"1:56 pm on 8 May, 2023"`` -> ``"2023-05-08T13:56:00Z"`` (ValueError if not that shape)."""
    cleaned = " ".join(str(text).split())
    for fmt in _LOCOMO_DATE_FORMATS:
        try:
            moment = _dt.datetime.strptime(cleaned, fmt)
        except ValueError:
            continue
        return format_instant(moment.replace(tzinfo=_dt.timezone.utc))  # years 1000-9999 only
    raise ValueError(f"not a LoCoMo session date: {text!r}")


def turn_text(raw: dict) -> str:
    """The utterance (verbatim), with the shared photo's caption appended when there is one."""
    text = str(raw.get("text") or "")
    caption = str(raw.get("blip_caption") or "").strip()
    if not caption:
        return text
    return f"{text} [shares a photo: {caption}]" if text.strip() else f"[shares a photo: {caption}]"


def _conversation(index: int, item: Any) -> Conversation:
    where = item_label("locomo", index, item, "sample_id")
    if not isinstance(item, dict):
        raise DatasetError(f"{where}: a sample must be an object")
    sample_id = require_str(item, "sample_id", where)
    conversation = item.get("conversation")
    if not isinstance(conversation, dict):
        raise DatasetError(f"{where}: 'conversation' must be an object")
    speakers = (require_str(conversation, "speaker_a", where), require_str(conversation, "speaker_b", where))
    turns, empty = _turns(conversation, where)
    questions = tuple(_question(i, qa, where) for i, qa in enumerate(require_list(item, "qa", where)))
    return Conversation(sample_id, speakers, turns, questions, empty)


def _turns(conversation: dict, where: str) -> tuple[tuple[Turn, ...], int]:
    turns: list[Turn] = []
    empty = 0
    seen: set[str] = set()
    for session in _session_keys(conversation):
        date = _session_date(conversation, session, where)
        raw_turns = conversation[session]
        if not isinstance(raw_turns, list):
            raise DatasetError(f"{where}: {session} must be a list of turns")
        for position, raw in enumerate(raw_turns):
            turn = _turn(raw, session, date, f"{where}: {session} turn {position}")
            if turn.ref in seen:
                # Two turns with one dia_id would share a transaction id.
                raise DatasetError(f"{where}: {session} turn {position}: duplicate dia_id {turn.ref!r}")
            seen.add(turn.ref)
            if turn.text.strip():
                turns.append(turn)
            else:
                empty += 1
    return tuple(turns), empty


def _session_keys(conversation: dict) -> list[str]:
    numbered = [(int(m.group(1)), key) for key in conversation if (m := _SESSION_KEY.fullmatch(key))]
    return [key for _, key in sorted(numbered)]


def _session_date(conversation: dict, session: str, where: str) -> str:
    raw = conversation.get(f"{session}_date_time")
    if not isinstance(raw, str):
        raise DatasetError(f"{where}: {session} has no {session}_date_time")
    try:
        return parse_locomo_date(raw)
    except ValueError as exc:
        raise DatasetError(f"{where}: {session}_date_time: {exc}") from exc


def _turn(raw: Any, session: str, date: str, where: str) -> Turn:
    if not isinstance(raw, dict):
        raise DatasetError(f"{where}: a turn must be an object")
    ref = require_str(raw, "dia_id", where)
    speaker = require_str(raw, "speaker", where)
    if not isinstance(raw.get("text", ""), str):
        raise DatasetError(f"{where}: 'text' must be a string")
    return Turn(ref=ref, session=session, speaker=speaker, text=turn_text(raw), date=date)


def _question(index: int, qa: Any, where: str) -> LocomoQuestion:
    where = f"{where}: qa {index}"
    if not isinstance(qa, dict):
        raise DatasetError(f"{where}: a QA item must be an object")
    category = qa.get("category")
    if not isinstance(category, int) or isinstance(category, bool) or not 1 <= category <= 5:
        raise DatasetError(f"{where}: 'category' must be an integer 1-5")
    evidence = qa.get("evidence", [])
    if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
        raise DatasetError(f"{where}: 'evidence' must be a list of strings")
    answer = qa.get("answer")
    return LocomoQuestion(
        index=index,
        question=require_str(qa, "question", where),
        category=category,
        evidence=tuple(evidence),
        answer=None if answer is None else str(answer),
    )





