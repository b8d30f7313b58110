"""Batched tables (guandan.env.tables)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from players.test_compiled import PURE  # tests/ is on the path

import guandan.env.tables as tables_module
from guandan.encoding import PASS_ID, action_mask, action_of, observation_array
from guandan.env import Tables
from guandan.match import Match
from guandan.players.compiled import compiled_modules, stale_modules


def _run(tables: Tables, steps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    obs, mask, seat = tables.reset()
    out = []
    for _ in range(steps):
        choice = []
        for m in mask:
            ids = np.flatnonzero(m)
            plays = ids[ids != PASS_ID]
            choice.append(rng.choice(plays if len(plays) and rng.random() < 0.8 else ids))
        obs, mask, seat, rewards, dones = tables.step(np.array(choice))
        out.append(np.concatenate([obs.ravel(), mask.ravel(), seat, rewards.ravel(), dones]))
    return out


def test_arrays_match_each_table_and_repeat_from_the_seed() -> None:
    a = _run(Tables(3, seed=5), 150, seed=0)
    b = _run(Tables(3, seed=5), 150, seed=0)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    tables = Tables(3, seed=5)
    _run(tables, 40, seed=1)
    for i in range(3):
        obs = tables.observation(i)
        assert obs.seat == tables.seats[i]
        assert (tables.observations[i] == observation_array(obs)).all()
        assert (tables.masks[i] == action_mask(obs)).all()


def test_hands_end_with_their_rewards() -> None:
    tables = Tables(4, rules="huaian", seed=1)
    rng = np.random.default_rng(3)
    _, mask, _ = tables.reset()
    ended = 0
    for _ in range(1200):
        plays = [np.flatnonzero(m[1:]) + 1 for m in mask]
        choice = np.array([rng.choice(p) if p.size else PASS_ID for p in plays])
        matches = list(tables.matches)  # a won match is replaced by the next one
        hands = [len(m.results) for m in matches]
        _, mask, _, rewards, dones = tables.step(choice)
        for i in np.flatnonzero(dones):
            ended += 1
            result = matches[i].results[-1]
            assert len(matches[i].results) == hands[i] + 1
            steps = result.settlement.steps
            team = [0, 2] if result.winner == "13" else [1, 3]
            assert (rewards[i, team] == steps).all() and rewards[i].sum() == 0
        assert (rewards[~dones] == 0).all()
    assert ended >= 4


def test_bad_actions_are_refused_and_change_nothing() -> None:
    tables = Tables(2, seed=0)
    with pytest.raises(ValueError, match="reset"):
        tables.step(np.array([0, 0]))
    _, mask, _ = tables.reset()
    before = mask.copy()
    legal = int(np.flatnonzero(mask[0])[0])
    illegal = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(ValueError, match="table 1: action"):
        tables.step(np.array([legal, illegal]))
    assert (tables.masks == before).all()
    with pytest.raises(ValueError, match="one integer action id per table"):
        tables.step(np.array([legal]))
    with pytest.raises(ValueError, match="table 0"):
        tables.step(np.array([-1, legal]))
    with pytest.raises(ValueError, match="number of tables"):
        Tables(0)
    with pytest.raises(ValueError, match="number of tables"):
        Tables(2.5)
    with pytest.raises(ValueError, match="seed"):
        Tables(2, seed="x")
    with pytest.raises(ValueError, match="rules"):
        Tables(2, rules=3)
    with pytest.raises(ValueError, match="episode"):
        Tables(2, episode="deal")


def test_match_episodes_end_only_with_the_match() -> None:
    tables = Tables(1, rules="site", seed=3, episode="match")
    _, mask, _ = tables.reset()
    first = tables.matches[0]
    hands_rewarded = 0
    for _ in range(20000):
        ids = np.flatnonzero(mask[0])
        plays = ids[ids != PASS_ID]
        _, mask, _, rewards, dones = tables.step(np.array([plays[-1] if plays.size else ids[0]]))
        if rewards[0].any():
            hands_rewarded += 1
        if dones[0]:
            break
    assert dones[0] and first.final_winner is not None
    assert hands_rewarded == len(first.results) > 1
    assert tables.matches[0] is not first and tables.matches[0].match_number == 2


@pytest.mark.parametrize(("rules", "steps"), [
    ("site", 1400), ("national", 500), ("huaian", 500), ("nanjing", 500)])
def test_kept_arrays_equal_fresh_ones_position_by_position(rules: str, steps: int) -> None:
    # Each table's arrays, kept a turn at a time, against observation_array and action_mask of
    # the same position seen through a Match that takes the same actions: through tribute,
    # returns, finished players, ended tricks and (site) a new match: 13,600 positions.
    n = 4
    tables = Tables(n, rules=rules, seed=11, episode="match")
    obs, mask, seat = tables.reset()
    rng = np.random.default_rng(7)
    matches = [Match(rules, seed=11, match_number=i + 1) for i in range(n)]
    next_match = n + 1
    returns = 0
    for _ in range(steps):
        for i, m in enumerate(matches):
            fresh = m.observation(m.to_act)  # type: ignore[arg-type]
            assert seat[i] == m.to_act
            assert (obs[i] == observation_array(fresh)).all()
            assert (mask[i] == action_mask(fresh)).all()
            returns += fresh.phase == "return"
        choice = []
        for i in range(n):
            ids = np.flatnonzero(mask[i])
            plays = ids[ids != PASS_ID]  # lean to plays, so that hands end
            choice.append(int(rng.choice(plays if len(plays) and rng.random() < 0.85 else ids)))
        for i, m in enumerate(matches):
            fresh = m.observation(m.to_act)  # type: ignore[arg-type]
            m.apply(action_of(choice[i], fresh))
        obs, mask, seat, _, dones = tables.step(np.array(choice))
        for i, m in enumerate(matches):
            assert dones[i] == (m.final_winner is not None)
            if dones[i]:
                matches[i] = Match(rules, seed=11, match_number=next_match)
                next_match += 1
    assert returns > 0 and (next_match > n + 1 or rules != "site")


@pytest.mark.skipif(PURE, reason="installed with GUANDAN_PURE=1: nothing compiled")
def test_the_batched_step_is_compiled_and_current() -> None:
    # setup.py compiles the tables' step with mypyc: a compiled file older than its source
    # would run old code.
    folder = Path(tables_module.__file__).resolve().parent
    assert "tables" in compiled_modules(folder)
    assert stale_modules(folder) == [], "sources edited after compiling: pip install -e . again"


def test_one_table_at_a_time_steps_as_the_batch_does() -> None:
    # act(i, id) is step's turn for table i alone: two tables acted on one by one give the
    # arrays two tables stepped together give, rewards and episode ends included.
    batch, single = Tables(2, rules="huaian", seed=8), Tables(2, rules="huaian", seed=8)
    _, mask, _ = batch.reset()
    single.reset()
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(600):
        ids = [int(rng.choice(np.flatnonzero(m))) for m in mask]
        _, mask, seats, rewards, dones = batch.step(np.array(ids))
        for i, a in enumerate(ids):
            assert single.act(i, a) == seats[i]
        assert (single.observations == batch.observations).all()
        assert (single.masks == mask).all() and (single.seats == seats).all()
        assert (single.rewards == rewards).all() and (single.dones == dones).all()
        ended += int(dones.sum())
    assert ended >= 2
    legal = int(np.flatnonzero(single.masks[0])[0])
    illegal = int(np.flatnonzero(~single.masks[0])[0])
    before = single.observations.copy()
    with pytest.raises(ValueError, match="table 0: action"):
        single.act(0, illegal)
    with pytest.raises(ValueError, match="no table"):
        single.act(2, legal)
    with pytest.raises(ValueError, match="table 0: action"):
        single.act(0, float(legal))
    assert (single.observations == before).all()
    with pytest.raises(ValueError, match="reset"):
        Tables(1).act(0, legal)


def test_kept_views_final_views_and_restart() -> None:
    tables = Tables(1, rules="site", seed=2, keep_final=True)
    tables.reset()
    with pytest.raises(ValueError, match="kept no ended hand"):
        tables.final_views(0)
    rng = np.random.default_rng(1)
    views: dict[int, np.ndarray] = {}
    while True:
        m = tables.matches[0]
        for s in (1, 2, 3, 4):  # every seat's kept view is its observation_array
            views[s] = observation_array(m.observation(s))
            assert (tables.views(0)[s - 1] == views[s]).all()
        ids = np.flatnonzero(tables.masks[0])
        plays = ids[ids != PASS_ID]
        tables.act(0, int(rng.choice(plays if len(plays) else ids)))
        if tables.dones[0]:
            break
    final = tables.final_views(0)
    assert all((final[s - 1] == views[s]).all() for s in (1, 2, 3, 4))
    assert tables.final_match(0).results and tables.final_match(0).hand_number == 2
    tables.restart(0)  # the match is left: the next match number, its first decision
    m = tables.matches[0]
    assert m.match_number == 2 and m.hand_number == 1
    assert (tables.observations[0] == observation_array(m.observation(m.to_act))).all()  # type: ignore[arg-type]
    assert (tables.masks[0] == action_mask(m.observation(m.to_act))).all()  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="keep_final"):
        Tables(1, keep_final=1)


def test_match_numbers_from_first_by_step() -> None:
    # Tables on K machines numbered 1..K stepping by K never play one match twice.
    tables = Tables(3, seed=1, episode="match", first_match=2, match_step=4)
    tables.reset()
    assert [m.match_number for m in tables.matches] == [2, 6, 10]
    tables.restart(1)
    assert [m.match_number for m in tables.matches] == [2, 14, 10]
    tables.reset()
    assert [m.match_number for m in tables.matches] == [2, 6, 10]
    for bad in ({"first_match": 0}, {"match_step": 0}, {"match_step": True}):
        with pytest.raises(ValueError, match="an integer ≥ 1"):
            Tables(1, **bad)  # type: ignore[arg-type]
