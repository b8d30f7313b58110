"""The heuristic player: plays like a careful human, from one seat's observation.

It splits its hand into the cheapest set of plays (``decompose``) and then

- leads the weakest play of that split (bombs last), or, with one play left that the others
  cannot beat, takes the trick with its sure winners first and goes out with the rest;
  against an opponent that leads a weaker play after a stronger one, its long plays first
  (``guandan.players.leads``);
- leads what its partner can follow when the partner is nearly out (a low single to a partner
  holding one card, a low pair to one holding two);
- does not beat its partner's winning play, except to go out or to stop the next opponent
  from going out over a weak single or pair;
- follows an opponent with the play that costs its hand least, and only if it costs little;
- keeps its bombs until they change a trick that matters: an opponent about to go out, or the
  last tricks of its own hand (a bomb takes the lead when three plays then finish it; two,
  against an opponent seen bombing while calm, who would bomb back: ``Tracker.bombs_readily``);
  with ``race`` set (off by default), also in the race: once an opponent is down to ``race``
  cards or the partner to six, a bomb takes an opponent's play it would not follow cheaply
  otherwise (the follow that costs the hand least costs too much), unless an
  opponent bombs readily (``tracker.race_on``, ``HeuristicCore.race_for``);
- does not lead a single into an opponent holding one card (nor a pair into one holding two)
  unless nothing at all beats it;
- reads the passes an opponent made when pressed (an opponent of theirs about to go out): such
  a player beats whatever it can, so it holds nothing above that play (``Tracker.cannot_beat``);
- takes the lead with a bomb no unseen bomb can beat when three plays then take it out, even
  against such an opponent;
- returns the tribute card whose loss costs its hand least (to its partner, the highest such).

Every choice comes with a short reason in Korean and English that names the play.

>>> from guandan.match import Match
>>> m = Match(seed=1)
>>> p = HeuristicPlayer()
>>> p.act(m.observation(1)) in m.legal_actions
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from guandan.cards import RANK_VALUE, Card
from guandan.deal import TableEntry, holding_mask, next_holding
from guandan.players.base import Reason
from guandan.players.decompose import Decomposition, Part, decompose
from guandan.players.describe import play_names, reason_params
from guandan.players.leads import ANSWER_SIZE, LEAD_SIZE, careless, lead_order
from guandan.players.tracker import Tracker, race_on, remove_cards
from guandan.players.tracker import urgency as seat_urgency
from guandan.plays import legal_plays
from guandan.readings import Reading
from guandan.seats import SEATS, partner

if TYPE_CHECKING:
    from guandan.match import Action, Observation

#: How much a follow may worsen the hand (in turns) before the player prefers to pass,
#: by urgency: 0 calm, 1 an opponent is getting low, 2 an opponent is about to go out.
FOLLOW_SLACK = (0.25, 0.8, 99.0)
#: Extra cost of spending a big card (level rank or a joker) on a small trick when calm.
CONTROL_KEEP = 0.35
#: Calm, a bomb takes the lead from an opponent when the hand then goes out in this many plays
#: (in two only once an opponent has been seen bombing while calm, ``Tracker.bombs_readily``,
#: since such a player bombs back): taking the lead is worth a bomb when the hand is that close
#: to going out (docs/ai-notebook.md has the arena runs behind this and the next constants).
BOMB_FINISH: Final = 3
#: Against opponents who bomb readily (and with ``bomb_finish`` 2, always).
BOMB_FINISH_READY: Final = 2
#: The race (``tracker.race_on``; 0: no race at all): once an opponent holds this many cards or
#: fewer, or the partner ``RACE_PARTNER`` or fewer, a bomb takes an opponent's play the heuristic
#: would not follow cheaply otherwise (as the competition's ``ai2`` does from 10 cards). Off,
#: since racing won about as many hands against some opponents as it lost against others.
RACE: Final = 0


@dataclass
class View:
    """What the decision needs: one seat's cards and the public state (no hidden cards)."""

    seat: int
    level: str
    hand: list[Card]
    counts: dict[int, int]
    table: TableEntry | None
    plays: list[Reading]
    can_pass: bool
    tracker: Tracker | None = None

    @property
    def partner(self) -> int:
        return partner(self.seat)

    def active(self, seat: int) -> bool:
        return self.counts.get(seat, 0) > 0

    def opponents(self) -> list[int]:
        return [s for s in SEATS if s not in (self.seat, self.partner) and self.active(s)]

    def lowest_opponent(self) -> int:
        """The fewest cards an opponent still holds (0 when both are out)."""
        return min((self.counts[s] for s in self.opponents()), default=0)

    def next_active(self, seat: int) -> int:
        """Whose turn comes after ``seat``'s (the deal's rule: out players are skipped)."""
        return next_holding(seat, holding_mask(self.counts))

    def beatable(self, play: Reading) -> bool:
        """Could the hidden cards beat ``play`` with the same kind? (True when unknown.)"""
        if self.tracker is None:
            return True
        return self.tracker.same_kind_beatable(play)

    def opponent_beats(self, play: Reading, seats: Sequence[int] | None = None,
                       read: bool = True) -> bool:
        """Could an opponent (of ``seats``, default both) beat ``play`` with the same kind?

        The hidden cards must allow it, and (with ``read``) the opponent must not have shown
        it cannot: a pass on such a play when pressed (``Tracker.cannot_beat``).
        """
        if not self.beatable(play):
            return False
        t = self.tracker
        if t is None or not read:
            return True
        opps = self.opponents() if seats is None else seats
        return any(not t.cannot_beat(s, play) for s in opps)


def _reason(ko: str, en: str, code: str = "", **values: object) -> Reason:
    """A reason in words, and as a code with its values (``describe.REASON_CODES``)."""
    return Reason(ko=ko, en=en, code=code, params=reason_params(**values))


def _match_part(part: Part, plays: Sequence[Reading]) -> Reading | None:
    """The listed play that stands for a part of the split (same kind, rank and size)."""
    best: Reading | None = None
    for p in plays:
        if p.kind == part.kind and p.rank == part.rank and len(p.cards) == part.size:
            if part.pair_rank is None:
                return p
            if best is None or any(c.rank == part.pair_rank for c in p.cards):
                best = p
    return best


class HeuristicCore:
    """The decision rules, on a :class:`View`; shared by the heuristic and search players."""

    def __init__(self, read_passes: bool = True, bomb_timing: bool = True,
                 lead_size: float = LEAD_SIZE, answer_size: float | None = ANSWER_SIZE,
                 bomb_finish: int = BOMB_FINISH, race: int = RACE) -> None:
        #: Read the passes an opponent made when pressed (``View.opponent_beats``).
        self.read_passes = read_passes
        #: A calm bomb takes the lead when this many plays then finish (``BOMB_FINISH``).
        self.bomb_finish = bomb_finish
        #: Take the lead with a bomb no unseen bomb can beat (``Tracker.bombs_above``) when
        #: three plays then finish, also where ``finish_plays`` asks for two.
        self.bomb_timing = bomb_timing
        #: The lead order (``leads.lead_order``), and the one it answers an opponent who
        #: leads otherwise with (``leads.careless``; None: always the first).
        self.lead_size = lead_size
        self.answer_size = answer_size
        #: Bomb an opponent's play not followed cheaply once the race is on (``RACE``).
        self.race = race
        self._cost_cache: dict[tuple[str, tuple[int, ...]], float] = {}

    def __getstate__(self) -> dict[str, object]:
        """Pickled without its cache (the web game sends players to worker processes)."""
        return {"read_passes": self.read_passes, "bomb_timing": self.bomb_timing,
                "lead_size": self.lead_size, "answer_size": self.answer_size,
                "bomb_finish": self.bomb_finish, "race": self.race}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.read_passes = bool(state.get("read_passes", True))
        self.bomb_timing = bool(state.get("bomb_timing", True))
        lead_size = state.get("lead_size", LEAD_SIZE)
        self.lead_size = float(lead_size) if isinstance(lead_size, (int, float)) else LEAD_SIZE
        answer = state.get("answer_size", ANSWER_SIZE)
        self.answer_size = float(answer) if isinstance(answer, (int, float)) else None
        finish = state.get("bomb_finish", BOMB_FINISH)
        self.bomb_finish = finish if isinstance(finish, int) else BOMB_FINISH
        race = state.get("race", RACE)
        self.race = race if isinstance(race, int) else RACE
        self._cost_cache = {}

    def lead_order_of(self, tracker: Tracker | None, seat: int) -> float:
        """The lead order ``seat``'s team leads by (``leads.lead_order``'s ``per_card``): its
        own, or the answer to an opponent whose calm leads follow another (``careless``)."""
        if self.answer_size is None or tracker is None:
            return self.lead_size
        mate = partner(seat)
        if any(careless(tracker.calm_leads.get(s, []), self.lead_size)
               for s in SEATS if s != seat and s != mate):
            return self.answer_size
        return self.lead_size

    def race_for(self, tracker: Tracker | None, seat: int) -> int:
        """The cards an opponent must be down to for ``seat`` to race (``race``; 0: no race):
        not against an opponent seen bombing while calm (``Tracker.bombs_readily``), who
        bombs back whatever it cannot beat otherwise."""
        if tracker is not None and tracker.bombs_readily(seat):
            return 0
        return self.race

    def finish_plays(self, tracker: Tracker | None, seat: int) -> int:
        """How few plays must finish the hand after a calm bomb for ``seat`` to bomb for the
        lead: ``bomb_finish``, or ``BOMB_FINISH_READY`` when an opponent bombs readily."""
        if tracker is not None and tracker.bombs_readily(seat):
            return min(self.bomb_finish, BOMB_FINISH_READY)
        return self.bomb_finish

    def cost(self, hand: Sequence[Card], level: str) -> float:
        key = (level, tuple(sorted(c.index for c in hand)))
        c = self._cost_cache.get(key)
        if c is None:
            if len(self._cost_cache) > 50_000:
                self._cost_cache.clear()
            c = self._cost_cache[key] = decompose(hand, level).cost
        return c

    # -- the decision ------------------------------------------------------------------------

    def choose(self, v: View) -> tuple[Reading | None, Reason]:
        """A play from ``v.plays``, or ``None`` for a pass, and the reason."""
        if v.table is None:
            return self.lead(v)
        return self.follow(v)

    def lead(self, v: View) -> tuple[Reading, Reason]:
        d = decompose(v.hand, v.level)
        plays = v.plays
        if len(d.parts) == 1:
            p = _match_part(d.parts[0], plays) or max(plays, key=lambda r: len(r.cards))
            if len(p.cards) == len(v.hand):
                ko, en = play_names(p)
                return p, _reason(f"{ko}(으)로 남은 패를 모두 내고 나갑니다.",
                                  f"Go out with the {en}, the whole hand.", "go_out", play=p)
        matched = [(part, _match_part(part, plays)) for part in d.parts]
        parts = [(part, r) for part, r in matched if r is not None]
        if not parts:
            p = min(plays, key=lambda r: (r.power, r.key))
            ko, en = play_names(p)
            return p, _reason(f"가장 약한 {ko}(으)로 선출합니다.", f"Lead the weakest play, {en}.",
                              "lead_weakest", play=p)

        # Finishing: every part but one wins its trick: cash the plain winners first, go out
        # with the last; bombs wait, since they win whenever they are played.
        if len(parts) >= 2:
            rp = self.read_passes
            sure = [(part, r) for part, r in parts
                    if not r.power and not v.opponent_beats(r, read=rp)]
            loose = [(part, r) for part, r in parts
                     if not r.power and v.opponent_beats(r, read=rp)]
            if len(loose) <= 1 and sure:
                _, r = min(sure, key=lambda x: -len(x[1].cards))
                ko, en = play_names(r)
                return r, _reason(
                    f"{ko}은(는) 아무도 이기지 못하니 먼저 내어 선을 잡고, 남은 {len(parts) - 1}"
                    f"개 조합으로 나갑니다.",
                    f"Nobody can beat the {en}: take the lead with it, then go out with the "
                    f"{len(parts) - 1} play(s) left.", "lead_cash", play=r, n=len(parts) - 1)

        # Help a partner who is nearly out: lead what they can follow.
        pc = v.counts.get(v.partner, 0)
        opps = v.opponents()
        low_opp = min((v.counts[s] for s in opps), default=99)
        if 0 < pc <= 2 and low_opp > 1:
            kind = "single" if pc == 1 else "pair"
            same = [r for r in plays if r.kind == kind and not r.power]
            if same:
                r = min(same, key=lambda x: x.key)
                ko, en = play_names(r)
                return r, _reason(
                    f"동료가 {pc}장 남았으니 따라 낼 수 있게 가장 낮은 {ko}을(를) 선출합니다.",
                    f"Partner holds {pc} card(s): lead the lowest {en} so they can follow and "
                    f"go out.", "lead_for_partner", play=r, n=pc)

        # Do not feed an opponent who is about to go out.
        def risky(r: Reading) -> bool:
            return any(v.counts[s] == len(r.cards) and r.kind in ("single", "pair")
                       and v.opponent_beats(r, (s,), self.read_passes) for s in opps)

        normal = [(part, r) for part, r in parts if not r.power]
        safe = [(part, r) for part, r in normal if not risky(r)]
        if safe:
            per_card = self.lead_order_of(v.tracker, v.seat)
            _, r = max(safe, key=lambda x: lead_order(x[0].cost, len(x[1].cards), per_card))
            ko, en = play_names(r)
            danger = any(v.counts[s] <= 2 for s in opps) and len(safe) < len(normal)
            if danger:
                return r, _reason(
                    f"상대가 곧 나갈 수 있어 받기 어려운 {ko}(으)로 선출합니다.",
                    f"An opponent is nearly out: lead the {en}, which they cannot follow as "
                    f"easily.", "lead_hard_to_follow", play=r, n=low_opp)
            if per_card != self.lead_size and len(r.cards) > 1:
                return r, _reason(
                    f"상대가 긴 조합부터 내니 이쪽도 받기 어려운 긴 조합, {ko}부터 선출합니다.",
                    f"The opponents lead their long plays first: lead yours first too, the "
                    f"{en}, while it is hard to follow.", "lead_long_first", play=r,
                    n=d.plays)
            return r, _reason(
                f"패를 {d.plays}개 조합으로 나눠 가장 약한 {ko}부터 선출합니다.",
                f"The hand splits into {d.plays} plays: lead the weakest, the {en}.",
                "lead_split", play=r, n=d.plays)
        if normal:
            # Only risky plays: lead the strongest of them, so the opponent needs more.
            r = max((r for _, r in normal), key=lambda x: (len(x.cards), x.key))
            ko, en = play_names(r)
            return r, _reason(f"상대가 곧 나갈 수 있어 가장 강한 {ko}(으)로 막습니다.",
                              f"An opponent is nearly out: lead the strongest, the {en}.",
                              "lead_strongest_block", play=r, n=low_opp)
        r = min((r for _, r in parts), key=lambda x: (x.power, x.key))
        ko, en = play_names(r)
        return r, _reason(f"폭탄만 남아 가장 작은 {ko}(으)로 선출합니다.",
                          f"Only bombs are left: lead the smallest, the {en}.",
                          "lead_smallest_bomb", play=r)

    def follow(self, v: View) -> tuple[Reading | None, Reason]:
        assert v.table is not None
        table, owner = v.table.play, v.table.seat
        t_ko, t_en = play_names(table)
        plays = v.plays
        if not plays:
            return None, _reason(f"{t_ko}을(를) 이길 패가 없어 패스합니다.",
                                 f"Nothing beats the {t_en}: pass.", "pass_nothing_beats",
                                 table=table)
        for p in plays:
            if len(p.cards) == len(v.hand):
                ko, en = play_names(p)
                return p, _reason(f"{ko}(으)로 마지막 패를 내고 나갑니다.",
                                  f"Go out with the {en}: it is the whole hand.", "go_out", play=p)
        if owner == v.partner:
            return self.follow_partner(v)
        return self.follow_opponent(v)

    def follow_partner(self, v: View) -> tuple[Reading | None, Reason]:
        assert v.table is not None
        table = v.table.play
        t_ko, t_en = play_names(table)
        nxt = v.next_active(v.seat)
        if (table.kind in ("single", "pair") and nxt != v.partner and v.active(nxt)
                and v.counts[nxt] <= len(table.cards)
                and v.opponent_beats(table, (nxt,), self.read_passes)):
            normal = [p for p in v.plays if not p.power]
            if normal:
                sure = [p for p in normal if not v.beatable(p)]
                p = min(sure, key=lambda x: x.key) if sure else max(normal, key=lambda x: x.key)
                ko, en = play_names(p)
                return p, _reason(
                    f"다음 상대가 {v.counts[nxt]}장 남아 동료의 {t_ko}을(를) 넘을 수 있으니 "
                    f"{ko}(으)로 막습니다.",
                    f"The next opponent holds {v.counts[nxt]} card(s) and could beat partner's "
                    f"{t_en}: block with the {en}.", "block_for_partner", play=p, table=table,
                    n=v.counts[nxt])
        return None, _reason(f"동료의 {t_ko}이(가) 이기고 있어 넘지 않고 패스합니다.",
                             f"Partner's {t_en} is winning: pass rather than overtake it.",
                             "pass_partner_winning", table=table)

    def follow_opponent(self, v: View) -> tuple[Reading | None, Reason]:
        assert v.table is not None
        table, owner = v.table.play, v.table.seat
        t_ko, t_en = play_names(table)
        level = v.level
        base = self.cost(v.hand, level)
        urgency = seat_urgency(v.seat, owner, v.counts)
        n_parts = decompose(v.hand, level).plays
        best: tuple[float, int, int, Reading] | None = None
        for p in v.plays:
            if p.power:
                continue
            after = self.cost(remove_cards(v.hand, p.cards), level)
            delta = after - base
            if urgency == 0 and p.key >= 15 and table.key < 12 and n_parts > 3:
                delta += CONTROL_KEEP
            item = (delta, p.key, -len(p.cards), p)
            if best is None or item[:3] < best[:3]:
                best = item
        if best is not None and best[0] <= FOLLOW_SLACK[urgency]:
            p = best[3]
            ko, en = play_names(p)
            if urgency == 2:
                return p, _reason(f"상대가 곧 나갈 수 있어 {ko}(으)로 {t_ko}을(를) 막습니다.",
                                  f"An opponent is about to go out: stop the {t_en} with the {en}.",
                                  "stop_opponent", play=p, table=table, n=v.lowest_opponent())
            if best[0] <= -0.5:
                return p, _reason(f"패 구성에 있던 {ko}(으)로 {t_ko}을(를) 받습니다.",
                                  f"Beat the {t_en} with the {en}, a play the hand holds anyway.",
                                  "follow_fits_hand", play=p, table=table)
            return p, _reason(
                f"{ko}(으)로 {t_ko}을(를) 이겨 선을 노립니다; 패를 크게 깨지 않습니다.",
                f"Beat the {t_en} with the {en} for the lead; it costs the hand little.",
                "follow_for_lead", play=p, table=table)
        bombs = [p for p in v.plays if p.power]
        if bombs:
            after_plays = {id(p): self._plays_after(v.hand, p, level) for p in bombs}
            finish = self.finish_plays(v.tracker, v.seat)
            finishing = [p for p in bombs if after_plays[id(p)] <= finish]
            sure = False
            if not finishing and self.bomb_timing and v.tracker is not None:
                # Bomb timing: a bomb that no unseen bomb can beat is a sure trick; with the
                # lead it takes, three plays may take the hand out.
                finishing = [p for p in bombs if after_plays[id(p)] <= 3
                             and v.tracker.bombs_above(p) == 0]
                sure = bool(finishing)
            race = (urgency == 0 and not finishing
                    and race_on(v.seat, v.counts, self.race_for(v.tracker, v.seat)))
            if urgency >= 1 or finishing or race:
                pool = finishing if (finishing and urgency == 0) else bombs
                p = min(pool, key=lambda x: (self.cost(remove_cards(v.hand, x.cards), level)
                                             - base > 0.6, x.power, x.key))
                ko, en = play_names(p)
                if race:
                    n = min(v.counts[s] for s in SEATS if s != v.seat and v.counts[s] > 0)
                    return p, _reason(
                        f"{n}장만 남은 사람이 있어 승부처입니다: {ko}(으)로 {t_ko}을(를) 끊고 "
                        f"선을 잡습니다.",
                        f"Someone holds only {n}: the race is on, so cut the {t_en} with the "
                        f"{en} and take the lead.", "bomb_race", play=p, table=table, n=n)
                if urgency >= 1:
                    return p, _reason(
                        f"상대 패가 얼마 남지 않아 {ko}(으)로 {t_ko}을(를) 끊습니다.",
                        f"An opponent is running low: cut the {t_en} with the {en}.",
                        "bomb_cut", play=p, table=table, n=v.lowest_opponent())
                k = after_plays[id(p)]
                if sure:  # a sure bomb (bomb timing)
                    return p, _reason(
                        f"남은 패 중 {ko}을(를) 이길 폭탄이 없으니 선을 잡고 {k}개 조합으로 "
                        f"나갑니다.",
                        f"No unseen bomb can beat the {en}: take the lead with it, then {k} "
                        f"plays take the hand out.", "bomb_sure", play=p, n=k)
                return p, _reason(
                    f"{ko}(으)로 선을 잡으면 남은 {k}개 조합으로 나갈 수 있습니다.",
                    f"Take the lead with the {en}: then {k} play(s) take the hand out.",
                    "bomb_to_finish", play=p, n=k)
        if best is None:
            return None, _reason(f"{t_ko}을(를) 폭탄으로만 이길 수 있어 폭탄을 아끼고 패스합니다.",
                                 f"Only a bomb beats the {t_en}: keep the bomb and pass.",
                                 "pass_keep_bomb", table=table)
        ko, en = play_names(best[3])
        return None, _reason(f"{ko}(으)로 받으면 패가 깨지므로 패스합니다.",
                             f"Beating the {t_en} with the {en} would break the hand: pass.",
                             "pass_keep_shape", play=best[3], table=table)

    @staticmethod
    def _plays_after_card(hand: Sequence[Card], card: Card, level: str) -> int:
        rest = remove_cards(hand, [card])
        return decompose(rest, level).plays if rest else 0

    @staticmethod
    def _plays_after(hand: Sequence[Card], play: Reading, level: str) -> int:
        rest = remove_cards(hand, play.cards)
        return decompose(rest, level).plays if rest else 0

    def choose_return(self, hand: Sequence[Card], level: str, cards: Sequence[Card],
                      to_partner: bool = False) -> tuple[Card, Reason]:
        """The returnable card the hand needs least (its split costs least without it).

        Among cards the split spares equally, an opponent gets the weakest, a partner (the 1st
        returning to its own team's 4th) the strongest. When the weakest card would have cost
        the split a play, the reason names the play it keeps.
        """
        def after(c: Card) -> float:
            return round(self.cost(remove_cards(hand, [c]), level), 3)

        if to_partner:
            # The team's cards: the partner, the weaker hand last time, gets the strongest card
            # that leaves this hand with no more plays to make.
            best = min(cards, key=lambda c: (self._plays_after_card(hand, c, level),
                                             -c.strength(level), c.index))
            return best, _reason(
                f"{best.notation}을(를) 동료에게 돌려줍니다: 패에 필요 없는 카드 중 가장 높은 "
                f"카드입니다.",
                f"Return the {best.notation} to your partner: the highest card your hand can "
                f"spare.", "return_to_partner", card=best)
        costs = {c: after(c) for c in set(cards)}
        best = min(cards, key=lambda c: (costs[c], c.strength(level), c.index))
        weakest = min(cards, key=lambda c: (c.strength(level), c.index))
        if costs[weakest] > costs[best] + 1e-9:
            kept = next((p for p in decompose(hand, level).parts
                         if p.size > 1 and _holds(p, weakest, level)), None)
            if kept is not None:
                kr = _part_reading(kept, hand, level)
                if kr is not None:
                    ko, en = play_names(kr)
                    return best, _reason(
                        f"{best.notation}을(를) 돌려줍니다: 더 낮은 {weakest.notation}은(는) "
                        f"{ko}에 필요합니다.",
                        f"Return the {best.notation}: the lower {weakest.notation} belongs to "
                        f"your {en}.", "return_keeps_play", card=best, play=kr)
        return best, _reason(
            f"{best.notation}을(를) 돌려줍니다: 패 구성에 가장 덜 필요한 카드입니다.",
            f"Return {best.notation}: the hand's split needs it least.",
            "return_least_needed", card=best)


def _holds(part: Part, card: Card, level: str) -> bool:
    """Could this part of a split use ``card`` (its rank, or its run's span)?"""
    if part.kind in ("straight", "straight_flush", "tube", "plate"):
        length = {"straight": 5, "straight_flush": 5, "tube": 3, "plate": 2}[part.kind]
        top = RANK_VALUE[part.rank or "2"]
        vals = {14 if v == 1 else v for v in range(top - length + 1, top + 1)}
        return card.value in vals and (part.suit is None or card.suit == part.suit)
    return card.rank == part.rank or card.rank == part.pair_rank


def _part_reading(part: Part, hand: Sequence[Card], level: str) -> Reading | None:
    """A play of the hand that stands for a part of its split (for naming it)."""
    return _match_part(part, legal_plays(list(hand), level))


def view_of(obs: Observation, tracker: Tracker | None = None) -> View:
    """The decision view of an observation in the play phase."""
    plays = [a for a in obs.legal_actions if isinstance(a, Reading)]
    can_pass = any(not isinstance(a, (Reading, Card)) for a in obs.legal_actions)
    if tracker is None:
        tracker = Tracker.from_observation(obs)
    return View(obs.seat, obs.level, list(obs.hand), dict(obs.counts), obs.table, plays,
                can_pass, tracker)


def returns_to_partner(obs: Observation) -> bool:
    """Does this seat's tribute return go to its partner (a 4th giving to its own 1st)?"""
    return any(g.receiver == obs.seat and g.giver == partner(obs.seat)
               for g in obs.tribute.gifts)


def pass_action(obs: Observation) -> Action:
    for a in obs.legal_actions:
        if not isinstance(a, (Reading, Card)):
            return a
    raise ValueError("passing is not allowed now")


class HeuristicPlayer:
    """Plays by the rules of thumb of the module docstring; deterministic."""

    name = "heuristic"

    def __init__(self, seed: int = 0, read_passes: bool = True, bomb_timing: bool = True,
                 lead_size: float = LEAD_SIZE, answer_size: float | None = ANSWER_SIZE,
                 bomb_finish: int = BOMB_FINISH, race: int = RACE) -> None:
        self.seed = seed
        self.core = HeuristicCore(read_passes, bomb_timing, lead_size, answer_size, bomb_finish,
                                  race)
        self.reason = Reason("아직 고르지 않았습니다.", "Nothing chosen yet.")

    def act(self, obs: Observation) -> Action:
        if not obs.legal_actions:
            raise ValueError(f"seat {obs.seat} has nothing to do now")
        cards = [a for a in obs.legal_actions if isinstance(a, Card)]
        if cards:
            card, self.reason = self.core.choose_return(obs.hand, obs.level, cards,
                                                        returns_to_partner(obs))
            return card
        v = view_of(obs)
        play, self.reason = self.core.choose(v)
        if play is None:
            return pass_action(obs)
        return play


def decomposition(obs: Observation) -> Decomposition:
    """The split the heuristic sees in the seat's hand (for the page's hint display)."""
    return decompose(obs.hand, obs.level)
