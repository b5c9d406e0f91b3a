"""Every test runs against its own store under tmp_path, at a pinned instant.

The autouse fixture points ``$MEMORY_STORE`` at ``tmp_path/store`` and pins
``$MEMORY_NOW``, so nothing reads ``./data``, the wall clock or a developer's
``$MEMORY_CONFIG``. Builders live in ``tests/helpers.py``.

A few expensive things are built once and only read: ``gold_on_jsonl`` (every shipped gold
case replayed through the engine, for test_gold.py and test_postgres_gold.py).
"""
from __future__ import annotations

import pytest

from helpers import NOW, make_store


def pytest_configure(config):
    # the README's command runs the suite in two processes (pytest-xdist, --dist loadgroup): the
    # tests reading one session fixture share a group, so one process builds it
    config.addinivalue_line("markers", "xdist_group(name): run these tests in one pytest-xdist worker")


def _isolate(monkeypatch, store) -> None:
    monkeypatch.setenv("MEMORY_STORE", str(store))
    monkeypatch.setenv("MEMORY_NOW", NOW)
    monkeypatch.setenv("USER", "tester")
    for name in ("MEMORY_CONFIG", "MEMORY_DEBUG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def isolated_store_env(tmp_path, monkeypatch):
    _isolate(monkeypatch, tmp_path / "store")


@pytest.fixture(scope="session")
def gold_on_jsonl(tmp_path_factory):
    """{case_id: Outcome}: every shipped gold case replayed once through the engine on the JSONL
    backend, exactly as ``gold.run_gold`` replays it (its default query and store, ``run_case``'s
    limit). Read-only: ``gold.build_report`` over any of them is ``run_gold`` over those cases
    (test_gold.py checks it on a few). The setups, the trap cases and PostgreSQL's comparison
    read this one replay instead of replaying the same cases three times (~1,100 setups a run)."""
    from memory.benchmark import gold

    with pytest.MonkeyPatch.context() as monkeypatch:      # built before any test's own env
        _isolate(monkeypatch, tmp_path_factory.mktemp("gold") / "store")
        query_fn, store_factory = gold._default_query_fn(), gold._default_store_factory()
        return {case["case_id"]: gold.run_case(case, query_fn=query_fn, store_factory=store_factory)
                for case in gold.load_cases()}


@pytest.fixture
def store(tmp_path):
    """A fresh store at $MEMORY_STORE with a FixedClock at NOW (``store.clock.set`` moves it)."""
    return make_store(tmp_path / "store")


@pytest.fixture
def newer_defaults(tmp_path, monkeypatch):
    """Stand in for an upgraded package: its default mutation policy sends user adds to review.
    (upgrade, folder): calling ``upgrade()`` makes the package's defaults the folder's files."""
    import json
    from memory import paths
    from helpers import config_copy
    folder = config_copy(tmp_path / "newer-defaults")
    path = folder / "mutation-policy.json"
    policy = json.loads(path.read_text())
    policy["sources"]["explicit_user"]["operations"]["add"] = "admit_candidate"
    path.write_text(json.dumps(policy, indent=2) + "\n")

    def upgrade():
        monkeypatch.setattr(paths, "DEFAULT_CONFIG_DIR", folder)
        monkeypatch.setattr("memory.policy.DEFAULT_CONFIG_DIR", folder, raising=False)
        monkeypatch.setattr("memory.store.postgres.DEFAULT_CONFIG_DIR", folder, raising=False)
    return upgrade, folder
