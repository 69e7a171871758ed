"""Shared fixtures: hardware test doubles, a mock table, and running a command as an unprivileged user or in an ASCII locale."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent

# `make test` draws the same examples on every machine, so a run that passed
# here passes in CI; `make chaos` explores fresh examples (HYPOTHESIS_PROFILE=explore).
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture
def mock_pins():
    """Install a fresh gpiozero MockFactory for one test, then reset and restore.

    gpiozero keeps pins reserved on a factory until it is reset (gpiozero
    issue #1087), so each test gets its own and the previous default returns
    in ``finally``.
    """
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def mock_table():
    """An open three-seat emulator table on the mock backend (Red, Blue, Green): real gpiozero buttons
    on mock pins and luma's dummy screens, closed after the test."""
    from hardware.factory import open_table
    from hardware.table import emulator_table

    with open_table(emulator_table(3, ["Red", "Blue", "Green"]), "mock") as opened:
        yield opened


class Unprivileged:
    """Runs commands as a user who cannot write ``unwritable``, the way a service user would.

    As root: as ``nobody`` (uid and gid 65534) from the checkout, which root
    owns. As anyone else: as that user, from ``/``.
    """

    NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    def __init__(self):
        self.root = os.geteuid() == 0
        self.prefix = self.NOBODY if self.root else []
        self.unwritable = str(ROOT) if self.root else "/"

    def unenterable(self, tmp_path):
        """A directory the user may not even enter, like another user's home."""
        if self.root:
            return str(tmp_path)      # pytest's own temporary directories are root's alone
        path = tmp_path / "closed"
        path.mkdir(mode=0)
        return str(path)

    def run(self, command, *, cwd, env=None, wrap=(), timeout=120):
        """Run ``command`` as the user, with the checkout importable; ``wrap`` goes in front (as root)."""
        env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        return subprocess.run([*wrap, *self.prefix, *command], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def unprivileged():
    """An ``Unprivileged`` runner; skipped where that user cannot run this checkout's Python."""
    runner = Unprivileged()
    if runner.root and shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to drop root's privileges")
    probe = runner.run([sys.executable, "-c", "import firmware.cli"], cwd="/")
    if probe.returncode != 0:
        who = "nobody" if runner.root else "this user"
        pytest.skip(f"{who} cannot run this checkout's Python: {probe.stderr.strip()[-200:]}")
    return runner


@pytest.fixture
def c_locale():
    """The plain C locale, whose default file encoding is ASCII (a service started without LANG)."""
    import locale

    saved = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, saved)


@pytest.fixture
def ascii_locale_python():
    """Run Python code (the checkout importable) where files read without an encoding are read as ASCII.

    LC_ALL=C with neither locale coercion nor UTF-8 mode, as on a Pi whose
    locale was never set: only ``encoding="utf-8"`` reads a UTF-8 file there.
    Returns the code's standard output; the code prints ``ascii()`` of what it shows.
    """
    env = {**os.environ, "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0", "PYTHONPATH": str(ROOT)}
    ascii_only = ("import locale\nassert locale.getpreferredencoding(False) == 'ANSI_X3.4-1968', "
                  "locale.getpreferredencoding(False)\n")

    def run(code: str) -> str:
        done = subprocess.run([sys.executable, "-c", ascii_only + code], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


# The suite reads English unless a test asks for another language: a developer's zh_TW
# locale must not change what the tests assert (subprocesses inherit this too).
os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def _table_language_back_to_english():
    """A test that sets the table's language (courtier --lang) leaves the next one in English."""
    yield
    from engine import i18n

    i18n.set_language(None)
