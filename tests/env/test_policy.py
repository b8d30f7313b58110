"""The learned policy, as a player (guandan.env.policy) and as trained (guandan.env.train)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from guandan.encoding import ACTION_SIZE, OBSERVATION_SHAPE
from guandan.env.policy import Policy
from guandan.env.train import gradients, train
from guandan.match import Match
from guandan.players import make_player


def test_a_saved_policy_plays_a_match_as_a_player(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    Policy(hidden=8, seed=1).save(path, seed=1)
    players = {s: make_player("policy", seed=s, weights=str(path)) for s in (1, 3)}
    players |= {s: make_player("greedy", seed=s) for s in (2, 4)}
    match = Match("site", seed=3)
    while match.hand_number < 3 and match.to_act is not None:
        seat = match.to_act
        obs = match.observation(seat)
        match.apply(players[seat].act(obs))  # legal, or this raises
    assert len(match.records) == 2
    assert "policy" in players[1].reason.en


def test_the_policy_player_needs_its_weights(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GUANDAN_POLICY", raising=False)
    with pytest.raises(ValueError, match="needs its weights"):
        make_player("policy")
    bad = tmp_path / "bad.npz"
    bad.write_text("not numpy")
    with pytest.raises(ValueError, match="cannot read a policy"):
        make_player("policy", weights=str(bad))
    other = tmp_path / "other.npz"
    np.savez(other, w1=np.zeros(3))
    with pytest.raises(ValueError, match="not a policy file"):
        make_player("policy", weights=str(other))
    good = tmp_path / "good.npz"
    Policy(hidden=4).save(good)
    monkeypatch.setenv("GUANDAN_POLICY", str(good))
    assert make_player("policy").name == "policy"


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(0)
    policy = Policy(hidden=6, seed=2)
    for k in policy.params:
        policy.params[k] = (rng.standard_normal(policy.params[k].shape) * 0.3).astype(np.float32)
    x = rng.random((3, *OBSERVATION_SHAPE)).astype(np.float32)
    mask = np.zeros((3, ACTION_SIZE), dtype=np.bool_)
    for row in mask:
        row[rng.choice(ACTION_SIZE, 5, replace=False)] = True
    actions = np.array([int(np.flatnonzero(row)[1]) for row in mask])
    adv = np.array([1.0, -0.5, 2.0], dtype=np.float32)

    def loss() -> float:
        _, p = policy.probabilities(x, mask)
        logp = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), 0.0)
        ent = -(p * logp).sum(axis=1)
        chosen = logp[np.arange(3), actions]
        return float((-(adv * chosen) - 0.1 * ent).mean())

    grads, _ = gradients(policy, x, mask, actions, adv, entropy=0.1)
    for name, index in (("b2", (int(np.flatnonzero(mask[0])[0]),)), ("w2", (2, actions[1])),
                        ("b1", (3,)), ("w1", (int(np.argmax(x[0])), 1))):
        param = policy.params[name].astype(np.float64)
        h = 1e-2
        param[index] += h
        policy.params[name] = param.astype(np.float32)
        up = loss()
        param[index] -= 2 * h
        policy.params[name] = param.astype(np.float32)
        down = loss()
        param[index] += h
        policy.params[name] = param.astype(np.float32)
        assert grads[name][index] == pytest.approx((up - down) / (2 * h), rel=0.05, abs=1e-4)


def test_training_is_repeatable_and_moves_the_policy() -> None:
    a = train(0, seed=4, tables_n=4, batch=128, hidden=8, updates=2, log=False)
    b = train(0, seed=4, tables_n=4, batch=128, hidden=8, updates=2, log=False)
    fresh = Policy(hidden=8, seed=4)
    for k in a.params:
        assert (a.params[k] == b.params[k]).all()
    assert any((a.params[k] != fresh.params[k]).any() for k in a.params)


@pytest.mark.parametrize("module", ["guandan.encoding", "guandan.env", "guandan.env.tables",
                                    "guandan.env.policy"])
def test_docstring_examples(module: str) -> None:
    mod = importlib.import_module(module)
    if mod.__file__ is not None and not mod.__file__.endswith(".py"):
        # Compiled with mypyc (setup.py): the examples are read from the source, run as a
        # plain module beside the compiled one.
        built = Path(mod.__file__)
        source = built.with_name(built.name.split(".", 1)[0] + ".py")
        name = f"{module}__source"
        spec = importlib.util.spec_from_file_location(name, source)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        finally:
            del sys.modules[name]
    result = doctest.testmod(mod)
    assert result.failed == 0 and result.attempted > 0


def test_imitation_learns_greedys_choices() -> None:
    from guandan.encoding import action_id, action_mask, observation_array

    greedy = make_player("greedy")
    match = Match("site", seed=8)
    positions = []
    while len(positions) < 150:
        obs = match.observation(match.to_act)  # type: ignore[arg-type]
        choice = greedy.act(obs)
        mask = action_mask(obs)
        if mask.sum() > 1:  # a real choice
            positions.append((observation_array(obs), mask, action_id(choice, obs)))
        match.apply(choice)
    x = np.stack([p[0] for p in positions])
    mask = np.stack([p[1] for p in positions])
    wanted = np.array([p[2] for p in positions])

    def agreement(policy: Policy) -> float:
        _, z = policy.logits(x, mask)
        return float((z.argmax(axis=1) == wanted).mean())

    before = agreement(Policy(hidden=32, seed=1))
    after = agreement(train(0, seed=1, tables_n=8, batch=512, hidden=32, lr=0.01, updates=6,
                            imitate=1.0, log=False))
    assert after > before + 0.15, (before, after)


def test_the_engine_does_not_load_numpy() -> None:
    import subprocess
    import sys

    code = ("import sys, guandan, guandan.cli, guandan.arena, guandan.players; "
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
