"""Levels: seed 000 §16-§17, docs/rules.md "Between hands" and the presets' tries at A."""

import pytest

from guandan.levels import check_levels, promote, promotion, settle

Z = {"13": 0, "24": 0}


@pytest.mark.parametrize(
    ("order", "team", "steps"),
    [([1, 3, 2, 4], "13", 3), ([1, 2, 3, 4], "13", 2), ([1, 2, 4, 3], "13", 1),
     ([2, 4, 1, 3], "24", 3), ([4, 1, 2, 3], "24", 2), ([2, 1, 3, 4], "24", 1)],
)
def test_promotion_by_partner_place(order: list[int], team: str, steps: int) -> None:
    assert promotion(order) == (team, steps)


def test_promote_caps_at_a() -> None:
    assert [promote("Q", n) for n in (1, 2, 3)] == ["K", "A", "A"]
    assert promote("A", 3) == "A"
    with pytest.raises(ValueError):
        promote("1", 1)


def test_losers_keep_and_next_hand_is_the_winners_level() -> None:
    s = settle({"13": "2", "24": "2"}, Z, None, [1, 2, 3, 4], "site")
    assert s.team_levels_after == {"13": "4", "24": "2"}   # §24 example 1
    assert (s.winner, s.steps, s.next_level, s.level_team) == ("13", 2, "4", "13")
    assert s.final_winner is None


def test_seed_16_promotion_from_own_stored_level() -> None:
    s = settle({"13": "4", "24": "8"}, Z, "24", [3, 2, 1, 4], "site")
    assert s.team_levels_after == {"13": "6", "24": "8"}
    assert s.next_level == "6"


def test_seed_17_k_plus_2_is_a_not_final_victory() -> None:
    s = settle({"13": "K", "24": "5"}, Z, "13", [1, 2, 3, 4], "site")
    assert s.team_levels_after["13"] == "A"
    assert s.final_winner is None
    assert "reached A" in s.why_en


@pytest.mark.parametrize("order", [[1, 3, 2, 4], [3, 2, 1, 4]])
def test_final_victory_at_own_a_1_2_or_1_3(order: list[int]) -> None:
    s = settle({"13": "A", "24": "9"}, Z, "13", order, "site")
    assert s.final_winner == "13"
    assert "final victory" in s.why_en


def test_1_4_win_at_a_keeps_a_plays_a_again() -> None:
    s = settle({"13": "A", "24": "9"}, Z, "13", [1, 2, 4, 3], "site")
    assert s.final_winner is None
    assert s.team_levels_after == {"13": "A", "24": "9"}
    assert s.next_level == "A" and s.a_tries_after == Z


def test_loss_at_a_keeps_a_under_site() -> None:
    s = settle({"13": "A", "24": "9"}, Z, "13", [2, 1, 3, 4], "site")
    assert s.team_levels_after == {"13": "A", "24": "T"}
    assert s.a_tries_after == Z and s.try_number is None and s.reset is None


def test_win_at_other_teams_level_is_not_final_victory() -> None:
    s = settle({"13": "A", "24": "9"}, Z, "24", [1, 3, 2, 4], "site")
    assert s.final_winner is None
    assert s.team_levels_after == {"13": "A", "24": "9"}
    assert s.next_level == "A" and s.level_team == "13"


def test_both_at_a_first_hand_shared_level_counts_as_own() -> None:
    s = settle({"13": "A", "24": "A"}, Z, None, [2, 4, 1, 3], "site")
    assert s.final_winner == "24"


@pytest.mark.parametrize(("rules", "limit"), [("national", 3), ("huaian", 3), ("nanjing", 2)])
def test_tries_at_a_then_back_to_2(rules: str, limit: int) -> None:
    levels, tries = {"13": "A", "24": "9"}, dict(Z)
    for n in range(1, limit + 1):
        order = [1, 2, 4, 3] if n % 2 else [2, 1, 3, 4]     # a 1-4 win, then a loss
        s = settle(levels, tries, "13", order, rules)
        assert s.try_number == n
        assert s.final_winner is None
        if n < limit:
            assert s.team_levels_after["13"] == "A" and s.a_tries_after["13"] == n
            assert s.reset is None
            assert f"A{n}" in s.why_en
        else:
            assert s.team_levels_after["13"] == "2" and s.a_tries_after["13"] == 0
            assert s.reset == "13" and "back to 2" in s.why_en
        levels, tries = s.team_levels_after, s.a_tries_after


def test_nanjing_reset_after_two_and_national_after_three() -> None:
    two = {"13": 1, "24": 0}
    s = settle({"13": "A", "24": "9"}, two, "13", [2, 1, 3, 4], "nanjing")
    assert s.team_levels_after["13"] == "2"
    s = settle({"13": "A", "24": "9"}, two, "13", [2, 1, 3, 4], "national")
    assert s.team_levels_after["13"] == "A" and s.a_tries_after["13"] == 2


def test_hand_at_other_teams_level_uses_no_try() -> None:
    s = settle({"13": "A", "24": "9"}, {"13": 1, "24": 0}, "24", [2, 1, 3, 4], "national")
    assert s.a_tries_after == {"13": 1, "24": 0}
    assert s.try_number is None


def test_passing_a_on_a_later_try_is_final_victory() -> None:
    s = settle({"13": "A", "24": "9"}, {"13": 2, "24": 0}, "13", [1, 3, 2, 4], "national")
    assert s.final_winner == "13" and s.try_number == 3
    assert "A3" in s.why_ko and "A3" in s.why_en


def test_failed_last_try_of_the_winner_sets_the_next_level_to_2() -> None:
    s = settle({"13": "A", "24": "9"}, {"13": 1, "24": 0}, "13", [1, 2, 4, 3], "nanjing")
    assert s.team_levels_after["13"] == "2" and s.next_level == "2"


@pytest.mark.parametrize(
    ("levels", "tries", "rules"),
    [
        ({"13": "2"}, Z, "site"),
        ({"13": "2", "24": "1"}, Z, "site"),
        ({"13": "A", "24": "2"}, {"13": 1, "24": 0}, "site"),      # site counts no tries
        ({"13": "A", "24": "2"}, {"13": 2, "24": 0}, "nanjing"),   # beyond the last try
        ({"13": "9", "24": "2"}, {"13": 1, "24": 0}, "national"),  # tries only at A
        ({"13": "A", "24": "2"}, {"13": -1, "24": 0}, "national"),
    ],
)
def test_check_levels_refuses(levels: dict[str, str], tries: dict[str, int], rules: str) -> None:
    with pytest.raises(ValueError):
        check_levels(levels, tries, rules)


@pytest.mark.parametrize("rules", ["site", "national"])
def test_both_at_a_win_at_the_other_teams_a_is_final_victory(rules: str) -> None:
    # docs/rules.md: final victory needs the team at A and the hand played at A, not its own A.
    s = settle({"13": "A", "24": "A"}, Z, "24", [1, 3, 2, 4], rules)
    assert s.final_winner == "13"
    assert s.a_tries_after["13"] == 0   # a hand at the other team's level uses no try of 13's


def test_both_at_a_1_4_win_at_the_other_teams_a_uses_no_try() -> None:
    s = settle({"13": "A", "24": "A"}, {"13": 1, "24": 1}, "24", [1, 2, 4, 3], "national")
    assert s.final_winner is None
    assert s.a_tries_after == {"13": 1, "24": 2}   # only the team at its own A uses a try


@pytest.mark.parametrize(("level_team", "try_number"), [(None, 2), ("24", 1)])
def test_final_victory_still_counts_the_losers_try_at_their_own_a(
        level_team: str | None, try_number: int | None) -> None:
    # Both at A, the hand at 24's own A (or the shared first hand): 13 wins the match, and 24,
    # which did not pass its own A, used a try (docs/rules.md). The result names the winner's try
    # when it has one, else the loser's.
    s = settle({"13": "A", "24": "A"}, {"13": 1, "24": 0}, level_team, [1, 3, 2, 4], "national")
    assert s.final_winner == "13" and s.try_number == try_number
    assert s.a_tries_after == {"13": 1, "24": 1}
    assert s.reset is None and "24" in s.why_en and "fails A1" in s.why_en


def test_final_victory_over_a_team_on_its_last_try_sends_it_back_to_2() -> None:
    s = settle({"13": "A", "24": "A"}, {"13": 0, "24": 2}, "24", [1, 3, 2, 4], "national")
    assert s.final_winner == "13" and s.reset == "24"
    assert s.team_levels_after == {"13": "A", "24": "2"} and s.a_tries_after == {"13": 0, "24": 0}
