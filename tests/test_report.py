"""Terminal table and self-contained HTML page for a dataset report."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from memory.benchmark.report import CHART_METRICS, render_html, render_table


def summary(questions, recall10, mrr, **extra):
    return {"questions": questions, "recall@5": recall10, "recall@10": recall10, "mrr": mrr,
            "abstention_precision": None, "abstention_recall": None} | extra


REPORT = {
    "dataset": "locomo",
    "questions": 6,
    "limit": 20,
    "metrics": summary(6, 0.75, 0.5, abstention_precision=1.0, abstention_recall=0.5),
    "by_category": {
        "single-hop": summary(4, 0.75, 0.5),
        "adversarial": summary(2, None, None, abstention_recall=0.5),
    },
    "baselines": {
        "bm25_turns": {
            "metrics": summary(6, 0.5, 0.25, abstention_recall=0.0),
            "by_category": {"single-hop": summary(4, 0.5, 0.25), "adversarial": summary(2, None, None, abstention_recall=0.0)},
        },
        "refind_pairs": {
            "metrics": summary(6, 0.25, None),
            "by_category": {"single-hop": summary(4, 0.25, None), "adversarial": summary(2, None, None)},
        },
    },
    "unresolved_evidence": 3,
    "misses": [{"category": "single-hop", "reason": "gold_not_in_top_10", "question": "Did <script>x</script> run?",
                "gold": ["D1:1"], "returned": ["D2:2"]}],
}


def _row(table: str, section: str, metric: str) -> list[str]:
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(section))
    for line in lines[start:]:
        cells = line.split()
        if metric in cells:
            return cells[cells.index(metric) + 1:]
    raise AssertionError(f"no {metric} row under {section}")


def test_table_puts_ours_before_each_baseline():
    header = render_table(REPORT).splitlines()[2].split()
    assert header == ["category", "n", "metric", "ours", "bm25_turns", "refind_pairs"]


def test_table_values_per_category_and_overall():
    table = render_table(REPORT)
    assert _row(table, "overall", "recall@10") == ["0.750", "0.500", "0.250"]
    assert _row(table, "single-hop", "mrr") == ["0.500", "0.250", "n/a"]


def test_table_leaves_out_metrics_no_system_defines():
    table = render_table(REPORT)
    adversarial = table[table.index("adversarial"):]
    assert "recall@10" not in adversarial.split("\n\n")[0]
    assert _row(table, "adversarial", "abstention_recall") == ["0.500", "0.000", "n/a"]


def test_table_mentions_unresolved_evidence_and_is_deterministic():
    assert "unresolved evidence ids: 3" in render_table(REPORT)
    assert render_table(REPORT) == render_table(REPORT)


def test_html_is_self_contained():
    page = render_html(REPORT)
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta name="generator"' in page
    assert "http" not in page and "<script" not in page and "src=" not in page and "<link" not in page


def test_html_has_one_category_chart_per_headline_metric_and_an_overall_chart():
    page = render_html(REPORT)
    assert page.count('data-chart="by_category"') == len(CHART_METRICS["locomo"])
    assert page.count('data-chart="overall"') == 1
    assert 'data-chart="by_category" data-metric="recall@10"' in page


def _bars(page: str, metric: str) -> dict[tuple[str, str], str]:
    chart = page.split(f'data-chart="by_category" data-metric="{metric}"')[1].split("</figure>")[0]
    return {(s, c): v for s, c, v in re.findall(r'data-system="([^"]+)" data-category="([^"]+)" data-value="([^"]+)"', chart)}


def test_html_bars_carry_their_values_and_skip_undefined_categories():
    bars = _bars(render_html(REPORT), "recall@10")
    assert bars[("ours", "single-hop")] == "0.750"
    assert bars[("refind_pairs", "single-hop")] == "0.250"
    assert not any(category == "adversarial" for _, category in bars)


def test_html_bar_height_is_proportional_to_the_value():
    page = render_html(REPORT)
    chart = page.split('data-metric="recall@10"')[1].split("</figure>")[0]
    heights = dict(re.findall(r'data-system="(\w+)" data-category="single-hop" data-value="[^"]+" x="[^"]+" y="[^"]+" '
                              r'width="[^"]+" height="([^"]+)"', chart))
    assert float(heights["ours"]) == 3 * float(heights["refind_pairs"])


def test_html_escapes_dataset_text():
    page = render_html(REPORT)
    assert "Did &lt;script&gt;x&lt;/script&gt; run?" in page


class _Balance(HTMLParser):
    VOID = {"meta", "br", "line", "rect", "img", "hr", "input", "link"}

    def __init__(self):
        super().__init__()
        self.stack = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1] == tag, f"unbalanced </{tag}>, open: {self.stack[-3:]}"
        self.stack.pop()


def test_html_tags_are_balanced():
    checker = _Balance()
    checker.feed(render_html(REPORT))
    assert checker.stack == []


def test_renders_an_evaluator_report_end_to_end():
    from memory.benchmark.datasets import SearchOutcome, evaluate_locomo
    from memory.importers import Conversation, LocomoQuestion, Turn

    conversation = Conversation(
        "c", ("A", "B"),
        (Turn("D1:1", "session_1", "A", "kites fly high", "2023-01-01T00:00:00Z"),
         Turn("D1:2", "session_1", "B", "boats float", "2023-01-01T00:00:00Z")),
        (LocomoQuestion(0, "what flies?", 4, ("D1:1",), "kites"),),
    )
    report = evaluate_locomo([conversation], lambda *_: SearchOutcome(["D1:2"]), timer=lambda: 0.0)
    assert "single-hop" in render_table(report)
    assert 'data-category="single-hop"' in render_html(report)


def test_provenance_names_the_command_and_commit_in_table_and_page():
    from memory.benchmark.report import provenance, render_html, render_table
    origin = provenance(["memory", "benchmark", "locomo", "x.json"])
    assert origin["command"] == "memory benchmark locomo x.json"
    report = {"dataset": "locomo", "questions": 0, "metrics": {}, "by_category": {}, "baselines": {},
              "provenance": dict(origin, commit="abc1234", uncommitted_changes=True)}
    line = "produced by: memory benchmark locomo x.json at commit abc1234 (with uncommitted changes)"
    assert line in render_table(report)
    assert line in render_html(report)
