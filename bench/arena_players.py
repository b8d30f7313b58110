"""``guandan`` with nine more players for the arena (diagnostics and tuning, not players of
the page):

    .venv/bin/python bench/arena_players.py arena --players oracle,outside ...
    VARIANT='{"name": "search", "samples": 16, "budget_ms": null, "race": 14}' \\
        .venv/bin/python bench/arena_players.py arena --players variant,outside ...

- ``oracle``: the search of ``bench/oracle_search.py`` with the real deal in place of every
  sampled one (the same candidates, play-outs, scoring and keep test). Against the
  competition's bots it shows what reading the hidden cards better could give the search there.
  Its play-outs are deterministic, so two copies of the real deal stand for any number of them.
  The environment's ``ORACLE`` (a JSON object) gives it other settings of the search.
- ``oracle-wide``: the same, weighing every legal action (``oracle_search.py``'s ``wide``).
- ``oracle-ai6``: the oracle whose play-outs play the other team a little more like ``ai6``
  plays: calm, it passes an opponent's full house, straight or tube (``ai6`` passes 90% of the
  full houses the play-outs have it contest). What a play-out model closer to the opponents
  would give, with one of ``ai6``'s habits.
- ``oracle-model`` and ``search-model``: the oracle and the search (``SAMPLES`` play-outs or
  sampled deals per candidate, 16) whose play-outs play the other team by the opponent model in
  ``MODEL`` (``bench/opponent_model.py fit --out``), each of its choices drawn by the model's
  probabilities from the player's seeded stream (``MODEL_DRAW=0``: the likeliest). Our own
  seats in the play-outs are the fast policy as always.
- ``oracle-nested`` and ``search-nested``: the oracle and the search (``SAMPLES``: 2 play-outs
  of the real deal, 16 sampled deals) whose play-outs look one ply ahead for their own team: at
  the first ``DEPTH`` (1) turns of each of its two seats in a play-out, every choice the fast
  policy weighs is played out to the end and the best taken (``NestedRollout``). What more
  depth than the one-ply choice gives.
- ``oracle-nested-model``: the oracle with both, the look-ahead for its team and ``MODEL``'s
  opponent model (drawn) for the other, in the look-ahead's play-outs too (``SAMPLES`` play-outs
  of the real deal, 16): the strongest player here, which sees every card, for the ceiling of
  what the search's play-outs can reach against a bot.
- ``variant``: one of our players with the settings of the environment's ``VARIANT`` (a JSON
  object, ``{"name": ..., ...settings}``, as ``bench/variant_arena.py`` takes them): the CLI
  gives no player settings but ``--samples``.

``bench/host_arena.sh`` runs this in place of ``guandan`` for these players, e.g.
``MODE=hand bash bench/host_arena.sh ai2 oracle 23460 150``.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import opponent_model as om  # bench/opponent_model.py, beside this script
import oracle_search  # bench/oracle_search.py, beside this script
from oracle_search import OracleSearch, pure_module

from guandan.cli import main
from guandan.deal import PASS
from guandan.match import Action, Observation
from guandan.players import REGISTRY, Player, Reason, make_player, playout
from guandan.players.playout import abstract_hand
from guandan.players.tracker import urgency
from guandan.seats import next_seat, partner, previous_seat


class HostOracle(OracleSearch):
    """The oracle as the arena builds a player: a seed, no clock, and the search's settings
    of the environment's ``ORACLE`` (a JSON object, e.g. ``{"keep_margin": 1.0}``)."""

    def __init__(self, seed: int = 0) -> None:
        settings = json.loads(os.environ.get("ORACLE", "{}"))
        super().__init__(seed=seed, budget_ms=None, samples=2, **settings)


class HostWideOracle(HostOracle):
    """The oracle weighing every legal action."""

    wide = True


def _pure_rollout() -> Any:
    """``playout.Rollout`` from its source, with the compiled module's helpers and ``APlay`` in
    place of the source's own."""
    module = pure_module(playout, "arena_pure_playout")
    for name in dir(playout):
        if not name.startswith("__") and name != "Rollout":
            setattr(module, name, getattr(playout, name))
    return module.Rollout


_PureRollout: Any = _pure_rollout()


class Ai6Rollout(_PureRollout):  # type: ignore[misc]
    """The play-outs with the other team (``others``) passing, calm, an opponent's full
    house, straight or tube, as ``ai6`` does."""

    others: frozenset[int] = frozenset()

    def follow(self, seat: int) -> Any:
        entry = self.deal.table
        if (seat in self.others and entry.seat != partner(seat)
                and entry.play.kind in ("full_house", "straight", "tube")
                and urgency(seat, entry.seat, self.deal.counts()) == 0):
            return None
        return super().follow(seat)


@contextmanager
def _playouts(rollout: Any, seat: int) -> Iterator[None]:
    """``rollout`` plays the pure search's play-outs for one decision of ``seat``, with
    ``seat``'s opponents as its ``others`` (the search module looks it up at each play-out)."""
    rollout.others = frozenset((next_seat(seat), previous_seat(seat)))
    search = oracle_search._SEARCH
    search.Rollout = rollout
    try:
        yield
    finally:
        search.Rollout = playout.Rollout


def _policy_follow(rollout: Any, seat: int) -> tuple[Any, list[Any]]:
    """The fast policy's follow for ``seat``, and the split it leaves: on a copy, since the
    policy may take a single or pair out of a bigger part."""
    parts = rollout.parts[seat]
    mine = rollout.parts[seat] = list(parts)
    try:
        return _PureRollout.follow(rollout, seat), mine
    finally:
        rollout.parts[seat] = parts


class HostAi6Oracle(HostOracle):
    """The oracle with ``Ai6Rollout`` for its play-outs."""

    def act(self, obs: Observation) -> Action:
        with _playouts(Ai6Rollout, obs.seat):
            return super().act(obs)  # type: ignore[no-any-return]


class ModelRollout(_PureRollout):  # type: ignore[misc]
    """The play-outs with the other team (``others``) played by an opponent model
    (``bench/opponent_model.py``): each choice among the model's candidates drawn by its
    probabilities (``rng``), or its likeliest (``rng`` None)."""

    others: frozenset[int] = frozenset()
    model: ClassVar[dict[str, list[float]]] = {}
    rng: random.Random | None = None

    def lead(self, seat: int) -> Any:
        parts = self.parts[seat]
        if seat not in self.others or len(parts) == 1:
            return super().lead(seat)
        feats = om.lead_features(self.deal, seat, parts, super().lead(seat))
        return om.choose(parts, om.scores(self.model["lead"], feats), self.rng)

    def follow(self, seat: int) -> Any:
        if seat not in self.others:
            return super().follow(seat)
        policy, _ = _policy_follow(self, seat)
        parts = self.parts[seat]
        entry = self.deal.table
        table, owner = self.table_play(entry.play), entry.seat
        cands: list[om.Follow | None] = [None, *om.follow_candidates(parts, table, self.level)]
        feats = om.follow_features(self.deal, seat, parts, table, owner, cands, policy)
        pick: om.Follow | None = om.choose(
            cands, om.scores(self.model["partner" if owner == partner(seat) else "opp"], feats),
            self.rng)
        if pick is None:
            return None
        play, _, split = pick
        if split is not None:  # out of a bigger part: that part leaves the rest
            parts.remove(split[0])
            parts.append(split[1])
            parts.append(play)  # ``play`` takes it out again
        return play


class NestedRollout(_PureRollout):  # type: ignore[misc]
    """The play-outs with a look-ahead for the searching team (``ours``): at each of its
    seats' first ``depth`` turns of a play-out, every choice the fast policy weighs (on a lead
    every part of the split; on a follow the pass, every part that beats the table and the
    policy's own, a split-out included) is played out to the end by the fast policy, and the
    one whose play-out ends best for that seat's team is taken (the policy's own on a tie).
    Our seats in the real game are the search, not the fast policy: does playing them one ply
    deeper in the play-outs help? (With the real cards a little; on sampled deals no:
    ``bench/ai_figures.md``, "Stop 41".)"""

    ours: frozenset[int] = frozenset()
    depth: ClassVar[int] = 1
    #: With N > 0, each choice is played out in N deals where the other seats' cards are dealt
    #: again (``_redealt``), not in the play-out's own deal, which the seat does not see.
    redeal: ClassVar[int] = 0
    redeal_rng: ClassVar[random.Random] = random.Random(0)
    #: The look-ahead's own play-outs: the compiled fast policy (``oracle-nested-model``: the
    #: opponent model's, ``ModelRollout``).
    inner: ClassVar[Any] = playout.Rollout

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Turns looked ahead at so far in this play-out, per seat of the searching team.
        self.looked = dict.fromkeys(self.ours, 0)

    def choose(self, seat: int) -> Any:
        looked = self.looked
        if seat not in looked or looked[seat] >= self.depth:
            return super().choose(seat)
        looked[seat] += 1
        parts = self.parts[seat]
        if self.deal.table is None:
            policy = super().lead(seat)
            options: list[tuple[Any, list[Any]]] = [(policy, parts)]
            options += [(p, parts) for p in parts if p is not policy]
        else:
            policy, mine = _policy_follow(self, seat)
            table = self.table_play(self.deal.table.play)
            options = [(policy, mine)]
            if policy is not None:
                options.append((None, parts))
            options += [(p, parts) for p in parts if p is not policy and p.beats(table)]
        worlds = [(self.deal, self.parts)] if not self.redeal else self._redealt(seat)
        best, best_value = options[0], -99.0 * len(worlds)
        for p, hand in options:
            value = 0.0
            for world, world_parts in worlds:
                deal = world.clone()
                sub = {s: list(hand if s == seat else world_parts[s]) for s in world_parts}
                rollout = self.inner(deal, sub, self.lead_size, self.styles, self.finish,
                                     self.race)
                if p is None:
                    deal.apply(PASS)
                else:
                    rollout.play(seat, p)
                rollout.run()
                value += rollout.value(seat)
            if value > best_value:
                best, best_value = (p, hand), value
        self.parts[seat] = best[1]
        return best[0]

    def _redealt(self, seat: int) -> list[tuple[Any, dict[int, list[Any]]]]:
        """``redeal`` deals in which the other three seats' cards are dealt again at random
        among them (their counts kept): what ``seat`` may believe, not where the play-out's
        deal put them."""
        hands = self.deal.hands
        others = [s for s in hands if s != seat]
        pool = [c for s in others for c in hands[s]]
        worlds = []
        for _ in range(self.redeal):
            self.redeal_rng.shuffle(pool)
            new, i = {seat: hands[seat]}, 0
            for s in others:
                new[s] = pool[i:i + len(hands[s])]
                i += len(hands[s])
            world = self.deal.clone()
            world._set_hands(new)  # a bench diagnostic: the engine has no public re-deal
            parts = {s: abstract_hand(new[s], self.level) for s in others}
            parts[seat] = self.parts[seat]
            worlds.append((world, parts))
        return worlds


class NestedModelRollout(NestedRollout, ModelRollout):
    """Both at once: the look-ahead for the searching team, the opponent model for the other
    team, in the look-ahead's own play-outs too (pure Python, so slow): the strongest play-outs
    here, for the oracle's ceiling against a bot."""

    inner = ModelRollout


class _Clockless:
    """A search or oracle as the arena builds a bench player: a seed, no clock, and
    ``SAMPLES`` sampled deals or play-outs per candidate (``samples`` by default)."""

    samples: ClassVar[str] = "16"
    #: The play-outs it searches with, in place of the search's own (``_playouts``).
    rollout: ClassVar[Any] = playout.Rollout

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed=seed, budget_ms=None,  # type: ignore[call-arg]
                         samples=int(os.environ.get("SAMPLES", self.samples)))

    def _arm(self, obs: Observation) -> None:
        """Set the play-outs' class settings for one decision of ``obs.seat``."""

    def act(self, obs: Observation) -> Action:
        self._arm(obs)
        with _playouts(self.rollout, obs.seat):
            return super().act(obs)  # type: ignore[misc, no-any-return]


class _Nested(_Clockless):
    """A search (16 sampled deals per candidate; for the oracle 2 play-outs of the real deal,
    which are deterministic) whose play-outs look one ply ahead at the first ``DEPTH`` (1)
    turns of each of its team's seats (``NestedRollout``)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.depth = int(os.environ.get("DEPTH", "1"))
        self.redeal = int(os.environ.get("REDEAL", "0"))
        self.deals = random.Random(seed)

    rollout = NestedRollout

    def _arm(self, obs: Observation) -> None:
        super()._arm(obs)
        NestedRollout.ours = frozenset((obs.seat, partner(obs.seat)))
        NestedRollout.depth, NestedRollout.redeal = self.depth, self.redeal
        NestedRollout.redeal_rng = self.deals


class HostNestedOracle(_Nested, OracleSearch):
    """The oracle with the look-ahead in its play-outs."""

    samples = "2"


class HostNestedSearch(_Nested, oracle_search._PureSearch):  # type: ignore[misc]
    """The search with the look-ahead in its play-outs."""


def _opponent_model() -> dict[str, list[float]]:
    path = os.environ.get("MODEL")
    if not path:
        raise SystemExit("oracle-model, search-model, oracle-nested-model: set MODEL to a "
                         "model's weights (bench/opponent_model.py fit --out)")
    try:
        return om.load(path)
    except ValueError as e:
        raise SystemExit(f"oracle-model, search-model, oracle-nested-model: {e}") from e


class _Modelled(_Clockless):
    """A search (16 sampled deals or play-outs per candidate) whose play-outs play the other
    team by ``MODEL``'s opponent model, each choice drawn by its probabilities
    (``MODEL_DRAW=0``: its likeliest)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.model = _opponent_model()
        self.draws = random.Random(seed) if os.environ.get("MODEL_DRAW", "1") != "0" else None

    rollout = ModelRollout

    def _arm(self, obs: Observation) -> None:
        super()._arm(obs)
        ModelRollout.model, ModelRollout.rng = self.model, self.draws
        # ``_playouts`` sets ``others`` on the class it swaps in, which may be a subclass
        ModelRollout.others = frozenset((next_seat(obs.seat), previous_seat(obs.seat)))


class HostModelOracle(_Modelled, OracleSearch):
    """The oracle with the opponent model in its play-outs (play-outs of the real deal)."""


class HostModelSearch(_Modelled, oracle_search._PureSearch):  # type: ignore[misc]
    """The search with the opponent model in its play-outs."""


class HostNestedModelOracle(_Nested, _Modelled, OracleSearch):
    """The oracle with both the look-ahead for its team and ``MODEL``'s opponent model, drawn,
    in its play-outs (``SAMPLES`` play-outs of the real deal per candidate, 16)."""

    rollout = NestedModelRollout


class Variant:
    """The player and settings ``VARIANT`` names (a compiled player cannot be subclassed)."""

    def __init__(self, seed: int = 0) -> None:
        spec = json.loads(os.environ.get("VARIANT", "{}"))
        if not isinstance(spec, dict) or "name" not in spec:
            raise SystemExit("variant: set VARIANT to a JSON object with the player's name, "
                             "e.g. VARIANT='{\"name\": \"search\", \"race\": 14}'")
        self.inner: Player = make_player(spec.pop("name"), seed=seed, **spec)
        self.name = f"variant {os.environ['VARIANT']}"

    @property
    def reason(self) -> Reason:
        return self.inner.reason

    def act(self, obs: Observation) -> Action:
        return self.inner.act(obs)


REGISTRY["oracle"] = "__main__:HostOracle"
REGISTRY["oracle-wide"] = "__main__:HostWideOracle"
REGISTRY["oracle-ai6"] = "__main__:HostAi6Oracle"
REGISTRY["oracle-model"] = "__main__:HostModelOracle"
REGISTRY["search-model"] = "__main__:HostModelSearch"
REGISTRY["oracle-nested"] = "__main__:HostNestedOracle"
REGISTRY["search-nested"] = "__main__:HostNestedSearch"
REGISTRY["oracle-nested-model"] = "__main__:HostNestedModelOracle"
REGISTRY["variant"] = "__main__:Variant"

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
