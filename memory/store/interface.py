"""What a store backend provides: the JSONL store (``core.Store``) is one; a PostgreSQL
backend for servers that outgrow one machine (DESIGN.md §9) would be the next.

The contract tests (tests/test_store_contract.py) are written against this interface
once and run for every backend the ``backend`` fixture lists: append, idempotency,
locking, pins, erasure, recorded-time reads.
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from ..lifecycle import ScopeState
    from .core import ScopeWrite
    from .current import CurrentView
    from .log import Tail

T = TypeVar("T")


@runtime_checkable
class StoreBackend(Protocol):
    """A policy-governed, append-only memory ledger, one log per scope."""

    policies: object
    clock: object

    # -- the one write path -------------------------------------------------------------
    def write(self, scope: dict, work: "Callable[[ScopeWrite], T]") -> T:
        """Run ``work`` under the scope's exclusive lock; what it applied is durable on return."""

    def apply(self, envelopes: Iterable, *, batch_size: int = ..., progress=None) -> Iterator[dict]:
        """Admit and apply envelopes in batches; each result (DESIGN §5) once its batch is durable."""

    def mutate(self, raw) -> dict:
        """``apply`` of one envelope."""

    def writer(self, where=None) -> AbstractContextManager:
        """The scope's write lock (no scope: the whole store's)."""

    # -- reading ------------------------------------------------------------------------
    def state(self, scope: dict, fingerprint: tuple | None = None) -> "ScopeState":
        """The scope's log folded (every revision, transactions, tombstones)."""

    def get(self, record_id: str, scope: dict) -> dict:
        """The record's current revision (NotFoundError outside the scope)."""

    def history(self, record_id: str, scope: dict) -> list[dict]:
        """Every revision of a record, oldest first."""

    def scope_revisions(self, where) -> list[dict]:
        """The scope's complete revisions in log order."""

    def audit_rows(self, where) -> list[dict]:
        """The scope's content-free erasure rows."""

    def fingerprint(self, scope: dict) -> tuple:
        """A value that changes whenever another writer changes the scope."""

    def current_view(self, scope: dict, previous: "CurrentView | None" = None) -> "CurrentView":
        """The scope's current records as columns, caught up with the log."""

    # -- pins: derived data reads only what is new --------------------------------------
    def read_tail(self, where, cursor: object) -> "Tail":
        """What a reader pinned at ``cursor`` has not read yet (or ``moved``: read it all)."""

    def cursor_status(self, where, cursor: object) -> str:
        """``caught_up`` | ``behind`` | ``moved``."""

    # -- erasure ------------------------------------------------------------------------
    def erase_content(self, scope: dict, state: "ScopeState", doomed: set, why: dict) -> dict:
        """Remove every revision of ``doomed``; leave a content-free audit row (returned)."""
