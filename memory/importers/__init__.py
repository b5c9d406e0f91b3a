"""Public conversation datasets as turns, and turns as DESIGN §5 ``add`` envelopes.

Contract:

- ``load_locomo(path)`` / ``load_longmemeval(path)`` read the original public
  files (``.json`` or ``.json.gz``) and return frozen dataclasses; a file that is
  truncated, not JSON, has a duplicate key or the wrong shape raises
  ``DatasetError`` naming the item (index and sample_id / question_id).
- A ``Turn`` is one utterance: ``ref`` (the dataset's turn id), ``session``,
  ``speaker``, ``text`` and ``date`` (the session's date as an ISO 8601 UTC
  instant). Turns with empty text are skipped at load and counted.
- ``turn_envelopes(item)`` yields one ``add`` envelope per turn of a
  conversation or question, with a deterministic transaction id, so an import
  can be re-run and answers ``idempotent``.

Nothing here touches a store: the importer CLI feeds these envelopes to the
same mutation path as any other writer.
"""
from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from memory import envelope_builder
# DatasetError is the error tree's (exit 8): the CLI answered this module's own class with exit 1
from memory.errors import DatasetError, InputError
from memory.jsonio import bounded_int

ENVELOPE_SCHEMA_VERSION = envelope_builder.SCHEMA_VERSION
IMPORTER_ACTOR = {"type": "importer", "id": "memory-import"}


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance of a conversation, as the importer and baselines see it."""

    ref: str
    session: str
    speaker: str
    text: str
    date: str


class Importable(Protocol):
    """What ``turn_envelopes`` needs from a LoCoMo conversation or a LongMemEval question."""

    dataset: str
    scope_key: str
    turns: tuple[Turn, ...]

    def transaction_id(self, turn: Turn) -> str: ...


def read_json(path: str | Path) -> Any:
    """Parse a ``.json`` or ``.json.gz`` file, refusing duplicate keys.

    A duplicate key would silently drop data under plain ``json.load``; a
    truncated gzip would otherwise surface as an ``EOFError`` from deep inside.
    """
    path = Path(path)
    try:
        raw = _read_bytes(path)
        return json.loads(raw, object_pairs_hook=_reject_duplicate_keys, parse_int=bounded_int)
    except (OSError, EOFError, zlib.error) as exc:
        raise DatasetError(f"{path.name}: cannot read ({exc.__class__.__name__}: {exc})") from exc
    except UnicodeDecodeError as exc:
        raise DatasetError(f"{path.name}: not UTF-8 text") from exc
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path.name}: not valid JSON (line {exc.lineno}, column {exc.colno})") from exc
    except _DuplicateKey as exc:
        raise DatasetError(f"{path.name}: duplicate JSON key {exc.args[0]!r}") from exc
    except InputError as exc:  # an integer literal past 64 bits (4,301 digits was a bare ValueError)
        raise DatasetError(f"{path.name}: {exc.message}") from None
    except RecursionError:      # arrays or objects nested thousands deep: no dataset is shaped so
        raise DatasetError(f"{path.name}: not a dataset (JSON nested too deeply)") from None


def _read_bytes(path: Path) -> bytes:
    # Sniff the gzip magic rather than trusting the suffix: a renamed file still loads.
    with path.open("rb") as handle:
        head = handle.read(2)
    if head == b"\x1f\x8b":
        with gzip.open(path, "rb") as handle:
            return handle.read()
    return path.read_bytes()


class _DuplicateKey(Exception):
    pass


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def require_str(obj: dict, key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise DatasetError(f"{where}: {key!r} must be a string")
    return value


def require_list(obj: dict, key: str, where: str) -> list:
    value = obj.get(key)
    if not isinstance(value, list):
        raise DatasetError(f"{where}: {key!r} must be a list")
    return value


def item_label(dataset: str, index: int, item: Any, id_field: str) -> str:
    """How an error names an item: its position and, when readable, its id."""
    ident = item.get(id_field) if isinstance(item, dict) else None
    return f"{dataset} item {index}" + (f" ({ident})" if isinstance(ident, str) else "")


def turn_envelopes(item: Importable) -> Iterator[dict]:
    """One DESIGN §5 ``add`` envelope per turn, in conversation order."""
    for turn in item.turns:
        yield turn_envelope(item, turn)


def turn_envelope(item: Importable, turn: Turn) -> dict:
    """The episode envelope for one turn (DESIGN §7 import mapping), from the one envelope builder."""
    return envelope_builder.build(
        "add", {"type": "user", "key": item.scope_key}, transaction_id=item.transaction_id(turn),
        actor=dict(IMPORTER_ACTOR), reason=f"imported from {item.dataset}",
        source=envelope_builder.source("conversation", ref=turn.ref, observed_at=turn.date,
                                       session=turn.session, speaker=turn.speaker),
        payload={"kind": "episode", "statement": turn.text, "confidence": "high", "importance": "low",
                 "aliases": [], "tags": [], "negative_triggers": []},
        valid_time={"from": turn.date, "to": None}, sensitivity="private")


# Re-exported last: the dataset modules import the shared names defined above.
from memory.importers.locomo import Conversation, LocomoQuestion, load_locomo  # noqa: E402
from memory.importers.longmemeval import Question, load_longmemeval  # noqa: E402

__all__ = [
    "Conversation",
    "DatasetError",
    "LocomoQuestion",
    "Question",
    "Turn",
    "load_locomo",
    "load_longmemeval",
    "read_json",
    "turn_envelope",
    "turn_envelopes",
]
