"""Tests for systemd/install.sh: into a temporary root with recorded commands, then into this machine.

The lifecycle (install, play, upgrade, uninstall, another user taking the
freed uid, reinstall) runs install.sh for real into a temporary root, and the
README's own install, self-test, upgrade and uninstall steps run as printed
on this machine where it is root and nothing of courtier is installed yet.
"""

import contextlib
import fcntl
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "systemd" / "install.sh"
EXAMPLE = ROOT / "hardware" / "tables" / "pi-4.toml"

pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")

# Each fake appends its name and arguments to $FAKE_LOG and keeps what it changes
# under $FAKE_STATE: the users (one "name:uid" line each, in a passwd file of its
# own), whether the service runs, and whether systemd is PID 1 ($FAKE_MANAGER).
FAKES = {
    "python": """
echo "python $*" >> "$FAKE_LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    cp "$FAKE_VENV_PYTHON" "$3/bin/python"
    if [ -n "${FAKE_NO_ENSUREPIP:-}" ]; then echo "ensurepip is not available" >&2; exit 1; fi
    mkdir -p "$3/lib/pip"
fi
""",
    # The venv's python: pip exists only where `-m venv` put it; an install records
    # what the source it was given holds and leaves a script whose #! names this venv.
    "venv-python": """
venv=$(cd "$(dirname "$0")/.." && pwd)
case "$1 $2" in
    "-m pip")
        [ -d "$venv/lib/pip" ] || { echo "No module named pip" >&2; exit 1; }
        [ "$3" = "--version" ] && exit 0
        echo "venv-python $*" >> "$FAKE_LOG"
        for last; do :; done
        source=${last%\\[pi,web\\]}
        echo "source: $(cd "$source" && ls -A | sort | tr '\\n' ' ')" >> "$FAKE_LOG"
        if [ -n "${FAKE_PIP_OUTPUT:-}" ]; then cat "$FAKE_PIP_OUTPUT"; exit 1; fi
        printf '#!%s/bin/python\\nfrom firmware.cli import main\\n' "$venv" > "$venv/bin/courtier"
        exit 0 ;;
    "-c "*) [ -z "${FAKE_NO_HEADERS:-}" ] ;;
    *) exec "$REAL_PYTHON" "$@" ;;
esac
""",
    "getent": """
echo "getent $*" >> "$FAKE_LOG"
case $1 in
    group) case " $FAKE_GROUPS " in *" $2 "*) echo "$2:x:900:"; exit 0 ;; esac ;;
    passwd) line=$(grep "^$2:" "$FAKE_STATE/passwd") && { echo "$line"; exit 0; } ;;
esac
exit 2
""",
    # A system user gets the lowest free uid from 900 up, as useradd --system counts.
    "useradd": """
echo "useradd $*" >> "$FAKE_LOG"
for last; do :; done
uid=900
while grep -q ":$uid\\$" "$FAKE_STATE/passwd"; do uid=$((uid + 1)); done
echo "$last:$uid" >> "$FAKE_STATE/passwd"
""",
    "userdel": """
echo "userdel $*" >> "$FAKE_LOG"
grep -v "^$1:" "$FAKE_STATE/passwd" > "$FAKE_STATE/passwd.new" || true
mv "$FAKE_STATE/passwd.new" "$FAKE_STATE/passwd"
""",
    "usermod": 'echo "usermod $*" >> "$FAKE_LOG"\n',
    # With FAKE_REAL_CHOWN (as root), names become the uids above and the real chown runs.
    "chown": """
echo "chown $*" >> "$FAKE_LOG"
[ -n "${FAKE_REAL_CHOWN:-}" ] || exit 0
args=""
for arg; do
    case $arg in
        *:*) user=${arg%%:*}; uid=$(grep "^$user:" "$FAKE_STATE/passwd" | cut -d: -f2); arg=$uid:$uid ;;
    esac
    args="$args $arg"
done
exec chown $args
""",
    "systemctl": """
echo "systemctl $*" >> "$FAKE_LOG"
case $1 in
    is-system-running) echo "${FAKE_MANAGER:-running}"; [ "${FAKE_MANAGER:-running}" = running ] ;;
    is-active) [ -e "$FAKE_STATE/active" ] ;;
esac
""",
}


class Installer:
    """Runs install.sh into ``root`` with every system command replaced by a recorder."""

    def __init__(self, tmp_path, prefix="/opt/courtier", groups="gpio i2c dialout"):
        self.root = tmp_path / "root"
        self.root.mkdir(parents=True)
        self.log = tmp_path / "commands.log"
        self.log.touch()
        self.state = tmp_path / "state"
        self.state.mkdir()
        (self.state / "passwd").touch()
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        self.env = {"PATH": os.environ["PATH"], "DESTDIR": str(self.root), "PREFIX": prefix,
                    "FAKE_LOG": str(self.log), "FAKE_STATE": str(self.state), "FAKE_GROUPS": groups,
                    "REAL_PYTHON": sys.executable, "CC": "true"}
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

    def forget_commands(self):
        self.log.write_text("", encoding="utf-8")

    def path(self, absolute):
        return self.root / absolute.lstrip("/")

    def users(self):
        """Name to uid, as the fake useradd and userdel left them."""
        lines = (self.state / "passwd").read_text(encoding="utf-8").split()
        return {name: int(uid) for name, uid in (line.split(":") for line in lines)}

    def unit(self):
        return self.path("/etc/systemd/system/courtier.service").read_text(encoding="utf-8")


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
    assert pip.startswith("venv-python -m pip install --upgrade ") and pip.endswith("[pi,web]")
    source = pip.split()[-1].removesuffix("[pi,web]")
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
    assert f"chown -R -h courtier:courtier {state}" in commands
    unit = installer.unit()
    assert ("ExecStart=/opt/courtier/venv/bin/courtier play --table /etc/courtier/table.toml"
            in unit)
    assert "User=courtier" in unit
    after_unit = commands[commands.index("systemctl enable courtier.service"):]
    assert "systemctl daemon-reload" in after_unit
    assert not any(c.startswith("systemctl restart") for c in commands)  # nothing ran yet


def test_the_unit_asks_only_for_groups_that_exist(tmp_path):
    """A SupplementaryGroups= group this system lacks would stop the unit (216/GROUP): it is left out."""
    some = Installer(tmp_path / "some", groups="gpio dialout")
    assert some.run("install").returncode == 0
    assert "\nSupplementaryGroups=gpio dialout\n" in some.unit()
    none = Installer(tmp_path / "none", groups="")
    result = none.run("install")
    assert result.returncode == 0, result.stderr
    assert not any(line.startswith("SupplementaryGroups=") for line in none.unit().splitlines())
    assert ("useradd --system --user-group --home-dir /var/lib/courtier --no-create-home "
            "--shell /usr/sbin/nologin courtier") in none.commands()


def test_documentation_of_the_unit_is_a_file_the_install_made(installer):
    """The unit's Documentation= names the README the install puts beside the venv."""
    assert installer.run("install").returncode == 0
    [documentation] = [line for line in installer.unit().splitlines() if line.startswith("Documentation=")]
    path = documentation.removeprefix("Documentation=file://")
    assert path == "/opt/courtier/README.md"
    assert installer.path(path).read_bytes() == (ROOT / "README.md").read_bytes()


def test_prefix_moves_the_venv_and_the_unit_follows(tmp_path):
    """PREFIX=/srv/courtier puts the venv there and points ExecStart at it."""
    installer = Installer(tmp_path, prefix="/srv/courtier")
    assert installer.run("install").returncode == 0
    assert installer.path("/srv/courtier/venv/bin/python").exists()
    unit = installer.unit()
    assert "ExecStart=/srv/courtier/venv/bin/courtier play" in unit
    assert "Documentation=file:///srv/courtier/README.md" in unit
    assert "/opt/courtier" not in unit


def test_existing_table_is_kept_and_a_second_install_updates_in_place(installer):
    """A table.toml already there is never overwritten; installing again reuses the venv and the user."""
    table = installer.path("/etc/courtier/table.toml")
    table.parent.mkdir(parents=True)
    table.write_text("# my wiring\n", encoding="utf-8")
    first = installer.run("install")
    assert first.returncode == 0
    assert "keeping your /etc/courtier/table.toml" in first.stdout
    installer.forget_commands()
    assert installer.run("install").returncode == 0
    commands = installer.commands()
    assert table.read_text(encoding="utf-8") == "# my wiring\n"
    assert not any(c.startswith("python -m venv") for c in commands)
    assert any(c.startswith("venv-python -m pip install --upgrade") for c in commands)
    assert not any(c.startswith("useradd") for c in commands)
    assert "usermod --append --groups gpio,i2c,dialout courtier" in commands


def test_an_upgrade_restarts_the_running_service_on_the_new_code(installer):
    """After pip replaced the code, a running service is restarted (and one that is stopped stays so)."""
    assert installer.run("install").returncode == 0
    (installer.state / "active").touch()
    installer.forget_commands()
    result = installer.run("install")
    assert result.returncode == 0, result.stderr
    commands = installer.commands()
    pip = next(i for i, c in enumerate(commands) if c.startswith("venv-python -m pip install"))
    assert commands.index("systemctl restart courtier.service") > pip
    assert "restarted the running courtier.service on the new code" in result.stdout


def test_without_a_running_systemd_install_and_uninstall_change_only_the_unit_files(installer):
    """In an image build or a chroot (systemd not PID 1) the unit is enabled and disabled, nothing more."""
    result = installer.run("install", FAKE_MANAGER="offline")
    assert result.returncode == 0, result.stderr
    commands = [c for c in installer.commands() if c.startswith("systemctl")]
    assert commands == ["systemctl enable courtier.service", "systemctl is-system-running"]
    assert ("no running systemd (an image build or a chroot?): no systemd to reload or restart; "
            "the service starts at the next boot") in result.stdout
    installer.forget_commands()
    result = installer.run("uninstall", FAKE_MANAGER="offline")
    assert result.returncode == 0, result.stderr
    commands = [c for c in installer.commands() if c.startswith("systemctl")]
    assert "systemctl disable courtier.service" in commands
    assert not any(c.startswith(("systemctl daemon-reload", "systemctl disable --now")) for c in commands)
    assert "no systemd to stop the service" in result.stdout
    assert not installer.path("/etc/systemd/system/courtier.service").exists()


def test_a_venv_that_could_not_get_pip_is_removed_and_made_again(installer):
    """Without python3-venv, venv creation leaves no pip: say what to install, and mend it next time."""
    failed = installer.run("install", FAKE_NO_ENSUREPIP="1")
    assert failed.returncode != 0
    assert "sudo apt install python3-venv" in failed.stderr
    venv = installer.path("/opt/courtier/venv")
    assert not venv.exists()
    # A venv left without pip by an older installer is made again, not reused.
    (venv / "bin").mkdir(parents=True)
    shutil.copy(installer.env["FAKE_VENV_PYTHON"], venv / "bin" / "python")
    installer.forget_commands()
    result = installer.run("install")
    assert result.returncode == 0, result.stderr
    assert "has no working pip" in result.stdout
    assert f"python -m venv {venv}" in installer.commands()


@pytest.mark.parametrize("env, missing", [
    ({"CC": "no-such-compiler"}, "a C compiler"),
    ({"FAKE_NO_HEADERS": "1"}, "the Python headers (Python.h)"),
])
def test_missing_build_tools_are_named_before_pip_runs(installer, env, missing):
    """spidev is built from source: without a compiler or Python.h, say which and the packages, skip pip."""
    result = installer.run("install", **env)
    assert result.returncode != 0
    assert f"pip must build spidev (it has no wheel for this machine), which needs {missing}" in result.stderr
    assert "sudo apt install gcc python3-dev" in result.stderr
    assert not any(c.startswith("venv-python -m pip install") for c in installer.commands())


# What pip 23 prints when a package's build fails (the spidev lines as seen with no C compiler).
PIP_FAILURE = """\
  Building wheel for {name} (pyproject.toml): finished with status 'error'
  error: subprocess-exited-with-error
  note: This error originates from a subprocess, and is likely not a problem with pip.
  ERROR: Failed building wheel for {name}
Failed to build {name}
ERROR: Could not build wheels for {name}, which is required to install pyproject.toml-based projects
"""


@pytest.mark.parametrize("name, hint", [
    ("spidev", "sudo apt install gcc python3-dev"),
    ("lgpio", "Debian has no liblgpio-dev"),
])
def test_a_failed_build_names_the_package_and_what_it_needs(installer, tmp_path, name, hint):
    """pip's failure is read: the package that did not build is named, with the packages it needs."""
    output = tmp_path / "pip.out"
    output.write_text(PIP_FAILURE.format(name=name), encoding="utf-8")
    result = installer.run("install", FAKE_PIP_OUTPUT=str(output))
    assert result.returncode != 0
    assert f"{name} could not be built" in result.stderr
    assert hint in result.stderr
    assert f"pip could not build: {name}" in result.stderr
    assert "Failed building wheel" in result.stdout        # pip's own words are still shown


def test_a_staged_venv_names_its_final_place(installer):
    """With DESTDIR the venv's scripts are made to run from PREFIX, where the tree will be copied."""
    assert installer.run("install").returncode == 0
    script = installer.path("/opt/courtier/venv/bin/courtier").read_text(encoding="utf-8")
    assert script.splitlines()[0] == "#!/opt/courtier/venv/bin/python"


def test_uninstall_removes_what_install_made_but_keeps_saved_games(installer):
    """uninstall stops and removes the unit, venv, unchanged table and user; /var/lib/courtier stays."""
    assert installer.run("install").returncode == 0
    saved = installer.path("/var/lib/courtier/current.jsonl")
    saved.write_text('{"game": "tenno"}\n', encoding="utf-8")
    installer.forget_commands()
    result = installer.run("uninstall")
    assert result.returncode == 0, result.stderr
    commands = installer.commands()
    assert commands[:2] == ["systemctl is-system-running", "systemctl disable --now courtier.service"]
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
    assert "would run: chown -R -h courtier:courtier" in result.stdout
    assert "would run: systemctl enable courtier.service" in result.stdout
    # This machine's systemd has nothing to do with a staged tree: no reload, no restart claimed.
    assert "a staged tree: no systemd to reload or restart" in result.stdout
    assert "daemon-reload" not in result.stdout and "restarted" not in result.stdout
    assert not any(c.split()[0] in ("useradd", "systemctl", "chown") for c in installer.commands())
    installer.path("/var/lib/courtier/current.jsonl").write_text("{}\n", encoding="utf-8")
    result = installer.run("uninstall", **env)
    assert result.returncode == 0, result.stderr
    assert "would run: systemctl disable courtier.service" in result.stdout
    assert "would run: userdel courtier" not in result.stdout   # its creation was only printed
    assert installer.path("/var/lib/courtier/current.jsonl").exists()
    assert not any(c.split()[0] in ("userdel", "systemctl") for c in installer.commands())


@pytest.mark.parametrize(("args", "env", "message"), [
    (["remove"], {}, "usage:"),
    (["install"], {"PREFIX": "opt/courtier"}, "PREFIX must be an absolute path"),
    (["install"], {"PREFIX": "/opt/my courtier"}, "holds a space or a character"),
    (["install"], {"PREFIX": "/opt/courtier\t2"}, "holds a space or a character"),
    (["install"], {"PREFIX": "/opt/100%courtier"}, "holds a space or a character"),
    (["uninstall"], {"PREFIX": "/opt/my courtier"}, "holds a space or a character"),
])
def test_bad_calls_are_refused(installer, args, env, message):
    """An unknown action, or a PREFIX the unit file could not hold as it is, stops before doing anything."""
    result = installer.run(*args, **env)
    assert result.returncode != 0
    assert message in result.stderr
    assert installer.commands() == []


# --- the whole lifecycle, with the game played as the service would ------------------

class Service:
    """Runs the installed unit's command the way systemd would, with no systemd here.

    It reads the unit install.sh wrote: ExecStart's arguments, Environment=,
    User= (as a uid), UMask=, WorkingDirectory= and StateDirectory= (as
    $STATE_DIRECTORY). Paths are looked up under ``root`` (a DESTDIR, or /).
    No Pi is attached, so the table is the mock one (COURTIER_HARDWARE=mock),
    and this checkout's courtier stands in for the venv's when ``program`` is
    not given.
    """

    def __init__(self, unit_text, root="/", uid=None, gid=None, program=None):
        checkout = program is None
        self.root = Path(root)
        settings = {}
        for line in unit_text.splitlines():
            key, _, value = line.partition("=")
            if key in ("Environment",):
                name, _, setting = value.partition("=")
                settings.setdefault("env", {})[name] = setting
            elif key and not line.startswith("#"):
                settings[key] = value
        executable, *self.args = settings["ExecStart"].split()
        self.program = program or [sys.executable, "-m", "firmware"]
        self.args = [self._path(arg) if arg.startswith("/") else arg for arg in self.args]
        self.env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
        self.env.update(settings["env"], COURTIER_HARDWARE="mock",
                        STATE_DIRECTORY=self._path(f"/var/lib/{settings['StateDirectory']}"))
        if checkout:
            self.env["PYTHONPATH"] = str(ROOT)
        self.cwd = self._path(settings["WorkingDirectory"])
        self.umask = settings["UMask"]
        self.user = settings["User"]
        self.uid = uid
        self.gid = uid if gid is None else gid

    def _path(self, absolute):
        return str(self.root / absolute.lstrip("/"))

    def start(self, *replace):
        """Start the command as the service user; ``replace`` swaps ("--ui", "none") for other arguments."""
        args = list(self.args)
        if replace:
            at = args.index("--ui")
            args[at:at + 2] = replace
        command = ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups",
                   *self.program, *args]
        return subprocess.Popen(command, cwd=self.cwd, env=self.env, umask=int(self.umask, 8),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def play_until_saved(self, actions):
        """Bots press until ``actions`` actions are saved, then the power goes (SIGKILL)."""
        process = self.start("--ui", "bots", "--bot-seed", "5")
        with _deadline(process):
            output = []
            for line in process.stdout:
                output.append(line)
                if line.strip() == f"ack {actions}":
                    break
            process.kill()
            process.wait()
        assert f"ack {actions}\n" in output, "".join(output)

    def resumed_after(self):
        """Start the service's own command, and return after how many actions it resumed the saved game."""
        words = self.first_words()
        found = re.search(r"Resumed Tennō \(\d+ players\) after (\d+) actions?\.", words)
        assert found and "could not be read" not in words, words
        return int(found.group(1))

    def first_words(self):
        """Start the service's own command, return what it says before it serves the table, and stop it."""
        process = self.start()
        with _deadline(process):
            line = process.stdout.readline()
            process.terminate()
            rest = process.communicate()[0]
        return line + rest


@contextlib.contextmanager
def _deadline(process, seconds=120):
    """Kill ``process`` if it has not been dealt with in time, so that a hang fails instead of blocking."""
    timer = threading.Timer(seconds, process.kill)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if process.poll() is None:
            process.kill()
            process.wait()


def _owners(directory):
    """Every path under ``directory`` (itself included) to its owner's uid, links not followed."""
    paths = [directory, *directory.rglob("*")]
    return {str(path.relative_to(directory)): path.lstat().st_uid for path in paths}


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="changes owners and plays as the service's uid: needs root")


@pytest.fixture
def open_tmp_path():
    """A temporary directory other users can enter (pytest's own is root's alone), removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="courtier-test-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path)


@needs_root
def test_lifecycle_in_a_temporary_root_keeps_the_saved_game_through_a_foreign_user(open_tmp_path, unprivileged):
    """Install, play, upgrade with an edited table, uninstall, another user takes the uid, reinstall: it resumes.

    install.sh runs for real into a temporary root; user management is
    recorded in a passwd file of its own (uids from 900), and chown runs for
    real with those uids. The game is played by the unit's own command as the
    service user's uid, with the unit's umask.
    """
    tmp_path = open_tmp_path
    installer = Installer(tmp_path, groups="gpio i2c spi dialout")
    installer.env["FAKE_REAL_CHOWN"] = "1"
    state = installer.path("/var/lib/courtier")
    table = installer.path("/etc/courtier/table.toml")

    assert installer.run("install").returncode == 0
    assert installer.users() == {"courtier": 900}
    service = Service(installer.unit(), installer.root, uid=900)
    service.play_until_saved(6)
    assert set(_owners(state).values()) == {900}
    assert stat.S_IMODE((state / "current.jsonl").stat().st_mode) == 0o640   # the unit's UMask=0027

    # Upgrade: the owner's wiring in the table file, and the saved game, stay.
    wiring = table.read_text(encoding="utf-8").replace('name = "Red"', 'name = "Crimson"')
    table.write_text(wiring, encoding="utf-8")
    upgrade = installer.run("install")
    assert upgrade.returncode == 0, upgrade.stderr
    assert table.read_text(encoding="utf-8") == wiring
    saved = service.resumed_after()
    assert saved >= 6
    service.play_until_saved(saved + 3)
    saved = service.resumed_after()

    # Uninstall keeps the games; the freed uid goes to someone else.
    assert installer.run("uninstall").returncode == 0
    assert installer.users() == {}
    with open(installer.state / "passwd", "a", encoding="utf-8") as passwd:
        passwd.write("foreign:900\n")
    outside = tmp_path / "outside"
    outside.write_text("not the game's\n", encoding="utf-8")
    (state / "link-out").symlink_to(outside)   # a link out of the tree is not followed

    reinstall = installer.run("install")
    assert reinstall.returncode == 0, reinstall.stderr
    assert installer.users() == {"foreign": 900, "courtier": 901}
    assert set(_owners(state).values()) == {901}
    assert outside.stat().st_uid == 0
    assert Service(installer.unit(), installer.root, uid=901).resumed_after() == saved


# --- the real installer, into this machine, with the README's own commands ----------

MACHINE_PATHS = [Path("/opt/courtier"), Path("/etc/courtier"), Path("/var/lib/courtier"),
                 Path("/etc/systemd/system/courtier.service")]


def readme_commands(heading):
    """The first ```sh block under a README heading: what the owner is told to type."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split(f"\n### {heading}\n", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def _missing_for_the_machine_install():
    """Why this machine cannot take the real install now, or None."""
    if os.geteuid() != 0:
        return "installs into this machine: needs root"
    from hardware.factory import on_raspberry_pi

    if on_raspberry_pi():
        return "this is a Raspberry Pi: install it by hand, not from a test"
    for tool in ("sudo", "git", "make", "gcc"):
        if shutil.which(tool) is None:
            return f"needs {tool} (.ci/run installs it)"
    probe = subprocess.run(["/usr/bin/python3", "-c", "import ensurepip, os, sysconfig; "
                            "assert os.path.exists(sysconfig.get_paths()['include'] + '/Python.h')"],
                           capture_output=True)
    if probe.returncode != 0:
        return "needs python3-venv and python3-dev for /usr/bin/python3 (.ci/run installs them)"
    branch = subprocess.run(["git", "-C", str(ROOT), "symbolic-ref", "-q", "HEAD"], capture_output=True)
    if branch.returncode != 0:
        return "the checkout is not on a branch, so the README's `git pull` cannot run in its clone"
    return None


@contextlib.contextmanager
def _the_machine():
    """Hold this machine for one install at a time, and leave it as it was found."""
    with open(Path(tempfile.gettempdir()) / "courtier-machine-install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        taken = [str(p) for p in MACHINE_PATHS if p.exists() or p.is_symlink()]
        if taken or subprocess.run(["getent", "passwd", "courtier"], capture_output=True).returncode == 0:
            pytest.skip(f"courtier is installed on this machine already ({', '.join(taken) or 'user'})")
        try:
            yield
        finally:
            subprocess.run(["sh", str(SCRIPT), "uninstall"], capture_output=True, timeout=300)
            for path in MACHINE_PATHS:
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink(missing_ok=True)


def _sh(script, cwd, timeout=900):
    return subprocess.run(["sh", "-e", "-c", script], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout)


def test_the_readme_install_self_test_upgrade_and_uninstall_on_this_machine(tmp_path):
    """Each step the README prints, typed as printed, on this machine; then it is all taken away again.

    systemd is not PID 1 here (as in an image build), so the installer's
    "no running systemd" path is the one taken, and `systemctl stop` in the
    self-test steps fails as it must. The service's own command is then run
    by hand as the courtier user, on the mock table (no Pi here).
    """
    reason = _missing_for_the_machine_install()
    if reason:
        pytest.skip(reason)
    with _the_machine():
        install = _sh(readme_commands("Install").replace("<this repository>", str(ROOT)), tmp_path)
        assert install.returncode == 0, install.stdout + install.stderr
        checkout = tmp_path / "courtier"
        user = pwd.getpwnam("courtier")
        unit = Path("/etc/systemd/system/courtier.service").read_text(encoding="utf-8")
        assert "Documentation=file:///opt/courtier/README.md" in unit
        assert Path("/opt/courtier/README.md").read_bytes() == (checkout / "README.md").read_bytes()
        assert Path("/etc/systemd/system/multi-user.target.wants/courtier.service").is_symlink()
        manager = Path("/run/systemd/system").is_dir()
        if not manager:
            assert "no running systemd" in install.stdout

        # The self-test as printed, from the root-owned checkout, then the same from /tmp.
        stop, selftest = [line for line in readme_commands("Self-test").splitlines() if line.strip()]
        stopped = _sh(stop, checkout)
        assert stopped.returncode == 0 or not manager, stopped.stderr
        reports = [_sh(selftest, cwd) for cwd in (checkout, "/tmp")]
        assert [(r.returncode, r.stdout, r.stderr) for r in reports].count(
            (reports[0].returncode, reports[0].stdout, reports[0].stderr)) == 2
        assert reports[0].returncode == 78
        assert reports[0].stderr.startswith("courtier: unable to locate Pi revision"), reports[0].stderr

        service = Service(unit, uid=user.pw_uid, gid=user.pw_gid, program=["/opt/courtier/venv/bin/courtier"])
        service.play_until_saved(5)

        table = Path("/etc/courtier/table.toml")
        wiring = table.read_text(encoding="utf-8").replace('name = "Red"', 'name = "Crimson"')
        table.write_text(wiring, encoding="utf-8")
        upgrade = _sh(readme_commands("Upgrade"), checkout)
        assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr
        assert table.read_text(encoding="utf-8") == wiring
        assert service.resumed_after() >= 5

        uninstall = _sh(readme_commands("Uninstall"), checkout)
        assert uninstall.returncode == 0, uninstall.stdout + uninstall.stderr
        assert subprocess.run(["getent", "passwd", "courtier"], capture_output=True).returncode != 0
        assert not Path("/opt/courtier").exists()
        assert not Path("/etc/systemd/system/courtier.service").exists()
        assert table.read_text(encoding="utf-8") == wiring          # the owner's wiring stays
        assert (Path("/var/lib/courtier") / "current.jsonl").exists()  # and so do the saved games


def test_a_table_file_with_a_web_block_gets_the_network_drop_in_and_loses_it_with_the_block(installer):
    """The unit has no network; the table page needs the LAN: install adds web.conf exactly while [web] is there."""
    dropin = installer.path("/etc/systemd/system/courtier.service.d/web.conf")
    assert installer.run("install").returncode == 0
    assert not dropin.exists()  # the example table has no [web] block
    table = installer.path("/etc/courtier/table.toml")
    table.write_text(table.read_text(encoding="utf-8") + "\n[web]\nport = 8080\n", encoding="utf-8")
    installer.forget_commands()
    result = installer.run("install")
    assert result.returncode == 0, result.stderr
    assert dropin.read_bytes() == (ROOT / "systemd" / "courtier-web.conf").read_bytes()
    assert "has a [web] block, so the service may serve the local network" in result.stdout
    commands = installer.commands()
    assert commands.index("systemctl daemon-reload") > commands.index("systemctl enable courtier.service")
    table.write_text(table.read_text(encoding="utf-8").replace("[web]\nport = 8080\n", "# [web] off\n"),
                     encoding="utf-8")
    assert installer.run("install").returncode == 0
    assert not dropin.exists() and not dropin.parent.exists()
    table.write_text(table.read_text(encoding="utf-8") + "web = { port = 8080 }\n", encoding="utf-8")
    assert installer.run("install").returncode == 0 and dropin.exists()
    assert installer.run("uninstall").returncode == 0
    assert not dropin.exists() and not dropin.parent.exists()
