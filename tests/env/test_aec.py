"""The PettingZoo AEC environment (guandan.env)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from guandan.encoding import (
    ACTION_SIZE,
    OBSERVATION_SHAPE,
    PASS_ID,
    action_mask,
    action_of,
    observation_array,
)
from guandan.env import GuandanEnv, env, raw_env
from guandan.levels import promotion
from guandan.match import Match
from guandan.seats import team_of


@pytest.mark.parametrize(("rules", "episode"), [("site", "hand"), ("national", "hand"),
                                                ("huaian", "match"), ("nanjing", "match")])
def test_passes_pettingzoo_api_test(rules: str, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: PettingZoo's advice, not an error
        api_test(env(rules=rules, seed=3, episode=episode), num_cycles=300)  # type: ignore[arg-type]


def test_seeded_runs_repeat() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env(rules="site", seed=0), num_cycles=100)


def _play_hand(e: GuandanEnv, rng: np.random.Generator) -> dict[str, float]:
    """Play one episode with random legal ids; each agent's reward as ``last`` reports it."""
    got: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        assert obs["observation"].shape == OBSERVATION_SHAPE
        if terminated or truncated:
            got[agent] = float(reward)
            e.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        assert len(ids) > 0
        e.step(int(rng.choice(ids)))
    return got


def test_one_hand_rewards_are_its_promotion() -> None:
    e = raw_env(rules="site", seed=4)
    e.reset(seed=4)
    rewards = _play_hand(e, np.random.default_rng(0))
    assert e.match is not None
    record = e.match.records[-1]
    winner, steps = promotion(record["finish_order"])
    assert steps in (1, 2, 3)
    assert rewards == {f"seat_{s}": (steps if team_of(s) == winner else -steps)
                       for s in range(1, 5)}
    assert not e.agents  # every agent was stepped out


def test_hand_episodes_go_on_through_the_match() -> None:
    e = raw_env(rules="site", seed=9)
    e.reset(seed=9)
    rng = np.random.default_rng(1)
    _play_hand(e, rng)
    e.reset()
    assert e.match is not None and e.match.hand_number == 2
    assert e.match.records[-1]["hand"] == 1
    # A hand after the first starts with tribute: the receiver returns, or the giver leads.
    first = e.agent_selection
    obs = e.observe(first)
    mask = obs["action_mask"]
    if e.match.phase == "return":
        assert mask[ACTION_SIZE - 54:].any() and not mask[:ACTION_SIZE - 54].any()
    _play_hand(e, rng)
    e.reset(seed=9)  # a seed starts the match again
    assert e.match.hand_number == 1


def test_match_episodes_reward_every_hand() -> None:
    e = raw_env(rules="site", seed=2, episode="match")
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(100000):
        obs, reward, terminated, _, _ = e.last()
        total[agent] += reward
        if terminated:
            e.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        # Prefer playing to passing so that the match ends in a few hands.
        plays = ids[ids != PASS_ID]
        e.step(int(rng.choice(plays if len(plays) else ids)))
    assert e.match is not None and e.match.final_winner is not None
    levels = [sum(promotion(r["finish_order"])[1] * (1 if promotion(r["finish_order"])[0] == "13"
                                                     else -1) for r in e.match.records)]
    assert total["seat_1"] == total["seat_3"] == -total["seat_2"] == -total["seat_4"] == levels[0]


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    e = raw_env(seed=0)
    e.reset(seed=0)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(ValueError, match="give an action id"):
        e.step(None)
    assert e.agent_selection == agent and (e.observe(agent)["action_mask"] == mask).all()
    with pytest.raises(ValueError, match="episode"):
        raw_env(episode="game")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"unknown|preset"):
        raw_env(rules="nowhere")


def test_render_shows_the_table() -> None:
    e = raw_env(seed=0, render_mode="ansi")
    e.reset()
    text = e.render()
    assert text is not None and text.startswith("hand 1 at level 2, play, seat 1 to act")


@pytest.mark.parametrize(("rules", "episode", "steps"), [
    ("site", "hand", 1500), ("huaian", "match", 1500)])
def test_every_observation_equals_a_fresh_one_step_by_step(rules: str, episode: str,
                                                           steps: int) -> None:
    # The environment keeps its arrays a turn at a time (the batched tables'); against
    # observation_array and action_mask of the same position seen through a Match that takes
    # the same actions, for all four agents at every step, through tribute and returns, the
    # episodes' last observations, and (hand episodes) a match won and the next one begun.
    e = raw_env(rules=rules, seed=6, episode=episode)
    e.reset(seed=6)
    rng = np.random.default_rng(5)
    number = 1
    m = Match(rules, seed=6, match_number=number)
    before: dict[str, np.ndarray] = {}
    returns = episodes = 0
    for _ in range(steps):
        if not e.agents:
            e.reset()
            episodes += 1
            if m.final_winner is not None or episode == "match":
                number += 1
                m = Match(rules, seed=6, match_number=number)
        agent = e.agent_selection
        obs, _, terminated, _, _ = e.last()
        if terminated:
            assert (obs["observation"] == before[agent]).all() and not obs["action_mask"].any()
            e.step(None)
            continue
        assert agent == f"seat_{m.to_act}"
        for a in e.agents:
            fresh = m.observation(int(a[-1]))
            seen = e.observe(a)
            assert (seen["observation"] == observation_array(fresh)).all()
            assert (seen["action_mask"] == action_mask(fresh)).all()
            before[a] = seen["observation"]
        returns += m.phase == "return"
        ids = np.flatnonzero(obs["action_mask"])
        plays = ids[ids != PASS_ID]  # lean to plays, so that hands end
        choice = int(rng.choice(plays if len(plays) and rng.random() < 0.85 else ids))
        m.apply(action_of(choice, m.observation(m.to_act)))  # type: ignore[arg-type]
        e.step(choice)
    assert returns > 0 and number > 1  # a match won: the next one begun
    assert episodes >= (3 if episode == "hand" else 1)
