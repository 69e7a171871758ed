"""``make bench``: how fast the engine plays and how quickly a table answers a button.

Run ``python -m bench`` from the repository root. One run measures, side by
side, the new screen path (partial-update drivers, only changed seats
redrawn) and the stock path (every seat redrawn each event with luma's
full-frame ``display()``), and prints each figure with its ratio, so the
ratios hold on any machine even when the absolute times do not.

Modules:
    bus: the I2C and SPI transfer-time model.
    throughput: engine actions and whole random games per second.
    latency: a seeded game played by pressing mock buttons on a table.
    memory: resident memory of a running table, in a fresh process.
    hotspots: a cProfile of random games per game (``python -m bench.hotspots``).
    run: the whole bench and its table.
"""
