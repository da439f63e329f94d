"""The app served for a bench: ``streamlit run app.py`` on a free local port, optionally pinned to some CPUs.

Launched as ``tests/test_e2e_browser.py`` launches it (headless, 127.0.0.1, its own SQLite file), so a
browser bench drives the same server the end-to-end test does; the server's peak memory is read from
``/proc``.

>>> with serve(cpus="0") as server:  # doctest: +SKIP
...     server.url, server.peak_rss_mb()
('http://127.0.0.1:41233', 312.5)
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Server:
    """A running app: where to browse, and the process to measure."""

    url: str
    pid: int
    log: Path

    def peak_rss_mb(self) -> float:
        """The server's peak resident memory so far (``VmHWM``), in MB."""
        return _status_kb(self.pid, "VmHWM") / 1024

    def rss_mb(self) -> float:
        """The server's resident memory now (``VmRSS``), in MB."""
        return _status_kb(self.pid, "VmRSS") / 1024

    def cpu_seconds(self) -> float:
        """CPU time the server has used so far, all its threads, user and system."""
        return proc_stat(self.pid)[1]


def tree_cpu_seconds(root: int, skip: int | None = None) -> float:
    """CPU time used so far by ``root``'s descendants (not ``root``), leaving out ``skip`` and its own."""
    table = process_table()
    parents = {pid: parent for pid, (parent, _) in table.items()}
    times = {pid: seconds for pid, (_, seconds) in table.items()}

    def under_root(pid: int) -> bool:
        while pid in parents and pid != skip:
            pid = parents[pid]
            if pid == root:
                return True
        return False

    return sum(seconds for pid, seconds in times.items() if under_root(pid))


def process_table() -> dict[int, tuple[int, float]]:
    """Every process now: its parent and the CPU seconds it has used (``proc_stat``)."""
    table = {}
    for folder in Path("/proc").glob("[0-9]*"):
        try:
            table[int(folder.name)] = proc_stat(int(folder.name))
        except OSError:  # the process ended meanwhile
            continue
    return table


def proc_stat(pid: int) -> tuple[int, float]:
    """A process's parent and the CPU seconds it has used (user + system, all threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _status_kb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return float(line.split()[1])
    raise ValueError(f"/proc/{pid}/status has no {field}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(
    app_dir: Path = REPO, cpus: str | None = None, timeout_s: float = 60, script: Path | None = None
) -> Iterator[Server]:
    """``streamlit run app.py`` from ``app_dir`` (under ``taskset -c cpus`` when given) until the block ends.

    ``script``: run that file instead of ``app.py``, still in ``app_dir`` and importing its packages (a bench's shim).
    """
    port = free_port()
    pin = ["taskset", "-c", cpus] if cpus else []  # taskset execs the server: the pid stays the server's
    command = [
        *pin,
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(script or "app.py"),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--server.fileWatcherType",
        "none",
    ]
    with tempfile.TemporaryDirectory(prefix="cribcam_bench_") as tmp:
        log_path = Path(tmp) / "streamlit.log"
        env = {**os.environ, "CRIBCAM_DB": str(Path(tmp) / "games.sqlite")}
        if script is not None:  # the shim's own folder comes first on sys.path: app_dir's packages next
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(app_dir), os.environ.get("PYTHONPATH")]))
        with log_path.open("w") as log:
            server = subprocess.Popen(command, cwd=app_dir, env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                _wait_for_port(server, port, log_path, timeout_s)
                yield Server(f"http://127.0.0.1:{port}", server.pid, log_path)
            finally:
                server.terminate()
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()


def _wait_for_port(server: subprocess.Popen, port: int, log: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if server.poll() is not None:
                raise RuntimeError(f"streamlit exited: {log.read_text()[-2000:]}") from None
            time.sleep(0.3)
    raise RuntimeError(f"streamlit did not listen on port {port} within {timeout_s:.0f} s")
