"""The ledger's tables in PostgreSQL: the one module that imports psycopg.

The same append-only log as the JSONL shards (DESIGN §9): a revision is stored as its
canonical bytes (``memory-c14n-v1``, hash unchanged), in log order, under its scope
digest. Every table leads with ``scope_digest`` and is hash-partitioned by it; every
statement here names exactly one scope (``WHERE scope_digest = %s``), so the schema
distributes by scope digest unchanged (docs/POSTGRES.md maps it to Citus).

Writers serialize per scope with ``pg_advisory_xact_lock`` inside the transaction that
appends; a write is acknowledged only after COMMIT. Readers follow a scope by its
sequence number: ``read(scope, after=seq)`` returns only what was appended since.

Schema versions live in ``memory_schema``; a database whose schema is newer than this
code is refused (``schema_too_new``) instead of being written with old rules.
"""
from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

try:
    import psycopg
except ImportError:  # the optional extra: memory-ledger[postgres]
    psycopg = None

from .errors import StoreError

SCHEMA_VERSION = 2
DEFAULT_PARTITIONS = 8


def _require_driver() -> None:
    if psycopg is None:
        raise StoreError("a postgresql:// store needs the driver: pip install 'memory-ledger[postgres]'",
                         code="postgres_driver_missing")


# Each table's columns, and the key that is unique inside a scope. The parents carry no
# unique index: PostgreSQL refuses foreign partitions under one, and a scope always routes
# to one partition, so each partition's own primary key enforces it (locally, or on the
# shard server that holds a foreign partition: benchmarks/postgres_fdw_demo.py).
TABLES = {
    "scopes": ("scope_digest text NOT NULL, last_seq bigint NOT NULL DEFAULT 0, created_at text NOT NULL",
               "scope_digest", ()),
    # one row per revision, in log order; ``line`` is the canonical bytes, hash included
    "revisions": ("scope_digest text NOT NULL, seq bigint NOT NULL, record_id text NOT NULL, "
                  "transaction_id text NOT NULL, line bytea NOT NULL",
                  "scope_digest, seq", ("scope_digest, record_id",)),
    # idempotency: a transaction id is unique within its scope, and outlives an erasure
    "transactions": ("scope_digest text NOT NULL, transaction_id text NOT NULL, envelope_sha256 text NOT NULL",
                     "scope_digest, transaction_id", ()),
    # content-free erasure rows (the JSONL store's audit.jsonl)
    "audit": ("scope_digest text NOT NULL, seq bigint NOT NULL, line bytea NOT NULL", "scope_digest, seq", ()),
}


# Tables that are not scoped (reference tables in Citus terms): they stay on the coordinator.
# ``policies``: the store's own copy of its policy files, byte for byte as they were hashed
# (a JSONL store's ``policies/`` folder and the pins of its ``store.json``); migration 2.
REFERENCE_DDL = ["CREATE TABLE policies (name text PRIMARY KEY, sha256 text NOT NULL, "
                 "bytes bytea NOT NULL, pinned_at text NOT NULL)"]


def parent_ddl() -> list[str]:
    return [f"CREATE TABLE {table} ({columns}) PARTITION BY HASH (scope_digest)"
            for table, (columns, _, _) in TABLES.items()]


def partition_keys(table: str, name: str) -> list[str]:
    """The unique key and indexes one partition (local, or a shard server's table) carries."""
    _, key, indexes = TABLES[table]
    return [f"ALTER TABLE {name} ADD PRIMARY KEY ({key})"] + [
        f"CREATE INDEX {name.rsplit('.', 1)[-1]}_i{n} ON {name} ({columns})" for n, columns in enumerate(indexes)]


def shard_table_ddl(table: str, name: str) -> list[str]:
    """A plain table on a shard server that a coordinator attaches as a foreign partition."""
    return [f"CREATE TABLE {name} ({TABLES[table][0]})"] + partition_keys(table, name)


def _migration_v1(partitions: int) -> list[str]:
    statements = parent_ddl()
    for table in TABLES:
        for remainder in range(partitions):
            name = f"{table}_p{remainder}"
            statements.append(f"CREATE TABLE {name} PARTITION OF {table} "
                              f"FOR VALUES WITH (MODULUS {partitions}, REMAINDER {remainder})")
            statements += partition_keys(table, name)
    return statements


def distributed_ddl(partitions: int, placement: list[tuple[str, str]]) -> list[str]:
    """The coordinator's side of a layout whose partitions live on other servers.

    ``placement[r]`` = (foreign server name, remote schema) holding remainder ``r`` of every
    table: one scope's rows in all tables sit on one server (co-located, as Citus places
    distributed tables that share a distribution column). The remote tables come from
    ``shard_table_ddl``; the coordinator keeps the schema version and the advisory locks."""
    statements = parent_ddl() + REFERENCE_DDL
    for table in TABLES:
        for remainder in range(partitions):
            server, schema = placement[remainder]
            statements.append(
                f"CREATE FOREIGN TABLE {table}_p{remainder} PARTITION OF {table} "
                f"FOR VALUES WITH (MODULUS {partitions}, REMAINDER {remainder}) "
                f"SERVER {server} OPTIONS (schema_name '{schema}', table_name '{table}_p{remainder}')")
    return statements


def mark_migrated(conn, *, version: int = SCHEMA_VERSION, partitions: int, now: str) -> None:
    """Record a schema laid out by hand (``distributed_ddl``) as the given version: the reference
    tables of the migrations up to it are created here, on the coordinator."""
    conn.execute("""CREATE TABLE IF NOT EXISTS memory_schema (
                      version int PRIMARY KEY, applied_at text NOT NULL, partitions int NOT NULL)""")
    if version >= 2 and conn.execute("SELECT to_regclass('policies')").fetchone()[0] is None:
        for statement in REFERENCE_DDL:
            conn.execute(statement)
    for applied in range(1, version + 1):
        conn.execute("INSERT INTO memory_schema VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                     (applied, now, partitions))


@dataclass(frozen=True)
class Appended:
    first_seq: int
    last_seq: int


@dataclass(frozen=True)
class Snapshot:
    """What a reader of one scope learns in one consistent read (``PostgresLedger.snapshot``).

    ``last_seq`` and ``audit_rows`` are the scope's position; ``rows`` the revisions after the
    reader's seq, or all of them when ``rebuilt`` (the audit rows changed: an erasure deleted
    rows the reader may hold), with every audit line in ``audit``."""

    last_seq: int
    audit_rows: int
    rows: list
    rebuilt: bool
    audit: list


@dataclass
class Examined:
    """A scope as ``PostgresLedger.examining`` reads it: ``rows`` streams (seq, record_id,
    transaction_id, line, registered envelope digest or None), in log order."""

    last_seq: int
    audit: list
    rows: Iterator
    ledger: "PostgresLedger"
    scope_digest: str

    def registered_envelopes(self, envelope_digests: list[str]) -> set[str]:
        return self.ledger.registered_envelopes(self.scope_digest, envelope_digests) if envelope_digests else set()


class PostgresLedger:
    """One connection's view of the ledger tables (a connection is not shared across threads)."""

    def __init__(self, url: str) -> None:
        _require_driver()
        self.url = url
        try:
            self.conn = psycopg.connect(url, autocommit=True)
        except psycopg.OperationalError as exc:
            raise StoreError(f"cannot connect to the PostgreSQL store ({_first_line(exc)})",
                             code="store_unavailable") from None

    def close(self) -> None:
        self.conn.close()

    def reusable(self) -> bool:
        """Open and outside any transaction: fit to hand to the next operation."""
        return not self.conn.closed and self.conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE

    # -- schema -----------------------------------------------------------------

    def schema_version(self) -> int | None:
        exists = self.conn.execute("SELECT to_regclass('memory_schema')").fetchone()[0]
        if exists is None:
            return None
        row = self.conn.execute("SELECT max(version) FROM memory_schema").fetchone()
        return row[0]

    def check_schema(self) -> None:
        """Refuse a database this code cannot read or write safely."""
        version = self.schema_version()
        if version is None:
            raise StoreError("no memory store in this database (run: memory --store URL init)",
                             code="store_not_found")
        if version > SCHEMA_VERSION:
            raise StoreError(f"the database's schema is version {version}, newer than this code's "
                             f"{SCHEMA_VERSION}: upgrade memory-ledger", code="schema_too_new")

    def migrate(self, *, partitions: int = DEFAULT_PARTITIONS, now: str) -> int:
        """Create or upgrade the schema (idempotent); returns the version now in force."""
        with self.conn.transaction():
            # one migrator at a time, whoever else runs init
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (_lock_key("memory_schema"),))
            current = self.schema_version() or 0
            if current > SCHEMA_VERSION:
                raise StoreError(f"the database's schema is version {current}, newer than this code's "
                                 f"{SCHEMA_VERSION}: upgrade memory-ledger", code="schema_too_new")
            if current < 1:
                for statement in _migration_v1(partitions):
                    self.conn.execute(statement)
                mark_migrated(self.conn, version=1, partitions=partitions, now=now)
            if current < 2:
                # the store's own policy files (a JSONL store's policies/); empty until ``memory init`` pins them
                layout = self.conn.execute("SELECT partitions FROM memory_schema WHERE version = 1").fetchone()[0]
                mark_migrated(self.conn, version=2, partitions=layout, now=now)
        return SCHEMA_VERSION

    # -- the store's policies -----------------------------------------------------

    def pinned_policies(self) -> dict[str, tuple[str, bytes]]:
        """file name -> (sha256, bytes) of the policies the store pinned ({}: none yet)."""
        if self.conn.execute("SELECT to_regclass('policies')").fetchone()[0] is None:
            return {}
        return {name: (digest, bytes(data)) for name, digest, data in
                self.conn.execute("SELECT name, sha256, bytes FROM policies ORDER BY name")}

    def pin_policies(self, files: dict[str, tuple[str, bytes]], *, now: str, only_if_none: bool = False) -> bool:
        """Replace the pinned policy files in one transaction (``only_if_none``: only when none
        are pinned yet, as a first ``memory init``); whether they were written."""
        with self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (_lock_key("memory_policies"),))
            if only_if_none and self.conn.execute("SELECT count(*) FROM policies").fetchone()[0]:
                return False
            self.conn.execute("DELETE FROM policies")
            with self.conn.cursor() as cursor:
                cursor.executemany("INSERT INTO policies (name, sha256, bytes, pinned_at) VALUES (%s, %s, %s, %s)",
                                   [(name, digest, data, now) for name, (digest, data) in sorted(files.items())])
        return True

    # -- writing ----------------------------------------------------------------

    @contextmanager
    def writing(self, scope_digest: str) -> Iterator["ScopeWrite"]:
        """A transaction holding the scope's advisory lock; COMMIT on a clean exit.

        Two processes writing one scope queue here; writes to other scopes do not wait.

        Each step is one statement, so an add waits for the server four times: BEGIN with the
        lock, the scope's position with its new rows (``snapshot``), the append (``ScopeWrite.append``),
        COMMIT (benchmarks/reports/postgres-round-trips.md)."""
        # BEGIN and the lock in one round trip: without parameters the simple protocol runs both
        self.conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({_lock_key(scope_digest)})", prepare=False)
        try:
            yield ScopeWrite(self.conn, scope_digest)
        except BaseException:
            self._roll_back()
            raise
        self.conn.execute("COMMIT")

    def _roll_back(self) -> None:
        try:
            self.conn.execute("ROLLBACK")
        except psycopg.Error:
            pass   # a broken connection: ``reusable`` says so and the pool drops it

    # -- reading ----------------------------------------------------------------

    def last_seq(self, scope_digest: str) -> int:
        row = self.conn.execute("SELECT last_seq FROM scopes WHERE scope_digest = %s",
                                (scope_digest,)).fetchone()
        return row[0] if row else 0

    def position(self, scope_digest: str) -> tuple[int, int]:
        """(last seq, number of audit rows) of a scope, read in one statement: it changes with
        every append and every erasure (an erasure deletes rows but never reuses a seq)."""
        return self.conn.execute(
            "SELECT coalesce((SELECT last_seq FROM scopes WHERE scope_digest = %s), 0), "
            "(SELECT count(*) FROM audit WHERE scope_digest = %s)", (scope_digest, scope_digest)).fetchone()

    def snapshot(self, scope_digest: str, *, after: int, audit_seen: int) -> Snapshot:
        """The scope's position and what a reader at (``after``, ``audit_seen``) has not read.

        One statement (so one round trip, and one snapshot: the position, the rows and the audit
        lines agree): the revisions after ``after``, or all of them with every audit line when the
        audit rows are no longer ``audit_seen`` (an erasure deleted rows the reader may hold)."""
        rows = self.conn.execute(_SNAPSHOT, {"d": scope_digest, "after": after, "seen": audit_seen}).fetchall()
        _, last_seq, _, audit_rows, rebuilt = rows[0]
        return Snapshot(last_seq, audit_rows, [(seq, bytes(line)) for part, seq, line, _, _ in rows if part == 1],
                        rebuilt, [bytes(line) for part, _, line, _, _ in rows if part == 2])

    def read(self, scope_digest: str, *, after: int = 0) -> list[tuple[int, bytes]]:
        """(seq, canonical line) of the scope's revisions appended after ``after``, in log order."""
        rows = self.conn.execute(
            "SELECT seq, line FROM revisions WHERE scope_digest = %s AND seq > %s ORDER BY seq",
            (scope_digest, after)).fetchall()
        return [(seq, bytes(line)) for seq, line in rows]

    def audit(self, scope_digest: str) -> list[bytes]:
        rows = self.conn.execute("SELECT line FROM audit WHERE scope_digest = %s ORDER BY seq",
                                 (scope_digest,)).fetchall()
        return [bytes(line) for (line,) in rows]

    def scope_digests(self) -> list[str]:
        # the one listing that spans scopes: an operator's (doctor, stats, export of a store)
        return [d for (d,) in self.conn.execute("SELECT scope_digest FROM scopes ORDER BY scope_digest")]

    # -- an operator's reads: doctor and stats ---------------------------------------

    @contextmanager
    def examining(self, scope_digest: str, *, batch: int = 2000) -> Iterator["Examined"]:
        """One scope as ``memory doctor`` checks it, in one REPEATABLE READ transaction (the
        counter, the rows, the audit lines and the registered transactions agree). The
        revisions are streamed through a server-side cursor, ``batch`` rows at a time: a
        scope's rows are never all in memory."""
        with self.conn.transaction():
            self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            last_seq = self.last_seq(scope_digest)
            audit = self.audit(scope_digest)
            with self.conn.cursor(name=f"examine_{scope_digest}") as cursor:
                cursor.itersize = batch
                # each revision with the envelope digest its transaction id is registered under
                cursor.execute(
                    "SELECT r.seq, r.record_id, r.transaction_id, r.line, t.envelope_sha256 "
                    "FROM revisions r LEFT JOIN transactions t ON t.scope_digest = r.scope_digest "
                    "AND t.transaction_id = r.transaction_id WHERE r.scope_digest = %s ORDER BY r.seq",
                    (scope_digest,))
                yield Examined(last_seq, audit, ((seq, rid, tx, bytes(line), registered)
                                                 for seq, rid, tx, line, registered in cursor), self, scope_digest)

    def registered_envelopes(self, scope_digest: str, envelope_digests: list[str]) -> set[str]:
        """Those of ``envelope_digests`` some registered transaction of the scope carries (an audit
        row names its transactions by a keyed digest of the id, with the envelope digest)."""
        return {d for (d,) in self.conn.execute(
            "SELECT DISTINCT envelope_sha256 FROM transactions WHERE scope_digest = %s "
            "AND envelope_sha256 = ANY(%s)", (scope_digest, envelope_digests))}

    def scope_counts(self, scope_digest: str) -> dict:
        """``memory stats`` of one scope, counted by the server: current revisions by (status,
        kind), revisions, erasure rows, the latest recorded or erasure instant, and the scope
        (from its first row; None when every record was erased). Only counts and names leave."""
        current = self.conn.execute(
            "SELECT doc->>'status', doc->>'kind', count(*) FROM ("
            "  SELECT DISTINCT ON (record_id) convert_from(line, 'UTF8')::jsonb AS doc FROM revisions"
            "  WHERE scope_digest = %s ORDER BY record_id, seq DESC) c GROUP BY 1, 2", (scope_digest,)).fetchall()
        revisions, last_recorded = self.conn.execute(
            "SELECT count(*), max(convert_from(line, 'UTF8')::jsonb #>> '{transition,recorded_at}') "
            "FROM revisions WHERE scope_digest = %s", (scope_digest,)).fetchone()
        erasures, last_erased = self.conn.execute(
            "SELECT count(*), max(convert_from(line, 'UTF8')::jsonb ->> 'at') FROM audit WHERE scope_digest = %s",
            (scope_digest,)).fetchone()
        scope = self.conn.execute(
            "SELECT convert_from(line, 'UTF8')::jsonb -> 'scope' FROM revisions WHERE scope_digest = %s "
            "ORDER BY seq LIMIT 1", (scope_digest,)).fetchone()
        return {"current": [(status, kind, n) for status, kind, n in current], "revisions": revisions,
                "last_recorded": last_recorded, "erasures": erasures, "last_erased": last_erased,
                "scope": scope[0] if scope else None}

    def vacuum_scope(self, scope_digest: str) -> None:
        """Rewrite the heap of the partitions holding the scope, so deleted rows' bytes go."""
        for table in ("revisions", "audit"):
            partition = self.partition_of(table, scope_digest)
            self.conn.execute(f"VACUUM (FULL) {partition}")

    def partition_of(self, table: str, scope_digest: str) -> str:
        row = self.conn.execute(
            f"SELECT tableoid::regclass::text FROM {table} WHERE scope_digest = %s LIMIT 1",
            (scope_digest,)).fetchone()
        if row:
            return row[0]
        # no row yet: ask the planner which partition the key routes to
        plan = self.conn.execute(
            f"EXPLAIN (FORMAT JSON) SELECT 1 FROM {table} WHERE scope_digest = %s", (scope_digest,)).fetchone()[0]
        return _scanned_relations(plan)[0]


class ScopeWrite:
    """What a writer may do inside ``PostgresLedger.writing``: every statement names its scope."""

    def __init__(self, conn, scope_digest: str) -> None:
        self.conn = conn
        self.scope_digest = scope_digest

    def ensure_scope(self, now: str) -> int:
        # under the scope's advisory lock, so no other writer can insert the row in between
        row = self.conn.execute("SELECT last_seq FROM scopes WHERE scope_digest = %s",
                                (self.scope_digest,)).fetchone()
        if row:
            return row[0]
        self.conn.execute("INSERT INTO scopes (scope_digest, created_at) VALUES (%s, %s)", (self.scope_digest, now))
        return 0

    def known_transaction(self, transaction_id: str) -> str | None:
        row = self.conn.execute("SELECT envelope_sha256 FROM transactions WHERE scope_digest = %s "
                                "AND transaction_id = %s", (self.scope_digest, transaction_id)).fetchone()
        return row[0] if row else None

    def append(self, lines: list[tuple[str, str, bytes]], transactions: dict[str, str], *, now: str) -> Appended:
        """Append (record_id, transaction_id, canonical line) rows and register the transactions:
        one statement (the rows numbered after the scope's counter, the transactions, the counter
        moved or created), so one round trip however many rows."""
        params = {"d": self.scope_digest, "count": len(lines),
                  "rids": [rid for rid, _, _ in lines], "txs": [tx for _, tx, _ in lines],
                  "lines": [line for _, _, line in lines],
                  "new_txs": list(transactions), "digests": list(transactions.values())}
        appended = self.conn.execute(_APPEND, params).fetchone()
        if appended is None:   # the scope's first rows: its counter first (under the lock: no race)
            self.ensure_scope(now)
            appended = self.conn.execute(_APPEND, params).fetchone()
        return Appended(*appended)

    def register(self, transactions: dict[str, str]) -> None:
        """Record transaction ids (with their envelope digests): the primary key refuses a reuse."""
        if transactions:
            with self.conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO transactions (scope_digest, transaction_id, envelope_sha256) VALUES (%s, %s, %s)",
                    [(self.scope_digest, tx, digest) for tx, digest in transactions.items()])

    def erase(self, record_ids: list[str], audit_line: bytes, *, now: str) -> int:
        """Delete every revision of ``record_ids`` and keep the content-free audit row; rows deleted.

        The sequence is not reused: a reader that had read past the erased rows rebuilds
        (its count of rows at or below its seq no longer matches), as after a JSONL rewrite."""
        self.ensure_scope(now)
        deleted = self.conn.execute("DELETE FROM revisions WHERE scope_digest = %s AND record_id = ANY(%s)",
                                    (self.scope_digest, list(record_ids))).rowcount
        self.add_audit(audit_line, now=now)
        return deleted

    def add_audit(self, audit_line: bytes, *, now: str) -> int:
        """Append one content-free audit row (an erasure's, or a restored one); its seq."""
        self.ensure_scope(now)
        seq = self.conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM audit WHERE scope_digest = %s",
                                (self.scope_digest,)).fetchone()[0]
        self.conn.execute("INSERT INTO audit (scope_digest, seq, line) VALUES (%s, %s, %s)",
                          (self.scope_digest, seq, audit_line))
        return seq


# One reader's look at a scope (``PostgresLedger.snapshot``): part 0 is the position (and whether
# the audit rows moved), part 1 the revisions to read, part 2 the audit lines when they moved.
_SNAPSHOT = """
WITH pos AS (SELECT coalesce((SELECT last_seq FROM scopes WHERE scope_digest = %(d)s), 0) AS last_seq,
                    (SELECT count(*) FROM audit WHERE scope_digest = %(d)s) AS audit_rows),
     mode AS (SELECT last_seq, audit_rows, audit_rows <> %(seen)s AS rebuilt FROM pos)
SELECT 0 AS part, last_seq AS seq, NULL::bytea AS line, audit_rows, rebuilt FROM mode
UNION ALL
SELECT 1, r.seq, r.line, NULL, NULL FROM revisions r, mode
 WHERE r.scope_digest = %(d)s AND r.seq > CASE WHEN mode.rebuilt THEN 0 ELSE %(after)s END
UNION ALL
SELECT 2, a.seq, a.line, NULL, NULL FROM audit a, mode WHERE a.scope_digest = %(d)s AND mode.rebuilt
ORDER BY 1, 2"""

# One append (``ScopeWrite.append``): the scope's counter moved, the rows numbered after where
# it stood, their new transactions registered (the primary key refuses a reuse). The rows are
# numbered from the UPDATE's own RETURNING, so the order holds where data-modifying CTEs do not
# share one snapshot (a foreign partition: each is a statement on the shard). A scope with no
# counter yet gets no row at all (``bumped`` is empty). Returns the first and last seq written.
_APPEND = """
WITH bumped AS (UPDATE scopes SET last_seq = last_seq + %(count)s WHERE scope_digest = %(d)s
                RETURNING last_seq - %(count)s AS n),
revs AS (INSERT INTO revisions (scope_digest, seq, record_id, transaction_id, line)
         SELECT %(d)s, bumped.n + u.o, u.r, u.t, u.l
           FROM bumped, unnest(%(rids)s::text[], %(txs)s::text[], %(lines)s::bytea[]) WITH ORDINALITY AS u(r, t, l, o)),
txs AS (INSERT INTO transactions (scope_digest, transaction_id, envelope_sha256)
        SELECT %(d)s, v.t, v.e FROM bumped, unnest(%(new_txs)s::text[], %(digests)s::text[]) AS v(t, e))
SELECT n + 1, n + %(count)s FROM bumped"""


def _lock_key(name: str) -> int:
    """A signed 64-bit advisory lock key from a name (a scope digest)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def _scanned_relations(plan: list) -> list[str]:
    found: list[str] = []

    def walk(node: dict) -> None:
        if "Relation Name" in node:
            found.append(node["Relation Name"])
        for child in node.get("Plans", []):
            walk(child)
    walk(plan[0]["Plan"])
    return found


def scanned_partitions(ledger: PostgresLedger, sql: str, params: tuple) -> list[str]:
    """The relations a statement's plan reads (for tests and the distribution demo)."""
    plan = ledger.conn.execute("EXPLAIN (FORMAT JSON) " + sql, params).fetchone()[0]
    return _scanned_relations(plan)


def driver_failure(exc: BaseException) -> StoreError | None:
    """The store error for a driver exception (a lost connection, a refused statement), or None.

    Only the message's first line is kept: PostgreSQL's DETAIL lines may quote row values."""
    if psycopg is None or not isinstance(exc, psycopg.Error):
        return None
    return StoreError(f"the PostgreSQL store failed ({_first_line(exc)})", code="store_unavailable")


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
