"""Issue 13, honest abstention: the shipped decision abstains at the operating point chosen on the
dev curve (``decision.sureness_margin``, ``decision.abstention_score``).

Until session 9 the sureness only ranked abstentions in the benchmark report; ``memory query``
answered by ``min_coverage`` and the contest and swap tests, a different decision from the one the
curve described. With the margin, a question naming one speaker of a conversation is decided by
its score (the other speaker's support minus its own), and the benchmark's curve over that score
is the decision's own. The shapes are written here, not copied from the public sets' questions.
"""
from __future__ import annotations

import json
import shutil

import pytest

from memory import query
from memory.benchmark.runner import import_items, load_dataset
from memory.clock import FixedClock
from memory.decision import abstention_score, decide
from memory.policy import load_policy
from memory.paths import PROJECT_ROOT
from memory.store import Store

from helpers import write_locomo
from test_abstention import POLICY, NOW, _match


def _decide(matches, margin):
    return decide(matches, as_of=NOW, now=NOW, policy=POLICY, min_coverage=0.2, scope_label="user:u",
                  query_terms=["x"], support_ratio=0.5, swap_ratio=0.6, sureness_margin=margin)


def test_a_weak_answer_holding_the_thing_asked_answers_at_the_margin():
    # "What is Caroline's relationship status?" beside her turn about her relationship (support
    # 0.19, at or below min_coverage), nothing of Melanie's better: min_coverage abstains
    own = _match("own", 0.19, 0.19, swapped=0.0, asked=True)
    assert _decide([own], None).knowledge_state == "UNKNOWN"
    verdict = _decide([own], 0.25)
    assert verdict.knowledge_state == "VERIFIED"
    assert [m.record["id"] for m in verdict.evidence] == ["own"]


def test_a_weak_answer_sharing_only_a_verb_does_not_answer():
    # "When does Sam's work contract expire?" beside Sam's "My lease expires in June": the lease
    # holds no noun the question asks about (only its verb and Sam's name), and the scope never
    # said "contract": the premise is not in the scope
    lease = _match("lease", 0.17, 0.17, swapped=0.17, asked=False, unseen_asked=True)
    assert abstention_score([lease], 0.0, 0.2) == 1.0
    assert _decide([lease], 0.25).knowledge_state == "UNKNOWN"
    # every noun it asks about is one the scope knows (``unseen_premise``): a weak answer, not refuted
    seen = _match("seen", 0.17, 0.17, swapped=0.1, asked=False, unseen_asked=False)
    assert abstention_score([seen], 0.0, 0.2) == pytest.approx(-0.07)
    assert _decide([seen], 0.25).knowledge_state == "VERIFIED"


def test_the_other_speaker_better_supported_by_the_margin_abstains():
    # asked of Melanie, her turn holds the whole question; Caroline's shares a word
    weak, other = _match("car", 0.4, 0.3, swapped=0.0, asked=True), _match("mel", 0.55, 0.0, swapped=0.9)
    assert abstention_score([weak, other], 0.0, 0.2) == pytest.approx(0.6)
    assert _decide([weak, other], 0.25).knowledge_state == "UNKNOWN"
    assert _decide([weak, other], 0.65).knowledge_state == "VERIFIED"


def test_nothing_to_answer_from_abstains_and_other_questions_keep_min_coverage():
    nothing = [_match("a", 0.1, 0.0, swapped=0.0), _match("b", 0.1, 0.0, swapped=0.3)]
    assert abstention_score(nothing, 0.0, 0.2) == 1.0
    # a personal store's question (no speaker named, no swapped support): min_coverage decides
    assert abstention_score([_match("a", 0.15, 0.15, asked=True)], 0.15, 0.2) == 1.0
    assert abstention_score([_match("a", 0.6, 0.6)], 0.6, 0.2) == -0.6
    assert _decide([_match("a", 0.15, 0.15, asked=True)], 0.25).knowledge_state == "UNKNOWN"


def test_the_shipped_margin_is_a_policy_value_and_off_for_an_older_store():
    shipped = load_policy("retrieval", PROJECT_ROOT / "config")
    assert shipped.data["decision"]["sureness_margin"] == 0.25
    data = json.loads((PROJECT_ROOT / "config" / "retrieval-policy.json").read_text())
    from memory.policy import ADDED_KEYS
    assert ADDED_KEYS["retrieval"][("decision", "sureness_margin")] is None
    assert data["decision"]["sureness_margin"] == 0.25
    assert ADDED_KEYS["retrieval"][("features", "unseen_premise")] is False


# Jon never names a state; Gina's turn says "state": a weak answer about "Which state did Jon visit?"
# is not refuted by the premise, "Which country ...?" (never said) is
SESSIONS = {
    "session_1": ("1:56 pm on 8 May, 2023", [
        ("Jon", "I visited Paris with my brother, the food was amazing."),
        ("Gina", "The state fair here is this weekend, I take the train to get there."),
        ("Jon", "Sure, I love fairs."),
        ("Gina", "My dance studio opens next month."),
    ]),
}


def _config(tmp_path, on: bool):
    folder = tmp_path / f"config-{on}"
    shutil.copytree(PROJECT_ROOT / "config", folder)
    path = folder / "retrieval-policy.json"
    data = json.loads(path.read_text())
    data["features"]["unseen_premise"] = on
    path.write_text(json.dumps(data))
    return folder


@pytest.mark.parametrize("on", [True, False])
def test_the_premise_is_unseen_only_when_the_scope_never_saw_a_noun_asked(tmp_path, monkeypatch, on):
    monkeypatch.setenv("MEMORY_CONFIG", str(_config(tmp_path, on)))
    items = load_dataset("locomo", write_locomo(tmp_path / "p.json", SESSIONS, [], "conv-premise"))
    store = Store.create(tmp_path / "store", clock=FixedClock("2100-01-01T00:00:00Z"))
    import_items(store, items)

    def unseen(question):
        verdict = query._evaluate(store, query.QueryRequest(text=question, user="conv-premise", limit=10)).verdict
        return {m.unseen_asked for m in verdict.eligible}

    assert unseen("Which country did Jon visit with his brother?") == {True}
    # "state" is said in the scope (by Gina): off, every weak answer holding no asked noun abstains
    assert unseen("Which state did Jon visit by train?") == ({False} if on else {True})
