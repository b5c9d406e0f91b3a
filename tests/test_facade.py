"""One façade (CONVENTIONS 17): the CLI, HTTP and MCP front doors only translate to ``memory.api``.

Read from the source: what each front door imports from the package, what its
handlers call. Then the behaviour the façade owns for every door alike: one
NFC rule for user ids (issue 16, point 4), explicit whole-scope erasure, and
the transaction id of a refusal.
"""
from __future__ import annotations

import ast
import json
import unicodedata

import pytest
from click.testing import CliRunner

from helpers import NOW, add_env, by_id, envelope, make_store
from memory import api
from memory.cli import main
from memory.paths import PACKAGE_ROOT

DECOMPOSED = "Ange\u0301le"
PRECOMPOSED = unicodedata.normalize("NFC", DECOMPOSED)


def source_tree(module: str) -> ast.Module:
    return ast.parse((PACKAGE_ROOT / f"{module}.py").read_text(encoding="utf-8"))


def package_imports(tree: ast.Module) -> set[str]:
    """``module.name`` for every name a file imports from this package (function-level included)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update(f"{node.module or ''}:{alias.name}" for alias in node.names)
    return found


def calls_in(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def dotted(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return f"{dotted(func.value)}.{func.attr}"
    return "?"


# -- the front doors, read from their source -----------------------------------------------

# presentation and process plumbing only: printing, exit codes, choices, the two other front doors
CLI_MAY_IMPORT = {":api", ":vocabulary as V", "errors:GateError", "errors:InputError", "errors:MemoryStoreError",
                  "errors:UsageError", "jsonio:dumps_text", "benchmark.report:provenance",
                  "benchmark.report:render_html", "benchmark.report:render_table", "stats:stats_text",
                  "server:Limits", "server:serve", "mcp_server:serve_stdio"}


def _names(found: set[str]) -> set[str]:
    return {name.replace(" as V", "") for name in found}


# the command line's modules: the entry (`query` without click), the root group, its plumbing and
# `query`; the other commands
CLI_MODULES = ("cli", "cli_root", "cli_commands")


@pytest.mark.parametrize("module", CLI_MODULES)
def test_the_cli_imports_nothing_from_the_package_but_the_facade_and_presentation(module):
    allowed = _names(CLI_MAY_IMPORT)
    found = _names(package_imports(source_tree(module)))
    own = {name for name in found if name.startswith(("cli:", "cli_root:")) or name in (":cli_commands", ":cli_root")}
    assert found - own - allowed == set()


@pytest.mark.parametrize("module", CLI_MODULES)
def test_the_cli_never_calls_a_store_method(module):
    offending = [dotted(c.func) for c in calls_in(source_tree(module))
                 if dotted(c.func).startswith(("store.", "_open_store(ctx)."))]
    assert offending == []


def test_the_mcp_tools_only_call_the_facade():
    tree = source_tree("mcp_server")
    assert _names(package_imports(tree)) <= {":api", "errors:MemoryStoreError", "jsonio:dumps_text"}
    build = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "build_server")
    tools = [n for n in build.body if isinstance(n, ast.FunctionDef)]
    assert {t.name for t in tools} == {"query", "mutate", "get", "history", "review_list"}
    for tool in tools:
        called = {dotted(c.func) for statement in tool.body for c in calls_in(statement)} - {"_guarded"}
        assert called and all(name.startswith("api.") or name == "?.to_json" for name in called), tool.name


def test_the_http_routes_only_call_the_facade():
    tree = source_tree("server")
    install = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_install_routes")
    offloaded = [c for c in calls_in(install) if dotted(c.func) == "_offload"]
    work = {dotted(c.args[1]) for c in offloaded}
    assert work == {"api.search", "api.query", "api.mutate", "api.add_conversation"}
    assert not [c for c in calls_in(install) if dotted(c.func).startswith("store.")]
    assert not [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("_episode", "add_memories")]


def test_every_verb_of_the_cli_is_an_api_function():
    verbs = ["add", "update", "retire", "dispute", "resolve", "approve", "reject", "forget", "erase", "mutate",
             "apply", "query", "search", "get", "history", "review_list", "export", "import_dataset", "restore",
             "copy", "stats", "build_views", "retention_sweep", "doctor", "where", "init", "benchmark_gold",
             "benchmark_dataset", "benchmark_via_http"]
    assert [v for v in verbs if not callable(getattr(api, v, None)) or v not in api.__all__] == []


def test_one_envelope_builder():
    """Only the builder spells the envelope's schema_version: every other writer builds through it."""
    writers = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.Constant) and n.value == "memory.envelope.v1" for n in ast.walk(tree)):
            writers.append(path.relative_to(PACKAGE_ROOT).as_posix())
    assert writers == ["envelope_builder.py"]


# -- NFC: one scope per user, through every door -------------------------------------------

def run(*args, input=None):
    result = CliRunner().invoke(main, [*args, "--json"], input=input)
    return result.exit_code, json.loads(result.output) if result.output.strip() else None


def test_the_api_builds_one_scope_for_both_spellings():
    assert api.user_scope(DECOMPOSED) == api.user_scope(PRECOMPOSED) == {"type": "user", "key": PRECOMPOSED}
    assert DECOMPOSED != PRECOMPOSED


def test_cli_reads_writes_and_erases_one_scope_for_both_spellings(tmp_path):
    make_store(tmp_path / "store")
    code, added = run("add", "The user lives in Lyon.", "--user", DECOMPOSED, "--key", "user.home_city")
    assert code == 0 and added["status"] == "applied"
    code, answer = run("query", "where does the user live?", "--user", PRECOMPOSED)
    assert answer["knowledge_state"].startswith("VERIFIED")
    for spelling in (DECOMPOSED, PRECOMPOSED):
        assert run("get", added["record_id"], "--user", spelling)[0] == 0
        assert run("history", added["record_id"], "--user", spelling)[0] == 0
        answer = run("query", "where does the user live?", "--user", spelling)[1]
        assert [e["id"] for e in answer["evidence"]] == [added["record_id"]]
    code, other = run("add", "Bob lives in Rome.", "--user", "bob", "--key", "user.home_city")
    code, erased = run("erase", "--whole-scope", "--user", DECOMPOSED)
    assert (code, erased["status"]) == (0, "applied")
    assert run("get", added["record_id"], "--user", PRECOMPOSED)[0] == 6
    assert run("get", other["record_id"], "--user", "bob")[0] == 0       # only that scope


def test_mcp_binds_both_spellings_to_one_scope(tmp_path):
    from memory.mcp_server import build_server  # noqa: F401  (the extra must be installed)
    pytest.importorskip("mcp.server.mcpserver")
    store = make_store(tmp_path / "store")
    written = store.mutate(add_env("The user lives in Lyon.", "user.home_city", "tx-lyon", user=PRECOMPOSED))
    assert api.query(store, "where does the user live?", DECOMPOSED).evidence[0].id == written["record_id"]
    assert api.get(store, written["record_id"], DECOMPOSED)["id"] == written["record_id"]
    # a server started with the decomposed spelling may write the precomposed scope: it is its own
    result = api.mutate(store, add_env("The user likes tea.", "user.drink", "tx-tea", user=PRECOMPOSED),
                        only_user=DECOMPOSED)
    assert result.status == "applied"
    refused = api.mutate(store, add_env("Bob likes tea.", "user.drink", "tx-bob", user="bob"), only_user=DECOMPOSED)
    assert refused.code == "scope_not_permitted"


# -- erasure must be explicit ----------------------------------------------------------------

def test_an_erase_envelope_naming_nothing_is_refused_and_erases_nothing(store):
    written = store.mutate(add_env("The user lives in Paris.", "user.home_city", "tx-paris"))
    result = api.mutate(store, envelope("erase", "tx-wipe"))
    assert (result.status, result.code) == ("refused", "invalid_target")
    assert api.get(store, written["record_id"], "alice")["statement"] == "The user lives in Paris."


def test_an_erase_naming_a_record_and_the_whole_scope_is_refused(store):
    written = store.mutate(add_env("The user lives in Paris.", "user.home_city", "tx-paris"))
    both = by_id("erase", written["record_id"], "tx-both")
    both["target"]["whole_scope"] = True
    assert api.mutate(store, both).code == "invalid_target"


def test_the_cli_whole_scope_flag_puts_whole_scope_in_the_envelope(store, monkeypatch):
    sent = []
    real = api.mutate
    monkeypatch.setattr(api, "mutate", lambda s, env, **kw: sent.append(env) or real(s, env, **kw))
    store.mutate(add_env("The user lives in Paris.", "user.home_city", "tx-paris"))
    assert run("erase", "--whole-scope", "--user", "alice")[0] == 0
    assert sent[0]["target"] == {"record_id": None, "memory_key": None, "whole_scope": True,
                                 "scope": {"type": "user", "key": "alice"}}


# -- refusals keep the caller's transaction id ----------------------------------------------------

@pytest.mark.parametrize("damage", ["too_large", "schema"])
def test_a_refusal_before_full_parsing_keeps_the_transaction_id(store, damage):
    env = add_env("The user lives in Paris.", "user.home_city", "tx-keep-me")
    if damage == "too_large":
        env["payload"]["statement"] = "x" * (store.policies.mutation.caps["envelope_bytes"] + 10)
        raw = json.dumps(env)
    else:
        env["unexpected"] = 1
        raw = json.dumps(env)
    result = api.mutate(store, raw)
    assert result.status == "refused"
    assert (result.transaction_id, result.operation) == ("tx-keep-me", "add")


def test_the_cli_mutate_prints_the_transaction_id_of_a_schema_refusal(store):
    env = add_env("The user lives in Paris.", "user.home_city", "tx-cli-keep")
    env["unexpected"] = 1
    code, out = run("mutate", input=json.dumps(env))
    assert code == 5 and out["transaction_id"] == "tx-cli-keep"


def test_apply_results_keep_transaction_ids_of_refusals(store, tmp_path):
    bad = add_env("The user lives in Paris.", "user.home_city", "tx-apply-bad")
    bad["unexpected"] = 1
    path = tmp_path / "envelopes.jsonl"
    path.write_text(json.dumps(bad) + "\n" + json.dumps(add_env("Tea.", "user.drink", "tx-apply-ok")) + "\n")
    result = CliRunner().invoke(main, ["apply", str(path)])
    lines = [json.loads(line) for line in result.stdout.splitlines()]  # stderr holds the summary
    assert [(r["transaction_id"], r["status"]) for r in lines] == [("tx-apply-bad", "refused"),
                                                                  ("tx-apply-ok", "applied")]


# -- a retire in the same second as its add ---------------------------------------------------------

def test_retire_in_the_same_second_as_the_add_is_accepted(store):
    added = api.add(store, "alice", "The user is at the gym.", key="user.location")
    retired = api.retire(store, "alice", added.record_id)
    assert retired.status == "applied", retired.error
    record = api.get(store, added.record_id, "alice")
    assert record["status"] == "retired" and record["valid_time"] == {"from": NOW, "to": NOW}


def test_retire_before_the_record_started_is_still_refused(store):
    added = api.add(store, "alice", "The user is at the gym.", key="user.location")
    assert api.retire(store, "alice", added.record_id, at="2020-01-01").code == "invalid_valid_time"


# -- the MCP server names its version ----------------------------------------------------------------

def test_the_package_version_is_known():
    from importlib import metadata
    assert api.version() not in ("", None)
    try:
        assert api.version() == metadata.version("memory-ledger")
    except metadata.PackageNotFoundError:
        assert api.version() == "0.1.0" or api.version()


def test_the_mcp_server_reports_the_package_version(store):
    pytest.importorskip("mcp.server.mcpserver")
    from memory.mcp_server import build_server
    server = build_server(store, "alice")
    assert server.version == api.version() != ""


def test_the_mcp_server_started_with_one_spelling_serves_the_other(tmp_path):
    pytest.importorskip("mcp.server.mcpserver")
    from test_mcp import session, text
    store = make_store(tmp_path / "store")
    written = store.mutate(add_env("The user lives in Lyon.", "user.home_city", "tx-lyon", user=PRECOMPOSED))

    async def calls(client):
        answer = await client.call_tool("query", {"text": "where does the user live?"})
        got = await client.call_tool("get", {"record_id": written["record_id"]})
        tea = add_env("The user likes tea.", "user.drink", "tx-tea", user=DECOMPOSED)
        wrote = await client.call_tool("mutate", {"envelope": tea})
        return text(answer), text(got), text(wrote), client.server_info.version

    answer, got, wrote, version = session(calls, user=DECOMPOSED)
    assert [e["id"] for e in answer["evidence"]] == [written["record_id"]]
    assert got["id"] == written["record_id"]
    assert wrote["status"] == "applied"
    assert store.get(wrote["record_id"], {"type": "user", "key": PRECOMPOSED})["statement"] == "The user likes tea."
    assert version == api.version() != ""


# -- every verb through the façade, and the CLI's dispute and resolve ------------------------------

def test_the_verbs_build_envelopes_the_policy_admits(store):
    paris = api.add(store, "alice", "The user lives in Paris.", key="user.home_city", valid_from="2020-01-01")
    lyon = api.update(store, "alice", "The user lives in Lyon.", key="user.home_city", valid_from="2022-01-01")
    tea = api.add(store, "alice", "The user likes tea.", key="user.drink")
    coffee = api.add(store, "alice", "The user likes coffee.", key="user.drink_morning")
    disputed = api.dispute(store, "alice", tea.record_id, [coffee.record_id])
    resolved = api.resolve(store, "alice", tea.record_id, [coffee.record_id])
    forgotten = api.forget(store, "alice", key="user.drink")
    erased = api.erase(store, "alice", key="user.home_city")
    results = [paris, lyon, tea, coffee, disputed, resolved, forgotten, erased]
    assert [(r.operation, r.status) for r in results] == [
        ("add", "applied"), ("update", "applied"), ("add", "applied"), ("add", "applied"), ("dispute", "applied"),
        ("resolve", "applied"), ("forget", "applied"), ("erase", "applied")]
    assert api.get(store, coffee.record_id, "alice")["status"] == "rejected"
    with pytest.raises(Exception) as bad:
        api.erase(store, "alice")
    assert bad.value.code == "usage_error"


def test_cli_dispute_and_resolve(store):
    tea = store.mutate(add_env("The user likes tea.", "user.drink", "tx-tea"))["record_id"]
    coffee = store.mutate(add_env("The user likes coffee.", "user.drink_am", "tx-coffee"))["record_id"]
    code, out = run("dispute", tea, "--with", coffee, "--user", "alice", "--tx", "tx-d")
    assert (code, out["status"], out["transaction_id"]) == (0, "applied", "tx-d")
    assert api.get(store, tea, "alice")["status"] == "disputed"
    code, out = run("resolve", tea, "--over", coffee, "--user", "alice")
    assert (code, out["status"]) == (0, "applied")
    assert (api.get(store, tea, "alice")["status"], api.get(store, coffee, "alice")["status"]) == ("active", "rejected")


def test_the_cli_mutate_keeps_the_transaction_id_of_an_envelope_too_large_to_read_whole(store):
    env = add_env("x" * (store.policies.mutation.caps["envelope_bytes"] * 2), "user.note", "tx-huge")
    code, out = run("mutate", input=json.dumps(env))
    assert code == 5 and out["error"]["code"] in ("envelope_too_large", "invalid_json")
    assert (out["transaction_id"], out["operation"]) == ("tx-huge", "add")


def test_a_transaction_id_inside_a_statement_is_not_taken_for_the_envelopes():
    from memory.api import _named_in
    raw = b'{"payload": {"statement": "say \\"transaction_id\\": \\"fake\\""}, "transaction_id": "real"'
    assert _named_in(raw, "transaction_id") == "real"


@pytest.mark.parametrize("command", [["query", "x"], ["history", "mem_000000000000000000000000"], ["export"]])
def test_a_user_id_that_is_not_utf8_is_bad_input_not_an_internal_error(tmp_path, command):
    make_store(tmp_path / "store")
    code, answer = run(*command, "--user", "me\udcff")   # how Python hands over a non-UTF-8 argument
    assert (code, answer["error"]["code"]) == (3, "invalid_utf8")
