"""``memory serve``'s add catches the scope's read side up with its write (``api.add_conversation``
-> ``query.catch_up``, issue 14): the search right after it reads a view, a query view and an
index already at the write, and answers what a fresh process answers; a one-shot process, or a
store that never read the scope, reads nothing for it."""
from __future__ import annotations

from memory import api, indexing
from memory.paths import scope_digest

from helpers import make_store, reopen

USER = "paul"
DIGEST = scope_digest("user", USER)


def _add(store, request_id: str, texts: list[str]) -> dict:
    return api.add_conversation(store, {
        "request_id": request_id, "user_id": USER, "session_id": f"s-{request_id}",
        "messages": [{"role": "user", "content": text, "timestamp": "2024-02-01T10:00:00Z"} for text in texts]})


def _caught_up(store) -> bool:
    """The read cache's view, query view and index are those of the scope's files now."""
    cache = indexing.read_cache(store)
    fingerprint = store.fingerprint({"type": "user", "key": USER})
    view = cache.currents.get(DIGEST)
    index = cache.indexes.get(DIGEST)
    built = cache.built_current.get((DIGEST, "query_view"))
    return (view is not None and view[0] == fingerprint and index is not None and index[0][0] == fingerprint
            and built is not None and built[0] is view[1] and built[1] == view[1].version)


def test_an_add_of_a_served_store_catches_its_read_side_up(tmp_path):
    store = make_store(tmp_path / "s")
    _add(store, "r0", ["I adopted a grey cat named Miso.", "We hiked the lake trail on Sunday."])
    indexing.defer_saves(store)
    first = api.search(store, "cat", USER, top_k=5)
    assert first
    for n in range(3):
        _add(store, f"r{n + 1}", [f"The cat slept on the sofa, day {n}.", f"Lunch was soup, day {n}."])
        assert _caught_up(store)                          # by the add, before any search
        found = api.search(store, "cat sofa", USER, top_k=10)
        assert found == api.search(reopen(store), "cat sofa", USER, top_k=10)
    indexing.flush_saves(store)


def test_a_one_shot_store_reads_nothing_for_an_add(tmp_path):
    store = make_store(tmp_path / "s")
    _add(store, "r0", ["I adopted a grey cat named Miso."])
    api.search(store, "cat", USER, top_k=5)             # read, but saves on the request path
    _add(store, "r1", ["The cat slept on the sofa."])
    assert not _caught_up(store)
    served = make_store(tmp_path / "t")
    indexing.defer_saves(served)
    _add(served, "r0", ["I adopted a grey cat named Miso."])    # never searched: nothing to catch up
    assert indexing.read_cache(served).currents.get(DIGEST) is None
