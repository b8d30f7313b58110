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


# -- structured reasons: a code and its values, for the page's catalogs ---------------------------

#: Every reason code a player gives, and the values it names (``play``, ``table``, ``other``
#: (the play the rules of thumb would make, beside the search's own): plays as
#: ``play_param`` gives them; ``card``: a card's notation; ``cards``: a list of them; ``n``: a
#: count). The web page's catalogs have one sentence per code (``hint.why.<code>``); the
#: search adds its figures (``samples``, ``win_share``, ``candidates``, ``base_share``) to any.
REASON_CODES: Final = {
    "go_out": ("play",),
    "lead_weakest": ("play",),
    "lead_cash": ("play", "n"),
    "lead_for_partner": ("play", "n"),
    "lead_hard_to_follow": ("play", "n"),
    "lead_split": ("play", "n"),
    "lead_long_first": ("play", "n"),
    "lead_strongest_block": ("play", "n"),
    "lead_smallest_bomb": ("play",),
    "pass_nothing_beats": ("table",),
    "block_for_partner": ("play", "table", "n"),
    "pass_partner_winning": ("table",),
    "stop_opponent": ("play", "table", "n"),
    "follow_fits_hand": ("play", "table"),
    "follow_for_lead": ("play", "table"),
    "bomb_cut": ("play", "table", "n"),
    "bomb_race": ("play", "table", "n"),
    "bomb_to_finish": ("play", "n"),
    "pass_keep_bomb": ("table",),
    "bomb_sure": ("play", "n"),
    "pass_keep_shape": ("play", "table"),
    "return_least_needed": ("card",),
    "return_weakest": ("card",),
    "return_to_partner": ("card",),
    "return_keeps_play": ("card", "play"),
    "follow_smallest": ("play",),
    "bomb_smallest": ("play",),
    "random": (),
    "search_better": ("play",),
    "search_lead": ("play", "other"),
    "search_follow": ("play", "table", "other"),
    "search_take": ("play", "table"),
    "search_bomb": ("play", "table"),
    "search_cards": ("play", "cards"),
    "search_pass": ("other",),
}


def play_param(play: Reading) -> dict[str, object]:
    """A play as a reason's value: its cards (notation), kind and rank.

    >>> from guandan.cards import parse_cards
    >>> from guandan.readings import classify
    >>> play_param(classify(parse_cards("S3 D3"), "2")[0])
    {'cards': ['S3', 'D3'], 'kind': 'pair', 'rank': '3'}
    """
    return {"cards": [c.notation for c in play.cards], "kind": play.kind, "rank": play.rank}


def reason_params(**values: object) -> dict[str, object]:
    """A reason's values: plays become ``play_param`` dicts, cards their notation."""
    out: dict[str, object] = {}
    for k, v in values.items():
        if isinstance(v, Reading):
            out[k] = play_param(v)
        elif isinstance(v, Card):
            out[k] = v.notation
        else:
            out[k] = v
    return out
