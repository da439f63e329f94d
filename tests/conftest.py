"""Shared fixtures: the games database (the app's SQLite file; each backend), ``streamlit run app.py`` servers, and
``scripts/`` modules with a small synthetic set to run them on.

PostgreSQL tests need a server named by ``CRIBCAM_TEST_PG`` (``source scripts/start_test_postgres.sh`` starts a
private one and sets it; ``.ci/run`` does); without it they skip and say so.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODELS = Path(os.environ.get("CRIBCAM_MODELS") or ROOT / "models").resolve()
"""The models the model tests read: a candidate folder named by ``CRIBCAM_MODELS`` (to check it before it ships,
as the app would read it), else the shipped ``models/``."""
PG_ENV = "CRIBCAM_TEST_PG"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh SQLite games file that the app (``CRIBCAM_DB``) and ``GameStore()`` use for this test."""
    path = tmp_path / "games.sqlite"
    monkeypatch.setenv("CRIBCAM_DB", str(path))
    return path


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A URL on the test server whose games live in a schema of this test's own, dropped after it."""
    import psycopg

    from ui.store_postgres import close_pool

    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"no PostgreSQL server: {PG_ENV} is not set (source scripts/start_test_postgres.sh starts one)")
    schema = f"test_{secrets.token_hex(6)}"
    try:
        with psycopg.connect(base, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f"CREATE SCHEMA {schema}")
    except psycopg.OperationalError as error:
        pytest.fail(f"{PG_ENV} is set but its server cannot be reached ({error}); run scripts/start_test_postgres.sh.")
    url = f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    yield url
    close_pool(url)
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's games live, once on each backend: a fresh SQLite file, then a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def streamlit_apps(tmp_path: Path) -> Iterator[Callable[..., list[str]]]:
    """``start(database, count=1)``: that many ``streamlit run app.py`` processes on free local ports, all with
    ``CRIBCAM_DB=database``, started together; returns their addresses once each answers. All stop after the test."""
    servers: list[subprocess.Popen] = []

    def start(database: str, count: int = 1) -> list[str]:
        env = dict(os.environ, CRIBCAM_DB=database)
        ports = []
        for _ in range(count):
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                ports.append(probe.getsockname()[1])
            log = tmp_path / f"streamlit_{ports[-1]}.log"
            command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
            command += ["--browser.gatherUsageStats", "false", "--server.address", "127.0.0.1"]
            command += ["--server.port", str(ports[-1])]
            with log.open("w") as out:
                servers.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT))
        for port, server in zip(ports, servers[-count:], strict=True):
            _wait_for(port, server, tmp_path / f"streamlit_{port}.log")
        return [f"http://127.0.0.1:{port}" for port in ports]

    yield start
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def _wait_for(port: int, server: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if server.poll() is not None:
                pytest.fail(f"streamlit on port {port} exited: {log.read_text()[-2000:]}")
            time.sleep(0.3)
    pytest.fail(f"streamlit on port {port} did not answer within {seconds:.0f} s: {log.read_text()[-2000:]}")


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` imported as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def two_deck_set(tmp_path: Path) -> Path:
    """Four synthetic photos of two test decks ("b" is val, so the val split holds two photos); skipped without
    the shipped models, which every script run on it needs."""
    from vision.training.synth import generate
    from vision.training.synth.testdeck import make_test_deck

    if not (ROOT / "models" / "cribcam.json").is_file():
        pytest.skip("needs the shipped models")
    decks = [make_test_deck("a"), make_test_deck("b")]
    out = tmp_path / "set"
    generate(out, n=4, seed=3, imgsz=640, val_fraction=0.5, decks=decks, val_decks=["b"], progress=False)
    return out
