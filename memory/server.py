"""``memory serve``: the Agent Memory Leaderboard contract and the CLI's JSON over HTTP.

Contract (docs/SERVER.md has the tables and examples):

- ``POST /v1/memories/add`` (alias ``/add``) maps each message to one DESIGN §5
  ``add`` envelope (kind episode, source conversation) and applies them as one
  batch through the mutation policy; it answers 200 only after the batch is
  fsynced. A request id is a transaction id prefix inside the user's scope: a
  replay with the same body is a no-op 200, with another body a 409.
- ``POST /v1/memories/search`` (alias ``/search``) ranks the user's eligible
  records (``query.search_eligible``: no sufficiency test) as ``{data: [...]}``.
- ``POST /v1/query`` and ``POST /v1/mutate`` answer exactly what
  ``memory query --json`` and ``memory mutate --json`` print.
- Every route but ``GET /health`` needs ``Authorization: Bearer <token>``; a
  token names the user ids it may act for (or ``"*"``). Without a tokens file
  the server listens on loopback only and refuses other Host headers.

Errors are ``{"error": {"code", "message"}}`` as in the CLI; they never echo
request content. The access log is method, path and status; bodies, memory
text and tokens never reach a log.
"""
from __future__ import annotations

import datetime as _dt
import errno
import functools
import hashlib
import hmac
import logging
import logging.config
import re
import socket
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import anyio
import anyio.to_thread
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPBearer
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, model_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import api
from . import vocabulary as V
from .clock import InstantOutOfRange, format_instant, normalize_instant, parse_instant
from .errors import (InputError, MemoryStoreError, NotFoundError, PolicyError, RefusedError, RemoteError,
                     StoreError, StoreIOError, UsageError)
from .indexing import defer_saves, flush_saves
from .jsonio import dumps, loads_strict, read_json_file
from .paths import SCHEMA_DIR
from .store import CACHE_BUDGET, Store, set_cache_mb

LOG = logging.getLogger("memory.server")          # the access log: method, path, status
START_LOG = logging.getLogger("memory.serve")     # where it listens, once bound
LISTEN_BACKLOG = 2048                             # uvicorn's default

LOOPBACK_BIND = "127.0.0.1"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
MAX_MESSAGES = 1000

_MALFORMED = ("invalid_json", "invalid_utf8", "duplicate_key", "non_finite_number")
_STATE_CONFLICTS = ("transaction_conflict", "key_already_active", "duplicate_active_record",
                    "value_tombstoned", "invalid_transition")
STATUS_BY_CODE = {**dict.fromkeys(_MALFORMED, 400), **dict.fromkeys(_STATE_CONFLICTS, 409),
                  "unauthorized": 401, "forbidden": 403, "host_not_allowed": 403, "record_not_found": 404,
                  "body_timeout": 408, "envelope_too_large": 413, "request_too_large": 413,
                  "unsupported_media_type": 415, "request_timeout": 503}


# -- settings and tokens ---------------------------------------------------------

@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 1024 * 1024
    timeout_seconds: float = 30.0
    # megabytes the per-scope caches of the process may hold (``store.budget``); None: $MEMORY_CACHE_MB
    # or the default
    cache_mb: float | None = None


@dataclass(frozen=True)
class Grant:
    """The user ids a caller may act for; ``everyone`` for a ``"*"`` token or an open server."""

    users: frozenset = frozenset()
    everyone: bool = False

    def allows(self, user: str) -> bool:
        return self.everyone or _nfc(user) in self.users


OPEN = Grant(everyone=True)


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _digest(token: str) -> bytes:
    # equal-length digests: compare_digest then takes the same time for every presented token
    return hashlib.sha256(token.encode("utf-8")).digest()


class TokenTable:
    """Bearer tokens (kept only as sha256 digests) and what each may touch."""

    def __init__(self, grants: dict[str, Grant]) -> None:
        self._entries = [(_digest(token), grant) for token, grant in grants.items()]

    def __len__(self) -> int:
        return len(self._entries)

    def grant_for(self, authorization: str | None) -> Grant | None:
        scheme, _, presented = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not presented.strip():
            return None
        wanted = _digest(presented.strip())
        found = None
        for digest, grant in self._entries:  # no early exit: every token is compared
            if hmac.compare_digest(digest, wanted) and found is None:
                found = grant
        return found


def load_tokens(path: Path) -> TokenTable:
    """``{"<token>": ["user", ...] | "*"}``; a bad entry is named by position, never by token."""
    try:
        data = read_json_file(path, what="tokens file")
    except InputError as exc:
        if exc.code == "duplicate_key":   # the parser names the key, and a key here is a secret
            raise InputError("the tokens file lists a token twice", code="duplicate_key") from None
        raise
    if not isinstance(data, dict) or not data:
        raise InputError("the tokens file must be a non-empty JSON object", code="tokens_invalid")
    grants = {}
    for position, (token, users) in enumerate(data.items(), 1):
        grants[token] = _grant(token, users, position)
    return TokenTable(grants)


def _grant(token: object, users: object, position: int) -> Grant:
    if not isinstance(token, str) or not token.strip() or token != token.strip():
        raise InputError(f"tokens file entry {position}: a token must be a non-empty string without "
                         "surrounding spaces", code="tokens_invalid")
    if users == "*":
        return OPEN
    if not isinstance(users, list) or not all(isinstance(u, str) and u.strip() for u in users):
        raise InputError(f"tokens file entry {position}: the value must be \"*\" or a list of user ids",
                         code="tokens_invalid")
    return Grant(users=frozenset(_nfc(u) for u in users))


def _warn_if_others_read(tokens_file: Path) -> None:
    """The tokens are the server's only credentials: a file other users can read hands them out."""
    import stat
    try:
        mode = stat.S_IMODE(Path(tokens_file).stat().st_mode)
    except OSError:
        return
    if mode & 0o077:
        LOG.warning("the tokens file can be read by other users (mode %04o): chmod 600 %s", mode, tokens_file)


def bind_host(host: str, tokens: TokenTable | None) -> str:
    """Without tokens every route is open, so only loopback may reach it."""
    if tokens is not None:
        return host
    if host not in LOOPBACK_NAMES:
        raise UsageError("without --tokens the server listens on 127.0.0.1 only; pass --tokens FILE "
                         "to listen on another host", code="tokens_required")
    return LOOPBACK_BIND if host == "localhost" else host


# -- request and response bodies ---------------------------------------------------

FIRST_YEAR, LAST_YEAR = 1000, 9999
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_LAST_MS = (_dt.datetime(LAST_YEAR, 12, 31, 23, 59, 59, 999000, tzinfo=_dt.timezone.utc) - _EPOCH) \
    // _dt.timedelta(milliseconds=1)


def message_instant(value: int | str | None, what: str = "a timestamp") -> str | None:
    """A message timestamp as the store's instant: Unix milliseconds (an integer, the contract's
    form) or an ISO 8601 string. Negatives, other types and years outside 1000-9999 are refused
    with a ValueError whose message says why (never quoting the value)."""
    if value is None:
        return None
    if type(value) is int:
        if not 0 <= value <= _LAST_MS:
            raise ValueError(f"{what} in Unix milliseconds must be between 0 and {_LAST_MS}")
        return format_instant(_EPOCH + _dt.timedelta(milliseconds=value))
    if not isinstance(value, str) or len(value) > 64:
        raise ValueError(f"{what} is Unix milliseconds (an integer) or an ISO 8601 string")
    if _DIGITS.fullmatch(value.strip()):
        raise ValueError("Unix milliseconds go as a JSON integer, not inside a string")
    try:
        moment = parse_instant(value)
        instant = normalize_instant(value)
    except InstantOutOfRange:
        raise ValueError(f"{what} must fall in the years {FIRST_YEAR}-{LAST_YEAR}") from None
    except (ValueError, TypeError) as exc:
        raise ValueError(_unreadable(exc)) from None
    if not FIRST_YEAR <= moment.astimezone(_dt.timezone.utc).year <= LAST_YEAR:
        raise ValueError(f"{what} must fall in the years {FIRST_YEAR}-{LAST_YEAR}")
    return instant


_DIGITS = re.compile(r"[+-]?[0-9]+")
# datetime's own reasons for a well-formed date or time that does not exist: they name no input
_NOT_REAL = re.compile(r"day is out of range for month|(?:month|hour|minute|second) must be in [0-9.]+")


def _unreadable(exc: Exception) -> str:
    """Why a timestamp string could not be read, in words that never quote it (datetime's
    "Invalid isoformat string: '...'" does)."""
    reason = str(exc)
    if _NOT_REAL.fullmatch(reason):
        return f"not a real date or time ({reason.replace('is out of range', 'out of range')})"
    return "not an ISO 8601 instant or Unix milliseconds"


# Unix seconds sent where milliseconds are due: read as milliseconds, such a value lands in
# January 1970, and read as seconds it would be an instant of 2001-2100 (978307200-4102444799)
_SECONDS_LIKE = range(978307200, 4102444800)


def looks_like_seconds(value: object) -> bool:
    return type(value) is int and value in _SECONDS_LIKE


def request_instant(value: int | str | None, field: str) -> str | None:
    """``as_of`` / ``recorded_as_of`` of ``/v1/query``: as a message timestamp (Unix ms or ISO
    8601), refused as the CLI refuses a bad ``--as-of`` (422 ``invalid_date``) but naming the field."""
    try:
        return message_instant(value, field)
    except ValueError as exc:
        message = str(exc)
        raise UsageError(message if message.startswith(field) else f"{field}: {message}",
                         code="invalid_date") from None


def _utf8(text: str) -> str:
    """A JSON string may escape a lone surrogate (``\\ud800``), which no UTF-8 file can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("not valid Unicode text (a lone surrogate)") from None
    return text


def _role(text: str) -> str:
    # a role is rendered into search content as "[<instant>] <ROLE>: <text>": a line break or
    # another control character in it could forge a turn for the evaluator's reader
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text):
        raise ValueError("a role must not hold control or format characters")
    return text


UserId = Annotated[str, Field(min_length=1, max_length=256), AfterValidator(_utf8), AfterValidator(_nfc)]
Text = Annotated[str, AfterValidator(_utf8)]
Role = Annotated[str, Field(min_length=1, max_length=256), AfterValidator(_utf8), AfterValidator(_role)]
Timestamp = Annotated[int | str | None, AfterValidator(message_instant)]
QueryInstant = int | Annotated[str, Field(max_length=64)] | None


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Message(_Body):
    role: Role
    content: Text
    timestamp: Timestamp = Field(default=None, description="Unix milliseconds (integer) or an ISO 8601 string")
    # the timestamp as sent was an integer that reads as Unix seconds (``looks_like_seconds``)
    _seconds_like: bool = PrivateAttr(default=False)

    @model_validator(mode="wrap")
    @classmethod
    def _note_seconds(cls, data, handler):
        message = handler(data)   # the timestamp is converted to an instant here: look at it as sent
        if isinstance(data, dict) and looks_like_seconds(data.get("timestamp")):
            message._seconds_like = True
        return message


class AddRequest(_Body):
    request_id: str = Field(min_length=1, max_length=128)
    user_id: UserId
    session_id: str = Field(min_length=1, max_length=256)
    messages: list[Message] = Field(min_length=1, max_length=MAX_MESSAGES)


class SkippedMessage(BaseModel):
    index: int
    code: str


class AddWarning(BaseModel):
    index: int
    code: str
    message: str


class AddResponse(BaseModel):
    success: bool
    request_id: str
    user_id: str
    session_id: str
    # messages the mutation policy refused for what they hold (a credential, over the size cap):
    # not stored, and named here so the caller knows; the rest of the session is stored. Absent
    # when none was, so the answer is the contract's four keys
    skipped: list[SkippedMessage] | None = None
    # what was stored but may not be what the caller meant: a timestamp that reads as Unix seconds
    # (stored, as the contract says, as milliseconds: in January 1970). Absent when there is none
    warnings: list[AddWarning] | None = None


class SearchRequest(_Body):
    query: str = Field(min_length=1, max_length=4096)
    user_id: UserId
    top_k: int = Field(default=10, ge=1, le=1000)


class SearchHit(BaseModel):
    id: str
    content: str
    score: float
    created_at: str


class SearchResponse(BaseModel):
    data: list[SearchHit]


class QueryBody(_Body):
    """The options of ``memory query`` (the deterministic planner only)."""

    text: str = Field(min_length=1, max_length=4096)
    user: UserId
    # read by ``request_instant`` in the route: a bad value is 422 invalid_date naming the field
    as_of: QueryInstant = Field(default=None, description="Unix milliseconds (integer) or an ISO 8601 string")
    recorded_as_of: QueryInstant = Field(default=None,
                                         description="Unix milliseconds (integer) or an ISO 8601 string")
    kinds: list[Literal[V.KINDS]] = Field(default_factory=list, max_length=len(V.KINDS))
    include_inactive: bool = False
    limit: int = Field(default=10, ge=1, le=1000)


class ErrorDetail(BaseModel):
    code: str
    message: str
    details: list | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


# -- the work behind each route (synchronous; run in the thread pool) ---------------

def search_hit(item: dict) -> dict:
    """One leaderboard hit: content ``[<ISO instant>] <ROLE>: <text>`` (DESIGN §8), the instant
    being when the message was said (its valid-time start) and the role its speaker."""
    speaker = (item.get("source") or {}).get("speaker")
    said = f"{speaker.upper()}: " if speaker else ""
    return {"id": item["id"], "content": f"[{item['valid_time']['from']}] {said}{item['statement']}",
            "score": item["score"], "created_at": item["recorded_time"]["recorded_at"]}


def envelope_scope(raw: bytes) -> dict | None:
    """The target scope an envelope names, or None when it names none (the store will refuse it)."""
    try:
        envelope = loads_strict(raw, what="envelope")
    except InputError:
        return None
    target = envelope.get("target") if isinstance(envelope, dict) else None
    scope = target.get("scope") if isinstance(target, dict) else None
    if isinstance(scope, dict) and isinstance(scope.get("type"), str) and isinstance(scope.get("key"), str):
        return scope
    return None


def may_touch(grant: Grant, scope: dict | None) -> bool:
    if scope is None or grant.everyone:
        return True
    return scope["type"] == "user" and grant.allows(scope["key"])


def status_for(code: str, error: MemoryStoreError | None = None) -> int:
    """One table from error codes (and classes) to HTTP statuses."""
    if code in STATUS_BY_CODE:
        return STATUS_BY_CODE[code]
    for cls, status in ((NotFoundError, 404), (StoreError, 503), (RemoteError, 502), (PolicyError, 500)):
        if isinstance(error, cls):
            return status
    return 422 if error is None or isinstance(error, (UsageError, InputError, RefusedError)) else 500


def mutation_status(result: dict) -> int:
    return 200 if result["status"] != "refused" else status_for(result["error"]["code"])


# -- ASGI plumbing -----------------------------------------------------------------------

def _error(code: str, message: str, details: list | None = None) -> dict:
    body = {"code": code, "message": message}
    if details:
        body["details"] = details
    return {"error": body}


async def _send_json(send, status: int, value: dict) -> None:
    body = dumps(value)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class _BodyTooLarge(Exception):
    pass


class Gate:
    """Before any route: the Host check (open server), the token, JSON only, the body cap and read timeout."""

    def __init__(self, app, *, tokens: TokenTable | None, limits: Limits) -> None:
        self.app, self.tokens, self.limits = app, tokens, limits

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = self._refusal(scope)
        if refusal:
            return await _send_json(send, status_for(refusal[0]), _error(*refusal))
        try:
            with anyio.fail_after(self.limits.timeout_seconds):
                body = await self._body(scope, receive)
        except _BodyTooLarge:
            return await _send_json(send, 413, _error(
                "request_too_large", f"the body exceeds {self.limits.max_body_bytes} bytes"))
        except TimeoutError:
            return await _send_json(send, 408, _error("body_timeout", "the body did not arrive in time"))
        await self.app(scope, _replay(body, receive), send)

    def _refusal(self, scope) -> tuple[str, str] | None:
        headers = _headers(scope)
        if self.tokens is None and _hostname(headers.get("host", "")) not in LOOPBACK_NAMES:
            return "host_not_allowed", "this server answers loopback host names only"
        grant = OPEN
        if self.tokens is not None and scope["path"] != "/health":
            grant = self.tokens.grant_for(headers.get("authorization"))
            if grant is None:
                return "unauthorized", "a valid bearer token is required"
        scope.setdefault("state", {})["grant"] = grant
        if scope["method"] == "POST" and _media_type(headers.get("content-type", "")) != "application/json":
            return "unsupported_media_type", "send the body as application/json"
        return None

    async def _body(self, scope, receive) -> bytes:
        declared = _headers(scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.limits.max_body_bytes:
            raise _BodyTooLarge
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limits.max_body_bytes:
                raise _BodyTooLarge
            chunks.append(chunk)
            more = message.get("more_body", False)
        return b"".join(chunks)


def _headers(scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _hostname(host: str) -> str:
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _media_type(content_type: str) -> str:
    return content_type.partition(";")[0].strip().lower()


def _replay(body: bytes, receive):
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replayed


class AccessLog:
    """Outermost: logs method, path and status only, and turns any escaped exception into a 500
    whose log line names the exception type, never its message (which might quote content)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        status = {"code": None}

        async def tracked(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)
        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            LOG.error("unhandled %s on %s %s at %s", type(exc).__name__, scope["method"], scope["path"],
                      _where_raised(exc))
            if status["code"] is None:
                status["code"] = 500
                await _send_json(send, 500, _error("internal_error", f"internal error ({type(exc).__name__})"))
        LOG.info("%s %s %s", scope["method"], scope["path"], status["code"])


# -- the application ------------------------------------------------------------------------

_ERROR_RESPONSES = {status: {"model": ErrorBody} for status in (400, 401, 403, 408, 409, 413, 415, 422, 503)}
_bearer = HTTPBearer(auto_error=False, description="A token from the --tokens file.")


async def _strict_json(request: Request) -> None:
    """The project's JSON rules (no duplicate keys, NaN or bad UTF-8) before the model sees the body."""
    loads_strict(await request.body(), what="the request body")


def _forbidden() -> MemoryStoreError:
    # the same few words whoever the user is and whether or not they exist
    return MemoryStoreError("this token may not do that", code="forbidden")


def _authorize(request: Request, user: str) -> None:
    if not request.state.grant.allows(user):
        raise _forbidden()


def _envelope_schema() -> dict:
    schema = loads_strict((SCHEMA_DIR / "envelope.schema.json").read_bytes(), what="envelope schema")
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id")}


def create_app(store: Store, *, tokens: TokenTable | None, limits: Limits = Limits()):
    """The ASGI application: the FastAPI routes inside the gate and the access log."""
    app = FastAPI(title="memory", version=api.version(), docs_url=None, redoc_url=None,
                  description="Policy-governed memory ledger: see docs/SERVER.md.")
    _install_error_handlers(app)
    _install_routes(app, store, limits)
    return AccessLog(Gate(app, tokens=tokens, limits=limits))


async def _offload(limits: Limits, func, *args, **kwargs):
    """Run library work in the thread pool; past the timeout, answer 503 (a write may still land:
    retrying the same add is safe, it is idempotent)."""
    try:
        with anyio.fail_after(limits.timeout_seconds):
            return await anyio.to_thread.run_sync(functools.partial(func, *args, **kwargs),
                                                  abandon_on_cancel=True)
    except TimeoutError:
        raise MemoryStoreError(f"the request took longer than {limits.timeout_seconds:g}s",
                               code="request_timeout") from None


def _cli_json(value: dict, status: int = 200) -> Response:
    # the CLI's serializer, byte for byte
    return Response(content=dumps(value), status_code=status, media_type="application/json")


def _install_routes(app: FastAPI, store: Store, limits: Limits) -> None:
    """Each route a thin translation of one ``memory.api`` call."""
    guarded = [Depends(_bearer), Depends(_strict_json)]

    @app.get("/health", tags=["meta"])
    async def health() -> dict:
        return {"status": "ok"}

    @app.post("/v1/memories/add", response_model=AddResponse, response_model_exclude_none=True,
              responses=_ERROR_RESPONSES, dependencies=guarded,
              tags=["leaderboard"])
    async def memories_add(body: AddRequest, request: Request):
        _authorize(request, body.user_id)
        answer = await _offload(limits, api.add_conversation, store, body.model_dump())
        return {**answer, **_timestamp_warnings(body.messages)}

    @app.post("/v1/memories/search", response_model=SearchResponse, responses=_ERROR_RESPONSES,
              dependencies=guarded, tags=["leaderboard"])
    async def memories_search(body: SearchRequest, request: Request):
        _authorize(request, body.user_id)
        # a retrieval API: the caller judges relevance, so weak-but-eligible matches are returned too
        found = await _offload(limits, api.search, store, body.query, body.user_id, top_k=body.top_k)
        return {"data": [search_hit(item) for item in found]}

    app.add_api_route("/add", memories_add, methods=["POST"], include_in_schema=False, dependencies=guarded)
    app.add_api_route("/search", memories_search, methods=["POST"], include_in_schema=False, dependencies=guarded)

    @app.post("/v1/query", responses={200: {"description": "the JSON of `memory query --json`"},
                                      **_ERROR_RESPONSES}, dependencies=guarded, tags=["cli"])
    async def query(body: QueryBody, request: Request):
        _authorize(request, body.user)
        as_of, recorded_as_of = (request_instant(body.as_of, "as_of"),
                                 request_instant(body.recorded_as_of, "recorded_as_of"))
        answer = await _offload(limits, api.query, store, body.text, body.user, as_of=as_of,
                                recorded_as_of=recorded_as_of, kinds=body.kinds,
                                include_inactive=body.include_inactive, limit=body.limit)
        return _cli_json(answer.to_json())

    @app.post("/v1/mutate", dependencies=[Depends(_bearer)], tags=["cli"],
              responses={200: {"description": "the JSON of `memory mutate --json`"}, **_ERROR_RESPONSES},
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/json": {"schema": _envelope_schema()}}}})
    async def mutate(request: Request):
        raw = await request.body()
        if not may_touch(request.state.grant, envelope_scope(raw)):
            raise _forbidden()
        result = (await _offload(limits, api.mutate, store, raw)).to_json()
        return _cli_json(result, mutation_status(result))


def _timestamp_warnings(messages: list[Message]) -> dict:
    """``{"warnings": [...]}`` naming each message whose timestamp reads as Unix seconds, or {}."""
    warned = [{"index": index, "code": "timestamp_looks_like_seconds",
               "message": "this Unix-millisecond timestamp falls in January 1970; as seconds it would "
                          "be 2001-2100: send milliseconds (seconds x 1000)"}
              for index, message in enumerate(messages) if message._seconds_like and message.content.strip()]
    return {"warnings": warned} if warned else {}


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(MemoryStoreError)
    async def library_error(request: Request, exc: MemoryStoreError):
        return JSONResponse({"error": exc.to_json()}, status_code=status_for(exc.code, exc))

    @app.exception_handler(RequestValidationError)
    async def invalid_body(request: Request, exc: RequestValidationError):
        problems = [{"loc": _location(e), "type": e.get("type", "invalid"), "message": _problem(e)}
                    for e in exc.errors()]
        if any(p["type"] == "json_invalid" for p in problems):
            return JSONResponse(_error("invalid_json", "the request body is not valid JSON"), status_code=400)
        first = problems[0]
        return JSONResponse(_error("schema_violation", f"the request body fails its schema "
                                   f"({len(problems)} problem(s)); {first['loc']}: {first['message']}",
                                   problems[:20]), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        if exc.status_code == 400:  # FastAPI could not parse the body: say why in our words
            try:
                loads_strict(await request.body(), what="the request body")
            except InputError as bad:
                return JSONResponse({"error": bad.to_json()}, status_code=400)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, f"http_{exc.status_code}")
        return JSONResponse(_error(code, code.replace("_", " ")), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception):
        if isinstance(exc, OSError):   # disk full, read-only, ...: the store is unavailable, named
            return JSONResponse({"error": StoreIOError.of(exc).to_json()}, status_code=503)
        return JSONResponse(_error("internal_error", f"internal error ({type(exc).__name__})"), status_code=500)


def _where_raised(exc: BaseException, frames: int = 8) -> str:
    """Where an exception was raised, as code locations only (file:line function, innermost last):
    an operator can find the bug without the log holding the message, which may quote memory content."""
    import traceback
    stack = traceback.extract_tb(exc.__traceback__)[-frames:]
    return " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(stack))


def _problem(error: dict) -> str:
    """Why a field is invalid, in words that never quote the value sent: our own validators'
    messages (written not to), else pydantic's, unless that holds the value (then its type)."""
    if error.get("type") == "value_error":
        raised = (error.get("ctx") or {}).get("error")
        return str(raised) if isinstance(raised, ValueError) else "invalid value"
    message, sent = str(error.get("msg") or ""), error.get("input")
    quoted = isinstance(sent, str) and len(sent.strip()) >= 3 and sent.strip() in message
    return f"invalid ({error.get('type', 'value')})" if quoted or not message else message


def _location(error: dict) -> str:
    """Where a validation error is, naming schema fields only (an unknown key is user input)."""
    loc = [str(part) for part in error.get("loc", ()) if part != "body"]
    if error.get("type") == "extra_forbidden" and loc:
        loc[-1] = "(unknown field)"
    return ".".join(loc) or "(root)"


# -- running ------------------------------------------------------------------------------------

LOG_CONFIG = {
    "version": 1, "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stderr"}},
    "loggers": {"uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
                "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False},
                "memory.server": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
                "memory.serve": {"handlers": ["stderr"], "level": "INFO", "propagate": False}},
}


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) and listening, made before anything says the server started.

    A busy port, a privileged one or an address this machine does not have is a usage error
    that names it (exit 2), never a traceback or a "started" line followed by a failure."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror:
        raise UsageError(f"cannot listen on {host!r}: not an address or a known host name",
                         code="address_invalid") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: restart past TIME_WAIT
        sock.bind(address)
        sock.listen(LISTEN_BACKLOG)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is in use by another process; pick another --port "
                             "(--port 0 takes a free one)", code="port_in_use") from None
        why = {errno.EACCES: "permission denied (ports below 1024 need privileges)",
               errno.EADDRNOTAVAIL: "not an address of this machine"}.get(exc.errno, exc.strerror or "refused")
        raise UsageError(f"cannot listen on {host} port {port}: {why}", code="cannot_listen") from None
    sock.set_inheritable(True)
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if sock.family == socket.AF_INET6 else f"http://{host}:{port}"


def serve(store: Store, *, host: str, port: int, tokens_file: Path | None, limits: Limits = Limits()) -> None:
    """Run until interrupted. Without a tokens file: loopback only, every route open."""
    import uvicorn

    logging.config.dictConfig(LOG_CONFIG)
    if limits.cache_mb is not None:
        set_cache_mb(limits.cache_mb)
    cache_bytes = CACHE_BUDGET.limit              # a bad $MEMORY_CACHE_MB is refused before listening
    tokens = load_tokens(tokens_file) if tokens_file else None
    sock = listening_socket(bind_host(host, tokens), port)
    if tokens is None:
        LOG.warning("no --tokens file: every route is open, so the server listens on %s only "
                    "and answers loopback host names only", sock.getsockname()[0])
    else:
        LOG.info("%d token(s) loaded; every route but /health needs a bearer token", len(tokens))
        _warn_if_others_read(tokens_file)
    app = create_app(store, tokens=tokens, limits=limits)
    # a search after a write saves the scope's refreshed index later, on another thread: the
    # index is derived (a process that dies first leaves it behind the shards, and the next one
    # reads the tail it lacks); what is due is saved when the server stops
    defer_saves(store)
    START_LOG.info("listening on %s (Ctrl-C stops); per-scope caches up to %d MB", _url(sock), cache_bytes >> 20)
    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            await super().shutdown(sockets)
            flush_saves(store)    # here: after a signal, uvicorn ends by raising it again

    try:
        Server(uvicorn.Config(app, access_log=False, log_config=None, lifespan="off", server_header=False,
                              timeout_keep_alive=5)).run(sockets=[sock])
    finally:
        flush_saves(store)
