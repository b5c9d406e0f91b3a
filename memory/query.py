"""``memory query``: a question and a scope in, a ranked, explained answer out.

``run_query(store, QueryRequest) -> dict`` is the DESIGN §6 JSON. The scope
comes from the caller; only that scope's files are opened (plus the shared
scopes the forgetting policy grants). Candidates come from the planner over
every record of the scope; the decision decides which may answer; ineligible
matches appear only in ``audit_only`` and only when asked for.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from . import decision as decide_mod
from . import planner, when
from .clock import option_instant
from .errors import StoreError, UsageError
from .indexing import built_from_current, open_dense, open_index
from .retrieval import temporal
from .retrieval.tokenize import tokenize
from .store import CreatedAt, CurrentRecords, CurrentView, Sessions, Store, user_scope
from .vocabulary import KINDS, PLANNERS


@dataclass
class QueryRequest:
    text: str
    user: str
    as_of: str | None = None
    recorded_as_of: str | None = None
    kinds: tuple = ()
    include_inactive: bool = False
    limit: int = 10
    planner: str = "deterministic"
    trace: bool = False


@dataclass
class _View:
    scope: dict
    records: dict[str, dict]
    created: dict[str, str]
    sessions: dict[str, list[str]] = field(default_factory=dict)
    # what a SearchSpace derives from records and sessions (speakers, neighbours), kept with
    # the view so a cached view computes it once, not per query
    memo: dict = field(default_factory=dict)


# the longest question any front door takes (the HTTP search's max_length says the same)
MAX_QUERY_CHARS = 4096


def _validate(request: QueryRequest) -> None:
    if not isinstance(request.text, str) or not request.text.strip():
        raise UsageError("the query is empty", code="empty_query")
    if len(request.text) > MAX_QUERY_CHARS:  # the HTTP contract's cap (server.py), for every front door
        raise UsageError(f"the query is {len(request.text)} characters; at most {MAX_QUERY_CHARS}",
                         code="query_too_long")
    if not isinstance(request.user, str) or not request.user.strip():
        # the scope is mandatory and comes from the caller: a usage error, like an empty query
        raise UsageError("a query needs a user (--user): the scope to answer from", code="scope_required")
    if request.planner not in PLANNERS:
        raise UsageError(f"unknown planner '{request.planner}'", code="usage_error")
    if request.limit < 1:
        raise UsageError("--limit must be at least 1", code="usage_error")
    unknown = [k for k in request.kinds if k not in KINDS]
    if unknown:
        raise UsageError("unknown kind(s): " + ", ".join(unknown), code="usage_error")


def _view(store: Store, scope: dict, recorded_as_of: str | None, fingerprint: tuple) -> _View:
    """The records a query reads. The current view comes from the store's derived columns (kept
    in the read cache and caught up from the appended tail); a view as recorded at an instant
    is built per query from the folded log."""
    if recorded_as_of is None:
        return built_from_current(store, scope, "query_view", lambda current: _current_view(scope, current),
                                  fingerprint, carry=lambda older, current: _carried_view(scope, older, current))
    state = store.state(scope, fingerprint)
    return _built_view(scope, state, state.as_recorded_at(recorded_as_of))


def _built_view(scope: dict, state, revisions) -> _View:
    records = {r["id"]: r for r in revisions}
    created = {rid: state.revisions[rid][0]["recorded_time"]["recorded_at"] for rid in records}
    view = _View(scope, records, created)
    for record_id, record in records.items():
        session = (record.get("source") or {}).get("session")
        if session and record["kind"] == "episode":
            view.sessions.setdefault(session, []).append(record_id)
    return view


def _current_view(scope: dict, current: CurrentView) -> _View:
    """The current records of a scope from its derived view: ids and columns now, each record
    parsed when the planner or the decision first reads it."""
    return _View(scope, CurrentRecords(current), CreatedAt(current), Sessions(current))


def _carried_view(scope: dict, older: _View, current: CurrentView) -> _View | None:
    """``_current_view`` with what ``older`` (the view of an earlier version of ``current``) worked
    out carried over (``planner.carried_memo``), when only records were appended since; else None."""
    view = _current_view(scope, current)
    appended = view.records.appended_after(older.records)
    if appended is None:
        return None
    view.memo = planner.carried_memo(older.memo, older.records, view.records, appended)
    return view


def _of_kinds(view: _View, kinds) -> _View:
    """A narrowed copy: the view may be the store's cached one, which is shared."""
    if isinstance(view.records, CurrentRecords):
        return _View(view.scope, view.records.of_kinds(kinds), view.created, view.sessions)
    return _View(view.scope, {i: r for i, r in view.records.items() if r["kind"] in kinds},
                 view.created, view.sessions)


def _context(view: _View, record: dict, window: int, answers) -> list[dict]:
    session = (record.get("source") or {}).get("session")
    if record["kind"] != "episode" or not session or window <= 0:
        return []
    turns = view.sessions.get(session, [])
    at = turns.index(record["id"])
    out = []
    for neighbour_id in turns[max(0, at - window): at] + turns[at + 1: at + 1 + window]:
        neighbour = view.records[neighbour_id]
        if answers(neighbour):
            out.append({"id": neighbour_id, "statement": neighbour["statement"],
                        "source": {"ref": neighbour["source"].get("ref")}})
    return out


def _evidence_item(match: decide_mod.Match) -> dict:
    record = match.record
    source = record["source"]
    return {"id": record["id"], "revision": record["revision"], "kind": record["kind"],
            "status": record["status"], "statement": record["statement"], "score": round(match.rank_score, 4),
            "memory_key": record["memory_key"], "valid_time": record["valid_time"],
            "recorded_time": record["recorded_time"],
            "source": {"type": source["type"], "ref": source.get("ref"), "session": source.get("session"),
                       "speaker": source.get("speaker")},
            "context": match.context + [{"id": link["id"], "statement": link["statement"],
                                         "source": {"ref": link["source"].get("ref")}} for link in match.chain]}


@dataclass
class _Evaluation:
    verdict: decide_mod.Decision
    views: dict
    scopes: list
    as_of: str
    recorded_as_of: str | None
    now: str
    steps: list
    erasure_marks: list = field(default_factory=list)   # each scope's ``Store.erasure_mark`` as read


def _evaluated(store: Store, request: QueryRequest, llm_transport=None,
               candidates_per_search: int | None = None) -> _Evaluation:
    """``_evaluate``, checked against the scopes' erasure marks before it is answered: an erasure
    acknowledged while the query read (a warm view or index may still hold the record) makes it
    read again, so an erased record is never returned after its erase was acknowledged."""
    for _ in range(3):
        evaluation = _evaluate(store, request, llm_transport, candidates_per_search)
        if [store.erasure_mark(scope) for scope in evaluation.scopes] == evaluation.erasure_marks:
            return evaluation
    raise StoreError("the scope was being erased from while it was read; retry", code="scope_changed")


def _evaluate(store: Store, request: QueryRequest, llm_transport=None,
              candidates_per_search: int | None = None) -> _Evaluation:
    """Plan over each scope the caller may read, then decide."""
    _validate(request)
    now = store.clock.now()
    as_of = option_instant(request.as_of, "--as-of") or now
    recorded_as_of = option_instant(request.recorded_as_of, "--recorded-as-of")
    scopes = [user_scope(request.user)] + list(store.policies.forgetting.shared_scopes)
    retrieval = store.policies.retrieval
    settings = dict(retrieval.planner)
    request = _when_read(request, retrieval)   # "on Saturday" asked in the past; "What do I do?"
    if candidates_per_search:
        settings["candidates_per_search"] = candidates_per_search
    matches, steps, terms, marks, read = [], [], [], [], []
    request = _indefinite_read(request, retrieval, steps)   # ``indefinite_members``
    # ``latest_values``: "my latest LDL" cites the latest statement first (the word is read out after the search)
    latest = retrieval.feature("latest_values") and planner.latest_read(request.text) is not None
    asked_first: str | None = None   # the caller's scope's question without its time words
    periods = retrieval.feature("question_periods")
    # "last week", "two weeks ago": a turn answers only if it was said then (``question_period``)
    months = periods and retrieval.feature("named_months")
    period = decide_mod.question_period(request.text, as_of, months) if periods else None
    # ``aspect_words``: the question without still/ever/now, whether or not a record holds them
    acts = planner.without_aspect(request.text) if retrieval.feature("aspect_words") else request.text
    for scope in scopes:
        marks.append(store.erasure_mark(scope))   # before anything is read
        # listed once per query, for the view and the index alike (each would otherwise list
        # and stat the scope's files again); the next query takes its own
        fingerprint = store.fingerprint(scope)
        view = _view(store, scope, recorded_as_of, fingerprint)
        if request.kinds:
            view = _of_kinds(view, request.kinds)
        index = open_index(store, scope, fingerprint)
        space = planner.SearchSpace(index, view.records, view.sessions, view.memo)
        typed = _typo_read(request, space, retrieval, steps)   # ``typo_terms``
        if typed is not request:
            request, acts = typed, planner.without_aspect(typed.text) if retrieval.feature("aspect_words") else typed.text
            period = decide_mod.question_period(request.text, as_of, months) if periods else None
        if retrieval.feature("dense_search"):
            space.dense, space.dense_note = open_dense(store, scope, None if recorded_as_of is None else view.records)
        result = _plan(space, request, settings, retrieval, llm_transport, as_of)
        steps += result.steps
        terms = result.query_terms
        decided = _decision_read(request, space, retrieval, steps)
        if decided is not request:   # what the decision reads, the search (and its ranking) as asked
            request, acts = decided, planner.without_aspect(decided.text) if retrieval.feature("aspect_words") \
                else decided.text
        # both planners face one sufficiency rule (what the question is about, stated, not asked)
        supports = planner.support(space, request.text, settings, retrieval.feature, request.user)
        # set up when first read: the decision reads few (``Match.defer``)
        # (bound now: it is read after the loop has gone on to the next scope)
        stated = _on_first_read(partial(planner.support, space, request.text, settings, retrieval.feature,
                                        request.user, ungated=True)) if retrieval.feature("stated_contest") else None
        things = planner.thing_terms(request.text, request.user)
        # what a weak support must hold to answer (``decision.sureness_margin``): a noun the question
        # asks about (``planner.key_terms``, ``thing_terms``), not a name — every turn of the named
        # speaker holds their name
        asked_things = (things | frozenset(t for key in planner.key_terms(request.text, request.user)
                                           for t in tokenize(key))) - frozenset(planner.name_terms(request.text))
        # ``features.unseen_premise``: off, every weak answer holding no asked noun abstains
        unseen_asked = any(not space.index.df(t) for t in asked_things) \
            if retrieval.feature("unseen_premise") else True
        slot = planner.subject_slot(space, request.text, retrieval.feature, request.user) \
            if retrieval.feature("dispute_governs") and retrieval.feature("dispute_about_subject") else None
        swaps = _swapped_supports(space, planner.swapped_questions(space, request.text, request.user),
                                  settings, retrieval.feature, request.user) \
            if retrieval.decision.get("swap_ratio", 0.0) > 0 else None
        keyed_supports, keyed_things = supports, things
        framed = decide_mod.period_applies(period, [view.records[c.record_id]["valid_time"]["from"]
                                                     for c in result.candidates]) if period else False
        # ``place_periods``: "in <a town I used to live in>" dates the question by when that link held
        dated = _place_read(request.text, view.records, retrieval, space.index.holders)
        asked = _without_time(dated, as_of, view.records, retrieval, framed, months) \
            if retrieval.feature("follow_supersession") else request.text
        asked_first = asked if asked_first is None else asked_first
        if asked != request.text:
            # the words that say when ("in 2021", "previous") set the instant a keyed record is
            # judged at (``follow_supersession``), as --as-of does: it need not hold them. An
            # episode's validity is when it was said, not what it talks about: it keeps them.
            keyed_supports = planner.support(space, asked, settings, retrieval.feature, request.user)
            keyed_things = planner.thing_terms(asked, request.user)
        # ``aspect_words``: still/ever/now say when the question asks, not what a record holds: a
        # record holding one gets no share for it (it is read without them too, the lower counts)
        said = planner.without_aspect(request.text, lambda term: space.index.df(term) > 0) \
            if retrieval.feature("aspect_words") else request.text
        if said != request.text:
            def aspectless(text: str, ungated: bool = False, space=space) -> Callable[[str], float]:
                return planner.support(space, planner.without_aspect(text, lambda t: space.index.df(t) > 0),
                                       settings, retrieval.feature, request.user, ungated=ungated)
            supports, keyed_supports = _not_above(supports, aspectless(request.text)), \
                _not_above(keyed_supports, aspectless(asked))
            stated = _not_above(stated, _on_first_read(partial(aspectless, request.text, ungated=True))) \
                if stated is not None else None
        # with a period, a turn is also covered by the question without its words, read as support reads it
        framed_coverage = planner.question_coverage(space, asked, settings, request.user,
                                                    forms=retrieval.feature("irregular_forms")) if framed else None
        asked_terms = frozenset(tokenize(asked)) if framed else frozenset()
        # the tests a supporting match must pass beyond ``planner.support`` (when the question asks
        # and what a record's mood and act state), run as its support is first read (``_ReadTests``)
        tests = _ReadTests(space, request, retrieval, as_of, acts, framed and period, months, asked_terms,
                           supports, keyed_supports, stated, swaps)
        # one of each per question
        measured = tests.support, tests.stated, None if swaps is None else tests.swapped, tests.failed
        raises = _activity_support(request, framed and period, asked_terms) \
            if retrieval.feature("period_activity") else None
        doings = raises is not None and retrieval.feature("period_doings")
        news = raises is None and retrieval.feature("period_news")   # "What did the consultant tell me last week?"
        if news:
            raises = _news_support(request, framed and period, asked_terms, space)
        found = []
        for candidate in result.candidates:
            record = view.records[candidate.record_id]
            keyed = record["kind"] != "episode" and bool(record["memory_key"])
            # with a period, what was said then is judged without the words that name it
            timeless = keyed or (framed and record["kind"] == "episode")
            coverage = candidate.coverage
            if framed and record["kind"] == "episode":
                coverage = max(coverage, framed_coverage(candidate.record_id))
            match = decide_mod.Match(
                record, candidate.score, candidate.fused, coverage, view.created[candidate.record_id],
                slot=slot is not None and view.records[candidate.record_id]["status"] == "disputed"
                and slot(candidate.record_id),
                anchored=not (keyed_things if timeless else things).isdisjoint(space.term_set(candidate.record_id)),
                asked=not asked_things or not asked_things.isdisjoint(space.term_set(candidate.record_id)),
                unseen_asked=unseen_asked)
            # said at another time than the period asked
            silenced = framed and not decide_mod.said_in(
                record, period, standing=not retrieval.feature("period_needs_time"), asked=asked_terms,
                held=space.term_set(candidate.record_id), dated=retrieval.feature("dated_records"))
            raised = raises is not None and raises(record)
            if raised:
                match.anchored = True
                if news:   # ``period_news``: told then of the thing (or by its name), all that is asked
                    match.coverage = max(match.coverage, 1.0)
            if silenced and not raised:
                match.support, match.stated, match.swapped = 0.0, 0.0, None
            else:
                # measured when read (``Match.defer``): the decision reads no support of a match holding
                # none of the question (coverage 0), and a stated or swapped support only when the best
                # support is too weak to rule them out
                tests.hold(candidate.record_id, timeless, silenced, raised)
                match.defer(candidate.record_id, measured[0], measured[1], None if silenced else measured[2],
                            measured[3])
                if doings and record["kind"] == "episode" and match.coverage < 1.0:
                    # ``period_doings``: a turn's coverage is raised to its support (the decision reads
                    # every coverage); a stated fact's test runs when its support is read (``_ReadTests``)
                    _doing_covers(match)
            found.append(match)
        if retrieval.feature("follow_supersession"):
            found = decide_mod.follow_supersession(found, view.records, view.created, question=dated,
                                                   as_of=as_of, now=now, policy=store.policies.forgetting,
                                                   periods=framed,
                                                   closing_before=retrieval.feature("closing_before"),
                                                   past_values=retrieval.feature("past_values"),
                                                   named_values=retrieval.feature("named_before"),
                                                   later_values=retrieval.feature("later_values"),
                                                   value_bridge=retrieval.feature("value_bridge"),
                                                   asked_things=keyed_things, holders=space.index.holders,
                                                   months=months,
                                                   current_values=retrieval.feature("current_values"),
                                                   before_events=retrieval.feature("before_events"))
        if retrieval.feature("start_values") and when.asks_start(request.text):
            found = _first_links(found, view.records, store.policies.forgetting)   # "did I start on"
        if retrieval.feature("ended_links"):   # "What's my job now?" after "I left the school at Easter"
            found = when.ended_links(found, request.text, request.user)
        if retrieval.feature("turn_supersession"):
            found = decide_mod.follow_turns(found, planner.turns_calling_off(space), view.created, space.term_set,
                                            planner.WHEN_TERMS, as_of)
        matches += [(view, match) for match in found]
        read.append((index, view))
    matches.sort(key=lambda vm: (-vm[1].rank_score, -vm[1].score))
    verdict = decide_mod.decide([m for _, m in matches], as_of=as_of, now=now, policy=store.policies.forgetting,
                                min_coverage=retrieval.decision["min_coverage"],
                                support_coverage=retrieval.decision.get("support_coverage", 0.0),
                                support_ratio=retrieval.decision.get("support_ratio", 0.0),
                                evidence_ratio=retrieval.decision.get("evidence_ratio", 0.0),
                                swap_ratio=retrieval.decision.get("swap_ratio", 0.0),
                                outweigh=retrieval.feature("blocked_outweighs"),
                                dispute_governs=retrieval.feature("dispute_governs"),
                                stated_negatives=retrieval.feature("stated_negatives"),
                                historical_negatives=retrieval.feature("historical_negatives"),
                                replaced_historical=retrieval.feature("replaced_historical"),
                                scope_label=f"user:{request.user}", query_terms=terms,
                                # ``missing_without_time``: "last year", "in 2021" set when; never missing
                                question=asked_first if asked_first and retrieval.feature("missing_without_time")
                                else request.text, caller=request.user,
                                covered=_held_in(read, as_of, now, store.policies.forgetting),
                                sureness_margin=retrieval.decision.get("sureness_margin"))
    if retrieval.feature("stated_years") and verdict.evidence:
        stating = decide_mod.year_answers(verdict.evidence, request.text, retrieval.decision["min_coverage"])
        if stating is not None:   # "in 2023": the record stating 2023 answers, the rest are context
            verdict.evidence = stating
            verdict.knowledge_state = decide_mod.answered_state(
                stating, now, retrieval.feature("stated_negatives"), retrieval.feature("historical_negatives"),
                retrieval.feature("replaced_historical"))
    _when_answers(verdict, request.text, retrieval, now)   # "so far", "when I was diagnosed"
    if retrieval.feature("typed_evidence_order") and verdict.evidence:
        verdict.evidence = typed_order(verdict.evidence, request.text, retrieval.decision["min_coverage"],
                                       forms=retrieval.feature("irregular_forms"),
                                       members=retrieval.feature("head_members"))
    if latest and verdict.evidence:
        verdict.evidence = latest_order(verdict.evidence, retrieval.decision["min_coverage"])
    if retrieval.feature("then_links_first") and verdict.knowledge_state == "VERIFIED_HISTORICAL":
        verdict.evidence = then_order(verdict.evidence, now, retrieval.decision["min_coverage"])
    if retrieval.feature("typed_answers") and verdict.reason_code == "insufficient_evidence":
        verdict.missing_conditions = _typed_missing(verdict, request.text, f"user:{request.user}")
    if retrieval.feature("asked_attributes") and verdict.reason_code == "insufficient_evidence":
        verdict.missing_conditions = _attribute_missing(verdict, request.text, request.user,
                                                        retrieval.feature("irregular_forms"))
    if verdict.knowledge_state == "UNKNOWN" and not read[0][1].records and not request.kinds \
            and recorded_as_of is None:
        # with nothing in any scope read, what a record would have to cover is noise beside this
        verdict.missing_conditions = [_EMPTY_SCOPE.format(user=request.user)] + (
            verdict.missing_conditions if any(view.records for _, view in read) else [])
    return _Evaluation(verdict, {id(m): v for v, m in matches}, scopes, as_of, recorded_as_of, now, steps, marks)


# an UNKNOWN from a scope holding nothing: most often a user id typed otherwise than it was stored with
# ("--user Meg" for "meg"); the caller is told so, and nothing about any other scope
_EMPTY_SCOPE = ("a record in scope user:{user}: it holds none (user ids are matched exactly, "
                "case included: check --user)")


def _on_first_read(setup: Callable[[], Callable[[str], float]]) -> Callable[[str], float]:
    """record_id -> the measure ``setup()`` gives, set up on the first record measured."""
    measures: list = []

    def measure(record_id: str) -> float:
        if not measures:
            measures.append(setup())
        return measures[0](record_id)
    return measure


def _swapped_supports(space, questions: list[str], settings: dict, feature, caller: str) -> Callable | None:
    """record_id -> its best support of the question asked of another speaker
    (``planner.swapped_questions``), None when there is no such question: each question's support
    test set up on the first record measured, as the decision reads few of them (``Match.defer``)."""
    if not questions:
        return None
    supports: list = []

    def swapped(record_id: str) -> float:
        if not supports:
            supports.extend(planner.support(space, text, settings, feature, caller) for text in questions)
        return max(support(record_id) for support in supports)
    return swapped


class _ReadTests:
    """The tests a match supporting the question must pass beyond ``planner.support``'s measure
    (sessions 8 and 9: when the question asks, ``_times_of``; what a record's mood states,
    ``_moods_of``; the act and the kind of thing asked, ``_aspect_acts``, ``_head_support``), and what
    ``features.period_activity`` raises (``_activity_support``), run as a match's support, stated or
    swapped measure is first read (``Match.defer``): a match the decision never reads is never
    tested, and a question whose matches' supports go unread sets up none of the tests (each is set
    up once per question, on the first supporting match read). A match failing one supports
    nothing: support 0, stated 0, swapped None, as when the tests ran on every match at once. A new
    per-match test that zeroes all three goes in ``_failing``; one on the support alone in
    ``planner.support``'s measure."""

    def __init__(self, space, request: QueryRequest, retrieval, as_of: str, acts: str, period, months: bool,
                 asked_terms: frozenset[str], supports: Callable[[str], float], keyed_supports: Callable[[str], float],
                 stated: Callable[[str], float] | None, swaps: Callable[[str], float] | None) -> None:
        self._space, self._request, self._retrieval, self._as_of = space, request, retrieval, as_of
        self._acts, self._period, self._months, self._asked_terms = acts, period, months, asked_terms
        self._supports, self._keyed, self._stated, self._swaps = supports, keyed_supports, stated, swaps
        # record ids read by the keyed measure, said at another time than the period asked
        # (support and stated 0 unless raised), raised by ``period_activity``
        self._timeless: set[str] = set()
        self._silenced: set[str] = set()
        self._raised: set[str] = set()
        self._settled: dict[str, tuple[float, bool]] = {}   # record id -> (support, failed a test)
        self._tests: list | None = None

    def hold(self, record_id: str, timeless: bool, silenced: bool, raised: bool) -> None:
        """A match of the question, measured by ``support``, ``stated`` and ``swapped`` when read."""
        if timeless:
            self._timeless.add(record_id)
        if silenced:
            self._silenced.add(record_id)
        if raised:
            self._raised.add(record_id)

    def _settle(self, record_id: str) -> tuple[float, bool]:
        found = self._settled.get(record_id)
        if found is None:
            measure = self._keyed if record_id in self._timeless else self._supports
            if record_id in self._raised:
                value = max((0.0 if record_id in self._silenced else measure(record_id)) or 0.0, 1.0)
            else:
                value = measure(record_id)
            failed = bool(value) and self._fails(record_id)
            found = self._settled[record_id] = (0.0 if failed else value, failed)
        return found

    def support(self, record_id: str) -> float:
        return self._settle(record_id)[0]

    def stated(self, record_id: str) -> float | None:
        """None (its coverage, at most 1) when the question has no stated measure and the record
        passes the tests (``features.stated_contest`` off)."""
        if self._settle(record_id)[1]:
            return 0.0
        if record_id in self._raised:
            if record_id in self._silenced:
                return 1.0
            return None if self._stated is None else max(self._stated(record_id) or 0.0, 1.0)
        return None if self._stated is None else self._stated(record_id)

    def swapped(self, record_id: str) -> float | None:
        return None if self._settle(record_id)[1] else self._swaps(record_id)

    def failed(self, record_id: str) -> bool:
        """Whether the match fails a test (its ``swapped`` reads None: ``Match.holds_swapped``)."""
        return self._settle(record_id)[1]

    def _fails(self, record_id: str) -> bool:
        if self._tests is None:
            self._tests = self._failing()
        if not self._tests:
            return False
        record = self._space.records[record_id]
        return any(test(record_id, record) for test in self._tests)

    def _failing(self) -> list:
        """The question's tests, each ``(record_id, record) -> whether it fails``, cheap ones first."""
        retrieval, request, forms = self._retrieval, self._request, self._retrieval.feature("irregular_forms")
        tests = _times_of(request, retrieval, self._as_of, self._period, self._months)
        moods = _moods_of(self._acts, retrieval, self._space.memo("mood_marks"))
        if moods is not None:
            tests.append(moods)
        if retrieval.feature("asked_head"):
            head = _head_support(self._space, self._acts, request.user, forms, retrieval.feature("negation_scope"))
            if head is not None:
                tests.append(head)
        if self._acts != request.text:
            acts = _aspect_acts(self._acts, forms)
            if acts is not None:
                tests.append(acts)
        if retrieval.feature("period_doings") and retrieval.feature("period_activity"):
            doings = _doings_of(request, self._period, self._asked_terms)
            if doings is not None:
                tests.append(doings)
        if retrieval.feature("asked_durations"):   # "how many years": a duration must be stated
            durations = when.duration_test(request.text)
            if durations is not None:
                tests.append(durations)
        if retrieval.feature("count_so_far"):   # "how many so far": "139 to go" counts nothing done
            left = when.left_count_test(request.text)
            if left is not None:
                tests.append(left)
        return tests


# a question in the first person: the caller's own turns answer "What did I do last weekend?"
_FIRST_PERSON = planner._Lazy(r"(?i)\b(?:i|me|my|we|us|our)\b")
# what "what did I do / what happened / what was I up to" asks once the period's words are gone
# (terms as ``tokenize`` gives them, written out: "do", "did", "up", "to" are no terms at all)
_ACTIVITY_TERMS = frozenset({"done", "get", "got", "happen"})


def _times_of(request: QueryRequest, retrieval, as_of: str, period, months: bool) -> list:
    """The tests of when a record holds against when the question asks, on the matches that
    support it (session 8, "time"; ``_ReadTests``), each ``(record_id, record) -> whether it fails``:

    ``features.change_starts``: a question judged before ``as_of`` ("in January 2025", "in 2024",
    a period) is not supported by a record saying the user changed TO a value
    (``temporal.states_change``: "I switched to the day shift", "I started as a data analyst at
    Nordbank") told after that instant: it states the value only from then (the slot's earlier
    link, when there is one, answers through ``follow_supersession``). Unless the record dates the
    change by then itself ("I started learning the violin last month", ``decision.dated_by``), or
    the question asks about a change.

    ``features.recurring_times``: a recurring time asked ("on Sunday mornings", "every Thursday",
    "at weekends"; ``temporal.recurring_days``) must be stated by the record: "I switched to the
    morning shift" does not say what I do on Sunday mornings.

    (``features.period_activity``, which raises a support: ``_activity_support``.)"""
    tests = []
    if retrieval.feature("recurring_times"):
        days = temporal.recurring_days(request.text)
        if days:
            day_terms = frozenset(tokenize(" ".join(days)))
            tests.append(lambda record_id, record: day_terms.isdisjoint(tokenize(record["statement"])))
    if retrieval.feature("change_starts"):
        instant, _ = decide_mod.question_instant(request.text, as_of, bool(period),
                                                 retrieval.feature("closing_before"), months)
        # a question asking about the change itself ("What has Tim started learning in August?") is not read
        if instant < as_of and not temporal.states_change(request.text):
            tests.append(lambda record_id, record: record["valid_time"]["from"] > instant
                         and temporal.states_change(record["statement"]) and not decide_mod.dated_by(record, instant))
    return tests


def _not_above(first: Callable[[str], float], second: Callable[[str], float]) -> Callable[[str], float]:
    """record_id -> the lower of two readings of its support (``features.aspect_words``)."""
    return lambda record_id: min(first(record_id), second(record_id))


def _moods_of(question: str, retrieval, marks: dict) -> Callable[[str, dict], bool] | None:
    """What a record's mood lets it state (session 9, "state"), on the matches that support the
    question (``_ReadTests``): ``(record_id, record) -> whether it fails``, None when neither test
    reads the question:

    ``features.prospective_mood`` (``decision.states_only_prospect``): a record naming the asked
    state only as a prospect, a plan or an attempt ("I've got an interview at the Royal Free
    pharmacy on Thursday", "We might move to Sweden", "Test-driving a Volvo on Saturday") supports
    no question about the state as it is ("Which pharmacy do I work at?", "Do I live in Sweden?",
    "Do I have a Volvo?"); one asking what may come, or naming the prospect ("When is my
    interview?"), keeps it.

    ``features.bare_changes`` (``decision.states_bare_change``): a record saying only that a thing
    changed ("I switched energy suppliers in March", "We changed banks") names no value: it
    supports no question but one about the change, and the record naming the value answers.
    ``marks``: the view's memo of ``decision.mood_marks`` by record id."""
    prospects, changes = retrieval.feature("prospective_mood"), retrieval.feature("bare_changes")
    if not (prospects or changes) or not decide_mod.asks_present(question):
        return None   # both read a question asking the state as it is
    terms = frozenset(tokenize(question))

    def fails(record_id: str, record: dict) -> bool:
        if record["status"] != "active":
            return False   # a candidate ("Jo might be lactose intolerant") is the decision's to block
        statement = record["statement"]
        marked = marks.get(record_id)
        if marked is None:
            marked = marks[record_id] = decide_mod.mood_marks(statement)
        return bool((prospects and marked[0] and decide_mod.states_only_prospect(statement, question, terms))
                    or (changes and marked[1] and decide_mod.states_bare_change(statement, question, terms)))
    return fails


def _aspect_acts(said: str, forms: bool) -> Callable[[str, dict], bool] | None:
    """``features.aspect_words``: a yes/no question whose aspect word went (``said``: "Am I still
    driving a Fiat?" -> "Am I driving a Fiat?") asks whether that act goes on or ever happened: a
    record supports it only holding the act (``planner.holds_act``: its verb unless a light one,
    and the thing it acts on): "Drove my nephew to football, he's still buzzing" does not; the Fiat's
    record does (and ``follow_supersession`` answers with what replaced it). On the supporting
    matches only (``_ReadTests``): ``(record_id, record) -> whether it fails``, None when the
    question asks no act."""
    verb, things = planner.asked_act(said, forms)
    if not verb and not things:
        return None
    return lambda record_id, record: not planner.holds_act(record["statement"], verb, things, forms)


def _when_read(request: QueryRequest, retrieval) -> QueryRequest:
    """``features.past_weekdays``: the request with "on Saturday" read as "last Saturday" in a
    question in the past tense (``when.past_weekdays``); ``features.own_doings``: "What do I do these
    days?" as "What do I do for work these days?" (``when.own_doing``)."""
    text = when.past_weekdays(request.text) if retrieval.feature("past_weekdays") else request.text
    if retrieval.feature("own_doings"):   # "What do I do these days?" asks the caller's work
        text = when.own_doing(text)
    return request if text == request.text else replace(request, text=text)


def _place_read(question: str, records, retrieval, holders: Callable[[str], list[str]]) -> str:
    """``features.place_periods``: the question with "in <a value of a replaced link>" read as
    "before <when it was replaced>" (``when.place_dated``), the scope's slots read only when the
    question may name one."""
    if not retrieval.feature("place_periods") or not retrieval.feature("follow_supersession"):
        return question
    if not when.may_name_place(question):
        return question
    keyed_slots = getattr(records, "keyed_slots", None)
    slots = keyed_slots() if keyed_slots is not None else decide_mod._keyed_slots(records.values())

    def keys_holding(words: set[str]) -> list[str]:   # the slots of the records holding every word
        held = [set(holders(word)) for word in words]
        ids = set.intersection(*held) if held else set()
        return list(dict.fromkeys(key for rid in sorted(ids) if rid in records
                                  and (key := decide_mod._key_of(records, rid))))
    return when.place_dated(question, slots, keys_holding)


def _first_links(found: list, records, policy) -> list:
    """``features.start_values``: the first link of each matched slot answers (``when.first_links``)."""
    keyed_slots = getattr(records, "keyed_slots", None)
    slots = keyed_slots() if keyed_slots is not None else decide_mod._keyed_slots(records.values())
    return when.first_links(found, lambda record: decide_mod._links(record, records, slots),
                            frozenset(policy.answering_statuses))


def _when_answers(verdict: decide_mod.Decision, question: str, retrieval, now: str) -> None:
    """The answers of a question whose time picks among them, on the answer's evidence only:
    ``features.count_so_far`` (the latest told count, ``when.latest_counts``) and
    ``features.start_values`` (the record stating the start, ``when.start_answers``)."""
    if not verdict.evidence or verdict.knowledge_state == "UNKNOWN":
        return
    floor = retrieval.decision["min_coverage"]
    chosen = None
    if retrieval.feature("count_so_far"):
        chosen = when.latest_counts(verdict.evidence, question, floor)
    if chosen is None and retrieval.feature("start_values"):
        chosen = when.start_answers(verdict.evidence, question, floor)
    if chosen is None:
        return
    verdict.evidence = chosen
    verdict.knowledge_state = decide_mod.answered_state(
        chosen, now, retrieval.feature("stated_negatives"), retrieval.feature("historical_negatives"),
        retrieval.feature("replaced_historical"))


def _typo_read(request: QueryRequest, space, retrieval, steps: list) -> QueryRequest:
    """``features.typo_terms`` (``planner.typo_read``): the request with its typed-wrong words read as the
    words one edit away ("wheres my brothr live" -> "where's my brother live"), marked in the trace;
    the request itself when it holds none. The answer still echoes the question as asked."""
    if not retrieval.feature("typo_terms"):
        return request
    found = planner.typo_read(space, request.text)
    if found is None:
        return request
    steps.append({"action": "typo_read", "read": found[1]})
    return replace(request, text=found[0])


def _indefinite_read(request: QueryRequest, retrieval, steps: list) -> QueryRequest:
    """``features.indefinite_members`` (``planner.indefinite_read``): "Do I have a chronic condition?"
    read as "Do I have any chronic condition?", marked in the trace; the request itself otherwise.
    The answer still echoes the question as asked."""
    if not retrieval.feature("indefinite_members"):
        return request
    found = planner.indefinite_read(request.text)
    if found is None:
        return request
    steps.append({"action": "indefinite_read", "read": found})
    return replace(request, text=found)


def _decision_read(request: QueryRequest, space, retrieval, steps: list) -> QueryRequest:
    """The question as the support tests and the decision read it, once the searches have run on it as
    asked (their ranking, what a retrieval caller gets, is unchanged), each reading marked in the trace:
    ``features.typo_transpositions`` (``planner.typo_read``: "whats my chess ratign" -> "... rating"),
    ``features.latest_values`` (``planner.latest_read``: "What's my latest LDL?" -> "What's my LDL?", the
    word says which value and names nothing a record must hold). The request itself when neither reads."""
    text = request.text
    if retrieval.feature("typo_terms") and retrieval.feature("typo_transpositions"):
        found = planner.transposition_read(space, text)
        if found is not None:
            steps.append({"action": "typo_read", "read": found[1]})
            text = found[0]
    if retrieval.feature("latest_values"):
        found = planner.latest_read(text)
        if found is not None:
            steps.append({"action": "latest_read", "read": found})
            text = found
    return request if text == request.text else replace(request, text=text)


def latest_order(evidence: list, min_coverage: float) -> list:
    """``latest_values``: the evidence answering alone first, the most recently stated (its validity's
    start, else when it was written) first among them; the rest after, each part in its order."""
    def place(item: tuple[int, decide_mod.Match]) -> tuple:
        at, match = item
        told = match.record["valid_time"]["from"] or match.created_at or ""
        return (0, _reversed(told), at) if match.sufficient(min_coverage) else (1, "", at)
    return [match for _, match in sorted(enumerate(evidence), key=place)]


def _reversed(instant: str) -> str:
    """A sort key ordering ISO instants latest first."""
    return "".join(chr(0x10FFFF - ord(c)) for c in instant)


def _head_support(space, question: str, caller: str, forms: bool,
                  scoped: bool = False) -> Callable[[str, dict], bool] | None:
    """``features.asked_head`` (``planner.asked_head_holders``): a what/which question asking a kind
    of thing and naming nothing else ("What shift did I work on Friday?") is supported only by a
    record holding that kind (the head, a member of its category or class, its key): "Worked
    overtime again" shares only the verb. On the supporting matches only (``_ReadTests``):
    ``(record_id, record) -> whether it fails``, None when the question is not of that form."""
    holds = planner.asked_head_holders(space, question, caller, forms, scoped)
    if holds is None:
        return None
    return lambda record_id, record: not holds(record_id)


def _activity_support(request: QueryRequest, period, asked_terms: frozenset[str]) -> Callable[[dict], bool] | None:
    """``features.period_activity``: a first-person question asking nothing but what happened in a
    period ("What did I do last weekend?", ``period``) is supported by the caller's own records
    placed in it (``decision.said_in`` without the standing rule: said or dated then): record ->
    whether its support (and stated measure) is raised to 1 and it is anchored, on every match, as
    the question holds no term a match must hold (``_ReadTests`` then tests it as any other). None
    when the question is not of that shape."""
    if not period or not asked_terms <= _ACTIVITY_TERMS or not _FIRST_PERSON.search(request.text):
        return None
    caller = request.user.strip().lower()

    def raises(record: dict) -> bool:
        speaker = ((record.get("source") or {}).get("speaker") or "").strip().lower()
        if speaker and speaker not in (caller, "user"):
            return False
        return decide_mod.said_in(record, period, standing=False, dated=True)
    return raises


def _news_support(request: QueryRequest, period, asked_terms: frozenset[str], space) -> Callable[[dict], bool] | None:
    """``features.period_news``: a first-person question asking what was told or what happened about
    a thing in a period ("What did the consultant tell me last week?", "What news did I get from the
    bank last week?", "What happened with the flat sale last week?"; ``when.asked_news_things``) is
    supported by the caller's own conversation turn said or dated then that holds a term of the
    thing, or a name the scope's stated facts give it ("My consultant ... is Dr Claes": "Saw Dr
    Claes on Wednesday, it's a stress fracture"): record -> whether its support is raised, as
    ``period_activity`` raises a turn of a doing. A standing record about the thing (the consultant's
    name, the bank) was not said then and stays silenced. None when the question is not of that shape."""
    if not period or not _FIRST_PERSON.search(request.text):
        return None
    things = when.asked_news_things(asked_terms)
    if not things:
        return None
    caller = request.user.strip().lower()
    held = things | when.thing_names(things, space.index.holders, space.records)

    def raises(record: dict) -> bool:
        if record["kind"] != "episode":
            return False
        speaker = ((record.get("source") or {}).get("speaker") or "").strip().lower()
        if speaker and speaker not in (caller, "user"):
            return False
        return not held.isdisjoint(tokenize(record["statement"])) and decide_mod.said_in(record, period, dated=True)
    return raises


# ``features.period_doings``: a stated fact saying what the caller did opens a clause with I or we
_FIRST_ACTOR = planner._Lazy(r"(?:^|[.;!?]\s+|,\s+(?:and|then)\s+)(?:I|We)(?:\b|')")


def _doings_of(request: QueryRequest, period, asked_terms: frozenset[str]) -> Callable[[str, dict], bool] | None:
    """``features.period_doings`` (after ``period_activity``): "What did I do last weekend?" asks what
    the caller DID then. The caller's own turn told then ("Rode the Kashubian lakes loop on
    Saturday") covers all the question asks once the period's words are gone: it answers, though it
    shares no word with them (``_doing_covers``, in ``_evaluate``'s loop). A stated fact answers only
    when it tells the caller acting (a clause opening with I or we) and was told or dated then as an
    event (``decision.said_in`` without the rule that any link of a slot with a history is timed): a
    value recorded then ("My HbA1c came back at 41", "My gas bill for May was 64 euros", a
    refinanced loan's new rate) is no doing. On the supporting matches only (``_ReadTests``):
    ``(record_id, record) -> whether it fails``, None unless an activity question
    (``_activity_support``'s shape)."""
    if not period or not asked_terms <= _ACTIVITY_TERMS or not _FIRST_PERSON.search(request.text):
        return None

    def fails(record_id: str, record: dict) -> bool:
        if record["kind"] == "episode":
            return False
        unchained = dict(record, supersession={"supersedes": [], "superseded_by": None})
        return not (_FIRST_ACTOR.search(record["statement"])
                    and decide_mod.said_in(unchained, period, standing=False, dated=True))
    return fails


def _doing_covers(match: decide_mod.Match) -> None:
    """``features.period_doings``, on an activity question: a conversation turn supporting it covers
    it as far as it supports it (at most 1): its coverage is its support when that is higher."""
    support = match.support
    if support:
        match.coverage = max(match.coverage, min(support, 1.0))


def typed_order(evidence: list, question: str, min_coverage: float, forms: bool = True,
                members: bool = False) -> list:
    """``features.typed_evidence_order``: the evidence of an answer, first the records that answer
    what the question asks as its form reads it (``planner.answers_asked``: "How far do I walk each
    day?" / "… about 5 km every day", not "Fewer bruises so far"), among them a current keyed fact
    before a conversation turn that mentions the same ("What car do I drive now?": "My car is a
    Renault Zoe" before "I'll drive you to the clinic, the Zoe has room"), each part in rank order.
    With ``members`` (``features.head_members``) the head noun is held by a member of its lexicon
    category or by the record's key ("These days it's a Toyota Prius", keyed user.work_car, before "I
    drive a taxi for work"). Only records sufficient alone are moved up; a question whose form reads
    nothing keeps the rank order. Only the answer's citations move: the ranking a retrieval caller
    gets is the planner's."""
    answers = planner.answers_asked(question, forms, members)
    if answers is None:
        return evidence

    def place(item: tuple[int, decide_mod.Match]) -> tuple:
        at, match = item
        if not match.sufficient(min_coverage) or not answers(match.record["statement"],
                                                             match.record.get("memory_key") or ""):
            return (1, 1, at)
        keyed = match.record["kind"] != "episode" and bool(match.record["memory_key"])
        return (0, 0 if keyed else 1, at)
    return [match for _, match in sorted(enumerate(evidence), key=place)]


# what an UNKNOWN names as missing when no record states the kind of value a question asks
_VALUE_WORDS = {"distance": "a distance (the question asks how far)",
                "frequency": "a frequency (the question asks how often)",
                "amount": "an amount (the question asks how much)",
                "clock": "a time of day (the question asks what time)"}


def then_order(evidence: list, now: str, min_coverage: float) -> list:
    """``features.then_links_first``: a VERIFIED_HISTORICAL answer cites first the links that held
    then and have been replaced or have ended since (their validity closed by ``now``), each part
    in its order: "Where did I live in 2021?" cites "We live in a rented flat in Boavista" (the home
    slot's link then) before "I live in Porto", true throughout, which is context at most."""
    def place(item: tuple[int, decide_mod.Match]) -> tuple:
        at, match = item
        record = match.record
        ended = record["kind"] != "episode" and record["valid_time"]["to"] is not None \
            and record["valid_time"]["to"] <= now
        return (0 if ended and match.sufficient(min_coverage) else 1, at)
    return [match for _, match in sorted(enumerate(evidence), key=place)]


def _typed_missing(verdict: decide_mod.Decision, question: str, scope_label: str) -> list[str]:
    """``features.typed_answers``: an insufficient_evidence UNKNOWN to a question asking a kind of
    value (``planner.CONFIDENT_VALUES``) that no eligible record matching it states names that kind
    first: "How far is the bakery?" with only "The bakery on my street is my favourite so far."
    misses a distance, not the words "far" or "bakery"."""
    kind = planner.asked_value(question)
    if kind not in planner.CONFIDENT_VALUES or any(
            m.coverage > 0 and planner.states_value(kind, m.record["statement"]) for m in verdict.eligible):
        return verdict.missing_conditions
    return [f"an active record in scope {scope_label} that states {_VALUE_WORDS[kind]}"] + verdict.missing_conditions


# what an UNKNOWN names as missing when no record states the attribute a question asks of a thing
_ATTRIBUTE_WORDS = {"colour": "a colour (the question asks what colour)",
                    "amount": "an amount (the question asks how much)",
                    "schedule": "a date, a day or a time (the question asks when)",
                    "place": "a place (the question asks where)",
                    "race_time": "a time taken (the question asks someone's time)"}


def _attribute_missing(verdict: decide_mod.Decision, question: str, user: str, forms: bool) -> list[str]:
    """``features.asked_attributes``: an insufficient_evidence UNKNOWN to a question asking an
    attribute of a thing (``planner.asked_attribute``) that no eligible record matching it states
    names the attribute first: "What colour is my van?" with only "I own a 2017 Ford Transit van."
    misses a colour, not the word "colour" (said once: ``_typed_missing`` may have named it)."""
    kind = planner.asked_attribute(question)
    if kind is None:
        return verdict.missing_conditions
    things = planner.asked_attribute_things(question, user, forms)
    if any(m.coverage > 0 and planner.record_answers_attribute(m.record, kind, things, question, forms)
           for m in verdict.eligible):
        return verdict.missing_conditions
    wanted = f"an active record in scope user:{user} that states {_ATTRIBUTE_WORDS[kind]}"
    if wanted in verdict.missing_conditions:
        return verdict.missing_conditions
    return [wanted] + verdict.missing_conditions


def _held_in(read: list, as_of: str, now: str, forgetting) -> Callable[[str], bool]:
    """term -> whether an eligible record of a scope read holds it (an UNKNOWN's missing words)."""
    def held(term: str) -> bool:
        return any(rid in view.records and decide_mod.blocker(view.records[rid], view.created[rid], as_of, now,
                                                              forgetting) is None
                   for index, view in read for rid in index.holders(term))
    return held


def _without_time(question: str, as_of: str, records, retrieval, periods: bool = False, months: bool = False) -> str:
    rest = decide_mod.question_rest(question, as_of, records, periods=periods,
                                    closing_before=retrieval.feature("closing_before"),
                                    named_values=retrieval.feature("named_before"), months=months,
                                    before_events=retrieval.feature("before_events"))
    return rest if rest.strip(" ?!.") else question


def _with_context(store: Store, evaluation: _Evaluation, chosen: list) -> list[dict]:
    retrieval, forgetting = store.policies.retrieval, store.policies.forgetting
    if retrieval.feature("context_expansion"):
        for match in chosen:
            view = evaluation.views[id(match)]
            match.context = _context(view, match.record, retrieval.planner["context_window"],
                                     lambda r, v=view: decide_mod.blocker(
                                         r, v.created[r["id"]], evaluation.as_of, evaluation.now,
                                         forgetting) is None)
    return [_evidence_item(m) for m in chosen]


def run_query(store: Store, request: QueryRequest, *, llm_transport=None) -> dict:
    return answer_query(store, request, llm_transport=llm_transport)[0]


def answer_query(store: Store, request: QueryRequest, *, llm_transport=None) -> tuple[dict, list[bool]]:
    """``run_query``'s DESIGN §6 JSON and, for each of its evidence items, whether the state was read
    from it (``Decision.answers``) rather than cited as related (``api.Evidence.answers``)."""
    evaluation = _evaluated(store, request, llm_transport)
    verdict = evaluation.verdict
    audit = [dict(_evidence_item(m), blocked_by=why) for m, why in verdict.blocked] if request.include_inactive else []
    shown = verdict.evidence[:request.limit]
    resting = {id(m) for m in verdict.answers}
    return {
        "knowledge_state": verdict.knowledge_state, "reason_code": verdict.reason_code,
        "missing_conditions": verdict.missing_conditions, "query": request.text, "scope": evaluation.scopes,
        "as_of": {"valid_time": evaluation.as_of, "recorded_time": evaluation.recorded_as_of},
        "evidence": _with_context(store, evaluation, shown),
        "audit_only": audit[:request.limit],
        "planner": {"name": request.planner, "steps": evaluation.steps if request.trace else []},
    }, [id(m) in resting for m in shown]


def search_eligible(store: Store, request: QueryRequest) -> list[dict]:
    """The eligible matches, ranked, whether or not they suffice for an answer.

    For retrieval APIs (the leaderboard's /search) whose caller judges relevance itself:
    the same scope, status and validity rules as ``run_query``; only the sufficiency test
    that turns weak matches into an UNKNOWN is left to the caller.
    """
    evaluation = _evaluated(store, request)
    eligible = list(evaluation.verdict.eligible)
    if len(eligible) < request.limit > store.policies.retrieval.planner["candidates_per_search"]:
        # a caller asking for more (the leaderboard's evaluator asks for 100) gets the next best,
        # from searches that keep more candidates, after the same first ones: the ranking of the
        # first matches never depends on how many were asked for
        wider = _evaluated(store, request, candidates_per_search=request.limit)
        seen = {m.record["id"] for m in eligible}
        eligible += [m for m in wider.verdict.eligible if m.record["id"] not in seen]
        evaluation.views.update(wider.views)
    return _with_context(store, evaluation, eligible[:request.limit])


def retrieve(store: Store, request: QueryRequest) -> tuple[list[dict], dict, float]:
    """For the benchmarks: the eligible matches ranked (``search_eligible``), the answer's
    knowledge state and reason (``run_query``), and the answer's confidence — the best
    support among the eligible matches (0 when a record about someone else contests it,
    ``decision.support_ratio``): the query abstains when it is below ``decision.min_coverage``,
    so sweeping that threshold over the confidences gives the abstention curve. With
    ``features.abstention_sureness`` the answer also holds its ``sureness`` (``decision.sureness``)."""
    evaluation = _evaluate(store, request)
    verdict = evaluation.verdict
    decision = store.policies.retrieval.decision
    ratio = decision.get("support_ratio", 0.0)
    confidence = decide_mod.confidence(verdict.eligible, ratio, decision.get("swap_ratio", 0.0), verdict.blocked,
                                       outweigh=store.policies.retrieval.feature("blocked_outweighs"))
    answer = {"knowledge_state": verdict.knowledge_state, "reason_code": verdict.reason_code}
    margin = decision.get("sureness_margin")
    if margin is not None:   # the shipped decision's own score: its curve is the decision's
        answer["sureness"] = decide_mod.abstention_score(verdict.eligible, confidence, decision["min_coverage"])
    elif store.policies.retrieval.feature("abstention_sureness"):
        answer["sureness"] = decide_mod.sureness(verdict.eligible, confidence)
    return _with_context(store, evaluation, verdict.eligible[:request.limit]), answer, confidence


def _plan(space, request: QueryRequest, settings: dict, retrieval, llm_transport, as_of: str | None = None):
    if request.planner == "llm":
        from .llm_planner import plan as llm_plan
        # the planner section's relevance settings (coverage weights) apply to both planners;
        # the llm section's own keys (endpoint, max_steps) win
        return llm_plan(space, request.text, {**settings, **retrieval.data.get("llm", {})}, transport=llm_transport,
                        caller=request.user)
    return planner.plan(space, request.text, settings, retrieval.feature, caller=request.user, as_of=as_of)


def catch_up(store: Store, scope: dict) -> None:
    """The scope's current view, the query view (its memos carried, ``_carried_view``) and the
    index brought up to the store's files, in the order a query reads them: what the next query
    of a long-lived store would do first, done by the write that moved them (``api.add_conversation``
    in ``memory serve``: the add's request, so the search after it reads them ready)."""
    fingerprint = store.fingerprint(scope)
    _view(store, scope, None, fingerprint)
    open_index(store, scope, fingerprint).prepare()
