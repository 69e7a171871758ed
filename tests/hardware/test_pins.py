"""Tests for hardware.pins: the Pi's pin factory is asked for by name, and lgpio's pipe lands in a private place.

Each check runs in a fresh Python: importing lgpio starts its notification
thread and changes the process, which the test process must not share.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LGPIO = importlib.util.find_spec("lgpio") is not None

# Imports lgpio the way the pi backend does, then says where it is and what lgpio was given.
START = """
import os
from hardware.pins import start_lgpio
start_lgpio()
import lgpio
print(os.getcwd())
print(os.environ["LG_WD"])
print(sorted(os.listdir(os.environ["LG_WD"])))
"""


@pytest.mark.skipif(not LGPIO, reason="lgpio is not installed (courtier[dev] on Linux brings it)")
def test_lgpio_makes_its_pipe_in_a_private_directory_and_leaves_the_working_directory_alone(unprivileged):
    """From a directory the user cannot write, lgpio starts; the pipe's directory is gone after exit."""
    result = unprivileged.run([sys.executable, "-c", START], cwd=unprivileged.unwritable, env={"LG_WD": ""})
    assert result.returncode == 0, result.stderr
    cwd, private, listing = result.stdout.splitlines()
    assert cwd == unprivileged.unwritable                 # lgpio chdirs to its directory; courtier comes back
    assert Path(private).name.startswith("courtier-lgpio-")
    assert listing == "['.lgd-nfy0']"
    assert not Path(private).exists()                     # removed at exit
    assert not list(Path(cwd).glob(".lgd-nfy*"))


@pytest.mark.skipif(not LGPIO, reason="lgpio is not installed (courtier[dev] on Linux brings it)")
def test_an_lg_wd_given_by_the_user_is_kept(tmp_path):
    """LG_WD set by whoever started courtier is lgpio's own setting: courtier does not replace it."""
    result = subprocess.run([sys.executable, "-c", START], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "LG_WD": str(tmp_path)}, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == str(tmp_path)
    assert (tmp_path / ".lgd-nfy0").exists()


CHOOSE = """
from hardware.errors import PermanentHardwareError
from hardware.pins import pi_pin_factory
try:
    print(type(pi_pin_factory()).__name__)
except PermanentHardwareError as exc:
    print(exc)
"""


@pytest.mark.parametrize("name, says", [
    ("mock", "MockFactory"),
    ("abacus", "GPIOZERO_PIN_FACTORY='abacus': gpiozero has no pin factory of that name"),
])
def test_gpiozero_pin_factory_names_the_factory(tmp_path, name, says):
    """GPIOZERO_PIN_FACTORY still chooses, as gpiozero documents; a name it does not know is refused."""
    result = subprocess.run([sys.executable, "-c", CHOOSE], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "GPIOZERO_PIN_FACTORY": name}, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == says


def test_gpiozeros_own_factories_are_the_entry_points_gpiozero_declares():
    """The names courtier loads directly are exactly gpiozero's (checked against its installed metadata)."""
    from importlib.metadata import entry_points

    from hardware.pins import GPIOZERO_FACTORIES

    declared = {entry.name: entry.value for entry in entry_points(group="gpiozero_pin_factories")
                if entry.value.startswith("gpiozero.")}
    assert GPIOZERO_FACTORIES == declared


# gpiozero loaded as courtier loads it; then a mock pin class named as gpiozero's environment names one.
DEFERRED = """
import sys
import hardware.buttons
from hardware.gpio import deferred_imports
print("importlib.metadata" in sys.modules, "importlib_metadata" in sys.modules)
with deferred_imports():
    from gpiozero.pins.mock import MockFactory, MockPWMPin
factory = MockFactory(pin_class="mockpwmpin")  # gpiozero looks the name up among its entry points
print(factory.pin_class is MockPWMPin, "importlib.metadata" in sys.modules, "importlib_metadata" in sys.modules)
"""


def test_gpiozero_loads_without_importlib_metadata_and_still_finds_its_entry_points():
    result = subprocess.run([sys.executable, "-c", DEFERRED], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "True", "True", "False"]


# gpiozero loaded as courtier loads it; then the features that use what it loaded without: each loads it then.
EXTRAS = """
import sys
import hardware.buttons
import gpiozero.boards, gpiozero.input_devices, gpiozero.output_devices
loaded = lambda: [name in sys.modules for name in ("statistics", "colorzero", "importlib.resources")]
print(*loaded())
print(gpiozero.input_devices.median([5, 1, 3]), gpiozero.input_devices.mean([1, 2]))
import colorzero
print(type(gpiozero.output_devices.Color("red")) is colorzero.Color)
print(gpiozero.boards.resources.files("gpiozero.fonts").joinpath("7seg.txt").is_file())
print(*loaded(), "importlib_resources" in sys.modules)
"""


def test_gpiozero_loads_without_statistics_colorzero_or_resources_and_still_uses_them():
    result = subprocess.run([sys.executable, "-c", EXTRAS], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "False", "3", "1.5", "True", "True",
                                     "True", "True", "True", "False"]
