"""Issue 16 points 5, 6 and 8 through every front door: the library, the CLI and HTTP.

The corpus (``tests/hostile.py``) is instants outside years 1000-9999, over-long numbers
and credentials in every stored field; each must be refused with its code and write
nothing, and its prose must still be admitted. The front-door inputs that are not
envelopes (options, ``$MEMORY_NOW``, request fields, policy and import files) are checked
here too. ``test_the_hostile_corpus_through_every_front_door`` records the figures for
``benchmarks/reliability.py``.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import NOW, add_env, config_copy, make_store, record_figures, snapshot
from hostile import BIG_INT, CASES, GITHUB_TOKEN, Case, envelope_of
from memory import api
from memory.cli import main
from memory.errors import UsageError
from memory.jsonio import dumps

REPO = Path(__file__).resolve().parent.parent
OLD = "0999-01-01T00:00:00Z"


def cli(*args, input=None, env=None) -> tuple[int, dict]:
    result = CliRunner().invoke(main, [*args, "--json"], input=input, env=env, catch_exceptions=False)
    lines = result.stdout.strip().splitlines()
    return result.exit_code, json.loads(lines[-1]) if lines else {}


def store_root() -> Path:
    return Path(os.environ["MEMORY_STORE"])


@pytest.fixture
def seeded():
    """A store with one active record (so update and retire have something to aim at)."""
    assert cli("init")[0] == 0
    code, out = cli("add", "The user lives in Paris.", "--user", "alice", "--key", "user.home_city", "--tx", "seed")
    assert code == 0, out
    return out["record_id"]


# -- the HTTP server: a real process on loopback ---------------------------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    httpx = pytest.importorskip("httpx")
    root = tmp_path_factory.mktemp("served") / "store"
    make_store(root)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")}
    env.update(MEMORY_NOW=NOW, PYTHONPATH=str(REPO))
    log = open(root.parent / "server.log", "wb")
    process = subprocess.Popen([sys.executable, "-m", "memory.cli", "--store", str(root), "serve", "--port", str(port)],
                               stdout=log, stderr=log, env=env, cwd=REPO)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    deadline = time.monotonic() + 30
    while True:
        try:
            if client.get("/health").status_code == 200:
                break
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the server did not start: {(root.parent / 'server.log').read_text()}")
        time.sleep(0.1)
    yield root, client
    client.close()
    process.terminate()
    process.wait(timeout=10)
    log.close()


# -- the corpus, through the library, `memory mutate`, `memory apply` and POST /v1/mutate --

def _outcome(result: dict) -> str:
    return "applied" if result["status"] == "applied" else result["error"]["code"]


def _through_library(cases: list[Case], tmp_path: Path) -> list[tuple[Case, str, bool]]:
    store = make_store(tmp_path / "library")
    out = []
    for number, case in enumerate(cases):
        before = snapshot(store.root)
        result = store.mutate(envelope_of(case, f"lib-{number}"))
        assert GITHUB_TOKEN not in json.dumps(result)
        out.append((case, _outcome(result), case.code == "applied" or snapshot(store.root) == before))
    return out


def _through_cli_mutate(cases: list[Case]) -> list[tuple[Case, str, bool]]:
    assert cli("init")[0] == 0
    out = []
    for number, case in enumerate(cases):
        before = snapshot(store_root())
        sent = envelope_of(case, f"cli-{number}")
        code, result = cli("mutate", input=sent if isinstance(sent, bytes) else dumps(sent))
        assert code == (0 if case.code == "applied" else 5), (case.name, code)
        assert GITHUB_TOKEN not in json.dumps(result)
        out.append((case, _outcome(result), case.code == "applied" or snapshot(store_root()) == before))
    return out


def _through_cli_apply(cases: list[Case], tmp_path: Path) -> list[tuple[Case, str, bool]]:
    hostile = [case for case in cases if case.code != "applied"]
    lines = [envelope_of(case, f"apply-{n}") for n, case in enumerate(hostile)]
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"\n".join(line if isinstance(line, bytes) else dumps(line) for line in lines) + b"\n")
    root = tmp_path / "apply-store"
    make_store(root)
    before = snapshot(root)
    result = CliRunner().invoke(main, ["--store", str(root), "apply", str(path), "--json"], catch_exceptions=False)
    assert result.exit_code == 5
    results = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(results) == len(hostile) and GITHUB_TOKEN not in result.stdout
    unchanged = snapshot(root) == before
    return [(case, _outcome(row), unchanged) for case, row in zip(hostile, results)]


def _through_http(cases: list[Case], served) -> list[tuple[Case, str, bool]]:
    root, client = served
    out = []
    for number, case in enumerate(cases):
        before = snapshot(root)
        sent = envelope_of(case, f"http-{number}")
        response = client.post("/v1/mutate", content=sent if isinstance(sent, bytes) else dumps(sent),
                               headers={"content-type": "application/json"})
        assert response.status_code < 500, (case.name, response.status_code, response.text)
        if case.code in ("invalid_json", "non_finite_number"):
            assert response.status_code == 400, (case.name, response.text)
        assert GITHUB_TOKEN not in response.text
        out.append((case, _outcome(response.json()), case.code == "applied" or snapshot(root) == before))
    return out


def _tally(rows: list[tuple[Case, str, bool]]) -> dict:
    hostile = [(case, got, clean) for case, got, clean in rows if case.code != "applied"]
    prose = [(case, got) for case, got, _ in rows if case.code == "applied"]
    by_point = Counter()
    for case, got, clean in hostile:
        by_point[f"point {case.point}"] += got == case.code and clean
    return {"refused_right_code_nothing_written": f"{sum(got == c.code and clean for c, got, clean in hostile)}"
                                                  f"/{len(hostile)}",
            "by_point": dict(by_point),
            "prose_admitted": f"{sum(got == 'applied' for _, got in prose)}/{len(prose)}" if prose else "n/a",
            "wrong": [f"{case.name}: {got}" for case, got, clean in rows if got != case.code or not clean]}


def test_the_hostile_corpus_through_every_front_door(tmp_path, served):
    doors = {"library Store.mutate": _through_library(CASES, tmp_path),
             "memory mutate": _through_cli_mutate(CASES),
             "memory apply (one file)": _through_cli_apply(CASES, tmp_path),
             "POST /v1/mutate": _through_http(CASES, served)}
    tallies = {door: _tally(rows) for door, rows in doors.items()}
    assert {door: t["wrong"] for door, t in tallies.items()} == {door: [] for door in doors}
    points = Counter(case.point for case in CASES if case.code != "applied")
    record_figures("hostile_input", cases=sum(points.values()),
                   cases_by_point={f"point {p}": n for p, n in sorted(points.items())},
                   prose_cases=sum(case.code == "applied" for case in CASES),
                   **{door: f"{t['refused_right_code_nothing_written']} refused right; prose admitted "
                            f"{t['prose_admitted']}" for door, t in tallies.items()},
                   front_door_inputs=f"{_front_doors_refused(tmp_path / 'doors')}/{len(FRONT_DOOR_CASES)}",
                   http_request_fields=f"{_http_fields_refused(served)}/{len(POST_ROUTES) * len(OVERLONG) + len(OLD_FIELDS)}")


def _front_doors_refused(tmp_path: Path) -> int:
    tmp_path.mkdir()
    refused = 0
    for _, build, exit_code, error_code in FRONT_DOOR_CASES:
        code, got, unchanged, _ = _front_door(build, tmp_path)
        refused += (code, got, unchanged) == (exit_code, error_code, True)
    return refused


# -- point 5 at the doors that are not envelopes -------------------------------------------

@pytest.mark.parametrize("args", [
    ("add", "The user was born.", "--user", "alice", "--key", "user.born", "--from", OLD),
    ("add", "The user was born.", "--user", "alice", "--key", "user.born", "--from", "1000-01-01T00:30:00+01:00"),
    ("update", "The user lives in Rome.", "--user", "alice", "--key", "user.home_city", "--from", OLD),
    ("query", "where does the user live?", "--user", "alice", "--as-of", OLD),
    ("query", "where does the user live?", "--user", "alice", "--recorded-as-of", "0999-12-31"),
], ids=["add --from", "add --from (999 in UTC)", "update --from", "query --as-of", "query --recorded-as-of"])
def test_an_option_outside_years_1000_to_9999_is_a_usage_error(seeded, args):
    before = snapshot(store_root())
    code, out = cli(*args)
    assert (code, out["error"]["code"]) == (2, "invalid_date")
    assert snapshot(store_root()) == before


def test_retire_at_outside_the_years_is_a_usage_error(seeded):
    before = snapshot(store_root())
    code, out = cli("retire", seeded, "--user", "alice", "--at", OLD)
    assert (code, out["error"]["code"]) == (2, "invalid_date")
    assert snapshot(store_root()) == before


def test_memory_now_outside_the_years_is_a_usage_error_and_writes_nothing(seeded):
    before = snapshot(store_root())
    code, out = cli("add", "The user likes tea.", "--user", "alice", "--key", "user.drink", env={"MEMORY_NOW": OLD})
    assert (code, out["error"]["code"]) == (2, "invalid_date")
    assert snapshot(store_root()) == before


def test_memory_now_is_kept_canonical(seeded):
    code, out = cli("add", "The user likes tea.", "--user", "alice", "--key", "user.drink",
                    env={"MEMORY_NOW": "2024-03-02T01:00:00+01:00"})
    assert code == 0
    record = api.get(api.open_store(store_root()), out["record_id"], "alice")
    assert record["recorded_time"]["recorded_at"] == "2024-03-02T00:00:00Z"


def test_the_library_query_refuses_an_instant_outside_the_years(seeded):
    store = api.open_store(store_root())
    for option in ("as_of", "recorded_as_of"):
        with pytest.raises(UsageError) as caught:
            api.query(store, "where does the user live?", "alice", **{option: OLD})
        assert caught.value.code == "invalid_date"


# -- front doors for points 5 and 6 that read files or request fields ----------------------

def _policy_with_big_int(tmp_path):
    config = config_copy(tmp_path / "config")
    path = config / "mutation-policy.json"
    path.write_text(path.read_text().replace("{", '{"padding": ' + BIG_INT + ",", 1))
    return {"MEMORY_CONFIG": str(config)}


def _locomo(tmp_path, date="1:56 pm on 8 May, 2023", text="hi"):
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([{"sample_id": "conv-1", "qa": [], "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": date,
        "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": text}]}}]))
    return path


def _longmemeval(tmp_path, date):
    path = tmp_path / "lme.json"
    path.write_text(json.dumps([{"question_id": "q1", "question_type": "single-session-user", "question": "x?",
                                 "question_date": "2023/05/30 (Tue) 23:40", "answer": "y",
                                 "answer_session_ids": ["s"], "haystack_dates": [date], "haystack_session_ids": ["s"],
                                 "haystack_sessions": [[{"role": "user", "content": "hello"}]]}]))
    return path


def _big_int_file(tmp_path, name):
    path = tmp_path / name
    if name.endswith(".jsonl"):  # an export: a header line, the record lines, an end line
        path.write_text('{"kind": "header", "n": ' + BIG_INT + '}\n{"kind": "record"}\n{"kind": "end"}\n')
    else:
        path.write_text('[{"sample_id": ' + BIG_INT + "}]")
    return path


# (name, CLI arguments builder: tmp_path -> (args, env), expected exit code, expected error code)
FRONT_DOOR_CASES = [
    ("policy file with a 5,000-digit integer", lambda t: (["query", "x", "--user", "alice"], _policy_with_big_int(t)),
     4, "policy_invalid"),
    ("import locomo: a 5,000-digit integer", lambda t: (["import", "locomo", str(_big_int_file(t, "l.json"))], None),
     8, "dataset_invalid"),
    ("import longmemeval: a 5,000-digit integer",
     lambda t: (["import", "longmemeval", str(_big_int_file(t, "m.json"))], None), 8, "dataset_invalid"),
    ("import jsonl: a 5,000-digit integer", lambda t: (["import", "jsonl", str(_big_int_file(t, "e.jsonl"))], None),
     3, "invalid_json"),
    ("import locomo: session date in year 999",
     lambda t: (["import", "locomo", str(_locomo(t, "1:56 pm on 8 May, 0999"))], None), 8, "dataset_invalid"),
    ("import longmemeval: haystack date in year 999",
     lambda t: (["import", "longmemeval", str(_longmemeval(t, "0999/05/01 (Mon) 08:00"))], None),
     8, "dataset_invalid"),
    ("import locomo: a turn carrying a token",
     lambda t: (["import", "locomo", str(_locomo(t, text=f"my token is {GITHUB_TOKEN}"))], None),
     5, "credential_detected"),
]


def _front_door(build, tmp_path: Path) -> tuple[int, str, bool, str]:
    """(exit code, error code, store unchanged, stdout) of one non-envelope input through the CLI."""
    args, env = build(tmp_path)
    before = snapshot(store_root())
    result = CliRunner().invoke(main, [*args, "--json"], env=env, catch_exceptions=False)
    last = json.loads(result.stdout.strip().splitlines()[-1])
    # an error object, or an import's summary of its refusals
    got = last["error"]["code"] if "error" in last else ",".join(last.get("refusal_codes", {}))
    return result.exit_code, got, snapshot(store_root()) == before, result.stdout


@pytest.mark.parametrize("name, build, exit_code, error_code", FRONT_DOOR_CASES, ids=[c[0] for c in FRONT_DOOR_CASES])
def test_file_front_doors_refuse_with_their_exit_code_and_write_nothing(seeded, tmp_path, name, build, exit_code,
                                                                      error_code):
    code, got, unchanged, stdout = _front_door(build, tmp_path)
    assert (code, got) == (exit_code, error_code), stdout[-500:]
    assert GITHUB_TOKEN not in stdout
    assert unchanged


POST_ROUTES = {
    "/v1/memories/add": {"request_id": "r1", "user_id": "alice", "session_id": "s1",
                         "messages": [{"role": "user", "content": "hello", "timestamp": None}]},
    "/v1/memories/search": {"query": "hello", "user_id": "alice", "top_k": 5},
    "/v1/query": {"text": "hello", "user": "alice"},
    "/v1/mutate": add_env("The user likes tea.", "user.drink", "http-big"),
}


OVERLONG = {"5000 digits": BIG_INT, "-4301": "-" + "9" * 4301, "2**64": str(2**64)}
OLD_FIELDS = {
    "query as_of": ("/v1/query", {"text": "hello", "user": "alice", "as_of": OLD}),
    "query recorded_as_of": ("/v1/query", {"text": "hello", "user": "alice", "recorded_as_of": OLD}),
    "add timestamp": ("/v1/memories/add", {"request_id": "r-old", "user_id": "alice", "session_id": "s1",
                                           "messages": [{"role": "user", "content": "hello", "timestamp": OLD}]}),
    "mutate valid_time": ("/v1/mutate", add_env("The user likes tea.", "user.drink", "http-old", valid_from=OLD)),
}


def _post(served, route: str, body: bytes) -> tuple[int, str, bool]:
    root, client = served
    before = snapshot(root)
    response = client.post(route, content=body, headers={"content-type": "application/json"})
    return response.status_code, (response.json().get("error") or {}).get("code"), snapshot(root) == before


def _with_padding(route: str, literal: str) -> bytes:
    return dumps(POST_ROUTES[route])[:-1] + b',"padding":' + literal.encode() + b"}"


@pytest.mark.parametrize("route", list(POST_ROUTES))
@pytest.mark.parametrize("literal", list(OVERLONG))
def test_every_post_route_answers_an_overlong_integer_with_400(served, route, literal):
    assert _post(served, route, _with_padding(route, OVERLONG[literal])) == (400, "invalid_json", True)


@pytest.mark.parametrize("name", list(OLD_FIELDS))
def test_request_fields_outside_the_years_are_refused_with_422(served, name):
    route, body = OLD_FIELDS[name]
    status, code, unchanged = _post(served, route, dumps(body))
    assert (status, unchanged) == (422, True)
    assert code in ("invalid_date", "schema_violation", "instant_out_of_range")


def _http_fields_refused(served) -> int:
    overlong = [_post(served, route, _with_padding(route, literal)) == (400, "invalid_json", True)
                for route in POST_ROUTES for literal in OVERLONG.values()]
    old = [_post(served, route, dumps(body))[::2] == (422, True) for route, body in OLD_FIELDS.values()]
    return sum(overlong) + sum(old)
