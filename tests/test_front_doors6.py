"""Front doors an outside tester found broken (server contract, CLI, messages), each driven
through the real door: HTTP against a running ``memory serve`` (as tests/test_server.py
starts it), the CLI as a subprocess or through click's runner, the library through ``memory.api``.

- C1 one very long turn is skipped by itself, not the whole session (413 before);
- C3 ``/v1/query`` takes ``as_of`` / ``recorded_as_of`` as Unix ms or ISO 8601, and a bad one
  names the field, not the CLI's flag;
- C4 a timestamp's 422 says why, per detail, without quoting it;
- C5 search returns a match about someone else (DESIGN §8: the reader decides), as the docs say;
- C6 a timestamp that reads as Unix seconds is stored as the contract says, with a warning;
- D1 ``memory add`` of a fact without ``--key`` is a usage error before anything is sent;
- D2 ``memory update --kind``, and a notice when a negative record is updated with a statement
  that negates nothing;
- D5 ``missing_conditions`` names the question's own words that nothing in the scope holds.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from helpers import NOW, add_env, make_store, snapshot
from memory import api
from memory.errors import UsageError

REPO = Path(__file__).resolve().parent.parent


# -- HTTP ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")
    pytest.importorskip("uvicorn", reason="the server extra is not installed (pip install -e '.[server]')")
    from test_server import Served
    base = tmp_path_factory.mktemp("front-doors")
    make_store(base / "store")
    served = Served(base / "store").start()
    yield served
    served.stop()


@pytest.fixture
def http(server):
    with server.client(None) as client:
        yield client


def fresh_user() -> str:
    return "u" + uuid.uuid4().hex[:12]


def add_body(user: str, messages: list[dict], session: str = "s1") -> dict:
    return {"request_id": uuid.uuid4().hex, "user_id": user, "session_id": session, "messages": messages}


def search(client, user: str, query: str, top_k: int = 100) -> list[dict]:
    response = client.post("/v1/memories/search", json={"query": query, "user_id": user, "top_k": top_k})
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_one_very_long_turn_is_skipped_and_the_rest_of_the_session_stored(http):
    user = fresh_user()
    body = add_body(user, [{"role": "user", "content": "word " * 14000},
                           {"role": "user", "content": "small talk about the zqlighthouse"}])
    assert len(json.dumps(body)) < 1024 * 1024
    response = http.post("/v1/memories/add", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["skipped"] == [{"index": 0, "code": "statement_too_large"}]
    hits = search(http, user, "zqlighthouse word")
    assert [hit["content"].split(": ", 1)[1] for hit in hits] == ["small talk about the zqlighthouse"]


def test_a_turn_over_the_envelope_cap_but_not_the_statement_cap_is_skipped_too(http):
    # 16,000 control characters are under the 16 KiB statement cap, but JSON writes each as
    # \\u0001: the message's envelope is ~96 KB, over the 64 KiB envelope cap
    user = fresh_user()
    body = add_body(user, [{"role": "user", "content": "x" + "\u0001" * 16000},
                           {"role": "user", "content": "the zqharbour is calm"}])
    response = http.post("/v1/memories/add", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["skipped"] == [{"index": 0, "code": "envelope_too_large"}]
    assert len(search(http, user, "zqharbour")) == 1


@pytest.mark.parametrize("field", ["as_of", "recorded_as_of"])
def test_query_takes_unix_milliseconds_as_add_does(http, field):
    user = fresh_user()
    assert http.post("/v1/memories/add", json=add_body(user, [
        {"role": "user", "content": "I adopted a zqcorgi puppy.", "timestamp": 1704067200000}])).status_code == 200
    by_ms = http.post("/v1/query", json={"text": "zqcorgi puppy", "user": user, field: 1735689600000})
    by_iso = http.post("/v1/query", json={"text": "zqcorgi puppy", "user": user, field: "2025-01-01T00:00:00Z"})
    assert by_ms.status_code == 200, by_ms.text
    assert by_ms.text == by_iso.text
    key = "valid_time" if field == "as_of" else "recorded_time"
    assert by_ms.json()["as_of"][key] == "2025-01-01T00:00:00Z"


@pytest.mark.parametrize("value", [-1, 253402300800000, "0999-12-31", "not a date", True, 1.5])
def test_a_bad_query_instant_is_422_naming_the_field(http, value):
    response = http.post("/v1/query", json={"text": "anything", "user": fresh_user(), "as_of": value})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    if error["code"] == "invalid_date":          # a value of the right type that is no instant
        assert error["message"].startswith("as_of") and "--as-of" not in error["message"]
    else:                                        # a value of another type
        assert error["code"] == "schema_violation"
        assert all(d["loc"].startswith("as_of") for d in error["details"])
    assert "not a date" not in response.text


@pytest.mark.parametrize("timestamp, why", [
    ("yesterday", "not an ISO 8601 instant or Unix milliseconds"),
    ("1704067200000", "Unix milliseconds go as a JSON integer, not inside a string"),
    ("2024-02-30", "not a real date or time (day out of range for month)"),
    ("2024-13-01T00:00:00Z", "not a real date or time (month must be in 1..12)"),
    (-5, "a timestamp in Unix milliseconds must be between 0 and 253402300799999"),
])
def test_a_timestamp_422_says_why_without_quoting_it(http, server, timestamp, why):
    before = snapshot(server.root / "shards")
    response = http.post("/v1/memories/add", json=add_body(fresh_user(), [
        {"role": "user", "content": "zqsecret content", "timestamp": timestamp}]))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "schema_violation"
    assert error["details"] == [{"loc": "messages.0.timestamp", "type": "value_error", "message": why}]
    assert why in error["message"]
    assert "zqsecret" not in response.text and (not isinstance(timestamp, str) or timestamp not in response.text)
    assert snapshot(server.root / "shards") == before


def test_search_returns_a_match_about_someone_else_as_design_says(http):
    # DESIGN §8: search returns the ranked matches whatever the knowledge state would be; the
    # evaluator's reader decides. The subject test belongs to /v1/query's evidence only.
    user = fresh_user()
    assert http.post("/v1/memories/add", json=add_body(user, [
        {"role": "John", "content": "I painted my kitchen blue last weekend.", "timestamp": 1704067200000},
        {"role": "Melanie", "content": "The kids loved the beach trip.", "timestamp": 1704067260000},
    ])).status_code == 200
    hits = search(http, user, "What did Melanie paint?")
    assert any("JOHN: I painted my kitchen blue" in hit["content"] for hit in hits)


def test_server_md_says_search_keeps_matches_about_someone_else():
    text = (REPO / "docs" / "SERVER.md").read_text(encoding="utf-8")
    search_section = text[text.index("### Search"):text.index("### Driving it")]
    assert "is left out as it is from" not in search_section
    assert "about someone else" in search_section


def test_a_timestamp_in_seconds_is_stored_as_milliseconds_with_a_warning(http):
    user = fresh_user()
    response = http.post("/v1/memories/add", json=add_body(user, [
        {"role": "user", "content": "zqkayak trip in seconds", "timestamp": 1704067200},
        {"role": "user", "content": "zqkayak trip in milliseconds", "timestamp": 1704067200000}]))
    assert response.status_code == 200, response.text
    answer = response.json()
    assert [(w["index"], w["code"]) for w in answer["warnings"]] == [(0, "timestamp_looks_like_seconds")]
    assert "zqkayak" not in json.dumps(answer["warnings"])
    contents = sorted(hit["content"] for hit in search(http, user, "zqkayak trip"))
    assert contents == ["[1970-01-20T17:21:07Z] USER: zqkayak trip in seconds",
                        "[2024-01-01T00:00:00Z] USER: zqkayak trip in milliseconds"]


def test_an_add_without_seconds_answers_the_contract_keys_only(http):
    response = http.post("/v1/memories/add", json=add_body(fresh_user(), [
        {"role": "user", "content": "hello there", "timestamp": 1704067200000}]))
    assert set(response.json()) == {"success", "request_id", "user_id", "session_id"}


# -- the CLI and the library ------------------------------------------------------------------

def cli(store: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    environ.update({"MEMORY_NOW": NOW, "PYTHONPATH": str(REPO), **(env or {})})
    return subprocess.run([sys.executable, "-m", "memory", "--store", str(store), *args],
                          capture_output=True, text=True, env=environ, cwd=REPO, timeout=120)


@pytest.fixture
def store_path(tmp_path):
    make_store(tmp_path / "store")
    return tmp_path / "store"


def test_add_of_a_fact_without_key_is_a_usage_error_naming_key(store_path):
    before = snapshot(store_path)
    result = cli(store_path, "add", "Jordan works as a software engineer.", "--user", "sam")
    assert result.returncode == 2, result.stderr
    assert "--key" in result.stderr and "episode" in result.stderr
    assert "Jordan" not in result.stderr
    as_json = cli(store_path, "add", "Jordan works as a software engineer.", "--user", "sam", "--json")
    assert as_json.returncode == 2
    assert json.loads(as_json.stdout)["error"]["code"] == "usage_error"
    assert snapshot(store_path) == before


def test_add_help_says_which_kinds_need_a_key(store_path):
    text = cli(store_path, "add", "--help").stdout
    assert "needs --key" in " ".join(text.split()) and "episode" in text


def test_api_add_of_a_fact_without_key_names_key(store_path):
    store = api.open_store(store_path)
    with pytest.raises(UsageError) as caught:
        api.add(store, "sam", "Jordan works as a software engineer.")
    assert "key=" in caught.value.message and caught.value.exit_code == 2
    assert api.add(store, "sam", "Jordan said hello.", kind="episode").status == "applied"


def _negative(store_path: Path) -> None:
    added = cli(store_path, "add", "I don't drink coffee.", "--user", "sam", "--key", "user.coffee",
                "--kind", "negative", "--from", "2024-01-01")
    assert added.returncode == 0, added.stderr


def test_update_takes_kind(store_path):
    _negative(store_path)
    result = cli(store_path, "update", "I've started drinking coffee every morning.", "--user", "sam",
                 "--key", "user.coffee", "--kind", "fact", "--json")
    assert result.returncode == 0, result.stderr
    record = api.get(api.open_store(store_path), json.loads(result.stdout)["record_id"], "sam")
    assert record["kind"] == "fact"
    assert "--kind" not in result.stderr


def test_update_keeps_the_kind_and_warns_when_a_negative_is_updated_without_a_negation(store_path):
    _negative(store_path)
    result = cli(store_path, "update", "I've started drinking coffee every morning.", "--user", "sam",
                 "--key", "user.coffee", "--json")
    assert result.returncode == 0, result.stderr
    record = api.get(api.open_store(store_path), json.loads(result.stdout)["record_id"], "sam")
    assert record["kind"] == "negative"                     # the default: the predecessor's kind
    assert "--kind fact" in result.stderr and "coffee" not in result.stderr


def test_update_of_a_negative_with_a_negation_says_nothing(store_path):
    _negative(store_path)
    result = cli(store_path, "update", "I no longer drink coffee at all, not even decaf.", "--user", "sam",
                 "--key", "user.coffee")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_api_update_takes_kind(store_path):
    _negative(store_path)
    store = api.open_store(store_path)
    result = api.update(store, "sam", "I've started drinking coffee every morning.", key="user.coffee", kind="fact")
    assert api.get(store, result.record_id, "sam")["kind"] == "fact"


# -- missing_conditions -------------------------------------------------------------------------

def test_missing_conditions_name_the_questions_own_words_that_nothing_covers(store_path):
    store = api.open_store(store_path)
    api.add(store, "sam", "Sam plays football with friends every Sunday.", key="user.sport")
    api.add(store, "sam", "Sam likes to go to the cinema.", key="user.hobby")
    answer = api.query(store, "What did Sam's niece take to her manicure?", "sam")
    assert (answer.knowledge_state, answer.reason_code) == ("UNKNOWN", "insufficient_evidence")
    [condition] = answer.missing_conditions
    assert condition.endswith(": niece, manicure"), condition
    assert "niec" not in condition.replace("niece", "") and "mani" not in condition.replace("manicure", "")


# -- docs: where the contract lives, and what exit 2 and 3 mean ------------------------------

@pytest.mark.parametrize("doc", ["README.md", "docs/SERVER.md"])
def test_the_first_citation_of_design_says_where_it_lives(doc):
    text = (REPO / doc).read_text(encoding="utf-8")
    first = text.index("DESIGN")
    sentence = text[text.rfind("\n\n", 0, first):text.find(".", first + len("DESIGN.md")) + 200]
    assert "../shared" in sentence, sentence


def test_readme_exit_codes_agree_with_what_a_bad_value_exits(store_path):
    empty = cli(store_path, "query", "", "--user", "u", "--json")
    undated = cli(store_path, "add", "I moved.", "--user", "u", "--key", "user.home", "--from", "last tuesday",
                  "--json")
    assert (empty.returncode, json.loads(empty.stdout)["error"]["code"]) == (2, "empty_query")
    assert (undated.returncode, json.loads(undated.stdout)["error"]["code"]) == (2, "invalid_date")
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    usage = readme[readme.index("2 usage"):readme.index("3 bad input")]
    assert "empty query" in usage and "not a date" in usage
