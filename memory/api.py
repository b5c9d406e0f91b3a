"""The Python API, and the one façade: every verb of the CLI is a function here.

The CLI (``memory/cli.py``), the HTTP server (``memory/server.py``) and the MCP
server (``memory/mcp_server.py``) only translate to and from these functions
(a test reads their source to hold them to it). Scopes are built from a
caller's id by ``user_scope`` (NFC-normalized, ``memory/envelope_builder.py``)
and envelopes by ``envelope_builder.build``, for every front door alike.

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

import contextlib
import hashlib
import os
import re
import unicodedata
import uuid
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from . import envelope_builder
from .clock import clock_from_env, option_instant
from .envelope_builder import user_scope
from .errors import (DatasetError, InputError, MemoryStoreError, NotFoundError, RefusedError, StoreError,
                     UsageError)
from .jsonio import canonical_bytes, loads_strict, nfc
from .paths import config_dir, store_root
from .store import PostgresStore, Store, is_url, result_for

__all__ = ["version", "open_store", "init", "user_scope",
           "add", "update", "update_notice", "retire", "dispute", "resolve", "approve", "reject", "forget", "erase",
           "mutate", "apply", "add_conversation", "query", "search", "get", "history", "review_list",
           "export", "import_dataset", "restore", "restore_into", "copy", "stats", "build_views", "retention_sweep", "doctor", "where",
           "benchmark_gold", "benchmark_dataset", "benchmark_via_http",
           "MutationResult", "QueryResult", "Evidence", "Exported"]


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

    @property
    def exit_code(self) -> int:
        """The CLI's exit status for this result: 0, 5 refused, or 6 when the record it names is
        absent or in another scope (one answer for both, as ``get`` gives: an id cannot be probed)."""
        if not self.refused:
            return 0
        return NotFoundError.exit_code if self.code == NotFoundError.code else RefusedError.exit_code

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
    # on ``query``'s evidence items: the state was read from it (else it is cited as related);
    # not in the JSON (DESIGN §6's shape): the plain output marks it
    answers: bool | None = None
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict) -> "Evidence":
        known, extra = _split(cls, data)
        return cls(**known, extra=extra)

    def to_json(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("extra", "blocked_by", "answers")}
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



@dataclass(frozen=True)
class Exported:
    """``memory export``: the file's text and its end line (counts and body hash)."""

    data: bytes
    summary: dict


# -- opening ----------------------------------------------------------------------

def version() -> str:
    """The installed package's version; from a source checkout without an install, pyproject.toml's."""
    from importlib import metadata
    try:
        return metadata.version("memory-ledger")
    except metadata.PackageNotFoundError:
        import tomllib
        from .paths import PROJECT_ROOT
        try:
            with open(PROJECT_ROOT / "pyproject.toml", "rb") as handle:
                return tomllib.load(handle)["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "0+unknown"


def open_store(path: str | os.PathLike | None = None, *, clock=None, create: bool = False,
               config: str | os.PathLike | None = None) -> Store:
    """The store at ``path`` (default: ``$MEMORY_STORE``, else ``./data``): a folder (the JSONL
    ledger) or a ``postgresql://`` URL (the PostgreSQL backend, ``pip install 'memory-ledger[postgres]'``).

    ``clock`` is any object with ``now() -> str`` (``memory.clock.FixedClock`` for
    replays); by default ``$MEMORY_NOW`` if set, else the wall clock. ``create``
    makes the store when it is absent; ``config`` is a policy folder (default
    ``$MEMORY_CONFIG``, else the repository's ``config/``).
    """
    if clock is None:
        clock = clock_from_env()
    chosen = str(path) if path is not None else os.environ.get("MEMORY_STORE")
    _refuse_foreign_url(chosen)
    if is_url(chosen):
        # a postgresql:// URL: the PostgreSQL backend (docs/POSTGRES.md); ``create`` runs the migrations
        opener = PostgresStore.create if create else PostgresStore.open
        return opener(chosen, clock=clock, config=Path(config) if config is not None else None)
    root = store_root(chosen)
    factory = Store.create if create else Store.open
    return factory(Path(root), clock=clock, config=Path(config) if config is not None else None)


_URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def _refuse_foreign_url(chosen: str | None) -> None:
    """A URL of another kind (mysql://, sqlite://) is not a folder name to create, and a
    postgresql:// URL that does not parse is a usage error, not a crash: say so, naming at most
    the scheme (a URL may hold a password)."""
    scheme = _URL_SCHEME.match(chosen or "")
    if scheme and not is_url(chosen):
        raise UsageError(f"a store is a folder or a postgresql:// URL, not a {scheme.group(1)}:// URL",
                         code="store_url_unsupported")
    if is_url(chosen):
        from urllib.parse import urlsplit
        try:
            urlsplit(chosen).port    # parses the netloc: a bracket left open, a port out of range
        except ValueError:
            # the parser's message is not quoted: it may carry a piece of the URL (a password)
            raise UsageError("the postgresql:// URL cannot be parsed (a host in [ ] left open, or a port that is "
                             "not a number from 0 to 65535?)", code="store_url_invalid") from None


def init(path: str | os.PathLike | None = None, *, accept_policies: bool = False) -> dict:
    """Create the store (or open it) and, with ``accept_policies``, pin the current policy files."""
    store = open_store(path, create=True)
    if accept_policies:
        store.pin_policies()
    return {"store": str(store.root), "policy_sha256": store.marker()["policy_sha256"]}


# -- writing: the verbs ---------------------------------------------------------------

DEFAULT_ACTOR = {"type": "user_via_agent", "id": "api"}


def _write(store: Store, operation: str, user: str, *, tx: str | None, actor: dict | None, reason: str | None,
           actor_type: str | None = None, ref: str = "memory-api", source: dict | None = None,
           **fields) -> MutationResult:
    """Build the envelope of a verb (explicit_user source unless ``source`` is given) and apply it
    through the mutation policy."""
    who = dict(actor or DEFAULT_ACTOR)
    if actor_type:
        who["type"] = actor_type
    envelope = envelope_builder.build(
        operation, user_scope(user), transaction_id=tx or f"{who['id']}-{uuid.uuid4().hex}"[-200:],
        actor=who, source=source or envelope_builder.source("explicit_user", ref=ref),
        reason=reason or f"{operation} from {ref}", **fields)
    return mutate(store, envelope)


def add(store: Store, user: str, statement: str, *, key: str | None = None, kind: str | None = None,
        valid_from: str | None = None, aliases=(), tags=(), sensitivity: str = "private",
        tx: str | None = None, reason: str | None = None, actor: dict | None = None,
        ref: str = "memory-api", speaker: str | None = None, session: str | None = None) -> MutationResult:
    """``memory add``: a memory the user stated (valid from ``valid_from``, default now).

    With ``speaker`` or ``session`` it is a conversation turn instead: source ``conversation``
    (speaker, session, observed_at = ``valid_from``), kind ``episode``, the envelope the dataset
    importers write for a turn; the planner's speaker and session features read these fields.

    Every kind but episode needs ``key`` (the memory_key slot an update supersedes): without one
    it is a UsageError, before anything is written."""
    conversation = speaker is not None or session is not None
    chosen = kind or ("episode" if conversation else "fact")
    if chosen != "episode" and not key:
        raise UsageError(f"a {chosen} needs key= (a memory_key such as 'user.job'; every kind but episode has "
                         "one), or kind='episode' for a statement kept as said", code="usage_error")
    if not conversation:
        payload = {"kind": kind or "fact", "statement": statement, "aliases": list(aliases), "tags": list(tags)}
        return _write(store, "add", user, tx=tx, actor=actor, reason=reason, ref=ref, memory_key=key,
                      payload=payload, valid_time={"from": option_instant(valid_from, "--from"), "to": None},
                      sensitivity=sensitivity)
    at = option_instant(valid_from, "--from")
    payload = {"kind": kind or "episode", "statement": statement, "confidence": "high", "importance": "low",
               "aliases": list(aliases), "tags": list(tags), "negative_triggers": []}
    return _write(store, "add", user, tx=tx, actor=actor, reason=reason, ref=ref, memory_key=key,
                  source=envelope_builder.source("conversation", ref=ref, observed_at=at, session=session,
                                                 speaker=speaker),
                  payload=payload, valid_time={"from": at, "to": None}, sensitivity=sensitivity)


def update(store: Store, user: str, statement: str, *, key: str | None = None, record_id: str | None = None,
           kind: str | None = None, valid_from: str | None = None, tx: str | None = None,
           reason: str | None = None, actor: dict | None = None, ref: str = "memory-api") -> MutationResult:
    """``memory update``: supersede the active record named by ``key`` or ``record_id``. The new
    record keeps the predecessor's kind unless ``kind`` names another ("I don't drink coffee",
    a negative, updated by "I drink coffee every morning" is a fact: pass kind="fact")."""
    if not key and not record_id:
        raise UsageError("name the record: --key or --id", code="usage_error")
    payload = {"statement": statement, **({"kind": kind} if kind else {})}
    return _write(store, "update", user, tx=tx, actor=actor, reason=reason, ref=ref, record_id=record_id,
                  memory_key=key, payload=payload,
                  valid_time={"from": option_instant(valid_from, "--from"), "to": None})


def update_notice(store: Store, user: str, statement: str, *, key: str | None = None,
                  record_id: str | None = None, kind: str | None = None) -> str | None:
    """What a caller should hear before ``update``: a negative record updated, without ``kind``,
    by a statement that negates nothing would stay a negative (and be read as one). None when
    there is nothing to say, or the record cannot be found (``update`` then says why)."""
    from .decision import states_negation   # the decision's own test; here: a write never loads the read path
    if kind is not None or states_negation(statement):
        return None
    scope = user_scope(user)
    try:
        old = store.get(record_id, scope) if record_id else store.state(scope).active_for_key(key)
    except MemoryStoreError:
        return None
    if not old or old.get("kind") != "negative":
        return None
    return ("the record superseded is a negative and the new statement negates nothing: without --kind the "
            "new record is a negative too (the superseded record's kind); pass --kind fact when it states a fact")


def retire(store: Store, user: str, record_id: str, *, at: str | None = None, tx: str | None = None,
           reason: str | None = None, actor: dict | None = None, ref: str = "memory-api") -> MutationResult:
    """``memory retire``: close a record's validity at ``at`` (default now)."""
    return _write(store, "retire", user, tx=tx, actor=actor, reason=reason, ref=ref, record_id=record_id,
                  valid_time={"from": None, "to": option_instant(at, "--at")})


def dispute(store: Store, user: str, record_id: str, conflict_with, *, tx: str | None = None,
            reason: str | None = None, actor: dict | None = None, ref: str = "memory-api") -> MutationResult:
    """``memory dispute``: mark ``record_id`` and ``conflict_with`` as in unresolved conflict."""
    return _write(store, "dispute", user, tx=tx, actor=actor, reason=reason, ref=ref, record_id=record_id,
                  payload={"conflict_with": list(conflict_with)})


def resolve(store: Store, user: str, record_id: str, conflict_with, *, tx: str | None = None,
            reason: str | None = None, actor: dict | None = None, ref: str = "memory-api") -> MutationResult:
    """``memory resolve``: ``record_id`` holds; the records of ``conflict_with`` become rejected."""
    return _write(store, "resolve", user, tx=tx, actor=actor, reason=reason, ref=ref, record_id=record_id,
                  payload={"conflict_with": list(conflict_with)})


def approve(store: Store, user: str, record_id: str, *, tx: str | None = None, reason: str | None = None,
            actor: dict | None = None, ref: str = "memory-api") -> MutationResult:
    """``memory review approve``: a reviewer makes a candidate active."""
    return _write(store, "approve", user, tx=tx, actor=actor, reason=reason, ref=ref, actor_type="reviewer",
                  record_id=record_id)


def reject(store: Store, user: str, record_id: str, *, tx: str | None = None, reason: str | None = None,
           actor: dict | None = None, ref: str = "memory-api") -> MutationResult:
    """``memory review reject``: a reviewer rejects a candidate (its value is tombstoned)."""
    return _write(store, "reject", user, tx=tx, actor=actor, reason=reason, ref=ref, actor_type="reviewer",
                  record_id=record_id)


def forget(store: Store, user: str, *, record_id: str | None = None, key: str | None = None,
           tx: str | None = None, reason: str | None = None, actor: dict | None = None,
           ref: str = "memory-api") -> MutationResult:
    """``memory forget``: reject a record and tombstone its value."""
    if not key and not record_id:
        raise UsageError("name the record: RECORD_ID or --key", code="usage_error")
    return _write(store, "forget", user, tx=tx, actor=actor, reason=reason, ref=ref, record_id=record_id,
                  memory_key=key)


def erase(store: Store, user: str, *, record_id: str | None = None, key: str | None = None,
          whole_scope: bool = False, tx: str | None = None, reason: str | None = None,
          actor: dict | None = None, ref: str = "memory-api") -> MutationResult:
    """``memory erase``: remove content for privacy: one record, a key's every value, or (only
    when ``whole_scope`` is true) the whole scope. Exactly one must be named."""
    if sum(map(bool, (record_id, key, whole_scope))) != 1:
        raise UsageError("name one RECORD_ID, or --key, or pass --whole-scope", code="usage_error")
    return _write(store, "erase", user, tx=tx, actor=actor, reason=reason, ref=ref, record_id=record_id,
                  memory_key=key, whole_scope=whole_scope)


# -- writing: envelopes ------------------------------------------------------------

def _parsed(envelope):
    """The envelope as an object, or None when it does not parse (the store then names the refusal)."""
    if isinstance(envelope, (bytes, bytearray, str)):
        try:
            return loads_strict(envelope, what="envelope")
        except (InputError, ValueError):
            return None
    return envelope


def _target_scope(envelope) -> dict | None:
    target = envelope.get("target") if isinstance(envelope, dict) else None
    scope = target.get("scope") if isinstance(target, dict) else None
    return scope if isinstance(scope, dict) else None


# A key, not text inside a string: a quote inside a JSON string is escaped, so an unescaped
# "transaction_id" followed by a colon can only be an object key.
_NAMED = {name: re.compile(rb'"' + name.encode() + rb'"\s*:\s*"([^"\\]{1,200})"')
          for name in ("transaction_id", "operation")}


def _with_transaction_id(result: dict, envelope) -> dict:
    """A refusal before the envelope was fully parsed (too large, bad schema, cut short by the
    CLI's read cap) still names the transaction id the caller sent, so the caller can match
    the answer to its request. Input that is not one envelope (a JSON array, two objects, JSON
    that does not parse) names none: an id inside it is not the refused envelope's."""
    if result["transaction_id"] is not None and result["operation"] is not None:
        return result
    parsed = _parsed(envelope)
    if isinstance(parsed, dict):
        named = result_for(parsed, result["status"])
    elif (result.get("error") or {}).get("code") == "envelope_too_large":
        # never parsed (too large, or only its first bytes were read): the id at its top level
        named = {name: _named_in(envelope, name) for name in _NAMED}
    else:
        # not an envelope (an array of them, two on one line, broken JSON): any id inside it
        # may be another envelope's, so the refusal names none
        return result
    sent = named["transaction_id"]
    from .credentials import credential_kinds   # the write side's screen: a read never loads it
    if isinstance(sent, str) and credential_kinds(sent):
        sent = None  # a refusal never echoes a secret, even the caller's own id
    return {**result, "transaction_id": result["transaction_id"] or sent,
            "operation": result["operation"] or named["operation"]}


def _named_in(raw, name: str) -> str | None:
    """A top-level string field of an envelope that does not parse (e.g. only its first bytes were read)."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "replace")
    if not isinstance(raw, (bytes, bytearray)):
        return None
    found = _NAMED[name].search(bytes(raw[:64 * 1024]))
    try:
        return found.group(1).decode("utf-8") if found else None
    except UnicodeDecodeError:
        return None


def mutate(store: Store, envelope: dict | bytes | str, *, only_user: str | None = None) -> MutationResult:
    """Admit and apply one envelope; durable when it returns ``applied``.

    ``only_user`` binds the call to scope user:<only_user>: an envelope that
    targets any other scope is refused (``scope_not_permitted``) before the
    store is touched. The MCP server binds every call this way.
    """
    if only_user is not None:
        parsed = _parsed(envelope)
        scope = _target_scope(parsed)
        if scope is not None and _normalized(scope) != user_scope(only_user):
            return MutationResult.from_json(result_for(parsed, "refused", error={
                "code": "scope_not_permitted",
                "message": "this caller is bound to one scope; the envelope targets another"}))
    return MutationResult.from_json(_with_transaction_id(store.mutate(envelope), envelope))


def _normalized(scope: dict) -> dict:
    key = scope.get("key")
    return {**scope, "key": unicodedata.normalize("NFC", key)} if isinstance(key, str) else scope


def apply(store: Store, envelopes, *, batch_size: int = 500, progress=None):
    """``memory apply``: each envelope's MutationResult, in order, yielded once its batch is durable."""
    envelopes = list(envelopes)
    for index, result in enumerate(store.apply(envelopes, batch_size=batch_size, progress=progress)):
        yield MutationResult.from_json(_with_transaction_id(result, envelopes[index]))


# -- reading ------------------------------------------------------------------------

def query(store: Store, text: str, user: str, **options) -> QueryResult:
    """Answer ``text`` from scope user:<user>.

    Options (as the CLI's): ``as_of``, ``recorded_as_of``, ``kinds``,
    ``include_inactive``, ``limit``, ``planner``, ``trace``.
    """
    from .query import QueryRequest, answer_query  # here: a write never loads the read path
    allowed = {f.name for f in fields(QueryRequest)} - {"text", "user"}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise UsageError("unknown query option(s): " + ", ".join(unknown), code="usage_error")
    if "kinds" in options:
        options["kinds"] = tuple(options["kinds"] or ())
    data, answers = answer_query(store, QueryRequest(text=text, user=_caller(user), **options))
    result = QueryResult.from_json(data)
    return replace(result, evidence=[replace(item, answers=flag) for item, flag in zip(result.evidence, answers)])


# -- the leaderboard's add: a conversation's messages as episodes ------------------------

SERVE_ACTOR = {"type": "agent", "id": "memory-serve"}
SERVE_TX_PREFIX = "serve"
# refusals that depend on one message's own content: that message is skipped (and reported),
# not the whole session; an evaluator sends a conversation once and does not retry it. A
# message's envelope is over caps.envelope_bytes only for what the message holds (the request's
# other fields are capped far below it by the server's models): a turn longer than that cap is
# one long turn, as one over caps.statement_bytes is
CONTENT_REFUSALS = frozenset({"credential_detected", "statement_too_large", "envelope_too_large"})


def add_conversation(store: Store, request: dict) -> dict:
    """``POST /v1/memories/add``: ``request`` = {request_id, user_id, session_id, messages:
    [{role, content, timestamp}]} (shapes checked by the caller, timestamps canonical or None).

    One episode envelope per non-blank message, each admitted once; a message the policy refuses
    for what it holds is skipped and named in ``skipped``. The rest land in one durable batch or
    none do: the all-or-nothing check and the apply run in one ``Store.write`` under the user's
    scope lock. A request id is a transaction-id prefix inside the user's scope: a replay of the
    same body writes nothing, another body is ``transaction_conflict``."""
    from .envelope import admit
    admitted, skipped = [], []
    caps = store.policies.mutation.caps
    for index, envelope in conversation_envelopes(request):
        try:
            admitted.append(admit(envelope, store.policies.mutation))
        except MemoryStoreError as exc:
            if exc.code not in CONTENT_REFUSALS:
                raise
            skipped.append({"index": index, "code": _content_code(exc.code, envelope, caps)})
    if admitted:
        def work(scope_write) -> list[dict]:
            _refuse_partial(scope_write.state, admitted)
            return [scope_write.apply(item) for item in admitted]

        _require_written(store.write(user_scope(request["user_id"]), work))
        _caught_up(store, user_scope(request["user_id"]))
    return {"success": True, "request_id": request["request_id"], "user_id": request["user_id"],
            "session_id": request["session_id"], **({"skipped": skipped} if skipped else {})}


def _caught_up(store: Store, scope: dict) -> None:
    """After an add of a long-lived store that keeps the scope's read side (``memory serve``,
    ``indexing.keeps_reads``): its view and index caught up with the write now (``query.catch_up``),
    not by the search after it. The write is durable already: a derived file that cannot be read
    now is left to the next search, which reads it again and says why it cannot."""
    from . import indexing
    if not indexing.keeps_reads(store, scope):
        return
    from .query import catch_up
    try:
        catch_up(store, scope)
    except (MemoryStoreError, OSError):
        return


def _content_code(code: str, envelope: dict, caps: dict) -> str:
    """The code a skipped message is named with: a turn too long for the envelope cap that is
    also over the statement cap says so (the envelope cap is checked first, and a 20 KB turn and
    a 70 KB one are the same case to the caller)."""
    statement = envelope["payload"]["statement"]
    if code == "envelope_too_large" and len(statement.encode("utf-8", "surrogatepass")) > caps["statement_bytes"]:
        return "statement_too_large"
    return code


def conversation_envelopes(request: dict) -> list[tuple[int, dict]]:
    """(message index, add envelope) per non-blank message; refs keep the message's index, and
    every envelope's reason holds a digest of the whole request, so a replay that changes any
    part of it conflicts on every message."""
    digest = hashlib.sha256(canonical_bytes(nfc(request))).hexdigest()
    scope = user_scope(request["user_id"])
    return [(index, _episode(request, scope, index, message, f"memory-serve add, request sha256 {digest}"))
            for index, message in enumerate(request["messages"]) if message["content"].strip()]


def _episode(request: dict, scope: dict, index: int, message: dict, reason: str) -> dict:
    # a null timestamp: the store's clock at the write, and the envelope stays the same on a replay
    session = request["session_id"]
    return envelope_builder.build(
        "add", scope, transaction_id=f"{SERVE_TX_PREFIX}:{request['request_id']}:{index}",
        actor=dict(SERVE_ACTOR), reason=reason,
        source=envelope_builder.source("conversation", ref=f"{session}:{index}", observed_at=message["timestamp"],
                                       session=session, speaker=message["role"]),
        payload={"kind": "episode", "statement": message["content"]},
        valid_time={"from": message["timestamp"], "to": None}, sensitivity="private")


def _refuse_partial(state, admitted: list) -> None:
    """The state-dependent refusals an episode can meet, checked for the whole batch first."""
    from .records import tombstone_hash
    for item in admitted:
        known = state.transactions.get(item.envelope["transaction_id"])
        if known is not None and known[0] != item.envelope_sha256:
            raise RefusedError("this request_id was used with a different body", code="transaction_conflict")
    for item in admitted:
        fresh = item.envelope["transaction_id"] not in state.transactions
        if fresh and tombstone_hash(None, item.envelope["payload"]["statement"]) in state.tombstones:
            raise RefusedError("a message repeats a value that was forgotten", code="value_tombstoned")


def _require_written(results: list[dict]) -> None:
    refused = [r for r in results if r["status"] == "refused"]
    if refused:  # the checks above should make this unreachable; say so loudly if not
        raise StoreError(f"the store refused a checked message ({refused[0]['error']['code']})",
                         code="add_incomplete")


def search(store: Store, text: str, user: str, *, top_k: int = 10) -> list[dict]:
    """The ``top_k`` best eligible matches of scope user:<user>, ranked, as evidence items.

    For retrieval clients that judge relevance themselves (``/v1/memories/search``): the
    same scope, status and validity rules as ``query``, without its sufficiency test, so
    weak matches are returned even when ``query`` would answer UNKNOWN. Records that may
    never answer (rejected, forgotten, erased, other scopes) never appear.
    """
    from .query import QueryRequest, search_eligible
    return search_eligible(store, QueryRequest(text=text, user=_caller(user), limit=top_k))


def _caller(user: str) -> str:
    return user_scope(user)["key"] if isinstance(user, str) and user.strip() else user


def get(store: Store, record_id: str, user: str) -> dict:
    """The record's current revision, as ``memory get --json`` prints it (only within the scope)."""
    return store.get(record_id, user_scope(user))


def history(store: Store, record_id: str, user: str) -> list[dict]:
    """Every revision of a record, oldest first, with its transition row (``memory history --json``)."""
    return store.history(record_id, user_scope(user))


def review_list(store: Store, user: str) -> list[dict]:
    """Candidate records awaiting a reviewer (``memory review list --json``)."""
    return store.candidates(user_scope(user))


# -- the store as a whole ---------------------------------------------------------------

def export(store: Store, user: str, *, active_only: bool = False, fmt: str = "jsonl",
           output: str | os.PathLike | None = None) -> Exported:
    """``memory export``: every revision of the scope (the file ``restore`` takes back);
    written atomically to ``output`` when given."""
    from .jsonio import atomic_write
    from .portability import collect, render
    if output is not None and Path(output).is_dir():
        raise UsageError(f"{output} is a folder: name the file to write", code="output_is_folder")
    exported = collect(store, user_scope(user), active_only=active_only)
    data = render(exported, fmt)
    summary = exported.end()
    if output is not None:
        atomic_write(Path(output), data)
        summary = {**summary, "path": str(output)}
    return Exported(data, summary)


def restore(store: Store, path: str | os.PathLike) -> dict:
    """Restore an export into ``store`` after verifying every hash and chain."""
    from .portability import restore_file
    return restore_file(store, Path(path))


def restore_into(location: str | os.PathLike | None, path: str | os.PathLike) -> dict:
    """``memory import jsonl``: restore an export into the store at ``location`` (as ``open_store``
    reads it), creating a folder store when there is none. A failure writes nothing: the file is
    read and its framing checked before any store is made, and a folder store this call made is
    removed again when the restore fails or is interrupted (an existing store is only written
    after the whole export is verified)."""
    from .portability import read_export, restore as restore_export
    export = read_export(Path(path))
    with _store_removed_on_failure(location) as store:
        return restore_export(store, export)


@contextlib.contextmanager
def _store_removed_on_failure(location):
    """The store at ``location``, created when absent; what the creation made is removed again
    when the block fails. A PostgreSQL store is only opened (its tables are the database's)."""
    import shutil
    chosen = str(location) if location is not None else os.environ.get("MEMORY_STORE")
    if is_url(chosen):  # creating runs the migrations: tables of the database, never dropped here
        yield open_store(chosen, create=True)
        return
    try:
        existing = open_store(chosen)
    except StoreError as exc:
        if exc.code != "store_not_found":
            raise
        existing = None
    if existing is not None:
        yield existing
        return
    root = Path(store_root(chosen)).absolute()
    made = _topmost_missing(root)  # the first folder this call creates, or None when root exists
    present = None if made is not None else set(os.listdir(root))
    try:
        yield open_store(root, create=True)
    except BaseException:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        else:
            for name in set(os.listdir(root)) - present:
                entry = root / name
                shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)
        raise


def _topmost_missing(path: Path) -> Path | None:
    missing = None
    while not path.exists():
        missing, path = path, path.parent
    return missing


def copy(source: Store, target: Store, *, progress=None) -> dict:
    """``memory copy --to STORE``: every scope of ``source`` into ``target`` (a folder or a
    ``postgresql://`` store), each exported and restored as ``memory export`` / ``memory import
    jsonl`` do: every hash and chain verified, the target's policy applied, only what the target
    lacks appended (so a rerun after a failure completes the copy). A scope whose every record
    was erased holds no record that names it (its key is stored only as a digest): it is listed
    in ``unnamed``, not copied."""
    from .portability import collect, restore
    digests = source.scope_digests()
    copied, unnamed = [], []
    for done, digest in enumerate(digests, 1):
        scope = source.scope_in_folder(digest)
        if scope is None:
            unnamed.append(digest)
        else:
            result = restore(target, collect(source, scope))
            copied.append({k: result[k] for k in ("scope_digest", "status", "revisions", "appended", "audit_rows")})
        if progress:
            progress(done, len(digests))
    return {"scopes": len(copied), "revisions": sum(c["revisions"] for c in copied),
            "appended": sum(c["appended"] for c in copied), "copied": copied, "unnamed": unnamed}


def load_dataset(dataset: str, path: str | os.PathLike) -> list:
    """A public dataset file (``locomo`` or ``longmemeval``) as conversations or questions."""
    from .benchmark.runner import load_dataset as load
    items = load(dataset, Path(path))
    if not items:
        raise DatasetError(f"{Path(path).name}: the {dataset} file holds no items", code="dataset_empty")
    return items


def import_dataset(store: Store, items: list, *, progress=None) -> dict:
    """``memory import locomo|longmemeval``: every turn as an episode, through the mutation policy."""
    from .benchmark.runner import import_items
    return import_items(store, items, progress=progress) | {"items": len(items)}


def stats(store: Store) -> dict:
    """``memory stats``: counts only, never content."""
    if isinstance(store, PostgresStore):
        from .postgres_admin import store_stats as counted_by_the_server
        return counted_by_the_server(store)
    from .stats import store_stats
    return store_stats(store)


def build_views(store: Store, users=()) -> list[dict]:
    """``memory build``: each scope's boot view (every scope when ``users`` is empty). A PostgreSQL
    store keeps no derived files: a dict saying so (``postgres_admin.build``)."""
    if isinstance(store, PostgresStore):
        from .postgres_admin import build as nothing_to_build
        return nothing_to_build(store)
    from .bootview import build_views as build
    return build(store, [user_scope(user) for user in users] if users else None)


def retention_sweep(store: Store, *, dry_run: bool = False) -> dict:
    """``memory retention sweep``: erase the content of every record past its retention window."""
    from .retention import sweep
    return sweep(store, dry_run=dry_run)


def repairable(report: dict) -> list[str]:
    """The codes of a doctor report's problems that ``doctor --repair`` fixes, sorted."""
    from .doctor import REPAIRABLE
    return sorted({problem["code"] for problem in report["problems"] if problem["code"] in REPAIRABLE})


def doctor(store: Store, *, repair: bool = False, full: bool = False, accept_tampered: bool = False) -> dict:
    """``memory doctor``: verify (and with ``repair``, fix what a crash can leave) the whole store;
    only what changed since the last clean run unless ``full`` (a repair always checks everything).
    ``accept_tampered`` (with ``repair``): the operator accepts scopes altered outside the store
    as their files now are (their manifests are rewritten; the findings are listed as repaired).
    ``clean`` is about the source of truth; ``notices`` (present when there are any) lists what
    needs no repair: a stale derived file (a read rebuilds it), policies older than the package."""
    if isinstance(store, PostgresStore):
        from .postgres_admin import check_store as check_tables
        report = check_tables(store, repair=repair, accept_tampered=accept_tampered).to_json()
    else:
        from .doctor import check_store
        report = check_store(store, repair=repair, full=full or repair, accept_tampered=accept_tampered).to_json()
    notices = report.get("notices", []) + policy_notices(store.policies)
    if notices:
        report["notices"] = notices
    return report


def policy_notices(policies) -> list[dict]:
    """What a store's policy files lack that this version reads (a store pinned by an older
    version): not a problem — the keys keep the behaviour of their time — but the operator should
    know that ``memory init --accept-policies`` would adopt this version's defaults."""
    from .jsonio import loads_strict
    from .policy import upgraded
    notices = []
    for name, loaded in (("mutation", policies.mutation.loaded), ("forgetting", policies.forgetting.loaded),
                         ("retrieval", policies.retrieval.loaded)):
        raw = loaded.raw or loaded.path.read_bytes()
        _, changes = upgraded(name, loads_strict(raw, what=f"policy {loaded.path.name}"))
        if changes:
            notices.append({"code": "policy_older_than_package", "where": loaded.path.name,
                            "message": f"written by an older version ({', '.join(changes)}): read with the "
                                       "behaviour of that time. To adopt this version's rules, review them and "
                                       "run memory init --accept-policies"})
    return notices


def where(path: str | os.PathLike | None = None) -> dict:
    """``memory where``: which files are the source of truth and which are derived."""
    chosen = str(path) if path is not None else os.environ.get("MEMORY_STORE")
    _refuse_foreign_url(chosen)
    if is_url(chosen):
        from .postgres_admin import describe as tables
        return tables(chosen)
    from .where import describe
    return describe(store_root(str(path) if path is not None else None))


# -- benchmarks -------------------------------------------------------------------------

def benchmark_gold(case_paths=(), gates_path: str | os.PathLike | None = None, *, progress=None) -> dict:
    """``memory benchmark gold``: every gold case in a fresh store, then the hard gates
    (``report["gates"] = {"passed", "failed"}``)."""
    from .benchmark.gold import DEFAULT_CASES_DIR, case_files, check_gates, load_cases, load_gates, run_gold
    if not case_paths and not DEFAULT_CASES_DIR.is_dir():
        raise DatasetError("the gold cases ship with the source checkout (benchmarks/gold/), not with the "
                           "installed package: pass --cases FILE_OR_FOLDER", code="gold_cases_missing")
    files = case_files(case_paths or None)
    cases = load_cases(files) if files else []  # (load_cases reads no list as "the default folder")
    if not cases:  # zero cases would "fail" every gate as not measured: say what is wrong instead
        raise DatasetError("no gold cases found in " + ", ".join(map(str, case_paths or [DEFAULT_CASES_DIR])),
                           code="gold_cases_empty")
    report = run_gold(cases, progress=progress)
    failed = check_gates(report, load_gates(gates_path or config_dir() / "benchmark-gates.json"))
    report["gates"] = {"passed": not failed, "failed": failed}
    return report


def benchmark_dataset(dataset: str, path: str | os.PathLike, *, limit: int | None = None, half: str = "all",
                      gates_path: str | os.PathLike | None = None, query_progress=None,
                      store_url: str | None = None) -> dict:
    """``memory benchmark locomo|longmemeval FILE``: import into a scratch store (or the empty
    PostgreSQL database ``store_url``), ask every question (of one ``half``, or all), then the gates
    that apply to the dataset (``report["gates"]``)."""
    from .benchmark.gold import check_gates, load_gates
    from .benchmark.runner import run_dataset
    report = run_dataset(dataset, Path(path), limit=limit, half=half, query_progress=query_progress,
                         store_url=store_url)
    if not report["questions"]:  # every gate would "fail" as not measured: say what is wrong instead
        raise DatasetError(f"{Path(path).name}: the {dataset} file holds no questions"
                           + (f" in the {half} half" if half != "all" else ""), code="dataset_empty")
    failed = check_gates(report, load_gates(gates_path or config_dir() / "benchmark-gates.json"))
    report["gates"] = {"passed": not failed, "failed": failed}
    return report


def benchmark_via_http(dataset: str, path: str | os.PathLike, url: str, *, token: str | None = None,
                       limit: int | None = None, add_progress=None, query_progress=None) -> dict:
    """``memory benchmark ... --via-http URL``: the same questions through a running ``memory serve``,
    driven as the leaderboard's evaluator drives it (``memory/benchmark/via_http.py``)."""
    from .benchmark.via_http import run_via_http
    return run_via_http(dataset, Path(path), url, token=token, limit=limit, add_progress=add_progress,
                        query_progress=query_progress)
