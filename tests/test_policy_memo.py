"""A store answering by an unchanged copy of the shipped policies reads no schema per process.

``policy._shipped``: a policy file byte for byte the package's default has one schema answer
per package, "valid" (``test_schemas.test_every_policy_file_validates_against_its_schema``), so
``load_policy`` skips the check for it; any other bytes (one space added) are checked.
"""
from __future__ import annotations

import json

import pytest

from memory import policy as policy_module
from memory import schemas
from memory.errors import PolicyError
from memory.paths import DEFAULT_CONFIG_DIR, POLICY_FILES
from memory.policy import load_policies, load_policy

from helpers import config_copy


def test_the_shipped_files_validate_through_the_check_the_memo_skips():
    for name, filename in POLICY_FILES.items():
        data, _ = policy_module.upgraded(name, json.loads(DEFAULT_CONFIG_DIR.joinpath(filename).read_bytes()))
        assert schemas.problems(f"{name}-policy", data, separator=".") == []


def test_an_unchanged_copy_is_not_checked_again(tmp_path, monkeypatch):
    copy = config_copy(tmp_path / "config")
    asked = []
    monkeypatch.setattr(schemas, "problems", lambda *a, **k: asked.append(a[0]) or [])
    load_policies(copy)
    load_policies()
    assert asked == []


@pytest.mark.parametrize("name", sorted(POLICY_FILES))
def test_a_changed_copy_is_checked(tmp_path, monkeypatch, name):
    copy = config_copy(tmp_path / "config")
    path = copy / POLICY_FILES[name]
    path.write_bytes(path.read_bytes().rstrip() + b" \n")     # the same policy, other bytes
    asked = []
    real = schemas.problems
    monkeypatch.setattr(schemas, "problems", lambda *a, **k: asked.append(a[0]) or real(*a, **k))
    load_policy(name, copy)
    assert asked == [f"{name}-policy"]


def test_a_changed_invalid_copy_is_refused(tmp_path):
    copy = config_copy(tmp_path / "config")
    path = copy / POLICY_FILES["forgetting"]
    data = json.loads(path.read_bytes())
    data["surprise"] = True
    path.write_text(json.dumps(data))
    with pytest.raises(PolicyError):
        load_policy("forgetting", copy)
