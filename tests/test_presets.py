"""Presets: one object per rule set, differences as named fields (docs/rules.md, Presets)."""

import dataclasses

import pytest

from guandan.presets import DEFAULT_PRESET, PRESETS, Preset, get_preset


def test_four_presets_site_first_and_default() -> None:
    assert list(PRESETS) == ["site", "national", "huaian", "nanjing"]
    assert DEFAULT_PRESET == "site"


@pytest.mark.parametrize(
    ("name", "return_rule", "equal_gift", "a_tries"),
    [
        ("site", "low_plain", "first_met", None),
        ("national", "low", "seated_before", 3),
        ("huaian", "any", "seated_before", 3),
        ("nanjing", "low", "seated_before", 2),
    ],
)
def test_preset_differences(name: str, return_rule: str, equal_gift: str,
                            a_tries: int | None) -> None:
    p = get_preset(name)
    assert (p.name, p.return_rule, p.equal_gift, p.a_tries) == (
        name, return_rule, equal_gift, a_tries)


def test_presets_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        get_preset("site").a_tries = 3  # type: ignore[misc]


def test_get_preset_passes_a_preset_through() -> None:
    p = get_preset("huaian")
    assert get_preset(p) is p
    assert isinstance(p, Preset)


@pytest.mark.parametrize("bad", ["", "Site", "chengdu", None, 3])
def test_unknown_preset_is_a_clear_value_error(bad: object) -> None:
    known = r"\(known: site, national, huaian, nanjing\)"
    with pytest.raises(ValueError, match=r"unknown rules .*" + known):
        get_preset(bad)  # type: ignore[arg-type]
