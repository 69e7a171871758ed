"""The seat pod program (MicroPython); importable under CPython so its logic can be tested."""
