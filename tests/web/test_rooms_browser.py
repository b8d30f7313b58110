"""Friends' rooms in Debian's chromium, several people at once (browser contexts): the maker at
1366×768 and the partner at 360×740 play whole hands against two AIs through the page, and the
next hand's tribute (seed 3: a double tribute, both people return a card); the partner closes
the tab mid-hand and comes back to the same seat and the same cards; a spectator watches; a
forged token gets no seat; a turn timer runs out (자동 shown), then the seat is taken back;
four people (two at each size) take the four seats and play a whole hand, its result and the
next hand's tribute, no AI seat.

Every HTTP body and socket frame each context receives is recorded and checked (``Frames``):
a seat receives no card it could not have seen (its own, the plays, the gifts, the returns it
took part in, every seat's remaining cards once a hand is over), a spectator no hidden card,
nobody a seed, a deal or a token other than its own."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from guandan.match import dealt_hands

Server = Any  # tests/web/conftest.py: a ``guandan serve`` subprocess
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"

SEED = 3
CARD = re.compile(r"^(?:[SHDC][2-9TJQKA]|BJ|LJ)$")
# Every context comes from 127.0.0.1: the tests' dozen people taking seats within a minute
# would pass the 20 lookups a client address may make (a limit tested in test_rooms.py).
FAST_ROOMS = ("--room-pace", "0.03", "--room-result-wait", "1.2", "--room-grace", "1.5",
              "--room-timer-scale", "0.05", "--room-joins-per-minute", "200")


@pytest.fixture(scope="module")
def rooms_server(make_server_cls: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    s = make_server_cls(tmp_path_factory.mktemp("rooms-data"), args=FAST_ROOMS)
    s.start()
    yield s
    s.stop()


def cards_in(obj: Any, path: str = "") -> list[tuple[str, str]]:
    """Every card notation in ``obj`` with where it is (a dotted path of keys)."""
    out: list[tuple[str, str]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += cards_in(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for v in obj:
            out += cards_in(v, path)
    elif isinstance(obj, str) and CARD.match(obj):
        out.append((path, obj))
    return out


class Frames:
    """What one browser context receives from the server: every room view (HTTP answers and
    socket frames), checked as it arrives against what its seat may see."""

    def __init__(self, page: Any, name: str) -> None:
        self.name = name
        self.views: list[dict[str, Any]] = []
        self.tokens: set[str] = set()  # the context's own tokens (answers of join and create)
        self.problems: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.on("response", self._response)

    def _frame(self, payload: Any) -> None:
        if isinstance(payload, str):
            self.take(json.loads(payload))

    def _response(self, r: Any) -> None:
        if "/api/rooms" not in r.url:
            return
        try:
            body = r.json()
        except Exception:
            return
        if isinstance(body, dict):
            if "token" in body:
                self.tokens.add(body["token"])
            self.take(body.get("room") if "room" in body else body)

    def take(self, view: Any) -> None:
        if not isinstance(view, dict) or view.get("type") != "room":
            return
        self.views.append(view)
        try:
            check_view(view)
        except AssertionError as e:
            self.problems.append(f"{self.name}: {e}")


def check_view(view: dict[str, Any]) -> None:
    text = json.dumps(view)
    assert '"seed"' not in text and '"deal"' not in text and "token" not in text, "secret key"
    game = view.get("game")
    if not game:
        return
    seat = view["you"]
    dealt = dealt_hands(SEED, game["match_number"], game["hand_number"])
    ended = game.get("ended") is not None and (game["result"] is not None
                                              or game["to_act"] is None)
    allowed: Counter[str] = Counter()
    for e in game["history"] + game["trick"]:
        if e.get("play"):
            allowed.update(e["play"]["cards"])
        if e["kind"] == "gift" and e.get("card"):
            allowed[e["card"]] += 1
        if e["kind"] == "return" and e.get("card"):
            assert seat in (e["seat"], e["to"]), f"a return seat {seat} took no part in"
            allowed[e["card"]] += 1
    own = Counter(c.notation for c in dealt[seat]) if seat else Counter()
    received = Counter(e["card"] for e in game["history"]
                       if e["kind"] in ("gift", "return") and e.get("to") == seat and e["card"])
    hand = Counter(game["hand"])
    assert not hand - (own + received), f"seat {seat} holds cards never dealt to it: {hand}"
    if seat is None:
        assert not game["hand"] and not game["hand_groups"], "a spectator got a hand"
    for path, card in cards_in(game):
        if path in (".hand", ".hand_groups", ".returnable"):
            continue  # checked above
        if path.endswith(".wild") or path == ".wild":
            continue  # the level's heart: no card of anyone's
        if path.startswith((".results", ".result", ".ended")):
            assert ended or not path.startswith(".ended.remaining"), "remaining cards in play"
            continue  # finished hands: open for everyone once over
        if path.startswith((".history", ".trick", ".table", ".tribute")):
            assert allowed[card] or own[card] or received[card], f"{card} at {path}"
            continue
        raise AssertionError(f"a card at {path}")


def room_api(server: Server, method: str, path: str, token: str | None = None,
             **kw: Any) -> Any:
    headers = {"X-Room-Token": token} if token else {}
    r = httpx.request(method, server.url + path, headers=headers, timeout=30, **kw)
    return r


def new_context(browser: Any, width: int, height: int) -> Any:
    return browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR")


def my_token(page: Any, code: str) -> str:
    raw = page.evaluate(f"localStorage.getItem('guandan.room.{code}')")
    token: str = json.loads(raw)["token"]
    return token


def act_if_my_turn(page: Any) -> bool:
    """If it is this page's turn: 추천, then 내기 / 패스 / 반환 as the hint says."""
    # One look at the page (not the whole game: its history grows with every play).
    g = page.evaluate("() => { const S = window.__guandan, g = S.game;"
                      " return g && !S.busy && g.my_turn && !document.querySelector("
                      "'#btn-hint').disabled ? {phase: g.phase, version: S.room.view.version}"
                      " : null; }")
    if not g:
        return False  # not its turn, busy, or the buttons drawn a moment later
    version = g["version"]
    page.click("#btn-hint", timeout=3000)
    try:
        page.wait_for_selector("#message.hint", timeout=3000)
    except Exception:
        return False  # the turn moved on meanwhile
    if g["phase"] == "return":
        page.click("#btn-return")
    elif page.evaluate("window.__guandan.selected.size") == 0:
        page.click("#btn-pass")
    else:
        if page.evaluate("window.__guandan.selected.size") >= 2:
            try:  # the readings of the selection (which play two or more cards make)
                page.wait_for_function("() => window.__guandan.readings !== null",
                                       timeout=3000)
            except Exception:
                return False
        page.click("#btn-play")
    try:  # the action's change arrives (or, the turn having moved on, a refusal shows)
        page.wait_for_function(f"() => window.__guandan.room.view.version > {version}"
                               " || document.querySelector('#message.error')", timeout=10000)
    except Exception:
        return False  # looked at again on the next round
    return True


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"room-{name}.png"))


def make_room(page: Any, server: Server, name: str, timer: int = 0) -> str:
    page.goto(server.url + "/")
    page.click("#btn-room-start-screen")
    page.fill("#room-maker-name", name)
    if timer:
        page.check(f"input[name=room-timer][value='{timer}']")
    page.click("#btn-room-create")
    page.wait_for_selector("#room-code")
    code: str = page.text_content("#room-code")
    assert re.fullmatch(r"[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}", code)
    assert page.url.endswith(f"/r/{code}#room")
    return code


def sit(page: Any, server: Server, code: str, seat: int, name: str) -> None:
    page.goto(server.url + f"/r/{code}")
    page.wait_for_selector(f"button[data-sit='{seat}']")
    page.fill("#room-name", name)
    page.click(f"button[data-sit='{seat}']")
    page.wait_for_selector("#btn-room-ready")


def test_partners_play_a_hand_and_the_tribute_with_a_spectator(browser: Any,
                                                               rooms_server: Server) -> None:
    server = rooms_server
    ctx = {n: new_context(browser, *size) for n, size in
           (("maker", (1366, 768)), ("partner", (360, 740)), ("watcher", (1366, 768)),
            ("forger", (360, 740)))}
    pages = {n: c.new_page() for n, c in ctx.items()}
    frames = {n: Frames(p, n) for n, p in pages.items()}
    errors: list[str] = []
    for p in pages.values():
        p.set_default_timeout(20000)
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        maker, partner = pages["maker"], pages["partner"]
        code = make_room(maker, server, "민수")
        sit(partner, server, code, 3, "<i>영희</i>")
        # Names are text: the partner's name shows as typed, never as markup.
        maker.wait_for_function("() => document.body.innerText.includes('<i>영희</i>')")
        assert maker.locator(".room-seat i").count() == 0
        # Not everyone ready: 시작 is refused in the page's language, nothing changes.
        maker.click("#btn-room-start")
        maker.wait_for_selector("#room-note.error")
        assert "준비해야" in maker.text_content("#room-note")
        partner.click("#btn-room-ready")
        maker.click("#btn-room-ready")
        maker.wait_for_selector("#btn-room-ready.on")
        # The spectator opens the link; the forger brings the maker's seat with a made-up token.
        pages["watcher"].goto(server.url + f"/r/{code}")
        forger = pages["forger"]
        forger.goto(server.url + "/")
        forger.evaluate(f"localStorage.setItem('guandan.room.{code}', "
                        "JSON.stringify({token: 'A'.repeat(32), seat: 1}))")
        forger.goto(server.url + f"/r/{code}")
        forger.wait_for_function("() => window.__guandan.room && window.__guandan.room.view")
        assert forger.evaluate("window.__guandan.room.view.you") is None
        assert forger.evaluate(f"localStorage.getItem('guandan.room.{code}')") is None
        shot(maker, "lobby-1366")
        shot(partner, "lobby-360")
        # The maker starts (a seeded deal: the server runs with --allow-seed).
        r = room_api(server, "POST", f"/api/rooms/{code}/do", my_token(maker, code),
                     json={"type": "start", "seed": SEED})
        assert r.status_code == 200, r.text
        for p in (maker, partner, pages["watcher"]):
            p.wait_for_selector("section[data-view=game]:not([hidden]) #hand-wrap")
        assert partner.evaluate("window.__guandan.game.hand.length") == 27
        # The partner sits at the bottom and sees the maker at the top (seat 3 of its page).
        assert partner.text_content("#seat-3 .seat-name") == "민수"
        # A hand and the next one's tribute, every person through the page.
        reopened = False
        for _ in range(600):
            g = maker.evaluate("window.__guandan.game")
            if g["hand_number"] == 2 and g["phase"] == "play" and not g["result"]:
                break
            if not reopened and g["hand_number"] == 1 and len(g["history"]) > 12 \
                    and not g["result"]:
                # The partner closes the tab mid-hand and opens the link again.
                before = partner.evaluate("window.__guandan.game.hand")
                partner.close()
                maker.wait_for_selector("#roombar .room-chip.gone")
                assert "연결 끊김" in maker.text_content("#roombar")
                partner = ctx["partner"].new_page()
                partner.set_default_timeout(20000)
                frames["partner2"] = Frames(partner, "partner2")
                partner.goto(server.url + f"/r/{code}")
                partner.wait_for_selector("section[data-view=game]:not([hidden]) #hand .card")
                assert partner.evaluate("window.__guandan.room.view.you") == 3
                now = partner.evaluate("window.__guandan.game.hand")
                assert Counter(now) <= Counter(before) and now, (before, now)
                maker.wait_for_function(
                    "() => !document.querySelector('#roombar .room-chip.gone')")
                reopened = True
            if not (act_if_my_turn(maker) or act_if_my_turn(partner)):
                maker.wait_for_timeout(30)
        else:
            raise AssertionError("the hands did not go on")
        assert reopened
        history = maker.evaluate("window.__guandan.game.history")
        returns = [e for e in history if e["kind"] == "return"]
        assert {e["seat"] for e in returns} == {1, 3}  # on each page, itself and its partner
        watcher_game = pages["watcher"].evaluate("window.__guandan.game")
        assert watcher_game["hand"] == []
        assert all(e["card"] is None for e in watcher_game["history"] if e["kind"] == "return")
        shot(maker, "hand2-1366")
        shot(partner, "hand2-360")
        # The records of the room: the finished hand, replayed from the records page.
        maker.click("nav a[data-go=records]")
        maker.wait_for_selector("table.records")
    finally:
        for c in ctx.values():
            c.close()
    assert not errors, errors
    for f in frames.values():
        assert not f.problems, f.problems[:3]
    assert len(frames["maker"].views) > 20 and len(frames["watcher"].views) > 20


def test_turn_timer_runs_out_then_taken_back(browser: Any, rooms_server: Server) -> None:
    """A 15-second turn timer (0.75 s here): the person does nothing, the AI plays their
    turns; after three in a row the seat is 자동 for everyone, until one click takes it back."""
    server = rooms_server
    c1, c2 = new_context(browser, 360, 740), new_context(browser, 1366, 768)
    p1, p2 = c1.new_page(), c2.new_page()
    f1, f2 = Frames(p1, "maker"), Frames(p2, "opponent")
    try:
        code = make_room(p1, server, "민수", timer=15)
        sit(p2, server, code, 2, "철수")
        p2.click("#btn-room-ready")
        p1.click("#btn-room-ready")
        p1.wait_for_selector("#btn-room-ready.on")
        r = room_api(server, "POST", f"/api/rooms/{code}/do", my_token(p1, code),
                     json={"type": "start", "seed": SEED})
        assert r.status_code == 200, r.text
        p1.wait_for_selector("#roombar #room-timer")
        p2.wait_for_selector("#roombar .room-chip.auto", timeout=60000)
        p1.wait_for_selector("#btn-take-back", timeout=60000)
        assert "자동" in p2.text_content("#roombar")
        shot(p1, "auto-360")
        p1.click("#btn-take-back")
        p1.wait_for_function("() => !window.__guandan.room.view.seats[0].auto")
    finally:
        c1.close()
        c2.close()
    for f in (f1, f2):
        assert not f.problems, f.problems[:3]


def test_a_room_code_that_does_not_exist(page: Any, rooms_server: Server) -> None:
    page.goto(rooms_server.url + "/r/ZZZZZZ")
    page.wait_for_selector("#room-note.error")
    assert "그런 방이 없습니다" in page.text_content("#room-note")


# Every time #result is shown on a page, its title: the result stays up --room-result-wait
# (1.2 s here), so the page notes it rather than the test racing it.
SEEN_RESULTS = """
window.__results_seen = [];
new MutationObserver(() => {
  const r = document.querySelector('#result');
  const title = document.querySelector('#result-title');
  if (r && !r.hidden && title && title.textContent
      && window.__results_seen[window.__results_seen.length - 1] !== title.textContent)
    window.__results_seen.push(title.textContent);
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ['hidden']});
"""


def test_four_people_play_a_hand_and_the_tribute(browser: Any, rooms_server: Server) -> None:
    """Four people, two at 1366×768 and two at 360×740, take the four seats (no AI seat),
    get ready, the maker starts; they play hand 1 by clicking (추천, then 내기 or 패스), see its
    result, and the two who receive the tribute return a card on hand 2, each from their own
    seat at the bottom of their own page."""
    server = rooms_server
    sizes = {1: (1366, 768), 2: (360, 740), 3: (360, 740), 4: (1366, 768)}
    names = {1: "민수", 2: "철수", 3: "영희", 4: "수진"}
    ctx = {s: new_context(browser, *sizes[s]) for s in (1, 2, 3, 4)}
    pages = {s: c.new_page() for s, c in ctx.items()}
    frames = {s: Frames(p, f"seat {s}") for s, p in pages.items()}
    errors: list[str] = []
    for p in pages.values():
        p.set_default_timeout(20000)
        p.add_init_script(SEEN_RESULTS)
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        code = make_room(pages[1], server, names[1])
        for s in (2, 3, 4):
            sit(pages[s], server, code, s, names[s])
        for s in (1, 2, 3, 4):
            pages[s].click("#btn-room-ready")
        # Everyone sees four people ready, and no seat is left to the AI.
        for p in pages.values():
            p.wait_for_function("() => { const v = window.__guandan.room.view;"
                                " return v.seats.every(s => s.name && s.ready); }")
        assert not any(st["ai"] for st in pages[1].evaluate("window.__guandan.room.view.seats"))
        assert pages[1].locator(".room-seat.empty").count() == 0
        r = room_api(server, "POST", f"/api/rooms/{code}/do", my_token(pages[1], code),
                     json={"type": "start", "seed": SEED})
        assert r.status_code == 200, r.text
        for s, p in pages.items():
            p.wait_for_selector("section[data-view=game]:not([hidden]) #hand .card")
            assert p.evaluate("window.__guandan.room.view.you") == s
            # Its own cards at the bottom, its partner opposite, the others at the sides.
            assert p.locator("#hand .card").count() == 27
            assert Counter(p.evaluate("window.__guandan.game.hand")) == Counter(
                c.notation for c in dealt_hands(SEED, 1, 1)[s])
            assert p.text_content("#seat-3 .seat-name") == names[(s + 1) % 4 + 1]
            assert p.text_content("#seat-2 .seat-name") == names[s % 4 + 1]
        for _ in range(2000):
            g = pages[1].evaluate("() => { const g = window.__guandan.game; return {hand_number:"
                                  " g.hand_number, phase: g.phase, result: !!g.result,"
                                  " to_act: g.to_act}; }")
            if g["hand_number"] == 2 and g["phase"] == "play" and not g["result"]:
                break
            # The seat to act (seat 1's page shows the server's seat numbers) first.
            order = sorted(pages, key=lambda s: s != g["to_act"])
            if not any(act_if_my_turn(pages[s]) for s in order):
                pages[1].wait_for_timeout(20)
        else:
            raise AssertionError("the hands did not go on")
        for s, p in pages.items():
            # Hand 1's result was on every screen; hand 2 is played from each seat's cards.
            assert p.evaluate("window.__results_seen")[:1] == ["1번째 판 결과"], s
            p.wait_for_function("() => window.__guandan.game.hand_number === 2")
            g = p.evaluate("window.__guandan.game")
            assert p.locator("#hand .card").count() == len(g["hand"]) > 0
            assert not any(x["kind"] == "auto" for x in g["history"])
        history = pages[1].evaluate("window.__guandan.room.view.game.history")
        gifts = [e for e in history if e["kind"] == "gift"]
        returns = [e for e in history if e["kind"] == "return"]
        assert gifts and len(returns) == len(gifts), history
        # Each return was made by a person on their own page: the seat that received a gift.
        assert {e["seat"] for e in returns} == {e["to"] for e in gifts}
        assert not any(v["seats"][i]["auto"] for f in frames.values() for v in f.views
                       for i in range(4))
        for s in (1, 2):
            shot(pages[s], f"four-hand2-{sizes[s][0]}")
    finally:
        for c in ctx.values():
            c.close()
    assert not errors, errors
    for f in frames.values():
        assert not f.problems, f.problems[:3]
        assert len(f.views) > 50
