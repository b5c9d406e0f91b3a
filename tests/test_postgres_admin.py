"""An operator's commands on a PostgreSQL store: ``memory doctor`` (every row re-hashed; a row
changed, removed or unregistered in SQL is reported), ``memory stats`` (the JSONL command's
counts, computed by the server), ``memory build`` (nothing to build, said plainly), and the
policies pinned in the database (a newer default or ``$MEMORY_CONFIG`` does not change a
store's rules until ``memory init --accept-policies``).

Skips with the reason when no PostgreSQL or no psycopg is available (tests/pg.py).
"""
from __future__ import annotations

import hashlib
import json

import pytest
from click.testing import CliRunner

from memory import paths
from memory.cli import main

from helpers import config_copy
from pg import fresh_schema_url

T1, T2 = "2024-03-01T12:00:00Z", "2024-04-01T12:00:00Z"


def run_json(store: str, *args, now: str = T1, env: dict | None = None):
    result = CliRunner().invoke(main, ["--store", store, *args, "--json"], env={"MEMORY_NOW": now, **(env or {})},
                                catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout)


def sql(url: str, statement: str, params: tuple = ()):
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else cursor.rowcount


def a_history(store: str) -> None:
    """Two users; an update (one transaction, two revisions), a forget and an erasure."""
    assert run_json(store, "init")[0] == 0
    for user, statement, key, tx in [("u1", "The user lives in Berlin.", "user.home_city", "tx-berlin"),
                                     ("u1", "The user drinks oolong tea.", "user.drink", "tx-tea"),
                                     ("u1", "The user's locker code is 4411.", "user.locker", "tx-locker"),
                                     ("u2", "The user has a cat.", "user.pet", "tx-cat")]:
        code, out = run_json(store, "add", statement, "--user", user, "--key", key, "--tx", tx)
        assert (code, out["status"]) == (0, "applied"), out
    assert run_json(store, "update", "The user lives in Lisbon.", "--user", "u1", "--key", "user.home_city",
                    "--tx", "tx-lisbon", now=T2)[1]["status"] == "applied"
    assert run_json(store, "forget", "--user", "u1", "--key", "user.drink", "--tx", "tx-forget", now=T2)[1][
        "status"] == "applied"
    assert run_json(store, "erase", "--user", "u1", "--key", "user.locker", "--tx", "tx-erase", now=T2)[1][
        "status"] == "applied"


@pytest.fixture
def url():
    return fresh_schema_url()


@pytest.fixture
def history(url):
    a_history(url)
    return url


# -- doctor ---------------------------------------------------------------------------------

def test_doctor_on_a_clean_store_reports_what_the_jsonl_doctor_reports(history, tmp_path):
    folder = str(tmp_path / "folder")
    a_history(folder)
    assert run_json(history, "doctor") == run_json(folder, "doctor") == (
        0, {"clean": True, "scopes": 2, "revisions": 6, "problems": [], "repaired": []})
    assert run_json(history, "doctor", "--repair") == run_json(history, "doctor")


def test_a_row_changed_in_sql_is_reported_and_exits_7(history):
    assert sql(history, "UPDATE revisions SET line = convert_to(replace(convert_from(line, 'UTF8'), "
                        "'Lisbon', 'Lisbom'), 'UTF8') WHERE convert_from(line, 'UTF8') LIKE '%%Lisbon%%'") == 1
    code, report = run_json(history, "doctor")
    assert code == 7 and report["clean"] is False
    assert [p["code"] for p in report["problems"]] == ["record_hash_mismatch"]
    assert "Lisbo" not in json.dumps(report)                        # content never reaches the report
    code, repaired = run_json(history, "doctor", "--repair")        # nothing a crash explains: kept
    assert code == 7 and repaired["problems"] == report["problems"] and repaired["repaired"] == []


def test_a_row_removed_from_a_transaction_breaks_its_group(history):
    assert sql(history, "DELETE FROM revisions WHERE transaction_id = 'tx-lisbon' AND seq = "
                        "(SELECT min(seq) FROM revisions WHERE transaction_id = 'tx-lisbon')") == 1
    code, report = run_json(history, "doctor")
    assert code == 7 and "transition_chain_broken" in {p["code"] for p in report["problems"]}


def test_an_unregistered_transaction_and_a_changed_column_are_reported(history):
    assert sql(history, "DELETE FROM transactions WHERE transaction_id = 'tx-cat'") == 1
    assert sql(history, "UPDATE revisions SET record_id = 'mem_x' WHERE transaction_id = 'tx-tea' AND seq = "
                        "(SELECT min(seq) FROM revisions WHERE transaction_id = 'tx-tea')") == 1
    code, report = run_json(history, "doctor")
    assert code == 7
    assert sorted(p["code"] for p in report["problems"]) == ["row_columns_mismatch", "transaction_unregistered"]


def test_accept_tampered_is_not_supported_on_postgres(history):
    code, out = run_json(history, "doctor", "--repair", "--accept-tampered")
    assert code == 7 and out["error"]["code"] == "not_supported"


# -- stats and build --------------------------------------------------------------------------

def test_stats_counts_what_the_jsonl_stats_counts(history, tmp_path):
    folder = str(tmp_path / "folder")
    a_history(folder)
    code, on_pg = run_json(history, "stats")
    _, on_jsonl = run_json(folder, "stats")
    assert code == 0

    def counts(stats: dict) -> dict:
        drop = {"store", "index", "per_scope"}
        return {k: v for k, v in stats.items() if k not in drop} | {"per_scope": [
            {k: v for k, v in s.items() if k not in ("index", "boot_view")} for s in stats["per_scope"]]}
    assert counts(on_pg) == counts(on_jsonl)
    assert (on_pg["records"], on_pg["erasures"], on_pg["last_write"]) == (4, 1, T2)
    assert on_pg["index"] == {"fresh": 0, "stale": 0, "missing": 0, "not_saved": 2}
    assert {s["index"] for s in on_pg["per_scope"]} == {"not_saved"}


def test_build_says_there_is_nothing_to_build_and_writes_nothing(history):
    before = sql(history, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")
    code, out = run_json(history, "build")
    assert code == 0 and out["built"] == [] and out["scopes"] == 2
    assert "keeps no derived files" in out["message"]
    assert sql(history, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1") == before


# -- policies pinned in the database -------------------------------------------------------------

def added_status(store: str, statement: str, key: str) -> str:
    code, out = run_json(store, "add", statement, "--user", "me", "--key", key)
    assert code == 0, out
    return run_json(store, "get", out["record_id"], "--user", "me")[1]["status"]


def pinned(url: str) -> dict:
    return {name: bytes(data) for name, data in sql(url, "SELECT name, bytes FROM policies")}


def test_init_pins_the_policy_files_in_the_database(url):
    code, out = run_json(url, "init")
    assert code == 0
    files = pinned(url)
    assert set(files) == set(out["policy_sha256"])
    for name, data in files.items():
        assert data == (paths.DEFAULT_CONFIG_DIR / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == out["policy_sha256"][name]


def test_new_defaults_do_not_change_a_postgres_store_until_accept_policies(url, newer_defaults):
    upgrade, folder = newer_defaults
    assert run_json(url, "init")[0] == 0
    upgrade()
    assert added_status(url, "The user likes tea.", "user.drink") == "active"        # the pinned rules
    assert run_json(url, "init")[0] == 0                                              # init again: kept
    assert added_status(url, "The user likes go.", "user.game") == "active"
    assert run_json(url, "doctor")[1]["clean"] is True
    code, out = run_json(url, "init", "--accept-policies")
    assert code == 0
    assert pinned(url)["mutation-policy.json"] == (folder / "mutation-policy.json").read_bytes()
    assert added_status(url, "The user likes chess.", "user.hobby") == "candidate"   # the adopted rules
    assert run_json(url, "doctor")[1]["clean"] is True


def test_a_store_made_with_memory_config_keeps_those_rules_without_it(url, tmp_path):
    config = config_copy(tmp_path / "config")
    path = config / "mutation-policy.json"
    policy = json.loads(path.read_text())
    policy["sources"]["explicit_user"]["operations"]["add"] = "admit_candidate"
    path.write_text(json.dumps(policy))
    assert run_json(url, "init", env={"MEMORY_CONFIG": str(config)})[0] == 0
    assert added_status(url, "The user likes tea.", "user.drink") == "candidate"


def test_memory_config_wins_over_the_pinned_copy_and_doctor_says_it_differs(url, tmp_path):
    assert run_json(url, "init")[0] == 0
    config = config_copy(tmp_path / "config")
    path = config / "mutation-policy.json"
    path.write_text(path.read_text().replace('"statement_bytes": 16384', '"statement_bytes": 16000'))
    code, report = run_json(url, "doctor", env={"MEMORY_CONFIG": str(config)})
    assert code == 7 and [(p["code"], p["where"]) for p in report["problems"]] == [
        ("policy_drift", "config/mutation-policy.json")]


def test_where_names_the_tables_on_a_url(url):
    assert run_json(url, "init")[0] == 0
    code, where = run_json(url, "where")
    assert code == 0 and where["store"] == url
    roles = {entry["path"]: entry["role"] for entry in where["files"]}
    assert roles["table revisions"] == "source_of_truth" and roles["table policies"] == "source_of_truth"
    assert not any("shards/" in path for path in roles)
    assert where["policies"] == "table policies (in the database)"


def test_a_version_1_store_is_migrated_and_pinned_by_init():
    """A store made before the policies table: it works on the defaults, doctor says nothing is
    pinned, and ``memory init`` adds the table (migration 2) and pins the policies."""
    import psycopg
    url = fresh_schema_url(laid_out=False)   # laid out here, as version 1 did

    from memory.postgres_ledger import _migration_v1, mark_migrated
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in _migration_v1(4):
            conn.execute(statement)
        mark_migrated(conn, version=1, partitions=4, now=T1)
    assert added_status(url, "The user likes tea.", "user.drink") == "active"
    code, report = run_json(url, "doctor")
    assert code == 7 and {p["code"] for p in report["problems"]} == {"policy_drift"}
    assert run_json(url, "init")[0] == 0
    assert sql(url, "SELECT max(version) FROM memory_schema") == [(2,)]
    assert set(pinned(url)) == {"mutation-policy.json", "forgetting-policy.json", "retrieval-policy.json"}
    assert run_json(url, "doctor") == (0, {"clean": True, "scopes": 1, "revisions": 1, "problems": [],
                                           "repaired": []})
