"""A dataset report (``datasets.evaluate_*``) rendered for people.

Contract:

- ``render_table(report) -> str``: plain text for a terminal; one row per
  (category, metric), one column per system: ours first, then each baseline.
  Rows where no system defines the metric are left out; an undefined value
  prints ``n/a``.
- ``render_html(report) -> str``: one self-contained page (inline CSS, inline
  SVG, no script, no external reference), with the same table, one grouped bar
  chart per headline metric across categories (``data-chart="by_category"``,
  ``data-metric``), one overall chart (``data-chart="overall"``), and the misses.
  Every bar carries ``data-system``, ``data-category`` and ``data-value`` so a
  browser test can read the chart. All dataset text is HTML-escaped.
- Both are pure and deterministic: the same report renders the same bytes.
"""
from __future__ import annotations

from html import escape

GENERATOR = "memory benchmark report v1"
OURS = "ours"

TABLE_METRICS = {
    "locomo": ("recall@1", "recall@5", "recall@10", "recall@20", "mrr",
               "with_context.recall@10", "with_context.mrr"),
    "longmemeval": ("recall_any@5", "recall_all@5", "recall_any@10", "recall_all@10",
                    "ndcg@10", "mrr", "turn_recall@10", "turn_recall@50"),
}
DEFAULT_TABLE_METRICS = ("recall@5", "recall@10", "mrr")
ABSTENTION_METRICS = ("abstention_precision", "abstention_recall", "false_abstention_rate")
CHART_METRICS = {
    "locomo": ("recall@5", "recall@10", "mrr", "with_context.recall@10"),
    "longmemeval": ("recall_any@5", "recall_all@5", "ndcg@10", "turn_recall@10"),
}
DEFAULT_CHART_METRICS = ("recall@10", "mrr")
PALETTE = ("#2b6cb0", "#a0aec0", "#dd6b20", "#38a169", "#805ad5", "#d53f8c")


# --- shared reading of the report -----------------------------------------------------


def systems(report: dict) -> list[tuple[str, dict]]:
    """(name, {metrics, by_category}) for ours, then each baseline in report order."""
    ours = {"metrics": report.get("metrics", {}), "by_category": report.get("by_category", {})}
    return [(OURS, ours), *report.get("baselines", {}).items()]


def value(summary: dict, metric: str) -> float | int | None:
    """A metric from one summary; ``a.b`` reads a nested figure (``with_context.mrr``)."""
    for part in metric.split("."):
        if not isinstance(summary, dict):
            return None
        summary = summary.get(part)
    return summary if isinstance(summary, (int, float)) and not isinstance(summary, bool) else None


def sections(report: dict) -> list[tuple[str, list[dict]]]:
    """("overall" | category, [summary per system]) in report order."""
    named = systems(report)
    result = [("overall", [entry.get("metrics", {}) for _, entry in named])]
    for category in report.get("by_category", {}):
        result.append((category, [entry.get("by_category", {}).get(category, {}) for _, entry in named]))
    return result


def _table_metrics(report: dict) -> tuple[str, ...]:
    return TABLE_METRICS.get(report.get("dataset"), DEFAULT_TABLE_METRICS) + ABSTENTION_METRICS


def _rows(report: dict) -> list[tuple[str, int | None, str, list[float | None]]]:
    """(section, questions, metric, [value per system]) for every row worth showing."""
    rows = []
    for section, summaries in sections(report):
        questions = summaries[0].get("questions") if summaries else None
        for metric in _table_metrics(report):
            values = [value(summary, metric) for summary in summaries]
            if any(v is not None for v in values):
                rows.append((section, questions, metric, values))
    return rows


def _fmt(number: float | int | None) -> str:
    if number is None:
        return "n/a"
    return str(number) if isinstance(number, int) else f"{number:.3f}"


# --- terminal -------------------------------------------------------------------------------


def provenance(argv: list[str]) -> dict:
    """The command, the commit (and whether the tree had uncommitted changes) and the machine."""
    import os
    import platform
    import shlex
    import subprocess
    from ..paths import PROJECT_ROOT

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    # the reports folder is where this very run may be writing: it does not make the code dirty
    status = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!benchmarks/reports")
    return {"command": shlex.join(argv), "commit": git("rev-parse", "--short", "HEAD"),
            "uncommitted_changes": bool(status) if status is not None else None,
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "system": platform.system()}}


def render_table(report: dict) -> str:
    names = [name for name, _ in systems(report)]
    header = ["category", "n", "metric", *names]
    lines = []
    previous = None
    for section, questions, metric, values in _rows(report):
        # The category and its count are printed once, on its first row.
        first = section != previous
        previous = section
        lines.append([section if first else "", _fmt(questions) if first else "", metric, *map(_fmt, values)])
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(len(header))]
    rendered = [_line(header, widths), _line(["-" * w for w in widths], widths)]
    rendered += [_line(row, widths) for row in lines]
    return "\n".join([_title(report), "", *rendered, *_notes(report)]) + "\n"


def _line(cells: list[str], widths: list[int]) -> str:
    # Text columns align left, numbers right.
    parts = [cell.ljust(w) if i < 3 else cell.rjust(w) for i, (cell, w) in enumerate(zip(cells, widths))]
    return "  ".join(parts).rstrip()


def _title(report: dict) -> str:
    limit = report.get("limit")
    suffix = f", top {limit} per query" if limit else ""
    return f"{report.get('dataset', '?')}: {report.get('questions', 0)} questions{suffix}"


def _notes(report: dict) -> list[str]:
    notes = []
    if "unresolved_evidence" in report:
        notes.append(f"unresolved evidence ids: {report['unresolved_evidence']}")
    if report.get("excluded_without_evidence"):
        notes.append(f"questions without resolvable evidence (not in recall): {report['excluded_without_evidence']}")
    late = report.get("gold_sessions_after_question_date")
    if late and late.get("sessions"):
        notes.append(f"gold sessions dated after the question: {late['sessions']} in {late['questions']} questions")
    via = report.get("via_http")
    if isinstance(via, dict):
        notes.append(f"through {via.get('url')}: {via.get('add_requests')} add request(s), "
                     f"{via.get('messages')} message(s), search top_k {via.get('top_k')}; "
                     f"{via.get('unmapped_hits')} hit(s) not mapped to a turn; abstention not measured")
    if report.get("timing_seconds"):
        notes.append("seconds: " + ", ".join(f"{k} {v}" for k, v in report["timing_seconds"].items()))
    origin = report.get("provenance")
    if origin:
        dirty = " (with uncommitted changes)" if origin.get("uncommitted_changes") else ""
        notes.append(f"produced by: {origin['command']} at commit {origin.get('commit') or 'unknown'}{dirty}")
    return [""] + notes if notes else []


# --- HTML ------------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#1a202c;padding:0 1rem}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}
th,td{padding:.2rem .6rem;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
figure{margin:1rem 0}figcaption{font-weight:600;margin-bottom:.3rem}
.legend span{display:inline-block;margin-right:1rem}
.legend i{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:middle}
svg text{font:11px system-ui,sans-serif;fill:#4a5568}
details{margin-top:1rem}code{font-size:12px}
""".strip()


def render_html(report: dict) -> str:
    dataset = escape(str(report.get("dataset", "?")))
    body = [
        f"<h1>{escape(_title(report))}</h1>",
        _legend(report),
        "<h2>Results</h2>",
        _html_table(report),
        *_html_notes(report),
        *_html_without_late_gold(report),
        "<h2>Charts</h2>",
        _overall_chart(report),
        *(_category_chart(report, metric) for metric in _chart_metrics(report)),
        _html_halves(report),
        _html_abstention_curve(report),
        _html_misses(report),
    ]
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta name=\"generator\" content=\"{escape(GENERATOR)}\">\n"
        f"<title>memory benchmark: {dataset}</title>\n<style>\n{_CSS}\n</style>\n</head>\n"
        f"<body data-dataset=\"{dataset}\">\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _html_halves(report: dict) -> str:
    """Every system's headline figures on the dev (tuned on) and test (reported only) halves."""
    halves = report.get("halves") or {}
    if not halves:
        return ""
    metrics = _table_metrics(report)
    head = "".join(f"<th>{escape(m)}</th>" for m in metrics)
    rows = []
    for half, part in halves.items():
        named = [(OURS, part.get("metrics", {}))] + [(n, b.get("metrics", {})) for n, b in part.get("baselines", {}).items()]
        for name, figures in named:
            cells = "".join(f"<td class=\"num\">{_fmt(value(figures, m))}</td>" for m in metrics)
            rows.append(f"<tr data-half=\"{escape(half)}\" data-system=\"{escape(name)}\"><td>{escape(half)} "
                        f"({part.get('questions', 0)})</td><td>{escape(name)}</td>{cells}</tr>")
    return ("<h2>Dev and test halves</h2><table><tr><th>half (questions)</th><th>system</th>" + head + "</tr>"
            + "".join(rows) + "</table>")


def _html_abstention_curve(report: dict) -> str:
    """Abstention precision / recall / false abstentions over the decision's threshold, per half,
    and over the abstentions' sureness (``features.abstention_sureness``) when measured."""
    confidence = _html_curve(report, "abstention_curve", "abstention_operating_point",
                             "Abstention over the decision threshold",
                             "If the answer abstained whenever its confidence (the best support among eligible "
                             "records) were at or below the threshold (the decision answers only above it).",
                             "confidence")
    margin = report.get("abstention_shipped_margin")
    shipped = ("" if margin is None else
               f" This is the shipped decision's own curve (decision.sureness_margin {margin}: it abstains when "
               "its abstention score is at or above the margin, decision.abstention_score); the abstention "
               "figures above are its point at the margin.")
    sureness = _html_curve(report, "abstention_sureness_curve", "abstention_sureness_operating_point",
                           "Abstention over its sureness",
                           "If the answer abstained whenever its sureness (for a question naming a speaker: by "
                           "how much the question asked of another speaker is better supported than as asked; "
                           "otherwise whether the support test abstains) were at or above the threshold."
                           + shipped, "sureness")
    return "\n".join(part for part in (confidence, sureness) if part)


def _html_curve(report: dict, key: str, point_key: str, title: str, text: str, name: str) -> str:
    curves = [("all", report.get(key) or [])]
    curves += [(half, part.get(key) or []) for half, part in (report.get("halves") or {}).items()]
    if not any(curve for _, curve in curves):
        return ""
    point = (report.get(point_key) or {}).get("point")
    attribute = "threshold" if name == "confidence" else f"{name}-threshold"
    out = [f"<h2>{escape(title)}</h2>",
           f"<p>{escape(text)} The operating point is chosen on the dev half only: "
           + (escape(f"threshold {point['threshold']} (precision {point['precision']}, recall {point['recall']}, "
                     f"false abstentions {point['false_abstention_rate']}; target met: {point['meets_target']})")
              if point else "none") + ".</p>"]
    for half, curve in curves:
        if not curve:
            continue
        rows = "".join(
            f"<tr data-curve=\"{escape(half)}\" data-{attribute}=\"{p['threshold']}\">"
            f"<td class=\"num\">{p['threshold']}</td>"
            f"<td class=\"num\">{p['abstained']}</td><td class=\"num\">{_fmt(p['precision'])}</td>"
            f"<td class=\"num\">{_fmt(p['recall'])}</td><td class=\"num\">{_fmt(p['false_abstention_rate'])}</td></tr>"
            for p in curve)
        out.append(f"<details><summary>{escape(half)} ({name})</summary><table><tr><th>{name} threshold</th>"
                   f"<th>abstained</th><th>precision</th><th>recall</th><th>false abstention rate</th></tr>{rows}"
                   "</table></details>")
    return "\n".join(out)


def _color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _legend(report: dict) -> str:
    items = "".join(
        f"<span><i style=\"background:{_color(i)}\"></i>{escape(name)}</span>"
        for i, (name, _) in enumerate(systems(report))
    )
    return f"<p class=\"legend\">{items}</p>"


def _html_table(report: dict) -> str:
    names = [name for name, _ in systems(report)]
    head = "".join(f"<th>{escape(h)}</th>" for h in ["category", "n", "metric", *names])
    rows = []
    for section, questions, metric, values in _rows(report):
        cells = [escape(section), _fmt(questions), escape(metric)]
        numbers = "".join(f"<td class=\"num\">{_fmt(v)}</td>" for v in values)
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + numbers + "</tr>")
    return f"<table data-table=\"results\">\n<tr>{head}</tr>\n" + "\n".join(rows) + "\n</table>"


def _html_notes(report: dict) -> list[str]:
    notes = [escape(note) for note in _notes(report) if note]
    config = report.get("baseline_config")
    if config:
        notes.append("baselines: <code>" + escape(str(config)) + "</code>")
    return ["<ul>" + "".join(f"<li>{note}</li>" for note in notes) + "</ul>"] if notes else []


def _html_without_late_gold(report: dict) -> list[str]:
    """LongMemEval's second table: every system without the questions whose gold sessions are
    dated after the question (an as-of search cannot see them; the baselines ignore dates)."""
    seen = report.get("without_late_gold")
    if not isinstance(seen, dict) or "metrics" not in seen:
        return []
    subset = {"dataset": report.get("dataset"), "metrics": seen["metrics"], "by_category": {},
              "baselines": seen.get("baselines", {})}
    table = _html_table(subset).replace('data-table="results"', 'data-table="without_late_gold"', 1)
    return [f"<h2>Without late gold ({_fmt(seen.get('questions'))} questions)</h2>",
            "<p>The same figures without the questions whose gold sessions are dated after the question: "
            "an as-of search cannot see those sessions, and the baselines ignore dates.</p>", table]


def _chart_metrics(report: dict) -> tuple[str, ...]:
    return CHART_METRICS.get(report.get("dataset"), DEFAULT_CHART_METRICS)


def _category_chart(report: dict, metric: str) -> str:
    groups = []
    for category, summaries in sections(report)[1:]:
        values = [value(summary, metric) for summary in summaries]
        if any(v is not None for v in values):
            groups.append((category, values))
    return _figure("by_category", metric, f"{metric} by category", groups, report)


def _overall_chart(report: dict) -> str:
    overall = sections(report)[0][1]
    metrics = _chart_metrics(report) + ABSTENTION_METRICS
    groups = [(metric, [value(s, metric) for s in overall]) for metric in metrics]
    groups = [(label, values) for label, values in groups if any(v is not None for v in values)]
    return _figure("overall", "", "overall", groups, report)


def _figure(kind: str, metric: str, caption: str, groups: list[tuple[str, list]], report: dict) -> str:
    names = [name for name, _ in systems(report)]
    return (
        f"<figure class=\"chart\" data-chart=\"{kind}\" data-metric=\"{escape(metric)}\">"
        f"<figcaption>{escape(caption)}</figcaption>\n{_svg(groups, names)}\n</figure>"
    )


def _svg(groups: list[tuple[str, list]], names: list[str]) -> str:
    """Grouped bars on a fixed 0-1 axis (every plotted metric is a rate)."""
    # The wide left margin leaves room for the first slanted label.
    left, top, plot_h, group_w, bar_w = 110, 10, 180, 40 + 18 * len(names), 16
    width = left + max(1, len(groups)) * group_w + 10
    height = top + plot_h + 110
    parts = [f"<svg role=\"img\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">"]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h * (1 - tick)
        parts.append(f"<line x1=\"{left}\" x2=\"{width - 10}\" y1=\"{y:.1f}\" y2=\"{y:.1f}\" stroke=\"#e2e8f0\"/>")
        parts.append(f"<text x=\"{left - 4}\" y=\"{y + 4:.1f}\" text-anchor=\"end\">{tick:g}</text>")
    for g, (label, values) in enumerate(groups):
        x0 = left + g * group_w + 12
        for s, number in enumerate(values):
            parts.append(_bar(x0 + s * (bar_w + 2), top, plot_h, bar_w, names[s], label, number, _color(s)))
        # Labels are slanted: category names ("single-session-preference") are wider than a group.
        cx, cy = x0 + len(values) * (bar_w + 2) / 2, top + plot_h + 14
        parts.append(f"<text x=\"{cx:.1f}\" y=\"{cy}\" text-anchor=\"end\" transform=\"rotate(-30 {cx:.1f} {cy})\">{escape(label)}</text>")
    parts.append("</svg>")
    return "\n".join(parts)


def _bar(x: float, top: float, plot_h: float, bar_w: float, system: str, category: str, number, color: str) -> str:
    attrs = f"data-system=\"{escape(system)}\" data-category=\"{escape(category)}\" data-value=\"{_fmt(number)}\""
    if number is None:
        # An undefined value draws no bar but keeps its slot, so groups stay aligned.
        return f"<g {attrs}><title>{escape(system)} {escape(category)}: n/a</title></g>"
    height = plot_h * max(0.0, min(1.0, float(number)))
    y = top + plot_h - height
    return (
        f"<rect {attrs} x=\"{x:.1f}\" y=\"{y:.1f}\" width=\"{bar_w}\" height=\"{height:.1f}\" fill=\"{color}\">"
        f"<title>{escape(system)} {escape(category)}: {_fmt(number)}</title></rect>"
    )


def _html_misses(report: dict) -> str:
    misses = report.get("misses") or []
    if not misses:
        return "<h2>Misses</h2>\n<p>none</p>"
    head = "<tr><th>category</th><th>reason</th><th>question</th><th>gold</th><th>returned (top 10)</th></tr>"
    rows = [
        "<tr>"
        f"<td>{escape(str(miss.get('category', '')))}</td><td>{escape(str(miss.get('reason', '')))}</td>"
        f"<td>{escape(str(miss.get('question', '')))}</td>"
        f"<td><code>{escape(' '.join(map(str, miss.get('gold', []))))}</code></td>"
        f"<td><code>{escape(' '.join(map(str, miss.get('returned', []))))}</code></td>"
        "</tr>"
        for miss in misses
    ]
    return (
        f"<h2>Misses ({len(misses)})</h2>\n<details data-table=\"misses\"><summary>show</summary>\n"
        f"<table>\n{head}\n" + "\n".join(rows) + "\n</table>\n</details>"
    )
