"""python -m bench.peer_bgio: see bench/peer_bgio/launcher.py."""

import sys

from bench.peer_bgio.launcher import main

sys.exit(main())
