"""An operator's doctor on a healthy store: stale derived files are notices, not problems.

Derived files (an index, a boot view) are pinned to the shards they were read from, inode
included, and a read rebuilds or re-pins them (DESIGN §3). A backup restored with ``cp -a``
(new inodes) or a write since the last ``memory build`` leaves them stale on a sound store:
doctor exited 7 there, so every restore drill and every monitoring check after a write failed.
"""
from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from memory.cli import main


def doctor(store: str, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["--store", store, "doctor", "--json", *args])
    return result.exit_code, json.loads(result.stdout)


def cli(store: str, *args: str) -> str:
    result = CliRunner().invoke(main, ["--store", store, *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def written(tmp_path) -> str:
    """A store with one record, its index built by a query and its boot view by build."""
    root = str(tmp_path / "live")
    cli(root, "init")
    cli(root, "add", "The user lives in Paris.", "--user", "me", "--key", "user.home_city")
    cli(root, "query", "where does the user live?", "--user", "me")
    cli(root, "build", "--user", "me")
    assert doctor(root) == (0, {"clean": True, "scopes": 1, "revisions": 1, "problems": [], "repaired": []})
    return root


def test_a_backup_restored_with_cp_a_is_clean_and_its_index_is_a_notice(tmp_path):
    restored = str(tmp_path / "restored")
    shutil.copytree(written(tmp_path), restored)    # new inodes, as cp -a gives
    code, report = doctor(restored, "--full")
    assert code == 0 and report["clean"] and report["problems"] == []
    assert [n["code"] for n in report["notices"]] == ["derived_stale"]
    assert report["notices"][0]["where"].startswith("index/")
    # a read re-pins the index: the notice goes away by itself
    cli(restored, "query", "where does the user live?", "--user", "me")
    code, report = doctor(restored)
    assert code == 0 and "notices" not in report


def test_a_write_after_build_leaves_the_boot_view_a_notice_and_repair_drops_it(tmp_path):
    root = written(tmp_path)
    cli(root, "add", "The user drinks tea.", "--user", "me", "--key", "user.drink")
    code, report = doctor(root)
    assert code == 0 and report["clean"]
    assert [(n["code"], n["where"].split("/")[0]) for n in report["notices"]] == [("derived_stale", "views")]
    code, report = doctor(root, "--repair")
    assert code == 0 and [p["code"] for p in report["repaired"]] == ["derived_stale"] and "notices" not in report
    assert doctor(root)[1].get("notices") is None


def test_the_text_report_says_clean_and_lists_the_notice(tmp_path):
    restored = str(tmp_path / "restored")
    shutil.copytree(written(tmp_path), restored)
    result = CliRunner().invoke(main, ["--store", restored, "doctor"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[-1] == "clean" and any(line.startswith("notice [derived_stale] index/") for line in lines)
    assert not any(line.startswith("problem") for line in lines)


def test_a_real_problem_beside_a_stale_derived_file_still_exits_7(tmp_path):
    restored = str(tmp_path / "restored")
    shutil.copytree(written(tmp_path), restored)
    shard = next((tmp_path / "restored" / "shards").glob("*/000001.jsonl"))
    shard.write_bytes(shard.read_bytes() + b'{"torn')
    code, report = doctor(restored, "--full")
    assert code == 7 and not report["clean"] and "torn_tail" in [p["code"] for p in report["problems"]]
    assert "derived_stale" not in [p["code"] for p in report["problems"]]
