"""The PostgreSQL ledger tables: migrations, per-scope appends and reads, partition pruning."""
from __future__ import annotations

import threading

import pytest

from memory.errors import StoreError
from pg import fresh_schema_url

NOW = "2024-01-01T00:00:00Z"


@pytest.fixture
def ledger():
    from memory.postgres_ledger import PostgresLedger
    ledger = PostgresLedger(fresh_schema_url())
    ledger.migrate(now=NOW)
    yield ledger
    ledger.close()


def test_migrate_is_idempotent_and_a_newer_schema_is_refused(ledger):
    from memory.postgres_ledger import SCHEMA_VERSION, PostgresLedger
    assert ledger.migrate(now=NOW) == SCHEMA_VERSION
    ledger.check_schema()
    ledger.conn.execute("INSERT INTO memory_schema VALUES (%s, %s, 8)", (SCHEMA_VERSION + 1, NOW))
    with pytest.raises(StoreError) as refused:
        ledger.check_schema()
    assert refused.value.code == "schema_too_new"
    with pytest.raises(StoreError) as refused:
        PostgresLedger(ledger.url).migrate(now=NOW)
    assert refused.value.code == "schema_too_new"


def test_an_empty_database_is_not_a_store():
    from memory.postgres_ledger import PostgresLedger
    ledger = PostgresLedger(fresh_schema_url(laid_out=False))
    with pytest.raises(StoreError) as missing:
        ledger.check_schema()
    assert missing.value.code == "store_not_found"


def test_appends_are_read_back_per_scope_in_order_and_by_sequence(ledger):
    with ledger.writing("a" * 32) as write:
        write.append([("mem_1", "t1", b'{"n":1}'), ("mem_1", "t2", b'{"n":2}')], {"t1": "x", "t2": "y"}, now=NOW)
    with ledger.writing("b" * 32) as write:
        write.append([("mem_9", "t1", b'{"other":1}')], {"t1": "z"}, now=NOW)
    with ledger.writing("a" * 32) as write:
        appended = write.append([("mem_2", "t3", b'{"n":3}')], {"t3": "w"}, now=NOW)
    assert appended.first_seq == appended.last_seq == 3
    assert [line for _, line in ledger.read("a" * 32)] == [b'{"n":1}', b'{"n":2}', b'{"n":3}']
    assert ledger.read("a" * 32, after=2) == [(3, b'{"n":3}')]
    assert [line for _, line in ledger.read("b" * 32)] == [b'{"other":1}']
    assert ledger.last_seq("a" * 32) == 3 and ledger.last_seq("c" * 32) == 0


def test_a_transaction_id_is_unique_within_a_scope_only(ledger):
    import psycopg
    with ledger.writing("a" * 32) as write:
        write.append([("mem_1", "t1", b"{}")], {"t1": "x"}, now=NOW)
    with ledger.writing("b" * 32) as write:  # the same id in another tenant's scope is theirs
        write.append([("mem_2", "t1", b"{}")], {"t1": "x"}, now=NOW)
    with pytest.raises(psycopg.errors.UniqueViolation):
        with ledger.writing("a" * 32) as write:
            write.append([("mem_3", "t1", b"{}")], {"t1": "y"}, now=NOW)
    # the failed transaction left nothing behind
    assert len(ledger.read("a" * 32)) == 1 and ledger.last_seq("a" * 32) == 1


def test_writers_on_one_scope_serialize_and_lose_nothing(ledger):
    from memory.postgres_ledger import PostgresLedger

    def writer(n: int) -> None:
        mine = PostgresLedger(ledger.url)
        for i in range(20):
            with mine.writing("a" * 32) as write:
                write.append([(f"mem_{n}", f"w{n}-{i}", b"{}")], {f"w{n}-{i}": "h"}, now=NOW)
        mine.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seqs = [seq for seq, _ in ledger.read("a" * 32)]
    assert seqs == list(range(1, 81))


def test_erase_deletes_the_rows_keeps_the_audit_row_and_the_transaction(ledger):
    with ledger.writing("a" * 32) as write:
        write.append([("mem_1", "t1", b'{"secret":1}'), ("mem_2", "t2", b'{"kept":1}')],
                     {"t1": "x", "t2": "y"}, now=NOW)
    with ledger.writing("a" * 32) as write:
        assert write.erase(["mem_1"], b'{"record_ids":["mem_1"]}', now=NOW) == 1
        assert write.known_transaction("t1") == "x"
    ledger.vacuum_scope("a" * 32)
    assert [line for _, line in ledger.read("a" * 32)] == [b'{"kept":1}']
    assert ledger.audit("a" * 32) == [b'{"record_ids":["mem_1"]}']


def test_every_scoped_read_reaches_one_partition(ledger):
    from memory.postgres_ledger import scanned_partitions
    for digest in ("a" * 32, "b" * 32, "c" * 32):
        with ledger.writing(digest) as write:
            write.append([("mem_1", "t1", b"{}")], {"t1": "x"}, now=NOW)
    relations = scanned_partitions(ledger, "SELECT seq, line FROM revisions WHERE scope_digest = %s AND seq > %s",
                                   ("b" * 32, 0))
    assert len(relations) == 1 and relations[0].startswith("revisions_p")
    assert relations[0] == ledger.partition_of("revisions", "b" * 32)
