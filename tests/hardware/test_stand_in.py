"""Libraries loaded without a module they import for a feature courtier never uses, which still works."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.stand_in import standing_in

ROOT = Path(__file__).resolve().parents[2]


def test_a_stand_in_is_seen_only_while_its_block_runs():
    with standing_in("courtier_test_absent", "a stand-in", value=3):
        from courtier_test_absent import value  # type: ignore[import-not-found]
    assert value == 3
    assert "courtier_test_absent" not in sys.modules
    with pytest.raises(ImportError):
        import courtier_test_absent  # type: ignore[import-not-found]  # noqa: F401


def test_a_loaded_module_is_never_replaced():
    with standing_in("json", "a stand-in", loads=None):
        import json
    assert json.loads("1") == 1
    with standing_in("courtier_test_absent", "a stand-in", already=("json",), value=3):
        assert "courtier_test_absent" not in sys.modules


# luma loaded as courtier loads it; then the one use of multiprocessing luma makes: its PCA9633 fades' Process.
LUMA = """
import sys
from hardware.luma_loading import deferred_multiprocessing
with deferred_multiprocessing():
    from luma.core.interface import serial
print("multiprocessing" in sys.modules, "pickle" in sys.modules)
process = serial.pca9633.transition.Process(target=print)
import multiprocessing
print(type(process) is multiprocessing.Process, "multiprocessing" in sys.modules)
"""


def test_luma_loads_without_multiprocessing_and_still_makes_its_processes():
    result = subprocess.run([sys.executable, "-c", LUMA], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "True", "True"]
