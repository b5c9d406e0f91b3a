"""An operator: a full disk (a clear error, nothing half-made that blocks a rerun once space returns), a tokens file."""
from __future__ import annotations

import errno
import json

import pytest
from click.testing import CliRunner

from memory import policy
from memory.cli import main


def run(store: str, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["--store", store, *args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_init_cut_short_by_a_full_disk_is_rerun_once_space_returns(tmp_path, monkeypatch):
    """A full disk during init left policies/ with one file and no store.json; after space returned,
    every command, init included, read that partial copy as the store's policies: exit 4
    policy_invalid ("policy file missing"), and the store could not be made without rm -rf."""
    root = str(tmp_path / "store")
    real_write, written = policy.atomic_write, []

    def disk_fills(path, data):
        if written:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        written.append(path)
        real_write(path, data)

    monkeypatch.setattr(policy, "atomic_write", disk_fills)
    code, out = run(root, "init")
    assert (code, out["error"]["code"]) == (7, "io_error") and out["error"]["message"].startswith("ENOSPC")
    assert len(list((tmp_path / "store" / "policies").iterdir())) == 1     # what the full disk left

    monkeypatch.setattr(policy, "atomic_write", real_write)
    assert run(root, "add", "The user lives in Paris.", "--user", "me", "--key", "user.home_city")[1]["error"]["code"] \
        == "store_not_found"
    code, out = run(root, "init")
    assert code == 0 and len(out["policy_sha256"]) == 3
    assert run(root, "add", "The user lives in Paris.", "--user", "me", "--key", "user.home_city")[1]["status"] == "applied"
    code, report = run(root, "doctor", "--full")
    assert code == 0 and report["clean"] and "notices" not in report


def test_a_full_disk_half_way_through_an_import_says_how_far_it_got(tmp_path, monkeypatch):
    """The import exited 7 with only "ENOSPC: the disk is full": the operator could not tell whether
    anything landed. What is durable is counted, as a Ctrl-C does, and the rerun finishes the job."""
    from memory.store import core
    dataset = tmp_path / "locomo.json"
    turns = [{"speaker": "Ann", "dia_id": f"D1:{i}", "text": f"Turn number {i} about kites."} for i in range(1, 7)]
    dataset.write_text(json.dumps([{"sample_id": "conv-1", "qa": [], "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": turns}}]))
    root = str(tmp_path / "store")
    real_apply = core.Store.apply

    def disk_fills_after_one_batch(self, envelopes, *, batch_size=500, progress=None):
        yield from real_apply(self, list(envelopes)[:4], batch_size=batch_size, progress=progress)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(core.Store, "apply", disk_fills_after_one_batch)
    result = CliRunner().invoke(main, ["--store", root, "import", "locomo", str(dataset)])
    assert result.exit_code == 7 and "ENOSPC" in result.stderr
    assert "stopped: locomo turns imported: 4 of 6 done" in result.stderr, result.stderr
    monkeypatch.setattr(core.Store, "apply", real_apply)
    code, out = run(root, "import", "locomo", str(dataset))
    assert code == 0 and (out["applied"], out["idempotent"]) == (2, 4), out


@pytest.mark.parametrize("mode, warned", [(0o644, True), (0o600, False)])
def test_serve_warns_when_other_users_can_read_the_tokens_file(tmp_path, monkeypatch, store, mode, warned):
    """The tokens are the server's only credentials; a 0644 tokens file started without a word."""
    pytest.importorskip("fastapi")
    import uvicorn
    from memory import server
    tokens = tmp_path / "tokens.json"
    tokens.write_text('{"tok-0123456789abcdef": ["alice"]}')
    tokens.chmod(mode)
    said = []
    monkeypatch.setattr(server.LOG, "warning", lambda message, *args: said.append(message % args))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: [s.close() for s in sockets])
    server.serve(store, host="127.0.0.1", port=0, tokens_file=tokens)
    assert any("chmod 600" in line and "0644" in line for line in said) is warned, said
    assert not any("tok-0123456789abcdef" in line for line in said)


def test_the_readme_first_command_away_from_the_checkout_says_where_the_demo_store_is(tmp_path, monkeypatch):
    """A newcomer with the wheel ran the README's first command in their home folder and was told
    `run: memory --store data init`: an empty store named data, not the demo the README promised."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MEMORY_STORE")
    result = CliRunner().invoke(main, ["query", "where does the user live?", "--user", "demo"])
    assert result.exit_code == 7 and "store_not_found" in result.stderr
    assert "the demo store is in the source checkout" in result.stderr and "memory init" in result.stderr
    named = CliRunner().invoke(main, ["--store", "elsewhere", "query", "where?", "--user", "demo"])
    assert named.exit_code == 7 and "run: memory --store elsewhere init" in named.stderr
    assert not (tmp_path / "data").exists()
