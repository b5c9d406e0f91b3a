"""Lifecycle: what an admitted envelope does to a scope, as pure functions.

``plan(admitted, state, policy_sha256, now) -> Plan`` reads the scope's current
state and returns the new revisions to append (primary first) — or raises
``RefusedError`` / ``NotFoundError``. ``ScopeState`` is the in-memory view of one
scope's log; the store builds it and feeds revisions back through ``absorb``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .errors import InputError, NotFoundError, RefusedError
from .records import (SCHEMA_VERSION, next_revision, normalize_value, record_id_for, seal,
                      tombstone_hash)

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing (~3-4 ms of a query process)
if TYPE_CHECKING:  # a read never admits an envelope: it need not import admission
    from .envelope import Admitted


@dataclass
class ScopeState:
    """One scope's log folded into lookups. Built by the store; pure to query.

    ``version`` counts the revisions and audit rows absorbed: a cache built from a state
    (the query view) keys on (the state, its version), since a long-lived writer extends
    its state in place with what it has just appended."""

    revisions: dict[str, list[dict]] = field(default_factory=dict)
    transactions: dict[str, tuple[str, str | None, int | None]] = field(default_factory=dict)
    tombstones: set[str] = field(default_factory=set)
    order: list[str] = field(default_factory=list)
    # memory_key -> the records whose current revision is active under it, so a keyed add
    # need not scan the scope (which made filling one scope O(n^2))
    active_by_key: dict[str, dict[str, None]] = field(default_factory=dict, repr=False)
    version: int = field(default=0, compare=False)

    def staged(self) -> "StagedState":
        """A state that reads through to this one and keeps its own changes apart, O(1) to make:
        a writer plans a batch on it, then absorbs the durable revisions here (``absorbed``)."""
        return StagedState(self)

    def absorb(self, revision: dict) -> None:
        record_id = revision["id"]
        if record_id not in self.revisions:
            self.order.append(record_id)
        self._untrack_key(record_id)
        self._own_revisions(record_id).append(revision)
        if revision["status"] == "active" and revision.get("memory_key"):
            self._own_holders(revision["memory_key"])[record_id] = None
        transition = revision["transition"]
        tx = transition["transaction_id"]
        if tx not in self.transactions:
            self.transactions[tx] = (transition.get("envelope_sha256", ""), record_id, revision["revision"])
        if transition.get("tombstone"):
            self.tombstones.add(transition["tombstone"]["value_sha256"])
        self.version += 1

    def absorb_audit(self, row: dict) -> None:
        """An erasure row keeps its transaction ids and tombstones alive, content-free."""
        for tx, digest in row.get("transactions", {}).items():
            self.transactions.setdefault(tx, (digest, None, None))
        self.tombstones.update(row.get("tombstones", []))
        for record_id in row.get("record_ids", []):
            self._untrack_key(record_id)
            self.revisions.pop(record_id, None)
            if record_id in self.order:
                self.order.remove(record_id)
        self.version += 1

    # the containers a change writes to (a staged state copies a base entry before changing it)
    def _own_revisions(self, record_id: str) -> list[dict]:
        return self.revisions.setdefault(record_id, [])

    def _own_holders(self, memory_key: str) -> dict[str, None]:
        return self.active_by_key.setdefault(memory_key, {})

    def current(self, record_id: str) -> dict | None:
        revisions = self.revisions.get(record_id)
        return revisions[-1] if revisions else None

    def currents(self):
        for record_id in self.order:
            yield self.revisions[record_id][-1]

    def _untrack_key(self, record_id: str) -> None:
        current = self.current(record_id)
        key = current.get("memory_key") if current else None
        if key and self.active_by_key.get(key) and record_id in self.active_by_key[key]:
            self._own_holders(key).pop(record_id, None)

    def active_for_key(self, memory_key: str) -> dict | None:
        holders = self.active_by_key.get(memory_key)
        if not holders:
            return None
        if len(holders) == 1:
            return self.current(next(iter(holders)))
        # two active records under one key (never written by this code): the first in log order
        for record in self.currents():
            if record["memory_key"] == memory_key and record["status"] == "active":
                return record
        return None

    def as_recorded_at(self, instant: str) -> "list[dict]":
        """Each record's last revision recorded at or before ``instant``."""
        out = []
        for record_id in self.order:
            known = [r for r in self.revisions[record_id] if r["recorded_time"]["recorded_at"] <= instant]
            if known:
                out.append(known[-1])
        return out


class _LayeredSet:
    """A set read through to a base set; additions stay in front."""

    def __init__(self, base: set) -> None:
        self.base, self.front = base, set()

    def __contains__(self, item) -> bool:
        return item in self.front or item in self.base

    def __iter__(self):
        yield from self.base
        yield from (i for i in self.front if i not in self.base)

    def __len__(self) -> int:
        return len(self.base) + sum(1 for i in self.front if i not in self.base)

    def add(self, item) -> None:
        self.front.add(item)

    def update(self, items) -> None:
        self.front.update(items)


class _LayeredOrder:
    """The base's record order followed by the records first seen in front."""

    def __init__(self, base: list) -> None:
        self.base, self.front = base, []

    def __iter__(self):
        yield from self.base
        yield from self.front

    def __len__(self) -> int:
        return len(self.base) + len(self.front)

    def __contains__(self, item) -> bool:
        return item in self.front or item in self.base

    def append(self, item) -> None:
        self.front.append(item)


class StagedState(ScopeState):
    """Changes planned over a base state, invisible to the base's readers until absorbed there.

    Lifecycle plans read it like any state; ``absorbed`` lists the revisions in the order
    they were absorbed. Erasure is never staged (the store applies it to the files)."""

    def __init__(self, base: ScopeState) -> None:
        from collections import ChainMap
        super().__init__(ChainMap({}, base.revisions), ChainMap({}, base.transactions),
                         _LayeredSet(base.tombstones), _LayeredOrder(base.order),
                         ChainMap({}, base.active_by_key))
        self.absorbed: list[dict] = []

    def absorb(self, revision: dict) -> None:
        super().absorb(revision)
        self.absorbed.append(revision)

    def absorb_audit(self, row: dict) -> None:
        raise TypeError("an erasure is applied to the store's files, never staged")

    def _own_revisions(self, record_id: str) -> list[dict]:
        front = self.revisions.maps[0]
        if record_id not in front:
            front[record_id] = list(self.revisions.get(record_id, ()))
        return front[record_id]

    def _own_holders(self, memory_key: str) -> dict[str, None]:
        front = self.active_by_key.maps[0]
        if memory_key not in front:
            front[memory_key] = dict(self.active_by_key.get(memory_key, {}))
        return front[memory_key]


@dataclass
class Plan:
    revisions: list[dict]          # sealed, primary first
    record_id: str | None
    revision: int | None
    erase_record_ids: list[str] = field(default_factory=list)
    erase_scope: bool = False


@dataclass
class _Context:
    admitted: Admitted
    state: ScopeState
    policy_sha256: str
    now: str

    @property
    def envelope(self) -> dict:
        return self.admitted.envelope

    @property
    def payload(self) -> dict:
        return self.envelope.get("payload") or {}

    def transition(self, operation: str, from_status, to_status, valid_before=None, valid_after=None,
                   tombstone=None) -> dict:
        return {"operation": operation, "transaction_id": self.envelope["transaction_id"],
                "actor": dict(self.envelope["actor"]), "reason": self.envelope.get("reason"),
                "from_status": from_status, "to_status": to_status,
                "valid_to_before": valid_before, "valid_to_after": valid_after,
                "policy_sha256": self.policy_sha256, "recorded_at": self.now,
                "envelope_sha256": self.admitted.envelope_sha256, "tombstone": tombstone}

    def recorded_time(self) -> dict:
        return {"recorded_at": self.now, "recorded_by": self.envelope["actor"]["id"]}

    def change(self, record: dict, operation: str, to_status: str, **changes) -> dict:
        """The next revision of ``record`` with a transition row."""
        valid_after = changes.get("valid_time", record["valid_time"])["to"]
        revision = next_revision(record, status=to_status, recorded_time=self.recorded_time(), **changes)
        revision["transition"] = self.transition(operation, record["status"], to_status,
                                                 record["valid_time"]["to"], valid_after)
        return revision


def plan(admitted: Admitted, state: ScopeState, policy_sha256: str, now: str) -> Plan:
    ctx = _Context(admitted, state, policy_sha256, now)
    return _OPERATIONS[ctx.envelope["operation"]](ctx)


# -- lookups ---------------------------------------------------------------

def _target(ctx: _Context, *, by_key_status: str | None = "active") -> dict:
    """The record an envelope names: by record_id, or by memory_key's active record."""
    target = ctx.envelope["target"]
    if target.get("record_id"):
        record = ctx.state.current(target["record_id"])
    elif target.get("memory_key") and by_key_status:
        record = ctx.state.active_for_key(target["memory_key"])
    else:
        raise InputError(f"'{ctx.envelope['operation']}' needs target.record_id", code="invalid_target")
    if record is None:
        # the same answer whether the id is absent or lives in another scope
        raise NotFoundError("no such record in this scope", code="record_not_found")
    return record


def _require_status(record: dict, allowed: tuple, operation: str) -> None:
    if record["status"] not in allowed:
        raise RefusedError(f"cannot {operation} a {record['status']} record", code="invalid_transition")


def _refuse_tombstoned(ctx: _Context, memory_key: str | None, statement: str) -> None:
    if tombstone_hash(memory_key, statement) in ctx.state.tombstones:
        raise RefusedError("this value was forgotten and may not be stored again", code="value_tombstoned")


def _tombstone(memory_key: str | None, value: str) -> dict:
    return {"memory_key": memory_key, "value_sha256": tombstone_hash(memory_key, value)}


def _sealed(plan_revisions: list[dict], primary: dict) -> Plan:
    for revision in plan_revisions:
        # readers drop a trailing group with fewer lines than this (a crash mid-append)
        revision["transition"]["group_size"] = len(plan_revisions)
    sealed = [seal(r) for r in plan_revisions]
    return Plan(sealed, primary["id"], primary["revision"])


# -- operations ------------------------------------------------------------

def _new_record(ctx: _Context, *, status: str, kind: str, statement: str, memory_key, valid_from: str,
                valid_to, base: dict | None = None, supersedes=()) -> dict:
    env, payload = ctx.envelope, ctx.payload
    base = base or {}
    source = {k: env["source"].get(k) for k in ("type", "ref", "observed_at", "evidence_hash", "session", "speaker")}
    verified = status == "active"
    return {
        "schema_version": SCHEMA_VERSION,
        "id": record_id_for(env["target"]["scope"], env["transaction_id"]),
        "revision": 1, "memory_key": memory_key, "kind": kind, "statement": statement, "status": status,
        "scope": dict(env["target"]["scope"]),
        "valid_time": {"from": valid_from, "to": valid_to},
        "recorded_time": ctx.recorded_time(), "source": source,
        "sensitivity": {"classification": (env.get("sensitivity") or {}).get(
                            "classification", base.get("sensitivity", {}).get("classification", "private")),
                        "credential_present": ctx.admitted.credential_present,
                        "handling": "redacted" if ctx.admitted.credential_present else "store"},
        "conflict": {"state": "none", "with": [], "resolution": None},
        "supersession": {"supersedes": list(supersedes), "superseded_by": None,
                         "reason": env.get("reason") if supersedes else None},
        "verification": {"state": "verified" if verified else "unverified",
                         "method": env["source"]["type"] if verified else None,
                         "verified_by": env["actor"]["id"] if verified else None,
                         "verified_at": ctx.now if verified else None},
        "confidence": payload.get("confidence", base.get("confidence", "medium")),
        "importance": payload.get("importance", base.get("importance", "medium")),
        # copies: ``seal`` keeps the lists it is given, and these belong to the envelope or the old record
        "aliases": _copied(payload.get("aliases", base.get("aliases", []))),
        "tags": _copied(payload.get("tags", base.get("tags", []))),
        "negative_triggers": _copied(payload.get("negative_triggers", base.get("negative_triggers", []))),
        "transition": ctx.transition(env["operation"], None, status, None, valid_to),
    }


def _copied(value):
    return list(value) if type(value) is list else value


def _status_for(ctx: _Context) -> str:
    return "active" if ctx.admitted.admission == "admit_active" else "candidate"


def _add(ctx: _Context) -> Plan:
    env, payload = ctx.envelope, ctx.payload
    if env["target"].get("record_id"):
        raise InputError("add takes no target.record_id", code="invalid_target")
    if not payload.get("kind") or not payload.get("statement"):
        raise InputError("add needs payload.kind and payload.statement", code="schema_violation")
    kind, key = payload["kind"], env["target"].get("memory_key")
    if kind == "episode" and key:
        raise InputError("an episode has no memory_key", code="invalid_target")
    if kind != "episode" and not key:
        raise InputError(f"a {kind} needs target.memory_key", code="invalid_target")
    _refuse_tombstoned(ctx, key, payload["statement"])
    if key:
        active = ctx.state.active_for_key(key)
        if active is not None:
            if normalize_value(active["statement"]) == normalize_value(payload["statement"]):
                raise RefusedError("the same value is already the active record", code="duplicate_active_record")
            if _status_for(ctx) == "active":
                raise RefusedError("the key already has an active record: use update", code="key_already_active")
    valid = env.get("valid_time") or {}
    record = _new_record(ctx, status=_status_for(ctx), kind=kind, statement=payload["statement"],
                         memory_key=key, valid_from=valid.get("from") or ctx.now, valid_to=valid.get("to"))
    return _sealed([record], record)


def _supersede(ctx: _Context, old: dict, new_id: str, new_from: str) -> dict:
    closed_to = new_from if old["valid_time"]["to"] is None else min(old["valid_time"]["to"], new_from)
    return ctx.change(old, ctx.envelope["operation"], "retired",
                      valid_time={"from": old["valid_time"]["from"], "to": closed_to},
                      supersession={**copy.deepcopy(old["supersession"]), "superseded_by": new_id,
                                    "reason": ctx.envelope.get("reason")})


def _update(ctx: _Context) -> Plan:
    payload = ctx.payload
    if not payload.get("statement"):
        raise InputError("update needs payload.statement", code="schema_violation")
    old = _target(ctx)
    _require_status(old, ("active",), "update")
    if old["kind"] == "episode":
        raise RefusedError("episodes are kept verbatim and never updated", code="invalid_transition")
    new_from = (ctx.envelope.get("valid_time") or {}).get("from") or ctx.now
    # the same second is fine, as for retire: an agent adds and corrects within one second, and the
    # replaced value then held for no whole second (its interval closes where it opened)
    if new_from < old["valid_time"]["from"]:
        raise RefusedError("the new value must not start before the current one: give valid_time.from (--from) "
                           "an instant at or after the current record's", code="invalid_valid_time")
    _refuse_tombstoned(ctx, old["memory_key"], payload["statement"])
    if normalize_value(old["statement"]) == normalize_value(payload["statement"]):
        raise RefusedError("the same value is already the active record", code="duplicate_active_record")
    status = _status_for(ctx)
    new = _new_record(ctx, status=status, kind=payload.get("kind", old["kind"]), statement=payload["statement"],
                      memory_key=old["memory_key"], valid_from=new_from,
                      valid_to=(ctx.envelope.get("valid_time") or {}).get("to"), base=old, supersedes=[old["id"]])
    if status == "candidate":
        return _sealed([new], new)
    return _sealed([new, _supersede(ctx, old, new["id"], new_from)], new)


def _retire(ctx: _Context) -> Plan:
    record = _target(ctx)
    _require_status(record, ("active",), "retire")
    valid_to = (ctx.envelope.get("valid_time") or {}).get("to") or ctx.now
    if valid_to < record["valid_time"]["from"]:  # the same second is fine: scripts add then retire
        raise RefusedError("retirement cannot come before the record started", code="invalid_valid_time")
    if record["valid_time"]["to"] is not None:
        valid_to = min(valid_to, record["valid_time"]["to"])
    revision = ctx.change(record, "retire", "retired",
                          valid_time={"from": record["valid_time"]["from"], "to": valid_to})
    return _sealed([revision], revision)


def _named_records(ctx: _Context, ids: list[str], *, vanished_ok: frozenset = frozenset()) -> list[dict]:
    """The records named; an id in ``vanished_ok`` that is gone (erased) is skipped."""
    records = []
    for record_id in ids:
        record = ctx.state.current(record_id)
        if record is None:
            if record_id in vanished_ok:
                continue
            raise NotFoundError("no such record in this scope", code="record_not_found")
        records.append(record)
    return records


def _conflict_group(ctx: _Context) -> tuple[dict, list[dict]]:
    # dict.fromkeys: a repeated id would get two revisions with the same number (a broken chain)
    others_ids = [i for i in dict.fromkeys(ctx.payload.get("conflict_with") or [])
                  if i != ctx.envelope["target"].get("record_id")]
    if not others_ids:
        raise InputError(f"{ctx.envelope['operation']} needs payload.conflict_with", code="invalid_target")
    holder = _target(ctx, by_key_status=None)
    # resolve accepts a dispute whose other side vanished (erased): the ids the holder's own
    # conflict still names may be gone; any other unknown id is still an error
    vanished = frozenset(i for revision in ctx.state.revisions.get(holder["id"], [])
                         for i in revision["conflict"]["with"]) if ctx.envelope["operation"] == "resolve" else frozenset()
    return holder, _named_records(ctx, others_ids, vanished_ok=vanished)


def _status_before_dispute(ctx: _Context, record: dict) -> str:
    """What a disputed record was before its dispute (active or candidate)."""
    for revision in reversed(ctx.state.revisions.get(record["id"], [])):
        transition = revision.get("transition") or {}
        if transition.get("to_status") == "disputed" and transition.get("from_status") not in (None, "disputed"):
            return transition["from_status"]
    return "active"


def _settled_by_leaving(ctx: _Context, leaving: set[str]) -> list[dict]:
    """Revisions for the disputes ``leaving`` (forgotten, rejected or erased records) were in.

    A disputed record that named one of them stops naming it; with nobody left to dispute it
    the dispute is settled and the record returns to its status before the dispute; with
    others left it stays disputed with them (the dispute is reopened among those left)."""
    revisions, taken = [], set()
    for record in list(ctx.state.currents()):
        if record["id"] in leaving or record["status"] != "disputed":
            continue
        named = record["conflict"]["with"]
        if not set(named) & leaving:
            continue
        left = [i for i in named if i not in leaving]
        if left:
            revisions.append(ctx.change(record, ctx.envelope["operation"], "disputed",
                                        conflict={"state": "unresolved", "with": left, "resolution": None}))
        else:
            status = _status_before_dispute(ctx, record)
            key = record.get("memory_key")
            if status == "active" and key:
                holder = ctx.state.active_for_key(key)
                if (holder is not None and holder["id"] not in leaving) or key in taken:
                    # the slot was filled while this record was disputed (one active record per
                    # key): it waits beside the active one, as a candidate does
                    status = "candidate"
                else:
                    taken.add(key)
            revisions.append(ctx.change(record, ctx.envelope["operation"], status,
                                        conflict={"state": "none", "with": [], "resolution": None}))
    return revisions


def _dispute(ctx: _Context) -> Plan:
    holder, others = _conflict_group(ctx)
    group = [holder] + others
    for record in group:
        _require_status(record, ("active", "candidate", "disputed"), "dispute")
    ids = [r["id"] for r in group]
    revisions = [ctx.change(r, "dispute", "disputed",
                            conflict={"state": "unresolved", "with": [i for i in ids if i != r["id"]],
                                      "resolution": None}) for r in group]
    return _sealed(revisions, revisions[0])


def _resolve(ctx: _Context) -> Plan:
    holder, others = _conflict_group(ctx)
    for record in [holder] + others:
        _require_status(record, ("disputed", "active", "candidate"), "resolve")
    ids = [holder["id"]] + [r["id"] for r in others]
    # the holder becomes active: the same rules as approving it
    if holder["status"] != "active":
        _refuse_tombstoned(ctx, holder["memory_key"], holder["statement"])
    active = ctx.state.active_for_key(holder["memory_key"]) if holder["memory_key"] else None
    if active is not None and active["id"] not in ids:
        raise RefusedError("the key already has an active record outside this dispute", code="key_already_active")
    held = ctx.change(holder, "resolve", "active",
                      conflict={"state": "resolved", "with": ids[1:], "resolution": "held"},
                      verification={"state": "verified", "method": "resolution",
                                    "verified_by": ctx.envelope["actor"]["id"], "verified_at": ctx.now})
    losers = [ctx.change(r, "resolve", "rejected",
                         conflict={"state": "resolved", "with": [holder["id"]], "resolution": "rejected"},
                         verification={"state": "rejected", "method": "resolution",
                                       "verified_by": ctx.envelope["actor"]["id"], "verified_at": ctx.now})
              for r in others]
    return _sealed([held] + losers, held)


def _approve(ctx: _Context) -> Plan:
    candidate = _target(ctx, by_key_status=None)
    _require_status(candidate, ("candidate",), "approve")
    _refuse_tombstoned(ctx, candidate["memory_key"], candidate["statement"])
    approved = ctx.change(candidate, "approve", "active",
                          verification={"state": "verified", "method": "review",
                                        "verified_by": ctx.envelope["actor"]["id"], "verified_at": ctx.now})
    revisions = [approved]
    active = ctx.state.active_for_key(candidate["memory_key"]) if candidate["memory_key"] else None
    if active is not None:
        if normalize_value(active["statement"]) == normalize_value(candidate["statement"]):
            raise RefusedError("the same value is already the active record", code="duplicate_active_record")
        starts = max(candidate["valid_time"]["from"], ctx.now) \
            if candidate["valid_time"]["from"] <= active["valid_time"]["from"] else candidate["valid_time"]["from"]
        if starts <= active["valid_time"]["from"]:
            # closing the active record there would leave it an empty (or inverted) interval
            raise RefusedError("the candidate must start after the active record", code="invalid_valid_time")
        approved["valid_time"] = {"from": starts, "to": candidate["valid_time"]["to"]}
        approved["supersession"] = {**copy.deepcopy(candidate["supersession"]),
                                    "supersedes": sorted(set(candidate["supersession"]["supersedes"]) | {active["id"]})}
        revisions.append(_supersede(ctx, active, candidate["id"], starts))
    return _sealed(revisions, approved)


def _reject(ctx: _Context) -> Plan:
    candidate = _target(ctx, by_key_status=None)
    _require_status(candidate, ("candidate",), "reject")
    revision = ctx.change(candidate, "reject", "rejected",
                          verification={"state": "rejected", "method": "review",
                                        "verified_by": ctx.envelope["actor"]["id"], "verified_at": ctx.now})
    revision["transition"]["tombstone"] = _tombstone(candidate["memory_key"], candidate["statement"])
    return _sealed([revision], revision)


def _forget(ctx: _Context) -> Plan:
    record = _target(ctx)
    value = ctx.payload.get("statement") or record["statement"]
    revision = ctx.change(record, "forget", "rejected",
                          verification={"state": "rejected", "method": "forget",
                                        "verified_by": ctx.envelope["actor"]["id"], "verified_at": ctx.now})
    revision["transition"]["tombstone"] = _tombstone(record["memory_key"], value)
    return _sealed([revision] + _settled_by_leaving(ctx, {record["id"]}), revision)


def _erase(ctx: _Context) -> Plan:
    """A record by id; by memory_key, every record that ever filled the slot (its old values
    are the same personal data); the whole scope only when ``target.whole_scope`` says so."""
    target = ctx.envelope["target"]
    named = sum(bool(target.get(name)) for name in ("record_id", "memory_key", "whole_scope"))
    if named != 1:
        raise InputError("an erase names exactly one of target.record_id, target.memory_key or "
                         "target.whole_scope: true", code="invalid_target")
    if target.get("record_id"):
        record = _target(ctx)
        return _erase_plan(ctx, record["id"], [record["id"]])
    if target.get("memory_key"):
        slot = [r["id"] for r in ctx.state.currents() if r["memory_key"] == target["memory_key"]]
        if not slot:
            raise NotFoundError("no such record in this scope", code="record_not_found")
        current = ctx.state.active_for_key(target["memory_key"])
        return _erase_plan(ctx, current["id"] if current else slot[-1], slot)
    return Plan([], None, None, erase_record_ids=list(ctx.state.order), erase_scope=True)


def _erase_plan(ctx: _Context, primary: str, doomed: list[str]) -> Plan:
    """``revisions``: what the write path appends after removing the content — the records
    left in a dispute with an erased one, settled or reopened (``_settled_by_leaving``)."""
    survivors = _settled_by_leaving(ctx, set(doomed))
    for revision in survivors:
        revision["transition"]["group_size"] = len(survivors)
    return Plan([seal(r) for r in survivors], primary, None, erase_record_ids=doomed)


_OPERATIONS = {"add": _add, "update": _update, "retire": _retire, "dispute": _dispute, "resolve": _resolve,
               "approve": _approve, "reject": _reject, "forget": _forget, "erase": _erase}
