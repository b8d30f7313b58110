"""What every player is: given one seat's observation, choose an action and say why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from guandan.match import Action, Observation


@dataclass(frozen=True)
class Reason:
    """Why a player chose its action, in Korean and English (Chinese when the player has it)."""

    ko: str
    en: str
    zh: str = ""

    def __str__(self) -> str:
        return self.en


class Player(Protocol):
    """A seat's decision maker. It sees only the observation it is given."""

    name: str
    reason: Reason

    def act(self, obs: Observation) -> Action:
        """Return one of ``obs.legal_actions`` and set ``self.reason``."""
        ...
