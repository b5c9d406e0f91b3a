"""``memory mcp --user U``: the store as Model Context Protocol tools over stdio.

Built on the official ``mcp`` SDK (the optional extra ``memory-ledger[mcp]``).
One server serves one scope, user:<U> (U NFC-normalized, as every front door
does), fixed when it starts: tools take no
user argument, and a mutation envelope that targets another scope is refused
(``scope_not_permitted``) before the store is touched. Each tool answers with
one text block holding exactly the JSON the matching CLI command prints with
``--json``:

    query        memory query TEXT --user U [--as-of ...] --json
    mutate       memory mutate --json  (the envelope as an object or a JSON string)
    get          memory get RECORD_ID --user U --json
    history      memory history RECORD_ID --user U --json
    review_list  memory review list --user U --json

A refused mutation is an ordinary answer (``"status": "refused"``); any other
failure (an unknown record, a bad date, a full disk, a bug) is a tool error whose
text is the CLI's ``{"error": {"code", "message"}}`` (an argument of the wrong type is
refused by the SDK before a tool runs, in the SDK's words; an argument the tool does not
take, ``user`` among them, is a ``usage_error`` naming it). Messages never echo memory
content.
"""
from __future__ import annotations

import threading
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

from . import api
from .errors import MemoryStoreError
from .jsonio import dumps_text

INSTRUCTIONS = (
    "A policy-governed memory ledger bound to one user's scope. Use `query` before answering from memory: "
    "trust only VERIFIED* states and say you do not know on UNKNOWN (it carries a reason_code and the "
    "missing_conditions). Write only through `mutate` with a memory.envelope.v1 envelope (see docs/AGENTS.md); "
    "the mutation policy decides whether it lands as active, as a candidate for review, or is refused."
)


def _answer(value: object) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=dumps_text(value))])


def _failure(exc: MemoryStoreError) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=dumps_text({"error": exc.to_json()}))],
                          is_error=True)


_ONE_AT_A_TIME = threading.Lock()  # the SDK runs tools in worker threads; a Store's caches are not shared-safe


def _guarded(work) -> CallToolResult:
    """The tool's answer, or the CLI's error JSON. An I/O error is named as the CLI names it; any
    other exception is an internal error named by its type only: the SDK would answer a bare
    "Error executing tool" and log the exception's message, which may quote memory content."""
    try:
        with _ONE_AT_A_TIME:
            return _answer(work())
    except MemoryStoreError as exc:
        return _failure(exc)
    except OSError as exc:
        return _failure(MemoryStoreError.from_os_error(exc))
    except Exception as exc:
        return _failure(MemoryStoreError(f"internal error ({type(exc).__name__})", code="internal_error"))


class _StrictServer(MCPServer):
    """Refuses an argument a tool does not take: the SDK drops it silently, and an agent that sent
    ``user: "bob"`` to ``query`` would take the answer (for this server's user) as bob's."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            unknown = sorted(set(arguments) - set(tool.parameters.get("properties", {})))
            if unknown:
                named = ", ".join(repr(arg[:64]) for arg in unknown[:10])
                hint = (" (this server answers for one user, fixed when it starts)"
                        if {"user", "user_id", "scope"} & set(unknown) else "")
                return _failure(MemoryStoreError(f"tool {name} takes no argument {named}{hint}; it takes: "
                                                 + (", ".join(tool.parameters.get("properties", {})) or "none"),
                                                 code="usage_error"))
        return await super().call_tool(name, arguments, context)


def build_server(store: api.Store, user: str) -> MCPServer:
    """An MCP server whose tools read and write scope user:<user> of ``store`` only."""
    user = api.user_scope(user)["key"]  # refuses an empty user; NFC, as every front door spells it
    server = _StrictServer(name="memory", version=api.version(), instructions=INSTRUCTIONS)

    @server.tool(description="Answer a question from this user's memories, or say UNKNOWN and why. "
                             "Returns the JSON of `memory query --json`: knowledge_state, reason_code, "
                             "missing_conditions and ranked evidence (best first).")
    def query(text: str, as_of: str | None = None, recorded_as_of: str | None = None,
              kinds: list[str] | None = None, include_inactive: bool = False, limit: int = 10) -> CallToolResult:
        return _guarded(lambda: api.query(store, text, user, as_of=as_of, recorded_as_of=recorded_as_of,
                                          kinds=kinds or (), include_inactive=include_inactive,
                                          limit=limit).to_json())

    @server.tool(description="Apply one mutation envelope (schema memory.envelope.v1) through the mutation "
                             "policy. Its target.scope must be this server's scope. Returns the JSON of "
                             "`memory mutate --json`: status applied | idempotent | refused.")
    def mutate(envelope: dict[str, Any] | str) -> CallToolResult:
        return _guarded(lambda: api.mutate(store, envelope, only_user=user).to_json())

    @server.tool(description="The current revision of one record of this scope (`memory get --json`).")
    def get(record_id: str) -> CallToolResult:
        return _guarded(lambda: api.get(store, record_id, user))

    @server.tool(description="Every revision of one record with its transition row: who, what, why, when "
                             "(`memory history --json`).")
    def history(record_id: str) -> CallToolResult:
        return _guarded(lambda: api.history(store, record_id, user))

    @server.tool(description="Candidate records of this scope awaiting a reviewer (`memory review list --json`).")
    def review_list() -> CallToolResult:
        return _guarded(lambda: api.review_list(store, user))

    return server


def serve_stdio(store: api.Store, user: str) -> None:
    """Serve until the client closes stdin."""
    build_server(store, user).run("stdio")
