"""Browser tests of the page as Guandan players expect it (issue 24), at 1366×768, 1280×720 and
360×740: everything inside the screen at every turn, the right words (particles, the result
said from the person's seat, Chinese everywhere), the ended hand until 다시 하기, 理牌 columns,
the card counter against the engine's hands, the replay, the AI's own pace, motion and sound.

Screenshots of each screen in each size go to ``test-artifacts/web/``.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from guandan.cards import parse_cards
from guandan.match import PASS, Match
from guandan.readings import classify, read_as

FAST = "/?pace=0.02"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
SIZES = [(1366, 768), (1280, 720), (360, 740)]
Server = Any

# Korean particle placeholders that must never show: 이(가), 을(를), (으)로 …
PLACEHOLDER = re.compile(
    r"\((?:이|가|을|를|은|는|으|과|와|아|야)\)|\{\w*(?:\|[^}]*)?\}|undefined|NaN")
HANGUL = re.compile(r"[\uac00-\ud7a3]")

# Every visible text of the page (the language menu aside: it names each language in its own).
VISIBLE_TEXT = """() => {
  const out = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = w.nextNode())) {
    const el = n.parentElement;
    if (!el || el.closest("[hidden], script, style, #lang, option")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const s = n.textContent.trim();
    if (s) out.push(s);
  }
  for (const el of document.querySelectorAll("button, select")) {
    if (el.closest("[hidden], #lang")) continue;
    const r = el.getBoundingClientRect();
    if (r.width && el.tagName === "SELECT")
      out.push(el.selectedOptions[0]?.textContent || "");
  }
  return out;
}"""

# What lies outside the screen: the page scrolling, or a control or card of the hand outside.
OUTSIDE = """() => {
  const vw = innerWidth, vh = innerHeight, out = [];
  const se = document.scrollingElement;
  if (se.scrollHeight > vh + 1) out.push(`the page scrolls: ${se.scrollHeight} > ${vh}`);
  if (se.scrollWidth > vw + 1) out.push(`the page scrolls sideways: ${se.scrollWidth} > ${vw}`);
  const els = document.querySelectorAll(
    "#hand .card, .controls > button, #message, #status, #readings button, #info .chip");
  for (const el of els) {
    if (el.closest("[hidden]")) continue;
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    if (r.left < -1 || r.right > vw + 1 || r.top < -1 || r.bottom > vh + 1)
      out.push(`${el.id || el.dataset.card || el.className} at ` +
        [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
  }
  return out;
}"""

# Korean words broken across two lines ("합니/다"): each run of Hangul must sit on one line.
BROKEN_WORDS = """() => {
  const bad = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = w.nextNode())) {
    const el = n.parentElement;
    if (!el || el.closest("[hidden], script, style, option, select")) continue;
    const re = /[\\uac00-\\ud7a3]+/g;
    let m;
    while ((m = re.exec(n.textContent))) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const rects = [...r.getClientRects()].filter((x) => x.width > 0);
      const tops = new Set(rects.map((x) => Math.round(x.top)));
      if (tops.size > 1) bad.push(m[0]);
    }
  }
  return bad;
}"""


# Watch the page through auto-play: after every change of the page (once a frame), check what
# ``check`` says ("fit": nothing outside the screen, no placeholder; "nohangul": no Korean),
# collecting every problem in window.__problems.
WATCH = """([check, outside, visible, placeholder]) => {
  window.__problems = [];
  const out = (0, eval)(outside), vis = (0, eval)(visible), ph = new RegExp(placeholder);
  let queued = false;
  const run = () => {
    queued = false;
    if (check === "fit") {
      for (const p of out()) window.__problems.push(p);
      for (const s of vis()) if (ph.test(s)) window.__problems.push(s);
    } else {
      for (const s of vis()) if (/[\uac00-\ud7a3]/.test(s)) window.__problems.push(s);
    }
  };
  new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(run); }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def watch(page: Any, check: str) -> None:
    page.evaluate(WATCH, [check, OUTSIDE, VISIBLE_TEXT, PLACEHOLDER.pattern])


def problems(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__problems")
    return found


def auto_to_result(page: Any) -> None:
    """Auto-play on (seat 1 acts at the test's pace) until the hand's result shows."""
    page.click("#btn-auto")
    page.wait_for_selector("#result:not([hidden])", timeout=60000)
    page.keyboard.press("a")


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def state(page: Any) -> dict[str, Any]:
    g: dict[str, Any] = page.evaluate("window.__guandan.game")
    return g


def version(page: Any) -> int:
    v: int = page.evaluate("window.__guandan.version || 0")
    return v


def wait_turn_or_result(page: Any, timeout: int = 30000) -> dict[str, Any]:
    page.wait_for_function(
        "() => { const s = window.__guandan; const g = s.game;"
        " return g && !s.busy && (g.result || g.to_act === null || g.my_turn); }",
        timeout=timeout)
    return state(page)


def open_saved(page: Any, server: Server, gid: str, query: str = FAST) -> None:
    page.goto(server.url + query)
    page.evaluate("id => localStorage.setItem('guandan.game', id)", gid)
    page.goto(server.url + query)
    page.click("#btn-continue")
    page.wait_for_function("() => window.__guandan.game !== null")


def steps_to(server: Server, gid: str, until: Any) -> dict[str, Any]:
    s = server.api("GET", f"/api/games/{gid}")
    for _ in range(3000):
        if until(s):
            return dict(s)
        if s["result"]:
            s = server.api("POST", f"/api/games/{gid}/next")
        else:
            s = server.api("POST", f"/api/games/{gid}/step", json={"auto": True})["state"]
    raise AssertionError("never reached")


def check_screen(page: Any, where: str) -> None:
    """Nothing outside the screen, no placeholder in any visible text."""
    outside = page.evaluate(OUTSIDE)
    assert not outside, (where, outside)
    for text in page.evaluate(VISIBLE_TEXT):
        assert not PLACEHOLDER.search(text), (where, text)


# The result's sentence, said from seat 1: the subject forms of the seats' names.
SUBJECT = {1: "내가", 2: "오른쪽 상대가", 3: "동료가", 4: "왼쪽 상대가"}
TEAM = {"13": "우리 팀", "24": "상대 팀"}
PARTNER = {1: 3, 3: 1, 2: 4, 4: 2}


def gain_sentence(r: dict[str, Any]) -> str:
    order = r["finish_order"]
    first, partner = order[0], PARTNER[order[0]]
    return (f"{SUBJECT[first]} 1위, {SUBJECT[partner]} {order.index(partner) + 1}위: "
            f"{TEAM[r['winner']]} +{r['gain']}레벨")


# -- a whole hand in each size ------------------------------------------------------------------


SELECTED_CLIPPED = """() => [...document.querySelectorAll('#hand .card.selected')].filter(c => {
  const wrap = c.closest('.hand-wrap').getBoundingClientRect();
  return c.getBoundingClientRect().top - 4 < wrap.top - 0.5;
}).map(c => c.dataset.card)"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_whole_hand_fits_and_reads_right(browser: Any, server: Server,
                                         size: tuple[int, int]) -> None:
    w, h = size
    phone = w < 500
    ctx = browser.new_context(viewport={"width": w, "height": h}, locale="ko-KR",
                              is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    tag = f"{w}x{h}"
    try:
        g = server.api("POST", "/api/games", json={"seed": 21})
        query = FAST + "&autopace=0.02"
        page.goto(server.url + query)
        page.evaluate("id => localStorage.setItem('guandan.game', id)", g["id"])
        page.goto(server.url + query)
        page.wait_for_selector("#start-summary:not([hidden])")
        assert "1번째 판" in page.text_content("#start-summary")
        shot(page, f"s01-start-{tag}")
        page.click("#btn-continue")
        turns = refused = 0
        while turns < 5:  # five turns by hand, then auto-play watched at every change
            s = wait_turn_or_result(page)
            assert not s["result"]
            check_screen(page, f"turn {turns}")
            if turns == 0:
                shot(page, f"s02-game-{tag}")
            if s["table"] is None and not refused:
                # A refusal: two cards that are no combination stay in the hand, said beside it.
                hand = parse_cards(s["hand"])
                pair = next([a, b] for i, a in enumerate(hand) for b in hand[i + 1:]
                            if a != b and not classify([a, b], s["level"]))
                for c in pair:
                    page.locator(f'#hand .card[data-card="{c.notation}"]').first.click()
                page.click("#btn-play")
                page.wait_for_selector("#message.error")
                check_screen(page, "after a refusal")
                shot(page, f"s03-refused-{tag}")
                refused = 1
                page.keyboard.press("Escape")
            before = version(page)
            page.click("#btn-hint")
            page.wait_for_selector("#message.hint")
            page.wait_for_timeout(80)
            check_screen(page, f"after hint {turns}")
            # A selected card, lifted, keeps its top and its shadow (4 px above) inside the
            # hand's area, which clips what sticks out of it (once its 0.12 s lift is over).
            page.wait_for_timeout(150)
            assert page.evaluate(SELECTED_CLIPPED) == [], f"selected card clipped, {tag}"
            if turns == 1:
                shot(page, f"s04-hint-{tag}")
                page.click("#btn-more")
                assert page.is_visible("#hint-figures")
                shot(page, f"s05-hint-figures-{tag}")
                page.click("#btn-more")
            if turns == 2:
                page.click("#btn-sort")  # 理牌 columns from here on
                check_screen(page, "groups")
                shot(page, f"s06-groups-{tag}")
            if turns == 3:
                page.click("#btn-settings")
                page.click("#btn-counter")
                page.click("#btn-settings")
                check_screen(page, "counter")
                shot(page, f"s07-counter-{tag}")
            if phone and turns in (1, 4):
                assert page.evaluate(BROKEN_WORDS) == []
            if page.evaluate("window.__guandan.selected.size") == 0:
                page.click("#btn-pass")
            else:
                page.click("#btn-play")
            page.wait_for_function(f"() => (window.__guandan.version || 0) > {before}")
            turns += 1
        watch(page, "fit")
        auto_to_result(page)
        assert problems(page) == []
        check_screen(page, "result")
        shot(page, f"s08-result-{tag}")
        s = state(page)
        r, ended = s["result"], s["ended"]
        text = page.text_content("#result")
        assert gain_sentence(r) in text
        assert "동료가 2위: +3" not in text and "24팀" not in text
        # Every seat's remaining cards, in the result and open on the table behind it.
        for seat in "1234":
            left = ended["remaining"][seat]
            shown = page.locator(f'#result ul.remaining li[data-seat="{seat}"] .card')
            assert [e.get_attribute("data-card") for e in shown.all()] == left
        assert sum(len(v) for v in ended["remaining"].values()) > 0
        # The hand that ended is behind the result, not the next one.
        page.click("#btn-result-view")
        check_screen(page, "ended hand")
        shot(page, f"s09-ended-{tag}")
        assert s["hand_number"] == 2 and ended["hand"] == 1
        assert page.locator("#hand .card").count() == len(ended["remaining"]["1"])
        for seat in "234":
            row = page.locator(f"#seat-{seat} .seat-act.remaining .card")
            assert row.count() == len(ended["remaining"][seat])
        assert page.locator("#center .table-play").count() == 1
        # The log: trick by trick, each with the seat that took it.
        tricks = page.locator("#log-list li.trick")
        n_tricks = max(e["trick"] for e in ended["history"] if e.get("trick"))
        assert tricks.count() == n_tricks
        assert page.locator("#log-list li.trick .won").count() == n_tricks
        assert page.evaluate(BROKEN_WORDS) == [] or not phone
        page.click("#btn-result-view")
        page.click("#btn-again")
        page.wait_for_function("() => window.__guandan.game.result === null")
        shot(page, f"s10-next-hand-{tag}")
        check_screen(page, "next hand")
        assert page.locator("#hand .card").count() == len(state(page)["hand"])
        page.click("nav a[data-go=records]")
        page.wait_for_selector("tr.record")
        assert gain_sentence(r) in page.text_content("tr.record")
        shot(page, f"s11-records-{tag}")
        if phone:
            assert page.evaluate(BROKEN_WORDS) == []
        page.click(".btn-replay")
        page.wait_for_selector("#replay-pos")
        page.click("#rp-next-trick")
        shot(page, f"s12-replay-{tag}")
        page.click("nav a[data-go=rules]")
        page.wait_for_selector("#rules-body h3")
        shot(page, f"s13-rules-{tag}")
        if phone:
            assert page.evaluate(BROKEN_WORDS) == []
        assert page.evaluate("getComputedStyle(document.body).wordBreak") == "keep-all"
    finally:
        ctx.close()
    assert not errors, errors


def test_result_sentences_follow_the_finish_order(page: Any, server: Server) -> None:
    """Several hands, several finish orders: each result and records row names the 1st and
    their partner as the person sees them."""
    g = server.api("POST", "/api/games", json={"seed": 33})
    steps_to(server, g["id"], lambda s: s["hand_number"] == 5 and not s["result"])
    results = server.api("GET", f"/api/games/{g['id']}/records")["results"]
    assert len({(r["finish_order"][0], r["gain"]) for r in results}) >= 2
    open_saved(page, server, g["id"], query="/?pace=30")
    page.click("nav a[data-go=records]")
    page.wait_for_selector("tr.record")
    rows = page.locator("tr.record")
    assert rows.count() == len(results) == 4
    for i, r in enumerate(results):
        text = rows.nth(i).text_content()
        assert gain_sentence(r) in text, (text, r["finish_order"])
        assert TEAM[r["winner"]] in text and "24팀" not in text and "13팀" not in text
    for text in page.evaluate(VISIBLE_TEXT):
        assert not PLACEHOLDER.search(text), text


def test_particles(page: Any, server: Server) -> None:
    page.goto(server.url + FAST)
    said = page.evaluate("""async () => {
      const m = await import("/static/i18n.js");
      const cases = [["동료", "이"], ["나", "이"], ["오른쪽 상대", "이"], ["♠10", "을"],
        ["♥7", "으로"], ["♦6", "으로"], ["♣8", "으로"], ["3 페어", "을"], ["큰 조커", "이"],
        ["우리 팀 (1·3)", "이"], ["A 폭탄 5장", "은"], ["Q 풀하우스", "를"], ["♠K", "이"],
        ["♣J", "은"], ["폭탄", "를"], ["♥L", "과"]];
      return cases.map(([w, p]) => m.withParticle(w, p));
    }""")
    assert said == ["동료가", "내가", "오른쪽 상대가", "♠10을", "♥7로", "♦6으로", "♣8로",
                    "3 페어를", "큰 조커가", "우리 팀 (1·3)이", "A 폭탄 5장은",
                    "Q 풀하우스를", "♠K가", "♣J는", "폭탄을", "♥L과"]


# -- languages ------------------------------------------------------------------------------------


def test_chinese_everywhere_and_messages_follow_the_language(page: Any, server: Server) -> None:
    g = server.api("POST", "/api/games", json={"seed": 10})
    open_saved(page, server, g["id"], query=FAST + "&autopace=0.02")
    wait_turn_or_result(page)
    page.click("#btn-hint")
    page.wait_for_selector("#message.hint")
    ko = page.text_content("#message .msg-text")
    assert ko.startswith("추천 · ") and HANGUL.search(ko)
    page.select_option("#lang", "zh")
    page.wait_for_function("() => document.querySelector('#btn-play').textContent === '出牌'")
    zh = page.text_content("#message .msg-text")
    assert zh.startswith("提示 · ") and not HANGUL.search(zh), zh
    # Play on in Chinese: hints, refusals, the log, the result: no Korean anywhere.
    page.click("#btn-play")  # the hint's cards
    page.wait_for_selector("#message:not(.hint)")
    for _ in range(3):
        wait_turn_or_result(page)
        for text in page.evaluate(VISIBLE_TEXT):
            assert not HANGUL.search(text), text
        before = version(page)
        page.click("#btn-hint")
        page.wait_for_selector("#message.hint")
        page.click("#btn-more")
        for text in page.evaluate(VISIBLE_TEXT):
            assert not HANGUL.search(text), text
        if page.evaluate("window.__guandan.selected.size") == 0:
            page.click("#btn-pass")
        else:
            page.wait_for_timeout(60)
            page.click("#btn-play")
        page.wait_for_function(f"() => (window.__guandan.version || 0) > {before}")
    watch(page, "nohangul")
    auto_to_result(page)
    assert problems(page) == []
    for text in page.evaluate(VISIBLE_TEXT):
        assert not HANGUL.search(text), text
    shot(page, "s20-chinese-result")
    page.click("#result a[data-go=records]")
    page.wait_for_selector("tr.record")
    for text in page.evaluate(VISIBLE_TEXT):
        assert not HANGUL.search(text), text
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.querySelector('#btn-play').textContent === 'Play'")
    for text in page.evaluate(VISIBLE_TEXT):
        assert not HANGUL.search(text), text
    page.select_option("#lang", "ko")


# -- the card counter, tribute, the AI's pace -----------------------------------------------------


def engine_hands(seed: int, history: list[dict[str, Any]]) -> dict[int, list[str]]:
    """The engine's own hands after the first hand's events: the oracle of the counter."""
    m = Match("site", seed=seed)
    for e in history:
        if e["kind"] == "pass":
            m.apply(PASS)
        elif e["kind"] == "play":
            p = e["play"]
            m.apply(read_as(parse_cards(p["cards"]), m.level, p["kind"], p["rank"]))
    return {s: [c.notation for c in cs] for s, cs in m.hands.items()}


def counter_of(page: Any) -> dict[str, int]:
    cells = page.locator("#counter .cc")
    return {cells.nth(i).get_attribute("data-rank"): int(cells.nth(i).locator(".cc-n")
            .text_content()) for i in range(cells.count())}


def rank_of(card: str) -> str:
    return card if card in ("BJ", "LJ") else card[1:]


def test_card_counter_against_the_deal(page: Any, server: Server) -> None:
    seed = 12
    g = server.api("POST", "/api/games", json={"seed": seed})
    open_saved(page, server, g["id"])
    assert page.is_hidden("#counter")  # off until asked for
    page.click("#btn-settings")
    page.click("#btn-counter")
    page.keyboard.press("Escape")
    checked = 0
    while checked < 5:
        s = wait_turn_or_result(page)
        assert not s["result"]
        hidden = engine_hands(seed, s["history"])
        want = Counter(rank_of(c) for seat in (2, 3, 4) for c in hidden[seat])
        got = counter_of(page)
        assert got == {r: want.get(r, 0) for r in got}, (got, want)
        assert sum(got.values()) == sum(s["counts"][x] for x in "234")
        checked += 1
        before = version(page)
        page.click("#btn-hint")
        page.wait_for_selector("#message.hint")
        page.click("#btn-pass" if page.evaluate("window.__guandan.selected.size") == 0
                   else "#btn-play")
        page.wait_for_function(f"() => (window.__guandan.version || 0) > {before}")
    # Switched off: gone, and remembered.
    page.click("#btn-settings")
    page.click("#btn-counter")
    assert page.is_hidden("#counter")
    assert page.evaluate("localStorage.getItem('guandan.counter')") == "off"


def test_received_tribute_and_start_summary(page: Any, server: Server) -> None:
    g = server.api("POST", "/api/games", json={"seed": 10})
    s = steps_to(server, g["id"], lambda s: s["hand_number"] == 2 and not s["result"])
    page.goto(server.url + FAST)
    page.evaluate("id => localStorage.setItem('guandan.game', id)", g["id"])
    page.goto(server.url + FAST)
    page.wait_for_selector("#start-summary:not([hidden])")
    summary = page.text_content("#start-summary").replace("\xa0", " ")
    us, them = s["team_levels"]["13"], s["team_levels"]["24"]
    assert f"2번째 판 · 우리 팀 {us} · 상대 팀 {them}" in summary, summary
    assert "사이트 기본" in summary
    page.click("#btn-continue")
    s = wait_turn_or_result(page)
    gift = next(e for e in s["tribute"]["gifts"] if e["to"] == 1)
    received = page.locator("#hand .card.received")
    assert received.count() == 1 and received.get_attribute("data-card") == gift["card"]
    shot(page, "s21-received-tribute")


def test_ai_pace_is_its_own_setting(page: Any, server: Server) -> None:
    g = server.api("POST", "/api/games", json={"seed": 4})
    open_saved(page, server, g["id"], query="/")  # no ?pace=: the page's own settings
    page.click("#btn-settings")
    page.select_option("#auto-interval", "5")
    page.select_option("#ai-pace", "fast")
    page.keyboard.press("Escape")
    s = wait_turn_or_result(page)
    assert s["my_turn"]
    before = len(s["history"])
    page.click("#btn-hint")
    page.wait_for_selector("#message.hint")
    page.click("#btn-pass" if page.evaluate("window.__guandan.selected.size") == 0
               else "#btn-play")
    # Three AI seats at the fast pace (0.35 s each), whatever the 5 s auto-play interval.
    page.wait_for_function(f"() => window.__guandan.game.history.length >= {before + 4}",
                           timeout=3500)
    assert page.evaluate("localStorage.getItem('guandan.aiPace')") == "fast"
    page.click("#btn-settings")
    assert page.input_value("#ai-pace") == "fast" and page.input_value("#auto-interval") == "5"


# -- 理牌 columns, the replay, motion and sound --------------------------------------------------


@pytest.mark.parametrize("size", [(1366, 768), (360, 740)], ids=["1366x768", "360x740"])
def test_groups_are_columns_never_split(browser: Any, server: Server,
                                        size: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="ko-KR")
    page = ctx.new_page()
    try:
        g = server.api("POST", "/api/games", json={
            "seed": 5, "team_levels": {"13": "7", "24": "7"}, "level_team": "13"})
        open_saved(page, server, g["id"])
        s = wait_turn_or_result(page)
        page.click("#btn-sort")
        cols = page.locator("#hand .col")
        assert cols.count() == len(s["hand_groups"])
        for i, grp in enumerate(s["hand_groups"]):
            cards = cols.nth(i).locator(".card")
            assert [c.get_attribute("data-card") for c in cards.all()] == grp
            xs = {round(c.bounding_box()["x"]) for c in cards.all()}
            assert len(xs) == 1  # one column: the group is never split
        specials = [grp for grp in s["hand_groups"]
                    if len(grp) >= 4 and len({rank_of(c) for c in grp}) in (1, 5)]
        assert specials  # this deal holds a bomb or a straight flush, kept together
        assert page.evaluate(OUTSIDE) == []
        shot(page, f"s22-groups-{size[0]}x{size[1]}")
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["ko", "zh", "en"])
def test_every_menu_tab_shows_on_a_phone(browser: Any, server: Server, lang: str) -> None:
    """At 360 px every tab of the menu is whole, inside the menu (not scrolled away) and left
    of the language menu: the English "About Guandan" once pushed "Records" out of sight."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    page = ctx.new_page()
    try:
        page.goto(server.url + "/")
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang.startsWith('{lang}')")
        box = page.evaluate("""() => {
          const nav = document.querySelector("header nav"), r = nav.getBoundingClientRect();
          const sel = document.querySelector("#lang").getBoundingClientRect();
          return {scroll: nav.scrollWidth, client: nav.clientWidth, left: r.left,
                  right: r.right, sel: sel.left,
                  tabs: [...nav.querySelectorAll("a")].map(a => {
                    const b = a.getBoundingClientRect();
                    return [a.textContent, b.left, b.right]; })};
        }""")
        assert box["scroll"] <= box["client"], box
        assert len(box["tabs"]) == 4
        for text, left, right in box["tabs"]:
            assert text.strip(), box
            assert box["left"] - 0.5 <= left and right <= box["right"] + 0.5, (text, box)
            assert right <= box["sel"], (text, box)
        shot(page, f"menu-360-{lang}")
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["ko", "zh", "en"])
def test_seat_names_clear_of_the_log_button_on_a_phone(browser: Any, server: Server,
                                                       lang: str) -> None:
    """At 360 px the log's button sits in the table's top corner: no seat's name or count may
    sit under it, in any language (the English "This hand's plays" once covered "27 cards")."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740})
    page = ctx.new_page()
    try:
        g = server.api("POST", "/api/games", json={"seed": 5})
        open_saved(page, server, g["id"])
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang.startsWith('{lang}')")
        wait_turn_or_result(page)
        under = page.evaluate("""() => {
          const log = document.querySelector("#btn-log").getBoundingClientRect();
          const over = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
            a.top < b.bottom - 1 && b.top < a.bottom - 1;
          return [...document.querySelectorAll(".felt > .seat .seat-head > *")]
            .filter(h => over(h.getBoundingClientRect(), log))
            .map(h => `${h.closest(".seat").id}: ${h.textContent}`);
        }""")
        assert under == []
        shot(page, f"log-button-360-{lang}")
    finally:
        ctx.close()


def test_replay_forwards_and_back(page: Any, server: Server) -> None:
    g = server.api("POST", "/api/games", json={"seed": 10})
    steps_to(server, g["id"], lambda s: s["hand_number"] == 3 and not s["result"])
    data = server.api("GET", f"/api/games/{g['id']}/replay/2")
    assert sum(len(v) for v in data["hands"].values()) == 108
    open_saved(page, server, g["id"], query="/?pace=30")
    page.click("nav a[data-go=records]")
    page.click('.btn-replay[data-hand="2"]')
    page.wait_for_selector("#replay-pos")

    def counts() -> dict[int, int]:
        return {s: page.locator(f'#replay-body .seat[data-seat="{s}"] .replay-hand .card')
                .count() for s in (1, 2, 3, 4)}

    def expected(i: int) -> dict[int, int]:
        played: Counter[int] = Counter()
        for e in data["steps"][:i]:
            if e["kind"] == "play":
                played[e["seat"]] += len(e["play"]["cards"])
        return {s: len(data["hands"][str(s)]) - played[s] for s in (1, 2, 3, 4)}

    assert counts() == expected(0) and sum(counts().values()) == 108  # all four hands open
    for _ in range(5):
        page.click("#rp-next")
    assert counts() == expected(5)
    page.click("#rp-prev")
    assert counts() == expected(4)
    steps = data["steps"]
    stops = [i + 1 for i, e in enumerate(steps)
             if i + 1 == len(steps) or steps[i + 1]["trick"] != e["trick"]]
    page.click("#rp-next-trick")
    at = min(p for p in stops if p > 4)
    assert page.text_content("#replay-pos").startswith(f"{at} / {len(steps)}")
    assert counts() == expected(at)
    page.click("#rp-next-trick")
    at2 = min(p for p in stops if p > at)
    assert counts() == expected(at2)
    page.click("#rp-prev-trick")
    assert counts() == expected(at)
    page.click("#rp-last")
    assert all(n >= 0 for n in counts().values())
    assert page.locator("#replay-body li.trick").count() == data["steps"][-1]["trick"]
    page.click("#rp-first")
    assert page.is_disabled("#rp-prev") and counts() == expected(0)
    shot(page, "s23-replay")


def test_motion_and_sound(browser: Any, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ko-KR")
    page = ctx.new_page()
    try:
        g = server.api("POST", "/api/games", json={"seed": 4})
        open_saved(page, server, g["id"], query="/?pace=0.3")
        assert page.evaluate("window.__guandan.sound") is False  # off by default
        page.click("#btn-settings")
        page.click("#btn-sound")
        page.keyboard.press("Escape")
        assert page.evaluate("localStorage.getItem('guandan.sound')") == "on"
        wait_turn_or_result(page)
        page.click("#btn-hint")
        page.wait_for_selector("#message.hint")
        page.click("#btn-pass" if page.evaluate("window.__guandan.selected.size") == 0
                   else "#btn-play")
        page.wait_for_selector("#center .table-play.landing", timeout=5000)
        name = page.evaluate("getComputedStyle(document.querySelector('#center .table-play'))"
                             ".animationName")
        assert name in ("land", "pop")
    finally:
        ctx.close()
    still = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ko-KR",
                                reduced_motion="reduce")
    page = still.new_page()
    try:
        g = server.api("POST", "/api/games", json={"seed": 4})
        open_saved(page, server, g["id"])
        wait_turn_or_result(page)
        page.locator("#hand .card").last.click()  # a single: the weakest card
        page.click("#btn-play")
        page.wait_for_selector("#center .table-play", timeout=10000)
        name = page.evaluate("getComputedStyle(document.querySelector('#center .table-play'))"
                             ".animationName")
        assert name == "none"
    finally:
        still.close()
