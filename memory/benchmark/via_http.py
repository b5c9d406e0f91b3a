"""The dataset benchmarks driven through a memory server, as the leaderboard's evaluator drives it.

``run_via_http(dataset, path, url)`` loads the LoCoMo or LongMemEval file and:

1. adds every conversation through ``POST /v1/memories/add``, one request per
   session, each message ``{"role": <speaker>, "content": <text>, "timestamp":
   <Unix ms>}`` (user_id = the scope the in-process run uses: the LoCoMo
   sample_id or the LongMemEval question_id; request ids are digests of
   dataset, user and session, so a rerun answers 200 without writing twice);
2. asks every question through ``POST /v1/memories/search`` with ``top_k`` 100;
3. maps each hit back to its turn by its content, ``[<ISO instant>] <ROLE>:
   <text>`` (DESIGN §8), which is all an evaluator sees;
4. scores the ranking with the same evaluators as ``memory benchmark`` in
   process (``datasets.evaluate_locomo`` / ``evaluate_longmemeval``).

What the wire cannot carry is said in ``report["via_http"]``: search neither
abstains (the evaluator's reader decides; abstention figures are left out) nor
takes an as-of instant, and returns no neighbouring turns (``with_context``
equals the strict figures).

HTTP goes through ``memory.remote.LeaderboardClient`` (the one httpx importer).
"""
from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

from ..clock import normalize_instant, parse_instant
from ..importers import Turn
from ..remote import LeaderboardClient
from .datasets import SearchOutcome, evaluate_locomo, evaluate_longmemeval
from .runner import load_dataset

TOP_K = 100
DEFAULT_LIMITS = {"locomo": 20, "longmemeval": 50}   # the in-process run's (runner.run_dataset)
_ABSTENTION_KEYS = ("abstention_precision", "abstention_recall", "abstained", "should_abstain",
                    "false_abstentions", "false_abstention_rate")

Progress = Callable[[int, int], None]


def unix_ms(instant: str) -> int:
    """An ISO 8601 instant as the contract's timestamp: integer Unix milliseconds."""
    return int(parse_instant(instant).timestamp() * 1000)


def rendered(turn: Turn) -> str:
    """The content a search hit carries for ``turn`` (what ``memory serve`` renders, DESIGN §8)."""
    return unicodedata.normalize("NFC", f"[{normalize_instant(turn.date)}] {_role(turn).upper()}: {turn.text}")


def _role(turn: Turn) -> str:
    return turn.speaker or "unknown"


def sessions(turns: Sequence[Turn]) -> list[tuple[str, list[Turn]]]:
    """The turns grouped by session, in conversation order."""
    grouped: dict[str, list[Turn]] = {}
    for turn in turns:
        grouped.setdefault(turn.session, []).append(turn)
    return list(grouped.items())


def request_id(dataset: str, user: str, session: str) -> str:
    digest = hashlib.sha256("\x1f".join((dataset, user, session)).encode("utf-8")).hexdigest()
    return f"bench-{digest[:40]}"


def add_all(client: LeaderboardClient, dataset: str, items: list, progress: Progress | None = None) -> dict:
    """Every session of every item, one add request each; counts of what was sent."""
    work = [(item, session, turns) for item in items for session, turns in sessions(item.turns)]
    for done, (item, session, turns) in enumerate(work, start=1):
        messages = [{"role": _role(t), "content": t.text, "timestamp": unix_ms(t.date)} for t in turns]
        client.add(request_id(dataset, item.scope_key, session), item.scope_key, session, messages)
        if progress:
            progress(done, len(work))
    return {"add_requests": len(work), "messages": sum(len(turns) for _, _, turns in work)}


class HitMapper:
    """Hit content -> turn ref, per scope. Identical contents (the same words said twice in one
    session) map to their turns in order, one per hit, as an evaluator matching text would."""

    def __init__(self, items: list) -> None:
        self.refs: dict[str, dict[str, list[str]]] = {}
        for item in items:
            table = self.refs.setdefault(item.scope_key, {})
            for turn in item.turns:
                table.setdefault(rendered(turn), []).append(turn.ref)
        self.unmapped = 0

    def ranked_refs(self, user: str, hits: list[dict]) -> list[str]:
        table, ranked = self.refs.get(user, {}), []
        for hit in hits:
            candidates = [ref for ref in table.get(unicodedata.normalize("NFC", hit["content"]), ())
                          if ref not in ranked]
            if candidates:
                ranked.append(candidates[0])
            else:
                self.unmapped += 1   # e.g. a statement the server redacted: it cannot be matched
        return ranked


def http_search(client: LeaderboardClient, mapper: HitMapper, top_k: int = TOP_K):
    """The evaluators' ``search``: the as-of instant is not sent (the contract has none)."""
    def search(scope_user: str, question: str, as_of: str | None) -> SearchOutcome:
        hits = client.search(question, scope_user, top_k)
        return SearchOutcome(ranked_refs=mapper.ranked_refs(scope_user, hits), context_refs=[], abstained=False)
    return search


def run_via_http(dataset: str, path: Path, url: str, *, token: str | None = None, limit: int | None = None,
                 add_progress: Progress | None = None, query_progress: Progress | None = None,
                 client: LeaderboardClient | None = None) -> dict:
    items = load_dataset(dataset, path)
    limit = limit or DEFAULT_LIMITS[dataset]
    evaluate = evaluate_locomo if dataset == "locomo" else evaluate_longmemeval
    with client or LeaderboardClient(url, token=token) as http:
        sent = add_all(http, dataset, items, add_progress)
        mapper = HitMapper(items)
        report = evaluate(items, http_search(http, mapper), limit=limit, progress=query_progress)
    _drop_abstention(report)
    report["dataset_file"] = Path(path).name
    report["via_http"] = {
        "url": url, **sent, "top_k": TOP_K, "unmapped_hits": mapper.unmapped,
        "abstention": "not measured: /v1/memories/search never abstains (the evaluator's reader decides)",
        "as_of": "not sent: the contract's search takes no instant"
                 + ("; questions see sessions dated after them" if dataset == "longmemeval" else ""),
        "context": "none: hits carry no neighbouring turns, so with_context equals the strict figures",
    }
    return report


def _drop_abstention(report: dict) -> None:
    """Our abstention figures would only measure that search never abstains."""
    summaries = [report["metrics"], *report["by_category"].values()]
    if isinstance(report.get("without_late_gold"), dict):
        summaries.append(report["without_late_gold"]["metrics"])
    for summary in summaries:
        for key in _ABSTENTION_KEYS:
            summary.pop(key, None)
