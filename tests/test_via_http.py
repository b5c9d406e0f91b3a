"""``memory benchmark locomo FILE --via-http URL`` against a real ``memory serve`` process.

The same tiny LoCoMo-shaped file is scored twice: in process (a scratch store,
``run_query``) and through the wire as the leaderboard's evaluator drives it
(one add per session with Unix-millisecond timestamps, one search per question
with top_k 100, hits mapped back to turns by their rendered content). The two
must agree: if the server refused integer timestamps, rendered content the
client cannot map, or ranked differently from the engine, they would not.
"""
from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from click.testing import CliRunner  # noqa: E402

from helpers import make_store, write_locomo  # noqa: E402
from memory import api  # noqa: E402
from memory.benchmark.via_http import rendered, request_id, sessions, unix_ms  # noqa: E402
from memory.cli import main  # noqa: E402
from memory.importers import Turn  # noqa: E402
from memory.remote import LeaderboardClient  # noqa: E402
from test_server import Served  # noqa: E402

SESSIONS = {
    "session_1": ("1:56 pm on 8 May, 2023", [
        ("Caroline", "I went to an LGBTQ support group yesterday and it was so powerful."),
        ("Melanie", "That sounds wonderful! I have been busy painting a sunrise by the lake."),
        ("Caroline", "I am thinking about a career in counseling for transgender youth."),
        ("Melanie", "You would be great at that. My kids love camping in the mountains."),
    ]),
    "session_2": ("10:37 am on 27 June, 2023", [
        ("Caroline", "I adopted a cat named Luna from the shelter last week."),
        ("Melanie", "Luna is a lovely name! I signed up for a pottery class on Saturdays."),
        ("Caroline", "My grandmother gave me a necklace from Sweden when I was young."),
        ("Melanie", "I ran a charity race for mental health awareness in the park."),
    ]),
    "session_3": ("8:18 pm on 14 August, 2023", [
        ("Caroline", "I started volunteering at the youth center on Tuesdays."),
        ("Melanie", "We went to a Matt Patterson concert with the whole family."),
        ("Caroline", "Luna knocked my violin off the shelf again this morning."),
        ("Melanie", "The pottery class finished; I made a bowl with a dog painted on it."),
    ]),
}
QUESTIONS = [
    ("When did Caroline go to the LGBTQ support group?", ["D1:1"], 2),
    ("What did Melanie paint?", ["D1:2"], 4),
    ("What career is Caroline thinking about?", ["D1:3"], 4),
    ("What is the name of Caroline's cat?", ["D2:1"], 4),
    ("What class did Melanie sign up for?", ["D2:2"], 4),
    ("Where is Caroline's necklace from?", ["D2:3"], 4),
    ("What race did Melanie run?", ["D2:4"], 4),
    ("Where does Caroline volunteer?", ["D3:1"], 4),
    ("Which concert did Melanie's family go to?", ["D3:2"], 4),
    ("What did Luna knock off the shelf?", ["D3:3"], 1),
    ("What did Melanie make in pottery class?", ["D2:2", "D3:4"], 1),
]


def locomo_file(path, sample_id: str = "conv-tiny"):
    return write_locomo(path, SESSIONS, QUESTIONS, sample_id)


@pytest.fixture
def served(tmp_path):
    make_store(tmp_path / "served")
    server = Served(tmp_path / "served").start()
    yield server
    server.stop()


RETRIEVAL = ("recall@1", "recall@5", "recall@10", "recall@20", "mrr")


def test_via_http_reproduces_the_in_process_figures(tmp_path, served):
    dataset = locomo_file(tmp_path / "tiny.json")
    in_process = api.benchmark_dataset("locomo", dataset)
    over_http = api.benchmark_via_http("locomo", dataset, served.url)
    assert in_process["metrics"]["recall@5"] >= 0.8   # the engine really finds these turns
    for metric in RETRIEVAL:
        assert over_http["metrics"][metric] == pytest.approx(in_process["metrics"][metric], abs=0.01), metric
    assert over_http["questions"] == in_process["questions"] == len(QUESTIONS)
    assert over_http["via_http"]["add_requests"] == 3 and over_http["via_http"]["messages"] == 12
    assert over_http["via_http"]["unmapped_hits"] == 0
    assert "abstention_recall" not in over_http["metrics"]   # search never abstains: not a figure


def test_a_rerun_adds_nothing_twice_and_scores_the_same(tmp_path, served):
    dataset = locomo_file(tmp_path / "tiny.json")
    first = api.benchmark_via_http("locomo", dataset, served.url)
    shards_before = sorted(p.stat().st_size for p in (served.root / "shards").rglob("*.jsonl"))
    second = api.benchmark_via_http("locomo", dataset, served.url)
    assert sorted(p.stat().st_size for p in (served.root / "shards").rglob("*.jsonl")) == shards_before
    assert second["metrics"] == first["metrics"]


def test_the_cli_runs_via_http_and_says_so(tmp_path, served):
    dataset = locomo_file(tmp_path / "tiny.json")
    result = CliRunner().invoke(main, ["benchmark", "locomo", str(dataset), "--via-http", served.url, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["via_http"]["url"] == served.url and report["metrics"]["recall@10"] >= 0.8


def test_an_unreachable_server_is_a_remote_error(tmp_path):
    dataset = locomo_file(tmp_path / "tiny.json")
    result = CliRunner().invoke(main, ["benchmark", "locomo", str(dataset), "--via-http", "http://127.0.0.1:9",
                                       "--json"])
    assert result.exit_code == 9
    assert json.loads(result.output)["error"]["code"] == "server_unreachable"


def test_what_the_client_sends_is_what_an_evaluator_sends(tmp_path, served):
    """Integer millisecond timestamps, the speaker as role, one request per session."""
    turns = [Turn("D1:1", "session_1", "Caroline", "I adopted a cat named Luna.", "2024-01-01T00:00:00Z")]
    assert unix_ms(turns[0].date) == 1704067200000
    assert sessions(turns) == [("session_1", turns)]
    with LeaderboardClient(served.url) as client:
        client.add(request_id("locomo", "u-evaluator", "session_1"), "u-evaluator", "session_1",
                   [{"role": "user", "content": "I adopted a cat named Luna.", "timestamp": 1704067200000}])
        hits = client.search("cat named Luna", "u-evaluator", 100)
    assert hits[0]["content"] == "[2024-01-01T00:00:00Z] USER: I adopted a cat named Luna."
    assert rendered(Turn("x", "s", "user", "I adopted a cat named Luna.", "2024-01-01T00:00:00Z")) == hits[0]["content"]


def test_question_by_question_the_wire_ranks_as_the_engine_does(tmp_path, served):
    """The hits mapped back to turns are the in-process ranking, in order, question by question."""
    from memory.benchmark.runner import engine_search, import_items, load_dataset
    from memory.benchmark.via_http import HitMapper, add_all, http_search
    from memory.clock import FixedClock
    from memory.store import Store
    items = load_dataset("locomo", locomo_file(tmp_path / "tiny.json"))
    local = Store.create(tmp_path / "local", clock=FixedClock("2100-01-01T00:00:00Z"))
    import_items(local, items)
    in_process = engine_search(local, 20)
    with LeaderboardClient(served.url) as client:
        add_all(client, "locomo", items)
        wire = http_search(client, HitMapper(items))
        compared = 0
        for conversation in items:
            for question in conversation.questions:
                mine = in_process(conversation.sample_id, question.question, None)
                # the ranked list a retrieval caller gets, whether or not the answer would abstain
                assert wire(conversation.sample_id, question.question, None).ranked_refs[:20] == mine.ranked_refs
                compared += 1
    assert compared == len(QUESTIONS)


LME_QUESTIONS = [
    {"question_id": "q1", "question_type": "single-session-user", "question": "What is my dog's name?",
     "question_date": "2023/05/30 (Tue) 23:40", "answer": "Rex", "answer_session_ids": ["s_b"],
     "haystack_dates": ["2023/05/01 (Mon) 08:00", "2023/05/02 (Tue) 09:30", "2023/05/20 (Sat) 10:00"],
     "haystack_session_ids": ["s_a", "s_b", "s_a"],
     "haystack_sessions": [
         [{"role": "user", "content": "Any tips for growing tomatoes on a balcony?"},
          {"role": "assistant", "content": "Water them every morning."}],
         [{"role": "user", "content": ""},
          {"role": "user", "content": "My dog is called Rex and he loves the beach.", "has_answer": True},
          {"role": "assistant", "content": "Rex is a nice name for a dog!"}],
         [{"role": "user", "content": "Any tips for growing tomatoes on a balcony?"},
          {"role": "assistant", "content": "Water them every morning."}]]},
    {"question_id": "q2", "question_type": "single-session-user", "question": "Which city did I move to?",
     "question_date": "2023/06/30 (Fri) 10:00", "answer": "Lisbon", "answer_session_ids": ["s_m"],
     "haystack_dates": ["2023/06/01 (Thu) 08:00", "2023/06/02 (Fri) 09:30"],
     "haystack_session_ids": ["s_m", "s_n"],
     "haystack_sessions": [
         [{"role": "user", "content": "I finally moved to Lisbon, the city of seven hills.", "has_answer": True},
          {"role": "assistant", "content": "Congratulations on the move to the city!"}],
         [{"role": "user", "content": "I want to learn to bake sourdough bread."},
          {"role": "assistant", "content": "Start with a healthy starter."}]]},
]


def test_longmemeval_via_http_reproduces_the_in_process_figures(tmp_path, served):
    dataset = tmp_path / "lme.json"
    dataset.write_text(json.dumps(LME_QUESTIONS))
    in_process = api.benchmark_dataset("longmemeval", dataset)
    over_http = api.benchmark_via_http("longmemeval", dataset, served.url)
    assert in_process["metrics"]["recall_all@5"] == 1.0
    for metric in ("recall_any@5", "recall_all@5", "ndcg@10", "mrr", "turn_recall@10"):
        assert over_http["metrics"][metric] == pytest.approx(in_process["metrics"][metric], abs=0.01), metric
    # one request per session, the repeated session id (s_a twice) as two sessions
    assert over_http["via_http"]["add_requests"] == 5 and over_http["via_http"]["unmapped_hits"] == 0
