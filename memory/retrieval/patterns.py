"""A module pattern compiled when first used (``Lazy``).

A `memory query` process imports the planner, the decision and the lexicon, whose module patterns
it compiled at import: ~100 of them, ~20 ms of ``re.compile`` before the question was read, many
for features a question may not reach. ``Lazy(pattern, flags)`` stands where ``re.compile(pattern,
flags)`` stood; only its methods are read, never the compiled object.
"""
from __future__ import annotations

import re

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub", "subn")


class Lazy:
    """``re.compile(pattern, flags)`` done by the first method call; the compiled pattern's
    methods then become this object's own, so later calls cost a plain lookup."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str):
        # runs only for a missing attribute: the first method asked for
        compiled = re.compile(self.pattern, self._flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)
