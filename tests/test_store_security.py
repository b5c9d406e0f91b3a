"""Issue 16, store side: crash-safe erasure (a real kill -9), tamper evidence that survives
the next write, queries that never serve tampered records, I/O errors named, private modes."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import add_env, all_bytes, by_id, cli_env, make_store, pinned_config, reopen, scope, shard_of  # noqa: F401
from memory.doctor import check_store
from memory.errors import StoreError
from memory.query import QueryRequest, run_query

NOW = "2024-06-01T00:00:00Z"
REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.usefixtures("pinned_config")


def cli(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memory.cli", "--store", str(root), *args]


def run(root: Path, *args: str, input: str | None = None, preexec=None) -> subprocess.CompletedProcess:
    return subprocess.run(cli(root, *args), capture_output=True, text=True, env=cli_env(NOW), cwd=REPO,
                          input=input, preexec_fn=preexec)


@pytest.fixture
def store(tmp_path):
    store = make_store(tmp_path / "store")
    applied(store, add_env("The user lives in Rome.", "user.home_city", "tx-rome"))
    applied(store, add_env("The user likes oolong tea.", "user.drink", "tx-tea"))
    applied(store, add_env("The user plays chess.", "user.game", "tx-chess"))
    return store


def applied(store, env) -> dict:
    result = store.mutate(env)
    assert result["status"] == "applied", result
    return result


def rid(store, key: str, user: str = "alice") -> str:
    return next(r["id"] for r in store.state(scope(user)).currents() if r["memory_key"] == key)


# -- 1. a crash during an erase leaves no plaintext behind -------------------------------------

# a child process that erases and stops between writing the rewritten shard and renaming it
_PAUSED_ERASE = """
import sys, time
from pathlib import Path
import memory.jsonio as jsonio
flag = Path(sys.argv[1])
def pause(tmp, path):
    if Path(path).name.endswith(".jsonl") and Path(path).name[0].isdigit():
        Path(str(flag) + ".part").write_text(tmp)
        Path(str(flag) + ".part").rename(flag)      # the parent never reads it half written
        time.sleep(120)
jsonio._before_replace = pause
from memory.cli import main
main(sys.argv[2:], prog_name="memory")
"""


def kill_mid_erase(store, tmp_path, record_id: str) -> Path:
    flag = tmp_path / "paused"
    child = subprocess.Popen([sys.executable, "-c", _PAUSED_ERASE, str(flag), "--store", str(store.root),
                              "erase", record_id, "--user", "alice", "--reason", "asked", "--tx", "tx-erase"],
                             env=cli_env(NOW), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not flag.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert flag.exists(), child.communicate()
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    temporary = Path(flag.read_text())
    # the kill left the rewrite's temporary, and the erased content still in the shard it replaces
    assert temporary.exists() and b"oolong" in all_bytes(store.root)
    return temporary


def test_a_kill_mid_erase_leaves_a_temporary_the_next_write_removes(store, tmp_path):
    temporary = kill_mid_erase(store, tmp_path, rid(store, "user.drink"))
    assert "stray_temporary" in {p["code"] for p in check_store(reopen(store)).problems}
    assert run(store.root, "add", "--user", "alice", "--key", "user.pet", "The user has a cat.").returncode == 0
    assert not temporary.exists()
    assert b"oolong" not in all_bytes(store.root)
    assert check_store(reopen(store)).clean


def test_a_kill_mid_erase_is_completed_by_doctor_repair(store, tmp_path):
    temporary = kill_mid_erase(store, tmp_path, rid(store, "user.drink"))
    repaired = run(store.root, "doctor", "--repair", "--json")
    assert repaired.returncode == 0, repaired.stdout
    assert "stray_temporary" in {p["code"] for p in json.loads(repaired.stdout)["repaired"]}
    assert not temporary.exists() and b"oolong" not in all_bytes(store.root)
    assert check_store(reopen(store)).clean


def test_doctor_reports_a_file_it_does_not_account_for(store):
    (store.scope_dir(scope()) / "notes.txt").write_bytes(b"hello")
    found = check_store(reopen(store)).problems
    assert any(p["code"] == "file_unaccounted" and p["where"].endswith("notes.txt") for p in found)


# -- 2. tampering is kept as evidence; the next write refuses ---------------------------------

def _delete_middle(path: Path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:1] + lines[2:]))


def _swap(path: Path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([lines[1], lines[0]] + lines[2:]))


def _edit_rehashed(path: Path) -> None:
    from memory.records import seal
    lines = path.read_bytes().splitlines(keepends=True)
    record = json.loads(lines[1])
    record["statement"] = "The user likes coffee."
    record.pop("hash")
    lines[1] = json.dumps(seal(record), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    path.write_bytes(b"".join(lines))


@pytest.mark.parametrize("tamper", [_delete_middle, _swap, _edit_rehashed, Path.unlink],
                         ids=["line_deleted", "lines_swapped", "edited_rehashed", "shard_deleted"])
def test_tampering_refuses_the_next_write_and_stays_reported(store, tamper):
    path = shard_of(store)
    tamper(path)
    evidence = (path.parent / "manifest.json").read_bytes()
    added = run(store.root, "add", "--user", "alice", "--key", "user.pet", "The user has a cat.", "--json")
    assert added.returncode == 7, added.stdout + added.stderr
    assert json.loads(added.stdout)["error"]["code"] == "scope_tampered"
    assert (path.parent / "manifest.json").read_bytes() == evidence          # not rewritten over the evidence
    for _ in range(2):                                                        # repair keeps it too
        assert run(store.root, "doctor", "--repair").returncode == 7
    assert (path.parent / "manifest.json").read_bytes() == evidence
    accepted = run(store.root, "doctor", "--repair", "--accept-tampered")
    assert accepted.returncode in (0, 7)        # the operator's word: the manifest now follows the files
    assert run(store.root, "add", "--user", "alice", "--key", "user.pet", "The user has a cat.").returncode == 0


def test_a_crash_shaped_tail_is_still_repairable(store):
    path = shard_of(store)
    with open(path, "ab") as handle:
        handle.write(b'{"torn')
    assert run(store.root, "add", "--user", "alice", "--key", "user.pet", "The user has a cat.").returncode == 0
    assert check_store(reopen(store)).clean


# -- 3. a query never serves a tampered record --------------------------------------------------

def _query(store, user="alice", text="what does the user drink"):
    return run_query(reopen(store), QueryRequest(text=text, user=user))


@pytest.mark.parametrize("rehash", [False, True])
def test_a_hand_edited_statement_is_an_error_not_an_answer(store, rehash):
    path = shard_of(store)
    if rehash:
        _edit_rehashed(path)
    else:
        path.write_bytes(path.read_bytes().replace(b"oolong tea", b"black coffe", 1))
    with pytest.raises(StoreError) as caught:
        _query(store)
    assert caught.value.code == "scope_tampered"
    answered = run(store.root, "query", "--user", "alice", "what does the user drink", "--json")
    assert answered.returncode == 7 and "coffe" not in answered.stdout


def test_a_line_copied_from_another_users_shard_is_not_served(store):
    applied(store, add_env("The user (bob) keeps bees.", "user.hobby", "tx-bees", user="bob"))
    line = shard_of(store, "bob").read_bytes().splitlines(keepends=True)[0]
    with open(shard_of(store), "ab") as handle:      # past alice's manifest, as an append would be
        handle.write(line)
    with pytest.raises(StoreError) as caught:
        _query(store, text="what does the user keep")
    assert caught.value.code == "scope_tampered"


def test_a_warm_reader_notices_an_edit_made_by_another_process(store):
    held = reopen(store)
    assert "oolong" in json.dumps(run_query(held, QueryRequest(text="what does the user drink", user="alice")))
    path = shard_of(store)
    path.write_bytes(path.read_bytes().replace(b"oolong tea", b"black coffe", 1))
    with pytest.raises(StoreError):
        run_query(held, QueryRequest(text="what does the user drink", user="alice"))


# -- 7. I/O errors are named, and a failed write leaves nothing readable ------------------------

def _limit_file_size(limit: int):
    def apply():
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_file_size_limit_is_exit_7_efbig_and_leaves_nothing(store):
    path = shard_of(store)
    before = path.read_bytes()
    big = "The user wrote a long note. " + "word " * 3000
    added = run(store.root, "add", "--user", "alice", "--key", "user.note", big, "--json",
                preexec=_limit_file_size(len(before) + 100))
    assert added.returncode == 7, added.stdout + added.stderr
    error = json.loads(added.stdout)["error"]
    assert error["code"] == "io_error" and "EFBIG" in error["message"] and "word word" not in error["message"]
    assert path.read_bytes() == before                       # the partial append was cut
    assert check_store(reopen(store)).clean
    assert b"word word" not in all_bytes(store.root)


def test_an_injected_disk_full_is_exit_7_enospc(store, monkeypatch):
    """The machine has no small file system to fill: the fault is injected in the manifest write."""
    import errno

    from memory import api
    from memory.store import manifest as manifest_module
    path = shard_of(store)
    before = path.read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(path.parent / "manifest.json"))
    monkeypatch.setattr(manifest_module, "write_manifest", full)
    with pytest.raises(StoreError) as caught:
        api.add(reopen(store), "alice", "The user has a dog.", key="user.dog")
    monkeypatch.undo()
    assert caught.value.exit_code == 7 and "ENOSPC" in caught.value.message
    assert path.read_bytes() == before                       # reported failed, so not on disk
    assert check_store(reopen(store)).clean


# -- 9. private modes whatever the umask ------------------------------------------------------------

def test_every_file_is_0600_and_every_folder_0700_whatever_the_umask(tmp_path):
    old = os.umask(0o002)
    try:
        store = make_store(tmp_path / "loose")
        applied(store, add_env("The user lives in Rome.", "user.home_city", "tx-rome"))
        applied(store, by_id("erase", rid(store, "user.home_city"), "tx-erase"))
        applied(store, add_env("The user likes tea.", "user.drink", "tx-tea"))
        run_query(store, QueryRequest(text="what does the user drink", user="alice"))
    finally:
        os.umask(old)
    for path in [store.root, *store.root.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, (path, oct(mode))
    assert check_store(reopen(store)).clean
    os.chmod(store.root / "shards", 0o755)
    assert "mode_too_open" in {p["code"] for p in check_store(reopen(store)).problems}


# -- 11. an erase removes every copy; a warm reader never serves an erased record ------------------

def test_erasing_a_predecessor_removes_the_aliases_its_successor_inherited(tmp_path):
    from helpers import update_env
    store = make_store(tmp_path / "store")
    first = applied(store, add_env("The user's bank is Northwind.", "user.bank", "tx-bank",
                                   payload_extra={"aliases": ["Northwind savings"], "tags": ["Northwind"]}))
    store.clock.set("2024-07-01T00:00:00Z")
    second = applied(store, update_env("The user's bank is Contoso.", "tx-bank-2", key="user.bank"))
    successor = store.get(second["record_id"], scope())
    assert first["record_id"] in successor["supersession"]["supersedes"]
    assert "Northwind savings" in successor["aliases"]                    # inherited on update
    applied(store, by_id("erase", first["record_id"], "tx-erase"))
    assert b"Northwind" not in all_bytes(store.root)
    kept = reopen(store).get(second["record_id"], scope())
    assert kept["statement"] == "The user's bank is Contoso." and kept["aliases"] == [] and kept["tags"] == []
    assert check_store(reopen(store)).clean


def test_a_warm_reader_never_serves_a_record_erased_by_another_process(store):
    held = reopen(store)                       # one long-lived Store, as the server holds
    question = QueryRequest(text="what does the user drink", user="alice")
    assert "oolong" in json.dumps(run_query(held, question))
    tea = rid(store, "user.drink")
    erased = run(store.root, "erase", tea, "--user", "alice", "--reason", "asked")
    assert erased.returncode == 0, erased.stderr
    assert "oolong" not in json.dumps(run_query(held, question))
    answer = run_query(held, QueryRequest(text="oolong tea", user="alice"))
    assert tea not in json.dumps(answer) and "oolong" not in json.dumps(answer["evidence"] + answer["audit_only"])


def test_a_query_reading_while_an_erase_is_acknowledged_does_not_return_the_record(store, monkeypatch):
    """The erase lands between the query's read of the scope and its answer (injected there)."""
    import memory.query as query_module
    held = reopen(store)
    question = QueryRequest(text="what does the user drink", user="alice")
    assert "oolong" in json.dumps(run_query(held, question))         # warm view and index
    tea, other = rid(store, "user.drink"), reopen(store)
    opened = query_module.open_index

    def open_then_erase(*args, **kwargs):
        index = opened(*args, **kwargs)
        if other.state(scope()).current(tea) is not None:
            applied(other, by_id("erase", tea, "tx-erase-mid-query"))   # acknowledged now
        return index
    monkeypatch.setattr(query_module, "open_index", open_then_erase)
    answer = run_query(held, question)
    assert tea not in json.dumps(answer) and "oolong" not in json.dumps(answer)


# -- 7 on real file systems: a full tmpfs, a read-only remount (skipped where mount is not allowed) --

@pytest.fixture
def small_fs(tmp_path):
    """A tmpfs of 512 KiB mounted for the test (needs root and mount rights; else skipped)."""
    point = tmp_path / "fs"
    point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(point)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here: " + mounted.stderr.decode(errors="replace").strip())
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def _fill(point: Path) -> Path:
    filler = point / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError:
            pass
    return filler


def test_a_full_disk_is_exit_7_enospc_and_the_failed_add_is_not_served(small_fs):
    root = small_fs / "store"
    assert run(root, "init").returncode == 0
    assert run(root, "add", "--user", "alice", "--key", "user.drink", "The user likes tea.").returncode == 0
    filler = _fill(small_fs)
    added = run(root, "add", "--user", "alice", "--key", "user.note", "The user wrote " + "a long note " * 400, "--json")
    assert added.returncode == 7, added.stdout + added.stderr
    error = json.loads(added.stdout)["error"]
    assert error["code"] == "io_error" and "ENOSPC" in error["message"] and "long note" not in error["message"]
    filler.unlink()
    listed = run(root, "export", "--user", "alice")
    assert listed.returncode == 0 and "long note" not in listed.stdout and "likes tea" in listed.stdout
    assert run(root, "doctor").returncode == 0


def test_a_read_only_store_exports_and_refuses_writes_with_erofs(small_fs):
    root = small_fs / "store"
    assert run(root, "init").returncode == 0
    assert run(root, "add", "--user", "alice", "--key", "user.drink", "The user likes tea.").returncode == 0
    for lock in root.rglob(".lock"):
        lock.unlink()                                  # as a copy without its lock files would be
    assert subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], capture_output=True).returncode == 0
    exported = run(root, "export", "--user", "alice")
    assert exported.returncode == 0, exported.stderr
    assert "likes tea" in exported.stdout
    added = run(root, "add", "--user", "alice", "--key", "user.pet", "The user has a cat.", "--json")
    assert added.returncode == 7, added.stdout + added.stderr
    assert "EROFS" in json.loads(added.stdout)["error"]["message"]


def test_a_cold_reader_trusts_its_saved_verification_only_while_the_change_time_holds(store, monkeypatch):
    from memory.store import core
    monkeypatch.setattr(core, "SAVE_KNOWN_AFTER", 0)   # saved however small the scope
    _query(store)                                      # verifies and saves what it verified
    assert (store.root / "current" / store.scope_dir(scope()).name / "verified.json").exists()
    path = shard_of(store)
    st = path.stat()
    data = path.read_bytes()
    with open(path, "r+b") as handle:                  # same size, same inode, mtime set back
        handle.write(data.replace(b"oolong tea", b"black coffe", 1))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    with pytest.raises(StoreError) as caught:
        _query(store)
    assert caught.value.code == "scope_tampered"


def test_the_next_write_removes_a_dead_readers_temporary_but_not_a_live_one(store):
    import fcntl
    _query(store)
    derived = store.root / "current" / store.scope_dir(scope()).name
    derived.mkdir(parents=True, exist_ok=True)        # (a small scope's view is not saved)
    dead, live = derived / ".current.bin.dead.tmp", derived / ".current.bin.live.tmp"
    dead.write_bytes(b"ids of records")
    live.write_bytes(b"being written")
    with open(live, "rb") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)     # as atomic_write holds its temporary
        applied(store, add_env("The user has a cat.", "user.pet", "tx-cat"))
        assert not dead.exists() and live.exists()


def test_the_server_answers_503_for_a_tampered_scope(store):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from memory.server import create_app, load_tokens
    tokens = store.root.parent / "tokens.json"
    tokens.write_text(json.dumps({"tok-admin-test": "*"}))
    path = shard_of(store)
    path.write_bytes(path.read_bytes().replace(b"oolong tea", b"black coffe", 1))
    client = TestClient(create_app(reopen(store), tokens=load_tokens(tokens)))
    answer = client.post("/v1/query", json={"text": "what does the user drink", "user": "alice"},
                         headers={"Authorization": "Bearer tok-admin-test"})
    assert answer.status_code == 503 and answer.json()["error"]["code"] == "scope_tampered"
    assert "coffe" not in answer.text
