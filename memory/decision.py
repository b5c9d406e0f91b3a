"""The decision: which matches may answer, the knowledge state, and why not.

Pure functions of (matches, instants, policies). Validity decides, status
qualifies: a record answers for instant T when T lies in its half-open valid
time and it is active — or retired with a closed valid time. Candidates,
disputed and rejected records answer at no instant. An UNKNOWN carries the
first applicable reason in the forgetting policy's priority order and the
conditions that would have allowed an answer.
"""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field

from .clock import add_days, format_instant, parse_instant
from .policy import ForgettingPolicy
from .retrieval.tokenize import tokenize

# why a matching record could not answer -> the abstention reason it supports
BLOCKERS = {
    "disputed": "unresolved_conflict",
    "retired": "retired_or_expired",
    "expired": "retired_or_expired",
    "not_yet_valid": "retired_or_expired",
    "retention": "retired_or_expired",
    "candidate": "candidate_or_unverified",
    "rejected": None,   # never right: it supports no reason of its own
}


@dataclass
class Match:
    record: dict
    score: float          # BM25 of the whole question
    rank_score: float     # the planner's fused score (orders evidence)
    coverage: float       # idf-weighted share of the question's terms the record holds
    created_at: str
    context: list = field(default_factory=list)
    support: float | None = None  # how far it alone supports an answer (None: its coverage)
    valid_at: str | None = None   # the instant its validity is judged at, when not the query's as-of
    chain: list = field(default_factory=list)   # the other links of its memory_key slot, shown as context
    anchored: bool = False    # holds what the question is about (``planner.thing_terms``): cited at any support
    # what it states of the question whoever it is about (``stated_contest``): what contests an
    # answer (``_uncontested``) in place of its coverage, None: its coverage
    stated: float | None = None
    # its best support of the question asked of another speaker (``planner.swapped_questions``,
    # ``decision.swap_ratio``), None: not measured
    swapped: float | None = None

    def sufficient(self, min_coverage: float) -> bool:
        """Enough, alone, to answer (``planner.support``: about the question's subject, stated):
        above ``min_coverage``. Not at it: one seen term against one unseen key noun weighing
        ``planner.unseen_key_weight`` 4 is exactly 1/5, and "When does my visa expire?" was
        answered by "My gym membership expires in May"."""
        return (self.coverage if self.support is None else self.support) > min_coverage


def blocker(record: dict, created_at: str, as_of: str, now: str, policy: ForgettingPolicy) -> str | None:
    """None when the record may answer for ``as_of``; else what stops it."""
    status = record["status"]
    if status in ("disputed", "candidate", "rejected"):
        return status
    if status not in policy.answering_statuses:
        return "retired"
    valid = record["valid_time"]
    if status == "retired" and valid["to"] is None and policy.retired_requires_closed_validity:
        return "retired"
    if as_of < valid["from"]:
        return "not_yet_valid"
    if valid["to"] is not None and as_of >= valid["to"]:
        return "retired" if status == "retired" else "expired"
    days = policy.retention_days(record["kind"], record["sensitivity"]["classification"])
    if days is not None and add_days(created_at, days) <= now:
        return "retention"
    return None


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# the part of a year a question may name before it: "in spring 2021", "in early 2021", "in March 2021",
# "in the summer of 2021" -> (month, day) its end falls on (None: the end of the year)
_PART_ENDS = {**{m: (i, None) for i, m in enumerate(_MONTHS, start=1)},
              "early": (4, 30), "spring": (5, 31), "mid": (8, 31), "summer": (8, 31), "autumn": (11, 30),
              "fall": (11, 30), "late": None, "winter": None}
_PART = "|".join(sorted(_PART_ENDS, key=len, reverse=True))
_YEAR = re.compile(r"\b(?:back\s+)?(?:in|during|of)\s+(?:the\s+)?(?:(?P<part>" + _PART + r")(?:[\s-]+of)?[\s-]+)?"
                   r"(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
_FORMERLY = re.compile(r"(?i)\b(?:used to|previously|formerly|before that|back then|previous|former)\b")
# "Which plan did Kim use to have?" (but not "What do I use to clean the oven?")
_DID_USE_TO = re.compile(r"(?i)\bdid\b[^?.!]*?\b(use to)\b")
# "before 2022", "before March 2024", "before 2024-02-01": as of the second before it began
_BEFORE_DATE = re.compile(r"(?i)\bbefore\s+(?:(?P<month>" + "|".join(_MONTHS) + r")\s+)?(?P<year>(?:19|20)\d\d)"
                          r"(?:-(?P<mm>\d\d)-(?P<dd>\d\d))?\b")
# "before I moved", "before Kim changed jobs", "before moving": the value before the current one
_BEFORE_CHANGE = re.compile(r"(?i)\bbefore\s+(?:\w+\s+)?(?:moved|moving|changed|changing|switched|switching|"
                            r"relocated|relocating|quit|quitting)\b[^?.!,;]*")
# "before Manchester", "before Acme": the words a link of a slot holds (``_named_link``)
_BEFORE_WORDS = re.compile(r"(?i)\bbefore\s+(?!that\b)([^?.!,;]+)")
_NOT_NAMING = frozenset("a an the my our your his her their its i me we you he she they it at in on to of for "
                        "and or then this that s".split())


def _end_of(year: str, part: str | None) -> str:
    end = _PART_ENDS.get((part or "").lower())
    if end is None:
        return f"{year}-12-31T23:59:59Z"
    month, day = end
    if day is None:   # a month: its last day
        day = 31 if month in (1, 3, 5, 7, 8, 10, 12) else 30 if month != 2 else \
            (29 if int(year) % 4 == 0 and (int(year) % 100 or int(year) % 400 == 0) else 28)
    return f"{year}-{month:02d}-{day:02d}T23:59:59Z"


# ``features.closing_before``: "What car did I have before?" — "before" closing a question is "previously"
_CLOSING_BEFORE = re.compile(r"(?i)\bbefore\s*[?.!]*\s*$")


def question_time(question: str, as_of: str, closing_before: bool = False) -> tuple[str, bool, str]:
    """When a question asks about, and what it asks once that is said: the end of the period it
    names ("in 2021", "in spring 2021", "in March 2021"), if before ``as_of``, else ``as_of``; whether
    it asks about the value before the one valid then ("used to", "previously", "my previous
    employer"); and the question without those words. They set the instant the records are judged
    at, as ``--as-of`` does: no record has to hold them (a year the scope never saw is no unseen
    key noun that would make "Which gym did Marta go to in 2021?" unanswerable). ``closing_before``:
    "before" closing the question ("What car did I have before?") asks about the previous value too."""
    closing = closing_before and _CLOSING_BEFORE.search(question) is not None
    if closing:
        question = _CLOSING_BEFORE.sub("?", question)
    instant, ends = as_of, [_end_of(m.group("year"), m.group("part")) for m in _YEAR.finditer(question)]
    ends += [_second_before(m) for m in _BEFORE_DATE.finditer(question)]
    if ends:
        instant = min(max(ends), as_of)
    rest = _FORMERLY.sub(" ", _YEAR.sub(" ", _BEFORE_DATE.sub(" ", question)))
    changed = _BEFORE_CHANGE.search(rest)
    rest = _BEFORE_CHANGE.sub(" ", rest)
    did_use_to = _DID_USE_TO.search(rest)
    if did_use_to:
        rest = rest[:did_use_to.start(1)] + rest[did_use_to.end(1):]
    before = bool(_FORMERLY.search(question) or did_use_to or changed or closing)
    return instant, before, " ".join(rest.split())


def _second_before(found: re.Match) -> str:
    """The last second before the day, month or year a "before <date>" names."""
    year, month = int(found.group("year")), 1
    if found.group("mm"):
        start = f"{year:04d}-{found.group('mm')}-{found.group('dd')}T00:00:00Z"
    else:
        if found.group("month"):
            month = _MONTHS.index(found.group("month").lower()) + 1
        start = f"{year:04d}-{month:02d}-01T00:00:00Z"
    try:
        return format_instant(parse_instant(start) - _dt.timedelta(seconds=1))
    except ValueError:   # "before 2024-13-45": no such day, the question names no instant
        return "9999-12-31T23:59:59Z"


def _named_words(question: str) -> frozenset[str] | None:
    """The words after "before" when they may name a value ("before Manchester", "before Acme"),
    not a date, a change ("before I moved") or "before that"; None when there are none."""
    if _BEFORE_DATE.search(question) or _BEFORE_CHANGE.search(question):
        return None
    found = _BEFORE_WORDS.search(question)
    if found is None:
        return None
    words = frozenset(w for w in re.findall(r"\w+", found.group(1).lower()) if w not in _NOT_NAMING and len(w) > 1)
    return words or None


def _named_link(words: frozenset[str] | None, links: list[dict]) -> dict | None:
    """The one link of a slot with a history whose statement holds every word "before" names;
    None when no link or more than one does ("before work" when every job says "work")."""
    if not words:
        return None
    holding = [link for link in links if words <= set(re.findall(r"\w+", link["statement"].lower()))]
    return holding[0] if len(holding) == 1 else None


def question_instant(question: str, as_of: str, closing_before: bool = False) -> tuple[str, bool]:
    """``question_time`` without the rest of the question."""
    instant, before, _ = question_time(question, as_of, closing_before)
    return instant, before


def question_rest(question: str, as_of: str, records, *, closing_before: bool = False,
                  named_values: bool = False) -> str:
    """The question without the words that say when (``question_time``), which set the instant a
    keyed record is judged at. ``named_values`` (``features.named_before``): "before Leeds" too,
    when Leeds names one link of a memory_key slot with a history (``_named_link``): the value the
    question dates by is not what it asks about, and "I support Leeds United" shares only that
    with "Where did I live before Leeds?". ``records``: every record of the scope (a view)."""
    rest = question_time(question, as_of, closing_before)[2]
    named = _named_words(question) if named_values else None
    if named:
        keyed_slots = getattr(records, "keyed_slots", None)
        slots = keyed_slots() if keyed_slots is not None else _keyed_slots(records.values())
        if any(len(links) > 1 and _named_link(named, links) is not None for links in slots.values()):
            without = " ".join(_BEFORE_WORDS.sub(" ", rest).split())
            # "What did I do before Acme?" asks nothing else: the value stays its only words
            rest = without if tokenize(without) else rest
    return rest


# ``features.past_values``: a question in the past tense ("When did I move to Manchester?", "Did I
# live in Manchester?") and the names it gives (capitalized words past the first)
_PAST = re.compile(r"(?i)\b(?:did|was|were|had)\b")
_NAME_WORD = re.compile(r"(?<=\s)[A-Z][\w-]*")


def _past_named_words(question: str) -> frozenset[str] | None:
    """The names a question in the past tense gives ("Manchester"), lowercased; None when it is
    not in the past tense or names nothing."""
    if not _PAST.search(question):
        return None
    words = frozenset(w.lower() for w in _NAME_WORD.findall(question) if w.lower() not in _NOT_NAMING)
    return words or None


def follow_supersession(matches: list[Match], records: dict[str, dict], created: dict[str, str], *,
                        question: str, as_of: str, now: str, policy: ForgettingPolicy,
                        closing_before: bool = False, past_values: bool = False,
                        named_values: bool = False) -> list[Match]:
    """A match on a record of a memory_key slot (or a supersession chain) answers with the link
    of that slot valid when the question asks about (``question_instant``): the successor of a
    retired record, through any number of updates (A -> B -> C answers C), or the link valid in
    the year the question names. The matched record keeps its place (it stays blocked, or
    answers if it is that link); the link it leads to is added with the match's scores and
    the other links as ``chain``. ``records``: every record of the scope (a view).

    ``closing_before``: "before" closing the question asks about the previous link
    (``question_time``). ``past_values``: a question in the past tense naming a value that one
    earlier link of a slot holds and the current one does not ("When did I move to Manchester?"
    after "I live in Manchester." was updated to "I moved to Leeds.") asks about that link: it
    answers as of when it held, and the slot's other links do not answer for it (a present
    question, "Do I live in Manchester?", still gets today's value). With either, and with
    ``named_values`` for "before Leeds" (``features.named_before``), a match outside that slot
    sharing with the question only the value it names does not support it."""
    asked_instant, asked_before = question_instant(question, as_of, closing_before)
    named = _named_words(question)
    past_named = _past_named_words(question) if past_values and not named and not asked_before \
        and asked_instant == as_of else None
    silenced: set[str] = set()
    slot_links: set[str] = set()     # the links of a slot whose value the question names
    dated_by: frozenset[str] = frozenset()   # the value it names ("Leeds", "Manchester")
    slots: dict | None = None
    added: dict[str, Match] = {}
    present = {m.record["id"]: m for m in matches}
    for match in matches:
        record = match.record
        if record["kind"] == "episode" or not (record["memory_key"] or record["supersession"]["supersedes"]
                                               or record["supersession"]["superseded_by"]):
            continue
        if slots is None:
            # a store's current view parses a slot's records only when a match asks for that slot
            keyed_slots = getattr(records, "keyed_slots", None)
            slots = keyed_slots() if keyed_slots is not None else _keyed_slots(records.values())
        links = _links(record, records, slots)
        instant, before = asked_instant, asked_before
        link = _named_link(named, links) if len(links) > 1 else None
        if link is not None:
            # "before Manchester" names a value of this slot: it is asked as of the second before
            # that value began to hold (nothing then: an UNKNOWN, never today's value)
            instant = min(instant, _second_before_instant(link["valid_time"]["from"]))
            if named_values:
                slot_links |= {one["id"] for one in links}
                dated_by = named
        if len(links) < 2:
            if instant != as_of and not _start_unknown(record, match.created_at, instant):
                match.valid_at = instant  # "in 2021": the lease that held 2020-2022 answers, historical
            continue
        if instant != as_of:
            # a slot with a history is answered as of the year asked about, whether or not a
            # link held then: nothing valid then is an UNKNOWN (retired_or_expired), not today's value
            match.valid_at = instant
        older = _past_link(past_named, links, policy)
        if older is not None:
            # the question names an earlier value: that link answers, judged when it held
            silenced |= {link["id"] for link in links if link["id"] != older["id"]}
            slot_links |= {link["id"] for link in links}
            dated_by = past_named
            if older["id"] == record["id"]:
                match.valid_at = older["valid_time"]["from"]
            elif older["id"] not in present and older["id"] not in added:
                added[older["id"]] = Match(older, match.score, match.rank_score, match.coverage, created[older["id"]],
                                           support=match.support, valid_at=older["valid_time"]["from"],
                                           chain=[link for link in links if link["id"] != older["id"]])
            continue
        answering = [link for link in links if blocker(link, created[link["id"]], instant, now, policy) is None]
        if not answering:
            continue
        chosen = answering[-1]
        if before:
            earlier = [link for link in links if link["valid_time"]["from"] < chosen["valid_time"]["from"]
                       and link["status"] in policy.answering_statuses]
            if not earlier:
                continue
            chosen = earlier[-1]
            if chosen["id"] != record["id"]:
                # "my previous employer" asks about when the previous one held: judged then, the
                # matched record (the later link) was not yet valid and is not the answer
                match.valid_at = chosen["valid_time"]["from"]
        valid_at = None if chosen is answering[-1] and instant == as_of else \
            (instant if chosen is answering[-1] else chosen["valid_time"]["from"])
        if chosen["id"] == record["id"]:
            if valid_at:
                match.valid_at = valid_at  # it answers itself: no chain to show
            continue
        previous = added.get(chosen["id"]) or present.get(chosen["id"])
        if chosen["id"] in present and _strength(present[chosen["id"]])[0] >= _strength(match)[0]:
            continue  # the successor answers the question by itself: nothing to borrow, no chain
        if previous is None or _strength(previous) < _strength(match):
            successor = Match(chosen, match.score, match.rank_score, match.coverage, created[chosen["id"]],
                              support=match.support, valid_at=valid_at,
                              chain=[link for link in links if link["id"] != chosen["id"]])
            if chosen["id"] in present:
                present[chosen["id"]].__dict__.update(successor.__dict__)
            else:
                added[chosen["id"]] = successor
    asked = set(tokenize(question)) - set(tokenize(" ".join(dated_by)))
    for match in matches:
        if match.record["id"] in silenced:
            match.support = 0.0   # another value of the slot than the one the question names
        elif dated_by and match.record["id"] not in slot_links and asked.isdisjoint(tokenize(match.record["statement"])):
            # shares with the question only the value it names of a slot ("My flight ... from
            # Manchester airport" for "When did I move to Manchester?"): about another thing
            match.support = 0.0
    return matches + list(added.values())


def _past_link(words: frozenset[str] | None, links: list[dict], policy: ForgettingPolicy) -> dict | None:
    """``past_values``: the one link of a slot with a history, not its last, whose statement holds
    every name the question gives, when the last link holds none of them; else None."""
    if not words or len(links) < 2:
        return None
    held = lambda link: words & set(re.findall(r"\w+", link["statement"].lower()))  # noqa: E731
    holding = [link for link in links if held(link) == words and link["status"] in policy.answering_statuses]
    if len(holding) != 1 or holding[0] is links[-1] or held(links[-1]):
        return None
    return holding[0]


def _second_before_instant(instant: str) -> str:
    return format_instant(parse_instant(instant) - _dt.timedelta(seconds=1))


def _keyed_slots(records) -> dict[str, list[dict]]:
    """memory_key -> the records other than episodes holding it, in ``records``' order."""
    slots: dict[str, list[dict]] = {}
    for other in records:
        if other["kind"] != "episode" and other["memory_key"]:
            slots.setdefault(other["memory_key"], []).append(other)
    return slots


def _start_unknown(record: dict, created_at: str, instant: str) -> bool:
    """Nobody said when the record began to hold: its validity is open and starts when it was
    recorded (the default), and the question asks about an instant before that. "Graduated from
    TU Berlin in 2019", said in 2024, answers "where did I graduate in 2019?": the year is when its
    event happened, not an instant the record was known not to hold."""
    valid = record["valid_time"]
    return valid["to"] is None and valid["from"] == created_at and instant < valid["from"]


def _strength(match: Match) -> tuple:
    return (match.coverage if match.support is None else match.support, match.coverage, match.rank_score)


def _links(record: dict, records: dict[str, dict], slots: dict) -> list[dict]:
    """Every record of ``record``'s slot and supersession chain, by the start of its validity."""
    found = {r["id"]: r for r in slots.get(record["memory_key"], ())} if record["memory_key"] else {}
    found[record["id"]] = record
    todo = [record]
    while todo:
        current = todo.pop()
        linked = list(current["supersession"]["supersedes"]) + [current["supersession"]["superseded_by"]]
        for record_id in linked:
            if record_id and record_id not in found and record_id in records:
                found[record_id] = records[record_id]
                todo.append(records[record_id])
    return sorted(found.values(), key=lambda r: (r["valid_time"]["from"], r["id"]))


@dataclass
class Decision:
    knowledge_state: str
    reason_code: str | None
    missing_conditions: list[str]
    evidence: list[Match]
    blocked: list[tuple[Match, str]]
    # every match that may be shown (not blocked), sufficient or not, about the subject or not, in
    # rank order: what a retrieval caller gets (``query.search_eligible``)
    eligible: list[Match] = field(default_factory=list)


def decide(matches: list[Match], *, as_of: str, now: str, policy: ForgettingPolicy, min_coverage: float,
           scope_label: str, query_terms: list[str], support_coverage: float = 0.0,
           support_ratio: float = 0.0, evidence_ratio: float = 0.0, swap_ratio: float = 0.0,
           outweigh: bool = False, stated_negatives: bool = False, historical_negatives: bool = False) -> Decision:
    """Answer when an eligible match is sufficient: its support (``Match.sufficient``) reaches
    ``min_coverage``; then every eligible match above ``support_coverage`` is listed as
    evidence, best first. With ``support_ratio``, the best support must also reach that share of
    the best coverage: when a record about someone else covers the question far better than
    anything about its subject, the question is most likely about the wrong person. With
    ``evidence_ratio``, a match is listed as evidence only when it holds what the question is
    about (``Match.anchored``) or its support reaches that share of the best support: "My driving
    licence expires in 2029" answers "when does my driving licence expire?", and "The oat milk
    expires on Friday", which shares only the verb, is not cited. With ``swap_ratio``, it does not
    answer when the question asked of another speaker is supported far better (``swapped_better``).
    ``stated_negatives`` and ``historical_negatives``: how the state reads negatives (``_answered_state``)."""
    answering, blocked, eligible = [], [], []
    for match in matches:
        weak = match.coverage < min(min_coverage, support_coverage) or match.coverage <= 0
        why = blocker(match.record, match.created_at, match.valid_at or as_of, now, policy)
        if why is None:
            eligible.append(match)  # what a retrieval caller may see, in rank order
        if weak:
            continue
        if why:
            if match.sufficient(min_coverage):
                blocked.append((match, why))
        else:
            answering.append(match)
    # a record that fails the subject test (support 0) is about someone else: it may contest an
    # answer (``_uncontested``) but is never listed as evidence for it
    evidence = [m for m in answering if m.support != 0]
    if any(m.sufficient(min_coverage) for m in evidence) and _uncontested(answering, support_ratio) \
            and not swapped_better(answering, swap_ratio) \
            and not (outweigh and _outweighed(evidence, blocked, support_ratio)):
        evidence = [m for m in evidence if m.coverage >= support_coverage]
        answers = [m for m in evidence if m.sufficient(min_coverage)]
        if evidence_ratio > 0:
            best = max(_strength(m)[0] for m in evidence)
            evidence = [m for m in evidence if m.anchored or _strength(m)[0] >= evidence_ratio * best]
            # the state speaks for the records that answer: one cited only for holding the thing
            # asked about (anchored), far below the best, does not make a past answer current
            answers = [m for m in answers if _strength(m)[0] >= evidence_ratio * best] or answers
        return Decision(_answered_state(answers, now, stated_negatives, historical_negatives), None, [], evidence,
                        blocked, eligible)
    reason = _first_reason(blocked, policy)
    return Decision("UNKNOWN", reason, _missing(reason, blocked, as_of, scope_label, query_terms), [], blocked,
                    eligible)


def swapped_better(matches: list[Match], swap_ratio: float) -> bool:
    """``decision.swap_ratio``: the question asked of another speaker (``Match.swapped``) is
    supported far better than as asked — the best support is below ``swap_ratio`` times the
    best swapped support: "What did Caroline realize after her charity race?" when only Melanie
    ran one. 0: off."""
    swapped = [m.swapped for m in matches if m.swapped is not None]
    if swap_ratio <= 0 or not swapped or not matches:
        return False
    best = max((m.coverage if m.support is None else m.support) for m in matches)
    return best < swap_ratio * max(swapped)


def confidence(eligible: list[Match], support_ratio: float, swap_ratio: float = 0.0,
               blocked: list[tuple[Match, str]] = (), outweigh: bool = False) -> float:
    """The best support among the eligible matches that may be evidence, or 0 when it is
    contested (``_uncontested``) or outweighed by a memory that may not answer (``_outweighed``):
    ``decide`` answers (blockers aside) when it reaches min_coverage."""
    matching = [m for m in eligible if m.coverage > 0]
    evidence = [m for m in matching if m.support != 0]
    if not evidence or not _uncontested(matching, support_ratio) or swapped_better(matching, swap_ratio) \
            or (outweigh and _outweighed(evidence, list(blocked), support_ratio)):
        return 0.0
    return max((m.coverage if m.support is None else m.support) for m in evidence)


def _outweighed(evidence: list[Match], blocked: list[tuple[Match, str]], support_ratio: float) -> bool:
    """A memory about the question exists but may not answer (rejected, retired, disputed...),
    the ledger names nothing that replaced it among the answers (no record of its memory_key
    slot, of its supersession chain or of its dispute), and the best answer supports the
    question less than ``support_ratio`` of it: that answer shares only a generic word with the
    question ("What is Ivo's shoe size?" after the shoe size was rejected, answered by "Ivo wears
    a size 58 cap"). The blocked memory decides the reason instead. Episodes do not weigh: a
    turn outside the as-of says nothing about whether an earlier one answers. Only with
    ``features.blocked_outweighs`` (``decide``'s ``outweigh``)."""
    if support_ratio <= 0 or not evidence:
        return False
    best = max(_strength(m)[0] for m in evidence)
    return any(best < support_ratio * _strength(m)[0] and not any(_linked(m.record, e.record) for e in evidence)
               for m, _ in blocked if m.record["kind"] != "episode" and m.support != 0)


def _linked(one: dict, other: dict) -> bool:
    """The ledger ties the two: one memory_key slot, a supersession or a dispute between them."""
    if one["memory_key"] and one["memory_key"] == other["memory_key"]:
        return True
    def ties(a, b):
        return b["id"] in a["conflict"]["with"] or b["id"] in a["supersession"]["supersedes"] \
            or a["supersession"]["superseded_by"] == b["id"]
    return ties(one, other) or ties(other, one)


def _uncontested(evidence: list[Match], support_ratio: float) -> bool:
    if support_ratio <= 0:
        return True
    best_support = max((m.coverage if m.support is None else m.support) for m in evidence)
    return best_support >= support_ratio * max((m.coverage if m.stated is None else m.stated) for m in evidence)


def _answered_state(evidence: list[Match], now: str, stated_negatives: bool = False,
                    historical_negatives: bool = False) -> str:
    """The state of an answer. ``stated_negatives``: a record answers as a negative only when its
    statement negates something (``states_negation``): an update that kept kind ``negative`` while
    saying "I've started drinking coffee every morning" is a plain fact. ``historical_negatives``:
    answers whose validity has ended are VERIFIED_HISTORICAL, negatives too — "Did I use to drink
    coffee?" answered by the retired "I don't drink coffee." is the past, and VERIFIED_NEGATIVE
    would say the user does not drink coffee today."""
    negative = any(_answers_negative(m.record, stated_negatives) for m in evidence)
    positive = any(not _answers_negative(m.record, stated_negatives) for m in evidence)
    ended = all(m.record["valid_time"]["to"] is not None and m.record["valid_time"]["to"] <= now
                for m in evidence)
    if ended and historical_negatives:
        return "VERIFIED_HISTORICAL"
    if negative and positive:
        return "VERIFIED_WITH_NEGATIVE_BOUNDARY"
    if negative:
        return "VERIFIED_NEGATIVE"
    return "VERIFIED_HISTORICAL" if ended else "VERIFIED"


# ``features.stated_negatives``: the words by which a statement negates, refuses or gives up
# something ("I don't drink coffee", "has stopped drinking", "never eats meat", "avoids gluten")
_NEGATING = re.compile(r"(?i)n't\b|\b(?:not|never|no|none|nothing|nobody|nowhere|neither|nor|without|cannot|unable|"
                       r"stop|stops|stopped|quit|quits|gave\s+up|give\s+up|gives\s+up|avoid|avoids|avoided|"
                       r"refuse|refuses|refused|dislike|dislikes|disliked|hate|hates|hated|allergic|intolerant)\b"
                       r"|\w-free\b")


def states_negation(statement: str) -> bool:
    """Whether a statement negates something (``_NEGATING``)."""
    return bool(_NEGATING.search(statement.replace("\u2019", "'")))


def _answers_negative(record: dict, stated_negatives: bool) -> bool:
    return record["kind"] == "negative" and (not stated_negatives or states_negation(record["statement"]))


def _first_reason(blocked: list[tuple[Match, str]], policy: ForgettingPolicy) -> str:
    present = {BLOCKERS[why] for _, why in blocked} - {None}
    for reason in policy.abstention_priority:
        if reason in present:
            return reason
    return "insufficient_evidence"


def _missing(reason: str, blocked, as_of: str, scope_label: str, query_terms: list[str]) -> list[str]:
    ids = lambda wanted: sorted({m.record["id"] for m, why in blocked if BLOCKERS[why] == wanted})  # noqa: E731
    if reason == "unresolved_conflict":
        return [f"a resolve envelope settling the dispute among {', '.join(ids(reason))}"]
    if reason == "retired_or_expired":
        # the instant the records were judged at: the question's ("in 2019", "before Leeds"), else --as-of
        judged = sorted({m.valid_at or as_of for m, why in blocked if BLOCKERS[why] == reason})
        return [f"an active record valid at {' or '.join(judged)} (the matches {', '.join(ids(reason))} "
                "were retired, expired or not yet valid then)"]
    if reason == "candidate_or_unverified":
        return [f"a reviewer's approval of candidate {', '.join(ids(reason))}"]
    terms = ", ".join(dict.fromkeys(query_terms)) if query_terms else "the question's terms"
    return [f"an active record in scope {scope_label} that covers: {terms}"]
