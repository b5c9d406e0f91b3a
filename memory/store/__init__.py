"""The store: the only package that reads and writes a store's files.

One job per module: ``layout`` (names and the shard-listing rule), ``log`` (the
append-only shards and audit file: append, heal, read, pins), ``manifest``,
``erasure``, and ``core`` (the ``Store`` object: open, lock, read, the one write
path); ``postgres`` is the same store on PostgreSQL tables (``PostgresStore``). ``interface`` states what a second backend must provide. Other modules import
from here, never from the submodules.

The write side's and the checker's names (``AUDIT_VERSION``, ``MANIFEST_VERSION``, ``TAMPER_CODES``,
``StoreBackend``) are imported when first asked for (``__getattr__``): a read-only process
(`memory query`) never loads ``erasure``, ``manifest``, ``integrity`` or ``interface``.
"""
from .core import (DEFAULT_BATCH, SHARD_MAX_BYTES, STORE_FORMAT, ScopeWrite, Store, refused, result_for,
                   scope_of, user_scope)
from .budget import BUDGET as CACHE_BUDGET, set_cache_mb
from .current import CALLING_OFF, CreatedAt, CurrentRecords, CurrentView, Sessions
from .layout import digest_of, shard_files, shard_names
from .log import (Appended, ShardFile, Tail, cut_incomplete_group, drop_incomplete_tail, heal_tail, heal_torn_tail,
                  pinned_offsets, read_audit_rows, settled_transactions, shard_pin)
from .postgres import PostgresStore, is_url, redacted

__all__ = ["Appended", "CALLING_OFF", "CACHE_BUDGET", "set_cache_mb", "PostgresStore", "is_url", "redacted", "TAMPER_CODES", "StoreBackend", "Sessions", "CreatedAt", "CurrentRecords", "CurrentView", "AUDIT_VERSION", "DEFAULT_BATCH", "MANIFEST_VERSION", "SHARD_MAX_BYTES", "STORE_FORMAT", "ScopeWrite",
           "ShardFile", "Store", "Tail", "cut_incomplete_group", "digest_of", "drop_incomplete_tail", "heal_tail",
           "heal_torn_tail", "pinned_offsets", "read_audit_rows", "refused", "result_for", "scope_of",
           "settled_transactions", "shard_files", "shard_names", "shard_pin", "user_scope"]


_LAZY = {"AUDIT_VERSION": "erasure", "MANIFEST_VERSION": "manifest", "TAMPER_CODES": "integrity",
         "StoreBackend": "interface"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memory.store' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
