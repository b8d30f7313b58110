"""Browser tests: Playwright (sync API) with Debian's chromium against a real server.

They do what a person does: click cards and buttons, read what the page shows. The page is
opened with ``?pace=0.02`` so the AI seats act quickly; screenshots go to
``test-artifacts/web/``.
"""

from __future__ import annotations

import os
import subprocess
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

from guandan.cards import parse_cards
from guandan.readings import classify

FAST = "/?pace=0.02"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
Server = Any  # tests/web/conftest.py: a ``guandan serve`` subprocess


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def state(page: Any) -> dict[str, Any]:
    g: dict[str, Any] = page.evaluate("window.__guandan.game")
    return g


def version(page: Any) -> int:
    v: int = page.evaluate("window.__guandan.version || 0")
    return v


def start_new(page: Any, server: Server, preset: str = "site", query: str = FAST) -> None:
    page.goto(server.url + query)
    page.click("#btn-new-start-screen")
    if preset != "site":
        page.check(f"input[name=preset][value={preset}]")
    page.click("#btn-new-start")
    page.wait_for_selector("#hand .card")


def open_saved(page: Any, server: Server, gid: str, query: str = FAST) -> None:
    page.goto(server.url + query)
    page.evaluate("id => localStorage.setItem('guandan.game', id)", gid)
    page.goto(server.url + query)
    page.click("#btn-continue")
    page.wait_for_function("() => window.__guandan.game !== null")


def wait_turn_or_result(page: Any, timeout: int = 30000) -> dict[str, Any]:
    page.wait_for_function(
        "() => { const s = window.__guandan; const g = s.game;"
        " return g && !s.busy && (g.result || g.to_act === null || g.my_turn); }",
        timeout=timeout)
    return state(page)


def wait_change(page: Any, before: int) -> None:
    page.wait_for_function(f"() => (window.__guandan.version || 0) > {before}")


def keys_of(page: Any, cards: list[str]) -> list[str]:
    """The data-key of hand cards showing these notations (one card each)."""
    out: list[str] = []
    for c in cards:
        for el in page.query_selector_all(f'#hand .card[data-card="{c}"]'):
            k = el.get_attribute("data-key")
            if k not in out:
                out.append(k)
                break
    return out


def hint_and_act(page: Any) -> None:
    """Click 추천, then 내기 (or 패스 when the hint is to pass), as a person would."""
    before = version(page)
    page.click("#btn-hint")
    page.wait_for_selector("#message.hint")
    if page.evaluate("window.__guandan.selected.size") == 0:
        page.click("#btn-pass")
    else:
        page.wait_for_timeout(80)  # the readings of the selection arrive
        page.click("#btn-play")
    wait_change(page, before)


def ai_to_result(server: Server, gid: str, until: Any) -> dict[str, Any]:
    s = server.api("GET", f"/api/games/{gid}")
    for _ in range(3000):
        if until(s):
            return dict(s)
        if s["result"]:
            s = server.api("POST", f"/api/games/{gid}/next")
        else:
            s = server.api("POST", f"/api/games/{gid}/step", json={"auto": True})["state"]
    raise AssertionError("never reached")


# -- a whole hand ------------------------------------------------------------------------------


def test_whole_hand_with_clicks(page: Any, server: Server) -> None:
    start_new(page, server)
    shot(page, "01-new-game")
    assert page.text_content("#btn-play") == "내기"
    assert page.locator("#hand .card").count() == 27
    turns = 0
    while True:
        s = wait_turn_or_result(page)
        if s["result"]:
            break
        hint_and_act(page)
        turns += 1
        if turns == 3:
            shot(page, "02-mid-hand")
        assert turns < 200
    page.wait_for_selector("#result:not([hidden])")
    shot(page, "03-result")
    r = state(page)["result"]
    assert page.locator("#result ol.order li").count() == 4
    text = page.text_content("#result")
    assert "완료 순위" in text and "현재 레벨" in text
    assert page.locator("#result table.levels tr").count() == 2
    assert page.locator("#result ul.players li").count() == 4
    gain = {3: "+3", 2: "+2", 1: "+1"}[r["gain"]]
    assert gain in text
    # The records page lists the hand and offers the export.
    page.click("#result a[data-go=records]")
    page.wait_for_selector("tr.record")
    assert page.locator("tr.record").count() == 1
    href = page.get_attribute("#btn-export", "href")
    assert href and href.endswith("/export")
    shot(page, "04-records")
    page.click("nav a[data-go=game]")
    page.click("#btn-again")
    page.wait_for_function("() => window.__guandan.game.result === null")
    s = state(page)
    assert s["team_levels"] == r["team_levels_after"] and s["result"] is None


def test_refused_play_keeps_the_cards(page: Any, server: Server) -> None:
    start_new(page, server)
    s = wait_turn_or_result(page)
    hand = parse_cards(s["hand"])
    a, b = next((x, y) for i, x in enumerate(hand) for y in hand[i + 1:]
                if not classify([x, y], s["level"]))
    for k in keys_of(page, [a.notation, b.notation]):
        page.click(f'#hand .card[data-key="{k}"]')
    assert page.locator("#hand .card.selected").count() == 2
    page.click("#btn-play")
    page.wait_for_selector("#message.error")
    assert "조합이 아닙니다" in page.text_content("#message")
    assert page.locator("#hand .card.selected").count() == 2
    assert page.locator("#hand .card").count() == 27
    shot(page, "05-refused")
    # The leader cannot pass: the button is off, and the shortcut says why.
    assert page.is_disabled("#btn-pass")
    page.keyboard.press("p")
    page.wait_for_function("() => document.querySelector('#message').textContent"
                           ".includes('선출자는 패스할 수 없습니다')")
    # Deselect by clicking again; the selected card rises.
    k = keys_of(page, [a.notation])[0]
    page.click(f'#hand .card[data-key="{k}"]')
    assert page.locator("#hand .card.selected").count() == 1


def test_pass_sort_and_hint(page: Any, server: Server) -> None:
    start_new(page, server)
    # Sort: strength, then groups (bombs and straight flushes first), then back.
    s = wait_turn_or_result(page)
    shown = [e.get_attribute("data-card") for e in page.query_selector_all("#hand .card")]
    assert shown == s["hand"]
    page.click("#btn-sort")
    shown = [e.get_attribute("data-card") for e in page.query_selector_all("#hand .card")]
    assert shown == [c for g in s["hand_groups"] for c in g]
    assert page.get_attribute("#btn-sort", "data-mode") == "groups"
    shot(page, "06-sorted-groups")
    page.keyboard.press("s")
    assert page.get_attribute("#btn-sort", "data-mode") == "strength"
    # Hint: selects, says why, submits nothing.
    before = version(page)
    page.click("#btn-hint")
    page.wait_for_selector("#message.hint")
    assert "추천" in page.text_content("#message")
    assert page.locator("#hand .card.selected").count() >= 1
    page.wait_for_timeout(300)
    assert version(page) == before and len(state(page)["hand"]) == 27
    shot(page, "07-hint")
    page.keyboard.press("Enter")  # the shortcut plays the hint
    wait_change(page, before)
    # Pass: play on until seat 1 follows, then pass.
    for _ in range(100):
        s = wait_turn_or_result(page)
        if s["result"]:
            page.click("#btn-again")
            continue
        if s["table"] is not None:
            break
        hint_and_act(page)
    before = version(page)
    page.click("#btn-pass")
    wait_change(page, before)
    mine = [e for e in state(page)["history"] if e["seat"] == 1]
    assert mine[-1]["kind"] == "pass"


def test_auto_play_then_off(page: Any, server: Server) -> None:
    start_new(page, server)
    page.click("#btn-settings")  # the interval is among the settings
    page.select_option("#auto-interval", "0.3")
    page.click("#btn-auto")
    assert page.get_attribute("#btn-auto", "aria-pressed") == "true"
    page.wait_for_function("() => window.__guandan.game.counts['1'] < 27")
    page.wait_for_function("() => window.__guandan.game.history.filter(e => e.seat === 1)"
                           ".length >= 2", timeout=30000)
    shot(page, "08-auto")
    page.click("#btn-auto")
    assert page.get_attribute("#btn-auto", "aria-pressed") == "false"
    s = wait_turn_or_result(page)
    if not s["result"]:
        before = version(page)
        page.wait_for_timeout(1200)
        assert version(page) == before and state(page)["my_turn"]


def test_return_after_tribute(page: Any, server: Server) -> None:
    g = server.api("POST", "/api/games", json={"seed": 10})
    ai_to_result(server, g["id"], lambda s: s["hand_number"] == 2 and not s["result"])
    open_saved(page, server, g["id"])
    s = wait_turn_or_result(page)
    assert s["phase"] == "return" and s["to_act"] == 1
    page.wait_for_selector("#btn-return:not([hidden])")
    page.wait_for_selector("#tribute")
    assert "공물" in page.text_content("#tribute")
    marked = page.locator("#hand .card.returnable").count()
    assert marked == sum(1 for c in s["hand"] if c in s["returnable"])
    assert page.locator("#hand .card.dim").count() == 28 - marked
    shot(page, "09-return")
    page.click("#btn-hint")
    page.wait_for_selector("#message.hint")
    assert page.locator("#hand .card.selected.returnable").count() == 1
    before = version(page)
    page.click("#btn-return")
    wait_change(page, before)
    s = state(page)
    assert s["phase"] == "play" and len(s["hand"]) == 27
    assert [e["kind"] for e in s["history"][:2]] == ["gift", "return"]
    assert page.locator("#log-list li.return").count() == 1


def test_reload_and_continue(page: Any, server: Server) -> None:
    start_new(page, server)
    wait_turn_or_result(page)
    hint_and_act(page)
    s = wait_turn_or_result(page)
    page.reload()
    page.click("#btn-continue")
    page.wait_for_function("() => window.__guandan.game !== null")
    t = state(page)
    for key in ("id", "hand", "history", "table", "counts", "team_levels", "results"):
        assert t[key] == s[key], key
    assert page.locator("#hand .card").count() == len(s["hand"])


def test_server_restart_and_continue(page: Any, tmp_path: Path, make_server: Any) -> None:
    server = make_server(tmp_path / "data")
    server.start()
    try:
        start_new(page, server)
        wait_turn_or_result(page)
        hint_and_act(page)
        s = wait_turn_or_result(page)
        server.restart()
        page.goto(server.url + FAST)
        page.click("#btn-continue")
        page.wait_for_function("() => window.__guandan.game !== null")
        t = state(page)
        for key in ("id", "hand", "history", "table", "counts", "team_levels", "results"):
            assert t[key] == s[key], key
        hint_and_act(page)  # and the game goes on
        shot(page, "10-after-restart")
    finally:
        server.stop()


def test_new_game_with_preset(page: Any, server: Server) -> None:
    start_new(page, server)
    old = state(page)["id"]
    page.click("#btn-settings")
    page.click(".controls .btn-new")
    page.wait_for_selector("#newgame:not([hidden])")
    assert page.is_visible("#new-confirm")
    assert "2레벨" in page.text_content("#new-confirm")
    text = page.text_content("#presets")
    for name in ("사이트 기본", "2017 전국 통일", "화이안", "난징"):
        assert name in text
    assert page.text_content("#difficulties") == "쉬움보통어려움"
    assert page.is_checked("input[name=difficulty][value=hard]")  # the default
    shot(page, "11-new-game-dialog")
    page.check("input[name=preset][value=nanjing]")
    page.check("input[name=difficulty][value=normal]")
    page.click("#btn-new-start")
    page.wait_for_function(f"() => window.__guandan.game.id !== '{old}'")
    s = state(page)
    assert s["preset"] == "nanjing" and s["hand_number"] == 1 and s["difficulty"] == "normal"
    assert s["team_levels"] == {"13": "2", "24": "2"}
    assert "난징 · 보통" in page.text_content("#info")


def test_final_victory_from_prepared_match(page: Any, server: Server) -> None:
    g = server.api("POST", "/api/games", json={
        "seed": 1, "team_levels": {"13": "A", "24": "A"}, "level_team": "13"})
    open_saved(page, server, g["id"], query="/?pace=0.01&autopace=0.01")
    assert "A" in page.text_content("#hand-level")
    page.click("#btn-auto")
    page.wait_for_selector("#final-victory", timeout=60000)
    assert "최종 승리" in page.text_content("#result")
    shot(page, "12-final-victory")
    page.keyboard.press("a")  # auto-play off (the result covers the controls)
    assert page.get_attribute("#btn-auto", "aria-pressed") == "false"
    page.click("#btn-again")
    page.wait_for_function("() => window.__guandan.game.match_number === 2")
    s = state(page)
    assert s["team_levels"] == {"13": "2", "24": "2"} and s["hand_number"] == 1


def test_language_switch(page: Any, server: Server) -> None:
    start_new(page, server)
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.querySelector('#btn-play').textContent === 'Play'")
    assert page.text_content("#btn-pass") == "Pass"
    assert page.text_content("nav a[data-go=rules]") == "Rules"
    shot(page, "13-english")
    page.select_option("#lang", "zh")
    page.wait_for_function("() => document.querySelector('#btn-play').textContent === '出牌'")
    assert page.text_content("#btn-hint") == "提示"
    shot(page, "14-chinese")
    page.reload()  # the choice is kept
    page.wait_for_function(
        "() => document.querySelector('#btn-continue').textContent === '继续'")
    page.select_option("#lang", "ko")
    page.wait_for_function(
        "() => document.querySelector('#btn-continue').textContent === '계속하기'")


def test_rules_and_intro_pages(page: Any, server: Server) -> None:
    page.goto(server.url + FAST)
    page.click("nav a[data-go=rules]")
    page.wait_for_selector("#rules-body h3")
    assert page.locator("#rules-body section").count() >= 10
    assert page.locator("#rules-body figure.example .card").count() >= 20
    assert page.locator("#rules-body .card.wild").count() >= 1
    text = page.text_content("#rules-body")
    for word in ("와일드", "폭탄", "공물", "반환", "최종 승리", "난징"):
        assert word in text
    shot(page, "15-rules")
    page.click("nav a[data-go=intro]")
    page.wait_for_selector("#intro-body h3")
    assert "화이안" in page.text_content("#intro-body")
    shot(page, "16-intro")


def test_phone_screen(browser: Any, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                              is_mobile=True, has_touch=True, locale="ko-KR")
    page = ctx.new_page()
    try:
        start_new(page, server)
        wait_turn_or_result(page)
        page.locator("#hand .card").nth(5).tap()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
        boxes = [e.bounding_box() for e in page.query_selector_all("#hand .card")]
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= 360 for b in boxes)
        steps = sorted({round(b["x"], 1) for b in boxes})
        assert min(y - x for x, y in pairwise(steps)) >= 22.9  # tappable
        for sel in ("#btn-play", "#btn-pass", "#btn-hint", "#btn-sort", "#btn-auto"):
            b = page.locator(sel).bounding_box()
            assert b["x"] >= 0 and b["x"] + b["width"] <= 360 and b["height"] >= 36
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "17-phone-360x740.png"))
        page.click("nav a[data-go=rules]")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(ARTIFACTS / "18-phone-rules.png"))
    finally:
        ctx.close()


def test_choice_of_readings(page: Any, server: Server) -> None:
    """Cards readable several ways: the choices are shown, strongest first; the chosen one is
    played."""
    g = server.api("POST", "/api/games", json={
        "seed": 5, "team_levels": {"13": "7", "24": "7"}, "level_team": "13"})
    open_saved(page, server, g["id"])
    wait_turn_or_result(page)
    for k in keys_of(page, ["S3", "H3", "D3", "H7", "H7"]):
        page.click(f'#hand .card[data-key="{k}"]')
    page.wait_for_selector("#readings:not([hidden]) button.reading")
    buttons = page.locator("#readings button.reading")
    assert buttons.count() == 2
    assert buttons.nth(0).get_attribute("data-kind") == "bomb"
    assert buttons.nth(0).get_attribute("aria-pressed") == "true"
    assert "폭탄" in buttons.nth(0).text_content()
    assert "풀하우스" in buttons.nth(1).text_content()
    shot(page, "19-readings")
    buttons.nth(1).click()
    before = version(page)
    page.click("#btn-play")
    wait_change(page, before)
    # The AI seats may already have answered: take seat 1's last play, not the last event.
    play = [e for e in state(page)["history"] if e["seat"] == 1 and e["play"]][-1]["play"]
    assert (play["kind"], play["rank"]) == ("full_house", "3")


def test_exemption_is_announced(page: Any, server: Server) -> None:
    g = server.api("POST", "/api/games", json={"seed": 8})
    s = ai_to_result(server, g["id"], lambda s: s["hand_number"] == 2 and not s["result"])
    assert s["tribute"]["kind"] == "exempt"
    open_saved(page, server, g["id"], query="/?pace=30")  # slow AI: the notice stays
    page.wait_for_selector("#tribute .exempt")
    assert "공물 면제" in page.text_content("#tribute")
    assert page.locator('#tribute .card[data-card="BJ"]').count() == 2
    assert page.locator('#log-list li.exempt .card[data-card="BJ"]').count() == 2
    shot(page, "20-exemption")


def test_stopping_the_server_ends_its_ai_workers(tmp_path: Path, make_server: Any) -> None:
    server = make_server(tmp_path / "data")
    server.start()
    try:
        g = server.api("POST", "/api/games", json={"seed": 4})
        server.api("POST", f"/api/games/{g['id']}/play", json={"cards": [g["hand"][-1]]})
        server.api("POST", f"/api/games/{g['id']}/step", json={})  # the workers start
        out = subprocess.run(["pgrep", "-P", str(server.proc.pid)], capture_output=True,
                             text=True).stdout
        children = [int(x) for x in out.split()]
        assert children  # the AI's worker processes (and their resource tracker)
    finally:
        server.stop()
    for pid in children:
        for _ in range(50):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"worker {pid} outlived the server")


def test_last_try_at_a_goes_back_to_2(page: Any, server: Server) -> None:
    g = server.api("POST", "/api/games", json={
        "preset": "nanjing", "seed": 0, "team_levels": {"13": "A", "24": "5"},
        "level_team": "13", "a_tries": {"13": 1}})
    open_saved(page, server, g["id"], query="/?pace=0.01&autopace=0.01")
    assert "A 시도 2/2" in page.text_content("#info")
    page.click("#btn-auto")
    page.wait_for_selector("#result:not([hidden])", timeout=60000)
    page.keyboard.press("a")
    text = page.text_content("#result")
    assert "A2 / 2" in text and "2로 돌아갑니다" in text
    assert page.text_content('#result tr[data-team="13"] .after') == "2"
    shot(page, "21-last-try-at-a")
