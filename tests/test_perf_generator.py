"""The performance store generator: deterministic, the promised shape, written through the store.

No timing here: benchmarks/perf/run.py measures; these tests only pin what it measures on.
"""
from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

from memory.importers import load_locomo
from memory.jsonio import loads_trusted
from memory.paths import PROJECT_ROOT, scope_digest

_SPEC = importlib.util.spec_from_file_location("perf_generate", PROJECT_ROOT / "benchmarks" / "perf" / "generate.py")
gen = sys.modules.setdefault("perf_generate", importlib.util.module_from_spec(_SPEC))
_SPEC.loader.exec_module(gen)   # registered first: dataclasses look their module up


def shard_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted((root / "shards").rglob("*.jsonl"))}


def revisions(root: Path, key: str | None = None) -> list[dict]:
    folder = root / "shards" / (scope_digest("user", key) if key else "")
    return [loads_trusted(line) for path in sorted(folder.rglob("*.jsonl"))
            for line in path.read_bytes().splitlines()]


@pytest.mark.parametrize("total", [10_000, 100_000, 1_000_000])
def test_layout_adds_up_and_holds_the_probes(total):
    plans = gen.layout(total)
    assert sum(p.size for p in plans) == total
    assert len({p.key for p in plans}) == len(plans)
    probes = {p.key: p.size for p in plans if p.role != "filler"}
    assert probes["probe-1k"] == 1_000 and probes["perf-mutate-1k"] == 1_000
    assert ("probe-10k" in probes) == (total >= 100_000)
    assert ("probe-100k" in probes) == (total >= 1_000_000)
    assert {p.size for p in plans} >= {100, 1_000}


def test_the_layout_of_a_million_has_many_scopes_of_every_size():
    sizes = Counter(p.size for p in gen.layout(1_000_000))
    assert sizes[100] > 1_000 and sizes[1_000] > 100 and sizes[10_000] > 10 and sizes[100_000] == 1


@pytest.mark.parametrize("size", [100, 1_000, 10_000, 100_000])
def test_scope_counts_add_up_to_the_size(size):
    counts = gen.ScopeCounts.for_size(size)
    assert counts.records == size
    assert counts.facts <= gen.MAX_FACTS
    assert counts.updates > 0 and counts.retires > 0
    assert counts.dispute_pairs > 0 or size < 1_000


def test_a_scope_depends_on_seed_key_and_size_only():
    plan = gen.ScopePlan("probe-1k", 1_000, "probe")
    first = list(gen.scope_envelopes("s1", plan))
    assert first == list(gen.scope_envelopes("s1", plan))
    assert first != list(gen.scope_envelopes("s2", plan))
    assert len(first) == gen.ScopeCounts.for_size(1_000).envelopes
    assert Counter(e["operation"] for e in first).keys() == {"add", "update", "retire", "dispute"}


def test_statements_carry_names_numbers_and_dates():
    plan = gen.ScopePlan("probe-1k", 1_000, "probe")
    cast = gen.cast(gen.SEED, plan)
    statements = [e["payload"]["statement"] for e in gen.scope_envelopes(gen.SEED, plan)
                  if e["operation"] == "add"]
    first_names = {name.split()[0] for name in (cast.owner, *cast.people)}
    assert sum(any(n in s for n in first_names) for s in statements) > 0.8 * len(statements)
    assert sum(any(c.isdigit() for c in s) for s in statements) > 0.5 * len(statements)
    assert any(month in s for s in statements for month in gen.MONTHS)


def test_generated_stores_are_byte_identical_and_hold_the_asked_records(tmp_path):
    one = gen.generate(tmp_path / "a", 1_000, batch_size=400)
    gen.generate(tmp_path / "b", 1_000, batch_size=400)
    assert shard_bytes(tmp_path / "a") == shard_bytes(tmp_path / "b")
    assert one["statuses"] == {"applied": one["envelopes"]}
    assert len({r["id"] for r in revisions(tmp_path / "a")}) == one["records"] == 1_000
    assert (tmp_path / "a.gen.json").exists()


def test_generated_records_are_superseded_retired_and_disputed(tmp_path):
    summary = gen.generate(tmp_path / "s", 1_000, plans=[gen.ScopePlan("t-1k", 1_000, "filler")])
    assert summary["records"] == 1_000
    current = {r["id"]: r for r in revisions(tmp_path / "s", "t-1k")}.values()
    statuses = Counter(r["status"] for r in current)
    operations = Counter(r["transition"]["operation"] for r in current)
    counts = gen.ScopeCounts.for_size(1_000)
    assert statuses["disputed"] == 2 * counts.dispute_pairs > 0
    assert statuses["retired"] == counts.retires + counts.updates
    assert statuses["active"] == 1_000 - statuses["disputed"] - statuses["retired"]
    assert operations["update"] >= 2   # a superseded record's last revision, and its successor
    assert any(r["supersession"]["superseded_by"] for r in current)


def test_a_probe_scope_is_the_same_in_stores_of_every_size(tmp_path):
    gen.generate(tmp_path / "small", 1_000)
    gen.generate(tmp_path / "large", 1_500)
    assert revisions(tmp_path / "small", "probe-100") == revisions(tmp_path / "large", "probe-100")


def test_generate_refuses_to_overwrite(tmp_path):
    (tmp_path / "x").mkdir()
    with pytest.raises(FileExistsError):
        gen.generate(tmp_path / "x", 100)


def test_queries_are_deterministic_and_about_the_scope():
    plan = gen.ScopePlan("probe-1k", 1_000, "probe")
    asked = gen.queries(gen.SEED, plan, 50)
    assert asked == gen.queries(gen.SEED, plan, 50) and len(set(asked)) > 30
    cast = gen.cast(gen.SEED, plan)
    names = {name.split()[0] for name in (cast.owner, *cast.people)}
    assert sum(any(n in q for n in names) for q in asked) > 25


def test_the_locomo_file_loads_with_the_importer(tmp_path):
    path = tmp_path / "locomo.json"
    assert gen.locomo_file(path, conversations=2, turns=50) == 100
    conversations = load_locomo(path)
    assert [len(c.turns) for c in conversations] == [50, 50]
    assert len({t.session for t in conversations[0].turns}) > 1
