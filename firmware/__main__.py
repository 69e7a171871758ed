"""`python -m firmware` and the `courtier` command.

Python's cyclic garbage collector is held while the program loads
(`firmware.table.garbage`): the table's runtime takes it over once it
runs, and a command without a table releases it as it begins.
"""

import sys

from .table import garbage


def main() -> int:
    garbage.hold()
    try:
        from .cli import main as run

        return run()
    finally:
        garbage.release()


if __name__ == "__main__":
    sys.exit(main())
