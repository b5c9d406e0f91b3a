"""The Python API: the CLI's verbs as functions with small typed results.

    from memory import api
    store = api.open_store("/tmp/mem", create=True)
    result = api.mutate(store, envelope)               # MutationResult; a refusal is a result
    answer = api.query(store, "where does the user live?", "u1")
    answer.knowledge_state, answer.evidence[0].statement
    answer.to_json()                                    # exactly what `memory query ... --json` prints

Every ``to_json()`` returns exactly the object the matching CLI command prints
with ``--json`` (keys the result type does not name are kept in ``extra``, so
nothing is lost when the JSON grows). Anything other than a refusal raises the
``MemoryStoreError`` tree of ``memory/errors.py`` — the same codes the CLI
turns into exit statuses. docs/AGENTS.md is the guide.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path

from .clock import clock_from_env
from .errors import InputError, UsageError
from .jsonio import loads_strict
from .paths import store_root
from .query import QueryRequest, run_query
from .store import Store, result_for, user_scope

__all__ = ["open_store", "mutate", "query", "history", "get", "review_list",
           "MutationResult", "QueryResult", "Evidence"]


def _split(cls, data: dict) -> tuple[dict, dict]:
    """(the keys ``cls`` names, every other key) of a JSON object."""
    names = {f.name for f in fields(cls)} - {"extra"}
    return {k: v for k, v in data.items() if k in names}, {k: v for k, v in data.items() if k not in names}


@dataclass(frozen=True)
class MutationResult:
    """One ``memory mutate --json`` object (DESIGN §5)."""

    status: str                      # applied | idempotent | refused
    transaction_id: str | None
    operation: str | None
    record_id: str | None
    revision: int | None
    error: dict | None               # {"code", "message"} when refused

    @property
    def refused(self) -> bool:
        return self.status == "refused"

    @property
    def code(self) -> str | None:
        return self.error["code"] if self.error else None

    @classmethod
    def from_json(cls, data: dict) -> "MutationResult":
        return cls(**data)

    def to_json(self) -> dict:
        return {"status": self.status, "transaction_id": self.transaction_id, "operation": self.operation,
                "record_id": self.record_id, "revision": self.revision, "error": self.error}


@dataclass(frozen=True)
class Evidence:
    """One item of ``evidence`` (or of ``audit_only``, which adds ``blocked_by``)."""

    id: str
    revision: int
    kind: str
    status: str
    statement: str
    score: float
    memory_key: str | None
    valid_time: dict
    recorded_time: dict
    source: dict
    context: list = field(default_factory=list)
    blocked_by: str | None = None    # only on audit_only items: why it cannot answer
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict) -> "Evidence":
        known, extra = _split(cls, data)
        return cls(**known, extra=extra)

    def to_json(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("extra", "blocked_by")}
        if self.blocked_by is not None:
            out["blocked_by"] = self.blocked_by
        return {**out, **self.extra}


@dataclass(frozen=True)
class QueryResult:
    """One ``memory query --json`` object (DESIGN §6)."""

    knowledge_state: str
    reason_code: str | None
    missing_conditions: list
    query: str
    scope: list
    as_of: dict
    evidence: list[Evidence]
    audit_only: list[Evidence]
    planner: dict
    extra: dict = field(default_factory=dict)

    @property
    def answered(self) -> bool:
        return self.knowledge_state != "UNKNOWN"

    @classmethod
    def from_json(cls, data: dict) -> "QueryResult":
        known, extra = _split(cls, data)
        known["evidence"] = [Evidence.from_json(e) for e in known["evidence"]]
        known["audit_only"] = [Evidence.from_json(e) for e in known["audit_only"]]
        return cls(**known, extra=extra)

    def to_json(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        out["evidence"] = [e.to_json() for e in self.evidence]
        out["audit_only"] = [e.to_json() for e in self.audit_only]
        return {**out, **self.extra}


def open_store(path: str | os.PathLike | None = None, *, clock=None, create: bool = False,
               config: str | os.PathLike | None = None) -> Store:
    """The store at ``path`` (default: ``$MEMORY_STORE``, else ``./data``).

    ``clock`` is any object with ``now() -> str`` (``memory.clock.FixedClock`` for
    replays); by default ``$MEMORY_NOW`` if set, else the wall clock. ``create``
    makes the store when it is absent; ``config`` is a policy folder (default
    ``$MEMORY_CONFIG``, else the repository's ``config/``).
    """
    root = store_root(str(path) if path is not None else None)
    if clock is None:
        clock = clock_from_env()
    factory = Store.create if create else Store.open
    return factory(Path(root), clock=clock, config=Path(config) if config is not None else None)


def _parsed(envelope):
    """The envelope as an object, or None when it does not parse (the store then names the refusal)."""
    if isinstance(envelope, (bytes, bytearray, str)):
        try:
            return loads_strict(envelope, what="envelope")
        except InputError:
            return None
    return envelope


def _target_scope(envelope) -> dict | None:
    target = envelope.get("target") if isinstance(envelope, dict) else None
    scope = target.get("scope") if isinstance(target, dict) else None
    return scope if isinstance(scope, dict) else None


def mutate(store: Store, envelope: dict | bytes | str, *, only_user: str | None = None) -> MutationResult:
    """Admit and apply one envelope; durable when it returns ``applied``.

    ``only_user`` binds the call to scope user:<only_user>: an envelope that
    targets any other scope is refused (``scope_not_permitted``) before the
    store is touched. The MCP server binds every call this way.
    """
    if only_user is not None:
        parsed = _parsed(envelope)
        scope = _target_scope(parsed)
        if scope is not None and scope != user_scope(only_user):
            return MutationResult.from_json(result_for(parsed, "refused", error={
                "code": "scope_not_permitted",
                "message": "this caller is bound to one scope; the envelope targets another"}))
    return MutationResult.from_json(store.mutate(envelope))


def query(store: Store, text: str, user: str, **options) -> QueryResult:
    """Answer ``text`` from scope user:<user>.

    Options (as the CLI's): ``as_of``, ``recorded_as_of``, ``kinds``,
    ``include_inactive``, ``limit``, ``planner``, ``trace``.
    """
    allowed = {f.name for f in fields(QueryRequest)} - {"text", "user"}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise UsageError("unknown query option(s): " + ", ".join(unknown), code="usage_error")
    if "kinds" in options:
        options["kinds"] = tuple(options["kinds"] or ())
    return QueryResult.from_json(run_query(store, QueryRequest(text=text, user=user, **options)))


def get(store: Store, record_id: str, user: str) -> dict:
    """The record's current revision, as ``memory get --json`` prints it (only within the scope)."""
    return store.get(record_id, user_scope(user))


def history(store: Store, record_id: str, user: str) -> list[dict]:
    """Every revision of a record, oldest first, with its transition row (``memory history --json``)."""
    return store.history(record_id, user_scope(user))


def review_list(store: Store, user: str) -> list[dict]:
    """Candidate records awaiting a reviewer (``memory review list --json``)."""
    return store.candidates(user_scope(user))
