"""The policy files: loaded, validated against their schemas, hashed, interpreted.

A policy is data (``config/*.json``); this module gives each value a meaning
through small named functions. Loading fails with every violation at once
(``PolicyError``); a duplicate key, NaN or Infinity is an error.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputError, PolicyError
from .jsonio import loads_strict
from .paths import POLICY_FILES, config_dir
from . import schemas


@dataclass(frozen=True)
class LoadedPolicy:
    name: str
    path: Path
    sha256: str
    data: dict = field(repr=False)


def load_policy(name: str, directory: Path | None = None) -> LoadedPolicy:
    path = Path(directory or config_dir()) / POLICY_FILES[name]
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise PolicyError(f"policy file missing: {path}", code="policy_missing") from None
    try:
        data = loads_strict(raw, what=f"policy {path.name}")
    except InputError as exc:
        # the parser's message may not say which file (a duplicate key does not): name it
        raise PolicyError(f"policy {path.name}: {exc.message}", code="policy_invalid") from None
    problems = schemas.problems(f"{name}-policy", data)
    if problems:
        raise PolicyError(f"policy {path.name} fails its schema: " + "; ".join(problems),
                          code="policy_invalid", details=problems)
    return LoadedPolicy(name, path, hashlib.sha256(raw).hexdigest(), data)


class MutationPolicy:
    """What admits an envelope: the source x operation table, requirements and caps."""

    def __init__(self, loaded: LoadedPolicy) -> None:
        self.loaded = loaded
        self.data = loaded.data
        self.sha256 = loaded.sha256

    @property
    def caps(self) -> dict:
        return self.data["caps"]

    def admission(self, source_type: str, operation: str) -> str:
        rule = self.data["sources"].get(source_type)
        if rule is None:
            return "reject_persistence"
        return rule["operations"].get(operation, "reject_persistence")

    def source_rule(self, source_type: str) -> dict | None:
        return self.data["sources"].get(source_type)

    def actor_types_for(self, operation: str) -> list[str] | None:
        return self.data["operation_actor_types"].get(operation)

    @property
    def redacts_credentials(self) -> bool:
        return self.data["credentials"]["action"] == "redact"


class ForgettingPolicy:
    """What may support an answer, retention windows, the abstention priority."""

    def __init__(self, loaded: LoadedPolicy) -> None:
        self.loaded = loaded
        self.data = loaded.data
        self.sha256 = loaded.sha256
        # the decision asks these of every candidate of every query; a loaded policy's data
        # is never changed, so each answer is worked out once per policy object
        self._answering = frozenset(self.data["answering_statuses"])
        self._retention: dict[tuple[str, str], int | None] = {}

    @property
    def answering_statuses(self) -> frozenset:
        return self._answering

    @property
    def retired_requires_closed_validity(self) -> bool:
        return self.data["retired_requires_closed_validity"]

    @property
    def abstention_priority(self) -> list[str]:
        return self.data["abstention_priority"]

    @property
    def shared_scopes(self) -> list[dict]:
        return self.data["shared_scopes"]

    def retention_days(self, kind: str, classification: str) -> int | None:
        """The shortest window among the rules that match (None: kept until changed)."""
        key = (kind, classification)
        if key not in self._retention:
            matching = [rule["days"] for rule in self.data["retention"]
                        if rule["kind"] in ("*", kind) and rule["classification"] in ("*", classification)]
            self._retention[key] = min(matching) if matching else None
        return self._retention[key]


class RetrievalPolicy:
    def __init__(self, loaded: LoadedPolicy) -> None:
        self.loaded = loaded
        self.data = loaded.data
        self.sha256 = loaded.sha256

    @property
    def bm25(self) -> dict:
        return self.data["bm25"]

    @property
    def planner(self) -> dict:
        return self.data["planner"]

    @property
    def decision(self) -> dict:
        return self.data["decision"]

    def feature(self, name: str) -> bool:
        return bool(self.data["features"].get(name, False))


@dataclass(frozen=True)
class Policies:
    mutation: MutationPolicy
    forgetting: ForgettingPolicy
    retrieval: RetrievalPolicy

    def hashes(self) -> dict[str, str]:
        return {p.loaded.path.name: p.sha256 for p in (self.mutation, self.forgetting, self.retrieval)}


def load_policies(directory: Path | None = None) -> Policies:
    """Load all three policies, reporting every broken file together."""
    loaded, problems = {}, []
    for name in POLICY_FILES:
        try:
            loaded[name] = load_policy(name, directory)
        except PolicyError as exc:
            problems.append(exc.message)
    if problems:
        raise PolicyError("; ".join(problems), code="policy_invalid", details=problems)
    return Policies(MutationPolicy(loaded["mutation"]), ForgettingPolicy(loaded["forgetting"]),
                    RetrievalPolicy(loaded["retrieval"]))
