"""The one httpx importer: a client for an OpenAI-compatible chat endpoint, and a
client for a memory server that speaks the Agent Memory Leaderboard contract.

``LLMConfig.from_settings(settings)`` reads the endpoint from the environment
variables the retrieval policy's ``llm`` section names (``base_url_env``,
``model_env``, ``key_env``); a missing key or model is ``llm_not_configured``,
never a silent fallback to another planner. ``ChatClient.complete(messages)``
POSTs ``{base_url}/chat/completions`` and returns the first choice's text.

Every failure is a ``RemoteError`` with a stable code: ``llm_timeout``,
``llm_rate_limited`` (HTTP 429), ``llm_http_error`` (any other non-2xx or a
transport failure), ``llm_bad_response`` (not JSON, or no message text). The
messages name the failure, never the endpoint's body or the key, so they can be
logged. The transport is injectable (``httpx.MockTransport`` in tests).

``LeaderboardClient(url, token)`` sends what the leaderboard's evaluator sends
(``add`` and ``search``, DESIGN §8) to any such server, ``memory serve`` among
them. A refused call or an unreachable server is a ``RemoteError``
(``server_http_error``, ``server_unreachable``, ``server_bad_response``) naming
the HTTP status and the server's error code, never a body it was sent.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import httpx

from .errors import InputError, RemoteError
from .jsonio import loads_strict

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_TIMEOUT_SECONDS = 30.0
_ENV_DEFAULTS = {"base_url_env": "MEMORY_LLM_BASE_URL", "model_env": "MEMORY_LLM_MODEL",
                 "key_env": "MEMORY_LLM_API_KEY"}


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str
    api_key: str = field(repr=False)
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS

    @classmethod
    def from_settings(cls, settings: dict, environ: dict | None = None) -> LLMConfig:
        """The endpoint named by the policy's ``llm`` section, or ``llm_not_configured``."""
        environ = os.environ if environ is None else environ
        names = {name: settings.get(name) or default for name, default in _ENV_DEFAULTS.items()}
        key = (environ.get(names["key_env"]) or "").strip()
        if not key:
            raise RemoteError(f"the llm planner needs an API key in ${names['key_env']} "
                              "(or use --planner deterministic)", code="llm_not_configured")
        model = (environ.get(names["model_env"]) or "").strip()
        if not model:
            raise RemoteError(f"the llm planner needs a model name in ${names['model_env']}",
                              code="llm_not_configured")
        base_url = (environ.get(names["base_url_env"]) or "").strip() or DEFAULT_BASE_URL
        timeout = float(settings.get("timeout_seconds") or DEFAULT_TIMEOUT_SECONDS)
        return cls(base_url.rstrip("/"), model, key, timeout)


class ChatClient:
    """Chat completions over one httpx client; use as a context manager."""

    def __init__(self, config: LLMConfig, *, transport: httpx.BaseTransport | None = None) -> None:
        self.config = config
        self._http = httpx.Client(
            transport=transport, timeout=httpx.Timeout(config.timeout_seconds),
            headers={"Authorization": f"Bearer {config.api_key}", "Content-Type": "application/json"})

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def complete(self, messages: list[dict]) -> str:
        """The assistant's reply text to ``messages`` (temperature 0)."""
        body = {"model": self.config.model, "messages": messages, "temperature": 0}
        url = f"{self.config.base_url}/chat/completions"
        try:
            response = self._http.post(url, json=body)
        except httpx.TimeoutException:
            raise RemoteError(f"the LLM endpoint did not answer within {self.config.timeout_seconds:g} s",
                              code="llm_timeout") from None
        except httpx.HTTPError as exc:
            raise RemoteError(f"could not reach the LLM endpoint ({type(exc).__name__})",
                              code="llm_http_error") from None
        _raise_for_status(response)
        return _reply_text(response)


def _raise_for_status(response: httpx.Response) -> None:
    if response.status_code == 429:
        raise RemoteError("the LLM endpoint is rate limiting this key (HTTP 429); retry later",
                          code="llm_rate_limited")
    if not 200 <= response.status_code < 300:
        raise RemoteError(f"the LLM endpoint answered HTTP {response.status_code}", code="llm_http_error")


def _reply_text(response: httpx.Response) -> str:
    try:
        payload = loads_strict(response.content, what="the LLM endpoint's response")
    except InputError:  # the endpoint is at fault, not the caller: a remote error
        raise RemoteError("the LLM endpoint's response is not JSON", code="llm_bad_response") from None
    try:
        content = payload["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise RemoteError("the LLM endpoint's response has no choices[0].message.content",
                          code="llm_bad_response") from None
    if not isinstance(content, str):
        raise RemoteError("the LLM endpoint's reply is not text", code="llm_bad_response")
    return content


class LeaderboardClient:
    """``POST /v1/memories/add`` and ``/v1/memories/search`` as an evaluator calls them."""

    def __init__(self, base_url: str, *, token: str | None = None, timeout: float = 120.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, transport=transport,
                                  timeout=httpx.Timeout(timeout))

    def __enter__(self) -> LeaderboardClient:
        return self

    def __exit__(self, *exc_info) -> None:
        self._http.close()

    def add(self, request_id: str, user_id: str, session_id: str, messages: list[dict]) -> dict:
        """``messages``: ``{"role", "content", "timestamp"}`` each, the timestamp in Unix milliseconds."""
        return self._post("/v1/memories/add", {"request_id": request_id, "user_id": user_id,
                                               "session_id": session_id, "messages": messages})

    def search(self, query: str, user_id: str, top_k: int) -> list[dict]:
        """The server's hits, best first: ``{"id", "content", "score", "created_at"}`` each."""
        answer = self._post("/v1/memories/search", {"query": query, "user_id": user_id, "top_k": top_k})
        hits = answer.get("data") if isinstance(answer, dict) else None
        if not isinstance(hits, list) or not all(isinstance(h, dict) and isinstance(h.get("content"), str)
                                                 for h in hits):
            raise RemoteError("the server's search answer has no data[].content", code="server_bad_response")
        return hits

    def _post(self, path: str, body: dict) -> dict:
        try:
            response = self._http.post(path, json=body)
        except httpx.HTTPError as exc:
            raise RemoteError(f"could not reach the memory server ({type(exc).__name__})",
                              code="server_unreachable") from None
        try:
            payload = loads_strict(response.content, what="the memory server's response")
        except InputError:
            raise RemoteError(f"the memory server answered HTTP {response.status_code} without JSON",
                              code="server_bad_response") from None
        if not 200 <= response.status_code < 300:
            error = payload.get("error") if isinstance(payload, dict) else None
            code = error.get("code") if isinstance(error, dict) else None
            raise RemoteError(f"the memory server answered {path} with HTTP {response.status_code}"
                              + (f" ({code})" if isinstance(code, str) else ""), code="server_http_error")
        return payload
