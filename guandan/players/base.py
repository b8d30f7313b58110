"""What every player is: given one seat's observation, choose an action and say why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from guandan.match import Action, Observation


@dataclass(frozen=True)
class Reason:
    """Why a player chose its action, in Korean and English (Chinese when the player has it).

    ``code`` and ``params`` say the same for a program: which reason (``lead_split``,
    ``pass_keep_bomb`` …, see ``describe.REASON_CODES``) and its values (plays as
    ``describe.play_param`` gives them, counts, the search's figures), so that the page can
    say it in its own words and languages. Empty when a player gives only text.
    """

    ko: str
    en: str
    zh: str = ""
    code: str = ""
    params: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.en


class Player(Protocol):
    """A seat's decision maker. It sees only the observation it is given."""

    name: str
    reason: Reason

    def act(self, obs: Observation) -> Action:
        """Return one of ``obs.legal_actions`` and set ``self.reason``."""
        ...
