"""Issue 13, honest abstention: a second signal that ranks abstentions (``features.abstention_sureness``).

An UNKNOWN is sure that the question cannot be answered when the question asked of another
speaker is supported far better than as asked ("What did Caroline realize after her charity
race?" when Melanie's turn holds it); it is not sure when no turn of anyone holds the question's
words ("Which console does Nate own?" when the evidence says "I play on my Xbox"): nothing shows
a wrong premise, only that the words are not there. The benchmark reports the precision / recall
curve over that sureness beside the confidence curve. The shapes are written here, not copied
from the public sets' questions.
"""
from __future__ import annotations

import json
import shutil

import pytest

from memory.benchmark.datasets import sureness_curve
from memory.benchmark.runner import run_dataset
from memory.decision import sureness
from memory.paths import PROJECT_ROOT
from memory.policy import load_policies

from helpers import write_locomo
from test_abstention import _match


def test_an_abstention_is_sure_by_how_much_the_other_speaker_is_better_supported():
    # asked of Melanie, her turn holds the whole question; Caroline's shares a word
    weak, other = _match("car", 0.4, 0.3, swapped=0.0), _match("mel", 0.55, 0.0, swapped=0.9)
    assert sureness([weak, other], 0.0) == pytest.approx(0.6)
    # nothing holds the question, of either speaker: abstains on the confidence curve, not sure here
    nothing = [_match("a", 0.1, 0.0, swapped=0.0), _match("b", 0.1, 0.0, swapped=0.05)]
    assert sureness(nothing, 0.0) == pytest.approx(0.05)
    # answered well of its own speaker: the swapped question is answered no better
    assert sureness([_match("own", 0.8, 0.8, swapped=0.5)], 0.8) < 0


def test_a_question_naming_no_speaker_is_ungraded():
    # no swapped support measured: the support test alone decides (1 when it abstains)
    assert sureness([_match("a", 0.1, 0.0)], 0.0) == 1.0
    assert sureness([_match("a", 0.6, 0.6)], 0.6) == -0.6
    assert sureness([], 0.0) == 1.0


def test_the_sureness_curve_abstains_at_or_above_each_threshold():
    rows = [{"should_abstain": True, "sureness": 0.6}, {"should_abstain": False, "sureness": 0.0},
            {"should_abstain": True, "sureness": 0.25}, {"should_abstain": False, "sureness": -0.5}]
    curve = {p["threshold"]: p for p in sureness_curve(rows)}
    assert curve[0.25]["abstained"] == 2 and curve[0.25]["precision"] == 1.0 and curve[0.25]["recall"] == 1.0
    assert curve[0.3]["abstained"] == 1 and curve[0.3]["recall"] == 0.5
    assert sureness_curve([{"should_abstain": True, "sureness": None}]) == []


# a conversation in which Melanie ran a charity race and nobody named the console Nate... Caroline plays
SESSIONS = {
    "session_1": ("1:56 pm on 8 May, 2023", [
        ("Melanie", "After the charity race I realized that self-care really matters."),
        ("Caroline", "That's great! I realized a lot after moving to the city too."),
        ("Caroline", "I play on my Xbox most evenings, it helps me unwind."),
        ("Melanie", "Nice, I went hiking with the kids on Sunday."),
    ]),
    "session_2": ("2:10 pm on 20 May, 2023", [
        ("Caroline", "The weather has been lovely this week."),
        ("Melanie", "Yes, sunny every day, we had a picnic."),
        ("Caroline", "I painted a lake at sunrise for the art show."),
        ("Melanie", "Your painting sounds beautiful."),
    ]),
}
QUESTIONS = [
    ("What did Caroline realize after her charity race?", ["D1:1"], 5),   # Melanie ran it
    ("What console does Caroline own?", ["D1:3"], 1),                     # "Xbox": no word shared
    ("What did Caroline paint for the art show?", ["D2:3"], 1),
]


def locomo_file(path):
    return write_locomo(path, SESSIONS, QUESTIONS, "conv-sure")


def _config(tmp_path, on: bool):
    folder = tmp_path / f"config-{on}"
    shutil.copytree(PROJECT_ROOT / "config", folder)
    path = folder / "retrieval-policy.json"
    data = json.loads(path.read_text())
    data["features"]["abstention_sureness"] = on
    data["decision"]["sureness_margin"] = None   # the sureness as a report only (test_abstention_margin: shipped)
    path.write_text(json.dumps(data))
    return folder


def _report(tmp_path, monkeypatch, on: bool) -> dict:
    monkeypatch.setenv("MEMORY_CONFIG", str(_config(tmp_path, on)))
    return run_dataset("locomo", locomo_file(tmp_path / "sure.json"), store_dir=tmp_path / f"store-{on}")


def test_the_benchmark_ranks_abstentions_by_sureness(tmp_path, monkeypatch):
    report = _report(tmp_path, monkeypatch, on=True)
    # both unanswered questions abstain on the confidence curve at threshold 0 (nothing supports them)
    at_zero = report["abstention_curve"][0]
    assert at_zero["threshold"] == 0.0 and at_zero["abstained"] == 2 and at_zero["precision"] == 0.5
    # by sureness, only the question about the wrong speaker abstains at 0.25
    point = {p["threshold"]: p for p in report["abstention_sureness_curve"]}[0.25]
    assert point["abstained"] == 1 and point["precision"] == 1.0 and point["recall"] == 1.0
    assert point["false_abstention_rate"] == 0.0


def test_without_the_flag_there_is_no_sureness(tmp_path, monkeypatch):
    report = _report(tmp_path, monkeypatch, on=False)
    assert report["abstention_sureness_curve"] == []
    assert report["abstention_operating_point"]["chosen_on"] == "dev"


def test_an_older_policy_file_reads_the_key_as_off(tmp_path):
    folder = tmp_path / "config"
    shutil.copytree(PROJECT_ROOT / "config", folder)
    path = folder / "retrieval-policy.json"
    data = json.loads(path.read_text())
    del data["features"]["abstention_sureness"]
    path.write_text(json.dumps(data))
    assert not load_policies(folder).retrieval.feature("abstention_sureness")
