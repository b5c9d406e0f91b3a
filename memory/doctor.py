"""Verify a store end to end and report every problem together; repair what is safe.

Checks: the store marker and policy drift, each scope's manifest against its
shard files (bytes, lines, sha256), torn tails and cut-short transaction groups,
each line's JSON, schema and hash, transition chains, audit rows, and the
freshness of derived files. ``repair`` only cuts never-acknowledged tails,
rewrites manifests from the files and drops stale derived files; tampering
(a bad hash, a broken chain, drifted policies) is reported, never "fixed".
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from . import schemas
from .bootview import check_boot_views
from .errors import InputError, MemoryStoreError
from .jsonio import loads_strict
from .records import hash_ok
from .store import Store, drop_incomplete_tail, settled_transactions

REPAIRABLE = {"torn_tail", "incomplete_transaction", "manifest_mismatch", "manifest_missing",
              "shard_unlisted", "derived_stale", "erasure_incomplete"}


@dataclass
class Report:
    problems: list[dict] = field(default_factory=list)
    repaired: list[dict] = field(default_factory=list)
    scopes: int = 0
    revisions: int = 0

    def add(self, code: str, where: str, message: str) -> None:
        self.problems.append({"code": code, "where": where, "message": message})

    @property
    def clean(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {"clean": self.clean, "scopes": self.scopes, "revisions": self.revisions,
                "problems": self.problems, "repaired": self.repaired}


def check_store(store: Store, *, repair: bool = False) -> Report:
    report = Report()
    _check_marker(store, report)
    for digest in store.scope_digests():
        report.scopes += 1
        _check_scope(store, digest, report)
    check_boot_views(store, report.add, drop_stale=repair)
    if repair:
        _repair(store, report)
    return report


def _check_marker(store: Store, report: Report) -> None:
    try:
        marker = store.marker()
    except (MemoryStoreError, FileNotFoundError):
        report.add("store_marker_invalid", "store.json", "store.json is missing or unreadable")
        return
    pinned = marker.get("policy_sha256", {})
    for name, digest in store.policies.hashes().items():
        if pinned.get(name) != digest:
            report.add("policy_drift", f"config/{name}",
                       f"{name} changed since it was pinned ({(pinned.get(name) or 'none')[:12]} -> {digest[:12]}); "
                       "review the change, then run: memory init --accept-policies")


def _check_scope(store: Store, digest: str, report: Report) -> None:
    shards = store.shard_bytes(digest)
    manifest = _load_manifest(store, digest, report)
    revisions = []
    for name, data in shards:
        where = f"shards/{digest}/{name}"
        _compare_manifest(manifest, name, data, where, report)
        complete = data[:data.rfind(b"\n") + 1]
        if len(complete) != len(data):
            report.add("torn_tail", where, f"{len(data) - len(complete)} byte(s) after the last newline")
        for number, line in enumerate(complete.splitlines(), 1):
            revision = _check_line(line, f"{where}:{number}", digest, report)
            if revision is not None:
                revisions.append(revision)
    if manifest is not None:
        for name in set(manifest.get("shards", {})) - {name for name, _ in shards}:
            report.add("shard_missing", f"shards/{digest}/{name}", "listed in the manifest but absent")
    audit = store.audit_rows(digest)
    if len(drop_incomplete_tail(revisions, settled_transactions(audit))) != len(revisions):
        report.add("incomplete_transaction", f"shards/{digest}", "the last transaction's revisions are cut short")
    erased = {i for row in audit for i in row.get("record_ids", [])}
    if erased & {r["id"] for r in revisions}:
        # a crash between the audit row and the shard rewrite: the content is still on disk
        report.add("erasure_incomplete", f"shards/{digest}", "records named by an erasure are still in the shards")
    report.revisions += len(revisions)
    _check_chains(revisions, f"shards/{digest}", report)
    _check_groups(revisions, settled_transactions(audit), f"shards/{digest}", report)
    _check_derived(store, digest, report)


def _load_manifest(store: Store, digest: str, report: Report) -> dict | None:
    data = store.manifest_bytes(digest)
    if data is None:
        report.add("manifest_missing", f"shards/{digest}/manifest.json", "no manifest for this scope")
        return None
    try:
        manifest = loads_strict(data, what="manifest")
    except InputError:
        report.add("manifest_mismatch", f"shards/{digest}/manifest.json", "manifest is not valid JSON")
        return None
    for problem in schemas.violations("manifest", manifest):
        report.add("manifest_mismatch", f"shards/{digest}/manifest.json", problem)
    return manifest


def _compare_manifest(manifest, name: str, data: bytes, where: str, report: Report) -> None:
    if manifest is None:
        return
    entry = manifest.get("shards", {}).get(name)
    if entry is None:
        report.add("shard_unlisted", where, "shard not listed in the manifest")
        return
    actual = {"bytes": len(data), "lines": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}
    for key, value in actual.items():
        if entry.get(key) != value:
            report.add("manifest_mismatch", where, f"{key} differs from the manifest")


def _check_line(line: bytes, where: str, digest: str, report: Report) -> dict | None:
    try:
        revision = loads_strict(line, what="record line")
    except InputError as exc:
        report.add("line_invalid", where, exc.message)
        return None
    problems = schemas.violations("record", revision)
    for problem in problems:
        report.add("record_schema_violation", where, problem)
    if problems:
        return None
    if not hash_ok(revision):
        report.add("record_hash_mismatch", where, f"record {revision['id']} r{revision['revision']}: "
                   "content does not match its hash (edited by hand?)")
    from .paths import scope_digest
    if scope_digest(revision["scope"]["type"], revision["scope"]["key"]) != digest:
        report.add("record_scope_mismatch", where, f"record {revision['id']} is filed under another scope")
    return revision


def _check_chains(revisions: list[dict], where: str, report: Report) -> None:
    last: dict[str, dict] = {}
    for revision in revisions:
        previous = last.get(revision["id"])
        expected_number = 1 if previous is None else previous["revision"] + 1
        transition = revision["transition"]
        if revision["revision"] != expected_number:
            report.add("transition_chain_broken", where,
                       f"record {revision['id']}: revision {revision['revision']} follows {expected_number - 1}")
        expected_from = None if previous is None else previous["status"]
        if transition["from_status"] != expected_from or transition["to_status"] != revision["status"]:
            report.add("transition_chain_broken", where,
                       f"record {revision['id']} r{revision['revision']}: transition does not join its neighbours")
        last[revision["id"]] = revision


def _check_groups(revisions: list[dict], settled: frozenset, where: str, report: Report) -> None:
    """Every transaction group before the tail holds exactly ``group_size`` lines (the tail: see above).

    Only an erasure may shrink a group; a line removed by hand mid-log shows up here even when
    the manifest was rewritten to match.
    """
    groups: list[list[dict]] = []
    for revision in revisions:
        tx = revision["transition"]["transaction_id"]
        if groups and groups[-1][0]["transition"]["transaction_id"] == tx:
            groups[-1].append(revision)
        else:
            groups.append([revision])
    for group in groups[:-1]:
        tx, expected = group[0]["transition"]["transaction_id"], group[0]["transition"].get("group_size", 1)
        if len(group) != expected and tx not in settled:
            report.add("transition_chain_broken", where,
                       f"record {group[0]['id']}: its transaction wrote {expected} revision(s), {len(group)} remain")


def _check_derived(store: Store, digest: str, report: Report) -> None:
    from .jsonio import loads_trusted
    sidecar = store.index_dir(digest) / "index.meta.json"
    if not sidecar.exists():
        return
    try:
        cursor = loads_trusted(sidecar.read_bytes()).get("cursor", {})
    except ValueError:
        cursor = None
    if store.cursor_status(digest, cursor) == "moved":
        report.add("derived_stale", f"index/{digest}", "the index was built from shards that no longer match")


def _repair(store: Store, report: Report) -> None:
    fixable = [p for p in report.problems if p["code"] in REPAIRABLE]
    touched = sorted({p["where"].split("/")[1] for p in fixable if p["where"].count("/") >= 1})
    for digest in touched:
        store.repair_scope(digest)
    report.repaired = fixable
    report.problems = [p for p in report.problems if p["code"] not in REPAIRABLE]
