"""report.html renders in a browser with no network: headless Chromium draws every plot.

A short DamBreak run on two CPU devices (the dambreak program, its path from CMake) writes
report.html; Chromium loads it from file:// and dumps the DOM it built, which must hold every
<svg> of the file, one titled by each column of gauges.csv. A copy of the page with a script
added that measures what was laid out (the page itself has none) must show every picture with a
size and every plot's lines with a length.
Run: python3 tests/test_report_html_chromium.py --exe build/src/dambreak (exit 1 on a failure;
77, which ctest reports as skipped, where no chromium is installed: scripts/setup.sh installs it).
"""
import html
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DAMBREAK = None  # --exe PATH, from the command line
SKIPPED = 77

# Measures each <svg> as laid out: its box, its title, and its lines' and bars' extents.
PROBE = """<script>
const found = [...document.querySelectorAll('svg')].map(svg => {
  const box = svg.getBoundingClientRect();
  const title = [...svg.querySelectorAll('text')].find(t => t.getAttribute('font-weight') === 'bold');
  const widest = sel => Math.max(0, ...[...svg.querySelectorAll(sel)].map(e => e.getBBox().width));
  return {title: title ? title.textContent : '', width: box.width, height: box.height,
          lines: svg.querySelectorAll('polyline, circle').length, line_width: widest('polyline'),
          bars: widest('rect[fill]:not([width="800"]):not([width="12"])')};
});
const out = document.createElement('pre');
out.id = 'layout-probe';
out.textContent = JSON.stringify(found);
document.body.appendChild(out);
</script>
"""


def browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def dump_dom(chromium, page):
    done = subprocess.run([chromium, "--headless", "--disable-gpu", "--no-sandbox",
                           "--no-first-run", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(f"{chromium} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout


class ReportHtmlInChromium(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.chromium = browser()
        cls.scratch = tempfile.TemporaryDirectory()
        out = pathlib.Path(cls.scratch.name) / "run"
        done = subprocess.run([DAMBREAK, "--backend", "cpu", "--devices", "2", "--threads", "1",
                               "--dp", "0.04", "--t-end", "0.02", "--gauge-every", "0.004",
                               "--no-frames", "--output-dir", str(out)],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise AssertionError(f"dambreak failed ({done.returncode}): {done.stderr}")
        cls.page = out / "report.html"
        cls.source = cls.page.read_text(encoding="utf-8")
        header = (out / "gauges.csv").read_text(encoding="utf-8").splitlines()[0]
        cls.columns = header.split(",")[1:]

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_the_dumped_dom_holds_every_plot(self):
        dom = dump_dom(self.chromium, self.page)
        svgs = len(re.findall(r"<svg\b", self.source))
        self.assertGreater(svgs, len(self.columns))
        self.assertEqual(len(re.findall(r"<svg\b", dom)), svgs, "an <svg> was lost in parsing")
        self.assertEqual(len(re.findall(r"<polyline\b", dom)),
                         len(re.findall(r"<polyline\b", self.source)))
        titles = re.findall(r'font-weight="bold">([^<]*)</text>', dom)
        for column in self.columns:
            self.assertIn(column, titles, f"no plot titled {column} in the rendered page")

    def test_every_picture_is_laid_out_with_its_lines_drawn(self):
        probe = self.page.with_name("report_probe.html")
        probe.write_text(self.source.replace("</body>", PROBE + "</body>"), encoding="utf-8")
        dom = dump_dom(self.chromium, probe)
        found = re.search(r'<pre id="layout-probe">(.*?)</pre>', dom, re.S)
        self.assertIsNotNone(found, "the probe script did not run")
        pictures = json.loads(html.unescape(found.group(1)))
        self.assertEqual(len(pictures), len(re.findall(r"<svg\b", self.source)))
        for p in pictures:
            self.assertGreater(p["width"], 200, p)
            self.assertGreater(p["height"], 100, p)
        by_title = {p["title"]: p for p in pictures}
        for column in self.columns:
            plot = by_title[column]
            self.assertGreater(plot["lines"], 0, plot)
            self.assertGreater(plot["line_width"], 100, f"{column}'s line has no length: {plot}")
        bars = by_title["Each device's time loop, stage by stage"]
        self.assertGreater(bars["bars"], 10, bars)


def main():
    global DAMBREAK
    arguments = sys.argv[1:]
    if len(arguments) != 2 or arguments[0] != "--exe":
        print("usage: test_report_html_chromium.py --exe PATH_TO_DAMBREAK", file=sys.stderr)
        return 2
    DAMBREAK = arguments[1]
    if browser() is None:
        print(f"test_report_html_chromium: skipped, none of {', '.join(BROWSERS)} on the PATH "
              "(scripts/setup.sh installs chromium)")
        return SKIPPED
    result = unittest.main(argv=sys.argv[:1], exit=False).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
