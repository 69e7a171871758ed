"""``make bench``: how fast the engine plays, how quickly a table answers a button, how fast it starts.

Run ``python -m bench`` from the repository root. One run measures courtier
beside a fair stock baseline (luma's own drivers under the same runtime, on
the same wiring) and prints each figure with its ratio and, for figures the
CPU sets, per board, so the ratios hold on any machine even when the
absolute times do not.

Modules:
    wire: what the real call path puts on the buses, recorded below smbus2 and spidev, and its time.
    boards: the boards as CPU factors over this machine, with their sources; the panel's scan-out.
    throughput: engine actions and whole random games per second.
    then: the engine the targets were set beside (from the history), timed in turn with today's on one core.
    latency: a seeded game pressed on a table file's wiring, courtier's drivers beside luma's.
    coldstart: process start to READY=1 against ``python -c pass``.
    memory: resident memory of a running table, in a fresh process.
    hotspots: a cProfile of random games per game (``python -m bench.hotspots``).
    bots: bot strength and thinking time (``python -m bench.bots``, not part of ``make bench``).
    run: the whole bench and its table.
"""
