"""``python -m guandan``: the same as the ``guandan`` command."""

import sys

from guandan.cli import main

sys.exit(main())
