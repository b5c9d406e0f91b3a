"""Every verb that takes a record id answers "not found" the same way: exit 6, code record_not_found,
and the same bytes whether the id does not exist or lives in another user's scope (an id in another
scope cannot be probed). Nothing is written either way."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from helpers import add_env, by_id, snapshot
from memory.cli import main
from memory.records import record_id_for
from memory.store import user_scope

ABSENT = "mem_" + "0" * 24
NOT_FOUND = {"code": "record_not_found", "message": "no such record in this scope"}


def cli(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def ids(store):
    """alice's record, and bob's (the foreign id alice's calls name)."""
    for user, tx in (("alice", "tx-alice"), ("bob", "tx-bob")):
        store.mutate(add_env("The user lives in Paris.", "user.home_city", tx, user=user))
    return {"mine": record_id_for(user_scope("alice"), "tx-alice"), "bob": record_id_for(user_scope("bob"), "tx-bob")}


# each: (name, the command line naming RECORD as the record that is not alice's, stdin or None)
VERBS = [
    ("get", lambda r, mine: ("get", r, "--user", "alice"), None),
    ("history", lambda r, mine: ("history", r, "--user", "alice"), None),
    ("retire", lambda r, mine: ("retire", r, "--user", "alice", "--tx", "tx-probe"), None),
    ("forget", lambda r, mine: ("forget", r, "--user", "alice", "--tx", "tx-probe"), None),
    ("erase", lambda r, mine: ("erase", r, "--user", "alice", "--tx", "tx-probe"), None),
    ("update --id", lambda r, mine: ("update", "The user lives in Rome.", "--id", r, "--user", "alice",
                                     "--tx", "tx-probe"), None),
    ("dispute", lambda r, mine: ("dispute", r, "--with", mine, "--user", "alice", "--tx", "tx-probe"), None),
    ("dispute --with", lambda r, mine: ("dispute", mine, "--with", r, "--user", "alice", "--tx", "tx-probe"), None),
    ("resolve", lambda r, mine: ("resolve", r, "--over", mine, "--user", "alice", "--tx", "tx-probe"), None),
    ("resolve --over", lambda r, mine: ("resolve", mine, "--over", r, "--user", "alice", "--tx", "tx-probe"), None),
    ("review approve", lambda r, mine: ("review", "approve", r, "--user", "alice", "--tx", "tx-probe"), None),
    ("review reject", lambda r, mine: ("review", "reject", r, "--user", "alice", "--tx", "tx-probe"), None),
    ("mutate", lambda r, mine: ("mutate",), lambda r: json.dumps(by_id("retire", r, "tx-probe"))),
]


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
@pytest.mark.parametrize("name,command,stdin", VERBS, ids=[v[0] for v in VERBS])
def test_a_foreign_or_absent_record_id_exits_6_with_the_same_answer(store, ids, name, command, stdin, as_json):
    before = snapshot(store.root)
    answers = []
    for record_id in (ids["bob"], ABSENT):
        args = command(record_id, ids["mine"]) + (("--json",) if as_json else ())
        answers.append(cli(*args, input=stdin(record_id) if stdin else None))
    foreign, absent = answers
    assert foreign[0] == 6, (name, foreign)
    assert foreign == absent, name
    assert snapshot(store.root) == before
    if as_json:
        out = json.loads(foreign[1])
        assert out.get("error") == NOT_FOUND
        assert ids["bob"] not in foreign[1] + foreign[2]
    else:
        assert "record_not_found" in foreign[1] + foreign[2]


def test_the_same_verbs_on_the_callers_own_record_do_not_exit_6(store, ids):
    """The exit 6 above comes from the scope, not from the verb: alice's own id is found."""
    assert cli("get", ids["mine"], "--user", "alice", "--json")[0] == 0
    assert cli("retire", ids["mine"], "--user", "alice", "--json")[0] == 0
    code, out, _ = cli("review", "approve", ids["mine"], "--user", "alice", "--json")
    assert code == 5 and json.loads(out)["error"]["code"] == "invalid_transition"  # found, but not a candidate


def test_a_batch_exits_5_when_an_envelope_names_a_record_it_cannot_see(store, ids, tmp_path):
    """``memory apply`` is a batch: any refusal exits 5; each line carries its own code."""
    path = tmp_path / "batch.jsonl"
    path.write_text(json.dumps(by_id("retire", ids["bob"], "tx-probe")) + "\n")
    code, out, _ = cli("apply", str(path))
    assert code == 5 and json.loads(out)["error"] == NOT_FOUND
