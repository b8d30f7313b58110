"""Build the page's small font files (run by hand when the catalogs change; not at run time).

The page must show Korean and Chinese on a machine without CJK fonts and load nothing from
another host, so the package carries subsets of free fonts holding only the glyphs the page
uses:

- ``gd-ko.woff2``: the Hangul of every catalog and the page, from Nanum Gothic (SIL OFL 1.1);
- ``gd-han.woff2``: the few Han characters shown in every language (``掼蛋``, ``中文``), from
  Droid Sans Fallback (Apache 2.0);
- ``gd-zh.woff2``: the Han characters and CJK punctuation of the Chinese catalog, from the same.

The CSS declares them with ``unicode-range`` after ``local()`` fonts, so a browser downloads a
file only when it shows such characters and has no local font for them.

    python -m guandan.web.build_fonts NanumGothic.ttf DroidSansFallbackFull.ttf

(needs ``fonttools`` and ``brotli``; Debian: ``apt-get download fonts-nanum
fonts-droid-fallback`` then ``dpkg -x``).
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
    """Text shown whatever the language: the page's HTML and the script's literals."""
    static = HERE / "static"
    return "".join(p.read_text("utf-8") for p in (static / "index.html", static / "app.js"))


def main(argv: list[str]) -> int:
    from fontTools import subset  # type: ignore[import-not-found,import-untyped,unused-ignore]

    nanum, droid = argv
    OUT.mkdir(parents=True, exist_ok=True)
    ko_text = page_text("ko") + common_text()
    hangul = sorted({c for c in ko_text if is_hangul(c)})
    everywhere = page_text("en") + common_text() + page_text("ko")
    han_common = sorted({c for c in everywhere if is_han(c)})
    zh_text = page_text("zh")
    zh = sorted({c for c in zh_text if (is_han(c) or is_cjk_punct(c)) and c not in han_common})
    jobs = [(nanum, hangul, "gd-ko.woff2"), (droid, han_common, "gd-han.woff2"),
            (droid, zh, "gd-zh.woff2")]
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
    # style.css: the Chinese face's unicode-range leaves these out (the gd-han face has them).
    print("shared Han characters:", " ".join(f"U+{ord(c):04X}" for c in han_common))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
