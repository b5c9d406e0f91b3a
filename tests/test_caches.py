"""The store's in-process caches (folded state, query view, opened index, staged state) and
the fast schema predicate: each must give what a fresh read gives, and go stale exactly when
the files change — from this Store object, another one, or another process."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory import schemas
from memory.indexing import open_index
from memory.paths import DEFAULT_CONFIG_DIR
from memory.query import QueryRequest, run_query
from memory.store import Store

from helpers import NOW, add_env, by_id, envelope, make_store, reopen, scope

LATER = "2024-03-10T00:00:00Z"


def ask(store, text="Where does Alice live?"):
    return run_query(store, QueryRequest(text=text, user="alice"))


def ids(answer) -> list[str]:
    return [e["id"] for e in answer["evidence"]]


def test_a_write_through_another_store_object_reaches_a_warm_store(tmp_path):
    warm = make_store(tmp_path / "s")
    warm.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    assert ask(warm)["evidence"][0]["statement"] == "Alice lives in Berlin"   # caches now warm
    other = reopen(warm)
    record_id = other.state(scope()).order[0]
    other.mutate(by_id("forget", record_id, "t2"))
    other.mutate(add_env("Alice lives in Lisbon", "user.city", "t3"))
    assert [e["statement"] for e in ask(warm)["evidence"]] == ["Alice lives in Lisbon"]
    assert ask(warm) == ask(reopen(warm))


def test_a_write_from_another_process_reaches_a_warm_store(tmp_path):
    warm = make_store(tmp_path / "s")
    warm.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    before = ids(ask(warm))
    script = ("import sys; sys.path[:0] = sys.argv[1:3]\n"
              "from helpers import add_env, make_store\n"
              "make_store(sys.argv[3]).mutate(add_env('Alice lives near the Berlin zoo', None, 't2', kind='episode'))")
    subprocess.run([sys.executable, "-c", script, str(tmp_path.parent), "tests", str(tmp_path / "s")],
                   check=True, cwd=str(__import__("pathlib").Path(__file__).parent.parent))
    after = ids(ask(warm, "Where does Alice live in Berlin?"))
    assert len(after) == len(before) + 1
    assert ask(warm) == ask(reopen(warm))


def test_a_query_takes_one_fingerprint_and_the_next_query_takes_a_fresh_one(tmp_path, monkeypatch):
    """The view and the index of one query are checked against one listing of the scope's
    files; a listing is never carried over to the next query, which must see a write made
    in between by another Store object."""
    warm = make_store(tmp_path / "s")
    warm.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    ask(warm)
    taken = []
    listed = Store.fingerprint
    monkeypatch.setattr(Store, "fingerprint",
                        lambda self, s: (taken.append(s) if self is warm else None) or listed(self, s))
    assert ids(ask(warm)) and len(taken) == 1
    reopen(warm).mutate(add_env("Alice lives in Lisbon now", "user.home", "t2"))
    assert "Alice lives in Lisbon now" in [e["statement"] for e in ask(warm, "Does Alice live in Lisbon?")["evidence"]]
    assert len(taken) == 2
    assert ask(warm) == ask(reopen(warm))


def test_a_policy_changed_in_place_is_not_served_the_index_built_under_the_old_one(tmp_path):
    store = make_store(tmp_path / "s")
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    before = open_index(store, scope("alice"))
    retrieval = store.policies.retrieval.data
    retrieval["bm25"] = dict(retrieval["bm25"], k1=retrieval["bm25"]["k1"] + 0.5)
    after = open_index(store, scope("alice"))
    assert after is not before
    assert after.settings["k1"] == before.settings["k1"] + 0.5


def test_an_erasure_drops_the_cached_view_and_index(tmp_path):
    store = make_store(tmp_path / "s")
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    store.mutate(add_env("Alice lives in a flat near the Berlin zoo", None, "t2", kind="episode"))
    assert len(ask(store)["evidence"]) == 2
    index_before = open_index(store, scope())
    other = reopen(store)
    erased = other.state(scope()).order[1]
    assert other.mutate(envelope("erase", "t3", record_id=erased))["status"] == "applied"
    assert erased not in ids(ask(store))
    assert erased not in open_index(store, scope())
    assert erased in index_before   # a handed-out index is never changed in place


def test_the_state_a_batch_leaves_behind_equals_a_fresh_fold(tmp_path):
    store = make_store(tmp_path / "s")
    results = list(store.apply([add_env(f"value {i}", f"user.k{i % 3}", f"t{i}") for i in range(6)]
                               + [add_env("value 0 again", "user.k0", "t9")], batch_size=4))
    assert [r["status"] for r in results].count("applied") == 3
    cached, fresh = store.state(scope()), reopen(store).state(scope())
    assert cached.revisions == fresh.revisions and cached.order == fresh.order
    assert cached.transactions == fresh.transactions and cached.active_by_key == fresh.active_by_key


def test_a_kinds_filter_does_not_narrow_the_shared_view(tmp_path):
    store = make_store(tmp_path / "s")
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    store.mutate(add_env("Alice talked about her flat in Berlin", None, "t2", kind="episode"))
    narrowed = run_query(store, QueryRequest(text="Where does Alice live in Berlin?", user="alice",
                                             kinds=("episode",)))
    assert [e["kind"] for e in narrowed["evidence"]] == ["episode"]
    assert sorted(e["kind"] for e in ask(store, "Where does Alice live in Berlin?")["evidence"]) == ["episode", "fact"]


def test_the_key_lookup_follows_updates_retirements_and_erasure(tmp_path):
    store = make_store(tmp_path / "s")
    store.mutate(add_env("Berlin", "user.city", "t1"))
    first = store.state(scope()).active_for_key("user.city")["id"]
    later = make_store(tmp_path / "s", now=LATER)
    later.mutate(envelope("update", "t2", key="user.city", payload={"statement": "Lisbon"}))
    second = later.state(scope()).active_for_key("user.city")
    assert second["statement"] == "Lisbon" and second["id"] != first
    later = make_store(tmp_path / "s", now="2024-03-20T00:00:00Z")
    assert later.mutate(by_id("retire", second["id"], "t3"))["status"] == "applied"
    assert later.state(scope()).active_for_key("user.city") is None
    assert later.mutate(add_env("Porto", "user.city", "t4"))["status"] == "applied"
    erased = later.state(scope()).active_for_key("user.city")["id"]
    later.mutate(envelope("erase", "t5", record_id=erased))
    assert later.state(scope()).active_for_key("user.city") is None
    assert reopen(later).state(scope()).active_by_key == later.state(scope()).active_by_key


# -- the compiled schema predicate: sound against jsonschema --------------------------------

def _base() -> dict:
    return add_env("Alice lives in Berlin", "user.city", "t1", valid_from=NOW)


def _policy(name: str):
    return lambda: json.loads((DEFAULT_CONFIG_DIR / f"{name}.json").read_text())


def _record() -> dict:
    import tempfile
    store = make_store(Path(tempfile.mkdtemp()) / "s", NOW)
    store.mutate(_base())
    return copy.deepcopy(next(store.state(scope()).currents()))


# a valid document per compiled schema: mutations of it probe the predicate's soundness
BASES = {"envelope": _base, "record": _record, "mutation-policy": _policy("mutation-policy"),
         "forgetting-policy": _policy("forgetting-policy"), "retrieval-policy": _policy("retrieval-policy")}

LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=6),
                   st.floats(-2, 2, allow_nan=False), st.lists(st.sampled_from(["user", "agent", "user"]), max_size=3),
                   st.sampled_from(["add", "user", "mem_" + "a" * 24, "x" * 600, "a.b", "A.B", "2024-03-01T12:00:00Z"]))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                      max_leaves=6)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for at, item in enumerate(value):
            yield from _paths(item, prefix + (at,))


@pytest.mark.parametrize("name", sorted(BASES))
@settings(max_examples=300, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_fast_check_never_accepts_what_jsonschema_refuses(name, data):
    env = BASES[name]()
    paths = list(_paths(env))[1:]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        node = env
        for step in path[:-1]:
            node = node[step] if not isinstance(node, list) or step < len(node) else node
        if isinstance(node, dict) and data.draw(st.booleans()) and path[-1] in node:
            del node[path[-1]]
        elif isinstance(node, (dict, list)) and (not isinstance(node, list) or path[-1] < len(node)):
            node[path[-1]] = data.draw(VALUES)
        paths = list(_paths(env))[1:] or [()]
    accepts = schemas.fast_check(name)
    assert accepts is not None
    if accepts(env):
        assert schemas.violations(name, env) == []


def test_the_fast_check_accepts_a_valid_envelope_and_refusals_still_list_every_problem():
    env = _base()
    assert schemas.fast_check("envelope")(env) and schemas.violations("envelope", env) == []
    broken = copy.deepcopy(env)
    broken["operation"] = "explode"
    broken["actor"]["type"] = "robot"
    assert not schemas.fast_check("envelope")(broken)
    try:
        schemas.check("envelope", broken)
    except Exception as exc:
        assert len(exc.details) == 2
    else:
        raise AssertionError("a broken envelope passed")


def test_a_schema_keyword_outside_the_subset_is_left_to_jsonschema():
    assert schemas.compile_schema({"type": "number", "multipleOf": 2}) is None
    assert schemas.compile_schema({"enum": [1, True]}) is None


@pytest.mark.parametrize("schema, values", [
    ({"type": "number", "minimum": 0, "maximum": 1}, [0, 1, 0.5, -0.1, 1.5, True, "1"]),
    ({"type": "array", "minItems": 1, "maxItems": 2}, [[], ["a"], ["a", "b"], ["a", "b", "c"]]),
    ({"type": "array", "uniqueItems": True}, [["a", "b"], ["a", "a"], []]),
    ({"type": "object", "propertyNames": {"enum": ["add", "update"]}}, [{}, {"add": 1}, {"drop": 1}]),
])
def test_each_compiled_keyword_agrees_with_jsonschema(schema, values):
    import jsonschema
    accepts = schemas.compile_schema(schema)
    assert accepts is not None
    for value in values:
        assert accepts(value) == jsonschema.Draft202012Validator(schema).is_valid(value), value


def test_a_long_lived_reader_extends_a_copy_of_its_index_instead_of_loading_it_again(tmp_path, monkeypatch):
    from memory.retrieval import index as index_module
    store = make_store(tmp_path / "s")
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    first = open_index(store, scope())
    loads = []
    real = index_module.ScopeIndex.open.__func__
    monkeypatch.setattr(index_module.ScopeIndex, "open",
                        classmethod(lambda cls, *a: loads.append(1) or real(cls, *a)))
    added = store.mutate(add_env("Alice likes tea", "user.drink", "t2"))["record_id"]
    second = open_index(store, scope())
    assert loads == []                                   # extended from the tail, not reloaded
    assert added in second and added not in first        # the index handed out before is unchanged
    assert sorted(second.doc_ids()) == sorted(open_index(reopen(store), scope()).doc_ids())


def test_another_process_saving_the_index_makes_the_reader_load_it_again(tmp_path, monkeypatch):
    from memory.retrieval import index as index_module
    store = make_store(tmp_path / "s")
    store.mutate(add_env("Alice lives in Berlin", "user.city", "t1"))
    open_index(store, scope())
    other = reopen(store)
    other.mutate(add_env("Alice likes tea", "user.drink", "t2"))
    open_index(other, scope())                           # saved by "another process"
    store.mutate(add_env("Alice has a cat", "user.pet", "t3"))
    loads = []
    real = index_module.ScopeIndex.open.__func__
    monkeypatch.setattr(index_module.ScopeIndex, "open",
                        classmethod(lambda cls, *a: loads.append(1) or real(cls, *a)))
    index = open_index(store, scope())
    assert loads == [1] and len(index) == 3
