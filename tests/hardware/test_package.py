"""Tests for the hardware package as a whole: exports and import boundaries."""

import ast
import subprocess
import sys
from pathlib import Path

import hardware

PACKAGE = Path(hardware.__file__).parent


def test_public_names_are_exported():
    """Every name in hardware.__all__ exists on the package."""
    missing = [name for name in hardware.__all__ if not hasattr(hardware, name)]
    assert missing == []


def test_hardware_never_imports_engine_or_firmware():
    """No module of hardware imports engine or firmware, so a driver never knows a game."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            offenders += [f"{path.name}: {name}" for name in names
                          if name.split(".")[0] in ("engine", "firmware")]
    assert offenders == []


def test_importing_hardware_loads_no_pi_only_library():
    """import hardware works off the Pi: luma drivers, bus interfaces and GPIO libraries stay unloaded."""
    code = ("import sys, hardware; "
            "print(sorted(m for m in sys.modules if m.startswith(("
            "'luma.oled', 'luma.core.interface', 'luma.emulator', 'smbus2', 'spidev', "
            "'RPi', 'lgpio', 'pygame'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=PACKAGE.parent, check=True)
    assert result.stdout.strip() == "[]"
