"""Tournaments and rankings, run from a checkout: ``python evaluate.py --game flip6 --agents ...``.

The command lives in ``cardarena/evaluate.py`` (installed as ``cardarena-evaluate``); see its help.
"""

import sys

from cardarena.evaluate import main

if __name__ == "__main__":
    sys.exit(main())
