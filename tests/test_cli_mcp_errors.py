"""Every failure of an MCP tool is a tool error holding the CLI's error JSON, never the SDK's bare
"Error executing tool" with the exception (and whatever content its message quotes) in the log."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("mcp", reason="the mcp extra is not installed (pip install -e '.[mcp]')")

import anyio  # noqa: E402

from memory import api  # noqa: E402
from memory.mcp_server import build_server  # noqa: E402

SECRET = "the user's PLUMTREE secret"


def _call(store, monkeypatch, failure: Exception):
    def failing(*args, **kwargs):
        raise failure
    monkeypatch.setattr(api, "get", failing)
    return anyio.run(build_server(store, "alice").call_tool, "get", {"record_id": "mem_x"})


def test_an_unexpected_exception_is_an_internal_error_named_by_its_type(store, monkeypatch, caplog):
    result = _call(store, monkeypatch, RuntimeError(SECRET))
    assert result.is_error
    assert json.loads(result.content[0].text) == {"error": {"code": "internal_error",
                                                            "message": "internal error (RuntimeError)"}}
    assert SECRET not in caplog.text


def test_an_os_error_is_named_as_the_cli_names_it(store, monkeypatch):
    result = _call(store, monkeypatch, OSError(28, "No space left on device", str(store.root / "shards" / "x")))
    error = json.loads(result.content[0].text)["error"]
    assert result.is_error and error["code"] == "io_error" and error["message"].startswith("ENOSPC")
