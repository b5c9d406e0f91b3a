"""The gold benchmark on the PostgreSQL backend gives exactly the JSONL backend's report:
every case's setup through the same write path, every query through the same planner and
decision (issue 17: "the gold figures identical on both backends")."""
from __future__ import annotations

import pytest

from memory.benchmark.gold import build_report, load_cases, run_gold
from memory.postgres_ledger import PostgresLedger
from memory.store import PostgresStore

from pg import fresh_schema_url


@pytest.mark.xdist_group("gold_on_jsonl")
def test_the_gold_report_is_the_same_on_postgres_as_on_jsonl(request):
    # every case of the categories about the store (update, temporal, forgetting, conflict, scopes,
    # ...) and every fourth trust case in file order: the trust cases (700 of ~1,000, growing each
    # session) exercise the planner and decision, which both backends share, and each costs a setup
    # on both; a fourth of them still covers every trust file's envelopes and questions
    cases = load_cases()
    trust = [c["case_id"] for c in cases if c["category"] == "trust"]
    kept = set(trust[::4])
    cases = [c for c in cases if c["category"] != "trust" or c["case_id"] in kept]
    assert len(cases) > 450
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
    # the JSONL side is conftest's one replay of every shipped case (what run_gold(cases) reports)
    on_jsonl = request.getfixturevalue("gold_on_jsonl")
    assert postgres == build_report([on_jsonl[case["case_id"]] for case in cases], 5)


def test_a_locomo_run_with_store_url_gives_the_jsonl_figures(tmp_path):
    """``memory benchmark locomo FILE --store-url URL``: the same import and questions on PostgreSQL,
    the same report (timings aside); a database that already holds scopes is refused."""
    import json

    from click.testing import CliRunner

    from memory import api
    from memory.cli import main
    from test_via_http import locomo_file

    dataset = locomo_file(tmp_path / "tiny.json")
    url = fresh_schema_url()
    on_postgres = api.benchmark_dataset("locomo", dataset, store_url=url)
    on_jsonl = api.benchmark_dataset("locomo", dataset)
    assert on_postgres["metrics"]["recall@5"] >= 0.8          # the turns really are found there
    assert on_postgres["import"]["applied"] == 12 and len(PostgresStore.open(url).scope_digests()) == 1
    for report in (on_postgres, on_jsonl):
        report.pop("timing_seconds")
    assert on_postgres == on_jsonl
    again = CliRunner().invoke(main, ["benchmark", "locomo", str(dataset), "--store-url", url, "--json"])
    assert again.exit_code == 7 and json.loads(again.stdout)["error"]["code"] == "store_not_empty"
