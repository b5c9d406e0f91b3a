"""`memory stats`: counts by status and kind, scopes, last write, derived-file freshness."""
from __future__ import annotations

import json

from click.testing import CliRunner

from memory import bootview
from memory.cli import main
from memory.indexing import open_index
from memory.paths import scope_digest
from memory.stats import store_stats

from helpers import add_env, envelope, scope, update_env

LATER = "2024-03-05T09:00:00Z"


def seed(store) -> None:
    store.mutate(add_env("The user lives in Paris.", "user.home_city", "paris", valid_from="2021-01-01T00:00:00Z"))
    store.mutate(add_env("Said hello.", None, "turn", kind="episode"))
    store.mutate(envelope("add", "guess", key="user.pet", source="model_inference", actor="agent",
                          payload={"kind": "preference", "statement": "The user has a cat."}))
    store.clock.set(LATER)
    store.mutate(update_env("The user lives in Berlin.", "berlin", key="user.home_city",
                            valid_from="2024-01-01T00:00:00Z"))
    store.mutate(add_env("Bob lives in Rome.", "user.home_city", "rome", user="bob"))


def per_scope(stats: dict, user: str) -> dict:
    digest = scope_digest("user", user)
    return next(s for s in stats["per_scope"] if s["scope_digest"] == digest)


def test_counts_by_status_and_kind(store):
    seed(store)
    stats = store_stats(store)
    assert stats["scopes"] == 2 and stats["records"] == 5 and stats["revisions"] == 6
    assert stats["by_status"] == {"candidate": 1, "active": 3, "disputed": 0, "retired": 1, "rejected": 0}
    assert {k: v for k, v in stats["by_kind"].items() if v} == {"fact": 3, "episode": 1, "preference": 1}
    alice = per_scope(stats, "alice")
    assert alice["records"] == 4 and alice["scope"] == scope() and alice["by_status"]["retired"] == 1


def test_last_write_is_the_latest_recorded_time(store):
    assert store_stats(store)["last_write"] is None
    seed(store)
    assert store_stats(store)["last_write"] == LATER
    assert per_scope(store_stats(store), "alice")["last_write"] == LATER


def test_an_erasure_counts_as_a_write_and_leaves_no_content(store):
    seed(store)
    store.clock.set("2024-04-01T00:00:00Z")
    store.mutate(envelope("erase", "wipe", user="bob", whole_scope=True))
    stats = store_stats(store)
    bob = per_scope(stats, "bob")
    assert bob["scope"] is None and bob["records"] == 0 and bob["erasures"] == 1
    assert bob["last_write"] == stats["last_write"] == "2024-04-01T00:00:00Z"


def test_index_freshness_per_scope(store):
    seed(store)
    assert store_stats(store)["index"] == {"fresh": 0, "stale": 0, "missing": 2}
    open_index(store, scope("alice"))
    stats = store_stats(store)
    assert per_scope(stats, "alice")["index"] == "fresh" and per_scope(stats, "bob")["index"] == "missing"
    store.mutate(add_env("The user likes jazz.", "user.music", "jazz"))
    assert per_scope(store_stats(store), "alice")["index"] == "stale"
    open_index(store, scope("alice"))
    assert store_stats(store)["index"] == {"fresh": 1, "stale": 0, "missing": 1}


def test_boot_view_freshness_per_scope(store):
    seed(store)
    assert per_scope(store_stats(store), "alice")["boot_view"] == "missing"
    bootview.write_view(store, scope())
    assert per_scope(store_stats(store), "alice")["boot_view"] == "fresh"
    store.mutate(add_env("The user likes jazz.", "user.music", "jazz"))
    assert per_scope(store_stats(store), "alice")["boot_view"] == "stale"
    bootview.write_view(store, scope())
    bootview.view_path(store, scope_digest("user", "alice")).write_bytes(b"[]")
    assert per_scope(store_stats(store), "alice")["boot_view"] == "tampered"


def test_cli_json_is_the_library_object_and_text_holds_no_content(store):
    seed(store)
    result = CliRunner().invoke(main, ["stats", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout) == store_stats(store)
    text = CliRunner().invoke(main, ["stats"])
    assert text.exit_code == 0
    assert "2 scope(s), 5 record(s), 6 revision(s)" in text.stdout
    assert "by status: candidate 1, active 3, retired 1" in text.stdout
    for statement in ("Paris", "Berlin", "Rome", "cat", "hello"):
        assert statement not in text.stdout and statement not in result.stdout


def test_stats_on_an_empty_store(store):
    stats = store_stats(store)
    assert (stats["scopes"], stats["records"], stats["last_write"], stats["per_scope"]) == (0, 0, None, [])
