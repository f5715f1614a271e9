"""Self-play training, run from a checkout: ``python train.py --config configs/flip6.yaml``.

The command lives in ``cardarena/train.py`` (installed as ``cardarena-train``); see its help.
"""

import sys

from cardarena.train import main

if __name__ == "__main__":
    sys.exit(main())
