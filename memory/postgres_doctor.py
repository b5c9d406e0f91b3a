"""``memory doctor``, ``memory stats`` and ``memory build`` on a PostgreSQL store (docs/POSTGRES.md).

doctor: every scope in turn, its revisions streamed from the server in one consistent read
(``PostgresStore.examining``): each row's bytes parsed, schema-checked and re-hashed exactly
as the JSONL doctor checks a shard line (``doctor._check_line``), its columns against what
the line states, its transaction registered under the envelope digest the line names, the
transition chains (``doctor._check_chains``) and transaction groups, and the audit rows (an
erased record still present, an erasure's transactions no longer registered). The report
has the JSONL doctor's shape (``doctor.Report``); the policies in force are compared with
the ones the database pinned (``policy_drift``). Nothing is repairable: a write is one
database transaction, so no crash leaves a torn tail, a half group or a stale manifest, and
whatever doctor finds was done to the tables from outside the store.

stats: the same counts as on JSONL (``stats.store_stats``), computed by the server.

build: a PostgreSQL store keeps no derived files (no boot view or index is written): each
process builds a scope's state and index in memory on its first read and follows the
revisions from then on, so there is nothing to build; the command says so.
"""
from __future__ import annotations

from .doctor import Report, _check_chains, _check_line, _check_marker
from .errors import InputError, StoreError
from .jsonio import loads_strict
from .store import settled_transactions
from .vocabulary import KINDS, STATUSES

NOTHING_TO_BUILD = ("a PostgreSQL store keeps no derived files: no boot view or index is written. Each process "
                    "builds a scope's state and index in memory on its first read and follows the revisions "
                    "table from then on, so there is nothing to build (docs/POSTGRES.md)")


def check_store(store, *, repair: bool = False, accept_tampered: bool = False) -> Report:
    """Every problem of a PostgreSQL store (see the module doc); ``repair`` repairs nothing."""
    if accept_tampered:
        raise StoreError("--accept-tampered rewrites a JSONL store's manifests; a PostgreSQL store has none. "
                         "A tampered row stays reported until the scope is restored from a good export",
                         code="not_supported")
    report = Report()
    _check_marker(store, report)
    for digest in store.scope_digests():
        report.scopes += 1
        _check_scope(store, digest, report)
    return report


def _check_scope(store, digest: str, report: Report) -> None:
    where = f"revisions/{digest}"
    with store.examining(digest) as examined:
        audit = _audit_rows(examined.audit, digest, report)
        settled = settled_transactions(audit)
        chains: dict = {}
        present: set[str] = set()
        group: list = []        # [transaction id, group size, rows seen] of the group being read
        for seq, record_id, transaction_id, line, registered in examined.rows:
            report.revisions += 1
            at = f"{where}/{seq}"
            if seq > examined.last_seq:
                report.add("sequence_ahead", at, f"revision at seq {seq}, after the scope's counter "
                           f"({examined.last_seq}): written outside the store")
            revision = _check_line(line, at, digest, report)
            if revision is None:
                continue
            transition = revision["transition"]
            if revision["id"] != record_id or transition["transaction_id"] != transaction_id:
                report.add("row_columns_mismatch", at, f"record {revision['id']}: the row's record or "
                           "transaction column differs from its bytes")
            if registered is None:
                report.add("transaction_unregistered", at, f"record {revision['id']}: its transaction id is "
                           "not registered (a replay would not be recognised)")
            elif registered != transition.get("envelope_sha256", ""):
                report.add("transaction_mismatch", at, f"record {revision['id']}: its transaction id is "
                           "registered under another envelope digest")
            _check_chains([revision], where, report, chains)
            present.add(revision["id"])
            if group and group[0] == transaction_id:
                group[2] += 1
            else:
                _close_group(group, settled, where, report)
                group = [transaction_id, transition.get("group_size", 1), 1, revision["id"]]
        # a write is one database transaction: even the last group is whole unless an erasure cut it
        _close_group(group, settled, where, report)
        # an erasure's transactions stay registered (a replay of one is still recognised)
        named = {sha for row in audit for sha in (row.get("transactions") or {}).values()}
        known = examined.registered_envelopes(sorted(named))
    erased = {i for row in audit for i in row.get("record_ids", [])}
    if erased & present:
        report.add("erasure_incomplete", where, "records named by an erasure are still in the revisions table")
    if named - known:
        report.add("transaction_unregistered", f"audit/{digest}", "a transaction an erasure keeps is no longer "
                   "registered under its envelope digest")


def _close_group(group: list, settled: frozenset, where: str, report: Report) -> None:
    if group and group[2] != group[1] and group[0] not in settled:
        report.add("transition_chain_broken", where,
                   f"record {group[3]}: its transaction wrote {group[1]} revision(s), {group[2]} remain")


def _audit_rows(lines: list[bytes], digest: str, report: Report) -> list[dict]:
    rows = []
    for number, line in enumerate(lines, 1):
        try:
            row = loads_strict(line, what="audit row")
        except InputError as exc:
            report.add("line_invalid", f"audit/{digest}/{number}", exc.message)
            continue
        if not isinstance(row, dict) or not isinstance(row.get("record_ids", []), list):
            report.add("line_invalid", f"audit/{digest}/{number}", "an audit row is not an erasure row")
            continue
        rows.append(row)
    return rows


def store_stats(store) -> dict:
    """``memory stats`` of a PostgreSQL store: the JSONL command's shape, counted in SQL. No index or
    boot view is saved on this backend: each scope's ``index`` and ``boot_view`` say ``not_saved``."""
    scopes = []
    for digest in store.scope_digests():
        counts = store.scope_counts(digest)
        by_status = {s: sum(n for status, _, n in counts["current"] if status == s) for s in STATUSES}
        by_kind = {k: sum(n for _, kind, n in counts["current"] if kind == k) for k in KINDS}
        last = max(filter(None, (counts["last_recorded"], counts["last_erased"])), default=None)
        scopes.append({"scope_digest": digest, "scope": counts["scope"],
                       "records": sum(n for _, _, n in counts["current"]), "revisions": counts["revisions"],
                       "by_status": by_status, "by_kind": by_kind, "erasures": counts["erasures"],
                       "last_write": last, "index": "not_saved", "boot_view": "not_saved"})
    return {
        "store": str(store.root), "scopes": len(scopes),
        "records": sum(s["records"] for s in scopes), "revisions": sum(s["revisions"] for s in scopes),
        "by_status": {s: sum(x["by_status"][s] for x in scopes) for s in STATUSES},
        "by_kind": {k: sum(x["by_kind"][k] for x in scopes) for k in KINDS},
        "erasures": sum(s["erasures"] for s in scopes),
        "last_write": max((s["last_write"] for s in scopes if s["last_write"]), default=None),
        "index": {"fresh": 0, "stale": 0, "missing": 0, "not_saved": len(scopes)},
        "per_scope": scopes,
    }


def build(store) -> dict:
    """``memory build`` on a PostgreSQL store: nothing is built (see ``NOTHING_TO_BUILD``)."""
    return {"built": [], "scopes": len(store.scope_digests()), "message": NOTHING_TO_BUILD}
