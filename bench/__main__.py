"""``python -m bench``: run the whole bench and print its table."""

import sys

from bench.run import main

sys.exit(main())
