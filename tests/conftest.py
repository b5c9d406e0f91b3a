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
