"""The README's command lines, run as it prints them.

Every `courtier` line of its shell blocks and prose runs here (a line that
would start a table runs with `--help`, which must know each of its
options); every synopsis in the command table names only options its
command takes; every `make` target it names exists. The install, upgrade,
uninstall and self-test steps for the Pi are run by `tests/test_install.py`
and are left to it.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
COURTIER = Path(sys.executable).with_name("courtier")
# Steps of the Pi's own life, typed with sudo or under the service's user: test_install runs those.
PI_STEPS = ("sudo ", "journalctl", "git ")


def _shell_lines() -> list[str]:
    """The commands of the README's ```sh blocks, comments cut."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            command = line.split("  #")[0].split(" # ")[0].strip()
            if command and not command.startswith(PI_STEPS):
                lines.append(command)
    return lines


def _prose_commands() -> list[str]:
    """Whole command lines quoted in the prose: `.venv/bin/courtier ...` with no placeholder."""
    found = re.findall(r"`(\.venv/bin/courtier [^`]+)`", README)
    return [c for c in found if not re.search(r"\b[A-Z][A-Z-]+\b", c)]


COURTIER_LINES = [c for c in _shell_lines() if c.startswith(".venv/bin/courtier ")] + _prose_commands()
MAKE_LINES = [c for c in _shell_lines() if c.startswith("make ")]
SYNOPSES = re.findall(r"^\| `(courtier [^`]+)` \|", README, flags=re.M)


def _argv(command: str, home: Path) -> list[str]:
    words = [w.replace("~", str(home), 1) if w.startswith("~") else w for w in shlex.split(command)]
    runner = [str(COURTIER)] if COURTIER.exists() else [sys.executable, "-m", "firmware"]
    argv = runner + words[1:]
    if words[1] == "play":  # it would start a table: ask it what it takes instead
        argv.append("--help")
    return argv


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """A home whose saved game is a finished demo, for the lines that read one."""
    home = tmp_path_factory.mktemp("home")
    state = home / ".local" / "state" / "courtier"
    state.mkdir(parents=True)
    subprocess.run([sys.executable, "-m", "firmware", "demo", "tenno", "--players", "3", "--seed", "2",
                    "--journal", str(state / "current.jsonl")], check=True, capture_output=True, cwd=home,
                   env={**os.environ, "HOME": str(home), "COURTIER_STATE_DIR": str(state)}, timeout=300)
    return home


def test_the_readme_shows_commands_to_check():
    assert len(COURTIER_LINES) >= 8 and MAKE_LINES and len(SYNOPSES) >= 6


@pytest.mark.parametrize("command", COURTIER_LINES)
def test_each_courtier_line_of_the_readme_runs_as_printed(command, home, tmp_path):
    env = {**os.environ, "HOME": str(home), "COURTIER_STATE_DIR": str(home / ".local" / "state" / "courtier"),
           "SDL_VIDEODRIVER": "dummy", "COLUMNS": "1000"}
    argv = _argv(command, home)
    done = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    if argv[-1] == "--help":
        for option in re.findall(r"(--[a-z][a-z-]*)", command):
            assert option in done.stdout, f"{command}: `courtier play --help` does not know {option}"
    if "--html" in command:
        assert (tmp_path / command.split("--html ")[1].split()[0]).read_text(encoding="utf-8").startswith("<!")
    if "--record" in command:
        assert (tmp_path / command.split("--record ")[1].split()[0]).stat().st_size > 0


@pytest.mark.parametrize("synopsis", SYNOPSES)
def test_each_synopsis_of_the_command_table_names_only_options_its_command_takes(synopsis):
    words = synopsis.split()
    runner = [str(COURTIER)] if COURTIER.exists() else [sys.executable, "-m", "firmware"]
    done = subprocess.run([*runner, words[1], "--help"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "1000"})  # no option broken at a hyphen
    assert done.returncode == 0, done.stderr
    named = set(re.findall(r"(--?[a-z][a-z-]*)", synopsis.replace("\\|", "|")))
    missing = [option for option in named if option not in done.stdout]
    assert not missing, f"`{words[0]} {words[1]} --help` knows none of {missing}"
    takes = set(re.findall(r"(--[a-z][a-z-]*)", done.stdout)) - {"--help"}
    if words[1] == "play":  # the play synopsis is complete: every option it takes is shown
        assert takes <= named, f"the play synopsis omits {sorted(takes - named)}"


@pytest.mark.parametrize("command", MAKE_LINES)
def test_each_make_target_the_readme_names_exists(command):
    target = command.split()[1]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(rf"^{re.escape(target)}:", makefile, flags=re.M), command
