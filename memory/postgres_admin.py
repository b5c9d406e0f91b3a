"""An operator's commands on a PostgreSQL store (docs/POSTGRES.md): ``memory doctor``, ``memory
stats``, ``memory build`` and ``memory where``.

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

where: the tables that are the source of truth (no file of the store is on this host).

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
        for row in examined.rows:
            report.revisions += 1
            revision = _check_row(row, examined.last_seq, where, digest, report)
            if revision is None:
                continue
            _check_chains([revision], where, report, chains)
            present.add(revision["id"])
            transaction_id = revision["transition"]["transaction_id"]
            if group and group[0] == transaction_id:
                group[2] += 1
            else:
                _close_group(group, settled, where, report)
                group = [transaction_id, revision["transition"].get("group_size", 1), 1, revision["id"]]
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


def _check_row(row: tuple, last_seq: int, where: str, digest: str, report: Report) -> dict | None:
    """One revision row: its bytes as the JSONL doctor checks a line, then what only a row has
    (its seq against the counter, its columns against its bytes, its transaction registered)."""
    seq, record_id, transaction_id, line, registered = row
    at = f"{where}/{seq}"
    if seq > last_seq:
        report.add("sequence_ahead", at, f"revision at seq {seq}, after the scope's counter ({last_seq}): "
                   "written outside the store")
    revision = _check_line(line, at, digest, report)
    if revision is None:
        return None
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
    return revision


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


TABLES = [
    {"path": "table scopes", "role": "source_of_truth", "what": "each scope's sequence counter (the seq of its last revision)"},
    {"path": "table revisions", "role": "source_of_truth",
     "what": "record revisions, append-only, each row the canonical bytes of a JSONL shard line, by scope digest and seq"},
    {"path": "table transactions", "role": "source_of_truth",
     "what": "every transaction id of a scope with its envelope digest (idempotency; outlives an erasure)"},
    {"path": "table audit", "role": "source_of_truth", "what": "content-free erasure audit rows, as audit.jsonl"},
    {"path": "table policies", "role": "source_of_truth",
     "what": "the mutation, forgetting and retrieval policies this store answers by: stored by memory init, "
             "replaced only by memory init --accept-policies"},
    {"path": "table memory_schema", "role": "source_of_truth", "what": "the schema migrations applied"},
    {"path": "(process memory)", "role": "derived",
     "what": "each process's folded state, current view and BM25 index per scope, caught up from the revisions; never saved"},
]

OPERATIONS = {
    "back_up": "pg_dump of the database (or: memory export --user U per scope)",
    "move": "memory --store URL copy --to TARGET (a folder or another database), every hash verified",
    "verify": "memory --store URL doctor (every row of every scope re-hashed)",
    "erase": "memory erase RECORD_ID --user U, memory erase --key KEY --user U, or memory erase --user U --whole-scope; "
             "then purge WAL and backups as docs/POSTGRES.md says",
    "rebuild_derived": "nothing to rebuild: restart the processes",
}


def describe(url: str) -> dict:
    """``memory where`` on a URL: the same shape as on a folder, the tables in place of the files."""
    from .paths import config_chosen, config_dir
    from .store import redacted
    policies = str(config_dir().resolve()) if config_chosen() else "table policies (in the database)"
    return {"store": redacted(url), "config": str(config_dir().resolve()), "policies": policies,
            "files": TABLES, "operations": OPERATIONS}
