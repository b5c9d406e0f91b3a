"""The module patterns of the read path are compiled on first use (``retrieval.patterns.Lazy``): a
`memory query` process compiled ~100 of them at import (~20 ms of ``re.compile``), most for
features its question never reaches. A lazy pattern must find exactly what the compiled one finds,
and importing the read path must compile none of them."""
import re

import pytest

from memory import decision, planner
from memory.paths import PROJECT_ROOT
from memory.retrieval import lexicon, patterns, temporal, tokenize

from helpers import fresh_python

MODULES = {"planner": planner, "decision": decision, "lexicon": lexicon, "temporal": temporal,
           "tokenize": tokenize}
SAMPLES = ["I was born in 1990 and I'm 34 years old", "My number is +44 20 7946 0958", "We went to Paris on Monday",
           "Hey Caroline, that roadtrip was insane!", "Tom doesn't eat meat, not anymore", "My favourite film is Alien",
           "Before I moved to Lyon in the spring of 2019 I used to cycle; we called it off last week.",
           "What kind of music does Ana's brother like? Which city did you grow up in?", "It's the dog's bowl",
           "Two days ago, or was it three weeks before Christmas? I gave up tennis but not squash."]


def lazy_patterns(module) -> dict:
    return {name: value for name, value in vars(module).items() if isinstance(value, patterns.Lazy)}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_lazy_pattern_finds_what_the_compiled_one_finds(name):
    found = lazy_patterns(MODULES[name])
    assert found
    for attribute, pattern in found.items():
        compiled = re.compile(pattern.pattern, pattern._flags)
        for text in SAMPLES:
            assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)], attribute
            assert pattern.findall(text) == compiled.findall(text), attribute
            assert pattern.split(text) == compiled.split(text), attribute
            assert pattern.sub("#", text) == compiled.sub("#", text), attribute
            found_match, expected = pattern.search(text), compiled.search(text)
            assert (found_match and found_match.groups()) == (expected and expected.groups()), attribute
        assert pattern.flags == compiled.flags and pattern.groupindex == compiled.groupindex, attribute


def test_a_lazy_pattern_keeps_its_flags():
    assert patterns.Lazy(r"ab", re.IGNORECASE).search("xAB").span() == (1, 3)
    assert patterns.Lazy(r"ab").search("xAB") is None


def test_importing_the_read_path_compiles_none_of_the_lazy_patterns():
    code = ("import memory.cli, memory.query\nfrom memory import planner, decision\n"
            "from memory.retrieval import lexicon, temporal, patterns\n"
            "print(sum('search' in vars(v) for m in (planner, decision, lexicon, temporal) for v in vars(m).values()"
            " if isinstance(v, patterns.Lazy)), sum(isinstance(v, patterns.Lazy) for m in (decision, lexicon, temporal)"
            " for v in vars(m).values()) >= 15)")
    assert fresh_python(code) == ["0", "True"]


# -- the packaged code (tools/gen_patterns.py) -----------------------------------------------------

def _gen_patterns():
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen_patterns", PROJECT_ROOT / "tools" / "gen_patterns.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _packaged_interpreter() -> dict:
    import json
    path = PROJECT_ROOT / "memory" / "packaged" / "patterns" / "compiled.json"
    return json.loads(path.read_text(encoding="utf-8"))["interpreter"]


# the code is that of one interpreter; another compiles every pattern with re.compile (tested below)
this_interpreter = pytest.mark.skipif(_packaged_interpreter() != patterns.interpreter(),
                                      reason="packaged for another interpreter: run tools/gen_patterns.py")


@this_interpreter
def test_the_packaged_code_is_generated_from_the_patterns():
    gen = _gen_patterns()
    assert gen.TARGET.read_text(encoding="utf-8") == gen.render(), "run: python tools/gen_patterns.py"


@this_interpreter
def test_each_packaged_pattern_is_the_one_re_compile_makes():
    table = patterns._table()
    every = {(lazy.pattern, lazy._flags) for lazy in _gen_patterns().lazy_patterns()}
    assert table and set(table) == every
    for pattern, flags in table:
        made, expected = patterns.precompiled(pattern, flags), re.compile(pattern, flags)
        assert (made.pattern, made.flags, made.groups, made.groupindex) == \
            (expected.pattern, expected.flags, expected.groups, expected.groupindex), pattern
        for text in SAMPLES:
            assert [m.span() for m in made.finditer(text)] == [m.span() for m in expected.finditer(text)], pattern
            assert [m.groups() for m in made.finditer(text)] == [m.groups() for m in expected.finditer(text)], pattern


@this_interpreter
def test_a_lazy_pattern_of_the_table_is_made_without_re_s_compiler(monkeypatch):
    from re import _parser
    pattern, flags = planner._NOT_PLACES.pattern, planner._NOT_PLACES._flags
    expected = [m.span() for text in SAMPLES for m in re.compile(pattern, flags).finditer(text)]
    re.purge()
    monkeypatch.setattr(_parser, "parse", lambda *args: pytest.fail("parsed"))
    lazy = patterns.Lazy(pattern, flags)
    assert [m.span() for text in SAMPLES for m in lazy.finditer(text)] == expected


def test_another_interpreter_compiles_as_before(monkeypatch):
    monkeypatch.setattr(patterns, "interpreter", lambda: {"implementation": "other"})
    patterns._table.cache_clear()
    try:
        assert patterns._table() == {}
        assert patterns.precompiled(planner._NOT_PLACES.pattern, planner._NOT_PLACES._flags) is None
        assert patterns.Lazy(r"(?i)ab").search("xAB").span() == (1, 3)
    finally:
        monkeypatch.undo()
        patterns._table.cache_clear()
