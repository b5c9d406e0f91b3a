"""The benchmark report in a real browser: headless Chromium lays the page out and paints it.

The test page is ``render_html`` of a small synthetic report plus one measuring
script (the report itself has none): after layout it writes each bar's rendered
height onto the bar, so the dumped DOM says what the browser drew, not what the
HTML asked for. The screenshot must hold pixels of the bar colours.
Skipped, with the reason, when no Chromium is installed (.ci/run installs Debian's).
"""
from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser

import pytest

from memory.benchmark.report import PALETTE, render_html

BROWSER = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(name)), None)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no Chromium found (apt-get install chromium)")


def summary(recall10, mrr, **extra):
    return {"questions": 4, "recall@5": recall10, "recall@10": recall10, "mrr": mrr,
            "abstention_precision": None, "abstention_recall": None} | extra


REPORT = {
    "dataset": "locomo", "questions": 8, "limit": 10,
    "metrics": summary(0.75, 0.5, abstention_precision=1.0, abstention_recall=0.5),
    "by_category": {"single-hop": summary(0.75, 0.5), "multi-hop": summary(0.5, 0.25)},
    "baselines": {"bm25_turns": {"metrics": summary(0.5, 0.25),
                                 "by_category": {"single-hop": summary(0.5, 0.25), "multi-hop": summary(0.25, 0.0)}}},
    "misses": [],
}

MEASURE = """<script>
for (const bar of document.querySelectorAll("rect[data-system]")) {
  const box = bar.getBoundingClientRect();
  bar.setAttribute("data-rendered-height", box.height.toFixed(1));
  bar.setAttribute("data-rendered-top", box.top.toFixed(1));
}
document.body.setAttribute("data-measured", "yes");
</script>"""


class Bars(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.bars: list[dict] = []
        self.measured = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body" and attrs.get("data-measured") == "yes":
            self.measured = True
        if tag == "rect" and "data-system" in attrs:
            self.bars.append(attrs)


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunks.setdefault(kind, []).append(data[at + 8:at + 8 + length])
        at += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"][0])
    assert depth == 8 and color in (2, 6) and interlace == 0
    step = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
    rows, previous, stride = [], bytearray(width * step), width * step
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line) if step == 3 else bytes(b for j, b in enumerate(line) if j % 4 != 3))
        previous = line
    return width, height, rows


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    work = tmp_path_factory.mktemp("browser")
    page = work / "report.html"
    page.write_text(render_html(REPORT).replace("</body>", MEASURE + "\n</body>"), encoding="utf-8")
    screenshot = work / "page.png"
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={work / 'profile'}", f"--screenshot={screenshot}", "--window-size=1280,2400",
               "--dump-dom", page.as_uri()]
    done = subprocess.run(command, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    return done.stdout.decode("utf-8"), screenshot


def test_the_browser_drew_every_defined_bar_with_its_height(rendered):
    dom, _ = rendered
    parser = Bars()
    parser.feed(dom)
    assert parser.measured, "the measuring script did not run"
    assert len(parser.bars) >= 10
    for bar in parser.bars:
        value, drawn = float(bar["data-value"]), float(bar["data-rendered-height"])
        if value > 0:
            assert drawn > 0, bar
        assert drawn == pytest.approx(float(bar["height"]), abs=1.0)   # the browser kept the chart's scale
    # a larger value is a taller bar
    ours = {b["data-category"]: float(b["data-rendered-height"]) for b in parser.bars
            if b["data-system"] == "ours" and b["data-category"] in ("single-hop", "multi-hop")}
    assert ours["single-hop"] > ours["multi-hop"] > 0


def test_the_charts_are_in_the_dom(rendered):
    dom, _ = rendered
    assert re.search(r'<figure class="chart" data-chart="overall"', dom)
    assert len(re.findall(r'data-chart="by_category"', dom)) >= 2


def test_the_screenshot_holds_the_bar_colours(rendered):
    _, screenshot = rendered
    width, height, rows = png_pixels(screenshot.read_bytes())
    assert (width, height) == (1280, 2400)
    wanted = {bytes.fromhex(color.lstrip("#")) for color in PALETTE[:2]}
    found = {color: 0 for color in wanted}
    for row in rows:
        for x in range(0, len(row), 3):
            pixel = row[x:x + 3]
            if pixel in found:
                found[pixel] += 1
    assert all(count > 100 for count in found.values()), found
