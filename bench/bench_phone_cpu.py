"""One phone's CPU for one photo: Chromium CPU-seconds from choosing a 12 MP photo to the count shown and settled.

    python bench/bench_phone_cpu.py [--uploads 4] [--wait 4] [--compare DIR ...]

One ``streamlit run app.py`` (``bench/app_server.py``) and one headless Chromium at phone width (as
``bench/bench_load.py`` drives them). Each upload opens the Count page afresh, waits for it to settle, then
chooses the 12 MP photo (``bench_load.make_photo``) and waits for the count and for the page to go idle.
CPU-seconds, not wall time (the machine is shared): Chromium's by process kind (renderer, browser, gpu and
other helpers), Playwright's driver, and the server's. ``runs`` is the script runs the upload caused (the
"script_finished" messages the page got).

Every upload is made twice: as is, and with its reading held back ``--wait`` seconds (a shim around app.py
sleeps before reading a photo marked so), as a phone waits behind a dozen others in ``bench_load``; the
difference gives ``wait/s``, what a page costs per second it waits. Each ``--compare DIR`` serves app.py from
another folder (a copy of ``app.py``, ``ui/`` and ``.streamlit/`` with a change; its other packages come from
this tree); servers alternate upload by upload, so machine noise hits each alike. Medians are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.app_server import Server, proc_stat, process_table, serve  # noqa: E402
from bench.bench_load import COUNTED, IDLE, make_photo  # noqa: E402
from tests.test_e2e_browser import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402

POLL_MS = 100
SETTLE_MS = 600
WAIT_MARK = b"cribcam-bench-wait"
SHIM = """import time

from ui import photos

_read_with = getattr(photos, "_unqueued", photos._read_with)  # every rerun runs this file: wrap once


def _queued(data, detector):
    if data.endswith({mark!r}):  # the photo that waits, as behind a dozen others, before it is read
        time.sleep({seconds})
    return _read_with(data, detector)


photos._unqueued, photos._read_with = _read_with, _queued
exec(compile(open("app.py").read(), "app.py", "exec"))
"""
KINDS = ("renderer", "browser", "gpu-process", "other")


@dataclass
class Upload:
    """One upload's CPU-seconds by Chromium process kind, the driver's, the server's, and its script runs."""

    chromium: dict[str, float]
    driver: float
    server: float
    runs: int
    counted: bool

    @property
    def phone(self) -> float:
        return sum(self.chromium.values())


@dataclass
class Variant:
    name: str
    folder: Path
    uploads: list[Upload] = field(default_factory=list)
    waited: list[Upload] = field(default_factory=list)


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for pid, (parent, _) in process_table().items():
        tree.setdefault(parent, []).append(pid)
    return tree


def _kind(pid: int) -> str:
    """A Chromium process's kind from its ``--type=`` flag (none: the browser process)."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()  # Chromium rewrites its own
    except OSError:
        return "other"
    if not args or b"chrom" not in args[0]:
        return "other"
    kinds = [a.split(b"=", 1)[1].decode() for a in args if a.startswith(b"--type=")]
    if not kinds:
        return "browser"
    return kinds[0] if kinds[0] in KINDS else "other"


def cpu_by_pid(server_pid: int) -> dict[int, tuple[str, float]]:
    """CPU-seconds so far of each process under this one but the server: Chromium's by kind, and the driver."""
    tree = _children()
    found: dict[int, tuple[str, float]] = {}
    for child in tree.get(os.getpid(), []):
        if child == server_pid:
            continue
        stack = [child]
        while stack:
            pid = stack.pop()
            stack.extend(tree.get(pid, []))
            try:
                found[pid] = ("driver" if pid == child else _kind(pid), proc_stat(pid)[1])
            except OSError:  # ended meanwhile
                continue
    return found


def cpu_spent(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU-seconds spent between two ``cpu_by_pid`` snapshots, by kind (processes that ended in between are lost)."""
    spent = dict.fromkeys((*KINDS, "driver"), 0.0)
    for pid, (kind, seconds) in after.items():
        spent[kind] += seconds - before.get(pid, (kind, 0.0))[1]
    return spent


async def _open(browser, url: str):
    context = await browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = await context.new_page()
    runs = [0]

    def on_socket(socket) -> None:
        socket.on("framereceived", lambda payload: _count_run(payload, runs))

    page.on("websocket", on_socket)
    await page.goto(f"{url}/?page=count", timeout=120000)
    await page.locator('input[type="file"]').first.wait_for(state="attached", timeout=60000)
    await _settle(page)
    return page, runs


def _count_run(payload: str | bytes, runs: list[int]) -> None:
    """Count the server's "script finished" messages (one per script run the page saw)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if not isinstance(payload, bytes):
        return
    try:
        message = ForwardMsg.FromString(payload)
    except Exception:  # not a ForwardMsg
        return
    runs[0] += message.WhichOneof("type") == "script_finished"


async def _settle(page) -> None:
    await page.wait_for_timeout(SETTLE_MS)
    await page.wait_for_function(IDLE, polling=POLL_MS, timeout=60000)
    await page.wait_for_timeout(SETTLE_MS)


async def upload_once(browser, server: Server, photo: Path, timeout_s: float) -> Upload:
    """A fresh Count page; CPU from choosing the photo to the count shown and the page settled."""
    page, runs = await _open(browser, server.url)
    before, cpu, start_runs = cpu_by_pid(server.pid), server.cpu_seconds(), runs[0]
    await page.locator('input[type="file"]').first.set_input_files(str(photo))
    counted = True
    try:
        await page.wait_for_function(COUNTED, polling=POLL_MS, timeout=timeout_s * 1000)
    except Exception:  # playwright's TimeoutError: no count shown
        counted = False
    await _settle(page)
    spent = cpu_spent(before, cpu_by_pid(server.pid))
    await page.context.close()
    return Upload(
        {k: spent[k] for k in KINDS}, spent["driver"], server.cpu_seconds() - cpu, runs[0] - start_runs, counted
    )


def shim(folder: Path, wait_s: float) -> Path:
    """``app.py`` behind a reader that waits ``wait_s`` before a photo ending in ``WAIT_MARK``."""
    path = folder / "bench_shim.py"
    path.write_text(SHIM.format(mark=WAIT_MARK, seconds=wait_s))
    return path


async def run(variants: list[Variant], args: argparse.Namespace, photos: tuple[Path, Path]) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p, contextlib.AsyncExitStack() as stack:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        stack.push_async_callback(browser.close)
        script = shim(Path(stack.enter_context(tempfile.TemporaryDirectory())), args.wait)
        live = [stack.enter_context(serve(v.folder, script=script)) for v in variants]
        for server in live:  # the first photo loads the detector
            await upload_once(browser, server, photos[0], args.timeout)
        for round_ in range(args.uploads):
            for variant, server in zip(variants, live, strict=True):
                for photo, kept in zip(photos, (variant.uploads, variant.waited), strict=True):
                    kept.append(await upload_once(browser, server, photo, args.timeout))
                    print_row(f"{variant.name} #{round_ + 1}{'' if photo == photos[0] else ' waits'}", kept[-1])


HEADER = (
    f"{'variant':<28} {'phone':>6} " + " ".join(f"{k[:8]:>8}" for k in KINDS) + f" {'driver':>6} {'server':>6} runs ok"
)


def print_row(name: str, u: Upload) -> None:
    kinds = " ".join(f"{u.chromium[k]:>8.2f}" for k in KINDS)
    print(f"{name:<28} {u.phone:>6.2f} {kinds} {u.driver:>6.2f} {u.server:>6.2f} {u.runs:>4} {u.counted}", flush=True)


def median_upload(uploads: list[Upload]) -> Upload:
    med = statistics.median
    return Upload(
        {k: med(u.chromium[k] for u in uploads) for k in KINDS},
        med(u.driver for u in uploads),
        med(u.server for u in uploads),
        round(med(u.runs for u in uploads)),
        all(u.counted for u in uploads),
    )


def summary(variants: list[Variant], wait_s: float) -> None:
    """Medians per variant, Chromium's CPU per second of waiting, and each variant against this tree."""
    print(f"medians; 'wait/s': Chromium CPU-seconds per second a page waits for its reading ({wait_s:g} s waits)")
    base = None
    for variant in variants:
        plain, waited = median_upload(variant.uploads), median_upload(variant.waited)
        rate = (waited.phone - plain.phone) / wait_s
        print_row(variant.name, plain)
        print(f"{'':<28} wait/s {rate:.3f}", end="")
        base = base or (plain.phone, rate)
        print(f"; phone CPU {plain.phone / base[0]:.2f}x this tree's" if variant is not variants[0] else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=4, help="measured uploads per server")
    parser.add_argument("--compare", type=Path, action="append", default=[], help="also serve app.py from here")
    parser.add_argument("--wait", type=float, default=4, help="seconds the waiting photo waits before it is read")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for the count")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"No chromium at {CHROMIUM} (apt-get install chromium).", file=sys.stderr)
        return 2
    variants = [Variant("this tree", REPO)] + [Variant(folder.name, folder) for folder in args.compare]
    with tempfile.TemporaryDirectory() as tmp:
        photo = make_photo(Path(tmp) / "phone_12mp.jpg")
        waiting = Path(tmp) / "phone_12mp_waits.jpg"
        waiting.write_bytes(photo.read_bytes() + WAIT_MARK)  # bytes after a JPEG's end are ignored
        print(f"Chromium CPU-seconds per upload of a {photo.stat().st_size / 1e6:.1f} MB 12 MP photo")
        print(HEADER)
        asyncio.run(run(variants, args, (photo, waiting)))
    summary(variants, args.wait)
    return 0


if __name__ == "__main__":
    sys.exit(main())
