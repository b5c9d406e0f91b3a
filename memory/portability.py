"""Export one scope's ledger, and restore it into another store by verified restore.

An export holds every revision of the scope in log order — each line exactly
the canonical line the shard holds, so every record hash can be recomputed —
and the scope's content-free erasure audit rows (they keep tombstones and used
transaction ids alive), framed by a header and an end line:

    {"schema_version": "memory.export.v1", "scope": {...}, "complete": true, ...}
    {"schema_version": "memory.record.v1", ...}          one per revision
    {"schema_version": "memory.audit.v1", ...}           one per erasure row
    {"schema_version": "memory.export-end.v1", "revisions": N, "audit_rows": K, "body_sha256": "..."}

``body_sha256`` is the sha256 of the body lines (canonical JSON + LF each), so a
truncated or spliced file is refused. ``--format json`` is the same content as
one object ``{"export": header, "revisions": [...], "audit": [...], "end": end}``.
``--active-only`` keeps the records whose current status is active (all their
revisions); such an export is marked ``complete: false`` and is not restorable,
because its transaction groups are torn.

Restore (``memory import jsonl FILE``) verifies before it writes anything: the
framing; the body in a scratch store checked by ``memory doctor``'s own code
(schema, hash, scope, revision chain and transaction group of every line); and
the target's mutation policy (each record's creation must be admitted there as
it was recorded). It then appends the lines unchanged through the store's writer
(lock, fsync, manifest) — audit rows first, so a crash leaves a prefix that a
rerun completes. docs/AGENTS.md says why this beats replaying envelopes.
"""
from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .doctor import check_store
from .errors import InputError, RefusedError, StoreError
from .jsonio import CANONICALIZATION, canonical_bytes, dumps, loads_strict
from .paths import scope_digest
from .records import SCHEMA_VERSION as RECORD_VERSION
from .store import AUDIT_VERSION, Store
from .vocabulary import SCOPE_TYPES

EXPORT_VERSION = "memory.export.v1"
END_VERSION = "memory.export-end.v1"
FORMATS = ("jsonl", "json")
CHUNK_BYTES = 1024 * 1024


@dataclass
class Export:
    header: dict
    revisions: list[dict]
    audit: list[dict]

    @property
    def scope(self) -> dict:
        return self.header["scope"]

    def end(self) -> dict:
        return {"schema_version": END_VERSION, "revisions": len(self.revisions),
                "records": len({r.get("id") for r in self.revisions if isinstance(r, dict)}),
                "audit_rows": len(self.audit),
                "body_sha256": body_sha256(self.revisions, self.audit)}


def _lines(values: list[dict]) -> bytes:
    return b"".join(canonical_bytes(value) + b"\n" for value in values)


def body_sha256(revisions: list[dict], audit: list[dict]) -> str:
    return hashlib.sha256(_lines(revisions) + _lines(audit)).hexdigest()


# -- export -----------------------------------------------------------------------------

def collect(store: Store, scope: dict, *, active_only: bool = False) -> Export:
    """The scope's log, read under a shared hold (no writer meanwhile) so revisions and audit rows
    agree; it creates no lock file, so a read-only store exports."""
    with store.reading(scope):
        revisions = store.scope_revisions(scope)
        audit = store.audit_rows(scope)
    if active_only:
        keep = {r["id"] for r in store.state(scope).currents() if r["status"] == "active"}
        revisions = [r for r in revisions if r["id"] in keep]
    header = {"schema_version": EXPORT_VERSION, "scope": dict(scope),
              "scope_digest": scope_digest(scope["type"], scope["key"]), "exported_at": store.clock.now(),
              "complete": not active_only, "filter": "active_only" if active_only else None,
              "canonicalization": CANONICALIZATION, "policy_sha256": store.policies.hashes()}
    return Export(header, revisions, audit)


def render(export: Export, fmt: str = "jsonl") -> bytes:
    if fmt == "json":
        return dumps({"export": export.header, "revisions": export.revisions, "audit": export.audit,
                      "end": export.end()}) + b"\n"
    return _lines([export.header]) + _lines(export.revisions) + _lines(export.audit) + _lines([export.end()])


# -- reading an export ------------------------------------------------------------------

def _invalid(message: str) -> InputError:
    return InputError(message, code="export_invalid")


def parse(data: bytes) -> Export:
    """An export file (either format) -> Export; refuses a truncated, spliced or foreign file."""
    try:
        whole = loads_strict(data, what="export")
    except InputError:
        whole = None  # not one JSON value: read it as JSONL
    if isinstance(whole, dict) and "export" in whole:
        header, end = whole.get("export"), whole.get("end")
        revisions, audit = whole.get("revisions"), whole.get("audit")
        if not isinstance(revisions, list) or not isinstance(audit, list):
            raise _invalid("the export has no revisions or audit list")
    else:
        header, revisions, audit, end = _parse_jsonl(data)
    if not isinstance(header, dict) or header.get("schema_version") != EXPORT_VERSION \
            or not isinstance(header.get("scope"), dict):
        raise _invalid(f"the export does not start with a {EXPORT_VERSION} header")
    export = Export(header, revisions, audit)
    if not isinstance(end, dict) or end.get("schema_version") != END_VERSION:
        raise _invalid("the export has no end line (truncated?)")
    if end != export.end():
        raise _invalid("the export's end line does not match its body (truncated or edited?)")
    return export


def _parse_jsonl(data: bytes) -> tuple:
    lines = [line for line in data.split(b"\n") if line.strip()]
    if len(lines) < 2:
        raise _invalid("the export needs at least a header and an end line")
    values = [loads_strict(line, what=f"export line {n}") for n, line in enumerate(lines, 1)]
    revisions, audit = [], []
    for number, value in enumerate(values[1:-1], 2):
        kind = value.get("schema_version") if isinstance(value, dict) else None
        if kind == RECORD_VERSION:
            revisions.append(value)
        elif kind == AUDIT_VERSION:
            audit.append(value)
        else:
            raise _invalid(f"export line {number} is neither a record revision nor an audit row")
    return values[0], revisions, audit, values[-1]


# -- verification -------------------------------------------------------------------------

def _problem(code: str, where: str, message: str) -> dict:
    return {"code": code, "where": where, "message": message}


def _groups(revisions: list[dict]) -> list[list[dict]]:
    """Consecutive revisions of one transaction: the unit the store appends whole."""
    groups: list[list[dict]] = []
    for revision in revisions:
        tx = revision.get("transition", {}).get("transaction_id") if isinstance(revision, dict) else None
        if groups and tx is not None and groups[-1][0]["transition"]["transaction_id"] == tx:
            groups[-1].append(revision)
        else:
            groups.append([revision])
    return groups


def _chunks(groups: list[list[dict]], max_bytes: int = CHUNK_BYTES) -> list[list[dict]]:
    """Whole groups packed into appends of about ``max_bytes`` (one fsync each, as the store's batches)."""
    chunks: list[list[dict]] = []
    size = max_bytes
    for group in groups:
        group_bytes = len(_lines(group))
        if size + group_bytes > max_bytes:
            chunks.append([])
            size = 0
        chunks[-1].extend(group)
        size += group_bytes
    return chunks


def _write_log(store: Store, scope: dict, revisions: list[dict], audit: list[dict], *, as_one: bool = False) -> None:
    """Audit rows first (a shrunk group is only complete beside them), then each group whole.

    ``as_one`` appends the body in one write, so that a group left short mid-body stays where
    doctor sees it (the writer cuts a short group at the tail before each append).
    """
    if audit:
        store.replace_audit(scope, audit)
    for chunk in ([revisions] if as_one and revisions else _chunks(_groups(revisions))):
        store.append_lines(scope, chunk)
    if store.has_scope(scope):
        store.write_manifest(scope)


def _shape_problems(export: Export) -> list[dict]:
    problems = []
    scope = export.scope
    if scope.get("type") not in SCOPE_TYPES or not isinstance(scope.get("key"), str) \
            or export.header.get("scope_digest") != scope_digest(str(scope.get("type")), str(scope.get("key"))):
        problems.append(_problem("export_invalid", "header", "the header's scope or scope digest is not valid"))
    for number, revision in enumerate(export.revisions, 1):
        # what the writer itself reads; memory doctor then checks each line against the record schema
        transition = revision.get("transition") if isinstance(revision, dict) else None
        if not (isinstance(transition, dict) and isinstance(transition.get("transaction_id"), str)):
            problems.append(_problem("record_schema_violation", f"revision {number}",
                                     "not a record revision with a transition"))
    for number, row in enumerate(export.audit, 1):
        if not (isinstance(row, dict) and isinstance(row.get("record_ids"), list)
                and isinstance(row.get("transactions", {}), dict) and isinstance(row.get("tombstones", []), list)):
            problems.append(_problem("export_invalid", f"audit row {number}", "not an erasure audit row"))
    return problems


def integrity_problems(export: Export, store: Store) -> list[dict]:
    """Every integrity problem of the export: its shape, then memory doctor's checks in a scratch store."""
    problems = []
    if export.header.get("complete") is not True:
        problems.append(_problem("export_incomplete", "header",
                                 "a filtered export (--active-only) cannot be restored: its transactions are torn"))
    shape = _shape_problems(export)
    if shape:
        return problems + shape
    with tempfile.TemporaryDirectory(prefix="memory-restore-") as scratch:
        staging = Store.create(Path(scratch), clock=store.clock, policies=store.policies)
        _write_log(staging, export.scope, export.revisions, export.audit, as_one=True)
        report = check_store(staging)
        problems += report.problems     # a stale derived file is a notice, never a problem
        if not problems and _hashes(staging.scope_revisions(export.scope)) != _hashes(export.revisions):
            # the writer cuts a transaction group left short at the tail: a line was removed from the body
            problems.append(_problem("incomplete_transaction", "body",
                                     "a transaction's revisions are cut short (lines removed from the export?)"))
    return problems


def admission_problems(export: Export, store: Store) -> list[dict]:
    """Each record's creation, as recorded, must be admitted by the target's mutation policy."""
    policy = store.policies.mutation
    problems = []
    for record in export.revisions:
        if record["revision"] != 1:
            continue
        where = f"record {record['id']}"
        source_type, operation = record["source"]["type"], record["transition"]["operation"]
        admission = policy.admission(source_type, operation)
        rule = policy.source_rule(source_type)
        if admission == "reject_persistence" or rule is None:
            problems.append(_problem("operation_not_permitted", where,
                                     f"source '{source_type}' may not '{operation}' under this store's policy"))
            continue
        if record["scope"]["type"] not in rule["scope_types"]:
            problems.append(_problem("scope_not_permitted", where, f"source '{source_type}' may not write "
                                                                   f"'{record['scope']['type']}' scopes here"))
        if record["transition"]["actor"]["type"] not in rule["actor_types"]:
            problems.append(_problem("actor_not_permitted", where, "the recorded actor type may not write here"))
        if rule["kinds"] is not None and record["kind"] not in rule["kinds"]:
            problems.append(_problem("kind_not_permitted", where, f"source '{source_type}' may not write "
                                                                  f"kind '{record['kind']}' here"))
        if rule["requires_evidence_hash"] and not record["source"].get("evidence_hash"):
            problems.append(_problem("evidence_required", where, f"source '{source_type}' needs an evidence hash"))
        born = "active" if admission == "admit_active" else "candidate"
        if record["status"] != born:
            problems.append(_problem("admission_differs", where,
                                     f"this store's policy would admit it as {born}, not {record['status']}"))
    return problems


def _summary(problems: list[dict]) -> str:
    shown = "; ".join(f"{p['code']} at {p['where']}" for p in problems[:5])
    more = f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
    return f"{len(problems)} problem(s): {shown}{more}"


def verify(export: Export, store: Store) -> None:
    """Raise with every problem at once: InputError for a damaged export, RefusedError for a policy refusal."""
    problems = integrity_problems(export, store)
    if problems:
        raise InputError("the export failed verification, nothing was written: " + _summary(problems),
                         code="export_invalid", details=problems)
    problems = admission_problems(export, store)
    if problems:
        raise RefusedError("this store's mutation policy refuses the export, nothing was written: "
                           + _summary(problems), code="restore_not_permitted", details=problems)


# -- restore ------------------------------------------------------------------------------

def _hashes(revisions: list[dict]) -> list[str]:
    return [r["hash"]["value"] for r in revisions]


def restore(store: Store, export: Export) -> dict:
    """Verify, then append what the target scope lacks; a rerun after a crash completes it."""
    verify(export, store)
    scope = export.scope
    with store.writer(scope):
        present, audit = store.scope_revisions(scope), store.audit_rows(scope)
        wanted = _hashes(export.revisions)
        if audit not in ([], export.audit) or (present and audit != export.audit) \
                or _hashes(present) != wanted[:len(present)]:
            raise RefusedError("the target scope already holds other records; restore into an empty scope",
                               code="scope_not_empty")
        missing = export.revisions[len(present):]
        if missing or audit != export.audit:
            _write_log(store, scope, missing, [] if audit else export.audit)
            store.drop_derived(scope)
        if _hashes(store.scope_revisions(scope)) != wanted:
            raise StoreError("the restored scope does not read back as the export (run: memory doctor)",
                             code="store_corrupt")
    status = "restored" if missing or audit != export.audit else "idempotent"
    return {"status": status, "scope": scope, "scope_digest": scope_digest(scope["type"], scope["key"]),
            "records": len({r["id"] for r in export.revisions}), "revisions": len(export.revisions),
            "appended": len(missing), "audit_rows": len(export.audit)}


def read_export(path: Path) -> Export:
    """The export file at ``path``, its framing and end line checked (``parse``)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or 'unreadable'}", code="file_not_found") from None
    return parse(data)


def restore_file(store: Store, path: Path) -> dict:
    return restore(store, read_export(path))
