"""Environments for learning agents: a PettingZoo AEC environment and batched tables.

>>> from guandan.env import env
>>> e = env(rules="site", seed=0)
>>> e.reset()
>>> e.agent_selection, e.last()[0]["action_mask"].dtype.name
('seat_1', 'int8')

``Tables`` (guandan.env.tables) steps many tables together with arrays in and out. Both need
numpy, pettingzoo and gymnasium: ``pip install 'guandan-lab[learn]'``.
"""

import os

# The policies here multiply small batches: BLAS threads only fight over the cores (a
# decision was 30 times slower on two busy cores). Set before numpy loads, unless set already.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as e:  # the learning extra is optional
    raise ImportError("guandan.env needs numpy, pettingzoo and gymnasium: "
                      "pip install 'guandan-lab[learn]'") from e

from guandan.env.aec import GuandanEnv, env, raw_env
from guandan.env.tables import Tables

__all__ = ["GuandanEnv", "Tables", "env", "raw_env"]
