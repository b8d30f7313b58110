"""Build the page's small font files (run by hand when the catalogs change; not at run time).

The page must show Korean and Chinese on a machine without CJK fonts and load nothing from
another host, so the package carries subsets of free fonts holding only the glyphs the page
uses:

- ``gd-ko.woff2``: the Hangul of every catalog, the page and the engine's and AI's Korean
  texts (reasons, explanations), from Nanum Gothic (SIL OFL 1.1);
- ``gd-ko-ext.woff2``: the rest of the 2,350 common Hangul syllables (KS X 1001), loaded only
  if a text shows one of them;
- ``gd-han.woff2``: the few Han characters shown in every language (``掼蛋``, ``中文``), from
  Droid Sans Fallback (Apache 2.0);
- ``gd-zh.woff2``: the Han characters and CJK punctuation of the Chinese catalog and the
  engine's texts, from the same.

The CSS declares them with ``unicode-range`` after ``local()`` fonts, so a browser downloads a
file only when it shows such characters and has no local font for them.

    python -m guandan.web.build_fonts NanumGothic.ttf DroidSansFallbackFull.ttf

(needs ``fonttools`` and ``brotli``, both in the test extra; Debian: ``apt-get download
fonts-nanum fonts-droid-fallback`` then ``dpkg -x``). tests/web/test_fonts.py reads the files'
character maps: a text that needs a glyph they lack fails there until this is run again (or
the text is written in glyphs they hold).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
OUT = HERE / "static" / "fonts"


def _strings(obj: object) -> str:
    if isinstance(obj, str):
        return obj
    if isinstance(obj, list):
        return "".join(_strings(x) for x in obj)
    if isinstance(obj, dict):
        return "".join(_strings(x) for x in obj.values())
    return ""


def is_hangul(ch: str) -> bool:
    o = ord(ch)
    return 0xAC00 <= o <= 0xD7A3 or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F


def is_han(ch: str) -> bool:
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF


def is_cjk_punct(ch: str) -> bool:
    o = ord(ch)
    return 0x3000 <= o <= 0x303F or 0xFF00 <= o <= 0xFFEF


def page_text(lang: str) -> str:
    text = _strings(json.loads((HERE / "catalogs" / f"{lang}.json").read_text("utf-8")))
    return text


def common_text() -> str:
    """Text shown whatever the language: the page's HTML and the scripts' literals."""
    static = HERE / "static"
    pages = [static / "index.html", *sorted(static.glob("*.js"))]
    return "".join(p.read_text("utf-8") for p in pages)


def engine_text() -> str:
    """Text the server sends as is: the AI's reasons, the engine's explanations."""
    return "".join(p.read_text("utf-8") for p in sorted(HERE.parent.rglob("*.py"))
                   if HERE not in p.parents)


def ks_hangul() -> list[str]:
    """The 2,350 Hangul syllables of KS X 1001 (the common ones), from the EUC-KR codec."""
    out = []
    for hi in range(0xB0, 0xC9):
        for lo in range(0xA1, 0xFF):
            try:
                c = bytes([hi, lo]).decode("euc_kr")
            except UnicodeDecodeError:
                continue
            if is_hangul(c):
                out.append(c)
    return out


def ranges(chars: list[str]) -> str:
    """A CSS unicode-range for exactly these characters."""
    points = sorted({ord(c) for c in chars})
    parts: list[str] = []
    i = 0
    while i < len(points):
        j = i
        while j + 1 < len(points) and points[j + 1] == points[j] + 1:
            j += 1
        lo, hi = points[i], points[j]
        parts.append(f"U+{lo:04X}" if lo == hi else f"U+{lo:04X}-{hi:04X}")
        i = j + 1
    return ", ".join(parts)


def face(src_local: str, file: str, unicode_range: str) -> str:
    return (f'@font-face {{\n  font-family: "GD Sans"; font-display: swap;\n'
            f'  src: {src_local}, url("/static/fonts/{file}") format("woff2");\n'
            f"  unicode-range: {unicode_range};\n}}\n")


KO_LOCAL = 'local("Noto Sans CJK KR"), local("Apple SD Gothic Neo"), local("Malgun Gothic")'
ZH_LOCAL = 'local("Noto Sans CJK SC"), local("PingFang SC"), local("Microsoft YaHei")'


def main(argv: list[str]) -> int:
    from fontTools import subset  # type: ignore[import-not-found,import-untyped,unused-ignore]

    nanum, droid = argv
    OUT.mkdir(parents=True, exist_ok=True)
    shown = page_text("ko") + page_text("en") + page_text("zh") + common_text() + engine_text()
    ko_core = sorted({c for c in shown if is_hangul(c)})
    ko_ext = sorted(set(ks_hangul()) - set(ko_core))
    everywhere = page_text("en") + common_text() + page_text("ko")
    han_common = sorted({c for c in everywhere if is_han(c)})
    zh_text = page_text("zh") + engine_text()
    zh = sorted({c for c in zh_text if (is_han(c) or is_cjk_punct(c)) and c not in han_common})
    jobs = [(nanum, ko_core, "gd-ko.woff2"), (nanum, ko_ext, "gd-ko-ext.woff2"),
            (droid, han_common, "gd-han.woff2"), (droid, zh, "gd-zh.woff2")]
    for src, chars, name in jobs:
        options = subset.Options()
        options.flavor = "woff2"
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        font = subset.load_font(src, options)
        sub = subset.Subsetter(options)
        sub.populate(text="".join(chars))
        sub.subset(font)
        subset.save_font(font, str(OUT / name), options)
        print(name, len(chars), "glyphs", (OUT / name).stat().st_size, "bytes")
    # The CSS block: faces with disjoint ranges (a browser loads every face whose range holds
    # a character it shows), so the first load fetches only the small faces.
    han_points = {ord(c) for c in han_common}
    zh_range = "U+3000-303F, U+FF00-FFEF, U+3400-4DBF, " + ranges(
        [chr(o) for o in range(0x4E00, 0xA000) if o not in han_points])
    css = (BEGIN + "\n"
           + face(KO_LOCAL, "gd-ko-ext.woff2", ranges(ko_ext))
           + face(KO_LOCAL, "gd-ko.woff2", ranges(ko_core))
           + face(ZH_LOCAL, "gd-zh.woff2", zh_range)
           + face(ZH_LOCAL, "gd-han.woff2", ranges(han_common))
           + END)
    style = HERE / "static" / "style.css"
    text = style.read_text("utf-8")
    a, b = text.index(BEGIN), text.index(END) + len(END)
    style.write_text(text[:a] + css + text[b:], "utf-8")
    print("style.css: font faces written")
    return 0


BEGIN = "/* fonts:begin (written by guandan/web/build_fonts.py) */"
END = "/* fonts:end */"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
