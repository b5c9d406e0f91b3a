"""A store pinned before a policy key existed still opens, and keeps the rules it was made with.

`memory init` copies the policies into the store, so after a package upgrade the store answers
by files written before the newest keys existed. Strict validation refused every one of them
(`policy_invalid: missing required field`) the moment the retrieval policy gained a key: every
existing store stopped answering. `tests/data/policies-cb78319/` are the files a store made at
commit cb78319 holds.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memory import policy
from memory.errors import PolicyError
from memory.paths import DEFAULT_CONFIG_DIR
from memory.policy import load_policies, load_policy
from memory.query import QueryRequest, run_query
from memory.store import Store

from helpers import add_env

PINNED = Path(__file__).parent / "data" / "policies-cb78319"


def pinned_copy(tmp_path: Path, change=None) -> Path:
    folder = tmp_path / "pinned"
    shutil.copytree(PINNED, folder)
    if change:
        path = folder / "retrieval-policy.json"
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data, indent=2))
    return folder


def test_a_policy_written_before_the_newest_keys_loads_with_the_behaviour_of_its_time(tmp_path):
    retrieval = load_policies(pinned_copy(tmp_path)).retrieval
    assert retrieval.planner["own_turns_weight"] == 0
    assert retrieval.planner["unseen_time_weight"] == 1
    assert retrieval.planner["session_weight"] == 1          # features.session_fusion: true
    assert retrieval.decision["evidence_ratio"] == 0
    assert not retrieval.feature("subject_gate_only")
    assert "session_fusion" not in retrieval.data["features"]
    assert "entity_search" not in retrieval.data["features"]      # deleted since (measured to hurt)


def test_the_hash_is_of_the_bytes_on_disk_so_the_pin_still_matches(tmp_path):
    folder = pinned_copy(tmp_path)
    import hashlib
    loaded = load_policy("retrieval", folder)
    assert loaded.sha256 == hashlib.sha256((folder / "retrieval-policy.json").read_bytes()).hexdigest()


def test_session_fusion_off_becomes_session_weight_zero(tmp_path):
    folder = pinned_copy(tmp_path, lambda d: d["features"].update(session_fusion=False))
    assert load_policies(folder).retrieval.planner["session_weight"] == 0


def test_a_missing_key_that_always_existed_is_still_refused(tmp_path):
    folder = pinned_copy(tmp_path, lambda d: d["planner"].pop("rrf_k"))
    with pytest.raises(PolicyError) as caught:
        load_policies(folder)
    assert any("rrf_k" in detail for detail in caught.value.details)


def test_a_misspelled_key_is_still_refused(tmp_path):
    folder = pinned_copy(tmp_path, lambda d: d["features"].update(sentence_atribution=True))
    with pytest.raises(PolicyError) as caught:
        load_policies(folder)
    assert any("sentence_atribution" in detail for detail in caught.value.details)


def test_an_old_key_given_beside_its_replacement_is_refused_not_guessed(tmp_path):
    current = json.loads((DEFAULT_CONFIG_DIR / "retrieval-policy.json").read_text())

    def both(data):
        data.update(current)
        data["features"] = dict(current["features"], session_fusion=True)
    with pytest.raises(PolicyError):
        load_policies(pinned_copy(tmp_path, both))


def test_every_key_of_the_current_policy_existed_then_or_says_what_an_older_file_means(tmp_path):
    """A key added to config/retrieval-policy.json without an entry in policy.ADDED_KEYS would
    make every store pinned before it refuse to open again."""
    old = json.loads((PINNED / "retrieval-policy.json").read_text())
    new = json.loads((DEFAULT_CONFIG_DIR / "retrieval-policy.json").read_text())
    replacements = {(s, k) for s, k, _ in policy.REPLACED_KEYS["retrieval"].values()}
    for section, keys in new.items():
        if not isinstance(keys, dict):
            continue
        for key in keys:
            if key not in old.get(section, {}):
                assert (section, key) in policy.ADDED_KEYS["retrieval"] or (section, key) in replacements, \
                    f"{section}.{key} needs a value for policies written before it"


def test_a_store_pinned_at_cb78319_answers_after_the_upgrade(tmp_path):
    store = Store.create(tmp_path / "store")
    shutil.rmtree(tmp_path / "store" / "policies")
    shutil.copytree(PINNED, tmp_path / "store" / "policies")
    store = Store.open(tmp_path / "store")
    assert store.mutate(add_env("My dog is called Rex.", "user.dog_name", "tx-dog"))["status"] == "applied"
    answer = run_query(store, QueryRequest(text="What is my dog called?", user="alice"))
    assert answer["knowledge_state"] == "VERIFIED"


def test_doctor_tells_the_operator_that_an_upgrade_left_the_store_on_older_rules(tmp_path):
    """An outside tester upgraded, and nothing but the docs said the store still answers by its
    old retrieval rules (without the trust mechanisms). doctor says it, clean all the same."""
    from memory import api
    root = tmp_path / "store"
    Store.create(root)
    assert "notices" not in api.doctor(Store.open(root))          # a store on this version's rules
    older = tmp_path / "older"
    Store.create(older, config=PINNED)                             # pinned as cb78319 pinned them
    assert (older / "policies" / "retrieval-policy.json").read_bytes() == \
        (PINNED / "retrieval-policy.json").read_bytes()
    report = api.doctor(Store.open(older))
    assert report["clean"]
    [notice] = report["notices"]
    assert notice["code"] == "policy_older_than_package" and notice["where"] == "retrieval-policy.json"
    assert "accept-policies" in notice["message"] and "session_fusion" in notice["message"]
