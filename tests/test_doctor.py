"""doctor: every check can fire, repair fixes only what is safe, a clean store stays clean."""
from __future__ import annotations

import json

import pytest

from memory.store import erasure as store_erasure
from memory.doctor import REPAIRABLE, check_store
from memory.indexing import open_index
from memory.jsonio import canonical_bytes, dumps, loads_strict
from memory.paths import PROJECT_ROOT
from memory.records import seal
from memory.store import Store

from helpers import add_env, all_bytes, by_id, config_copy, load_tool, make_store, reopen, scope, shard_of, update_env


def applied(store, env) -> dict:
    result = store.mutate(env)
    assert result["status"] == "applied", result
    return result


def codes(report) -> set[str]:
    return {p["code"] for p in report.problems}


@pytest.fixture
def written(store):
    """alice: an add, an update (2-line group), a retire; bob: one add."""
    home = applied(store, add_env("The user lives in Paris.", "user.home_city", "tx-home",
                                  valid_from="2021-01-01T00:00:00Z"))["record_id"]
    store.clock.set("2024-03-02T00:00:00Z")
    rome = applied(store, update_env("The user lives in Rome.", "tx-rome", key="user.home_city"))["record_id"]
    tea = applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))["record_id"]
    store.clock.set("2024-03-03T00:00:00Z")
    applied(store, by_id("retire", tea, "tx-retire"))
    applied(store, add_env("Bob plays the oboe.", "user.music", "tx-bob", user="bob"))
    return {"home": home, "rome": rome, "tea": tea}


def test_a_fresh_store_is_clean(store):
    assert check_store(store).to_json() == {"clean": True, "scopes": 0, "revisions": 0, "problems": [],
                                            "repaired": []}


def test_a_written_store_is_clean(store, written):
    report = check_store(reopen(store))
    assert report.to_json() == {"clean": True, "scopes": 2, "revisions": 6, "problems": [], "repaired": []}


def test_the_demo_store_is_clean(tmp_path):
    build = load_tool("build_demo").build
    steps = build(PROJECT_ROOT / "examples" / "demo-envelopes.jsonl", tmp_path / "demo")
    report = check_store(Store.open(tmp_path / "demo"))
    assert report.clean, report.problems
    assert report.scopes >= 1 and report.revisions >= steps


def test_the_committed_demo_store_is_clean_and_current(tmp_path):
    """data/ as a fresh clone has it (derived files are not committed): no drift from config/,
    and the same records as a rebuild from the committed envelopes (run tools/build_demo.py)."""
    import shutil
    shipped = tmp_path / "shipped"
    shutil.copytree(PROJECT_ROOT / "data", shipped, ignore=shutil.ignore_patterns("index", "views", ".lock"))
    # a git checkout cannot carry 0600 / 0700 modes: doctor flags them, and --repair tightens them
    report = check_store(Store.open(shipped), repair=True)
    assert report.clean, report.problems
    assert {p["code"] for p in report.repaired} <= {"mode_too_open"}
    assert check_store(Store.open(shipped)).clean
    rebuilt = tmp_path / "rebuilt"
    load_tool("build_demo").build(PROJECT_ROOT / "examples" / "demo-envelopes.jsonl", rebuilt)
    shards = lambda root: {p.relative_to(root): p.read_bytes() for p in (root / "shards").rglob("*.jsonl")}  # noqa: E731
    assert shards(shipped) == shards(rebuilt)


def test_repair_on_a_clean_store_changes_nothing(store, written):
    from helpers import snapshot
    before = snapshot(store.root)
    report = check_store(reopen(store), repair=True)
    assert report.clean and report.repaired == []
    assert snapshot(store.root) == before


# -- tampering is reported, never "fixed" -------------------------------------------

def test_a_flipped_byte_in_a_statement_is_a_hash_and_manifest_mismatch(store, written):
    path = shard_of(store)
    data = path.read_bytes()
    tampered = data.replace(b"lives in Rome", b"lives in Rume", 1)
    assert tampered != data
    path.write_bytes(tampered)
    report = check_store(reopen(store))
    assert {"record_hash_mismatch", "shard_altered"} <= codes(report)
    hash_problem = next(p for p in report.problems if p["code"] == "record_hash_mismatch")
    assert hash_problem["where"].endswith("000001.jsonl:2")
    assert "Rume" not in json.dumps(report.to_json())
    repaired = check_store(reopen(store), repair=True)
    assert "record_hash_mismatch" in codes(repaired)
    assert path.read_bytes() == tampered                 # the evidence is kept
    assert not check_store(reopen(store)).clean


@pytest.mark.parametrize("offset", [0, 10, 200, -2])
def test_any_flipped_byte_is_detected(store, written, offset):
    path = shard_of(store)
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))
    found = codes(check_store(reopen(store)))
    assert "shard_altered" in found
    assert found & {"record_hash_mismatch", "line_invalid", "record_schema_violation"}


def test_an_invalid_line_is_reported_and_not_cut(store, written):
    with open(shard_of(store), "ab") as handle:
        handle.write(b'{"not": "a record"}\nnot json at all\n')
    store.write_manifest(store.scope_dir(scope()))
    report = check_store(reopen(store), repair=True)
    assert {"record_schema_violation", "line_invalid"} <= codes(report)
    assert shard_of(store).read_bytes().endswith(b"not json at all\n")


def test_a_line_holding_a_lone_surrogate_is_an_invalid_line_not_a_crash(store, written):
    """A "\\ud800" escape parses as JSON, but no writer could encode or hash it: doctor crashed
    with a TypeError hashing such a line (found while making ``doctor --full`` stream, issue 14)."""
    path = shard_of(store)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(lines[0].replace(b'"statement":"', b'"statement":"\\ud800', 1) + b"".join(lines[1:]))
    store.write_manifest(store.scope_dir(scope()))
    report = check_store(reopen(store))
    assert [p["where"] for p in report.problems if p["code"] == "line_invalid"] == [f"shards/{path.parent.name}/{path.name}:1"]
    assert b"\\ud800" in path.read_bytes()


def test_an_edited_policy_is_policy_drift(tmp_path, monkeypatch):
    config = config_copy(tmp_path / "config")
    monkeypatch.setenv("MEMORY_CONFIG", str(config))
    store = make_store(tmp_path / "s")
    applied(store, add_env("The user likes tea.", "user.drink", "tx-1"))
    assert check_store(Store.open(store.root)).clean
    policy = config / "mutation-policy.json"
    policy.write_text(policy.read_text().replace('"statement_bytes": 16384', '"statement_bytes": 16000'))
    report = check_store(Store.open(store.root), repair=True)
    assert [(p["code"], p["where"]) for p in report.problems] == [("policy_drift", "config/mutation-policy.json")]
    Store.open(store.root).pin_policies()           # memory init --accept-policies
    assert check_store(Store.open(store.root)).clean


def _rewrite_line(store, number: int, edit) -> None:
    """Edit line ``number`` (1-based) of alice's shard, reseal it and rewrite the manifest: only the edit shows."""
    path = shard_of(store)
    lines = path.read_bytes().splitlines()
    revision = loads_strict(lines[number - 1])
    edit(revision)
    lines[number - 1] = canonical_bytes(seal(revision))
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    store.write_manifest(store.scope_dir(scope()))


def test_a_transition_that_does_not_join_its_neighbours_is_a_broken_chain(store, written):
    _rewrite_line(store, 3, lambda r: r["transition"].update(from_status="candidate"))   # home r2: active->retired
    report = check_store(reopen(store))
    assert codes(report) == {"transition_chain_broken"}


def test_a_skipped_revision_number_is_a_broken_chain(store, written):
    _rewrite_line(store, 3, lambda r: r.update(revision=3))
    assert codes(check_store(reopen(store))) == {"transition_chain_broken"}


def _drop_line(store, number: int) -> None:
    path = shard_of(store)
    lines = path.read_bytes().splitlines(keepends=True)
    del lines[number - 1]
    path.write_bytes(b"".join(lines))
    store.write_manifest(store.scope_dir(scope()))       # hide the edit from the manifest check


def test_a_missing_first_revision_is_a_broken_chain(store, written):
    _drop_line(store, 4)                                  # tea r1: its retire (r2) now follows nothing
    assert codes(check_store(reopen(store))) == {"transition_chain_broken"}


def test_a_line_removed_from_a_group_mid_log_is_a_broken_chain(store, written):
    _drop_line(store, 3)                                  # home r2, the second line of the update's group
    report = check_store(reopen(store), repair=True)
    assert codes(report) == {"transition_chain_broken"}


def test_a_record_filed_under_another_scope(store, written):
    alice_line = shard_of(store).read_bytes().splitlines(keepends=True)[0]
    with open(shard_of(store, "bob"), "ab") as handle:
        handle.write(alice_line)
    store.write_manifest(store.scope_dir(scope("bob")))
    assert "record_scope_mismatch" in codes(check_store(reopen(store)))


# -- what repair fixes ---------------------------------------------------------------

def test_a_missing_manifest_is_kept_as_evidence_until_the_operator_accepts(store, written):
    # a scope's manifest is written before its first shard: no crash leaves shards without one
    (store.scope_dir(scope()) / "manifest.json").unlink()
    assert codes(check_store(reopen(store), repair=True)) == {"manifest_missing"}
    assert not (store.scope_dir(scope()) / "manifest.json").exists()
    report = check_store(reopen(store), repair=True, accept_tampered=True)
    assert report.problems == [] and {p["code"] for p in report.repaired} == {"manifest_missing"}
    assert check_store(reopen(store)).clean


def test_a_garbled_manifest_is_rewritten_only_when_the_operator_accepts(store, written):
    (store.scope_dir(scope()) / "manifest.json").write_bytes(b"{garbage")
    assert codes(check_store(reopen(store))) == {"manifest_invalid"}
    assert codes(check_store(reopen(store), repair=True)) == {"manifest_invalid"}
    assert check_store(reopen(store), repair=True, accept_tampered=True).problems == []
    assert check_store(reopen(store)).clean


def test_an_unlisted_shard_is_listed_and_a_vanished_one_is_reported(store, written):
    directory = store.scope_dir(scope())
    manifest = loads_strict((directory / "manifest.json").read_bytes())
    manifest["shards"]["000009.jsonl"] = manifest["shards"].pop("000001.jsonl")
    (directory / "manifest.json").write_bytes(dumps(manifest))
    assert {"shard_unlisted", "shard_missing"} <= codes(check_store(reopen(store)))


def test_a_stale_index_is_reported_and_dropped(store, written):
    open_index(store, scope())
    meta_path = store.layout.index_dir(store.scope_dir(scope()).name) / "index.meta.json"
    meta = loads_strict(meta_path.read_bytes())
    meta["cursor"] = {"000001.jsonl": 10 ** 9}
    meta_path.write_bytes(dumps(meta))
    report = check_store(reopen(store), repair=True)
    assert report.problems == [] and [p["code"] for p in report.repaired] == ["derived_stale"]
    assert not meta_path.exists()
    assert check_store(reopen(store)).clean


def test_a_fresh_index_is_not_stale(store, written):
    open_index(store, scope())
    assert check_store(reopen(store)).clean


def test_an_erasure_interrupted_before_the_rewrite_is_reported_and_completed(store, written, monkeypatch):
    monkeypatch.setattr(store_erasure, "remove", lambda scope_dir, doomed: None)   # crash after the audit row
    applied(store, by_id("erase", written["tea"], "tx-erase"))
    monkeypatch.undo()
    assert b"likes tea" in all_bytes(store.root)
    assert reopen(store).state(scope()).current(written["tea"]) is None       # hidden from reads meanwhile
    assert "erasure_incomplete" in codes(check_store(reopen(store)))
    report = check_store(reopen(store), repair=True)
    assert report.problems == []
    assert b"likes tea" not in all_bytes(store.root)
    assert check_store(reopen(store)).clean


def test_a_missing_store_marker(store, written):
    store.layout.marker.unlink()
    assert "store_marker_invalid" in codes(check_store(store))


def test_every_reported_code_is_either_repairable_or_kept():
    assert REPAIRABLE <= {"torn_tail", "incomplete_transaction", "manifest_mismatch", "derived_stale",
                          "erasure_incomplete", "stray_temporary", "mode_too_open"}
    # what no crash produces is kept as evidence (store.integrity)
    assert not REPAIRABLE & {"manifest_missing", "manifest_invalid", "shard_unlisted", "shard_missing",
                             "shard_altered", "shard_truncated"}
    assert "record_hash_mismatch" not in REPAIRABLE and "policy_drift" not in REPAIRABLE


# -- memory doctor re-verifies only what changed since its last clean run ------------------------

def _edit_bytes(store, old: bytes, new: bytes) -> None:
    """Change content in place, same length, no reseal; the manifest rewritten to hide it."""
    path = shard_of(store)
    data = path.read_bytes()
    assert old in data and len(old) == len(new)
    path.write_bytes(data.replace(old, new))
    store.write_manifest(store.scope_dir(scope()))


def _lines_checked(monkeypatch) -> list:
    import memory.doctor as doctor_module
    seen = []
    real = doctor_module._check_line
    monkeypatch.setattr(doctor_module, "_check_line", lambda line, *a: seen.append(line) or real(line, *a))
    return seen


def test_an_incremental_run_checks_only_the_new_lines(store, written, monkeypatch):
    first = check_store(reopen(store), full=False)
    assert first.clean and first.revisions == 6
    applied(store, add_env("The user has a cat.", "user.pet", "tx-cat"))
    seen = _lines_checked(monkeypatch)
    report = check_store(reopen(store), full=False)
    assert report.to_json() == {"clean": True, "scopes": 2, "revisions": 7, "problems": [], "repaired": []}
    assert len(seen) == 1 and b"has a cat" in seen[0]


def test_an_incremental_run_reports_a_bad_new_line(store, written):
    assert check_store(reopen(store), full=False).clean
    applied(store, add_env("The user has a cat.", "user.pet", "tx-cat"))
    _edit_bytes(store, b"has a cat", b"has a dog")        # the new line: its hash no longer holds
    assert "record_hash_mismatch" in codes(check_store(reopen(store), full=False))


def test_an_edit_to_verified_bytes_sends_the_scope_to_a_full_check(store, written):
    assert check_store(reopen(store), full=False).clean
    _edit_bytes(store, b"lives in Paris", b"lives in Nice.")  # bytes the last run verified
    assert "record_hash_mismatch" in codes(check_store(reopen(store), full=False))


def test_an_incremental_run_hashes_again_only_shards_changed_since_the_clean_run(store, written, monkeypatch):
    """The integrity check of an incremental run skips a sealed shard whose size, inode, change time
    and manifest hash are those the last clean run verified (issue 14: it re-hashed every shard);
    an edit of a sealed shard with its modification time set back is still found."""
    import hashlib
    import os
    store.shard_max_bytes = 600          # every group in a shard of its own: sealed shards
    for i in range(4):
        applied(store, add_env(f"The user visited city number {i}.", f"user.visit_{i}", f"tx-v{i}"))
    assert check_store(reopen(store), full=False).clean
    hashed = []
    real = hashlib.sha256
    monkeypatch.setattr(hashlib, "sha256", lambda data=b"": hashed.append(bytes(data)) or real(data))
    assert check_store(reopen(store), full=False).clean
    shards = store.shard_paths(scope())
    assert len(shards) > 3 and not {p.read_bytes() for p in shards[:-1]} & set(hashed)
    monkeypatch.undo()
    sealed = shards[1]
    before = sealed.stat()
    data = sealed.read_bytes()
    sealed.write_bytes(data.replace(b"visited", b"visitex", 1))
    os.utime(sealed, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert {"shard_altered", "record_hash_mismatch"} & codes(check_store(reopen(store), full=False))


def test_a_scope_with_a_problem_is_not_recorded_as_clean(store, written):
    _edit_bytes(store, b"lives in Paris", b"lives in Nice.")
    assert "record_hash_mismatch" in codes(check_store(reopen(store), full=False))
    assert "record_hash_mismatch" in codes(check_store(reopen(store), full=False))   # still, next time


def test_the_full_check_writes_nothing(store, written):
    from helpers import snapshot
    before = snapshot(store.root)
    assert check_store(reopen(store), full=True).clean
    assert snapshot(store.root) == before
