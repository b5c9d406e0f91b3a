"""Every test runs against its own store under tmp_path, at a pinned instant.

The autouse fixture points ``$MEMORY_STORE`` at ``tmp_path/store`` and pins
``$MEMORY_NOW``, so nothing reads ``./data``, the wall clock or a developer's
``$MEMORY_CONFIG``. Builders live in ``tests/helpers.py``.
"""
from __future__ import annotations

import pytest

from helpers import NOW, make_store


@pytest.fixture(autouse=True)
def isolated_store_env(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMORY_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("MEMORY_NOW", NOW)
    monkeypatch.setenv("USER", "tester")
    for name in ("MEMORY_CONFIG", "MEMORY_DEBUG"):
        monkeypatch.delenv(name, raising=False)


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
