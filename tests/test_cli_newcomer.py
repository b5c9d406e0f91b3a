"""What a newcomer tripped on (issue 15 §4): Ctrl-C, internal errors, help examples, gold verdicts."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from helpers import add_env
from memory import api
from memory.cli import INTERNAL_ERROR_EXIT, INTERRUPTED_EXIT, main


def interrupted_after(count: int):
    """A stand-in for ``api.apply`` that durably applies ``count`` envelopes, then meets a Ctrl-C."""
    real = api.apply

    def apply(store, envelopes, *, batch_size=500):
        envelopes = list(envelopes)
        yield from real(store, envelopes[:count], batch_size=batch_size)
        raise KeyboardInterrupt
    return apply


def test_ctrl_c_exits_130_and_says_how_far_apply_got(store, tmp_path, monkeypatch):
    path = tmp_path / "envelopes.jsonl"
    path.write_text("".join(json.dumps(add_env(f"Fact {i}.", f"user.fact_{i}", f"tx-{i}")) + "\n" for i in range(3)))
    monkeypatch.setattr(api, "apply", interrupted_after(2))
    result = CliRunner().invoke(main, ["apply", str(path), "--batch-size", "1"])
    assert result.exit_code == INTERRUPTED_EXIT == 130
    assert "interrupted: envelopes applied: 2 of 3 done" in result.stderr
    assert "rerunning the file is safe" in result.stderr
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == ["applied", "applied"]
    assert "Aborted" not in result.output


def test_ctrl_c_before_any_progress_still_exits_130(store, monkeypatch):
    def stats(store):
        raise KeyboardInterrupt
    monkeypatch.setattr(api, "stats", stats)
    result = CliRunner().invoke(main, ["stats"])
    assert result.exit_code == 130
    assert "interrupted" in result.stderr


def test_an_internal_error_exits_with_the_documented_code_and_names_only_the_type(store, monkeypatch):
    def broken(store):
        raise RuntimeError("secret content must not leak")
    monkeypatch.setattr(api, "stats", broken)
    result = CliRunner().invoke(main, ["stats", "--json"])
    assert result.exit_code == INTERNAL_ERROR_EXIT == 1
    assert json.loads(result.stdout)["error"] == {
        "code": "internal_error", "message": "internal error (RuntimeError); rerun with MEMORY_DEBUG=1 for details"}
    assert "secret" not in result.output


def test_the_readme_lists_every_exit_code_the_cli_uses():
    from memory.paths import PROJECT_ROOT
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    listed = readme.split("Exit codes:", 1)[1].split("\n\n", 1)[0]
    for code in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130, 141):
        assert f"{code} " in listed, code


@pytest.mark.parametrize("command", [["benchmark"], ["retention"], ["review"], ["benchmark", "locomo"],
                                     ["retention", "sweep"], ["review", "list"]])
def test_help_has_an_example(command):
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0 and "Example:" in result.output


def test_gold_without_json_says_whether_the_gates_passed_and_which_cases_failed(monkeypatch):
    report = {"dataset": "gold", "questions": 2, "k": 5, "metrics": {"recall@5": 0.5}, "by_category": {},
              "failures": [{"case_id": "case-b", "category": "temporal", "why": "expected VERIFIED, got UNKNOWN"}],
              "gates": {"passed": False, "failed": ["recall@5 >= 0.9: got 0.5"]}}
    monkeypatch.setattr(api, "benchmark_gold", lambda *a, **k: json.loads(json.dumps(report)))
    result = CliRunner().invoke(main, ["benchmark", "gold"])
    assert result.exit_code == 10
    assert "gates: FAILED (1)" in result.stdout
    assert "gate failed: recall@5 >= 0.9: got 0.5" in result.stdout
    assert "cases failed: 1 of 2" in result.stdout
    assert "case-b [temporal]: expected VERIFIED, got UNKNOWN" in result.stdout


def test_gold_without_json_says_the_gates_passed(monkeypatch):
    report = {"dataset": "gold", "questions": 1, "k": 5, "metrics": {"recall@5": 1.0}, "by_category": {},
              "failures": [], "gates": {"passed": True, "failed": []}}
    monkeypatch.setattr(api, "benchmark_gold", lambda *a, **k: json.loads(json.dumps(report)))
    result = CliRunner().invoke(main, ["benchmark", "gold"])
    assert result.exit_code == 0
    assert "gates: passed" in result.stdout and "cases failed: 0 of 1" in result.stdout


def test_the_longmemeval_page_shows_without_late_gold():
    from memory.benchmark.report import render_html
    report = {"dataset": "longmemeval", "questions": 3, "metrics": {"recall_all@5": 0.5}, "by_category": {},
              "baselines": {"bm25_turns": {"metrics": {"recall_all@5": 0.6}, "by_category": {}}},
              "without_late_gold": {"questions": 2, "metrics": {"recall_all@5": 0.875},
                                    "baselines": {"bm25_turns": {"metrics": {"recall_all@5": 0.625}}}}}
    page = render_html(report)
    section = page.split('data-table="without_late_gold"', 1)[1].split("</table>", 1)[0]
    assert "Without late gold (2 questions)" in page
    assert "0.875" in section and "0.625" in section
    assert "0.875" not in page.split('data-table="without_late_gold"', 1)[0]


def test_a_page_without_late_gold_figures_has_no_such_section():
    from memory.benchmark.report import render_html
    page = render_html({"dataset": "locomo", "questions": 1, "metrics": {"recall@5": 1.0}, "by_category": {}})
    assert "without_late_gold" not in page


def test_a_real_sigint_during_apply_exits_130_and_what_was_printed_is_on_disk(tmp_path):
    import signal
    import subprocess
    import sys
    from helpers import NOW, cli_env, make_store
    from memory.paths import PROJECT_ROOT
    store = make_store(tmp_path / "store")
    path = tmp_path / "envelopes.jsonl"
    path.write_text("".join(json.dumps(add_env(f"Fact {i}.", f"user.fact_{i}", f"tx-{i}")) + "\n"
                            for i in range(20000)))
    process = subprocess.Popen([sys.executable, "-m", "memory.cli", "--store", str(store.root), "apply", str(path),
                                "--batch-size", "1"], cwd=str(PROJECT_ROOT), env=cli_env(NOW),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               # a job started in the background by a non-interactive shell inherits
                               # SIGINT ignored, and Python then never raises KeyboardInterrupt
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = process.stdout.readline()          # it is applying: interrupt it now
    process.send_signal(signal.SIGINT)
    rest, stderr = process.communicate(timeout=120)
    printed = [json.loads(line) for line in (first + rest).splitlines()]
    assert process.returncode == 130, stderr
    said = int(stderr.split("interrupted: envelopes applied: ", 1)[1].split(" of 20000 done", 1)[0])
    assert said in (len(printed), len(printed) + 1)   # the signal may land between counting and printing
    assert "Traceback" not in stderr and 0 < len(printed) < 20000
    durable = store.state({"type": "user", "key": "alice"}).transactions
    assert all(result["transaction_id"] in durable for result in printed) and len(durable) >= said
