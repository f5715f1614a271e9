"""``python -m cardarena.agents.tools.web``: the browser table (see the package)."""

import sys

from cardarena.agents.tools.web import main

sys.exit(main())
