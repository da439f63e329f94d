"""Many phones at once on one server: upload to cards when N phones send a 12 MP photo together.

    python bench/bench_load.py [--phones 12] [--rounds 1] [--compare DIR ...] [--wire]

One ``streamlit run app.py`` (``bench/app_server.py``) and one headless Chromium with a context per phone
(412 px wide, each its own Streamlit session) on the Count page. One phone reads a photo first (the
detector loads); then N phones open the page and all choose the same 12 MP JPEG at once: the sample hand
(``ui.sample.sample_photo``) scaled to 4000 x 3000, quality 92. Per phone: seconds from choosing the
photo to the count shown, checked against the hand's count; the server's own "read in" time; and for the
server its peak RSS (``VmHWM``). Measured in one run with the server on every core and pinned to CPU 0
(``taskset -c 0``), the baseline; each ``--compare DIR`` adds the app served from another folder (say a
copy from before a change) on every core. Rounds alternate the servers so machine noise hits each alike.

Columns: phones counted right; seconds to the count, median and slowest; photos per second over the burst;
the server's "read in" median (queueing included); server and phone CPU seconds per photo; the server's RSS
after the first photo and its peak. The phones' Chromium runs on the same cores as the server, so on a small
machine their rendering is most of the work; the CPU columns and the peak are the figures noise hurts least.

With ``--wire`` the phones are ``bench/wire_phone.py`` clients instead: each does over the network what the page
does (the same upload, the same rerun) but draws nothing, so the cores are the server's, as with real phones.
Seconds run to the count's element arriving, not to it being drawn; the phone CPU column is the clients'.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.app_server import Server, serve, tree_cpu_seconds  # noqa: E402
from scorer.hand import score_hand  # noqa: E402
from tests.test_e2e_browser import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402  the browser the e2e test drives
from ui.sample import sample_photo  # noqa: E402

HAND, STARTER = ("5H", "5C", "5S", "JD"), "5D"
PHOTO_SIZE = (4000, 3000)
TARGET_MAX_S = 3.0
TARGET_PEAK_MB = 800
IDLE = """() => {
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  const running = status && /Running|Stop/.test(status.innerText);
  return !running && !document.querySelector('[data-stale="true"]');
}"""
"""The page has finished its script run (as tests/test_e2e_browser.py waits for it)."""
METRIC = '.cc-total, [data-testid="stMetricValue"]'
"""The Count page's total (``st.metric`` in trees from before it became HTML, so ``--compare`` serves them too)."""
COUNTED = f"() => document.querySelector('{METRIC}') !== null"
POLL_MS = 50
"""Pages check for the count this often (a timer, not every animation frame: a dozen pages polling each
frame take CPU from the server they are measuring)."""


def make_photo(path: Path, hand: tuple[str, ...] = HAND, starter: str = STARTER) -> Path:
    """The sample photo of ``hand`` and ``starter`` scaled up to 12 MP, as a phone camera would give it."""
    small = cv2.imdecode(np.frombuffer(sample_photo(list(hand), starter), np.uint8), cv2.IMREAD_COLOR)
    big = cv2.resize(small, PHOTO_SIZE, interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


@dataclass(frozen=True)
class Phone:
    """How one phone's upload went: seconds to the count shown (None: never shown), the count, the read time."""

    seconds: float | None
    count: str | None
    read_s: float | None


@dataclass(frozen=True)
class Burst:
    """One server's figures for N phones at once."""

    name: str
    phones: list[Phone]
    wall_s: float
    cpu_s: float
    """Server CPU seconds (all threads) over the burst."""
    client_cpu_s: float
    """The phones' CPU seconds (Chromium and Playwright's driver) over the burst."""
    warm_rss_mb: float
    peak_rss_mb: float

    def counted(self, expected: str) -> int:
        return sum(p.count == expected for p in self.phones)

    def times(self) -> list[float]:
        return [p.seconds for p in self.phones if p.seconds is not None]

    def median_s(self) -> float:
        return statistics.median(self.times()) if self.times() else float("nan")

    def max_s(self) -> float:
        return max(self.times()) if len(self.times()) == len(self.phones) else float("inf")

    def per_second(self) -> float:
        return len(self.times()) / self.wall_s

    def read_median_s(self) -> float:
        reads = [p.read_s for p in self.phones if p.read_s is not None]
        return statistics.median(reads) if reads else float("nan")


async def open_phone(browser, url: str, opening: asyncio.Semaphore):
    async with opening:  # a few at a time: a dozen page loads at once time out on a busy machine
        return await _open_phone(browser, url)


async def _open_phone(browser, url: str):
    context = await browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = await context.new_page()
    await page.goto(f"{url}/?page=count", timeout=120000)
    await page.locator('input[type="file"]').first.wait_for(state="attached", timeout=60000)
    await page.wait_for_timeout(400)
    await page.wait_for_function(IDLE, polling=POLL_MS, timeout=60000)
    return page


async def upload(page, photo: Path, timeout_s: float) -> Phone:
    """Choose the photo and wait for the count; the time is from choosing to the count on screen."""
    start = time.perf_counter()
    await page.locator('input[type="file"]').first.set_input_files(str(photo))
    try:
        await page.wait_for_function(COUNTED, polling=POLL_MS, timeout=timeout_s * 1000)
    except Exception:  # playwright's TimeoutError: no count (a wrong or missing card, or an error)
        return Phone(None, None, None)
    seconds = time.perf_counter() - start
    count = (await page.locator(METRIC).first.inner_text()).strip()
    # "read in" is in the drawn photo's caption ("Read in", a caption of its own, in trees before stop 21)
    caption = await page.get_by_text(re.compile("read in ", re.IGNORECASE)).first.inner_text()
    found = re.search(r"[Rr]ead in ([\d.]+) s", caption)
    return Phone(seconds, count, float(found.group(1)) if found else None)


async def burst(browser, server: Server, name: str, phones: int, photo: Path, timeout_s: float) -> Burst:
    """One phone reads first (the detector loads), then ``phones`` phones upload at once."""
    opening = asyncio.Semaphore(3)
    warm = await open_phone(browser, server.url, opening)
    await upload(warm, photo, timeout_s)
    await warm.context.close()
    warm_rss = server.rss_mb()
    pages = await asyncio.gather(*(open_phone(browser, server.url, opening) for _ in range(phones)))
    cpu, client, start = server.cpu_seconds(), tree_cpu_seconds(os.getpid(), server.pid), time.perf_counter()
    results = await asyncio.gather(*(upload(page, photo, timeout_s) for page in pages))
    wall = time.perf_counter() - start
    cpu, client = server.cpu_seconds() - cpu, tree_cpu_seconds(os.getpid(), server.pid) - client
    peak = server.peak_rss_mb()
    await asyncio.gather(*(page.context.close() for page in pages))
    return Burst(name, list(results), wall, cpu, client, warm_rss, peak)


async def wire_burst(server: Server, name: str, phones: int, photo: Path, timeout_s: float) -> Burst:
    """``burst`` with wire phones: one reads first, then ``phones`` connect and upload at once."""
    from bench.wire_phone import WirePhone

    data = photo.read_bytes()
    warm = await WirePhone(server.url).open()
    await warm.upload(photo.name, data, timeout_s)
    await warm.close()
    warm_rss = server.rss_mb()
    clients = await asyncio.gather(*(WirePhone(server.url).open() for _ in range(phones)))
    cpu, client, start = server.cpu_seconds(), time.process_time(), time.perf_counter()  # the phones are this process
    results = await asyncio.gather(*(c.upload(photo.name, data, timeout_s) for c in clients))
    wall = time.perf_counter() - start
    cpu, client = server.cpu_seconds() - cpu, time.process_time() - client
    peak = server.peak_rss_mb()
    await asyncio.gather(*(c.close() for c in clients))
    return Burst(name, [Phone(*r) for r in results], wall, cpu, client, warm_rss, peak)


def _servers(args: argparse.Namespace) -> list[tuple[str, Path, str | None]]:
    servers = [("all cores", REPO, None), ("1 core (cpu 0)", REPO, "0")]
    return servers + [(f"{folder.name}, all cores", folder, None) for folder in args.compare]


async def run_wire(args: argparse.Namespace, photo: Path, expected: str) -> list[Burst]:
    bursts = []
    for _ in range(args.rounds):
        for name, app_dir, cpus in _servers(args):
            with serve(app_dir, cpus) as server:
                result = await wire_burst(server, f"wire, {name}", args.phones, photo, args.timeout)
            print_row(result, expected)
            bursts.append(result)
    return bursts


async def run(args: argparse.Namespace, photo: Path, expected: str) -> list[Burst]:
    from playwright.async_api import async_playwright

    servers = _servers(args)
    bursts = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for _ in range(args.rounds):
            for name, app_dir, cpus in servers:
                with serve(app_dir, cpus) as server:
                    result = await burst(browser, server, name, args.phones, photo, args.timeout)
                print_row(result, expected)
                bursts.append(result)
        await browser.close()
    return bursts


HEADER = (
    f"{'server':<24} {'counted':>7} {'median s':>8} {'max s':>6} {'photos/s':>8} {'read s':>6} {'cpu s':>6} "
    f"{'phone cpu s':>11} {'warm MB':>7} {'peak MB':>7}"
)


def print_row(b: Burst, expected: str) -> None:
    print(
        f"{b.name:<24} {b.counted(expected):>3}/{len(b.phones):<3} {b.median_s():>8.2f} {b.max_s():>6.2f} "
        f"{b.per_second():>8.2f} {b.read_median_s():>6.2f} {b.cpu_s / len(b.phones):>6.2f} "
        f"{b.client_cpu_s / len(b.phones):>11.2f} {b.warm_rss_mb:>7.0f} {b.peak_rss_mb:>7.0f}",
        flush=True,
    )


def summary(bursts: list[Burst], expected: str) -> None:
    """Medians over rounds per server, the ratios against the 1-core baseline, and the targets."""
    names = list(dict.fromkeys(b.name for b in bursts))
    figures = {}
    for name in names:
        mine = [b for b in bursts if b.name == name]
        figures[name] = {
            "median": statistics.median(b.median_s() for b in mine),
            "max": statistics.median(b.max_s() for b in mine),
            "rate": statistics.median(b.per_second() for b in mine),
            "peak": statistics.median(b.peak_rss_mb for b in mine),
            "cpu": statistics.median(b.cpu_s / len(b.phones) for b in mine),
            "all": all(b.counted(expected) == len(b.phones) for b in mine),
        }
    base, this = figures[names[1]], figures[names[0]]
    print(
        f"1 core / all cores: median {base['median'] / this['median']:.2f}x, slowest {base['max'] / this['max']:.2f}x, "
        f"photos/s {this['rate'] / base['rate']:.2f}x more on all cores"
    )
    for name in names[2:]:
        other = figures[name]
        print(
            f"{name} / this tree (all cores): median {other['median'] / this['median']:.2f}x, "
            f"slowest {other['max'] / this['max']:.2f}x, server CPU per photo {other['cpu'] / this['cpu']:.2f}x, "
            f"peak RSS {other['peak'] / this['peak']:.2f}x"
        )
    met = this["all"] and this["max"] < TARGET_MAX_S and this["peak"] < TARGET_PEAK_MB
    print(
        f"targets (all cores: every phone counted, slowest under {TARGET_MAX_S:.0f} s, peak under {TARGET_PEAK_MB} "
        f"MB): {'met' if met else 'missed'} (counted: {this['all']}, slowest {this['max']:.2f} s, "
        f"peak {this['peak']:.0f} MB)"
    )


def _busy() -> str:
    """How busy the machine is: load average, and the share of time some task waited for a CPU (PSI)."""
    pressure = Path("/proc/pressure/cpu")
    waited = re.search(r"avg60=([\d.]+)", pressure.read_text()) if pressure.exists() else None
    return f"load average {os.getloadavg()[0]:.1f}" + (f", CPU pressure {waited.group(1)}%" if waited else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=1, help="times each server is measured, alternately")
    parser.add_argument(
        "--compare", type=Path, action="append", default=[], help="also serve app.py from this folder (all cores)"
    )
    parser.add_argument("--timeout", type=float, default=60, help="seconds a phone waits for its count")
    parser.add_argument("--wire", action="store_true", help="phones without a browser (bench/wire_phone.py)")
    args = parser.parse_args()
    if not args.wire and not CHROMIUM.exists():
        print(f"No chromium at {CHROMIUM} (apt-get install chromium).", file=sys.stderr)
        return 2
    expected = str(score_hand(list(HAND), STARTER).total)
    with tempfile.TemporaryDirectory() as tmp:
        photo = make_photo(Path(tmp) / "phone_12mp.jpg")
        print(
            f"{args.phones} phones, {photo.stat().st_size / 1e6:.1f} MB 12 MP photo of {' '.join(HAND)} + {STARTER} "
            f"(count {expected}), {len(os.sched_getaffinity(0))} cores; at the start {_busy()}"
        )
        print(HEADER)
        bursts = asyncio.run((run_wire if args.wire else run)(args, photo, expected))
    summary(bursts, expected)
    print(f"at the end {_busy()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
