"""Names of plays and cards in Korean and English, for the players' reasons (hints).

>>> from guandan.cards import parse_cards
>>> from guandan.readings import classify
>>> play_names(classify(parse_cards("S3 D3"), "2")[0])
('3 페어', 'pair of 3s')
"""

from __future__ import annotations

from typing import Final

from guandan.cards import Card
from guandan.readings import Reading

_KO: Final = {
    "single": "낱장", "pair": "페어", "triple": "트리플", "full_house": "풀하우스",
    "straight": "스트레이트", "tube": "연속 페어", "plate": "연속 트리플", "bomb": "폭탄",
    "straight_flush": "스트레이트 플러시", "joker_bomb": "조커 폭탄",
}
_EN: Final = {
    "single": "single", "pair": "pair", "triple": "triple", "full_house": "full house",
    "straight": "straight", "tube": "tube", "plate": "plate", "bomb": "bomb",
    "straight_flush": "straight flush", "joker_bomb": "joker bomb",
}
_RANK_KO: Final = {"T": "10", "LJ": "작은 조커", "BJ": "큰 조커"}
_RANK_EN: Final = {"T": "10", "LJ": "little joker", "BJ": "big joker"}


def rank_name(rank: str | None, lang: str) -> str:
    if rank is None:
        return ""
    table = _RANK_KO if lang == "ko" else _RANK_EN
    return table.get(rank, rank)


def kind_names(kind: str) -> tuple[str, str]:
    return _KO[kind], _EN[kind]


def play_names(play: Reading) -> tuple[str, str]:
    """How a reason names a play: ``('3 페어', 'pair of 3s')``, ``('A 폭탄(5장)', '5-card bomb
    of As')``."""
    kind, rank, n = play.kind, play.rank, len(play.cards)
    ko_r, en_r = rank_name(rank, "ko"), rank_name(rank, "en")
    if kind == "joker_bomb":
        return "조커 폭탄", "joker bomb"
    if kind == "single":
        return f"{ko_r} 낱장", f"single {en_r}"
    if kind == "bomb":
        return f"{ko_r} 폭탄({n}장)", f"{n}-card bomb of {en_r}s"
    if kind in ("straight", "straight_flush", "tube", "plate"):
        return f"{ko_r} 높은 {_KO[kind]}", f"{_EN[kind]} to {en_r}"
    return f"{ko_r} {_KO[kind]}", f"{_EN[kind]} of {en_r}s"


def card_names(card: Card) -> tuple[str, str]:
    return card.notation, card.notation
