"""A real FlaskBB 3.0.0rc5 forum (+ conversations plugin) on 127.0.0.1, installed from PyPI, for live tests.

    python3 tests/live/flaskbb_server.py install     # venv + seeded template database (cached; CI warm-up)
    python3 tests/live/flaskbb_server.py start DIR   # a fresh forum in DIR; prints its URL; `stop DIR` ends it

FlaskBB needs Python >= 3.12 while forumbot runs on 3.11, so the forum lives in its own venv, cached under
$FORUMBOT_FLASKBB_CACHE (default ~/.cache/forumbot-flaskbb) and keyed by the pinned versions: only the first
run pays for pip (~1 min) and the bootstrap (~30 s). Each forum started copies the seeded template database,
so every test session gets an empty board with the same accounts.

Traps (learnt on a real install): FlaskBB 2.2.0, the newest "final", crashes at import on 3.12, so 3.0.0rc5 is
pinned with the plugin versions that work with it; the default logging config writes into site-packages/logs
(USE_DEFAULT_LOGGING = False); without REDIS_ENABLED = False it wants a Redis; each `flaskbb users new`
re-creates the app (~7 s), so accounts are seeded in one process (flaskbb_seed.py).

`Unavailable` is raised, with a one-line reason, when this machine cannot run the forum (no Python >= 3.12,
pip cannot reach the packages, the server does not come up); the live tests skip on it.
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from boards import HANG_GUARD

HERE = Path(__file__).resolve().parent
CONSTRAINTS = HERE / "flaskbb-constraints.txt"
SEED = HERE / "flaskbb_seed.py"
PACKAGES = ("flaskbb==3.0.0rc5", "flaskbb-plugin-conversations==3.0.7", "flaskbb-plugin-portal==3.0.4")
FAILED_INSTALL_TTL = 3600


class Unavailable(Exception):
    """This machine cannot run the live forum; str() is the one-line reason."""


@dataclass(frozen=True)
class Account:
    name: str
    password: str
    group: str = "member"

    @property
    def email(self) -> str:
        return f"{self.name}@example.test"


ADMIN = Account("admin", "admin-pass-123", "admin")
GM = Account("gm", "gm-pass-12345", "member")
BOT = Account("forumbot", "forumbot-pass-123", "member")
PLAYERS = tuple(Account(n, f"{n}-pass-123") for n in
                ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"))
SEEDED = (GM, BOT, *PLAYERS)
WELCOME_FORUM = 1  # created by the bootstrap: new topics go to /1/topic/new


def cache_root() -> Path:
    return Path(os.environ.get("FORUMBOT_FLASKBB_CACHE") or Path.home() / ".cache" / "forumbot-flaskbb")


def find_python() -> str | None:
    """A Python >= 3.12: $PYTHON312, python3.1x on PATH, then pyenv's versions."""
    candidates = [os.environ.get("PYTHON312", ""), "python3.14", "python3.13", "python3.12"]
    roots = [os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv"), "/root/.pyenv"]
    for root in filter(None, roots):
        candidates += sorted(glob.glob(f"{root}/versions/3.1[2-9]*/bin/python3"), reverse=True)
    for c in filter(None, candidates):
        exe = shutil.which(c) or (c if os.path.isfile(c) and os.access(c, os.X_OK) else None)
        if not exe:
            continue
        try:
            ok = subprocess.run([exe, "-c", "import sys, venv; assert sys.version_info >= (3, 12)"],
                                capture_output=True, timeout=HANG_GUARD).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return exe
    return None


def _version(python: str) -> str:
    return subprocess.run([python, "-c", "import sys; print(sys.version)"], capture_output=True, text=True,
                          timeout=HANG_GUARD).stdout.strip()


def _key(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    """One installer at a time (a CI warm-up and a test run may overlap)."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _run(cmd: list[str], what: str, timeout: float, **kw) -> subprocess.CompletedProcess:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        raise Unavailable(f"{what}: no answer within {timeout:.0f} s") from None
    if done.returncode != 0:
        lines = [ln for ln in (done.stderr + done.stdout).splitlines()
                 if ln.strip() and not ln.startswith("WARNING: Location")]
        raise Unavailable(f"{what} failed: {lines[-1] if lines else 'exit ' + str(done.returncode)}")
    return done


def install() -> Path:
    """The cached venv with FlaskBB, built if missing. Returns the venv directory."""
    python = find_python()
    if python is None:
        raise Unavailable("no Python >= 3.12 for FlaskBB (set PYTHON312, or install python3.12)")
    key = _key(CONSTRAINTS.read_text(), *PACKAGES, _version(python))
    root = cache_root()
    venv = root / f"venv-{key}"
    failed = root / f"venv-{key}.failed"
    with _locked(root):
        if (venv / ".complete").exists():
            return venv
        # A failed install (no network, say) is not retried for an hour: a CI warm-up that failed must not
        # make the test session wait for pip's timeouts a second time.
        if failed.exists() and time.time() - failed.stat().st_mtime < FAILED_INSTALL_TTL:
            raise Unavailable(failed.read_text().strip() + " (cached; delete " + str(failed) + " to retry)")
        shutil.rmtree(venv, ignore_errors=True)  # a half-built venv from an interrupted run
        try:
            _run([python, "-m", "venv", str(venv)], "creating the FlaskBB venv", 120)
            # -c pins every transitive package: a newer Flask or SQLAlchemy has broken FlaskBB before
            _run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", "--timeout", "30",
                  "-c", str(CONSTRAINTS), *PACKAGES], "pip install FlaskBB", HANG_GUARD)
            _run([str(venv / "bin" / "python"), "-c", "import flaskbb, conversations"], "importing FlaskBB", 120)
        except Unavailable as e:
            failed.write_text(str(e) + "\n")
            shutil.rmtree(venv, ignore_errors=True)
            raise
        failed.unlink(missing_ok=True)
        (venv / ".complete").write_text(_version(python) + "\n")
    return venv


def write_config(directory: Path, db: Path) -> Path:
    (directory / "logs").mkdir(parents=True, exist_ok=True)
    cfg = directory / "flaskbb.cfg"
    cfg.write_text(f"""# test-only settings, written by tests/live/flaskbb_server.py
DEBUG = False
TESTING = False
PREFERRED_URL_SCHEME = "http"
TRUSTED_HOSTS = ["127.0.0.1", "localhost"]
SQLALCHEMY_DATABASE_URI = "sqlite:///{db}"
SECRET_KEY = "test-only-secret"
WTF_CSRF_SECRET_KEY = "test-only-csrf"
USE_DEFAULT_LOGGING = False
LOG_PATH = "{directory / 'logs'}"
REDIS_ENABLED = False
RATELIMIT_ENABLED = False
MAIL_SUPPRESS_SEND = True
CACHE_TYPE = "SimpleCache"
""")
    return cfg


def template_db(venv: Path) -> Path:
    """A bootstrapped database with the conversations plugin and every seeded account, built once."""
    users = [{"name": a.name, "password": a.password, "email": a.email, "group": a.group} for a in SEEDED]
    key = _key(venv.name, SEED.read_text(), json.dumps(users), ADMIN.name, ADMIN.password)
    root = cache_root()
    db = root / f"template-{key}.sqlite"
    with _locked(root):
        if db.exists():
            return db
        work = root / f"template-{key}.build"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        building = work / "flaskbb.sqlite"
        cfg = write_config(work, building)
        flaskbb = str(venv / "bin" / "flaskbb")
        _run([flaskbb, "--config", str(cfg), "bootstrap", "--username", ADMIN.name, "--email", ADMIN.email,
              "--password", ADMIN.password, "--enable-plugins", "conversations"], "bootstrapping FlaskBB",
             HANG_GUARD, cwd=work)
        _run([str(venv / "bin" / "python"), str(SEED), str(cfg), json.dumps(users)], "seeding FlaskBB accounts",
             HANG_GUARD, cwd=work)
        os.replace(building, db)
        shutil.rmtree(work, ignore_errors=True)
    return db


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FlaskBBServer:
    """One running forum in `directory` (its config, database copy and log)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.process: subprocess.Popen | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> "FlaskBBServer":
        venv = install()
        template = template_db(venv)
        self.directory.mkdir(parents=True, exist_ok=True)
        db = self.directory / "flaskbb.sqlite"
        shutil.copyfile(template, db)
        cfg = write_config(self.directory, db)
        self.port = free_port()
        log = open(self.directory / "server.log", "wb")
        self.process = subprocess.Popen(
            [str(venv / "bin" / "flaskbb"), "--config", str(cfg), "run", "-h", "127.0.0.1", "-p", str(self.port),
             "--no-reload", "--no-debugger"],
            cwd=self.directory, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        (self.directory / "server.pid").write_text(str(self.process.pid))
        self._wait_up()
        return self

    def _wait_up(self) -> None:
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                tail = (self.directory / "server.log").read_text(errors="replace").strip().splitlines()[-1:]
                raise Unavailable(f"FlaskBB exited at start: {tail[0] if tail else 'no output'}")
            try:
                with urllib.request.urlopen(self.base_url, timeout=2) as r:
                    if r.status < 400:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise Unavailable(f"FlaskBB did not answer on {self.base_url} within {HANG_GUARD} s")

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None
        (self.directory / "server.pid").unlink(missing_ok=True)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("install", "start", "stop"):
        print(__doc__.split("\n\n")[0])
        return 2
    try:
        if argv[0] == "install":
            t = time.monotonic()
            venv = install()
            print(f"FlaskBB venv: {venv}; template database: {template_db(venv)} ({time.monotonic() - t:.0f} s)")
        elif argv[0] == "start":
            server = FlaskBBServer(Path(argv[1] if len(argv) > 1 else ".forum/flaskbb")).start()
            server.process = None  # leave it running; `stop DIR` ends it by its pid file
            print(server.base_url)
        else:
            pidfile = Path(argv[1] if len(argv) > 1 else ".forum/flaskbb") / "server.pid"
            if pidfile.exists():
                try:
                    os.kill(int(pidfile.read_text()), 15)
                except ProcessLookupError:
                    pass
                pidfile.unlink()
    except Unavailable as e:
        print(f"FlaskBB unavailable: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
