"""Rule presets: the named rule sets a match is played under.

``site`` is the default (the specification); ``national``, ``huaian`` and ``nanjing`` differ in
three points only, each a field of :class:`Preset`.

>>> get_preset("nanjing").a_tries
2
>>> get_preset("site").a_tries is None
True
>>> get_preset("huaian").return_rule
'any'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

#: Which cards a tribute receiver may return.
#: ``low_plain``: a card ≤ 10 that is not of the level rank and not a joker, else the weakest card;
#: ``low``: a card ≤ 10, else the weakest card; ``any``: any card.
ReturnRule = Literal["low_plain", "low", "any"]

#: Who gives to the 1st when the two double-tribute gifts are of equal rank.
#: ``first_met``: the first giver met walking from the 1st's seat in play order (1→2→3→4);
#: ``seated_before``: the giver whose turn comes right before the 1st's.
EqualGiftRule = Literal["first_met", "seated_before"]


@dataclass(frozen=True)
class Preset:
    """One rule set. ``a_tries`` is the number of tries at A (``None``: unlimited)."""

    name: str
    return_rule: ReturnRule
    equal_gift: EqualGiftRule
    a_tries: int | None
    title_ko: str
    title_en: str


SITE: Final = Preset("site", "low_plain", "first_met", None, "사이트 기본", "Site (default)")
NATIONAL: Final = Preset("national", "low", "seated_before", 3, "전국 통일", "National (2017)")
HUAIAN: Final = Preset("huaian", "any", "seated_before", 3, "화이안", "Huai'an")
NANJING: Final = Preset("nanjing", "low", "seated_before", 2, "난징", "Nanjing")

#: Every preset by name, the default first.
PRESETS: Final[dict[str, Preset]] = {p.name: p for p in (SITE, NATIONAL, HUAIAN, NANJING)}
DEFAULT_PRESET: Final = "site"


def get_preset(name: str | Preset) -> Preset:
    """The preset called ``name`` (a ``Preset`` is returned as is).

    >>> get_preset("chengdu")
    Traceback (most recent call last):
    ...
    ValueError: unknown rules 'chengdu' (known: site, national, huaian, nanjing)
    """
    if isinstance(name, Preset):
        return name
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        known = ", ".join(PRESETS)
        raise ValueError(f"unknown rules {name!r} (known: {known})") from None
