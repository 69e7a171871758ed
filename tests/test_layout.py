"""The architecture's rules that code can check: import boundaries and the service unit."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "engine": {"hardware", "firmware", "gpiozero", "luma", "serial", "PIL", "time", "threading"},
    "hardware": {"engine", "firmware"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_flow_one_way(package):
    files = list((ROOT / package).rglob("*.py"))
    assert files
    for path in files:
        bad = _imports(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


UNIT = ROOT / "systemd" / "courtier.service"
ANALYZE = shutil.which("systemd-analyze")


def _unit_entries() -> dict[str, dict[str, list[str]]]:
    """Section -> key -> every value given, in order (systemd keys may repeat, like DeviceAllow=)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key, []).append(value)
    return sections


def _unit() -> dict[str, dict[str, str]]:
    """Section -> key -> the value that counts (the last one given)."""
    return {name: {key: values[-1] for key, values in keys.items()}
            for name, keys in _unit_entries().items()}


def test_service_starts_play_as_an_unprivileged_user_and_restarts_on_failure():
    unit = _unit()
    service = unit["Service"]
    assert service["User"] not in ("root", "0")
    assert "courtier play" in service["ExecStart"]
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "courtier"  # /var/lib/courtier
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi", "dialout"}
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_service_uses_the_pin_factory_every_command_uses():
    """The unit leaves the pin factory to courtier, so the self-test by hand drives the pins as the service does."""
    from hardware.pins import DEFAULT_FACTORY, ENV_VAR

    environment = _unit_entries()["Service"]["Environment"]
    assert not any(setting.startswith(f"{ENV_VAR}=") for setting in environment)
    assert DEFAULT_FACTORY == "lgpio"   # the only gpiozero factory that works on a Pi 5


def test_service_is_not_restarted_after_a_permanent_start_up_error():
    """courtier's exit status for a start-up error no restart can mend stops the restarts."""
    from firmware import exits

    assert str(exits.CONFIG) in _unit()["Service"]["RestartPreventExitStatus"].split()


def test_service_uses_the_watchdog_and_is_hardened():
    service = _unit()["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "PrivateNetwork", "RemoveIPC"):
        assert service[key] == "yes"
    assert service["ProtectSystem"] == "strict"  # read-only system; only StateDirectory is writable
    assert service["CapabilityBoundingSet"] == ""
    assert service["ProtectProc"] == "invisible"
    assert service["SystemCallFilter"] == "@system-service"
    assert service["UMask"] == "0027"


def test_service_reaches_exactly_the_devices_a_table_uses_and_still_finds_the_pi():
    """Device access is closed but for GPIO, I2C, SPI and serial; gpiozero's Pi detection keeps working.

    gpiozero reads the board revision from /proc/device-tree (or /proc/cpuinfo):
    ProcSubset=pid would hide both, and the unit then fails with "unable to
    locate Pi revision". PrivateUsers= would drop the device groups.
    """
    service = _unit_entries()["Service"]
    assert service["DevicePolicy"] == ["closed"]
    assert sorted(service["DeviceAllow"]) == sorted(
        f"char-{kind} rw" for kind in ("gpiochip", "i2c", "spidev", "ttyS", "ttyAMA", "ttyUSB", "ttyACM"))
    for hiding in ("ProcSubset", "PrivateUsers", "PrivateDevices", "InaccessiblePaths"):
        assert hiding not in service


def _exposure(root):
    """The overall exposure `systemd-analyze security` gives the unit installed under `root`."""
    result = subprocess.run([ANALYZE, "security", "--offline=yes", f"--root={root}", "courtier.service"],
                            capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for courtier\.service: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1)), result.stdout


def _installed(tmp_path, *dropins):
    units = tmp_path / "etc" / "systemd" / "system"
    (units / "courtier.service.d").mkdir(parents=True)
    shutil.copy(UNIT, units / "courtier.service")
    for name, source in dropins:
        shutil.copy(source, units / "courtier.service.d" / name)
    return tmp_path


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_service_exposure_is_at_most_2(tmp_path):
    """`systemd-analyze security` rates the unit's sandbox; 10 is fully exposed, 0 fully locked down."""
    exposure, report = _exposure(_installed(tmp_path))
    assert exposure <= 2.0, report
    assert "PrivateNetwork=" not in [line.split()[1] for line in report.splitlines() if line.startswith("\u2717")]


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_the_table_page_drop_in_opens_the_local_network_only_and_keeps_exposure_at_most_2(tmp_path):
    """With the [web] drop-in the service may serve the LAN, nothing wider, and the rating stays <= 2.0."""
    dropin = ROOT / "systemd" / "courtier-web.conf"
    exposure, report = _exposure(_installed(tmp_path, ("web.conf", dropin)))
    assert exposure <= 2.0, report
    failed = [line.split()[1] for line in report.splitlines() if line.startswith("\u2717")]
    assert "PrivateNetwork=" in failed  # the drop-in was read: the network is open
    text = dropin.read_text(encoding="utf-8")
    assert "IPAddressDeny=any" in text
    allowed = next(line for line in text.splitlines() if line.startswith("IPAddressAllow=")).split("=", 1)[1]
    assert set(allowed.split()) == {"localhost", "link-local", "multicast", "10.0.0.0/8", "172.16.0.0/12",
                                    "192.168.0.0/16", "fc00::/7"}


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_service_unit_passes_systemd_analyze_verify(tmp_path):
    result = subprocess.run([ANALYZE, "verify", str(UNIT)], capture_output=True, text=True)
    problems = [line for line in result.stderr.splitlines()
                if "courtier.service" in line and "Command /opt/courtier" not in line
                and "User" not in line and "Group" not in line]
    assert not problems, result.stderr
