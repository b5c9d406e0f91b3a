"""The planner answers the same in every process: nothing it returns may follow set order,
which changes with the interpreter's hash seed."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from memory import planner

from test_planner_features import FILLER, space_of, turn

# two speakers share the term "maria": the speaker table must name both, in name order
RECORDS = FILLER + [
    turn("brown", "Maria Brown", "I flew to Lisbon for the conference", session="s2"),
    turn("romano", "Maria Romano", "I drove to Valencia for the wedding", session="s3"),
    turn("ines", "Ines Romano", "Maria told me about her trip", session="s4")]


def test_every_speaker_sharing_a_named_term_is_named(tmp_path):
    space = space_of(RECORDS, tmp_path)
    assert space.speakers()["maria"] == ("Maria Brown", "Maria Romano")
    assert space.speakers()["romano"] == ("Ines Romano", "Maria Romano")
    assert planner.named_speakers(space, "Where did Maria travel?") == {"Maria Brown", "Maria Romano"}


_SCRIPT = """
import json, sys, pathlib
sys.path.insert(0, sys.argv[1])
from memory import planner
from test_planner_features import SETTINGS, features
from test_planner_determinism import RECORDS, space_of
space = space_of(RECORDS, pathlib.Path(sys.argv[2]))
on = features("speaker_search", "feedback_expansion")
result = planner.plan(space, "Where did Maria travel for the wedding?", dict(SETTINGS, neighbour_weight=0.5, session_weight=1), on)
print(json.dumps([[c.record_id, c.fused] for c in result.candidates] + result.steps, sort_keys=True))
"""


def test_a_plan_is_the_same_under_every_hash_seed(tmp_path):
    here = os.path.dirname(__file__)
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", _SCRIPT, here, str(tmp_path / seed)], env=env,
                              capture_output=True, text=True, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1, "the plan changed with the hash seed"
    assert json.loads(outputs.pop())
