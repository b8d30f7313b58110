"""Environments for learning agents: a PettingZoo AEC environment and batched tables.

>>> from guandan.env import env
>>> e = env(rules="site", seed=0)
>>> e.reset()
>>> e.agent_selection, e.last()[0]["action_mask"].dtype.name
('seat_1', 'int8')

``Tables`` (guandan.env.tables) steps many tables together with arrays in and out. Both need
numpy, pettingzoo and gymnasium: ``pip install 'guandan-lab[learn]'``.
"""

from guandan.env.aec import GuandanEnv, env, raw_env
from guandan.env.tables import Tables

__all__ = ["GuandanEnv", "Tables", "env", "raw_env"]
