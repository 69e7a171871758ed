"""The architecture's rules that code can check: import boundaries and the service unit."""

from __future__ import annotations

import ast
import configparser
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


def _unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in systemd
    parser.read(ROOT / "systemd" / "courtier.service")
    return parser


def test_service_starts_play_as_an_unprivileged_user_and_restarts_on_failure():
    unit = _unit()
    service = unit["Service"]
    assert service["User"] not in ("root", "0")
    assert "courtier play" in service["ExecStart"]
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "courtier"  # /var/lib/courtier
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi", "dialout"}
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_service_uses_the_watchdog_and_is_hardened():
    service = _unit()["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp"):
        assert service[key] == "yes"
    assert service["ProtectSystem"] == "strict"  # read-only system; only StateDirectory is writable
    assert service["CapabilityBoundingSet"] == ""


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_service_unit_passes_systemd_analyze_verify(tmp_path):
    result = subprocess.run(["systemd-analyze", "verify", str(ROOT / "systemd" / "courtier.service")],
                            capture_output=True, text=True)
    problems = [line for line in result.stderr.splitlines()
                if "courtier.service" in line and "Command /opt/courtier" not in line
                and "User" not in line and "Group" not in line]
    assert not problems, result.stderr
