"""Retention windows and erasure: expired records never answer, sweeps and erases leave no content.

Retention rules live in the forgetting policy ({kind, classification, days}; the
shortest matching window applies). An expired record stops answering at read time
before any sweep (``decision.blocker``); ``memory retention sweep`` then erases its
content through the store's erase path, with an audit row naming the rule. After any
erasure — by envelope, by scope, by sweep — a byte search of every file under the
store (shards, index/, views/, audit rows) finds none of the content.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from memory.cli import main
from memory.clock import FixedClock, add_days
from memory.doctor import check_store
from memory.jsonio import dumps
from memory.paths import scope_digest
from memory.query import QueryRequest, run_query
from memory.retention import matching_rule, sweep
from memory.store import Store
from helpers import pinned_config  # noqa: F401 (pinned_config is a fixture)

T0 = "2024-01-01T00:00:00Z"
RULES = [{"kind": "*", "classification": "sensitive", "days": 365},
         {"kind": "episode", "classification": "*", "days": 30},
         {"kind": "preference", "classification": "private", "days": 90}]
USER = {"type": "user", "key": "ret"}


pytestmark = pytest.mark.usefixtures("pinned_config")


def day(n: int) -> str:
    return add_days(T0, n)


@pytest.fixture
def config(tmp_path, pinned_config) -> Path:
    folder = tmp_path / "config"
    shutil.copytree(pinned_config, folder)
    path = folder / "forgetting-policy.json"
    policy = json.loads(path.read_text())
    policy["retention"] = RULES
    path.write_text(json.dumps(policy, indent=2))
    return folder


def envelope(tx: str, statement: str, *, key=None, kind="fact", sensitivity="private", source="explicit_user",
             operation="add", record_id=None, aliases=(), tags=(), user="ret") -> dict:
    env = {"schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": operation,
           "actor": {"type": "agent", "id": "ret"}, "source": {"type": source, "ref": tx, "session": "s1"},
           "target": {"record_id": record_id, "memory_key": key, "scope": {"type": "user", "key": user}},
           "sensitivity": {"classification": sensitivity}, "reason": "retention test"}
    if operation in ("add", "update"):
        env["payload"] = {"kind": kind, "statement": statement, "aliases": list(aliases), "tags": list(tags)}
    return env


@pytest.fixture
def store(tmp_path, config) -> Store:
    store = Store.create(tmp_path / "store", clock=FixedClock(T0), config=config)
    for env in [
        envelope("sens", "The user's blood type is Orkbellium negative.", key="user.blood", sensitivity="sensitive"),
        envelope("ep", "We talked about the Quillmarsh hiking trail.", kind="episode", source="conversation"),
        envelope("pref", "The user prefers Vexlander tea.", key="user.tea", kind="preference"),
        envelope("pub", "The user's public handle is Brindlecove.", key="user.handle", sensitivity="public"),
        envelope("sens-ep", "The user mentioned the Tarnwhistle clinic.", kind="episode", source="conversation",
                 sensitivity="sensitive"),
    ]:
        assert store.mutate(env)["status"] == "applied", env["transaction_id"]
    return store


def ids(store: Store) -> dict[str, str]:
    state = store.state(USER)
    return {state.revisions[i][0]["transition"]["transaction_id"]: i for i in state.order}


def at(store: Store, instant: str) -> Store:
    return Store.open(store.root, clock=FixedClock(instant), config=store.policies.mutation.loaded.path.parent)


def ask(store: Store, text: str, **kw) -> dict:
    return run_query(store, QueryRequest(text=text, user="ret", include_inactive=True, **kw))


def all_bytes(root: Path) -> bytes:
    return b"\n".join(str(p.relative_to(root)).encode() + b"\n" + p.read_bytes()
                      for p in sorted(root.rglob("*")) if p.is_file())


def test_the_shortest_matching_window_applies(store):
    policy = store.policies.forgetting
    assert matching_rule(policy, "episode", "sensitive") == (1, RULES[1])
    assert matching_rule(policy, "fact", "sensitive") == (0, RULES[0])
    assert matching_rule(policy, "fact", "public") is None
    assert policy.retention_days("episode", "sensitive") == 30


def test_an_expired_record_is_never_served_even_before_a_sweep(store):
    fresh = ask(at(store, day(29)), "Quillmarsh hiking trail")
    assert [e["statement"] for e in fresh["evidence"]] == ["We talked about the Quillmarsh hiking trail."]
    late = ask(at(store, day(30)), "Quillmarsh hiking trail")
    assert late["evidence"] == []
    assert (late["knowledge_state"], late["reason_code"]) == ("UNKNOWN", "retired_or_expired")
    assert [a["blocked_by"] for a in late["audit_only"]] == ["retention"]
    # an as-of in the past does not bring it back: retention counts against now
    assert ask(at(store, day(30)), "Quillmarsh hiking trail", as_of=day(1))["evidence"] == []
    assert ask(at(store, day(400)), "blood type Orkbellium")["evidence"] == []
    assert ask(at(store, day(5000)), "public handle Brindlecove")["knowledge_state"] == "VERIFIED"


def test_a_dry_run_changes_nothing(store):
    before = all_bytes(store.root)
    summary = sweep(at(store, day(31)), dry_run=True)
    assert summary["records_erased"] == 2 and summary["dry_run"]
    assert all_bytes(store.root) == before


def test_a_sweep_erases_what_expired_and_names_the_rule(store):
    known = ids(store)
    ask(at(store, day(29)), "Quillmarsh Tarnwhistle")          # an index now holds the episodes' words
    summary = sweep(at(store, day(31)))
    assert summary["records_erased"] == 2
    assert {(e["record_id"], e["rule"]) for e in summary["erased"]} == {(known["ep"], 1), (known["sens-ep"], 1)}
    assert summary["by_rule"] == [{"rule": 1, **RULES[1], "records": 2}]
    assert all(e["scope_digest"] == scope_digest("user", "ret") for e in summary["erased"])
    blob = all_bytes(store.root)
    for needle in (b"Quillmarsh", b"quillmarsh", b"Tarnwhistle", b"tarnwhistl", b"hiking trail"):
        assert needle not in blob, needle
    rows = store.audit_rows(USER)
    assert [r["event"] for r in rows] == ["erase_retention"]
    assert rows[0]["retention_rule"] == {"index": 1, **RULES[1]}
    assert rows[0]["actor"] == {"type": "automation", "id": "retention-sweep"}
    assert rows[0]["policy_sha256"] == store.policies.forgetting.sha256
    assert set(rows[0]["record_ids"]) == {known["ep"], known["sens-ep"]}
    assert check_store(at(store, day(31))).clean
    assert sweep(at(store, day(31)))["records_erased"] == 0     # nothing left to do
    later = sweep(at(store, day(366)))                           # the preference at 90, the sensitive fact at 365
    assert {e["record_id"] for e in later["erased"]} == {known["pref"], known["sens"]}
    assert {r["rule"] for r in later["by_rule"]} == {0, 2}
    assert set(ids(store)) == {"pub"}
    assert check_store(at(store, day(366))).clean


def test_an_erased_record_is_not_resurrected_by_its_envelope_or_value(store):
    known = ids(store)
    forgotten = store.mutate(envelope("fg", "", operation="forget", record_id=known["pref"]))
    assert forgotten["status"] == "applied"
    later = at(store, day(100))
    sweep(later)
    assert known["pref"] not in ids(later)
    replay = later.mutate(envelope("pref", "The user prefers Vexlander tea.", key="user.tea", kind="preference"))
    assert replay["status"] == "idempotent" and replay["record_id"] is None
    again = later.mutate(envelope("pref2", "The user prefers Vexlander tea.", key="user.tea", kind="preference"))
    assert (again["status"], again["error"]["code"]) == ("refused", "value_tombstoned")


def test_the_cli_sweep(store, config):
    runner = CliRunner()
    env = {"MEMORY_CONFIG": str(config), "MEMORY_NOW": day(31)}
    text = runner.invoke(main, ["--store", str(store.root), "retention", "sweep", "--dry-run"], env=env)
    assert text.exit_code == 0, text.output
    assert text.output.splitlines()[0] == "would erase 2 record(s) in 1 scope(s)"
    result = runner.invoke(main, ["--store", str(store.root), "retention", "sweep", "--json"], env=env)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert (summary["records_erased"], summary["swept_at"], summary["dry_run"]) == (2, day(31), False)
    doctor = runner.invoke(main, ["--store", str(store.root), "doctor", "--json"], env=env)
    assert doctor.exit_code == 0 and json.loads(doctor.output)["clean"]


# -- erasure -------------------------------------------------------------------------

SECRET = dict(statement="The user's passport number is QX7731, issued in Zanzibarville.",
              aliases=["travel document Quokkaflux"], tags=["Wombatine"])
NEEDLES = [b"QX7731", b"qx7731", b"Zanzibarvill", b"zanzibarvill", b"Quokkaflux", b"quokkaflux", b"Wombatin",
           b"wombatin", b"passport number"]


def derive_everything(store: Store, user: str) -> None:
    """A query (index/) and, where the module exists, a boot view (views/) so erasure must reach them."""
    ask_user = run_query(store, QueryRequest(text="passport number Zanzibarville Quokkaflux", user=user))
    assert ask_user["evidence"], "the secret should be found before it is erased"
    try:
        from memory.bootview import build_views
    except ImportError:
        return
    build_views(store)
    assert [n for n in NEEDLES if n in all_bytes(store.root / "views")], "the boot view should hold the statement"


def secret_store(tmp_path) -> tuple[Store, str]:
    store = Store.create(tmp_path / "store", clock=FixedClock(T0))
    record = store.mutate(envelope("secret", SECRET["statement"], key="user.passport", aliases=SECRET["aliases"],
                                   tags=SECRET["tags"], user="era"))["record_id"]
    store.clock.set(day(1))
    updated = store.mutate(envelope("secret2", SECRET["statement"].replace("QX7731", "QX7731-B Wombatine"),
                                    key="user.passport", operation="update", user="era"))
    assert updated["status"] == "applied"
    store.mutate(envelope("keep", "The user waters the ferns on Sundays.", key="user.plants", user="era"))
    store.mutate(envelope("other", "Another user likes chess.", key="user.game", user="someone-else"))
    derive_everything(store, "era")
    assert [n for n in NEEDLES if n in all_bytes(store.root / "index")], "the index should hold the words"
    return store, record


def assert_no_content(root: Path) -> None:
    blob = all_bytes(root)
    found = [n for n in NEEDLES if n in blob]
    assert not found, f"erased content still on disk: {found}"


def test_erasing_records_leaves_no_byte_of_content(tmp_path):
    store, first = secret_store(tmp_path)
    second = [i for i in ids_of(store, "era") if i != first][0]
    runner = CliRunner()
    env = {"MEMORY_NOW": day(2)}
    for record_id in (first, second):
        result = runner.invoke(main, ["--store", str(store.root), "erase", record_id, "--user", "era",
                                      "--reason", "user asked", "--json"], env=env)
        assert result.exit_code == 0, result.output
    assert_no_content(store.root)
    rows = store.audit_rows({"type": "user", "key": "era"})
    assert [r["event"] for r in rows] == ["erase_record", "erase_record"]
    assert all(n not in dumps(rows) for n in NEEDLES)
    assert {tuple(r["record_ids"]) for r in rows} == {(first,), (second,)}
    kept = run_query(at(store, day(2)), QueryRequest(text="ferns Sundays", user="era"))
    assert kept["knowledge_state"] == "VERIFIED"
    gone = run_query(at(store, day(2)), QueryRequest(text="passport number", user="era", include_inactive=True))
    assert gone["evidence"] == [] and gone["audit_only"] == []
    assert check_store(at(store, day(2))).clean


def test_erasing_a_whole_scope_leaves_no_byte_of_content(tmp_path):
    store, _ = secret_store(tmp_path)
    result = CliRunner().invoke(main, ["--store", str(store.root), "erase", "--whole-scope", "--user", "era",
                                       "--json"], env={"MEMORY_NOW": day(2)})
    assert result.exit_code == 0, result.output
    assert_no_content(store.root)
    assert b"ferns" not in all_bytes(store.root)
    rows = store.audit_rows({"type": "user", "key": "era"})
    assert [r["event"] for r in rows] == ["erase_scope"] and len(rows[0]["record_ids"]) == 3
    assert all(n not in dumps(rows) for n in NEEDLES + [b"ferns"])
    other = run_query(at(store, day(2)), QueryRequest(text="chess", user="someone-else"))
    assert other["knowledge_state"] == "VERIFIED"
    assert check_store(at(store, day(2))).clean


def ids_of(store: Store, user: str) -> list[str]:
    return list(store.state({"type": "user", "key": user}).order)
