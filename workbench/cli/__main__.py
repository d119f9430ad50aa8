"""`python -m workbench.cli ...`, as the `workbench` command (`tune --workers` starts its
helper processes this way)."""

import sys

from workbench.cli import main

sys.exit(main())
