"""Tests for systemd/install.sh: install and uninstall into a temporary root with recorded commands."""

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "systemd" / "install.sh"
EXAMPLE = ROOT / "hardware" / "tables" / "pi-4.toml"

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")

# Each fake appends its name and arguments to $FAKE_LOG; some keep a little state.
FAKES = {
    "python": """
echo "python $*" >> "$FAKE_LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    cp "$FAKE_VENV_PYTHON" "$3/bin/python"
fi
""",
    # The venv's python: records pip's arguments and what the source it was given holds.
    "venv-python": """
echo "venv-python $*" >> "$FAKE_LOG"
for last; do :; done
source=${last%\\[pi\\]}
echo "source: $(cd "$source" && ls -A | sort | tr '\\n' ' ')" >> "$FAKE_LOG"
""",
    "getent": """
echo "getent $*" >> "$FAKE_LOG"
case $1 in
    group) case " $FAKE_GROUPS " in *" $2 "*) echo "$2:x:900:"; exit 0 ;; esac ;;
    passwd) if [ -e "$FAKE_STATE/user-$2" ]; then echo "$2:x:901:901::/var/lib/$2:/usr/sbin/nologin"; exit 0; fi ;;
esac
exit 2
""",
    "useradd": 'echo "useradd $*" >> "$FAKE_LOG"\nfor last; do :; done\ntouch "$FAKE_STATE/user-$last"\n',
    "userdel": 'echo "userdel $*" >> "$FAKE_LOG"\nrm -f "$FAKE_STATE/user-$1"\n',
    "usermod": 'echo "usermod $*" >> "$FAKE_LOG"\n',
    "chown": 'echo "chown $*" >> "$FAKE_LOG"\n',
    "systemctl": 'echo "systemctl $*" >> "$FAKE_LOG"\n',
}


class Installer:
    """Runs install.sh into ``root`` with every system command replaced by a recorder."""

    def __init__(self, tmp_path, prefix="/opt/courtier", groups="gpio i2c dialout"):
        self.root = tmp_path / "root"
        self.root.mkdir()
        self.log = tmp_path / "commands.log"
        self.log.touch()
        state = tmp_path / "state"
        state.mkdir()
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        self.env = {"PATH": os.environ["PATH"], "DESTDIR": str(self.root), "PREFIX": prefix,
                    "FAKE_LOG": str(self.log), "FAKE_STATE": str(state), "FAKE_GROUPS": groups}
        for name, body in FAKES.items():
            path = bin_dir / name
            path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
            path.chmod(path.stat().st_mode | stat.S_IXUSR)
            variable = {"python": "PYTHON", "venv-python": "FAKE_VENV_PYTHON"}.get(name, name.upper())
            self.env[variable] = str(path)

    def run(self, action, **env):
        return subprocess.run(["sh", str(SCRIPT), action], env={**self.env, **env},
                              capture_output=True, text=True, timeout=60)

    def commands(self):
        return self.log.read_text(encoding="utf-8").splitlines()

    def path(self, absolute):
        return self.root / absolute.lstrip("/")


@pytest.fixture
def installer(tmp_path):
    return Installer(tmp_path)


def test_install_creates_venv_user_table_state_and_unit(installer):
    """install makes the venv, the user in its groups, the example table, the state dir and the enabled unit."""
    result = installer.run("install")
    assert result.returncode == 0, result.stderr
    venv = installer.path("/opt/courtier/venv")
    commands = installer.commands()
    assert f"python -m venv {venv}" in commands
    [pip] = [c for c in commands if c.startswith("venv-python")]
    assert pip.startswith("venv-python -m pip install --upgrade ") and pip.endswith("[pi]")
    source = pip.split()[-1].removesuffix("[pi]")
    assert not source.startswith(str(ROOT))             # a copy: the checkout gets no build files
    [listing] = [c for c in commands if c.startswith("source: ")]
    assert {"pyproject.toml", "README.md", "engine", "hardware", "firmware"} <= set(listing.split())
    assert ".venv" not in listing.split() and ".git" not in listing.split()
    assert not Path(source).exists()                    # and the copy is gone afterwards
    assert ("useradd --system --user-group --home-dir /var/lib/courtier --no-create-home "
            "--shell /usr/sbin/nologin --groups gpio,i2c,dialout courtier") in commands
    assert "group 'spi' does not exist" in result.stderr
    table = installer.path("/etc/courtier/table.toml")
    assert table.read_bytes() == EXAMPLE.read_bytes()
    state = installer.path("/var/lib/courtier")
    assert state.is_dir() and stat.S_IMODE(state.stat().st_mode) == 0o750
    assert f"chown courtier:courtier {state}" in commands
    unit = installer.path("/etc/systemd/system/courtier.service").read_text(encoding="utf-8")
    assert ("ExecStart=/opt/courtier/venv/bin/courtier play --table /etc/courtier/table.toml"
            in unit)
    assert "User=courtier" in unit
    assert commands[-2:] == ["systemctl daemon-reload", "systemctl enable courtier.service"]


def test_prefix_moves_the_venv_and_the_unit_follows(tmp_path):
    """PREFIX=/srv/courtier puts the venv there and points ExecStart at it."""
    installer = Installer(tmp_path, prefix="/srv/courtier")
    assert installer.run("install").returncode == 0
    assert installer.path("/srv/courtier/venv/bin/python").exists()
    unit = installer.path("/etc/systemd/system/courtier.service").read_text(encoding="utf-8")
    assert "ExecStart=/srv/courtier/venv/bin/courtier play" in unit
    assert "/opt/courtier" not in unit


def test_existing_table_is_kept_and_a_second_install_updates_in_place(installer):
    """A table.toml already there is never overwritten; installing again reuses the venv and the user."""
    table = installer.path("/etc/courtier/table.toml")
    table.parent.mkdir(parents=True)
    table.write_text("# my wiring\n", encoding="utf-8")
    first = installer.run("install")
    assert first.returncode == 0
    assert "keeping your /etc/courtier/table.toml" in first.stdout
    installer.log.write_text("", encoding="utf-8")
    assert installer.run("install").returncode == 0
    commands = installer.commands()
    assert table.read_text(encoding="utf-8") == "# my wiring\n"
    assert not any(c.startswith("python -m venv") for c in commands)
    assert any(c.startswith("venv-python -m pip install --upgrade") for c in commands)
    assert not any(c.startswith("useradd") for c in commands)
    assert "usermod --append --groups gpio,i2c,dialout courtier" in commands


def test_uninstall_removes_what_install_made_but_keeps_saved_games(installer):
    """uninstall stops and removes the unit, venv, unchanged table and user; /var/lib/courtier stays."""
    assert installer.run("install").returncode == 0
    saved = installer.path("/var/lib/courtier/current.jsonl")
    saved.write_text('{"game": "tenno"}\n', encoding="utf-8")
    installer.log.write_text("", encoding="utf-8")
    result = installer.run("uninstall")
    assert result.returncode == 0, result.stderr
    commands = installer.commands()
    assert commands[0] == "systemctl disable --now courtier.service"
    assert "systemctl daemon-reload" in commands
    assert "userdel courtier" in commands
    assert not installer.path("/etc/systemd/system/courtier.service").exists()
    assert not installer.path("/opt/courtier").exists()
    assert not installer.path("/etc/courtier").exists()
    assert saved.read_text(encoding="utf-8") == '{"game": "tenno"}\n'
    assert "kept /var/lib/courtier (saved games)" in result.stdout


def test_uninstall_keeps_an_edited_table(installer):
    """A table.toml that differs from the example is the user's wiring: uninstall leaves it."""
    assert installer.run("install").returncode == 0
    table = installer.path("/etc/courtier/table.toml")
    table.write_text(EXAMPLE.read_text(encoding="utf-8").replace("GPIO", "gpio"), encoding="utf-8")
    result = installer.run("uninstall")
    assert result.returncode == 0
    assert table.exists()
    assert "kept /etc/courtier/table.toml" in result.stdout


def test_destdir_alone_never_touches_this_machine(installer):
    """With DESTDIR and no command overrides, useradd, chown and systemctl are only printed."""
    env = {name: "" for name in ("USERADD", "USERMOD", "USERDEL", "CHOWN", "SYSTEMCTL")}
    result = installer.run("install", **env)
    assert result.returncode == 0, result.stderr
    assert "would run: useradd --system" in result.stdout
    assert "would run: systemctl enable courtier.service" in result.stdout
    assert not any(c.split()[0] in ("useradd", "systemctl", "chown") for c in installer.commands())


@pytest.mark.parametrize(("args", "env", "message"), [
    (["remove"], {}, "usage:"),
    (["install"], {"PREFIX": "opt/courtier"}, "PREFIX must be an absolute path"),
])
def test_bad_calls_are_refused(installer, args, env, message):
    """An unknown action or a relative PREFIX stops before doing anything."""
    result = installer.run(*args, **env)
    assert result.returncode != 0
    assert message in result.stderr
    assert installer.commands() == []
