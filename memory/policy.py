"""The policy files: loaded, validated against their schemas, hashed, interpreted.

A policy is data (``config/*.json``); this module gives each value a meaning
through small named functions. Loading fails with every violation at once
(``PolicyError``, exit 4, each problem naming its file and key path): an unknown
key, a missing key, a value of the wrong type, a duplicate key, NaN, Infinity or
an integer too long to read is an error, so a misspelled feature flag can never
be silently "off".

Which files a store answers by (``policy_source``): the folder its caller names
(``config=``), else ``$MEMORY_CONFIG``, else the store's own copy
(``<store>/policies/``, written by ``memory init``), else the defaults shipped in
the package. So upgrading the package never changes an existing store's rules;
``memory init --accept-policies`` adopts the current defaults (or
``$MEMORY_CONFIG``'s files) deliberately (``Store.pin_policies``).
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputError, PolicyError
from .jsonio import atomic_write, loads_strict
from .paths import DEFAULT_CONFIG_DIR, POLICY_FILES, config_chosen, config_dir
from . import schemas

# the folder inside a store root that holds the store's own copy of its policy files
STORE_POLICY_DIR = "policies"


@dataclass(frozen=True)
class LoadedPolicy:
    name: str
    path: Path
    sha256: str
    data: dict = field(repr=False)
    raw: bytes = field(default=b"", repr=False, compare=False)  # the bytes hashed, as read


# Keys a policy gained after stores began keeping their own copy (issue 13). A file written
# before a key existed is read as it was meant then: the key takes the value that keeps the
# behaviour of that time, and a key since replaced is carried over into what replaced it.
# A key missing for any other reason, and every unknown key, is still refused.
ADDED_KEYS = {
    "retrieval": {
        ("planner", "unseen_time_weight"): 1,      # an unseen time word counted like any other term
        ("planner", "own_turns_weight"): 0,        # no own-turns ranking
        ("decision", "evidence_ratio"): 0,         # every eligible match cited
        ("features", "subject_gate_only"): False,
        ("features", "unseen_modifier_abstains"): False,
        ("features", "role_possessors"): False,
        ("features", "named_subjects"): False,
        ("features", "sentence_attribution"): False,
        ("features", "pronoun_scope"): False,      # whole sentences attributed (issue 13, abstention)
        ("features", "stated_contest"): False,     # a match contests an answer by its coverage
        ("decision", "swap_ratio"): 0,             # no speaker-swap test
        ("features", "irregular_forms"): False,
        ("features", "relation_names"): False,
        ("features", "caller_turns"): False,
        ("features", "caller_clauses"): False,   # a turn said to the caller was theirs whole ("I play padel, you should come")
        ("features", "turn_persons"): False,   # a name only conversations gave a relation made nobody a person
        ("features", "answer_types"): False,
        ("features", "relation_synonyms"): False,
        ("features", "negated_openings"): False,   # a named opening needed a verb right after the name
        ("features", "owner_attributes"): False,
        ("features", "subject_only_abstains"): False,
        ("features", "blocked_outweighs"): False,   # a blocked memory about the question did not outweigh
        ("features", "predicate_required"): False,   # a record holding only the thing asked about answered
        ("features", "owned_subjects"): False,       # "I'm allergic to ..." answered "what is my cat allergic to?"
        ("features", "relation_name_answers"): False,   # "My sister Maria ..." did not answer "my sister's name"
        ("planner", "indefinite_weight"): 1,        # "anything" counted like any other term
        ("planner", "question_form_weight"): 1,     # "many" of "how many" a term an answer must hold
        ("features", "reply_answers"): False,        # a reply held only its own words
        ("features", "abstention_sureness"): False,  # an answer carried no sureness (no sureness curve)
        ("decision", "sureness_margin"): None,       # every question decided by min_coverage, contest, swap
        ("features", "unseen_premise"): False,       # a weak answer holding no asked noun abstained, seen or not
        ("features", "place_answers"): False,        # "where" answered by a record stating no place
        ("features", "question_idioms"): False,      # "for a living" read as "live"
        ("features", "dispute_governs"): False,      # a turn answered around a dispute about the question
        ("features", "question_periods"): False,     # "last week", "two weeks ago" were only search words
        ("features", "turn_supersession"): False,    # a turn called off by a later one still answered
        ("features", "class_words"): False,          # "any pets?" not answered by "my cat"
        ("features", "class_lexicon"): False,   # 'what vegetables' was not answered by 'leeks and parsnips'
        ("features", "relation_lexicon"): False,   # 'my doctor' was not 'my GP', 'my kids' not 'my son'
        ("features", "relation_is_name"): False,   # "The user's wife is Hélène." named no wife
        ("features", "yes_no_names"): False,   # 'Is my sister named Rosa?' needed a record holding Rosa
        ("features", "everyday_thesaurus"): False,   # 'How much do I earn?' was not answered by 'My salary is ...'
        ("features", "whole_compounds"): False,   # 'a flat white with oat milk' answered 'Where do I live?'
        ("features", "kinship_model"): False,   # 'my doctorate' was 'my doctor'; 'my mum and dad' not 'my parents'
        ("features", "relation_idioms"): False,   # 'my other half' named no partner
        ("features", "occupation_reading"): False,   # 'What does my uncle do?' abstained; 'teaches geography' held no job
        ("features", "age_subjects"): False,   # 'How old is Clover?' (a rabbit) answered by 'The user is 35'
        ("features", "event_questions"): False,   # 'What did my dad do last week?' abstained
        ("features", "turn_relations"): False,   # a friend's 'my brother' in her turn was the caller's brother
        ("features", "idiom_coverage"): False,   # 'What does my boyfriend do?' found 'My OH Connor drives a taxi' covering nothing
        ("features", "race_acts"): False,   # 'What time did Kemal run the marathon in?' was not answered by his 'I finished ... in 3:38'
        ("features", "we_turns"): False,   # 'What did Dario and Carmen call the baby?' was not answered by Dario's 'We called the baby Mateo'
        ("features", "linked_names"): False,   # 'What does my sister do?' found no 'Our Niamh teaches ...' beside 'My sister Niamh'
        ("features", "possessed_names"): False,   # 'Our Ailsa's a physio' answered 'What is my job?'
        ("features", "name_subjects"): False,   # 'What is my boat's name?' was answered by 'My name is Moira'
        ("features", "age_search"): False,   # 'How old am I?' found no 'I turned 61 in March'
        ("features", "number_answers"): False,   # 'my phone number' was answered by the phone's model
        ("features", "asked_attributes"): False,   # 'What colour is my van?' was answered by the van's make
        ("features", "value_units"): False,   # '40 lengths of the pool' stated no distance
        ("features", "whole_attributes"): False,   # 'my blood type' was answered by 'type 2 diabetes'
        ("features", "place_residence"): False,   # 'Which suburb do we live in?' abstained beside 'We moved to Sandy Bay'
        ("features", "typo_transpositions"): False,   # 'whats my chess ratign' searched for 'ratign'
        ("features", "occupation_subjects"): False,   # 'What does Ben do for work?' was answered by the caller's job
        ("features", "indefinite_members"): False,   # 'Do I have a chronic condition?' asked no member of the category
        ("features", "negation_scope"): False,   # 'coeliac and avoids gluten' stated no coeliac
        ("features", "latest_values"): False,   # 'What's my latest LDL?' abstained on the unseen 'latest'
        ("features", "compound_senses"): False,   # 'Which bank do I use?' was answered by the river bank
        ("features", "other_values"): False,   # 'Is Tomasz a plumber?' abstained beside 'Tomasz teaches violin'
        ("features", "kind_members"): False,   # '1,100 nautical miles' no distance, 'Our Maine Coon' no cat, '500 mg' no dose
        ("features", "typo_terms"): False,   # 'wheres my brothr live' searched for 'brothr', a term no record holds
        ("features", "unseen_heads"): False,   # 'Which airline ...?' was answered by 'Flying to Lisbon on the 3rd'
        ("features", "errand_means"): False,   # 'How do I get to work?' was answered by 'I walk the dog before work'
        ("features", "bare_genitives"): False,   # 'husbands name?' was the caller's own name ('My name is ...')
        ("features", "qualified_relations"): False,   # 'Our first grandchild, Osian, ...' named no grandchild
        ("features", "colloquial_relations"): False,   # 'our lad', 'my girl', 'our eldest' were no relation
        ("features", "doing_now"): False,   # 'What's our eldest doing now?' asked no work
        ("features", "kin_group"): False,   # 'Who in my family is a nurse?' needed a record saying 'family'
        ("features", "thing_names"): False,   # 'What did Lucia call the puppy?' was answered by 'Jorge and I ... a spaniel puppy'
        ("features", "speaker_relation_names"): False,   # 'Lucia's son' was not the 'Pablo' of her own 'my son Pablo'
        ("features", "occupation_search"): False,   # 'What do I do for work?' found no 'I teach piano from home'
        ("features", "agent_nouns"): False,   # 'Who in my family is a teacher?' was not held by 'Our Niamh teaches ...'
        ("features", "thing_phrases"): False,   # 'I pay 720 pounds a month for the flat' held no rent
        ("features", "synonyms_known"): False,   # 'my quickest marathon' abstained beside 'My marathon PB is 3:41'
        ("features", "member_roles"): False,   # 'Which sport do I do?' was answered by 'I cycle to the clinic'
        ("features", "means_answers"): False,   # 'How do I get to work?' was answered by the shift record
        ("features", "amount_things"): False,   # 'What was my rent?' was answered by the salary or 'a two-bedroom flat'
        ("features", "negated_synonyms"): False,   # 'allergic to penicillin' named no antibiotic; 'I don't eat meat' no diet
        ("features", "head_members"): False,   # 'What car ...?' cited the job record before the keyed Prius
        ("features", "typed_answers"): False,   # 'how far' was answered by any record holding 'far' ('so far')
        ("features", "typed_evidence_order"): False,   # evidence in rank order, a record not stating what is asked first
        ("features", "compound_heads"): False,   # 'my blood thinner' answered 'my blood type'
        ("features", "favourite_objects"): False,   # 'my favourite film' was answered by the favourite author
        ("features", "age_answers"): False,   # 'how old' was answered by any record holding 'old' ('my old copy')
        ("features", "dispute_about_subject"): False,   # a dispute governed only a question sharing its words
        ("features", "speaker_with_relation"): False,   # a record opening 'My kids and I' was the kids' only
        ("features", "replaced_historical"): False,   # one ended answer beside a standing fact answered VERIFIED
        ("features", "later_values"): False,   # a turn naming the current value answered 'what did I use to ...'
        ("features", "period_needs_time"): False,   # a standing fact answered 'what did I ... last week?'
        ("features", "value_bridge"): False,   # 'What was I driving in 2022?' matched only a later turn naming the new car
        ("features", "named_months"): False,   # 'last January', 'in February' (no year) were only search words
        ("features", "dated_records"): False,   # a record's own dates ('on Saturday', 'in 2019') did not place it
        ("features", "change_starts"): False,   # 'I switched to days' (March) answered 'what shift in January?'
        ("features", "period_activity"): False,   # 'What did I do last weekend?' needed a record holding 'do'
        ("features", "recurring_times"): False,   # 'on Sunday mornings' was answered by any record holding 'morning'
        ("features", "then_links_first"): False,   # a standing fact was cited before the link valid then
        ("features", "past_weekdays"): False,   # 'on Saturday' asked in the past named no period
        ("features", "place_periods"): False,   # 'my GP in Perth' (a town left) answered with today's GP
        ("features", "start_values"): False,   # 'the dose I started on' answered with today's dose
        ("features", "count_so_far"): False,   # 'how many so far' cited an older count beside the latest
        ("features", "asked_durations"): False,   # 'how many years' answered by a record naming the place
        ("features", "own_doings"): False,   # 'What do I do these days?' searched nothing
        ("features", "ended_links"): False,   # 'What's my job now?' answered by the job the user said they left
        ("features", "period_news"): False,   # 'What did the consultant tell me last week?' was UNKNOWN
        ("features", "prospective_mood"): False,   # a prospect (an interview, might move) answered for the state
        ("features", "bare_changes"): False,       # "we changed banks" answered which bank
        ("features", "aspect_words"): False,       # still/ever/now counted as words a record must hold
        ("features", "asked_head"): False,         # "What shift did I work?" answered by a record sharing the verb
        ("features", "current_values"): False,     # "Did I use to drive a Kia?" answered by the car before the Kia
        ("features", "missing_without_time"): False,   # 'last' of 'last year' was named as missing
        ("features", "stated_years"): False,   # 'in 2023' cited another year's total and a fact held then
        ("features", "period_doings"): False,   # a value recorded last week answered 'What did I do last week?'
        ("features", "before_events"): False,   # 'before I got fitter' answered with today's value
        ("features", "light_acts"): False,   # "Do I still go to Mallorca?" answered by a turn only naming Mallorca
        ("features", "past_values"): False,   # a past question naming an older value was answered by the successor
        ("features", "named_before"): False,   # 'before Leeds' counted Leeds as what is asked
        ("features", "closing_before"): False,   # 'before' closing a question was no past
        ("features", "yes_no_predicates"): False,   # a yes/no question's predicate need not be stated of its subject
        ("features", "statement_persons"): False,   # a statement kept as an episode, or a relation's name, made nobody a person
        ("features", "when_only_abstains"): False,   # a record sharing only a word that says when supported a question
        ("features", "yes_no_objects"): False,   # a yes/no question's bare object weighed as any term
        ("features", "negative_objects"): False,   # a negative answered a question naming any word of its object
        ("features", "historical_negatives"): False,   # an ended negative answered VERIFIED_NEGATIVE
        ("features", "stated_negatives"): False,   # a record of kind negative answered as one, whatever it stated
    },
}
# removed keys: a mechanism measured to hurt and deleted (CONVENTIONS 20); an older file that
# names it loads without it (benchmarks/reports/retrieval-ablation.md has its measurement)
REMOVED_KEYS = {
    "retrieval": {("features", "entity_search")},
}
# replaced keys: (section, key) -> (section, key, value of the new key for each old value)
REPLACED_KEYS = {
    "retrieval": {
        ("features", "session_fusion"): ("planner", "session_weight", {True: 1, False: 0}),
    },
}


def upgraded(name: str, data) -> tuple[object, list[str]]:
    """``data`` as the current schema reads it, and the key paths filled in or carried over."""
    added, replaced = ADDED_KEYS.get(name, {}), REPLACED_KEYS.get(name, {})
    removed = REMOVED_KEYS.get(name, set())
    if not isinstance(data, dict) or not (added or replaced or removed):
        return data, []
    data = {key: dict(value) if isinstance(value, dict) else value for key, value in data.items()}
    changes = []
    for section, key in removed:
        part = data.get(section)
        if isinstance(part, dict) and isinstance(part.get(key), bool):
            del part[key]
            changes.append(f"{section}.{key} (removed)")
    for (section, key), (new_section, new_key, mapping) in replaced.items():
        part, target = data.get(section), data.get(new_section)
        if isinstance(part, dict) and key in part and isinstance(target, dict) and new_key not in target:
            old = part.pop(key)
            if isinstance(old, bool):
                target[new_key] = mapping[old]
                changes.append(f"{section}.{key} -> {new_section}.{new_key}")
            else:
                part[key] = old          # not the old key's type: left for the schema to name
    for (section, key), value in added.items():
        part = data.get(section)
        if isinstance(part, dict) and key not in part:
            part[key] = value
            changes.append(f"{section}.{key}")
    return data, changes


def load_policy(name: str, directory: Path | None = None) -> LoadedPolicy:
    filename = POLICY_FILES[name]
    folder = config_dir() if directory is None else directory
    # a folder on disk, or the package's data folder as importlib.resources gives it
    path = (Path(folder) if isinstance(folder, (str, os.PathLike)) else folder).joinpath(filename)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise PolicyError(f"policy file missing: {path}", code="policy_missing") from None
    except OSError as exc:
        raise PolicyError(f"policy file unreadable: {path} ({type(exc).__name__})", code="policy_missing") from None
    try:
        data = loads_strict(raw, what=f"policy {filename}")
    except InputError as exc:
        # the parser's message may not say which file (a duplicate key does not): name it
        raise PolicyError(f"policy {filename}: {exc.message}", code="policy_invalid",
                          details=[f"{filename}: {exc.message}"]) from None
    except ValueError:
        # Python refuses to convert an integer literal of more than 4,300 digits (int_max_str_digits)
        message = "a number has too many digits to be read (at most 4,300)"
        raise PolicyError(f"policy {filename}: {message}", code="policy_invalid",
                          details=[f"{filename}: {message}"]) from None
    data, _ = upgraded(name, data)
    problems = [] if _shipped(filename, raw) else schemas.problems(f"{name}-policy", data, separator=".")
    if problems:
        raise PolicyError(f"policy {filename} fails its schema: " + "; ".join(problems),
                          code="policy_invalid", details=[f"{filename}: {p}" for p in problems])
    return LoadedPolicy(name, path, hashlib.sha256(raw).hexdigest(), data, raw)


def _shipped(filename: str, raw: bytes) -> bool:
    """Whether ``raw`` is byte for byte the package's own default policy file: its schema check
    has one answer per package (the same bytes, the same packaged schema), and that answer is
    "valid" (``tests/test_schemas.py`` checks each shipped file against its schema). A store
    answering by an unchanged copy of the defaults then reads no schema in each process."""
    try:
        return DEFAULT_CONFIG_DIR.joinpath(filename).read_bytes() == raw
    except OSError:
        return False


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
    """Load all three policies, reporting every problem of every file together."""
    loaded, messages, details = {}, [], []
    for name in POLICY_FILES:
        try:
            loaded[name] = load_policy(name, directory)
        except PolicyError as exc:
            messages.append(exc.message)
            details += exc.details or [exc.message]
    if messages:
        raise PolicyError("; ".join(messages), code="policy_invalid", details=details)
    return Policies(MutationPolicy(loaded["mutation"]), ForgettingPolicy(loaded["forgetting"]),
                    RetrievalPolicy(loaded["retrieval"]))


# -- a store's own policies ------------------------------------------------------------

def policy_source(store_root: Path, config: Path | None = None) -> Path:
    """The policy folder a store answers by: ``config`` > ``$MEMORY_CONFIG`` > the store's copy > the defaults."""
    if config is not None:
        return Path(config)
    if config_chosen():
        return config_dir()
    copy = Path(store_root) / STORE_POLICY_DIR
    # the copy counts once store.json pins it (written last by init): an init cut short (a full
    # disk) leaves a partial copy that a rerun of init must not read as the store's policies
    if copy.is_dir() and (Path(store_root) / "store.json").exists():
        return copy
    return DEFAULT_CONFIG_DIR


def store_policies(store_root: Path, config: Path | None = None) -> Policies:
    return load_policies(policy_source(store_root, config))


def write_store_copy(store_root: Path, policies: Policies) -> None:
    """Write the three policy files, byte for byte as they were loaded and hashed, into the store."""
    folder = Path(store_root) / STORE_POLICY_DIR
    for policy in (policies.mutation, policies.forgetting, policies.retrieval):
        loaded = policy.loaded
        raw = loaded.raw or loaded.path.read_bytes()
        if hashlib.sha256(raw).hexdigest() != loaded.sha256:
            raise PolicyError(f"policy {loaded.path.name} changed on disk since it was loaded; run the command again",
                              code="policy_invalid")
        atomic_write(folder / loaded.path.name, raw)
