"""The saves of the earlier file store (``<data_dir>/games/<key>.json``), read for import."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

KEY_FILE = re.compile(r"^[0-9a-f]{40}\.json$")


def read_file_saves(folder: Path) -> list[tuple[str, bytes, float]]:
    """Each save in ``folder`` as ``(key, bytes, modified)``, read as it is (a damaged one
    too); the file store's left-over temp files (``.tmp-*``) are deleted."""
    out: list[tuple[str, bytes, float]] = []
    for p in sorted(folder.iterdir()):
        if p.name.startswith(".tmp-"):
            with contextlib.suppress(OSError):
                p.unlink()
            continue
        if not KEY_FILE.match(p.name) or not p.is_file():
            continue
        with contextlib.suppress(OSError):
            out.append((p.stem, p.read_bytes(), p.stat().st_mtime))
    return out
