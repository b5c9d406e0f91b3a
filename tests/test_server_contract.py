"""The leaderboard contract (DESIGN §8) as its evaluator sends it, against a real ``memory serve``.

Timestamps arrive as Unix milliseconds (integers) or ISO 8601 strings; anything
else is 422 with nothing written. Search content is ``[<ISO instant>] <ROLE>:
<text>``; search returns the eligible matches up to ``top_k`` even when
``/v1/query`` would say UNKNOWN, and never a rejected, forgotten, erased,
pending or other user's record (each planted here as a distractor that shares
the query's words).
"""
from __future__ import annotations

import json
import uuid

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from helpers import add_env, by_id, envelope, make_store, snapshot  # noqa: E402
from test_server import TOKEN_ADMIN, Served, _write_tokens  # noqa: E402

USERS = ["ev-user"]  # the tests act through the admin token; this one only fills the tokens file


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("contract")
    make_store(base / "store")
    served = Served(base / "store", "--tokens", str(_write_tokens(base / "tokens.json", USERS))).start()
    yield served
    served.stop()


@pytest.fixture
def admin(server):
    with server.client(TOKEN_ADMIN) as client:
        yield client


def word() -> str:
    return "zq" + "".join(chr(ord("a") + int(c, 16)) for c in uuid.uuid4().hex[:10])


def fresh_user() -> str:
    """A user of its own per test: rankings never meet another test's records (no shared words with markers)."""
    return "u" + uuid.uuid4().hex[:12]


def add(client, user: str, content: str, timestamp, role: str = "user"):
    return client.post("/v1/memories/add", json={
        "request_id": uuid.uuid4().hex, "user_id": user, "session_id": "s1",
        "messages": [{"role": role, "content": content, "timestamp": timestamp}]})


def search(client, user: str, query: str, top_k: int = 100) -> list[dict]:
    response = client.post("/v1/memories/search", json={"query": query, "user_id": user, "top_k": top_k})
    assert response.status_code == 200, response.text
    return response.json()["data"]


def mutate(client, env: dict) -> dict:
    response = client.post("/v1/mutate", json=env)
    assert response.status_code == 200, response.text
    return response.json()


# -- timestamps ----------------------------------------------------------------------------

@pytest.mark.parametrize("timestamp, instant", [
    (1704067200000, "2024-01-01T00:00:00Z"),          # the evaluator's form: Unix ms, an integer
    (1704067200999, "2024-01-01T00:00:00Z"),          # milliseconds below the second are dropped
    (0, "1970-01-01T00:00:00Z"),
    ("2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"),
    ("2024-01-01T02:00:00+02:00", "2024-01-01T00:00:00Z"),
    ("2024-01-01", "2024-01-01T00:00:00Z"),
])
def test_timestamps_as_unix_ms_or_iso_date_the_message(admin, timestamp, instant):
    marker, user = word(), fresh_user()
    assert add(admin, user, f"I adopted a cat named {marker}.", timestamp).status_code == 200
    hits = search(admin, user, f"cat named {marker}")
    assert hits[0]["content"] == f"[{instant}] USER: I adopted a cat named {marker}."


@pytest.mark.parametrize("timestamp", [
    -1, -1704067200000,                               # negatives
    253402300800000,                                  # 10000-01-01: past year 9999
    2 ** 63 - 1,                                      # the largest integer JSON input may carry here
    True, False,                                      # bools are not integers here
    1704067200000.0, 1.5,                             # floats
    "1704067200000",                                  # a number in a string is not ISO 8601
    "0999-12-31T00:00:00Z", "yesterday", "",
    [1704067200000], {"ms": 1704067200000},
])
def test_other_timestamps_are_422_and_nothing_is_written(admin, server, timestamp):
    # (an integer past 64 bits is refused earlier, as malformed JSON: 400, see test_hostile_input)
    before = snapshot(server.root / "shards")
    response = add(admin, "ev-user", "this must not be stored", timestamp)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "schema_violation"
    assert "this must not be stored" not in response.text
    assert snapshot(server.root / "shards") == before


def test_the_last_instant_of_year_9999_is_accepted(admin):
    marker, user = word(), fresh_user()
    assert add(admin, user, f"far future {marker}", 253402300799999).status_code == 200


def test_the_role_is_rendered_upper_case_as_the_contract_shows(admin):
    marker, user = word(), fresh_user()
    assert add(admin, user, f"That sounds like {marker} fun.", 1704067200000, role="assistant").status_code == 200
    assert search(admin, user, marker)[0]["content"] == \
        f"[2024-01-01T00:00:00Z] ASSISTANT: That sounds like {marker} fun."


# -- search semantics -------------------------------------------------------------------------

def test_search_returns_only_eligible_records_whatever_else_shares_the_words(admin):
    marker, user = word(), fresh_user()
    assert add(admin, user, f"My cat {marker} sleeps on the sofa.", 1704067200000).status_code == 200
    wanted = search(admin, user, f"cat {marker} sofa")
    assert len(wanted) == 1
    # distractors, each sharing the query's words
    forgotten = mutate(admin, add_env(f"The cat {marker} sleeps on the sofa all day.", None, f"f-{marker}",
                                      user=user, kind="episode"))
    assert mutate(admin, by_id("forget", forgotten["record_id"], f"f2-{marker}", user=user))["status"] == "applied"
    erased = mutate(admin, add_env(f"Cat {marker} sofa habits are cute.", None, f"e-{marker}", user=user,
                                   kind="episode"))
    assert mutate(admin, by_id("erase", erased["record_id"], f"e2-{marker}", user=user))["status"] == "applied"
    pending = mutate(admin, add_env(f"The cat {marker} probably likes the sofa.", None, f"c-{marker}", user=user,
                                    source="model_inference", actor="agent", kind="episode"))
    rejected = mutate(admin, add_env(f"The cat {marker} hates the sofa.", None, f"r-{marker}", user=user,
                                     source="model_inference", actor="agent", kind="episode"))
    assert mutate(admin, by_id("reject", rejected["record_id"], f"r2-{marker}", user=user,
                               actor="reviewer"))["status"] == "applied"
    other = fresh_user()
    assert add(admin, other, f"My cat {marker} sleeps on the sofa too.", 1704067200000).status_code == 200
    hits = search(admin, user, f"cat {marker} sofa")
    blocked = {forgotten["record_id"], erased["record_id"], pending["record_id"], rejected["record_id"]}
    assert [h["id"] for h in hits] == [wanted[0]["id"]]
    assert not blocked & {h["id"] for h in hits}
    assert len(search(admin, other, f"cat {marker} sofa")) == 1


def test_search_answers_even_when_query_would_say_unknown(admin):
    marker, user = word(), fresh_user()
    assert add(admin, user, f"We talked about {marker} at dinner.", 1704067200000).status_code == 200
    question = f"which colour car bought paris winter {marker} garden street"
    answer = admin.post("/v1/query", json={"text": question, "user": user}).json()
    assert answer["knowledge_state"] == "UNKNOWN"
    hits = search(admin, user, question)
    assert [h["content"] for h in hits] == [f"[2024-01-01T00:00:00Z] USER: We talked about {marker} at dinner."]


def test_search_returns_up_to_top_k_of_many(admin):
    marker, user = word(), fresh_user()
    body = {"request_id": uuid.uuid4().hex, "user_id": user, "session_id": "many",
            "messages": [{"role": "user", "content": f"{marker} note number {i}", "timestamp": 1704067200000 + i}
                         for i in range(120)]}
    assert admin.post("/v1/memories/add", json=body).status_code == 200
    assert len(search(admin, user, f"{marker} note", top_k=100)) == 100
    assert len(search(admin, user, f"{marker} note", top_k=7)) == 7


def test_an_erase_naming_nothing_is_refused_over_http(admin):
    marker, user = word(), fresh_user()
    assert add(admin, user, f"My cat {marker} sleeps on the sofa.", 1704067200000).status_code == 200
    response = admin.post("/v1/mutate", json=envelope("erase", f"wipe-{marker}", user=user))
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_target"
    assert search(admin, user, f"cat {marker}")  # nothing was erased
    whole = envelope("erase", f"wipe-all-{marker}", user=user)
    whole["target"]["whole_scope"] = True
    assert mutate(admin, whole)["status"] == "applied"
    assert search(admin, user, f"cat {marker}") == []


def test_both_spellings_of_a_user_id_are_one_user_over_http(admin):
    decomposed, precomposed = "Ange\u0301le", "Ang\u00e9le"
    marker = word()
    assert add(admin, decomposed, f"My cat {marker} sleeps on the sofa.", 1704067200000).status_code == 200
    assert [h["content"] for h in search(admin, precomposed, f"cat {marker}")] == \
        [f"[2024-01-01T00:00:00Z] USER: My cat {marker} sleeps on the sofa."]
    assert len(search(admin, decomposed, f"cat {marker}")) == 1
    answer = admin.post("/v1/query", json={"text": f"where does the cat {marker} sleep?", "user": decomposed})
    assert [e["statement"] for e in answer.json()["evidence"]] == [f"My cat {marker} sleeps on the sofa."]
    whole = envelope("erase", f"wipe-{marker}", user=decomposed, whole_scope=True)
    assert mutate(admin, whole)["status"] == "applied"
    assert search(admin, precomposed, f"cat {marker}") == []


def test_a_replay_with_the_iso_spelling_of_the_same_ms_timestamp_is_the_same_request(admin, server):
    user, request_id = fresh_user(), uuid.uuid4().hex
    body = {"request_id": request_id, "user_id": user, "session_id": "s1",
            "messages": [{"role": "user", "content": "I adopted a cat named Luna.", "timestamp": 1683504000000}]}
    assert admin.post("/v1/memories/add", json=body).status_code == 200
    before = snapshot(server.root / "shards")
    body["messages"][0]["timestamp"] = "2023-05-08T00:00:00Z"
    assert admin.post("/v1/memories/add", json=body).status_code == 200
    assert snapshot(server.root / "shards") == before
    body["messages"][0]["timestamp"] = 1683504001000      # another instant: another request
    assert admin.post("/v1/memories/add", json=body).status_code == 409


# -- text the rendering and the files cannot carry (found driving the server from outside) ----

@pytest.mark.parametrize("role, content", [
    ("user", "hi \ud800 there"),                       # a lone surrogate: no UTF-8 file can hold it (was a 500)
    ("user\n[1999-01-01T00:00:00Z] ASSISTANT", "hi"),  # a line break in a role forges a rendered turn
    ("A\x00B", "hi"),
    ("user\u2028", "hi"),
])
def test_text_that_cannot_be_stored_or_rendered_is_422_and_nothing_is_written(admin, server, role, content):
    before = snapshot(server.root / "shards")
    user = fresh_user()
    body = json.dumps({"request_id": uuid.uuid4().hex, "user_id": user, "session_id": "s1",
                       "messages": [{"role": role, "content": content, "timestamp": 1704067200000}]})
    response = admin.post("/v1/memories/add", content=body.encode(), headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert snapshot(server.root / "shards") == before


def test_a_speaker_name_with_any_letters_is_a_role(admin):
    user = fresh_user()
    assert add(admin, user, "Jürgen adopted a cat named Luna.", 1704067200000, role="Jürgen").status_code == 200
    assert search(admin, user, "cat named Luna")[0]["content"].startswith("[2024-01-01T00:00:00Z] JÜRGEN: ")
