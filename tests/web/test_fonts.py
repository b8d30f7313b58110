"""The page's packaged fonts (static/fonts/*.woff2, made by guandan/web/build_fonts.py) against
the texts the page can show: every character that falls in a font's ``unicode-range`` in
style.css must be in that font's character map, since the browser takes that character from
that font only (on a machine without the ``local()`` CJK fonts); a character the file lacks
falls back to another font or shows as a box.

The unicode-range of gd-zh.woff2 is the whole CJK block on purpose (any Han character goes
there), so it says nothing about the glyphs the file holds: these tests read the files."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont

from guandan.web import build_fonts

WEB = Path(__file__).resolve().parents[2] / "guandan" / "web"
FACE = re.compile(r'url\("/static/fonts/([\w.-]+\.woff2)"\) format\("woff2"\);\s*'
                  r"unicode-range:\s*([^;]+);")


@dataclass(frozen=True)
class Face:
    file: str
    declared: frozenset[int]  # the CSS unicode-range
    glyphs: frozenset[int]  # the file's character map


@functools.cache
def faces() -> tuple[Face, ...]:
    css = (WEB / "static" / "style.css").read_text("utf-8")
    out = []
    for file, ranges in FACE.findall(css):
        declared: set[int] = set()
        for a, b in re.findall(r"U\+([0-9A-F]+)(?:-([0-9A-F]+))?", ranges):
            declared |= set(range(int(a, 16), int(b or a, 16) + 1))
        cmap = TTFont(WEB / "static" / "fonts" / file).getBestCmap()
        out.append(Face(file, frozenset(declared), frozenset(cmap)))
    return tuple(out)


def cjk(ch: str) -> bool:
    return build_fonts.is_hangul(ch) or build_fonts.is_han(ch) or build_fonts.is_cjk_punct(ch)


def strings(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, list):
        return [s for x in obj for s in strings(x)]
    if isinstance(obj, dict):
        return [s for x in obj.values() for s in strings(x)]
    return []


def texts(source: str) -> dict[str, str]:
    """What the page can show, by where it comes from: each catalog key's strings; the page's
    HTML and scripts and the engine's and AI's texts as build_fonts.py reads them."""
    if source == "page":
        return {"index.html and the scripts": build_fonts.common_text()}
    if source == "engine":
        return {"the engine's and AI's texts": build_fonts.engine_text()}
    cat = json.loads((WEB / "catalogs" / f"{source}.json").read_text("utf-8"))
    return {f"{source}.json {key}": "".join(strings(v)) for key, v in cat.items()}


def test_the_fonts_are_found_with_their_ranges() -> None:
    files = {f.file for f in faces()}
    assert files == {"gd-ko.woff2", "gd-ko-ext.woff2", "gd-zh.woff2", "gd-han.woff2"}
    assert all(f.glyphs for f in faces())
    for i, a in enumerate(faces()):  # disjoint ranges: one font for each character
        for b in faces()[i + 1:]:
            assert not a.declared & b.declared, (a.file, b.file)


@pytest.mark.parametrize("source", ["ko", "zh", "en", "page", "engine"])
def test_every_character_shown_is_in_the_font_the_page_takes_it_from(source: str) -> None:
    missing: dict[str, set[str]] = {}
    for where, text in texts(source).items():
        for ch in set(text):
            face = next((f for f in faces() if ord(ch) in f.declared), None)
            if face is None:
                if cjk(ch):  # a Hangul or Han character no packaged font is meant for
                    missing.setdefault(where, set()).add(f"{ch} (no font)")
            elif ord(ch) not in face.glyphs:
                missing.setdefault(where, set()).add(f"{ch} (not in {face.file})")
    assert not missing, {k: sorted(v) for k, v in sorted(missing.items())}


def test_catalog_hangul_is_in_the_first_font() -> None:
    """The catalogs' Hangul is in gd-ko.woff2, so a Korean page loads only that file (the
    other common syllables, gd-ko-ext.woff2, only when the AI's words need one)."""
    core = next(f for f in faces() if f.file == "gd-ko.woff2")
    for lang in ("ko", "zh", "en"):
        text = "".join(texts(lang).values())
        outside = {c for c in text if build_fonts.is_hangul(c) and ord(c) not in core.glyphs}
        assert not outside, (lang, "".join(sorted(outside)))


# -- in the browser ------------------------------------------------------------------------------

# Draw each character on a canvas in the page's own font list; the characters drawn exactly as
# ``probe`` (a character no font here holds: its box) are boxes. Also says whether the probe
# left a mark at all and whether a character the fonts hold is drawn otherwise.
BOXES = """async ([chars, probe, held]) => {
  const font = "32px " + getComputedStyle(document.documentElement).fontFamily;
  await document.fonts.load(font, chars.join("") + probe + held);
  await document.fonts.ready;
  const c = document.createElement("canvas");
  c.width = c.height = 40;
  const g = c.getContext("2d", { willReadFrequently: true });
  const draw = (ch) => {
    g.clearRect(0, 0, 40, 40);
    g.font = font;
    g.textBaseline = "top";
    g.fillText(ch, 4, 4);
    return g.getImageData(0, 0, 40, 40).data;
  };
  const same = (a, b) => a.every((v, i) => v === b[i]);
  const box = draw(probe);
  return {
    boxes: chars.filter((ch) => same(draw(ch), box)),
    probe_drawn: box.some((v) => v !== 0),
    held_differs: !same(draw(held), box),
  };
}"""


def probe(lang: str) -> str:
    """A character of the language's script that the page's fonts do not hold: for Chinese
    one in gd-zh.woff2's range but not in the file, for Korean one in no font's range."""
    fs = faces()
    if lang == "zh":
        zh = next(f for f in fs if f.file == "gd-zh.woff2")
        return chr(next(o for o in range(0x4E00, 0xA000) if o in zh.declared - zh.glyphs))
    declared = frozenset().union(*(f.declared for f in fs))
    return chr(next(o for o in range(0xAC00, 0xD7A4) if o not in declared))


@pytest.mark.parametrize(("lang", "held"), [("ko", "관"), ("zh", "掼")])
def test_chromium_draws_every_catalog_character_not_a_box(page: Any, server: Any, lang: str,
                                                          held: str) -> None:
    """Chromium (with no CJK font of its own, as on a fresh machine) draws every Hangul and Han
    character of the catalog the page gets, in the page's fonts: none comes out as the box a
    missing glyph leaves."""
    cat = server.api("GET", f"/api/catalogs/{lang}")
    chars = sorted({c for s in strings(cat) for c in s if cjk(c)})
    page.goto(server.url + "/")
    page.wait_for_selector(":root.fonts-ready")
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    found = page.evaluate(BOXES, [chars, probe(lang), held])
    assert found["probe_drawn"] and found["held_differs"], found
    assert found["boxes"] == [], "".join(found["boxes"])
