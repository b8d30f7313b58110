"""Where the web games live: a database, behind one interface (``GameStore``).

- ``game``: one game (``Game``) and its save (``decode`` checks every field);
- ``base``: the interface and the SQL both databases share (transactions, versions, limits);
- ``sqlite``: the embedded default, one file in the data folder;
- ``postgres``: PostgreSQL, shared by several server processes;
- ``files``: the earlier file store's saves, imported on the first start.

``open_store(database, data_dir)`` picks the database from its URL.
"""

from __future__ import annotations

from pathlib import Path

from guandan.web.store.base import (
    Changed,
    GameStore,
    Limits,
    SaveFailed,
    TooManyGames,
    client_key,
)
from guandan.web.store.game import (
    DEFAULT_LEVEL,
    DIFFICULTY_KEYS,
    ID_PATTERN,
    SAVE_FORMAT,
    CorruptSave,
    Game,
    GameNotFound,
    decode,
    difficulty_player,
    id_hash,
    new_id,
    usable,
)


def open_store(database: str | None, data_dir: Path, ai: str | None = None,
               limits: Limits | None = None) -> GameStore:
    """The store at ``database``: ``None`` (or ``sqlite:///PATH``) the SQLite file in
    ``data_dir``; ``postgresql://…`` a PostgreSQL database (saves of the file store in
    ``data_dir`` are imported into either on the first start)."""
    if database is None or database.startswith("sqlite:"):
        from guandan.web.store.sqlite import SqliteStore

        path = None
        if database is not None and database.removeprefix("sqlite://").lstrip("/"):
            path = Path("/" + database.removeprefix("sqlite://").lstrip("/"))
        return SqliteStore(data_dir, ai=ai, limits=limits, path=path)
    if database.startswith(("postgresql://", "postgres://")):
        from guandan.web.store.postgres import PostgresStore

        return PostgresStore(database, data_dir, ai=ai, limits=limits)
    raise ValueError("--database: a postgresql://… URL (or sqlite:///PATH), not "
                     f"{database.split(':', 1)[0]!r}")


__all__ = [
    "DEFAULT_LEVEL", "DIFFICULTY_KEYS", "ID_PATTERN", "SAVE_FORMAT", "Changed", "CorruptSave",
    "Game", "GameNotFound", "GameStore", "Limits", "SaveFailed", "TooManyGames", "client_key",
    "decode", "difficulty_player", "id_hash", "new_id", "open_store", "usable",
]
