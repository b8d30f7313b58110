"""Friends' rooms through the API and the room's socket (TestClient): making a room, taking
seats, refusals that change nothing, a whole hand with two people and two AIs, the turn timer,
the grace period and 자동, spectators, forged tokens, the socket's limits. Every body and frame
a client receives is checked against what its seat may see (``Seen``)."""

from __future__ import annotations

import contextlib
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from outside_program import answer_first_until_the_hands_end
from starlette.websockets import WebSocketDisconnect

from guandan.web.rooms.hub import RoomLimits, RoomTimes
from guandan.web.rooms.room import CODE_ALPHABET, decode_room
from guandan.web.server import create_app

Json = dict[str, Any]
FAST = RoomTimes(grace=0.3, pace=0.01, result_wait=0.2, idle_close=3600, lease=5,
                 timer_scale=0.02)


@pytest.fixture
def client(tmp_path: Path) -> Any:
    app = create_app(tmp_path / "data", ai="greedy", allow_seed=True, room_times=FAST,
                     room_limits=RoomLimits(rooms_per_client=3, joins_per_minute=1000))
    # (a spectator's polls below are lookups: the limit has a test of its own)
    with TestClient(app) as c:
        yield c


def hub_room(client: TestClient, code: str) -> Any:
    """The room as the server committed it (every seat's cards), read from its row."""
    store = client.app.state.rooms.store  # type: ignore[attr-defined]
    with store.db.transaction(write=False) as tx:
        version, data = tx.execute("SELECT version, data FROM rooms WHERE code = ?",
                             (code,)).fetchone()
    return decode_room(bytes(data), int(version))


class Seen:
    """Checks every body and frame one client receives: a seat's view holds its own cards
    as the server has them, and no other seat's hidden card; a spectator's none. Cards of
    other seats appear only as plays, gifts, returns it took part in, and at a hand's end."""

    def __init__(self, client: TestClient, code: str, seat: int | None) -> None:
        self.client, self.code, self.seat = client, code, seat
        self.frames = 0

    def check(self, view: Json | None) -> None:
        if not view or view.get("type") != "room":
            return
        self.frames += 1
        text = json.dumps(view)
        assert "token" not in text.replace('"bad_token"', "")
        assert view["you"] == self.seat
        game = view.get("game")
        if game is None:
            return
        room = hub_room(self.client, self.code)
        assert game["id"] == self.code  # never the match's own id, nor a seed
        assert "seed" not in text and "deal" not in json.dumps(game.get("tribute"))
        m = room.game.match
        if self.seat is None:
            assert game["hand"] == [] and game["hand_groups"] == []
            for e in game["history"] + (game["tribute"] or {}).get("returns", []):
                if e["kind"] == "return":
                    assert e["card"] is None
        elif room.version == view["version"] and game["result"] is None:
            assert Counter(game["hand"]) == Counter(c.notation for c in m.hands[self.seat])
        else:  # an older view: at least the seat's cards of the hand, never more than held
            assert len(game["hand"]) <= 28  # a tribute's receiver holds 28 until it returns one
        for e in game["history"]:
            if e["kind"] == "return" and e["card"] is not None:
                assert self.seat in (e["seat"], e["to"])
        if game.get("ended") is not None:
            assert game["result"] is not None or game["to_act"] is None


def new_room(client: TestClient, name: str = "민수", **settings: Any) -> Json:
    r = client.post("/api/rooms", json={"name": name, **settings})
    assert r.status_code == 201, r.text
    body: Json = r.json()
    return body


def join(client: TestClient, code: str, seat: int, name: str) -> Json:
    r = client.post(f"/api/rooms/{code}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    body: Json = r.json()
    return body


def do(client: TestClient, code: str, token: str, seen: Seen | None = None,
       **msg: Any) -> Any:
    return send(client, code, token, msg, seen)


def send(client: TestClient, code: str, token: str, msg: Json, seen: Seen | None = None) -> Any:
    r = client.post(f"/api/rooms/{code}/do", json=msg, headers={"X-Room-Token": token})
    if seen is not None and r.status_code == 200:
        seen.check(r.json()["room"])
    return r


def refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def wait_for(client: TestClient, code: str, token: str, test: Any, seen: Seen,
             timeout: float = 20) -> Json:
    deadline = time.time() + timeout
    while time.time() < deadline:
        view = client.get(f"/api/rooms/{code}", headers={"X-Room-Token": token}).json()
        seen.check(view)
        if test(view):
            return view  # type: ignore[no-any-return]
        time.sleep(0.02)
    raise AssertionError(f"waited in vain: {view}")


def test_make_and_join(client: TestClient) -> None:
    made = new_room(client, timer=30, spectators=False)
    code = made["code"]
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert len(made["token"]) >= 22  # >= 128 bits, url-safe base64
    view = made["room"]
    assert view["you"] == 1 and view["maker"] and view["settings"]["timer"] == 30
    assert [s["ai"] for s in view["seats"]] == [False, True, True, True]
    # The token is kept only as its hash.
    assert made["token"] not in hub_room(client, code).encode().decode()
    # Bad names, taken seats, unknown codes: refused, nothing changed.
    before = hub_room(client, code).version
    refused(client.post(f"/api/rooms/{code}/join", json={"seat": 2, "name": ""}), 422,
            "bad_name")
    refused(client.post(f"/api/rooms/{code}/join", json={"seat": 2, "name": "x" * 17}), 422,
            "bad_name")
    refused(client.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "영희"}), 409,
            "seat_taken")
    refused(client.post("/api/rooms/ZZZZZZ/join", json={"seat": 2, "name": "영희"}), 404,
            "room_not_found")
    refused(client.get("/api/rooms/0OI1"), 404, "room_not_found")
    assert hub_room(client, code).version == before
    b = join(client, code, 3, "<b>영희</b>")
    assert b["room"]["seats"][2]["name"] == "<b>영희</b>"  # kept as text; the page shows text
    assert b["token"] != made["token"]
    join(client, code, 2, "철수")
    join(client, code, 4, "지훈")
    refused(client.post(f"/api/rooms/{code}/join", json={"seat": 4, "name": "x"}), 409,
            "room_full")
    # No spectators in this room: a look without a token shows the lobby, not the match.
    assert client.get(f"/api/rooms/{code}").json()["game"] is None


def test_refusals_and_forged_tokens(client: TestClient) -> None:
    a = new_room(client)
    code, ta = a["code"], a["token"]
    tb = join(client, code, 3, "영희")["token"]
    other = new_room(client, "남")
    before = hub_room(client, code).version
    refused(do(client, code, tb, type="start"), 403, "not_maker")
    refused(do(client, code, ta, type="start"), 409, "not_ready")
    refused(do(client, code, "x" * 32, type="ready"), 403, "bad_token")
    refused(do(client, code, other["token"], type="ready"), 403, "bad_token")
    refused(do(client, code, ta, type="play", cards=["H2"]), 409, "not_started")
    refused(do(client, code, ta, type="dance"), 422, "bad_request")
    refused(send(client, code, ta, {"type": "move", "from": 3, "to": 9}), 422, "bad_seat")
    assert hub_room(client, code).version == before
    # The maker moves the partner; freeing a seat makes its token worthless.
    assert send(client, code, ta, {"type": "move", "from": 3, "to": 2}).status_code == 200
    assert hub_room(client, code).seats[2].name == "영희"
    assert do(client, code, ta, type="free", seat=2).status_code == 200
    refused(do(client, code, tb, type="ready"), 403, "bad_token")
    # Limits: rooms per client.
    new_room(client, "셋")
    refused(client.post("/api/rooms", json={"name": "넷"}), 429, "too_many_rooms")


def play_turn(client: TestClient, code: str, token: str, seen: Seen) -> None:
    """The seat's turn, played with the hint (the hint is for the asking seat only)."""
    r = do(client, code, token, seen, type="hint")
    if r.status_code != 200:  # the turn passed on meanwhile (the AI was quicker)
        return
    hint = r.json()["hint"]
    if hint["kind"] == "pass":
        r = do(client, code, token, seen, type="pass")
    elif hint["kind"] == "return":
        r = do(client, code, token, seen, type="return", card=hint["cards"][0])
    else:
        r = do(client, code, token, seen, type="play", cards=hint["cards"],
               kind=hint["play"]["kind"], rank=hint["play"]["rank"])
    assert r.status_code == 200, r.text


def test_two_partners_play_a_hand_and_the_next_tribute(client: TestClient) -> None:
    """Seats 1 and 3 are people (partners), 2 and 4 the AI: a whole hand, then the next
    hand's tribute; every answer checked against what each seat may see."""
    a = new_room(client)
    code, ta = a["code"], a["token"]
    tb = join(client, code, 3, "영희")["token"]
    seen = {1: Seen(client, code, 1), 3: Seen(client, code, 3)}
    spectator = Seen(client, code, None)
    do(client, code, ta, seen[1], type="ready")
    do(client, code, tb, seen[3], type="ready")
    refused(do(client, code, tb, type="start"), 403, "not_maker")
    r = do(client, code, ta, seen[1], type="start", seed=10)
    assert r.status_code == 200, r.text
    tokens = {1: ta, 3: tb}
    deadline = time.time() + 60
    hands_seen: set[int] = set()
    while time.time() < deadline:
        room = hub_room(client, code)
        m = room.game.match
        spectator.check(client.get(f"/api/rooms/{code}").json())
        hands_seen.add(m.hand_number)
        if m.hand_number == 2 and m.phase == "play":
            break
        s = m.to_act
        if s in tokens and room.game.seen_results == len(m.results):
            refused(do(client, code, tokens[3 if s == 1 else 1], type="pass"), 409,
                    "not_your_turn")
            play_turn(client, code, tokens[s], seen[s])
        else:
            time.sleep(0.01)
    else:
        raise AssertionError("the hands did not go on")
    assert hands_seen == {1, 2}
    records = client.get(f"/api/rooms/{code}/records",
                         headers={"X-Room-Token": ta}).json()
    assert records["hands"] == 1 and len(records["results"]) == 1
    assert client.get(f"/api/rooms/{code}/replay/1").status_code == 200
    refused(client.get(f"/api/rooms/{code}/replay/2"), 404, "no_such_hand")
    assert seen[1].frames > 5 and seen[3].frames > 5 and spectator.frames > 5


def hello(ws: Any, token: str | None = None) -> Json:
    ws.send_text(json.dumps({"type": "hello"} | ({"token": token} if token else {})))
    frame: Json = json.loads(ws.receive_text())
    return frame


def test_socket_pushes_and_secrecy(client: TestClient) -> None:
    a = new_room(client)
    code, ta = a["code"], a["token"]
    tb = join(client, code, 2, "철수")["token"]
    seen1, seen2, watch = Seen(client, code, 1), Seen(client, code, 2), Seen(client, code, None)
    with client.websocket_connect(f"/api/rooms/{code}/socket") as w1, \
            client.websocket_connect(f"/api/rooms/{code}/socket") as w2, \
            client.websocket_connect(f"/api/rooms/{code}/socket") as ws:
        f1, f2, fs = hello(w1, ta), hello(w2, tb), hello(ws)
        for s, f in ((seen1, f1), (seen2, f2), (watch, fs)):
            s.check(f)
        assert f1["you"] == 1 and f2["you"] == 2 and fs["you"] is None
        w1.send_text(json.dumps({"type": "ready", "id": 1}))
        w2.send_text(json.dumps({"type": "ready", "id": 7}))
        w1.send_text(json.dumps({"type": "start", "seed": 3, "id": 2}))
        frames: dict[str, list[Json]] = {"1": [], "2": [], "s": []}
        answers: dict[str, list[Json]] = {"1": [], "2": [], "s": []}

        def drain(ws_: Any, key: str, seen: Seen, until: Any) -> None:
            while True:
                f = json.loads(ws_.receive_text())
                if f["type"] == "answer":
                    answers[key].append(f)
                else:
                    frames[key].append(f)
                    seen.check(f)
                if until(f):
                    return

        def started(f: Json) -> bool:
            return f.get("type") == "room" and f["phase"] == "playing"

        drain(w1, "1", seen1, started)
        drain(w2, "2", seen2, started)
        drain(ws, "s", watch, started)
        assert {a_["id"] for a_ in answers["1"]} >= {1}
        # A spectator acts for no seat.
        ws.send_text(json.dumps({"type": "pass", "id": 5}))
        drain(ws, "s", watch, lambda f: f.get("type") == "answer")
        assert answers["s"][-1]["error"]["code"] == "spectator"
        # Seats' hands differ and each is its own.
        room = hub_room(client, code)
        assert room.game is not None
        # An action out of turn over the socket: refused with a reason, nothing changed.
        wrong = 2 if room.game.match.to_act != 2 else 1
        (w2 if wrong == 2 else w1).send_text(json.dumps({"type": "pass", "id": 9}))
        key = str(wrong)
        drain(w2 if wrong == 2 else w1, key, seen2 if wrong == 2 else seen1,
              lambda f: f.get("type") == "answer" and f.get("id") == 9)
        bad = answers[key][-1]
        assert bad["ok"] is False and bad["error"]["code"] in ("not_your_turn", "not_returning",
                                                              "must_return")
        # A quick phrase reaches everyone.
        w1.send_text(json.dumps({"type": "phrase", "phrase": "nice"}))
        drain(ws, "s", watch, lambda f: f.get("type") == "phrase")
        assert frames["s"][-1] == {"type": "phrase", "seat": 1, "phrase": "nice"}


def test_socket_refusals(client: TestClient) -> None:
    a = new_room(client, spectators=False)
    code, ta = a["code"], a["token"]
    with client.websocket_connect(f"/api/rooms/{code}/socket") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "forged" * 6}))
        assert json.loads(ws.receive_text())["error"]["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_text()
        assert e.value.code == 4003
    with client.websocket_connect(f"/api/rooms/{code}/socket") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert json.loads(ws.receive_text())["error"]["code"] == "no_spectators"
    # Another site's page may not open a room's socket.
    with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(
            f"/api/rooms/{code}/socket", headers={"Origin": "http://evil.example"}) as ws:
        ws.receive_text()
    assert e.value.code == 1008
    # Too many messages: closed with 1008; too big: 1009.
    with client.websocket_connect(f"/api/rooms/{code}/socket") as ws:
        hello(ws, ta)
        with pytest.raises(WebSocketDisconnect) as e:
            for _ in range(80):
                ws.send_text(json.dumps({"type": "readings", "cards": []}))
            while True:
                ws.receive_text()
        assert e.value.code == 1008
    with client.websocket_connect(f"/api/rooms/{code}/socket") as ws:
        hello(ws, ta)
        ws.send_text(json.dumps({"type": "phrase", "phrase": "x" * 5000}))
        with pytest.raises(WebSocketDisconnect) as e:
            while True:
                ws.receive_text()
        assert e.value.code == 1009


def test_codes_are_not_found_by_trying_whatever_the_token(tmp_path: Path) -> None:
    """Every request or socket that holds no seat of the room counts as a lookup of its code,
    on every route and with any token (none, forged), before it is told whether the room
    exists; past the limit all are refused alike. A seated person's own requests and sockets
    are not lookups: four friends behind one address reload and reconnect freely."""
    app = create_app(tmp_path / "data", ai="greedy", allow_seed=True, room_times=FAST,
                     room_limits=RoomLimits(rooms_per_client=3, joins_per_minute=6))
    forged = {"X-Room-Token": "A" * 32}
    with TestClient(app) as c:
        a = new_room(c)
        code, ta = a["code"], a["token"]
        for r in (c.get("/api/rooms/ZZZZZZ"), c.get("/api/rooms/ZZZZZZ", headers=forged),
                  c.post("/api/rooms/ZZZZZZ/do", json={"type": "ready"}, headers=forged),
                  c.get("/api/rooms/ZZZZZZ/records"), c.get("/api/rooms/ZZZZZZ/replay/1")):
            refused(r, 404, "room_not_found")
        with c.websocket_connect("/api/rooms/ZZZZZZ/socket") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "A" * 32}))
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_text()
            assert e.value.code == 4004
        # Six lookups made: the seventh is refused, for a code that exists as for one that
        # does not, on every route.
        for target in (code, "ZZZZZZ"):
            refused(c.get(f"/api/rooms/{target}"), 429, "too_many_joins")
            refused(c.get(f"/api/rooms/{target}", headers=forged), 429, "too_many_joins")
            refused(c.post(f"/api/rooms/{target}/do", json={"type": "ready"}, headers=forged),
                    429, "too_many_joins")
            refused(c.get(f"/api/rooms/{target}/records"), 429, "too_many_joins")
            refused(c.post(f"/api/rooms/{target}/join", json={"seat": 2, "name": "x"}), 429,
                    "too_many_joins")
            with c.websocket_connect(f"/api/rooms/{target}/socket") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": "A" * 32}))
                with pytest.raises(WebSocketDisconnect) as e:
                    ws.receive_text()
                assert e.value.code == 1008
        # The maker, from the same address, is no lookup: reads, reconnects and acts.
        for _ in range(8):
            r = c.get(f"/api/rooms/{code}", headers={"X-Room-Token": ta})
            assert r.status_code == 200 and r.json()["you"] == 1
            with c.websocket_connect(f"/api/rooms/{code}/socket") as ws:
                assert hello(ws, ta)["you"] == 1
        assert do(c, code, ta, type="ready").status_code == 200


def test_timer_grace_auto_and_take_back(client: TestClient) -> None:
    """A turn timer that runs out three times puts the seat on 자동 (the AI plays it); a
    person whose socket closes is 자동 after the grace period; one press takes it back."""
    a = new_room(client, timer=15)  # 15 timer seconds = 0.3 s here
    code, ta = a["code"], a["token"]
    tb = join(client, code, 3, "영희")["token"]
    seen = Seen(client, code, 1)
    do(client, code, ta, seen, type="ready")
    do(client, code, tb, seen=None, type="ready")
    do(client, code, ta, seen, type="start", seed=5)
    view = wait_for(client, code, ta, lambda v: v["seats"][0]["auto"], seen)
    assert hub_room(client, code).seats[1].timeouts >= 3
    assert view["seats"][0]["auto"]
    r = do(client, code, ta, seen, type="takeback")
    assert r.status_code == 200 and not r.json()["room"]["seats"][0]["auto"]
    # Seat 3 connects, then its socket closes: held for the grace period, then 자동.
    with client.websocket_connect(f"/api/rooms/{code}/socket") as ws:
        assert hello(ws, tb)["seats"][2]["connected"]
    v = wait_for(client, code, ta, lambda v: not v["seats"][2]["connected"], seen)
    assert v["seats"][2]["gone_since"] is not None
    wait_for(client, code, ta, lambda v: v["seats"][2]["auto"], seen)
    # The seat comes back with its token: its cards are as they stand.
    with client.websocket_connect(f"/api/rooms/{code}/socket") as ws:
        back = hello(ws, tb)
        Seen(client, code, 3).check(back)
        assert back["you"] == 3 and back["seats"][2]["auto"]
    # Leaving frees the seat: the AI plays it, the token is worthless.
    assert do(client, code, tb, type="leave").status_code == 200
    refused(do(client, code, tb, type="takeback"), 403, "bad_token")
    assert hub_room(client, code).seats[3].name is None


def test_one_more_match_after_the_final_victory() -> None:
    """한 판 더: refused while the match goes on; after its final victory, a new match in the
    same room, the seats as they were."""
    from guandan.match import Match
    from guandan.players import make_player
    from guandan.web.errors import Refusal
    from guandan.web.rooms import actions
    from guandan.web.rooms.room import Settings
    from guandan.web.store import Game

    room, token = actions.new_room(Settings(), "민수")
    room.seats[1].ready = True
    actions.start(room, 1, seed=1)
    with pytest.raises(Refusal) as e:
        actions.again(room, 1)
    assert e.value.code == "match_not_over"
    # A match prepared at A against A: its first hand decides it.
    room.game = Game(id="x" * 32, preset="site", match=Match(
        "site", seed=1, team_levels={"13": "A", "24": "A"}, level_team="13"))
    players = {s: make_player("greedy", seed=s) for s in (1, 2, 3, 4)}
    m = room.game.match
    while m.to_act is not None:
        seat = m.to_act
        actions.ai_act(room, seat, players[seat].act(m.observation(seat)), timed_out=False)
        actions.settle(room)
    assert room.phase == "over"
    actions.again(room, 1, seed=2)
    assert room.game.match_number == 2 and str(room.phase) == "playing"
    assert room.seats[1].name == "민수" and room.seat_of(token) == 1


def test_an_empty_room_closes_and_keeps_its_records(tmp_path: Path) -> None:
    times = RoomTimes(grace=0.1, pace=0.01, result_wait=0.1, idle_close=0.3, lease=5)
    with TestClient(create_app(tmp_path / "data", ai="greedy", room_times=times)) as c:
        a = new_room(c)
        code = a["code"]
        with c.websocket_connect(f"/api/rooms/{code}/socket") as ws:
            hello(ws, a["token"])
        deadline = time.time() + 10
        while c.get(f"/api/rooms/{code}").status_code == 200:
            assert time.time() < deadline, "the empty room stayed open"
            time.sleep(0.05)
        refused(c.get(f"/api/rooms/{code}"), 404, "room_not_found")
        store = c.app.state.rooms.store  # type: ignore[attr-defined]
        with store.db.transaction(write=False) as tx:
            closed, data = tx.execute("SELECT closed, data FROM rooms WHERE code = ?",
                                (code,)).fetchone()
        assert closed == 1 and decode_room(bytes(data), 0).code == code  # the row is kept


def test_rooms_with_several_processes_on_sqlite(make_server: Any, tmp_path: Path) -> None:
    """``guandan serve --processes 2`` on one SQLite file: the requests and sockets of a room
    land on both processes; every socket is pushed every change (each process looks at its
    rooms' versions), and the room's AI seat plays from whichever process drives it."""
    import threading

    import httpx
    from websockets.sync.client import connect

    server = make_server(tmp_path / "data", args=("--processes", "2", "--room-pace", "0.02",
                                                  "--room-result-wait", "0.3"))
    server.start()
    try:
        http = httpx.Client(base_url=server.url, timeout=30)
        made = http.post("/api/rooms", json={"name": "p1"}).json()
        code, tokens = made["code"], {1: made["token"]}
        for s in (2, 3):
            tokens[s] = http.post(f"/api/rooms/{code}/join",
                                  json={"seat": s, "name": f"p{s}"}).json()["token"]
        for s in (1, 2, 3):
            assert http.post(f"/api/rooms/{code}/do", json={"type": "ready"},
                             headers={"X-Room-Token": tokens[s]}).status_code == 200
        seen: dict[int, int] = {}
        pids: set[int] = set()
        stop = threading.Event()

        def watch(seat: int) -> None:
            with connect(f"{server.url.replace('http', 'ws')}/api/rooms/{code}/socket") as ws:
                ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
                while not stop.is_set():
                    try:
                        f = json.loads(ws.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if f.get("type") == "room":
                        seen[seat] = max(seen.get(seat, 0), f["version"])

        threads = [threading.Thread(target=watch, args=(s,)) for s in (1, 2, 3)
                   for _ in range(2)]
        for t in threads:
            t.start()
        for _ in range(60):  # a new connection each: either process may take it
            pids.add(httpx.get(server.url + "/api/health", timeout=30).json()["rooms"]["owner"])
            if len(pids) == 2:
                break
        assert len(pids) == 2  # both processes answer
        r = http.post(f"/api/rooms/{code}/do", json={"type": "start", "seed": 3},
                      headers={"X-Room-Token": tokens[1]})
        assert r.status_code == 200, r.text
        deadline = time.time() + 90
        while time.time() < deadline:
            view = None
            for s in (1, 2, 3):
                view = http.get(f"/api/rooms/{code}", headers={"X-Room-Token": tokens[s]}).json()
                g = view["game"]
                if g["my_turn"]:
                    hint = http.post(f"/api/rooms/{code}/do", json={"type": "hint"},
                                     headers={"X-Room-Token": tokens[s]})
                    if hint.status_code != 200:
                        continue
                    h = hint.json()["hint"]
                    msg: Json = {"type": h["kind"], "version": view["version"]}
                    if h["kind"] == "play":
                        msg |= {"cards": h["cards"], "kind": h["play"]["kind"],
                                "rank": h["play"]["rank"]}
                    elif h["kind"] == "return":
                        msg["card"] = h["cards"][0]
                    http.post(f"/api/rooms/{code}/do", json=msg,
                              headers={"X-Room-Token": tokens[s]})
            assert view is not None
            if view["game"]["hand_number"] >= 2:
                break
            time.sleep(0.01)
        else:
            raise AssertionError("the hand did not end")
        final = http.get(f"/api/rooms/{code}", headers={"X-Room-Token": tokens[1]}).json()
        time.sleep(1.0)  # every socket, on either process, has the room as it stands
        stop.set()
        for t in threads:
            t.join()
        assert all(seen[s] >= final["version"] for s in (1, 2, 3)), (seen, final["version"])
    finally:
        server.stop()


def test_a_server_killed_and_started_again_frees_its_seats(make_server: Any,
                                                           tmp_path: Path) -> None:
    """One process on SQLite, killed (-9) while a person is connected, started again on the
    same folder: nobody comes back, yet the new process (a new id) counts the old one dead and
    looks at its rooms by itself: the seat is disconnected from about the kill, and the room,
    empty, closes after its idle time."""
    import httpx
    from websockets.sync.client import connect

    server = make_server(tmp_path / "data", args=(
        "--room-lease", "2", "--room-idle-close", "6", "--room-joins-per-minute", "100000"))
    server.start()
    try:
        made = httpx.post(server.url + "/api/rooms", json={"name": "p1"}, timeout=30).json()
        code = made["code"]
        with connect(f"{server.url.replace('http', 'ws')}/api/rooms/{code}/socket") as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            while not json.loads(ws.recv(timeout=30)).get("seats", [{}])[0].get("connected"):
                pass
            killed = time.time()
            server.proc.kill()
            server.proc.wait()
        server.proc = None
        server.start()
        deadline = time.time() + 30
        while True:
            assert time.time() < deadline, "the seat stayed connected"
            r = httpx.get(f"{server.url}/api/rooms/{code}", timeout=30)
            if r.status_code == 200 and not r.json()["seats"][0]["connected"]:
                since = r.json()["seats"][0]["gone_since"]
                assert killed - 1.5 < since <= time.time()
                break
            assert r.status_code == 200, r.text  # not closed before it was seen gone
            time.sleep(0.1)
        while httpx.get(f"{server.url}/api/rooms/{code}", timeout=30).status_code == 200:
            assert time.time() < deadline, "the empty room stayed open"
            time.sleep(0.1)
    finally:
        server.stop()


def test_processes_alive_slow_stopped_silent_and_unknown(tmp_path: Path) -> None:
    """``processes``: a live process is alive, even while its interpreter is busy (it beats
    from a thread: a slow process does not flap); one that stopped is gone from its end, one
    silent past ``stale`` from its last beat, an id without a row once a reading newer than
    the question lacks it."""
    from guandan.web.rooms.processes import Processes
    from guandan.web.store.sqlite import SqliteStore

    store = SqliteStore(tmp_path)  # the schema
    silent, unknown = "c" * 32, "d" * 32
    with store.transaction(write=True) as tx:
        tx.execute("INSERT INTO processes VALUES (?, 'h', 1, 0, ?, 0)", (silent, time.time() - 9))
    deaths: list[set[str]] = []
    a = Processes("a" * 32, beat=0.05, stale=0.5, sqlite=str(store.path), on_death=deaths.append)
    b = Processes("b" * 32, beat=0.05, stale=0.5, sqlite=str(store.path))
    asked = time.time()
    a.start()
    b.start()
    try:
        a.registered.result(10)
        b.registered.result(10)
        deadline = time.time() + 10
        while a.alive(b.me) is not True:
            assert time.time() < deadline
            time.sleep(0.02)
        gone = a.gone([b.me, silent, unknown], asked)
        assert set(gone) == {silent, unknown} and gone[silent] < time.time() - 8
        assert a.gone([unknown], time.time() + 1) == {}  # no reading after the question yet
        busy = time.time() + 1.0  # two stale periods of a busy interpreter
        n = 0
        while time.time() < busy:
            n += 1
        assert a.alive(b.me) and all(b.me not in d for d in deaths)
        stopped = time.time()
        b.stop()
        while a.alive(b.me) is not False:
            assert time.time() < deadline
            time.sleep(0.02)
        assert a.gone([b.me], asked)[b.me] >= stopped and any(b.me in d for d in deaths)
    finally:
        a.stop()
        b.stop()
        store.close()


def test_a_seat_whose_process_dies_on_sqlite(make_server: Any, tmp_path: Path) -> None:
    """``--processes 2`` on one SQLite file, seats 1 and 3 on different workers. Seat 1's
    worker is killed (-9): its beat stops, and after half a lease of silence the other worker
    counts it dead: seat 1 is disconnected from about the kill, then 자동 after the grace
    period. Its person comes back to a live worker. That worker, frozen (SIGSTOP) past half a
    lease, is counted dead too; thawed, it marks the seat again. Stopped cleanly (SIGTERM), it
    unmarks the seat as it stops, long before its silence would tell."""
    import os
    import signal
    import sqlite3

    import httpx
    from websockets.sync.client import connect

    lease = 4.0  # dead after 2 s of silence
    server = make_server(tmp_path / "data", args=(
        "--processes", "2", "--room-lease", str(lease), "--room-grace", "1",
        "--room-pace", "0.02", "--room-joins-per-minute", "100000"))
    server.start()
    path = tmp_path / "data" / "games.sqlite3"
    ws_url = server.url.replace("http", "ws")
    try:
        http = httpx.Client(base_url=server.url, timeout=30)
        made = http.post("/api/rooms", json={"name": "p1"}).json()
        code, tokens = made["code"], {1: made["token"]}
        tokens[3] = http.post(f"/api/rooms/{code}/join",
                              json={"seat": 3, "name": "p3"}).json()["token"]
        for s in (1, 3):
            http.post(f"/api/rooms/{code}/do", json={"type": "ready"},
                      headers={"X-Room-Token": tokens[s]})
        assert http.post(f"/api/rooms/{code}/do", json={"type": "start", "seed": 2},
                         headers={"X-Room-Token": tokens[1]}).status_code == 200

        def via(seat: int) -> list[str]:
            with contextlib.closing(sqlite3.connect(path)) as db:
                data = db.execute("SELECT data FROM rooms WHERE code = ?", (code,)).fetchone()
            found: list[str] = json.loads(data[0])["seats"][str(seat)]["via"]
            return found

        def process(pid: str) -> tuple[int, float]:
            with contextlib.closing(sqlite3.connect(path)) as db:
                row = db.execute("SELECT pid, ended FROM processes WHERE id = ?",
                                 (pid,)).fetchone()
            return int(row[0]), float(row[1])

        def person(seat: int, stack: contextlib.ExitStack) -> Any:
            ws = stack.enter_context(connect(f"{ws_url}/api/rooms/{code}/socket"))
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            while True:
                f = json.loads(ws.recv(timeout=30))
                if f.get("type") == "room" and f["seats"][seat - 1]["connected"]:
                    return ws

        def until(test: Any, timeout: float = 30) -> Json:
            deadline = time.time() + timeout
            while time.time() < deadline:
                try:  # a new connection each time: a worker may be dying under it
                    view: Json = httpx.get(f"{server.url}/api/rooms/{code}", timeout=30).json()
                except httpx.HTTPError:
                    continue
                if test(view["seats"][0]):
                    return view
                time.sleep(0.05)
            raise AssertionError(f"waited in vain: {view['seats'][0]}")

        with contextlib.ExitStack() as sockets:
            one = person(1, sockets)
            for _ in range(50):  # seat 3 on the other worker: it drives the room after
                tries = sockets.enter_context(contextlib.ExitStack())
                person(3, tries)
                if via(3) != via(1):
                    break
                tries.close()
            else:
                raise AssertionError("both sockets on one worker, 50 times")
            killed = time.time()
            os.kill(process(via(1)[0])[0], signal.SIGKILL)
            gone = until(lambda st: not st["connected"])
            seen = time.time()
            since = gone["seats"][0]["gone_since"]
            # Gone from its last beat (every 0.4 s here; a loaded machine may delay one).
            assert killed - lease / 2 < since <= seen, (since - killed)
            assert seen - killed < 30, seen - killed
            until(lambda st: st["auto"])
            with contextlib.suppress(Exception):
                one.close()
        # The person comes back to a live worker: their seat, connected (still 자동).
        with contextlib.ExitStack() as again:
            person(1, again)
            pid = via(1)[0]
            view = httpx.get(f"{server.url}/api/rooms/{code}", timeout=30,
                             headers={"X-Room-Token": tokens[1]}).json()
            assert view["you"] == 1 and view["seats"][0]["connected"] and view["seats"][0]["auto"]
            # Frozen for longer than half a lease (less than uvicorn's 5 s health check).
            frozen = time.time()
            os.kill(process(pid)[0], signal.SIGSTOP)
            try:
                until(lambda st: not st["connected"], timeout=lease / 2 + 1.5)
            finally:
                os.kill(process(pid)[0], signal.SIGCONT)
            thawed = time.time()
            until(lambda st: st["connected"])  # its socket is still open: it marks it again
            print(f"frozen: shown disconnected after {thawed - frozen:.2f} s at most, "
                  f"connected again {time.time() - thawed:.2f} s after the thaw")
            assert pid in via(1)
            stopped = time.time()
            os.kill(process(pid)[0], signal.SIGTERM)  # a clean stop
            until(lambda st: not st["connected"])
            print(f"killed: shown disconnected after {seen - killed:.2f} s, gone since "
                  f"{since - killed:+.2f} s; stopped: after {time.time() - stopped:.2f} s")
            assert time.time() - stopped < lease / 2, time.time() - stopped
            for _ in range(100):
                if process(pid)[1] > 0:  # its row says it ended
                    break
                time.sleep(0.05)
            assert process(pid)[1] >= stopped
    finally:
        server.stop()


def test_an_outside_program_takes_a_rooms_seat(client: TestClient) -> None:
    """The maker leaves seat 2 to an outside program (the competition's protocol): its address
    is shown to the maker only; the hand waits for it, then it plays its seat from its own
    messages (here: always the first action of its list) and the hand goes on."""
    import threading

    a = new_room(client)
    code, ta = a["code"], a["token"]
    tb = join(client, code, 3, "영희")["token"]
    r = do(client, code, ta, type="outside", seat=2)
    assert r.status_code == 200, r.text
    path = r.json()["room"]["outside"][0]["path"]
    assert path.startswith("/game/") and r.json()["room"]["seats"][1]["program"]
    assert client.get(f"/api/rooms/{code}",
                      headers={"X-Room-Token": tb}).json()["outside"][0]["path"] is None
    refused(client.post(f"/api/rooms/{code}/join", json={"seat": 2, "name": "x"}), 409,
            "seat_taken")
    do(client, code, ta, type="ready")
    do(client, code, tb, type="ready")
    assert do(client, code, ta, type="start", seed=10).status_code == 200
    tokens = {1: ta, 3: tb}
    told: list[str] = []
    stop = threading.Event()

    def program() -> None:
        with client.websocket_connect(path) as ws:
            while not stop.is_set():
                try:
                    msg = json.loads(ws.receive_text())
                except Exception:
                    return
                told.append(msg.get("type", msg.get("stage", "")))
                if msg.get("stage") == "episodeOver":
                    return  # the hand is over: the program leaves (its socket closes here)
                if msg.get("type") == "act":
                    ws.send_text(json.dumps({"actIndex": 0}))

    time.sleep(0.3)  # the hand waits for the program: nobody moves meanwhile
    room = hub_room(client, code)
    assert room.game.match.to_json()["actions"] == []
    first = room.game.match.to_act
    if first in tokens:
        refused(do(client, code, tokens[first], type="pass"), 409, "waiting_outside")
    t = threading.Thread(target=program, daemon=True)
    t.start()
    seen = {1: Seen(client, code, 1), 3: Seen(client, code, 3)}
    deadline = time.time() + 60
    while time.time() < deadline:
        room = hub_room(client, code)
        m = room.game.match
        if m.results:
            break
        s = m.to_act
        if s in tokens:
            play_turn(client, code, tokens[s], seen[s])
        else:
            time.sleep(0.01)
    else:
        raise AssertionError("the hand did not end")
    stop.set()
    # The program's socket is closed while the app still runs: a WebSocket session left open
    # until the TestClient shuts its event loop down waits on that loop forever (a hang seen
    # in CI at this test's teardown).
    t.join(30)
    assert not t.is_alive(), "the program's socket did not close"
    record = hub_room(client, code).game.records()[0]
    assert record.get("outside", {}).get("2")  # its record names the program at seat 2
    assert "act" in told


def test_an_outside_program_on_another_process_plays_a_rooms_seat(tmp_path: Path) -> None:
    """Two server processes on one SQLite file (two applications, as ``--processes 2`` makes
    them): the room's people, their requests and its driver on one; the program of seat 2 on
    the other, which holds the seat in the database, asks its program and commits its
    actions while the driver waits. Each of the program's actions is in the match once."""
    import threading

    times = RoomTimes(grace=30, pace=0.01, result_wait=3600, idle_close=3600, lease=5,
                      timer_scale=0.02)

    def app() -> Any:
        return create_app(tmp_path / "data", ai="greedy", allow_seed=True, room_times=times,
                          processes=2)

    with TestClient(app()) as people, TestClient(app()) as other:
        a = new_room(people)
        code, ta = a["code"], a["token"]
        tb = join(people, code, 3, "영희")["token"]
        path = do(people, code, ta, type="outside", seat=2).json()["room"]["outside"][0]["path"]
        do(people, code, ta, type="ready")
        do(people, code, tb, type="ready")
        assert do(people, code, ta, type="start", seed=10).status_code == 200
        tokens = {1: ta, 3: tb}
        asked: list[Json] = []

        def program() -> None:
            answer_first_until_the_hands_end(other, path, asked)

        time.sleep(0.3)  # the hand waits for the program: nobody moves meanwhile
        room = hub_room(people, code)
        assert room.game.match.to_json()["actions"] == []
        first = room.game.match.to_act
        if first in tokens:
            refused(do(people, code, tokens[first], type="pass"), 409, "waiting_outside")
        t = threading.Thread(target=program, daemon=True)
        t.start()
        outside = people.app.state.outside  # type: ignore[attr-defined]
        deadline = time.time() + 20
        while 2 not in outside.holders(room.game):  # the other process holds the program
            assert time.time() < deadline, "the program's seat was not held"
            time.sleep(0.02)
        seen = {1: Seen(people, code, 1), 3: Seen(people, code, 3)}
        deadline = time.time() + 60
        while time.time() < deadline:
            m = hub_room(people, code).game.match
            if m.results:
                break
            if m.to_act in tokens:
                play_turn(people, code, tokens[m.to_act], seen[m.to_act])
            else:
                time.sleep(0.01)
        else:
            raise AssertionError("the hand did not end")
        t.join(30)
        assert not t.is_alive(), "the program was not told the hand's end"
        game = hub_room(people, code).game
        record = game.records()[0]
        assert record["outside"] == {"2": "outside"} and "replaced" not in record
        actions = game.match.to_json()["actions"]  # hand 1's: its result waits to be seen
        assert len(asked) == sum(1 for x in actions if x[0] == 2) > 0
        assert people.get("/api/health").json()["rooms"]["drivers"] >= 1


def test_a_socket_follows_its_person_not_the_seat_number(client: TestClient) -> None:
    """The maker moves a person to another seat: their socket shows them at the new seat (and
    another person who sits at the old one never gets the first one's view); freed, their
    socket is closed (4001) and their token acts for nobody."""
    a = new_room(client)
    code, ta = a["code"], a["token"]
    tb = join(client, code, 3, "영희")["token"]
    with client.websocket_connect(f"/api/rooms/{code}/socket") as ws:
        assert hello(ws, tb)["you"] == 3
        assert send(client, code, ta, {"type": "move", "from": 3, "to": 2}).status_code == 200
        while True:
            f = json.loads(ws.receive_text())
            if f.get("type") == "room" and f["you"] == 2:
                break
            assert f.get("type") != "room" or f["you"] == 3
        tc = join(client, code, 3, "철수")["token"]
        assert send(client, code, tc, {"type": "ready"}).status_code == 200
        f = json.loads(ws.receive_text())
        assert f["you"] == 2 and f["seats"][1]["you"] and not f["seats"][2]["you"]
        assert send(client, code, ta, {"type": "free", "seat": 2}).status_code == 200
        with pytest.raises(WebSocketDisconnect) as e:
            while True:
                ws.receive_text()
        assert e.value.code == 4001
    refused(do(client, code, tb, type="ready"), 403, "bad_token")


def test_a_process_hears_other_processes_changes_on_one_listening_connection(
        postgres: str, tmp_path: Path) -> None:
    """Two servers on one PostgreSQL (two apps here): a change made through one is pushed on
    the other's socket (``NOTIFY``); the listening connection stays the same one. It used to
    be closed and opened again every second, and a NOTIFY sent in between was lost: under
    load a seat on the other process missed a turn's push and the room stood still."""
    import psycopg

    apps = [create_app(tmp_path / f"data{k}", ai="greedy", database=postgres, room_times=FAST)
            for k in (1, 2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        a = new_room(one)
        code, ta = a["code"], a["token"]
        with one.websocket_connect(f"/api/rooms/{code}/socket") as ws:
            first = hello(ws, ta)

            def listeners() -> set[int]:
                with psycopg.connect(postgres, autocommit=True) as db:
                    return {int(r[0]) for r in db.execute(
                        "SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN guandan_rooms'")}

            tb = join(two, code, 3, "영희")["token"]
            assert do(two, code, tb, type="ready").status_code == 200
            frame: Json = first
            while frame["version"] < first["version"] + 2:  # the join, then the ready
                frame = json.loads(ws.receive_text())
            assert frame["seats"][2]["name"] == "영희" and frame["seats"][2]["ready"]
            before = listeners()
            assert len(before) == 2  # one each
            time.sleep(1.5)  # the old listener had closed and opened its connection by now
            assert listeners() == before
