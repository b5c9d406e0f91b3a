"""The write path's bytes are pinned: the same envelope stream, applied with a fixed clock, writes
byte-identical shards, audit files and manifests, and returns identical results (issue 14 made
admission and sealing faster; not a byte of what they write may move).

The pins were taken with the code before those changes (commit cb78319). The mutation policy is
frozen in ``tests/data/write_identity/`` so that an edit of ``config/mutation-policy.json`` (whose
hash every revision records) does not move them; the other policies' hashes are left out of the
manifests compared. A deliberate change of what the store writes re-pins them: run
``PYTHONPATH=$PWD python tests/test_write_identity.py`` and paste its output below.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import sys
import unicodedata
from pathlib import Path

if __name__ == "__main__":   # run as a script to print the pins
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import add_env, by_id, envelope, update_env  # noqa: E402

from memory.clock import FixedClock  # noqa: E402
from memory.jsonio import canonical_bytes, dumps, loads_trusted  # noqa: E402
from memory.paths import DEFAULT_CONFIG_DIR, PROJECT_ROOT  # noqa: E402
from memory.records import record_id_for  # noqa: E402
from memory.store import Store  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "write_identity"
NOW = "2025-02-03T04:05:06Z"

_SPEC = importlib.util.spec_from_file_location("perf_generate", PROJECT_ROOT / "benchmarks" / "perf" / "generate.py")
gen = sys.modules.setdefault("perf_generate", importlib.util.module_from_spec(_SPEC))
_SPEC.loader.exec_module(gen)


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def crafted(user: str) -> list:
    """Envelopes that walk the write path's branches: strings that NFC changes (in keys of the
    scope, actor ids, aliases, tags), full-width and invisible characters, a credential in each
    kind of field, replays and conflicts, candidates, every lifecycle operation, erasures, bad
    input in bytes and text form."""
    scope = {"type": "user", "key": user}

    def rid(tx: str) -> str:
        return record_id_for(scope, tx)
    city = add_env(_nfd("Lives in Café Münster, Zoë's town"), "user.city", "c-1", user=user,
                   payload_extra={"aliases": [_nfd("Münster"), "ｍｕｎｓｔｅｒ"], "tags": [_nfd("résumé"), "城市"]},
                   valid_from="2020-01-01T00:00:00+02:00")
    out: list = [
        city,
        add_env("Talked about the 🌲 forest and 東京 at night", None, "c-2", user=user, kind="episode",
                source="conversation", actor="importer", actor_id=_nfd("importér"),
                valid_from="2021-05-05T10:00:00Z"),
        city,                                                              # idempotent replay
        add_env("Lives somewhere else", "user.city", "c-1", user=user),     # transaction_conflict
        add_env("my password is hunter22x", "user.pw", "c-3", user=user),  # credential: refused
        add_env("The wifi", "user.wifi", "c-4", user=user,
                payload_extra={"aliases": ["token: 3f9a8b7c6d5e4f3a2b1c0d9e"]}),
        add_env("pass\u200bword", "user.note", "c-5", user=user, reason="api_key=sk-Ab3dEf9hIj2lMn0pQr7tUv"),
        update_env(_nfd("Lives in Köln now"), "c-6", key="user.city", user=user, valid_from="2022-01-01T00:00:00Z"),
        add_env("Prefers tea", "user.drink", "c-7", user=user, source="model_inference", actor="agent"),
        add_env("Prefers coffee", "user.drink", "c-8", user=user, valid_from="2019-01-01T00:00:00Z"),
        by_id("approve", rid("c-7"), "c-9", user=user, actor="reviewer"),
        add_env("Has a cat", "user.pet", "c-10", user=user, source="raw_import", actor="importer"),
        by_id("reject", rid("c-10"), "c-11", user=user, actor="reviewer"),
        add_env("Has a cat", "user.pet", "c-12", user=user),                # tombstoned
        add_env("Works at Acme", "user.job", "c-13", user=user),
        add_env("Works at Initech", "user.job", "c-14", user=user, source="model_inference", actor="agent"),
        envelope("dispute", "c-15", user=user, record_id=rid("c-13"), payload={"conflict_with": [rid("c-14")]}),
        envelope("resolve", "c-16", user=user, record_id=rid("c-14"), payload={"conflict_with": [rid("c-13")]}),
        by_id("retire", rid("c-14"), "c-17", user=user, valid={"from": None, "to": "2026-01-01T00:00:00Z"}),
        add_env("Drives a Volvo", "user.car", "c-18", user=user),
        by_id("forget", rid("c-18"), "c-19", user=user),
        add_env("Secret diary entry", None, "c-20", user=user, kind="episode", source="conversation",
                actor="importer"),
        by_id("erase", rid("c-20"), "c-21", user=user),
        envelope("erase", "c-22", user=user, key="user.drink"),
        add_env("Likes jazz", "user.music", "c-23", user=user, sensitivity="sensitive",
                payload_extra={"confidence": "low", "importance": "high", "negative_triggers": ["rock"]}),
        {"schema_version": "memory.envelope.v1", "transaction_id": "c-24", "operation": "add"},   # schema
        dumps(add_env("Sent as bytes", "user.bytes", "c-25", user=user)),
        dumps(add_env("Sent as text ß", "user.text", "c-26", user=user)).decode("utf-8"),
        b'{"schema_version": "memory.envelope.v1", "a": 1, "a": 2}',                              # duplicate key
        add_env("x" * 20000, "user.big", "c-27", user=user),                                       # cap
        add_env("Float", "user.float", "c-28", user=user, payload_extra={"confidence": 0.5}),
        add_env("ghp_" + "Zx81KqWmB2vLp09RtYh3NcD4" + "a1B2c3D4e5F6", "user.gh", "c-29", user=user),
        envelope("update", "c-30", user=user, key="user.music", payload={"statement": "Likes jazz"},
                 valid={"from": "2030-01-01T00:00:00Z", "to": None}),                            # duplicate value
        envelope("update", "c-31", user=user, key="user.music", payload={"statement": "Likes blues"},
                 valid={"from": "2030-01-01T00:00:00Z", "to": None}),
        envelope("erase", "c-32", user=user, whole_scope=True) if user.endswith("-z") else
        add_env("Keeps bees", "user.hobby", "c-32", user=user),
    ]
    env = add_env("Tx id holds a secret", "user.tx", "ghp_" + "Zx81KqWmB2vLp09RtYh3NcD4" + "a1B2c3D4e5F6", user=user)
    out.append(env)
    return out


def frozen_config(target: Path, redact: bool) -> Path:
    shutil.copytree(DEFAULT_CONFIG_DIR, target)
    policy = (DATA / "mutation-policy.json").read_bytes()
    if redact:
        policy = policy.replace(b'"action": "refuse"', b'"action": "redact"')
    (target / "mutation-policy.json").write_bytes(policy)
    return target


def digest_of_store(root: Path) -> dict[str, str]:
    """sha256 of every shard and audit file, and of every manifest without its policy hashes."""
    out = {}
    for path in sorted((root / "shards").rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.name == "manifest.json":
            manifest = loads_trusted(data)
            manifest.pop("policy_sha256")
            data = canonical_bytes(manifest)
        out[str(path.relative_to(root))] = hashlib.sha256(data).hexdigest()
    return out


def run(tmp: Path) -> dict[str, str]:
    """Write the streams and return {what: sha256}."""
    digests = {}
    plan = gen.ScopePlan("ident-gen", 2_000, "probe")
    for name, redact, batches in (("refusing", False, (500, 7, 1)), ("redacting", True, (3,))):
        config = frozen_config(tmp / f"config-{name}", redact)
        store = Store.create(tmp / name, clock=FixedClock(NOW), config=config)
        results = []
        for batch in batches:
            for user in (f"{name}-a-{batch}", f"{name}-z-{batch}"):
                results += store.apply(crafted(user), batch_size=batch)
        if name == "refusing":
            results += store.apply(gen.scope_envelopes(gen.SEED, plan), batch_size=500)
        digests[f"{name}/results"] = hashlib.sha256(json.dumps(results, sort_keys=True).encode()).hexdigest()
        for path, digest in digest_of_store(tmp / name).items():
            digests[f"{name}/{path}"] = digest
    everything = hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()
    return {"files": len(digests), "all": everything, **digests}


PINNED_FILES = 38
PINNED_ALL = '69444906e2ffcf570d8de42000287aa41a40253f40e1f98688e8102aa90e780b'


def test_the_write_path_writes_the_pinned_bytes(tmp_path):
    digests = run(tmp_path)
    assert (digests["files"], digests["all"]) == (PINNED_FILES, PINNED_ALL), \
        json.dumps(digests, indent=1)


if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        found = run(Path(folder))
    print(json.dumps(found, indent=1))
    print(f"PINNED_FILES = {found['files']}\nPINNED_ALL = {found['all']!r}")
