"""On a phone (360×740), in Korean, Chinese and English: the result's buttons and the menu's
tabs are in sight and nothing covers them. Each element is checked where a finger would touch
it (its centre and a point inside each edge): the element found there, on top of every
other (``elementFromPoint``, which goes by the boxes' order on the screen), must be itself.

Screenshots go to ``test-artifacts/web/phone-*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
PHONE = {"width": 360, "height": 740}
Server = Any

#: For each element of ``selector``, what covers it or keeps it out of sight: nothing when it
#: is whole inside the screen and on top at its centre and inside each edge (not in
#: its corners, which a rounded box leaves to what is behind).
COVERED = """(selector) => {
  const vw = innerWidth, vh = innerHeight, out = [];
  const name = (e) => e ? (e.id ? "#" + e.id : e.tagName.toLowerCase() +
      (e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : "") +
      " " + JSON.stringify((e.textContent || "").trim().slice(0, 20))) : "nothing";
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest("[hidden]")) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
      out.push(`${name(el)} is not inside the screen: ` +
        [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
      continue;
    }
    const d = 3, cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    const points = [[cx, cy], [cx, r.top + d], [cx, r.bottom - d], [r.left + d, cy],
      [r.right - d, cy]];
    for (const [x, y] of points) {
      const top = document.elementFromPoint(x, y);
      if (top !== el && !el.contains(top)) {
        out.push(`${name(el)} is covered at ${Math.round(x)},${Math.round(y)} by ${name(top)}`);
        break;
      }
    }
  }
  return out;
}"""

#: A menu tab cut short (its word clipped) or scrolled out of the menu.
CLIPPED = """() => {
  const nav = document.querySelector("header.top nav"), out = [];
  if (nav.scrollWidth > nav.clientWidth + 1)
    out.push(`the menu scrolls: ${nav.scrollWidth} > ${nav.clientWidth}`);
  for (const a of nav.querySelectorAll("a"))
    if (a.scrollWidth > a.clientWidth + 1) out.push(`${a.textContent} is cut short`);
  return out;
}"""


def final_result_pending(server: Server, seed: int) -> str:
    """A game whose match was just won, its result not yet seen: the tallest result (the
    final victory's banner above the hand's), with cards left in two hands (seed 9)."""
    g = server.api("POST", "/api/games", json={"seed": seed, "level_team": "13",
                                               "team_levels": {"13": "A", "24": "A"}})
    s = g
    for _ in range(5000):
        if s["result"] and s["final_winner"]:
            return str(g["id"])
        if s["result"]:
            s = server.api("POST", f"/api/games/{g['id']}/next")
        else:
            s = server.api("POST", f"/api/games/{g['id']}/step", json={"auto": True})["state"]
    raise AssertionError("the match never ended")


@pytest.mark.parametrize("lang", ["ko", "zh", "en"])
def test_result_and_menu_on_a_phone_are_not_covered(browser: Any, server: Server,
                                                    lang: str) -> None:
    gid = final_result_pending(server, seed=9)
    ctx = browser.new_context(viewport=PHONE, locale="ko-KR", is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        page.goto(server.url + "/?pace=0.02")
        page.evaluate("([id, lang]) => { localStorage.setItem('guandan.game', id);"
                      " localStorage.setItem('guandan.lang', lang); }", [gid, lang])
        page.goto(server.url + "/?pace=0.02")
        page.click("#btn-continue")
        page.wait_for_selector("#result:not([hidden])")
        page.wait_for_timeout(300)  # the fonts and the dialog in place
        page.screenshot(path=str(ARTIFACTS / f"phone-result-{lang}.png"))
        buttons = "#result .dialog-buttons > *, #result h2"
        assert page.evaluate(COVERED, buttons) == [], lang
        assert page.locator("#result .dialog-buttons > *").count() == 3
        # Folded to a bar (판 보기): the hand that ended behind it, the buttons still in sight.
        page.click("#btn-result-view")
        page.screenshot(path=str(ARTIFACTS / f"phone-result-folded-{lang}.png"))
        assert page.evaluate(COVERED, buttons) == [], lang
        page.click("#btn-again")  # on to the next hand: the result closes
        page.wait_for_selector("#result", state="hidden")
        # The menu, on a page of its own and on the game.
        for view in ("rules", "game"):
            page.click(f"header.top nav a[data-go={view}]")
            page.wait_for_timeout(200)
            page.screenshot(path=str(ARTIFACTS / f"phone-menu-{view}-{lang}.png"),
                            clip={"x": 0, "y": 0, "width": PHONE["width"], "height": 60})
            assert page.evaluate(COVERED, "header.top .brand, header.top nav a, #lang") == [], \
                (lang, view)
            assert page.evaluate(CLIPPED) == [], (lang, view)
        # A phone's own font may be wider than this machine's (DejaVu Sans): the last tab
        # then gives up letters, never slides under the language menu.
        page.add_style_tag(content="header.top nav a { font-size: 17px; }")
        page.wait_for_timeout(100)
        page.screenshot(path=str(ARTIFACTS / f"phone-menu-wide-font-{lang}.png"),
                        clip={"x": 0, "y": 0, "width": PHONE["width"], "height": 60})
        assert page.evaluate(COVERED, "header.top .brand, header.top nav a, #lang") == [], lang
    finally:
        ctx.close()
    assert not errors, errors
