"""LoCoMo and LongMemEval loading and their turn -> envelope mapping (tiny synthetic files)."""
from __future__ import annotations

import copy
import gzip
import json

import pytest

from memory.importers import DatasetError, Turn, load_locomo, load_longmemeval, turn_envelopes

LOCOMO_SAMPLE = {
    "sample_id": "conv-1",
    "conversation": {
        "speaker_a": "Ann",
        "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a puppy."},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Look!", "blip_caption": "a photo of a red kite",
             "img_url": ["https://example.invalid/x.jpg"]},
            {"speaker": "Ann", "dia_id": "D1:3", "text": "  "},
        ],
        "session_10_date_time": "12:09 am on 13 September, 2023",
        "session_10": [{"speaker": "Bob", "dia_id": "D10:1", "text": "Back from Lisbon."}],
        "session_2_date_time": "9:05 am on 1 June, 2023",
        "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "The puppy is called Rex."}],
        # Spare date keys without a session exist in the real data; they are ignored.
        "session_11_date_time": "1:00 pm on 1 October, 2023",
    },
    "qa": [
        {"question": "What did Ann adopt?", "answer": "a puppy", "evidence": ["D1:1"], "category": 4},
        {"question": "What did Bob's sister adopt?", "evidence": ["D1:1"], "category": 5,
         "adversarial_answer": "a cat"},
        {"question": "When?", "answer": 2023, "evidence": [], "category": 2},
    ],
}

LME_QUESTION = {
    "question_id": "q1",
    "question_type": "single-session-user",
    "question": "What is my dog's name?",
    "question_date": "2023/05/30 (Tue) 23:40",
    "answer": 7,
    "answer_session_ids": ["s_b"],
    "haystack_dates": ["2023/05/01 (Mon) 08:00", "2023/05/02 (Tue) 09:30", "2023/05/20 (Sat) 10:00"],
    "haystack_session_ids": ["s_a", "s_b", "s_a"],
    "haystack_sessions": [
        [{"role": "user", "content": "Any tips for tomatoes?"}, {"role": "assistant", "content": "Water them."}],
        [{"role": "user", "content": ""},
         {"role": "user", "content": "My dog is called Rex.", "has_answer": True},
         {"role": "assistant", "content": "Nice name!", "has_answer": False}],
        [{"role": "user", "content": "Any tips for tomatoes?"}, {"role": "assistant", "content": "Water them."}],
    ],
}


def _write(tmp_path, name, data, gz=False):
    path = tmp_path / name
    raw = json.dumps(data).encode()
    path.write_bytes(gzip.compress(raw) if gz else raw)
    return path


def _locomo(tmp_path, samples=None):
    return load_locomo(_write(tmp_path, "locomo.json", samples or [LOCOMO_SAMPLE]))


def _lme(tmp_path, questions=None, gz=True):
    return load_longmemeval(_write(tmp_path, "lme.json.gz", questions or [LME_QUESTION], gz=gz))


# --- LoCoMo ---------------------------------------------------------------------------


def test_locomo_sessions_are_in_numeric_order_with_iso_dates(tmp_path):
    (conversation,) = _locomo(tmp_path)
    assert [(t.ref, t.session, t.date) for t in conversation.turns] == [
        ("D1:1", "session_1", "2023-05-08T13:56:00Z"),
        ("D1:2", "session_1", "2023-05-08T13:56:00Z"),
        ("D2:1", "session_2", "2023-06-01T09:05:00Z"),
        ("D10:1", "session_10", "2023-09-13T00:09:00Z"),  # 12:09 am is just after midnight
    ]


def test_locomo_photo_caption_is_appended_to_the_text(tmp_path):
    (conversation,) = _locomo(tmp_path)
    assert conversation.turns[1] == Turn("D1:2", "session_1", "Bob", "Look! [shares a photo: a photo of a red kite]",
                                         "2023-05-08T13:56:00Z")


def test_locomo_empty_turns_are_skipped_and_counted(tmp_path):
    (conversation,) = _locomo(tmp_path)
    assert "D1:3" not in [t.ref for t in conversation.turns]
    assert conversation.empty_turns == 1


def test_locomo_questions_keep_category_raw_evidence_and_stringified_answer(tmp_path):
    (conversation,) = _locomo(tmp_path)
    first, adversarial, dated = conversation.questions
    assert (first.index, first.category, first.evidence, first.answer) == (0, 4, ("D1:1",), "a puppy")
    assert (adversarial.category, adversarial.answer) == (5, None)
    assert dated.answer == "2023"


def test_locomo_envelope_is_the_design_add_envelope(tmp_path):
    (conversation,) = _locomo(tmp_path)
    envelope = next(turn_envelopes(conversation))
    assert envelope == {
        "schema_version": "memory.envelope.v1",
        "transaction_id": "import:locomo:conv-1:D1:1",
        "operation": "add",
        "actor": {"type": "importer", "id": "memory-import"},
        "source": {"type": "conversation", "ref": "D1:1", "observed_at": "2023-05-08T13:56:00Z",
                   "evidence_hash": None, "session": "session_1", "speaker": "Ann"},
        "target": {"record_id": None, "memory_key": None, "scope": {"type": "user", "key": "conv-1"}},
        "payload": {"kind": "episode", "statement": "I adopted a puppy.", "confidence": "high",
                    "importance": "low", "aliases": [], "tags": [], "negative_triggers": []},
        "valid_time": {"from": "2023-05-08T13:56:00Z", "to": None},
        "sensitivity": {"classification": "private"},
        "reason": "imported from locomo",
    }


def test_locomo_envelopes_are_one_per_kept_turn_and_deterministic(tmp_path):
    (conversation,) = _locomo(tmp_path)
    first = list(turn_envelopes(conversation))
    assert [e["source"]["ref"] for e in first] == ["D1:1", "D1:2", "D2:1", "D10:1"]
    assert first == list(turn_envelopes(_locomo(tmp_path)[0]))


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda s: s.pop("conversation"), "'conversation'"),
        (lambda s: s["conversation"].pop("session_2_date_time"), "session_2_date_time"),
        (lambda s: s["conversation"].update(session_2_date_time="yesterday"), "session_2_date_time"),
        (lambda s: s["conversation"]["session_1"][0].pop("dia_id"), "session_1 turn 0"),
        (lambda s: s["conversation"]["session_2"][0].update(dia_id="D1:1"), "duplicate dia_id"),
        (lambda s: s["qa"][1].update(category=9), "qa 1"),
    ],
)
def test_locomo_wrong_shape_names_the_item_and_sample(tmp_path, mutate, expected):
    broken = copy.deepcopy(LOCOMO_SAMPLE)
    broken["sample_id"] = "conv-9"
    mutate(broken)
    with pytest.raises(DatasetError) as caught:
        _locomo(tmp_path, [LOCOMO_SAMPLE, broken])
    assert "item 1 (conv-9)" in str(caught.value)
    assert expected in str(caught.value)


def test_dataset_error_is_a_value_error_with_a_stable_code():
    assert issubclass(DatasetError, ValueError)
    assert DatasetError.code == "dataset_invalid"


def test_truncated_gzip_is_a_dataset_error(tmp_path):
    path = _write(tmp_path, "lme.json.gz", [LME_QUESTION], gz=True)
    path.write_bytes(path.read_bytes()[:-20])
    with pytest.raises(DatasetError, match="lme.json.gz"):
        load_longmemeval(path)


def test_duplicate_json_key_is_a_dataset_error(tmp_path):
    path = tmp_path / "dup.json"
    path.write_text('[{"sample_id": "a", "sample_id": "b"}]')
    with pytest.raises(DatasetError, match="duplicate JSON key 'sample_id'"):
        load_locomo(path)


def test_not_json_is_a_dataset_error(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[{")
    with pytest.raises(DatasetError, match="not valid JSON"):
        load_locomo(path)


# --- LongMemEval ------------------------------------------------------------------------


def test_lme_turns_keep_original_indices_roles_and_session_dates(tmp_path):
    (question,) = _lme(tmp_path)
    assert [(t.ref, t.speaker, t.date) for t in question.turns[:5]] == [
        ("s_a:0", "user", "2023-05-01T08:00:00Z"),
        ("s_a:1", "assistant", "2023-05-01T08:00:00Z"),
        # s_b:0 is empty: skipped, and the next turn keeps its index 1
        ("s_b:1", "user", "2023-05-02T09:30:00Z"),
        ("s_b:2", "assistant", "2023-05-02T09:30:00Z"),
        ("s_a#2:0", "user", "2023-05-20T10:00:00Z"),
    ]
    assert question.empty_turns == 1


def test_lme_question_date_gold_and_answer(tmp_path):
    (question,) = _lme(tmp_path)
    assert question.question_as_of == "2023-05-30T23:40:00Z"
    assert question.answer_session_ids == ("s_b",)
    assert question.answer_turn_refs == ("s_b:1",)  # has_answer false is not gold
    assert question.answer == "7"
    assert not question.is_abstention


def test_lme_repeated_session_id_maps_back_to_the_dataset_id(tmp_path):
    (question,) = _lme(tmp_path)
    assert question.session_of("s_a#2:1") == "s_a"
    assert question.session_of("s_b:1") == "s_b"
    assert question.session_of("nowhere:1") is None


def test_lme_transaction_ids_are_unique_even_with_a_repeated_session(tmp_path):
    (question,) = _lme(tmp_path)
    envelopes = list(turn_envelopes(question))
    ids = [e["transaction_id"] for e in envelopes]
    assert ids[0] == "import:lme:q1:s_a:0"
    assert len(ids) == len(set(ids)) == 6


def test_lme_envelope_fields(tmp_path):
    (question,) = _lme(tmp_path)
    envelope = list(turn_envelopes(question))[2]
    assert envelope["source"] == {"type": "conversation", "ref": "s_b:1", "observed_at": "2023-05-02T09:30:00Z",
                                  "evidence_hash": None, "session": "s_b", "speaker": "user"}
    assert envelope["target"]["scope"] == {"type": "user", "key": "q1"}
    assert envelope["payload"]["statement"] == "My dog is called Rex."
    assert envelope["valid_time"] == {"from": "2023-05-02T09:30:00Z", "to": None}
    assert envelope["reason"] == "imported from longmemeval"


def test_lme_loads_plain_json_too(tmp_path):
    (question,) = _lme(tmp_path, gz=False)
    assert question.question_id == "q1"


def test_lme_abstention_is_read_from_the_id(tmp_path):
    item = dict(LME_QUESTION, question_id="q2_abs")
    assert _lme(tmp_path, [item])[0].is_abstention


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda q: q["haystack_dates"].pop(), "differ in length"),
        (lambda q: q.update(question_date="30 May 2023"), "question_date"),
        (lambda q: q["haystack_sessions"][1][1].pop("role"), "session s_b turn 1"),
        (lambda q: q.update(answer_session_ids="s_b"), "answer_session_ids"),
    ],
)
def test_lme_wrong_shape_names_the_question(tmp_path, mutate, expected):
    broken = copy.deepcopy(LME_QUESTION)
    broken["question_id"] = "q-bad"
    mutate(broken)
    with pytest.raises(DatasetError) as caught:
        _lme(tmp_path, [LME_QUESTION, broken])
    assert "item 1 (q-bad)" in str(caught.value)
    assert expected in str(caught.value)
