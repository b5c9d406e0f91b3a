"""The gold benchmark on the PostgreSQL backend gives exactly the JSONL backend's report:
every case's setup through the same write path, every query through the same planner and
decision (issue 17: "the gold figures identical on both backends")."""
from __future__ import annotations

from memory.benchmark.gold import load_cases, run_gold
from memory.postgres_ledger import PostgresLedger
from memory.store import PostgresStore

from pg import fresh_schema_url


def test_the_gold_report_is_the_same_on_postgres_as_on_jsonl():
    cases = load_cases()
    url = fresh_schema_url()
    PostgresStore.create(url).close()
    ledger = PostgresLedger(url)
    opened: list[PostgresStore] = []

    def on_postgres(root, clock):
        # each case starts from empty tables (a schema per case would cost its DDL 225 times;
        # DELETE, not TRUNCATE: the tables hold a few rows, TRUNCATE locks and rewrites 32 partitions)
        for store in opened:
            store.close()
        for table in ("scopes", "revisions", "transactions", "audit"):
            ledger.conn.execute(f"DELETE FROM {table}")
        opened.append(PostgresStore.open(url, clock=clock))
        return opened[-1]
    postgres = run_gold(cases, store_factory=on_postgres)
    ledger.close()
    assert postgres["metrics"]["setup_failures"] == 0
    assert postgres == run_gold(cases)
