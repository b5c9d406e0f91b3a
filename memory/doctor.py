"""Verify a store end to end and report every problem together; repair what is safe.

Checks: the store marker and policy drift, each scope's manifest against its
shard files (bytes, lines, sha256), torn tails and cut-short transaction groups,
each line's JSON, schema and hash, transition chains, audit rows, the freshness of
derived files, every file under the store (a leftover temporary, a file no part of
the store accounts for) and their modes (0600 files, 0700 folders).

A derived file (an index, a boot view) pinned to shards that have moved on is a notice,
not a problem: it is rebuildable and a read rebuilds or re-pins it (DESIGN §3), and a
backup restored with ``cp -a`` (new inodes) or a write since the last build leaves one on a
healthy store. The report lists it under ``notices`` and stays clean.

``repair`` only does what a crash can call for: it removes leftover temporaries,
cuts never-acknowledged tails, completes a crashed erasure, brings a manifest that
is behind its shards up to date, drops stale derived files and tightens modes.
What no crash produces (a line removed, reordered or edited, a shard removed: see
``store.integrity``; a bad hash, a broken chain, drifted policies) is reported and
kept, and the scope refuses reads and writes, until an operator accepts the files
as they are (``accept_tampered``, ``memory doctor --repair --accept-tampered``).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache

from . import schemas
from .bootview import check_boot_views
from .errors import InputError, MemoryStoreError
from .jsonio import canonical_bytes, loads_strict, loads_trusted
from .records import hash_ok
from .store import TAMPER_CODES, Store, drop_incomplete_tail, settled_transactions, shard_pin

# what a crash (or an older version of the store) leaves, and repair fixes
REPAIRABLE = {"torn_tail", "incomplete_transaction", "manifest_mismatch", "derived_stale", "erasure_incomplete",
              "stray_temporary", "mode_too_open"}
# derived files a read rebuilds: reported as notices, never as problems (the store is sound)
DERIVED_NOTICES = {"derived_stale"}
# the findings of ``store.integrity`` that doctor's own line checks do not already name
_INTEGRITY_CODES = set(TAMPER_CODES) - {"line_invalid", "record_hash_mismatch", "record_scope_mismatch",
                                        "shard_missing"}


@dataclass
class Report:
    problems: list[dict] = field(default_factory=list)
    repaired: list[dict] = field(default_factory=list)
    notices: list[dict] = field(default_factory=list)
    scopes: int = 0
    revisions: int = 0

    def add(self, code: str, where: str, message: str) -> None:
        """A finding: a problem, unless it is about a derived file a read rebuilds (a notice)."""
        found = {"code": code, "where": where, "message": message}
        (self.notices if code in DERIVED_NOTICES else self.problems).append(found)

    @property
    def clean(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        report = {"clean": self.clean, "scopes": self.scopes, "revisions": self.revisions,
                  "problems": self.problems, "repaired": self.repaired}
        if self.notices:
            report["notices"] = self.notices
        return report


def check_store(store: Store, *, repair: bool = False, full: bool = True, accept_tampered: bool = False) -> Report:
    """Every problem of the store. ``full=False`` (``memory doctor`` without ``--full``)
    re-verifies only what changed in each scope since its last clean run (``doctor/<digest>/``,
    pinned to the shard bytes like the index); a scope whose pins moved, or that has no such
    record, is checked in full."""
    report = Report()
    _check_marker(store, report)
    _check_files(store, report)
    checked: dict[str, dict] = {}
    for digest in store.scope_digests():
        report.scopes += 1
        before = len(report.problems)
        stats = store.shard_stats(digest)
        last = None if full else _load_checkpoint(store, digest)
        state = _check_since(store, digest, last, stats, report) if last else None
        if state is None:
            del report.problems[before:]
            state = _check_scope(store, digest, report)
        if len(report.problems) == before:
            checked[digest] = state
    verified = {d: c.get("view_sha256") for d, c in checked.items()} if not full else {}
    views = {}
    check_boot_views(store, report.add, drop_stale=repair,
                     verified=lambda digest, data: _remember(views, digest, data, verified))
    for digest, state in checked.items():
        # only the incremental mode keeps a record (a full check, as library callers run it,
        # writes nothing); a scope with a problem reported anywhere is not recorded as clean
        if not full and not any(p["where"].split("/")[1:2] == [digest] for p in report.problems):
            _save_checkpoint(store, digest, state, views.get(digest))
    if repair:
        _repair(store, report, accept_tampered)
    return report


def _remember(views: dict, digest: str, data: bytes, verified: dict) -> bool:
    """Whether this exact view file was sound at the last clean run; remembered for the next."""
    digest_now = hashlib.sha256(data).hexdigest()
    views[digest] = digest_now
    return verified.get(digest) == digest_now


# -- what the last clean run verified -----------------------------------------------------------

CHECKPOINT_VERSION = 1
CHECKPOINT_FILE = "verified.json"


def _load_checkpoint(store: Store, digest: str) -> dict | None:
    from .jsonio import loads_trusted
    try:
        data = loads_trusted((store.doctor_dir(digest) / CHECKPOINT_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    ok = isinstance(data, dict) and data.get("format") == CHECKPOINT_VERSION and \
        data.get("policy_sha256") == store.policies.hashes()
    return data if ok else None


def _save_checkpoint(store: Store, digest: str, state: dict, view_sha256: str | None) -> None:
    """Record what was just found clean, unless a writer changed the scope meanwhile."""
    from .jsonio import atomic_write, dumps, private_mkdir
    if store.shard_stats(digest) != state["stats"] or store.audit_size(digest) != state["audit_bytes"]:
        return
    files = store.shard_files(digest)
    cursor = {shard_pin(path, size, inode): size for path, size, inode in files.values()}
    record = {"format": CHECKPOINT_VERSION, "policy_sha256": store.policies.hashes(), "cursor": cursor,
              "stats": {name: list(v) for name, v in state["stats"].items()}, "audit_bytes": state["audit_bytes"],
              "entries": state["entries"], "revisions": state["revisions"], "chains": state["chains"],
              "final_group": state["final_group"], "view_sha256": view_sha256,
              "known": {name: list(entry) for name, entry in state["known"].items()}}
    try:
        private_mkdir(store.doctor_dir(digest))
        atomic_write(store.doctor_dir(digest) / CHECKPOINT_FILE, dumps(record))
    except OSError:
        pass  # derived: the next run checks in full


def _check_since(store: Store, digest: str, last: dict, stats: dict, report: Report) -> dict | None:
    """Verify only what was appended since ``last``; None when that is not enough (check in full)."""
    old_stats = {name: tuple(v) for name, v in last["stats"].items()}
    names = sorted(old_stats)
    sealed = names[:-1]
    if any(stats.get(name) != old_stats[name] for name in sealed) or last["audit_bytes"] != store.audit_size(digest):
        return None
    if names and (names[-1] not in stats or stats[names[-1]][1] != old_stats[names[-1]][1]):
        return None
    tail = store.read_tail(digest, last["cursor"])
    if tail.moved:
        return None
    known = {name: tuple(entry) for name, entry in (last.get("known") or {}).items()}
    tampered = _check_integrity(store, digest, report, known)
    manifest = _load_manifest(store, digest, report)
    entries = dict(last["entries"])
    for name in stats:
        where = f"shards/{digest}/{name}"
        if name in sealed:
            # unchanged since it was hashed: its manifest entry must still be the verified one
            if manifest is not None and manifest.get("shards", {}).get(name) != entries.get(name):
                report.add("manifest_mismatch", where, "the manifest entry differs from the verified shard")
            continue
        data = store.shard_data(digest, name)
        verified = last["entries"].get(name) if name in old_stats else None
        if verified is not None and hashlib.sha256(data[:verified["bytes"]]).hexdigest() != verified["sha256"]:
            return None   # bytes verified last time were edited since: check the scope whole
        if name not in tampered:
            _compare_manifest(manifest, name, data, where, report)
        entries[name] = {"bytes": len(data), "lines": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}
        complete = data.rfind(b"\n") + 1
        if complete != len(data):
            report.add("torn_tail", where, f"{len(data) - complete} byte(s) after the last newline")
    if manifest is not None:
        for name in set(manifest.get("shards", {})) - set(stats):
            report.add("shard_missing", f"shards/{digest}/{name}", "listed in the manifest but absent")
    revisions = []
    for (name, _), line in zip(tail.positions, tail.lines):
        revision = _check_line(line, f"shards/{digest}/{name}:+", digest, report)
        if revision is not None:
            revisions.append(revision)
    audit = store.audit_rows(digest)
    settled = settled_transactions(audit)
    if len(drop_incomplete_tail(revisions, settled)) != len(revisions):
        report.add("incomplete_transaction", f"shards/{digest}", "the last transaction's revisions are cut short")
    erased = {i for row in audit for i in row.get("record_ids", [])}
    if erased & {r["id"] for r in revisions}:
        report.add("erasure_incomplete", f"shards/{digest}", "records named by an erasure are still in the shards")
    chains = dict(last["chains"])
    _check_chains(revisions, f"shards/{digest}", report, chains)
    final = last["final_group"]
    if revisions and final and final[2] != final[1] and final[0] not in settled:
        report.add("transition_chain_broken", f"shards/{digest}",
                   f"a transaction wrote {final[1]} revision(s), {final[2]} remain")
    _check_groups(revisions, settled, f"shards/{digest}", report)
    report.revisions += last["revisions"] + len(revisions)
    _check_derived(store, digest, report)
    return {"stats": stats, "audit_bytes": last["audit_bytes"], "entries": entries,
            "revisions": last["revisions"] + len(revisions), "chains": chains,
            "final_group": _final_group(revisions) or final, "known": known}


def _final_group(revisions: list[dict]) -> list | None:
    if not revisions:
        return None
    tx = revisions[-1]["transition"]["transaction_id"]
    count = 0
    for revision in reversed(revisions):
        if revision["transition"]["transaction_id"] != tx:
            break
        count += 1
    return [tx, revisions[-count]["transition"].get("group_size", 1), count]


def _check_marker(store: Store, report: Report) -> None:
    try:
        marker = store.marker()
    except (MemoryStoreError, FileNotFoundError):
        report.add("store_marker_invalid", "store.json", "store.json is missing or unreadable")
        return
    pinned = marker.get("policy_sha256", {})
    for name, digest in store.policies.hashes().items():
        if pinned.get(name) != digest:
            report.add("policy_drift", f"config/{name}",
                       f"{name} changed since it was pinned ({(pinned.get(name) or 'none')[:12]} -> {digest[:12]}); "
                       "review the change, then run: memory init --accept-policies")


def _check_scope(store: Store, digest: str, report: Report) -> dict:
    """Every check of one scope, reading its log a shard at a time: what is kept between lines is
    each record's place in its chain and the transaction group at hand, never the revisions."""
    stats, audit_bytes = store.shard_stats(digest), store.audit_size(digest)
    known: dict = {}
    tampered = _check_integrity(store, digest, report, known)
    manifest = _load_manifest(store, digest, report)
    audit = store.audit_rows(digest)
    walk = _Walk(settled_transactions(audit), {i for row in audit for i in row.get("record_ids", [])},
                 f"shards/{digest}")
    entries = {}
    for name in stats:
        data = store.shard_data(digest, name)
        where = f"shards/{digest}/{name}"
        if name not in tampered:
            _compare_manifest(manifest, name, data, where, report)
        entries[name] = _entry(data)
        complete = data[:data.rfind(b"\n") + 1]
        if len(complete) != len(data):
            report.add("torn_tail", where, f"{len(data) - len(complete)} byte(s) after the last newline")
        for number, line in enumerate(complete.splitlines(), 1):
            revision = _check_line(line, f"{where}:{number}", digest, report)
            if revision is not None:
                walk.feed(revision)
    if manifest is not None:
        for name in set(manifest.get("shards", {})) - set(stats):
            report.add("shard_missing", f"shards/{digest}/{name}", "listed in the manifest but absent")
    if walk.incomplete_tail():
        report.add("incomplete_transaction", f"shards/{digest}", "the last transaction's revisions are cut short")
    if walk.erased_seen:
        # a crash between the audit row and the shard rewrite: the content is still on disk
        report.add("erasure_incomplete", f"shards/{digest}", "records named by an erasure are still in the shards")
    report.revisions += walk.count
    walk.finish(report)
    _check_derived(store, digest, report)
    return {"stats": stats, "audit_bytes": audit_bytes, "revisions": walk.count, "chains": walk.chains,
            "entries": entries, "final_group": walk.final_group(), "known": known}


def _entry(data: bytes) -> dict:
    return {"bytes": len(data), "lines": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}


class _Walk:
    """The checks that follow a scope's revisions in log order (``_check_chains``, ``_check_groups``,
    the tail group, erased records), fed one revision at a time. Their problems are held apart and
    reported by ``finish`` after the line checks, as when the whole log was read first."""

    def __init__(self, settled, erased: set, where: str) -> None:
        self.settled, self.erased, self.where = settled, erased, where
        self.chains: dict = {}
        self.count = 0
        self.erased_seen = False
        self._chain_problems, self._group_problems = Report(), Report()
        self._group: list | None = None     # [transaction id, its group_size, lines seen, first record id]

    def feed(self, revision: dict) -> None:
        self.count += 1
        if revision["id"] in self.erased:
            self.erased_seen = True
        _check_chains((revision,), self.where, self._chain_problems, self.chains)
        transition = revision["transition"]
        tx = transition["transaction_id"]
        if self._group is not None and self._group[0] == tx:
            self._group[2] += 1
            return
        self._close_group()
        self._group = [tx, transition.get("group_size", 1), 1, revision["id"]]

    def _close_group(self) -> None:
        """A group before the tail holds exactly ``group_size`` lines (``_check_groups``)."""
        if self._group is None:
            return
        tx, expected, count, first = self._group
        if count != expected and tx not in self.settled:
            self._group_problems.add("transition_chain_broken", self.where,
                                     f"record {first}: its transaction wrote {expected} revision(s), {count} remain")

    def incomplete_tail(self) -> bool:
        """Whether ``drop_incomplete_tail`` would drop the last group."""
        group = self._group
        return group is not None and group[0] not in self.settled and group[2] < group[1]

    def final_group(self) -> list | None:
        """``_final_group`` of the log fed."""
        return None if self._group is None else self._group[:3]

    def finish(self, report: Report) -> None:
        report.problems += self._chain_problems.problems + self._group_problems.problems


def _check_integrity(store: Store, digest: str, report: Report, known: dict | None = None) -> set:
    """What ``store.integrity`` finds no crash explains (the store refuses the scope for it);
    returns the shards it names (their manifest comparison says nothing more). ``known``: the
    shards verified by the last clean run (``integrity.check``: a shard whose size, inode, change
    time and manifest hash are the same is not hashed again), filled in with this run's."""
    named = set()
    for finding in store.scope_findings(digest, known):
        named.add(finding.shard)
        if finding.code in _INTEGRITY_CODES:
            where = f"shards/{digest}/{finding.shard}" if finding.shard else f"shards/{digest}"
            report.add(finding.code, where, finding.message + " (not a crash: review, then "
                       "memory doctor --repair --accept-tampered)")
    return named


def _load_manifest(store: Store, digest: str, report: Report) -> dict | None:
    data = store.manifest_bytes(digest)
    if data is None:
        return None     # reported by _check_integrity when the scope has shards
    try:
        manifest = loads_strict(data, what="manifest")
    except InputError:
        return None     # reported by _check_integrity
    for problem in schemas.violations("manifest", manifest):
        report.add("manifest_invalid", f"shards/{digest}/manifest.json", problem)
    return manifest


def _compare_manifest(manifest, name: str, data: bytes, where: str, report: Report) -> None:
    if manifest is None:
        return
    entry = manifest.get("shards", {}).get(name)
    if entry is None:
        report.add("shard_unlisted", where, "shard not listed in the manifest")
        return
    actual = {"bytes": len(data), "lines": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}
    for key, value in actual.items():
        if entry.get(key) != value:
            report.add("manifest_mismatch", where, f"{key} differs from the manifest")


def _check_line(line: bytes, where: str, digest: str, report: Report) -> dict | None:
    revision = _parsed_line(line)
    if revision is None:
        try:
            revision = loads_strict(line, what="record line")
        except InputError as exc:
            report.add("line_invalid", where, exc.message)
            return None
    # the compiled schema first: jsonschema is asked only for a record it does not accept
    problems = schemas.problems("record", revision)
    for problem in problems:
        report.add("record_schema_violation", where, problem)
    if problems:
        return None
    try:
        hashed = hash_ok(revision)
    except TypeError:   # a "\ud800" escape parses, but no writer could have encoded (or hashed) it
        report.add("line_invalid", where, "record line holds a lone surrogate (not encodable as UTF-8)")
        return None
    if not hashed:
        report.add("record_hash_mismatch", where, f"record {revision['id']} r{revision['revision']}: "
                   "content does not match its hash (edited by hand?)")
    if _scope_digest(revision["scope"]["type"], revision["scope"]["key"]) != digest:
        report.add("record_scope_mismatch", where, f"record {revision['id']} is filed under another scope")
    return revision


def _parsed_line(line: bytes) -> dict | None:
    """The line parsed by orjson when it is exactly the canonical form of what it holds (as the
    store writes every line): then ``loads_strict`` reads the same value (no key twice, no number
    out of range, no lone surrogate, or the bytes would differ or orjson refuse). None: ask it."""
    try:
        revision = loads_trusted(line)
    except ValueError:
        return None
    if type(revision) is not dict:
        return None
    try:
        return revision if canonical_bytes(revision) == line else None
    except TypeError:
        return None


@lru_cache(maxsize=64)
def _scope_digest(scope_type: object, key: object) -> str:
    from .paths import scope_digest
    return scope_digest(scope_type, key)


def _check_chains(revisions: list[dict], where: str, report: Report, last: dict) -> None:
    """Each revision joins the one before it; ``last`` (id -> [revision, status]) is where each
    record's chain stood before ``revisions`` (empty for a whole log), and is moved along."""
    for revision in revisions:
        previous = last.get(revision["id"])
        expected_number = 1 if previous is None else previous[0] + 1
        transition = revision["transition"]
        if revision["revision"] != expected_number:
            report.add("transition_chain_broken", where,
                       f"record {revision['id']}: revision {revision['revision']} follows {expected_number - 1}")
        expected_from = None if previous is None else previous[1]
        if transition["from_status"] != expected_from or transition["to_status"] != revision["status"]:
            report.add("transition_chain_broken", where,
                       f"record {revision['id']} r{revision['revision']}: transition does not join its neighbours")
        last[revision["id"]] = [revision["revision"], revision["status"]]


def _check_groups(revisions: list[dict], settled: frozenset, where: str, report: Report) -> None:
    """Every transaction group before the tail holds exactly ``group_size`` lines (the tail: see above).

    Only an erasure may shrink a group; a line removed by hand mid-log shows up here even when
    the manifest was rewritten to match.
    """
    groups: list[list[dict]] = []
    for revision in revisions:
        tx = revision["transition"]["transaction_id"]
        if groups and groups[-1][0]["transition"]["transaction_id"] == tx:
            groups[-1].append(revision)
        else:
            groups.append([revision])
    for group in groups[:-1]:
        tx, expected = group[0]["transition"]["transaction_id"], group[0]["transition"].get("group_size", 1)
        if len(group) != expected and tx not in settled:
            report.add("transition_chain_broken", where,
                       f"record {group[0]['id']}: its transaction wrote {expected} revision(s), {len(group)} remain")


def _check_derived(store: Store, digest: str, report: Report) -> None:
    from .jsonio import loads_trusted
    sidecar = store.index_dir(digest) / "index.meta.json"
    if not sidecar.exists():
        return
    try:
        cursor = loads_trusted(sidecar.read_bytes()).get("cursor", {})
    except ValueError:
        cursor = None
    if store.cursor_status(digest, cursor) == "moved":
        report.add("derived_stale", f"index/{digest}", "the index was built from shards that have moved on "
                   "(a write, an erasure, a copy): the next read rebuilds it; nothing to do")


def _repair(store: Store, report: Report, accept_tampered: bool = False) -> None:
    """Fix what a crash leaves. A scope with a finding no crash explains keeps its files and its
    manifest (the evidence) unless ``accept_tampered``: then its manifest is rewritten from the
    files as they are, and only the findings that rewrite settles are counted as repaired."""
    kept_codes = set(_INTEGRITY_CODES) | {"shard_missing"}
    tampered = {p["where"].split("/")[1] for p in report.problems
                if p["code"] in kept_codes and p["where"].startswith("shards/")}
    fixable = [p for p in report.problems + report.notices if p["code"] in REPAIRABLE
               or (accept_tampered and p["code"] in kept_codes)]
    for problem in [p for p in fixable if p["code"] in ("stray_temporary", "mode_too_open")]:
        store.fix_file(problem["code"], problem["where"])
    scoped = [p for p in fixable if p["code"] not in ("stray_temporary", "mode_too_open")]
    touched = sorted({p["where"].split("/")[1] for p in scoped if p["where"].startswith(("shards/", "index/"))})
    unrepaired = set()
    for digest in touched:
        if digest in tampered and not accept_tampered:
            unrepaired.add(digest)   # its problems stay reported; the scope keeps refusing
            continue
        store.repair_scope(digest, accept_tampered=accept_tampered)
    done = [p for p in fixable if p["code"] in ("stray_temporary", "mode_too_open")
            or p["where"].split("/")[1:2] and p["where"].split("/")[1] not in unrepaired]
    report.repaired = done
    report.problems = [p for p in report.problems if p not in done]
    report.notices = [p for p in report.notices if p not in done]


# -- every file under the store ---------------------------------------------------------------

def _check_files(store: Store, report: Report) -> None:
    """A leftover temporary, a file the store does not account for, a mode looser than 0600 / 0700."""
    for code, where, message in store.file_findings():
        report.add(code, where, message)

