"""The boards courtier runs on, as CPU factors over the machine the bench runs on, and what a panel adds.

The bench measures CPU time on this machine's core; a board runs the same
Python that many times slower. The factors are the middles of these ranges,
from published measurements:

- Pi 4 (Cortex-A72, 1.5-1.8 GHz): x4-5.5. CPython's n-body (the Benchmarks
  Game program, 5,000,000 steps) takes 158 s on a Pi 4 at 1.5 GHz
  (chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages).
  ``pi4_factor_now`` runs the same loop here for 100,000 steps and scales it:
  the bench prints the factor that gives in each run, as a check (it moves
  with the load on this shared machine, and the Pi's Python was older).
- Pi Zero 2 W (Cortex-A53, 1 GHz): x10-20, the headline board. Its core is
  the Pi 3B+'s at 1.0 instead of 1.4 GHz; one-thread sysbench runs 687
  events/s on a Pi 3B+ and 1,478 on a Pi 4 (leoncode.co.uk/articles/raspberry-pi-benchmarks),
  so a Zero 2 W core is about 3x slower than a Pi 4's: x4.75 x 3 = x14, taken as x15.
  The bench also prints the slow end of that range, x20, so a headline
  figure that holds only at the middle shows.
- Pi Zero W (ARM1176, 1 GHz): x25-50. Raspberry Pi rates the Zero 2 W five
  times the Zero W on its four cores; one ARM11 core runs this Python some
  2-3x slower than one A53 at the same clock (no NEON, a short pipeline):
  x15 x 2.5 = x37.5.

A panel adds, to the time a frame is on the bus until it is seen, up to one
frame of its own refresh: an SSD1306 scans out at about 88 Hz with luma's
settings (REFERENCES.md 3.2), so 11.4 ms, counted whole (the worst case).
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    name: str
    factor: float  # this machine's CPU time x factor = the board's

    @property
    def column(self) -> str:
        return f"{self.name} x{self.factor:g}"


THIS_MACHINE = Board("this machine", 1.0)
PI_4 = Board("Pi 4", 4.75)
ZERO_2_W = Board("Zero 2 W", 15.0)
ZERO_2_W_SLOW = Board("Zero 2 W slow end", 20.0)
ZERO_W = Board("Zero W", 37.5)
BOARDS = (THIS_MACHINE, PI_4, ZERO_2_W, ZERO_2_W_SLOW, ZERO_W)
HEADLINE = ZERO_2_W

SCANOUT_S = 1 / 88  # one frame of an SSD1306 at luma's settings

# The published Pi 4 figure the n-body check is held against (seconds for 5,000,000 steps).
PI_4_NBODY_S = 158.3


def nbody_seconds(steps: int = 100_000) -> float:
    """CPU seconds this machine takes for `steps` of the Benchmarks Game's n-body in plain Python."""
    pi = 3.14159265358979323
    solar_mass = 4 * pi * pi
    year = 365.24
    bodies = [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], solar_mass),
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * year, 7.69901118419740425e-03 * year, -6.90460016972063023e-05 * year],
         9.54791938424326609e-04 * solar_mass),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * year, 4.99852801234917238e-03 * year, 2.30417297573763929e-05 * year],
         2.85885980666130812e-04 * solar_mass),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * year, 2.37847173959480950e-03 * year, -2.96589568540237556e-05 * year],
         4.36624404335156298e-05 * solar_mass),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * year, 1.62824170038242295e-03 * year, -9.51592254519715870e-05 * year],
         5.15138902046611451e-05 * solar_mass),
    ]
    pairs = [(bodies[i], other) for i in range(len(bodies) - 1) for other in bodies[i + 1:]]
    dt = 0.01
    started = time.process_time()
    for _ in range(steps):
        for (([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2)) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for (r, [vx, vy, vz], _) in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    return time.process_time() - started


def pi4_factor_now(steps: int = 100_000) -> float:
    """The Pi 4 factor the n-body check gives in this run (published Pi 4 time over this machine's)."""
    return PI_4_NBODY_S / (nbody_seconds(steps) * 5_000_000 / steps)
