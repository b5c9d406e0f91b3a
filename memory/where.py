"""Which files are the source of truth and which are derived: the twin of WHERE_IS_THE_DATA.md."""
from __future__ import annotations

from pathlib import Path

from .paths import config_dir
from .policy import policy_source

ENTRIES = [
    {"path": "store.json", "role": "source_of_truth", "what": "store format and the pinned policy hashes"},
    {"path": "policies/<name>-policy.json", "role": "source_of_truth",
     "what": "the mutation, forgetting and retrieval policies this store answers by: copied by memory init, "
             "replaced only by memory init --accept-policies"},
    {"path": "shards/<scope_digest>/NNNNNN.jsonl", "role": "source_of_truth",
     "what": "record revisions, append-only canonical JSONL, one scope per folder"},
    {"path": "shards/<scope_digest>/audit.jsonl", "role": "source_of_truth",
     "what": "content-free erasure audit rows (record ids, content hashes, keyed digests of transaction ids, actor, reason, time)"},
    {"path": "shards/<scope_digest>/manifest.json", "role": "derived",
     "what": "bytes, lines and sha256 per shard, written before the first shard and after every write; the scope refuses reads and writes when its shards disagree with it in a way no crash produces; memory doctor --repair brings it up to date after a crash, and only --repair --accept-tampered after tampering"},
    {"path": "shards/<scope_digest>/erasing.json", "role": "runtime",
     "what": "present only while an erasure runs (or after one crashed): the entries its rewritten shards will have; the next writer or memory doctor --repair completes the erasure and removes it"},
    {"path": "shards/<scope_digest>/scope.json", "role": "derived", "what": "the scope digest (never the raw key)"},
    {"path": "index/<scope_digest>/", "role": "derived",
     "what": "BM25 index + sidecar pinned to the shard sizes it consumed; rebuilt on the next query when stale; with features.dense_search also dense.bin, record vectors keyed by record id + content hash"},
    {"path": "current/<scope_digest>/verified.json", "role": "derived",
     "what": "the shards a reader checked against the manifest (size, inode, change time, sha256), so the next process re-hashes only what changed"},
    {"path": "current/<scope_digest>/current.bin", "role": "derived",
     "what": "the scope's current view (record ids, where each current revision is, the columns queries filter on) pinned to the shard bytes it read; extended from the appended tail, rebuilt when its pins move"},
    {"path": "doctor/<scope_digest>/verified.json", "role": "derived",
     "what": "what the last clean memory doctor run verified (pins, manifest entries, chain ends), so the next run re-checks only what changed; memory doctor --full ignores it"},
    {"path": "views/<scope_digest>/agent-memory.json", "role": "derived", "what": "boot view; rebuilt by memory build"},
    {"path": ".lock", "role": "runtime", "what": "the store lock (empty): scope writers hold it shared, a whole-store writer exclusively"},
    {"path": "locks/<scope_digest>/.lock", "role": "runtime", "what": "one scope's writer lock (empty): writers of different scopes do not wait for each other"},
]

OPERATIONS = {
    "back_up": "copy the whole store folder while no writer runs (or: memory export --user U per scope)",
    "move": "move the folder and point --store or $MEMORY_STORE at it; derived files travel or are rebuilt",
    "verify": "memory --store PATH doctor (what changed since its last clean run); memory --store PATH doctor --full (every hash and manifest)",
    "erase": "memory erase RECORD_ID --user U, memory erase --key KEY --user U, or memory erase --user U --whole-scope",
    "rebuild_derived": "delete index/, current/, doctor/ and views/; the next query and memory build recreate them",
}


def describe(store_root: Path) -> dict:
    # "policies": the folder this store answers by; "config": the one memory init --accept-policies adopts
    return {"store": str(Path(store_root).resolve()), "config": str(config_dir().resolve()),
            "policies": str(policy_source(store_root).resolve()), "files": ENTRIES, "operations": OPERATIONS}
