"""A failed `memory import jsonl` writes nothing: a bad, empty, truncated or tampered file, or an
interrupted restore, leaves no store folder behind when the import was to create it, and an
existing store exactly as it was."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import add_env, make_store, snapshot
from memory import api, portability
from memory.cli import main
from memory.store import Store


@pytest.fixture
def export_file(tmp_path) -> Path:
    source = make_store(tmp_path / "source")
    for n, city in enumerate(("Paris", "Berlin")):
        source.mutate(add_env(f"The user lived in {city}.", f"user.city_{n}", f"tx-{n}"))
    path = tmp_path / "alice.jsonl"
    api.export(source, "alice", output=path)
    return path


def _tampered(export_file: Path) -> bytes:
    """The export with one statement changed and its end line recomputed: only the record hash tells."""
    export = portability.parse(export_file.read_bytes())
    export.revisions[0]["statement"] = "The user lived in Rome."
    return portability.render(export)


def _bad_files(export_file: Path) -> dict[str, bytes]:
    lines = export_file.read_bytes().splitlines(keepends=True)
    return {"not an export": b'{"hello": "world"}\n', "empty": b"", "not json": b"\x00\xff garbage",
            "truncated": b"".join(lines[:-1]), "tampered": _tampered(export_file)}


def importing(store: Path, path: Path, *extra: str):
    return CliRunner().invoke(main, ["--store", str(store), "import", "jsonl", str(path), *extra])


@pytest.mark.parametrize("damage", ["not an export", "empty", "not json", "truncated", "tampered"])
def test_a_failed_import_into_a_new_store_leaves_no_folder(tmp_path, export_file, damage):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(_bad_files(export_file)[damage])
    target = tmp_path / "new" / "deeper" / "store"
    result = importing(target, bad, "--json")
    assert result.exit_code == 3 and json.loads(result.stdout)["error"]["code"] == "export_invalid"
    assert not (tmp_path / "new").exists()


def test_an_interrupted_import_into_a_new_store_leaves_no_folder(tmp_path, export_file, monkeypatch):
    target = tmp_path / "new-store"
    real = Store.write_manifest

    def interrupted(self, where, **kw):  # the target's lines are on disk, its manifest not yet
        if Path(self.root) == target:
            raise KeyboardInterrupt
        return real(self, where, **kw)
    monkeypatch.setattr(Store, "write_manifest", interrupted)
    result = importing(target, export_file)
    assert result.exit_code == 130
    assert not target.exists()


def test_a_failed_import_into_an_existing_store_leaves_it_as_it_was(tmp_path, export_file):
    existing = make_store(tmp_path / "existing")
    existing.mutate(add_env("Bob lives in Oslo.", "user.home_city", "tx-bob", user="bob"))
    before = snapshot(existing.root)
    for damage, data in _bad_files(export_file).items():
        bad = tmp_path / "bad.jsonl"
        bad.write_bytes(data)
        assert importing(existing.root, bad).exit_code == 3, damage
        assert snapshot(existing.root) == before, damage


def test_a_failed_import_into_an_empty_folder_leaves_it_empty(tmp_path, export_file):
    folder = tmp_path / "empty-folder"
    folder.mkdir()
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(_tampered(export_file))
    assert importing(folder, bad).exit_code == 3
    assert folder.is_dir() and list(folder.iterdir()) == []


def test_a_good_import_creates_the_store_and_keeps_it(tmp_path, export_file):
    target = tmp_path / "new" / "store"
    result = importing(target, export_file, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["status"] == "restored"
    restored = Store.open(target).scope_revisions({"type": "user", "key": "alice"})
    assert [r["statement"] for r in restored] == ["The user lived in Paris.", "The user lived in Berlin."]
