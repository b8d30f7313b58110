"""Outside programs at the page's seats (``guandan.web.outside``): real servers and real
client processes (``guandan connect``, the competition's example client, our misbehaving
client of tests/host), the person's seat driven through the HTTP API, and the page itself."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from outside_program import answer_first_until_the_hands_end

from guandan.records import validate_lines
from guandan.web.server import create_app

ROOT = Path(__file__).resolve().parents[2]
BAD_CLIENT = ROOT / "tests" / "host" / "bad_client.py"
COMPBOTS = ROOT.parent / "shared" / "compbots"
PY = sys.executable
Json = dict[str, Any]
Server = Any  # tests/web/conftest.py: a ``guandan serve`` subprocess


def _ws4py() -> bool:
    try:
        import ws4py  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, make_server_cls: Any) -> Iterator[Server]:
    s = make_server_cls(tmp_path_factory.mktemp("outside"), args=("--outside-timeout", "30"))
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory, make_server_cls: Any) -> Iterator[Server]:
    """A server whose programs have 1 s per answer (the silent client's test; the other bad
    programs play on ``server``, 30 s, so that a slow answer is not taken for silence)."""
    s = make_server_cls(tmp_path_factory.mktemp("outside-strict"),
                        args=("--outside-timeout", "1"))
    s.start()
    yield s
    s.stop()


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for p in started:
        if p.poll() is None:
            p.kill()
            p.wait()


def new_game(server: Server, seats: list[int], seed: int = 5) -> Json:
    g: Json = server.api("POST", "/api/games", json={"seed": seed, "outside": seats})
    return g


def status(server: Server, gid: str) -> Json:
    s: Json = server.api("GET", f"/api/games/{gid}/outside")
    return s


def ws_url(server: Server, game: Json, seat: int) -> str:
    path = next(o["path"] for o in game["outside"] if o["seat"] == seat)
    return server.url.replace("http://", "ws://") + path


def connect(url: str, player: str = "heuristic") -> subprocess.Popen[str]:
    return subprocess.Popen([PY, "-m", "guandan", "connect", url, "--player", player, "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def bad_client(url: str, mode: str, out: Path) -> subprocess.Popen[str]:
    """Our misbehaving client (tests/host/bad_client.py); every message it gets goes to
    ``out`` (a file: a pipe left unread would fill and stop it)."""
    with out.open("w", encoding="utf-8") as f:
        return subprocess.Popen([PY, str(BAD_CLIENT), url, mode], stdout=f,
                                stderr=subprocess.STDOUT, text=True)


def messages_of(out: Path) -> list[Json]:
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def wait_for(check: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def person_acts(server: Server, gid: str) -> httpx.Response:
    """Seat 1's action as the hint chooses it, through the API."""
    h = server.api("POST", f"/api/games/{gid}/hint")
    c, base = server.client, f"{server.url}/api/games/{gid}"
    if h["kind"] == "pass":
        return c.post(base + "/pass")
    if h["kind"] == "return":
        return c.post(base + "/return", json={"card": h["cards"][0]})
    return c.post(base + "/play", json={"cards": h["cards"], "kind": h["play"]["kind"],
                                        "rank": h["play"]["rank"]})


def play_hands(server: Server, gid: str, hands: int,
               on_step: Any = None) -> list[tuple[int, str | None]]:
    """Play ``hands`` hands: seat 1 through the API, the others by stepping. Every step's
    (seat, played_by)."""
    steps: list[tuple[int, str | None]] = []
    done = 0
    for _ in range(3000):
        g = server.api("GET", f"/api/games/{gid}")
        if g["result"] is not None:
            done += 1
            if done == hands:
                return steps
            server.api("POST", f"/api/games/{gid}/next")
            continue
        if g["to_act"] == 1:
            r = person_acts(server, gid)
        else:
            r = server.client.post(f"{server.url}/api/games/{gid}/step")
            if r.status_code == 200:
                out = r.json()
                steps.append((g["to_act"], out["played_by"]))
                if on_step is not None:
                    on_step(g["to_act"], out)
        assert r.status_code == 200, r.text
    raise AssertionError("the hands did not end")


def records(server: Server, gid: str, hands: int) -> list[Json]:
    text = server.client.get(f"{server.url}/api/games/{gid}/export").text
    report = validate_lines(text.splitlines())
    assert report.checked == hands and not report.errors, [str(e) for e in report.errors]
    return [json.loads(line) for line in text.splitlines()]


def test_programs_play_partner_and_opponent_until_the_game_is_deleted(
        server: Server, procs: list[subprocess.Popen[str]]) -> None:
    g = new_game(server, [2, 3])
    gid = g["id"]
    assert [o["seat"] for o in g["outside"]] == [2, 3]
    assert all(o["path"].startswith("/game/") and gid not in o["path"] for o in g["outside"])
    # Nothing moves before the programs are here: the page is told which seats it waits for.
    st = status(server, gid)
    assert st["waiting"] == [2, 3] and {s["state"] for s in st["seats"]} == {"waiting"}
    r = person_acts(server, gid)
    assert r.status_code == 409 and r.json()["error"]["code"] == "waiting_outside"
    assert r.json()["error"]["params"]["seats"] == [2, 3]
    procs += [connect(ws_url(server, g, 2)), connect(ws_url(server, g, 3), "greedy")]
    wait_for(lambda: status(server, gid)["waiting"] == [])
    steps = play_hands(server, gid, 2)
    assert {by for seat, by in steps if seat in (2, 3)} == {"outside"}
    assert {by for seat, by in steps if seat == 4} == {"greedy"}
    st = status(server, gid)
    assert [s["state"] for s in st["seats"]] == ["playing", "playing"]
    assert all(s["refused"] == 0 and s["connections"] == 1 for s in st["seats"])
    for rec in records(server, gid, 2):
        assert rec["outside"] == {"2": "outside", "3": "outside"}
        assert "replaced" not in rec
    server.client.delete(f"{server.url}/api/games/{gid}")
    for p in procs:  # the game is gone: the server closes the programs normally
        out, err = p.communicate(timeout=30)
        assert p.returncode == 0, err
        assert json.loads(out)["hands"] == 2


@pytest.mark.skipif(not COMPBOTS.is_dir(), reason=f"the competition's clients are not here "
                                                   f"({COMPBOTS})")
@pytest.mark.skipif(not _ws4py(), reason="ws4py is not installed (test extra)")
def test_the_competitions_example_client_plays_on_the_page(server: Server,
                                                           tmp_path: Path) -> None:
    g = new_game(server, [4], seed=8)
    folder = tmp_path / "example-clients"
    shutil.copytree(COMPBOTS / "example-clients", folder)
    script = folder / "client4.py"
    text = script.read_text(encoding="utf-8")
    assert "ws://127.0.0.1:23456/game/client4" in text
    script.write_text(text.replace("ws://127.0.0.1:23456/game/client4", ws_url(server, g, 4)),
                      encoding="utf-8")
    log = tmp_path / "client4.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([PY, script.name], cwd=folder, stdout=out,
                                stderr=subprocess.STDOUT)
        try:
            wait_for(lambda: status(server, g["id"])["waiting"] == [])
            steps = play_hands(server, g["id"], 1)
            assert {by for seat, by in steps if seat == 4} == {"outside"}
            rec = records(server, g["id"], 1)[0]
            assert rec["outside"] == {"4": "outside"} and "replaced" not in rec
            server.client.delete(f"{server.url}/api/games/{g['id']}")
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and "Closed down 1000" in text


@pytest.mark.parametrize(("mode", "code", "why", "asked"), [
    ("index", "refused", "not in actionList", 2), ("json", "refused", "not JSON", 2),
    ("silent", "silent", "no answer within", 2), ("drop", "closed", "connection closed", 1),
    ("once", None, None, None),
])
def test_bad_programs_are_refused_asked_again_then_replaced(
        mode: str, code: str | None, why: str | None, asked: int | None,
        request: pytest.FixtureRequest, procs: list[subprocess.Popen[str]],
        tmp_path: Path) -> None:
    # Only the silent client needs the 1 s limit: under a loaded CI machine a bad answer that
    # took longer than 1 s was refused as silence instead (seen once in a full run).
    strict: Server = request.getfixturevalue("strict" if mode == "silent" else "server")
    g = new_game(strict, [2], seed=3)
    gid = g["id"]
    bad = bad_client(ws_url(strict, g, 2), mode, tmp_path / "bad.out")
    procs.append(bad)
    wait_for(lambda: status(strict, gid)["waiting"] == [])
    seen: list[Json] = []

    def watch(seat: int, out: Json) -> None:
        if seat == 2 and not seen and out["played_by"] != "outside":
            seen.append(status(strict, gid)["seats"][0])  # just replaced

    steps = play_hands(strict, gid, 1, watch)
    rec = records(strict, gid, 1)[0]
    assert rec["outside"] == {"2": "outside"}
    strict.client.delete(f"{strict.url}/api/games/{gid}")
    bad.wait(timeout=30)
    messages = messages_of(tmp_path / "bad.out")
    acts = [m for m in messages if m["type"] == "act"]
    # The program only ever saw its own cards: its hand, and plays everyone saw.
    assert messages[0]["stage"] == "beginning" and len(messages[0]["handCards"]) == 27
    if code is None:  # one bad answer, then good ones: asked again, never replaced
        assert "replaced" not in rec, rec["replaced"]
        assert "not in actionList" in acts[1]["error"]
        assert acts[1]["actionList"] == acts[0]["actionList"]
        assert {by for seat, by in steps if seat == 2} == {"outside"}
        return
    assert rec["replaced"][0]["seat"] == 2 and why in rec["replaced"][0]["reason"]
    assert len(rec["replaced"]) == 1
    assert len(acts) == asked
    if asked == 2:
        assert why in acts[1]["error"]
    assert seen and seen[0]["state"] == "replaced" and seen[0]["reason"] == code
    # From its replacement on our AI played the seat, to the end of the hand.
    mine = [by for seat, by in steps if seat == 2]
    assert "outside" not in mine[mine.index("greedy"):]


def test_a_seat_takes_one_program_and_unknown_addresses_are_refused(server: Server) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect as ws_connect

    g = new_game(server, [3])
    url = ws_url(server, g, 3)
    with ws_connect(url) as first, ws_connect(url) as second:
        assert json.loads(second.recv(timeout=10)) == {
            "type": "error", "message": "seat 3 already has its program"}
        with pytest.raises(ConnectionClosed):
            second.recv(timeout=10)
        assert second.close_code == 1013
        assert json.loads(first.recv(timeout=10))["stage"] == "beginning"
        assert status(server, g["id"])["seats"][0]["state"] == "playing"
    wrong = server.url.replace("http://", "ws://") + "/game/" + "0" * 32
    with ws_connect(wrong) as ws:
        assert "no game waits for a program" in json.loads(ws.recv(timeout=10))["message"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
        assert ws.close_code == 1008
    server.client.delete(f"{server.url}/api/games/{g['id']}")


def test_a_saved_game_waits_again_after_a_restart_and_tells_the_hand_from_its_start(
        tmp_path: Path, make_server: Any, procs: list[subprocess.Popen[str]]) -> None:
    s = make_server(tmp_path / "data", args=("--outside-timeout", "30"))
    s.start()
    try:
        g = new_game(s, [2], seed=11)
        gid = g["id"]
        procs.append(connect(ws_url(s, g, 2)))
        wait_for(lambda: status(s, gid)["waiting"] == [])
        for _ in range(9):  # part of the first hand
            st = s.api("GET", f"/api/games/{gid}")
            r = person_acts(s, gid) if st["to_act"] == 1 else s.client.post(
                f"{s.url}/api/games/{gid}/step")
            assert r.status_code == 200, r.text
        before = s.api("GET", f"/api/games/{gid}")
        told = [e for e in before["history"] if e["kind"] in ("play", "pass")]
        s.restart()
        # The address answers once the page has opened the game again; the hand waits.
        st = status(s, gid)
        assert st["waiting"] == [2] and st["seats"][0]["state"] == "waiting"
        r = person_acts(s, gid) if before["to_act"] == 1 else s.client.post(
            f"{s.url}/api/games/{gid}/step")
        assert r.status_code == 409 and r.json()["error"]["code"] == "waiting_outside"
        again = bad_client(ws_url(s, g, 2), "once", tmp_path / "again.out")
        procs.append(again)
        wait_for(lambda: status(s, gid)["waiting"] == [])
        play_hands(s, gid, 1)
        rec = records(s, gid, 1)[0]
        assert rec["outside"] == {"2": "outside"} and "replaced" not in rec
        s.client.delete(f"{s.url}/api/games/{gid}")
        again.wait(timeout=30)
        messages = messages_of(tmp_path / "again.out")
        # Told the hand from its beginning: its 27 cards, then every play and pass so far.
        assert messages[0]["stage"] == "beginning" and len(messages[0]["handCards"]) == 27
        plays = [m for m in messages[1:len(told) + 1]]
        assert [m["stage"] for m in plays] == ["play"] * len(told)
        assert [m["curPos"] + 1 for m in plays] == [e["seat"] for e in told]
        assert any(m["type"] == "act" for m in messages)
    finally:
        s.stop()


def client_acts(c: TestClient, gid: str) -> Any:
    """Seat 1's action as the hint chooses it, through an application's API."""
    h = c.post(f"/api/games/{gid}/hint").json()
    if h["kind"] == "pass":
        return c.post(f"/api/games/{gid}/pass")
    if h["kind"] == "return":
        return c.post(f"/api/games/{gid}/return", json={"card": h["cards"][0]})
    return c.post(f"/api/games/{gid}/play", json={
        "cards": h["cards"], "kind": h["play"]["kind"], "rank": h["play"]["rank"]})


def client_hand(c: TestClient, gid: str) -> list[tuple[int, str]]:
    """A hand played through an application's API: seat 1 as the hint says, the others by
    stepping. (seat, played_by) of each step."""
    steps: list[tuple[int, str]] = []
    for _ in range(600):
        s = c.get(f"/api/games/{gid}").json()
        if s["result"]:
            return steps
        if s["to_act"] == 1:
            r = client_acts(c, gid)
        else:
            r = c.post(f"/api/games/{gid}/step")
            if r.status_code == 409 and r.json()["error"]["code"] in ("your_turn", "changed"):
                continue  # the program's process acted meanwhile: look again
            event = r.json()["event"]
            if event is not None:
                steps.append((event["seat"], r.json()["played_by"]))
        assert r.status_code == 200, r.text
    raise AssertionError("the hand did not end")


def test_a_program_on_one_process_plays_a_game_whose_page_is_on_another(
        tmp_path: Path) -> None:
    """Two server processes on one SQLite file (two applications, as ``--processes 2`` makes
    them): the page's requests go to one, the program's socket to the other, which holds the
    seat in the database, asks its program and commits its actions; the page's steps of that
    seat wait for them. Each of the program's actions is in the match once."""
    import threading

    def app() -> Any:
        return create_app(tmp_path, ai="greedy", allow_seed=True, processes=2)

    with TestClient(app()) as page, TestClient(app()) as other:
        g = page.post("/api/games", json={"seed": 2, "outside": [3]}).json()
        gid, path = g["id"], g["outside"][0]["path"]
        st = page.get(f"/api/games/{gid}/outside").json()
        assert st["available"] is True and st["waiting"] == [3]
        assert st["seats"][0]["state"] == "waiting"
        first = page.get(f"/api/games/{gid}").json()["to_act"]
        r = page.post(f"/api/games/{gid}/pass" if first == 1 else f"/api/games/{gid}/step")
        assert r.status_code == 409 and r.json()["error"]["code"] == "waiting_outside"
        asked: list[Json] = []

        def program() -> None:
            answer_first_until_the_hands_end(other, path, asked)

        def held() -> None:
            deadline = time.time() + 20
            while page.get(f"/api/games/{gid}/outside").json()["waiting"]:
                assert time.time() < deadline, "the program's seat was not held"
                time.sleep(0.05)

        t = threading.Thread(target=program, daemon=True)
        t.start()
        held()
        assert page.get(f"/api/games/{gid}/outside").json()["seats"][0]["state"] == "ready"
        steps = client_hand(page, gid)
        assert {by for seat, by in steps if seat == 3} <= {"outside"}
        assert {by for seat, by in steps if seat != 3} == {"greedy"}
        t.join(30)
        assert not t.is_alive(), "the program was not told the hand's end"
        rec = json.loads(page.get(f"/api/games/{gid}/export").text.splitlines()[0])
        assert rec["outside"] == {"3": "outside"} and "replaced" not in rec
        with page.app.state.store.reading(gid) as game:  # type: ignore[attr-defined]
            actions = game.match.to_json()["actions"]
        # Hand 1 only (the result waits to be seen): the program was asked once per action.
        assert len(asked) == sum(1 for a in actions if a[0] == 3) > 0
        # Gone: the next hand waits for a program again, as on one process.
        assert page.post(f"/api/games/{gid}/next").status_code == 200
        assert page.get(f"/api/games/{gid}/outside").json()["waiting"] == [3]


def test_new_games_refuse_bad_outside_seats(tmp_path: Path) -> None:
    c = TestClient(create_app(tmp_path, ai="greedy"))
    for bad in ([1], [2, 2], [5], "2"):
        r = c.post("/api/games", json={"outside": bad})
        assert r.status_code == 422, bad


# -- the page ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (360, 740)])
def test_the_page_leaves_a_seat_to_a_program_and_shows_it_waiting(
        width: int, height: int, server: Server, browser: Any, artifacts: Path,
        procs: list[subprocess.Popen[str]]) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    gid = None
    try:
        page.goto(server.url + "/?pace=0.05")
        page.click("#btn-new-start-screen")
        boxes = page.locator("input[name=outside]")
        assert [boxes.nth(i).get_attribute("value") for i in range(3)] == ["2", "3", "4"]
        labels = page.locator("#outside-seats label").all_inner_texts()
        assert labels == ["오른쪽 상대", "동료", "왼쪽 상대"]
        page.check("input[name=outside][value='2']")
        page.screenshot(path=str(artifacts / f"outside-dialog-{width}.png"))
        page.click("#btn-new-start")
        page.wait_for_selector("#outside .outside-seat[data-state=waiting]")
        panel = page.inner_text("#outside")
        assert "오른쪽 상대의 외부 AI가 접속하면 판이 시작됩니다." in panel
        assert "외부 AI를 기다리는 중" in panel
        address = page.inner_text("#outside code")
        g = page.evaluate("window.__guandan.game")
        gid = g["id"]
        assert address == ws_url(server, g, 2)
        assert page.locator("#seat-2 .seat-bot").inner_text() == "외부 AI"
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(artifacts / f"outside-waiting-{width}.png"))
        # The person cannot lead while the hand waits: the page says why.
        page.click("#hand .card >> nth=-1")
        page.click("#btn-play")
        page.wait_for_function("() => document.querySelector('#message').textContent"
                               ".includes('아직 접속하지 않았습니다')")
        # The program connects: the page says so, and the game goes on with it.
        procs.append(connect(address))
        page.wait_for_selector("#outside .outside-seat[data-state=playing]")
        assert "접속함: 외부 AI가 플레이합니다" in page.inner_text("#outside")
        assert page.locator("#outside code").is_hidden()  # shown again by a click
        page.click("#outside .outside-seat > b")
        assert page.inner_text("#outside code") == address
        page.click("#btn-play")  # the selected card: seat 1 leads
        page.wait_for_function(
            "() => window.__guandan.game.history.some(e => e.seat === 2)", timeout=30000)
        page.screenshot(path=str(artifacts / f"outside-playing-{width}.png"))
        assert not errors, errors
    finally:
        ctx.close()
        if gid is not None:  # its program is closed with it
            server.client.delete(f"{server.url}/api/games/{gid}")


def test_a_seat_can_be_given_back_to_our_ai(server: Server) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect as ws_connect

    g = new_game(server, [2, 4], seed=6)
    gid = g["id"]
    with ws_connect(ws_url(server, g, 2)) as two:
        time.sleep(0.3)
        assert status(server, gid)["waiting"] == [4]
        r = server.client.post(f"{server.url}/api/games/{gid}/outside/3/ai")
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_outside"
        s = server.api("POST", f"/api/games/{gid}/outside/4/ai")
        assert [o["seat"] for o in s["outside"]] == [2]
        # Seat 2's program is the only one now: the hand begins for it.
        assert json.loads(two.recv(timeout=10))["stage"] == "beginning"
        assert status(server, gid)["waiting"] == []
        server.api("POST", f"/api/games/{gid}/outside/2/ai")
        with pytest.raises(ConnectionClosed):
            while True:
                two.recv(timeout=10)
        assert two.close_code == 1000
    assert server.api("GET", f"/api/games/{gid}")["outside"] == []
    steps = play_hands(server, gid, 1)
    assert {by for _, by in steps} == {"greedy"}
    assert "outside" not in records(server, gid, 1)[0]
    server.client.delete(f"{server.url}/api/games/{gid}")


def test_the_page_can_stop_waiting_and_let_our_ai_play(server: Server, browser: Any,
                                                       artifacts: Path) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, locale="zh-CN")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    try:
        page.goto(server.url + "/?pace=0.05")
        page.select_option("#lang", "zh")
        page.click("#btn-new-start-screen")
        page.check("input[name=outside][value='3']")
        page.click("#btn-new-start")
        page.wait_for_selector("#outside .outside-seat[data-state=waiting]")
        assert "对家的外部AI连接后开局。" in page.inner_text("#outside")
        page.screenshot(path=str(artifacts / "outside-waiting-zh-360.png"))
        page.click("#outside .outside-to-ai")
        page.wait_for_selector("#outside", state="hidden")
        page.wait_for_function("() => document.querySelector('#message').textContent"
                               ".includes('对家的座位换成我方AI来打。')")
        assert page.locator(".seat-bot").count() == 0
        page.click("#hand .card >> nth=-1")
        page.click("#btn-play")  # seat 1 leads; then the AI seats play on
        page.wait_for_function(
            "() => window.__guandan.game.history.some(e => e.seat === 3)", timeout=30000)
        gid = page.evaluate("window.__guandan.game.id")
        assert not errors, errors
    finally:
        ctx.close()
    server.client.delete(f"{server.url}/api/games/{gid}")


def test_the_relay_follows_the_committed_game_and_refuses_a_stale_step() -> None:
    """``Session`` in memory: the hand begins for the programs once all are here, each
    committed action is told once, and a step decided on an older game is refused (409
    ``changed``) rather than told twice."""
    from guandan.host.relay import Peer
    from guandan.match import Match
    from guandan.players import make_player
    from guandan.web.outside import Session, Snapshot
    from guandan.web.store import Changed, Game, new_id

    class FakePeer(Peer):
        """A program in memory that answers index 0 at once."""

        def __init__(self, name: str) -> None:
            self.name = name
            self.sent: list[Json] = []
            self.answers: list[str] = []

        def send(self, message: Any) -> None:
            self.sent.append(json.loads(json.dumps(message)))
            if message["type"] == "act":
                self.answers.append(json.dumps({"actIndex": 0}))

        def receive(self, timeout: float) -> str:
            if not self.answers:
                raise TimeoutError
            return self.answers.pop(0)

    game = Game(id=new_id(), preset="site", match=Match("site", seed=4), outside=(2, 4))
    s = Session(game.id, (2, 4), timeout=0.01)
    two, four = FakePeer("two"), FakePeer("four")
    s.peers[2] = two  # type: ignore[assignment]
    s.catch_up(Snapshot.of(game))
    assert two.sent == [] and s.waiting(1, 1, False) == [4]  # the hand waits for seat 4
    s.peers[4] = four  # type: ignore[assignment]
    s.catch_up(Snapshot.of(game))
    assert [m["stage"] for m in two.sent] == ["beginning"] and s.waiting(1, 1, False) == []
    old = Snapshot.of(game)
    obs = game.match.observation(1)
    game.match.apply(make_player("greedy", seed=1).act(obs))
    s.catch_up(Snapshot.of(game))
    s.catch_up(Snapshot.of(game))  # nothing new: nothing told
    assert [m["stage"] for m in two.sent] == ["beginning", "play"]
    with pytest.raises(Changed):
        s.ask(old, 2, obs)
    action, notes = s.ask(Snapshot.of(game), 2, game.match.observation(2))
    assert action in game.match.legal_actions
    assert notes == {"outside": {"2": "two", "4": "four"}}
    assert [m["type"] for m in two.sent] == ["notify", "notify", "act"]


def test_a_programs_connection_outlives_the_request_head_clock(tmp_path: Path,
                                                              make_server: Any) -> None:
    """The clock on a request's head (``--header-timeout``) stops once the connection is a
    WebSocket: a program that waits longer still hears the next play."""
    from websockets.sync.client import connect as ws_connect

    s = make_server(tmp_path / "data", args=("--header-timeout", "1"))
    s.start()
    try:
        g = new_game(s, [3])
        with ws_connect(ws_url(s, g, 3)) as ws:
            assert json.loads(ws.recv(timeout=10))["stage"] == "beginning"
            time.sleep(2.5)
            assert person_acts(s, g["id"]).status_code == 200
            assert json.loads(ws.recv(timeout=10))["stage"] == "play"
    finally:
        s.stop()


# The played cards on the table (the play to beat in the centre, each seat's play in this trick)
# that a seat's box or the log covers, or that a box hiding its overflow cuts off; the seats'
# names and counts that the log's button covers.
HIDDEN_CARDS = """() => {
  const out = [];
  const log = document.querySelector(".board > .log").getBoundingClientRect();
  const over = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
    a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 &&
    a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const boxes = [...document.querySelectorAll(".felt > .seat, .board > .log")];
  for (const c of document.querySelectorAll("#center .table-play .card, .felt .seat-act .card")) {
    const r = c.getBoundingClientRect();
    const own = c.closest(".seat");
    const who = `${own ? own.id : "centre"} ${c.dataset.card} at ` +
      [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
    for (const b of boxes)
      if (b !== own && over(r, b.getBoundingClientRect())) out.push(`${who} under ${b.id}`);
    if (own && !inside(r, own.getBoundingClientRect())) out.push(`${who} out of its seat`);
    for (let a = c.parentElement; a; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX !== "visible" || st.overflowY !== "visible")
        if (!inside(r, a.getBoundingClientRect()))
          out.push(`${who} cut by ${a.id || a.className}`);
    }
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth)
      out.push(`${who} off the screen`);
  }
  for (const h of document.querySelectorAll(".felt > .seat .seat-head > *"))
    if (over(h.getBoundingClientRect(), log))
      out.push(`${h.closest(".seat").id} ${h.className} under the log`);
  return out;
}"""

# HIDDEN_CARDS after every change of the page (once a frame), into window.__hidden.
WATCH_CARDS = """(check) => {
  window.__hidden = [];
  const run = (0, eval)(check);
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      for (const p of run()) if (!window.__hidden.includes(p)) window.__hidden.push(p);
    });
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1280, 720), (360, 740)])
def test_played_cards_stay_in_sight_with_the_address_open_or_closed(
        width: int, height: int, server: Server, browser: Any, artifacts: Path,
        procs: list[subprocess.Popen[str]]) -> None:
    """A seat left to a program: the panel with its address (opened by a click on the seat's
    name) takes height from the table. At every turn of seat 1 in a whole hand, with the card
    counter on and the hint's words shown (the table at its shortest), the address open and
    closed, every seat's played cards stay whole, uncovered by any seat's box or the log, and
    the log's button leaves every seat's name and count in sight."""
    phone = width < 500
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR",
                              is_mobile=phone, has_touch=phone, reduced_motion="reduce")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    g = new_game(server, [2], seed=1)
    try:
        page.goto(server.url + "/?pace=0.02")
        page.evaluate("id => localStorage.setItem('guandan.game', id)", g["id"])
        page.goto(server.url + "/?pace=0.02")
        page.click("#btn-continue")
        page.wait_for_selector("#outside .outside-seat[data-state=waiting]")
        procs.append(connect(ws_url(server, g, 2)))
        page.wait_for_selector("#outside .outside-seat[data-state=playing]")
        page.click("#btn-settings")
        page.click("#btn-counter")
        page.click("#btn-settings")
        page.evaluate(WATCH_CARDS, HIDDEN_CARDS)
        felt = {True: 0.0, False: 0.0}
        turns = seen = 0
        while True:
            page.wait_for_function(
                "() => { const s = window.__guandan; const g = s.game;"
                " return g && !s.busy && (g.result || g.my_turn); }")
            if page.evaluate("window.__guandan.game.result"):
                break
            page.click("#btn-hint")
            page.wait_for_selector("#message.hint")
            for opened in (True, False):  # the address opened by a click, then closed
                if page.locator("#outside code").is_visible() != opened:
                    page.click("#outside .outside-seat > b")
                assert page.locator("#outside code").is_visible() == opened
                hidden = page.evaluate(HIDDEN_CARDS)
                if hidden:
                    page.screenshot(path=str(artifacts / f"outside-hidden-{width}.png"))
                assert hidden == [], (turns, opened, hidden)
                felt[opened] = page.locator(".felt").bounding_box()["height"]
                if turns == 3:
                    shown = "open" if opened else "closed"
                    page.screenshot(path=str(artifacts / f"outside-{shown}-{width}.png"))
            seen += page.locator("#seat-2 .seat-act .card, #center .table-play[data-seat='2']"
                                 " .card").count()
            page.click("#btn-pass" if page.evaluate("window.__guandan.selected.size") == 0
                       else "#btn-play")
            turns += 1
        assert turns > 5 and seen > 0  # seat 2's plays were on the table at seat 1's turns
        assert felt[True] < felt[False]  # the open address takes the table's height
        assert page.evaluate("window.__hidden") == []
        assert not errors, errors
    finally:
        ctx.close()
        server.client.delete(f"{server.url}/api/games/{g['id']}")
