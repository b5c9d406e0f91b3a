"""Deterministic synthetic stores for the performance benchmarks, written through ``Store.apply``.

Contract: ``generate(root, total, seed=...)`` creates a genuine store at ``root``
(``Store.create`` + batched ``Store.apply``: the same admission, lifecycle,
group commit, fsync and manifests as ``memory apply``) holding ``total``
records, and returns a summary (also written beside the store as
``<root>.gen.json``). The same (seed, total, batch size) gives byte-identical
shards, on any machine, in any process (``random.Random`` seeded with a string).

What a store holds (``layout``):

- probe scopes ``probe-100``, ``probe-1k``, ``probe-10k``, ``probe-100k`` (each
  where the store is at least ten times its size) and ``perf-mutate-1k`` (a
  scope ``run.py`` may write to). A scope's content depends only on (seed, key,
  size), so ``probe-1k`` is the same scope in the 10k, 100k and 1M stores;
- filler scopes ``fill<size>-<n>`` of 10k, 1k and 100 records: many scopes.

What a scope holds (``scope_envelopes``), counted in records (ids):

- conversation episodes: sessions of 8-30 dated turns between the scope's owner
  and one of their acquaintances, English-like sentences with names, places,
  numbers and dates, plus Zipf-distributed filler words;
- keyed facts (``FACT_SHARE`` of the scope, at most ``MAX_FACTS``): where people
  live, work, their pets, birthdays, cars, hobbies;
- then, on chosen facts: ``update`` (supersede: a new record; counts toward the
  size), ``retire`` and ``dispute`` (pairs), all addressed by record id.

``MAX_FACTS`` exists because every keyed ``add`` scans the scope's records
(``ScopeState.active_for_key``): without the cap a 100k scope takes hours to
write. benchmarks/reports/perf.md has the numbers and the proposed fix.

CLI: ``python benchmarks/perf/generate.py --size 1m --out /tmp/memory-perf``
writes ``/tmp/memory-perf/store-1m``; ``--locomo FILE`` writes a synthetic
file in LoCoMo's format for ``memory import``. Never write into the repository.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Iterator

PROJECT_ROOT = Path(__file__).resolve().parents[2]
if str(PROJECT_ROOT) not in sys.path:
    # appended, not inserted: a PYTHONPATH snapshot of the package (run.py) must win
    sys.path.append(str(PROJECT_ROOT))

from memory.clock import FixedClock, format_instant  # noqa: E402
from memory.records import record_id_for  # noqa: E402
from memory.store import Store  # noqa: E402

SEED = "memory-perf-1"
SIZES = {"10k": 10_000, "100k": 100_000, "1m": 1_000_000}
PROBES = (("probe-100", 100), ("probe-1k", 1_000), ("probe-10k", 10_000), ("probe-100k", 100_000))
MUTATE_SCOPE = ("perf-mutate-1k", 1_000)
FILLER_SIZES = (10_000, 1_000, 100)
DEFAULT_BATCH = 5_000

FACT_SHARE = 0.12
MAX_FACTS = 1_000
UPDATE_SHARE = 0.15     # of the facts: superseded by a new record
RETIRE_SHARE = 0.05     # of the facts: retired
DISPUTE_SHARE = 0.04    # of the facts: disputed, in pairs

TIMELINE_START = dt.datetime(2018, 1, 1, tzinfo=dt.timezone.utc)
TIMELINE_DAYS = 6 * 365
RECORDED_START = dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc)   # after every valid_time.from
QUERY_NOW = "2025-06-01T00:00:00Z"

# -- vocabulary ------------------------------------------------------------------

FIRST_NAMES = """Maria Tom Aisha Liam Sofia Noah Chen Olivia Ravi Emma Lucas Mia Omar Zoe Ethan Ava
Mateo Chloe Yuki Leo Nora Ivan Hana Diego Grace Felix Amara Hugo Lena Kofi Ines Jonas Priya Arjun Elena
Marco Julia Sven Fatima Pablo Clara Tariq Greta Dmitri Leila Oscar Naomi Kenji Rosa Samuel Anya Victor
Lucia Mehmet Ingrid Rafael Alice Bruno Carmen Daniel Erin Farid Gemma Henrik Isla Jamal Kira Lars Maya
Nikolai Olga Pedro Quinn Rahul Sara Theo Uma Vera Wei Xavier Yara Zane Beatriz Caleb Dalia Emil Freya
Gustav Helena Idris Jasmin Karim Lotte Milan Nadia Otto Petra Ruben Selma Tobias Ursula Viktor""".split()
LAST_NAMES = """Lopez Smith Khan Murphy Rossi Weber Tanaka Novak Silva Brown Garcia Müller Dubois Kowalski
Andersen Costa Jensen Okafor Patel Ivanova Nguyen Hansen Moreau Fischer Santos Eriksen Schmidt Romano
Yilmaz Larsen Horvat Kim Sato Wagner Bianchi Nowak Mendes Popescu Varga Lindqvist""".split()
CITIES = """Berlin Lisbon Paris Madrid Rome Vienna Prague Warsaw Oslo Stockholm Helsinki Dublin London
Edinburgh Amsterdam Brussels Zurich Geneva Milan Naples Porto Seville Valencia Barcelona Munich Hamburg
Cologne Copenhagen Athens Istanbul Cairo Nairobi Lagos Accra Mumbai Delhi Bangalore Tokyo Osaka Kyoto
Seoul Beijing Shanghai Singapore Sydney Melbourne Auckland Toronto Montreal Vancouver Boston Chicago
Denver Seattle Austin Portland Miami Lima Bogota Santiago Quito Havana Reykjavik Tallinn Riga Vilnius
Krakow Budapest Bucharest Sofia Belgrade Zagreb Ljubljana Bratislava Tbilisi Yerevan Baku Tunis Marrakesh""".split()
COMPANIES = """Acme Globex Initech Umbrella Stark Wayne Hooli Vandelay Soylent Cyberdyne Tyrell Aperture
Wonka Gringotts Monarch Oscorp Nakatomi Dunder Massive Pied""".split()
ROLES = """nurse teacher engineer designer chef pilot lawyer architect carpenter baker editor analyst
painter plumber doctor librarian accountant pharmacist translator journalist""".split()
PETS = "cats dogs rabbits parrots hamsters goldfish turtles horses".split()
FOODS = """pizza sushi ramen tacos curry paella risotto dumplings falafel lasagna pancakes goulash
pierogi biryani moussaka""".split()
HOBBIES = """climbing pottery chess cycling running swimming painting baking knitting surfing hiking
gardening photography sailing fencing""".split()
COLORS = "red blue green black white silver yellow orange grey purple".split()
CARS = "Volvo Toyota Fiat Skoda Honda Tesla Renault Ford Mazda Kia".split()
MONTHS = """January February March April May June July August September October November
December""".split()
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
NOUNS = """house garden book concert trip dinner meeting project kitchen bicycle museum beach
market hospital school office train flight ticket wedding birthday party exam interview recipe
movie album guitar piano painting marathon vacation apartment neighbour festival island lake
mountain forest river bridge castle library stadium restaurant bakery gallery workshop""".split()
VERBS = """visited bought cooked painted finished started booked fixed planned watched read wrote
sold found lost moved joined left called met helped taught learned tried built cleaned""".split()
ADJECTIVES = """great tiring lovely strange quiet busy amazing boring cheerful stressful relaxing
expensive cheap crowded peaceful exciting rainy sunny cold warm""".split()
COMMON = """time year people way day man thing woman life child world school state family student
group country problem hand part place case week company system program question work government
number night point home water room mother area money story fact month lot right study book eye job
word business issue side kind head house service friend father power hour game line end member law
car city community name president team minute idea kid body information back parent face others
level office door health person art war history party result change morning reason research girl guy
moment air teacher force education foot boy age policy everything process music market sense
nation plan college interest death experience effect class control care field development role
effort rate heart drug show leader light voice wife police mind price report decision son view
relationship town road arm difference value building action model season society tax director
position player record paper space ground form event official matter center couple site project
activity star table need court oil situation cost industry figure street image phone data picture
practice piece land product doctor wall patient worker news test movie north love support technology
step baby computer type attention film tree source organization hair window evidence population
site letter floor career""".split()
_SYLLABLES = ["ba", "ko", "ri", "ten", "ma", "lo", "vi", "sun", "de", "ra", "mi", "tor", "fa", "nel",
              "pu", "sha", "gri", "dan", "ol", "ve", "qui", "zan", "bor", "el", "tis", "mon", "ca", "ru"]


def _pseudo_words(count: int) -> list[str]:
    """Rare, English-shaped words (a long vocabulary tail, as real chat has)."""
    rng = random.Random(f"{SEED}:pseudo-words")
    words: dict[str, None] = {}
    while len(words) < count:
        words["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))] = None
    return list(words)


FILLER = COMMON + NOUNS + VERBS + ADJECTIVES + _pseudo_words(4_000)
# Zipf weights (s = 1.1): a few words everywhere, most words rare
_FILLER_CUM: list[float] = []
_total = 0.0
for _rank in range(1, len(FILLER) + 1):
    _total += 1.0 / _rank ** 1.1
    _FILLER_CUM.append(_total)

# -- layout ----------------------------------------------------------------------


@dataclass(frozen=True)
class ScopePlan:
    key: str
    size: int      # records (ids) the scope will hold
    role: str      # probe | mutate | filler


def layout(total: int) -> list[ScopePlan]:
    """The scopes of a ``total``-record store: probes, the mutate scope, then fillers.

    Probe scopes appear where the store is at least ten times their size. Fillers
    take a third of the rest per size class that is at most 1% of the store (the
    smallest class takes what is left), so a bigger store has more, not only
    bigger, scopes.
    """
    plans = [ScopePlan(key, size, "probe") for key, size in PROBES if size * 10 <= total]
    if MUTATE_SCOPE[1] * 10 <= total:
        plans.append(ScopePlan(*MUTATE_SCOPE, "mutate"))
    left = total - sum(p.size for p in plans)
    if left < 0:
        raise ValueError(f"a store of {total} records cannot hold its probe scopes")
    classes = [s for s in FILLER_SIZES if s * 100 <= total] or [min(FILLER_SIZES[-1], left or 1)]
    for size in classes:
        share = left if size == classes[-1] else left // 3
        count, rest = divmod(share, size)
        plans += [ScopePlan(f"fill{size}-{i:05d}", size, "filler") for i in range(count)]
        if size == classes[-1] and rest:
            plans.append(ScopePlan(f"fill{size}-{count:05d}", rest, "filler"))
        left -= count * size
    return plans


def scope(key: str) -> dict:
    return {"type": "user", "key": key}

# -- one scope's content ------------------------------------------------------------


@dataclass(frozen=True)
class Cast:
    """The people and places a scope talks about (derived from seed, key and size alone)."""

    owner: str
    people: tuple[str, ...]
    cities: tuple[str, ...]


def cast(seed: str, plan: ScopePlan) -> Cast:
    rng = random.Random(f"{seed}:{plan.key}:cast")
    owner = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
    people = {f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}": None
              for _ in range(min(150, 6 + plan.size // 40))}
    people.pop(owner, None)
    cities = rng.sample(CITIES, min(len(CITIES), 8 + plan.size // 500))
    return Cast(owner, tuple(people), tuple(cities))


def _instant(day: float, hour: int = 12) -> str:
    return format_instant(TIMELINE_START + dt.timedelta(days=day, hours=hour))


def _human_date(rng: random.Random) -> str:
    year = rng.randint(2010, 2024)
    forms = (f"{rng.choice(MONTHS)} {rng.randint(1, 28)}, {year}", f"{year}-{rng.randint(1, 12):02d}-"
             f"{rng.randint(1, 28):02d}", f"last {rng.choice(WEEKDAYS)}", f"in {rng.choice(MONTHS)} {year}")
    return rng.choice(forms)


def _filler(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choices(FILLER, cum_weights=_FILLER_CUM, k=rng.randint(low, high)))


_EPISODE_TEMPLATES = (
    "I went to {city} with {first} on {date} and we {verb} a {noun}.",
    "{first} told me the {noun} cost {n} dollars, which felt {adj}.",
    "We {verb} {n} {noun}s after the {noun2} {date}.",
    "Did you know {first} {verb} the {noun} in {city}? It was {adj}.",
    "My {noun} in {city} is finally done, {n} weeks later than {first} said.",
    "{first} and I are planning a {noun} to {city} for {month}.",
    "The {noun} was {adj}; {first} brought {n} friends from {city}.",
)


def _episode_text(rng: random.Random, cast_: Cast, partner: str) -> str:
    sentences = []
    for _ in range(rng.randint(1, 3)):
        template = rng.choice(_EPISODE_TEMPLATES)
        first = rng.choice((partner, rng.choice(cast_.people) if cast_.people else partner)).split()[0]
        sentences.append(template.format(
            city=rng.choice(cast_.cities), first=first, date=_human_date(rng), verb=rng.choice(VERBS),
            noun=rng.choice(NOUNS), noun2=rng.choice(NOUNS), n=rng.randint(2, 500), adj=rng.choice(ADJECTIVES),
            month=rng.choice(MONTHS)))
    sentences.append(_filler(rng, 3, 12).capitalize() + ".")
    return " ".join(sentences)


_FACT_ATTRIBUTES = {
    "home_city": lambda r, p, c: f"{p} lives in {r.choice(c.cities)} since {r.choice(MONTHS)} {r.randint(2000, 2024)}.",
    "job": lambda r, p, c: f"{p} works as a {r.choice(ROLES)} at {r.choice(COMPANIES)}, since {_human_date(r)}.",
    "pets": lambda r, p, c: f"{p} has {r.randint(1, 6)} {r.choice(PETS)}, the oldest one is named "
                            f"{r.choice(FIRST_NAMES)}.",
    "birthday": lambda r, p, c: f"{p}'s birthday is on {r.choice(MONTHS)} {r.randint(1, 28)}.",
    "favourite_food": lambda r, p, c: f"{p}'s favourite food is {r.choice(FOODS)}, best eaten in "
                                      f"{r.choice(c.cities)}.",
    "car": lambda r, p, c: f"{p} drives a {r.choice(COLORS)} {r.choice(CARS)} bought in {r.randint(2005, 2024)} "
                           f"for {r.randint(3, 60)}000 euros.",
    "hobby": lambda r, p, c: f"{p} took up {r.choice(HOBBIES)} in {r.randint(2000, 2024)} and does it "
                             f"{r.randint(1, 5)} times a week.",
}


def _slug(text: str) -> str:
    return "".join(c if c.isascii() and c.isalnum() else "_" for c in text.lower())


def _base_envelope(plan: ScopePlan, tx: str, operation: str, source: dict, actor: dict) -> dict:
    return {"schema_version": "memory.envelope.v1", "transaction_id": tx, "operation": operation,
            "actor": actor, "source": source,
            "target": {"record_id": None, "memory_key": None, "scope": scope(plan.key)},
            "reason": f"synthetic {operation}"}


_USER = {"type": "user_via_agent", "id": "perf-generator"}
_IMPORTER = {"type": "importer", "id": "perf-generator"}


def _explicit(ref: str) -> dict:
    return {"type": "explicit_user", "ref": ref, "observed_at": None, "evidence_hash": None,
            "session": None, "speaker": None}


@dataclass(frozen=True)
class ScopeCounts:
    episodes: int
    facts: int
    updates: int
    retires: int
    dispute_pairs: int

    @classmethod
    def for_size(cls, size: int) -> "ScopeCounts":
        facts = min(max(1, round(size * FACT_SHARE)), MAX_FACTS) if size >= 10 else 0
        updates = round(facts * UPDATE_SHARE)
        retires = round(facts * RETIRE_SHARE)
        pairs = round(facts * DISPUTE_SHARE / 2)
        return cls(size - facts - updates, facts, updates, retires, pairs)

    @property
    def records(self) -> int:
        return self.episodes + self.facts + self.updates

    @property
    def envelopes(self) -> int:
        return self.records + self.retires + self.dispute_pairs


def scope_envelopes(seed: str, plan: ScopePlan) -> Iterator[dict]:
    """Every envelope of one scope, in order: adds along the timeline, then the changes."""
    rng = random.Random(f"{seed}:{plan.key}:{plan.size}")
    cast_ = cast(seed, plan)
    counts = ScopeCounts.for_size(plan.size)
    adds = ["fact"] * counts.facts + ["episode"] * counts.episodes
    rng.shuffle(adds)
    facts: list[tuple[dict, float, str, str]] = []   # (envelope, valid-from day, person, attribute)
    keys: set[str] = set()
    session, turn, session_len, partner = 0, 0, 0, cast_.owner
    for position, kind in enumerate(adds):
        day = TIMELINE_DAYS * position / max(len(adds), 1)
        if kind == "episode":
            if turn >= session_len:
                session, turn, session_len = session + 1, 0, rng.randint(8, 30)
                partner = rng.choice(cast_.people) if cast_.people else cast_.owner
            turn += 1
            yield _episode(plan, rng, cast_, session, turn, partner, day)
        else:
            envelope, person, attribute = _fact(plan, rng, cast_, len(facts), keys, day)
            facts.append((envelope, day, person, attribute))
            yield envelope
    yield from _changes(plan, rng, cast_, facts, counts)


def _episode(plan: ScopePlan, rng: random.Random, cast_: Cast, session: int, turn: int, partner: str,
             day: float) -> dict:
    speaker = cast_.owner if turn % 2 else partner
    when = _instant(int(day), hour=9 + turn % 12)
    envelope = _base_envelope(plan, f"ep-{session}-{turn}", "add",
                              {"type": "conversation", "ref": f"D{session}:{turn}", "observed_at": when,
                               "evidence_hash": None, "session": f"session_{session}", "speaker": speaker},
                              _IMPORTER)
    envelope["payload"] = {"kind": "episode", "statement": _episode_text(rng, cast_, partner),
                           "confidence": "high", "importance": "low", "aliases": [], "tags": [],
                           "negative_triggers": []}
    envelope["valid_time"] = {"from": when, "to": None}
    envelope["sensitivity"] = {"classification": "private"}
    return envelope


def _fact(plan: ScopePlan, rng: random.Random, cast_: Cast, number: int, keys: set,
          day: float) -> tuple[dict, str, str]:
    person = rng.choice((cast_.owner,) + cast_.people)
    attribute = rng.choice(sorted(_FACT_ATTRIBUTES))
    key = f"{_slug(person)}.{attribute}"
    while key in keys:
        key = f"{_slug(person)}.{attribute}_{rng.randint(2, 999)}"
    keys.add(key)
    envelope = _base_envelope(plan, f"fact-{number}", "add", _explicit("perf"), _USER)
    envelope["target"]["memory_key"] = key
    envelope["payload"] = {"kind": "fact", "statement": _FACT_ATTRIBUTES[attribute](rng, person, cast_),
                           "confidence": "high", "importance": "medium",
                           "aliases": [f"{person.split()[0]} {attribute.replace('_', ' ')}"],
                           "tags": [attribute], "negative_triggers": []}
    envelope["valid_time"] = {"from": _instant(day), "to": None}
    envelope["sensitivity"] = {"classification": "private"}
    return envelope, person, attribute


def _changes(plan: ScopePlan, rng: random.Random, cast_: Cast, facts: list, counts: ScopeCounts) -> Iterator[dict]:
    """Updates, retirements and disputes, each on its own chosen facts (by record id)."""
    chosen = rng.sample(range(len(facts)), counts.updates + counts.retires + 2 * counts.dispute_pairs)
    updates = chosen[:counts.updates]
    retires = chosen[counts.updates:counts.updates + counts.retires]
    disputes = chosen[counts.updates + counts.retires:]

    def record_id(index: int) -> str:
        return record_id_for(scope(plan.key), facts[index][0]["transaction_id"])

    for n, index in enumerate(updates):
        _, day, person, attribute = facts[index]
        envelope = _base_envelope(plan, f"update-{n}", "update", _explicit("perf"), _USER)
        envelope["target"]["record_id"] = record_id(index)
        # "(changed)": a value drawn again may equal the old one, which update refuses
        envelope["payload"] = {"statement": _FACT_ATTRIBUTES[attribute](rng, person, cast_) + " (changed)"}
        envelope["valid_time"] = {"from": _instant(day + rng.randint(30, 400), hour=13), "to": None}
        yield envelope
    for n, index in enumerate(retires):
        envelope = _base_envelope(plan, f"retire-{n}", "retire", _explicit("perf"), _USER)
        envelope["target"]["record_id"] = record_id(index)
        envelope["valid_time"] = {"from": None, "to": _instant(facts[index][1] + rng.randint(10, 300), hour=14)}
        yield envelope
    for n in range(counts.dispute_pairs):
        holder, other = disputes[2 * n], disputes[2 * n + 1]
        envelope = _base_envelope(plan, f"dispute-{n}", "dispute", _explicit("perf"), _USER)
        envelope["target"]["record_id"] = record_id(holder)
        envelope["payload"] = {"conflict_with": [record_id(other)]}
        yield envelope

# -- a whole store -------------------------------------------------------------------


def store_envelopes(seed: str, plans: Iterable[ScopePlan]) -> Iterator[dict]:
    for plan in plans:
        yield from scope_envelopes(seed, plan)


def generate(root: Path, total: int, *, seed: str = SEED, batch_size: int = DEFAULT_BATCH,
             progress=None, plans: list[ScopePlan] | None = None) -> dict:
    """Write a ``total``-record store at ``root`` (which must not exist) and describe it.

    ``plans`` replaces ``layout(total)`` (tests use it for small stores of chosen scopes).

    The clock starts at ``RECORDED_START`` and moves one minute per batch, so
    recorded time is deterministic for a given batch size.
    """
    root = Path(root)
    if root.exists():
        raise FileExistsError(f"{root} exists: generated stores are written fresh")
    plans = plans if plans is not None else layout(total)
    clock = FixedClock(format_instant(RECORDED_START))
    store = Store.create(root, clock=clock)
    statuses: dict[str, int] = {}
    batches = [0]
    checkpoints: list[tuple[int, float]] = []
    started = time.perf_counter()

    def after_batch(count: int) -> None:
        batches[0] += 1
        clock.set(format_instant(RECORDED_START + dt.timedelta(minutes=batches[0])))
        checkpoints.append((sum(statuses.values()), time.perf_counter() - started))
        if progress:
            progress(sum(statuses.values()), time.perf_counter() - started)

    for result in store.apply(store_envelopes(seed, plans), batch_size=batch_size, progress=after_batch):
        statuses[result["status"]] = statuses.get(result["status"], 0) + 1
        if result["status"] == "refused":
            raise RuntimeError(f"the generator wrote an envelope the store refused: {result}")
    seconds = time.perf_counter() - started
    summary = describe(plans, seed=seed, batch_size=batch_size)
    summary.update({"root": str(root), "seconds": round(seconds, 2), "statuses": statuses,
                    "envelopes_per_second": round(sum(statuses.values()) / seconds, 1),
                    "checkpoints": [{"envelopes": n, "seconds": round(s, 2)} for n, s in checkpoints]})
    Path(f"{root}.gen.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def describe(plans: list[ScopePlan], *, seed: str, batch_size: int) -> dict:
    counts = [ScopeCounts.for_size(p.size) for p in plans]
    by_size: dict[int, int] = {}
    for plan in plans:
        by_size[plan.size] = by_size.get(plan.size, 0) + 1
    return {"seed": seed, "batch_size": batch_size, "records": sum(c.records for c in counts),
            "envelopes": sum(c.envelopes for c in counts), "scopes": len(plans),
            "scopes_by_size": {str(k): v for k, v in sorted(by_size.items())},
            "probes": [asdict(p) for p in plans if p.role != "filler"],
            "composition": {field: sum(getattr(c, field) for c in counts)
                            for field in ("episodes", "facts", "updates", "retires", "dispute_pairs")}}

# -- queries and import files ------------------------------------------------------


_QUESTION_TEMPLATES = (
    "Where does {person} live?",
    "What does {first} work as?",
    "How many pets does {first} have?",
    "When is {first}'s birthday?",
    "What car does {first} drive?",
    "When did I go to {city} with {first}?",
    "What did {first} say about the {noun} in {city}?",
    "What is {first}'s favourite food?",
    "Which hobby did {first} take up in {year}?",
    "How much did the {noun} cost?",
)


def queries(seed: str, plan: ScopePlan, count: int) -> list[str]:
    """Questions about one scope's people and places (about one in ten names someone unseen)."""
    rng = random.Random(f"{seed}:{plan.key}:queries")
    cast_ = cast(seed, plan)
    out = []
    for _ in range(count):
        person = rng.choice((cast_.owner,) + cast_.people)
        if rng.random() < 0.1:
            person = f"{rng.choice(FIRST_NAMES)} Zzyzx"
        out.append(rng.choice(_QUESTION_TEMPLATES).format(
            person=person, first=person.split()[0], city=rng.choice(cast_.cities), noun=rng.choice(NOUNS),
            year=rng.randint(2000, 2024)))
    return out


def locomo_file(path: Path, *, conversations: int, turns: int, seed: str = SEED) -> int:
    """A synthetic file in LoCoMo's ``locomo10.json`` format; returns the number of turns."""
    samples = []
    for c in range(conversations):
        plan = ScopePlan(f"conv-perf-{c}", turns, "filler")
        cast_, rng = cast(seed, plan), random.Random(f"{seed}:{plan.key}:locomo")
        speaker_b = cast_.people[0] if cast_.people else "Sam Lee"
        conversation = {"speaker_a": cast_.owner, "speaker_b": speaker_b}
        session, made = 0, 0
        while made < turns:
            session += 1
            length = min(rng.randint(8, 30), turns - made)
            moment = TIMELINE_START + dt.timedelta(days=7 * session, hours=rng.randint(8, 20))
            hour = moment.hour % 12 or 12
            conversation[f"session_{session}_date_time"] = (f"{hour}:{moment.minute:02d} "
                                                            f"{moment.strftime('%p').lower()} on {moment.day} "
                                                            f"{moment.strftime('%B, %Y')}")
            conversation[f"session_{session}"] = [
                {"speaker": (cast_.owner, speaker_b)[t % 2], "dia_id": f"D{session}:{t + 1}",
                 "text": _episode_text(rng, cast_, speaker_b)} for t in range(length)]
            made += length
        samples.append({"sample_id": plan.key, "conversation": conversation, "qa": []})
    Path(path).write_text(json.dumps(samples), encoding="utf-8")
    return conversations * turns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), action="append",
                        help="store size to generate (repeatable): 10k, 100k, 1m")
    parser.add_argument("--total", type=int, default=None, help="any other number of records")
    parser.add_argument("--out", type=Path, default=Path("/tmp/memory-perf"),
                        help="folder for the stores (store-<size> inside); never the repository")
    parser.add_argument("--seed", default=SEED)
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH)
    parser.add_argument("--locomo", type=Path, default=None, help="write a synthetic LoCoMo file instead")
    args = parser.parse_args(argv)
    if args.locomo:
        print(locomo_file(args.locomo, conversations=10, turns=1_000, seed=args.seed), "turns")
        return 0
    targets = [(name, SIZES[name]) for name in args.size or []] + ([(str(args.total), args.total)]
                                                                    if args.total else [])
    for name, total in targets:
        root = args.out / f"store-{name}"

        def report(done: int, seconds: float, name=name) -> None:
            print(f"[{name}] {done} envelopes in {seconds:.0f} s ({done / seconds:.0f}/s)",
                  file=sys.stderr, flush=True)

        summary = generate(root, total, seed=args.seed, batch_size=args.batch_size, progress=report)
        print(json.dumps({k: summary[k] for k in ("root", "records", "envelopes", "scopes", "seconds",
                                                  "envelopes_per_second")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
