"""The game store: a change is committed before the answer (a failed save changes nothing),
damaged saves, limits and clean-up, one copy of a game, the file store's saves imported."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from guandan.web.server import create_app
from guandan.web.store import Limits, id_hash
from guandan.web.store.base import Tx
from guandan.web.store.sqlite import FILE_NAME

Json = dict[str, Any]


def app_client(data_dir: Path, **kw: Any) -> TestClient:
    return TestClient(create_app(data_dir, ai="greedy", allow_seed=True, **kw))


def new_game(client: TestClient, seed: int = 5) -> Json:
    r = client.post("/api/games", json={"seed": seed})
    assert r.status_code == 201, r.text
    state: Json = r.json()
    return state


def put_raw(client: TestClient, gid: str, data: bytes) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.transaction(write=True) as tx:
        tx.execute("UPDATE games SET data = ?, version = version + 1 WHERE key = ?",
             (data, id_hash(gid)))


def raw(client: TestClient, gid: str) -> Json:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.transaction(write=False) as tx:
        row = tx.row(id_hash(gid))
    assert row is not None
    out: Json = json.loads(row[1])
    return out


def first_play(state: Json) -> Json:
    return {"cards": [state["hand"][-1]]}


# -- 2. a change is durable before it is answered ---------------------------------------------


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every later write of a game fails as SQLite fails on a full disk."""
    def update(self: Tx, *a: Any) -> bool:
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(Tx, "update", update)


def test_a_failed_save_answers_503_and_the_game_is_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = app_client(tmp_path)
    g = new_game(c)
    gid = g["id"]
    with monkeypatch.context() as m:
        full_disk(m)
        for _ in range(3):
            r = c.post(f"/api/games/{gid}/play", json=first_play(g))
            assert r.status_code == 503 and r.json()["error"]["code"] == "save_failed", r.text
            assert "/" not in r.json()["error"]["message"]  # no path of the server
        # In memory too: the state served is the game as committed.
        assert c.get(f"/api/games/{gid}").json() == g
    # The disk has room again: the same play goes through, once.
    r = c.post(f"/api/games/{gid}/play", json=first_play(g))
    assert r.status_code == 200
    assert len(raw(c, gid)["match"]["actions"]) == 1 and r.json()["version"] == 1
    # A new server on the same folder has exactly what was answered.
    assert app_client(tmp_path).get(f"/api/games/{gid}").json() == r.json()


def test_a_full_disk_for_real(tmp_path: Path) -> None:
    """SQLite's own limit on the file's size (``max_page_count``) as a disk that fills up:
    the request that cannot be saved answers 503 and changes nothing."""
    c = app_client(tmp_path)
    g = new_game(c)
    gid = g["id"]
    store = c.app.state.store  # type: ignore[attr-defined]
    store.close()  # every connection from now on: no page more than the file has
    connect = store._connect

    def small() -> sqlite3.Connection:
        conn = connect()
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn
    store._connect = small
    states = [g]
    failed = 0
    for _ in range(400):  # the AI plays on until the file cannot grow any more
        r = c.post(f"/api/games/{gid}/step", json={"auto": True})
        if r.status_code == 503:
            assert r.json()["error"]["code"] == "save_failed"
            failed += 1
            break
        assert r.status_code == 200, r.text
        states.append(r.json()["state"])
        if states[-1]["result"]:
            r = c.post(f"/api/games/{gid}/next")
            assert r.status_code in (200, 503)
            if r.status_code == 503:
                failed += 1
                break
            states.append(r.json())
    assert failed, "the file never filled up"
    assert c.get(f"/api/games/{gid}").json() == states[-1]


def test_an_engine_error_after_the_change_leaves_no_trace(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever fails after the match moved (here: making the answer), the move is not
    committed and this process's copy is dropped."""
    c = TestClient(create_app(tmp_path, ai="greedy", allow_seed=True),
                   raise_server_exceptions=False)
    g = new_game(c)
    import guandan.web.shown as shown

    def broken(game: Any, seat: int) -> Any:
        raise RuntimeError("/secret/path/of/the/server")
    with monkeypatch.context() as m:
        m.setattr(shown, "game_state", broken)
        r = c.post(f"/api/games/{g['id']}/play", json=first_play(g))
    assert r.status_code == 500 and r.json()["error"]["code"] == "internal_error"
    assert "secret" not in r.text
    assert c.get(f"/api/games/{g['id']}").json() == g


# -- 5. damaged saves ----------------------------------------------------------------------------

ENDPOINTS = [("GET", ""), ("POST", "/play"), ("POST", "/pass"), ("POST", "/return"),
             ("POST", "/readings"), ("POST", "/hint"), ("POST", "/step"), ("POST", "/next"),
             ("GET", "/records"), ("GET", "/export"), ("GET", "/replay/1"), ("GET", "/outside"),
             ("POST", "/outside/2/ai")]
BODIES = {"/play": {"cards": ["S3"]}, "/return": {"card": "S3"}, "/readings": {"cards": ["S3"]},
          "/step": {}}


def damages(save: Json) -> list[tuple[str, bytes]]:
    def edited(**changes: Any) -> bytes:
        return json.dumps({**save, **changes}).encode()
    return [
        ("random bytes", os.urandom(300)),
        ("not utf-8", b"\xff\xfe{\"format\": 1}"),
        ("empty", b""),
        ("a list", b"[1, 2]"),
        ("seen_results -1", edited(seen_results=-1)),
        ("seen_results too many", edited(seen_results=5)),
        ("seen_results not a number", edited(seen_results="0")),
        ("unknown preset", edited(preset="chengdu")),
        ("another preset than the match's", edited(preset="nanjing")),
        ("match_number 0", edited(match_number=0)),
        ("unknown difficulty", edited(difficulty="expert")),
        ("created not a time", edited(created=None)),
        ("match missing", edited(match=None)),
        ("deep nesting", b"[" * 100_000 + b"]" * 100_000),
        ("a duplicate key", json.dumps(save)[:-1].encode() + b', "preset": "site"}'),
        ("cut short", json.dumps(save).encode()[:200]),
        ("match_number not the match's", edited(match_number=2)),
        ("created before 1970", edited(created=-1)),
        ("an outside note of no seat", edited(outside=[2], outside_notes={"1": {"outside": 5}})),
        ("a replaced seat without a reason",
         edited(outside=[2], outside_notes={"1": {"replaced": [{"seat": 2, "turn": 0}]}})),
        ("an outside note of hand 0", edited(outside=[2], outside_notes={"0": {}})),
    ]


def row_damages(database: str | None) -> list[tuple[str, str]]:
    """Damage done to a game's row in the database itself, as a hand edit does it: SQLite keeps
    whatever is written in a column (text where the store writes a BLOB, text or a fraction
    for the version)."""
    if database is None:
        return [
            ("json_set seen_results -1",
             "UPDATE games SET data = json_set(data, '$.seen_results', -1) WHERE key = ?"),
            ("json_set an unknown preset",
             "UPDATE games SET data = json_set(data, '$.preset', 'chengdu') WHERE key = ?"),
            ("the text cut short",
             "UPDATE games SET data = substr(CAST(data AS TEXT), 1, 120) WHERE key = ?"),
            ("text that is not UTF-8", "UPDATE games SET data = CAST(x'ff7b22' AS TEXT) "
                                       "WHERE key = ?"),
            ("a number for the save", "UPDATE games SET data = 5 WHERE key = ?"),
            ("a version of text", "UPDATE games SET version = 'x' WHERE key = ?"),
            ("a version with a fraction", "UPDATE games SET version = 1.5 WHERE key = ?"),
            ("a negative version", "UPDATE games SET version = -1 WHERE key = ?"),
        ]
    return [
        ("cut short", "UPDATE games SET data = substring(data from 1 for 120) WHERE key = ?"),
        ("seen_results -1", "UPDATE games SET data = convert_to(jsonb_set(convert_from(data, "
                            "'UTF8')::jsonb, '{seen_results}', '-1')::text, 'UTF8') "
                            "WHERE key = ?"),
        ("a negative version", "UPDATE games SET version = -1 WHERE key = ?"),
    ]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> str | None:
    """The store's database: SQLite (the default), then a throwaway PostgreSQL."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("postgres")
    return url


def test_every_damaged_save_answers_corrupt_save_and_can_be_deleted(
        tmp_path: Path, database: str | None) -> None:
    c = TestClient(create_app(tmp_path, ai="greedy", allow_seed=True, database=database),
                   raise_server_exceptions=False)
    ok = new_game(c, seed=1)
    save = raw(c, ok["id"])
    store = c.app.state.store  # type: ignore[attr-defined]
    for name, damage in [*damages(save), *row_damages(database)]:
        g = new_game(c)
        if isinstance(damage, bytes):
            if damage.startswith(b"{"):  # a damage of one field: of this game's save
                damage = damage.replace(save["id_hash"].encode(), id_hash(g["id"]).encode())
            put_raw(c, g["id"], damage)
        else:
            with store.transaction(write=True) as tx:
                tx.execute(damage, (id_hash(g["id"]),))
            store.forget(id_hash(g["id"]))  # as another process, or this one restarted
        for method, path in ENDPOINTS:
            r = c.request(method, f"/api/games/{g['id']}{path}", json=BODIES.get(path))
            assert r.status_code == 409, (name, path, r.status_code, r.text)
            err = r.json()["error"]
            assert err["code"] == "corrupt_save", (name, path, err)
            assert str(tmp_path) not in err["message"] and FILE_NAME not in err["message"]
        assert c.delete(f"/api/games/{g['id']}").status_code == 204, name
        assert c.get(f"/api/games/{g['id']}").json()["error"]["code"] == "game_not_found"
    assert c.get(f"/api/games/{ok['id']}").status_code == 200  # the others go on


# -- 6. limits -----------------------------------------------------------------------------------


def test_games_per_client_and_in_all_are_limited(tmp_path: Path) -> None:
    c = app_client(tmp_path, limits=Limits(max_games=5, max_games_per_client=3))
    games = [new_game(c) for _ in range(3)]
    r = c.post("/api/games", json={})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_games"
    assert c.delete(f"/api/games/{games[0]['id']}").status_code == 204
    new_game(c)  # one deleted, one more may be made
    other = TestClient(c.app, client=("10.0.0.9", 5000))
    new_game(other)
    new_game(other)
    r = other.post("/api/games", json={})
    assert r.status_code == 503 and r.json()["error"]["code"] == "server_full"
    assert c.app.state.store.count() == 5  # type: ignore[attr-defined]


def test_old_finished_and_idle_games_are_cleaned_up(tmp_path: Path) -> None:
    limits = Limits(max_games=3, max_games_per_client=10, finished_ttl=3600, idle_ttl=86400)
    c = app_client(tmp_path, limits=limits)
    store = c.app.state.store  # type: ignore[attr-defined]
    playing, finished, idle = new_game(c), new_game(c), new_game(c)
    now = time.time()
    with store.transaction(write=True) as tx:
        tx.execute("UPDATE games SET finished = 1, updated = ? WHERE key = ?",
             (now - 7200, id_hash(finished["id"])))
        touch = "UPDATE games SET updated = ? WHERE key = ?"
        tx.execute(touch, (now - 2 * 86400, id_hash(idle["id"])))
        tx.execute(touch, (now - 1800, id_hash(playing["id"])))
    fresh = new_game(c)  # at the limit: the old ones go
    assert store.count() == 2
    for g, status in ((playing, 200), (fresh, 200), (finished, 404), (idle, 404)):
        assert c.get(f"/api/games/{g['id']}").status_code == status


def test_a_finished_match_is_marked_finished(tmp_path: Path) -> None:
    c = app_client(tmp_path)
    g = c.post("/api/games", json={"seed": 1, "team_levels": {"13": "A", "24": "A"},
                                   "level_team": "13"}).json()
    state = g
    for _ in range(400):
        if state["final_winner"]:
            break
        r = c.post(f"/api/games/{g['id']}/step", json={"auto": True})
        assert r.status_code == 200, r.text
        state = r.json()["state"]
    assert state["final_winner"]
    store = c.app.state.store  # type: ignore[attr-defined]
    with store.transaction(write=False) as tx:
        assert tx.execute("SELECT finished FROM games WHERE key = ?",
                    (id_hash(g["id"]),)).fetchone()[0] == 1


# -- 7. one copy of a game -----------------------------------------------------------------------


def test_one_copy_of_a_game_across_eviction_and_processes(tmp_path: Path) -> None:
    """Two servers on one database (as two processes would be) and a cache of one game:
    each answer is the game as last committed, whichever server made the change."""
    a = app_client(tmp_path)
    b = app_client(tmp_path)
    a.app.state.store.keep = 1  # type: ignore[attr-defined]
    games = [new_game(a, seed=s) for s in (2, 3)]
    last: dict[str, Json] = {g["id"]: g for g in games}
    for i in range(30):
        server = (a, b)[i % 2]
        gid = games[i % 3 % 2]["id"]
        seen = server.get(f"/api/games/{gid}").json()
        assert seen == last[gid], i  # never an older copy
        r = server.post(f"/api/games/{gid}/step", json={"auto": True})
        assert r.status_code == 200, r.text
        last[gid] = r.json()["state"]
        assert last[gid]["version"] == seen["version"] + 1
    # A step decided on an old version is refused, not applied twice.
    gid = games[0]["id"]
    v = last[gid]["version"]
    assert a.post(f"/api/games/{gid}/step", json={"auto": True},
                  headers={"If-Match": str(v)}).status_code == 200
    r = b.post(f"/api/games/{gid}/step", json={"auto": True}, headers={"If-Match": str(v)})
    assert r.status_code == 409 and r.json()["error"]["code"] == "changed"


# -- the file store's saves ----------------------------------------------------------------------


def test_saves_of_the_file_store_are_imported_on_the_first_start(tmp_path: Path) -> None:
    c = app_client(tmp_path / "source")
    g = new_game(c)
    r = c.post(f"/api/games/{g['id']}/play", json=first_play(g))
    state = r.json()
    data = json.dumps(raw(c, g["id"])).encode()
    folder = tmp_path / "old" / "games"
    folder.mkdir(parents=True)
    (folder / f"{id_hash(g['id'])}.json").write_bytes(data)
    bad_id = "A" * 32
    (folder / f"{id_hash(bad_id)}.json").write_bytes(os.urandom(64))  # damaged on disk
    (folder / ".tmp-abc.json").write_text("half a save")  # left by a crash mid-write
    new = app_client(tmp_path / "old")
    assert new.get(f"/api/games/{g['id']}").json() == {**state, "version": 0}
    assert new.get(f"/api/games/{bad_id}").json()["error"]["code"] == "corrupt_save"
    assert new.delete(f"/api/games/{bad_id}").status_code == 204
    assert not folder.exists() and (tmp_path / "old" / "games.imported").is_dir()
    assert not list((tmp_path / "old" / "games.imported").glob(".tmp-*"))
    # Once: a second start imports nothing again (the deleted game stays deleted).
    again = app_client(tmp_path / "old")
    assert again.get(f"/api/games/{bad_id}").status_code == 404
    assert again.post(f"/api/games/{g['id']}/step", json={}).status_code == 200


def test_the_database_is_sqlite_in_wal_mode_with_durable_commits(tmp_path: Path) -> None:
    c = app_client(tmp_path)
    new_game(c)
    store = c.app.state.store  # type: ignore[attr-defined]
    with store._connection() as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: fsync per commit
    assert (tmp_path / FILE_NAME).exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".tmp")] == []


def test_a_write_whose_caller_has_gone_is_dropped_and_the_writer_goes_on(tmp_path: Path) -> None:
    """A write queued for the writer thread whose future was cancelled (its awaiting task
    cancelled: a closed socket) is not committed, and the writes after it still are: the
    writer thread once died setting a cancelled future's result, and every later write hung."""
    import threading

    from guandan.web.store.sqlite import SqliteStore

    store = SqliteStore(tmp_path)
    try:
        busy, release = threading.Event(), threading.Event()
        ran: list[str] = []

        def first(tx: Tx) -> bool:
            busy.set()
            assert release.wait(10)
            ran.append("first")
            return True

        def dropped(tx: Tx) -> bool:
            ran.append("dropped")
            return True

        def last(tx: Tx) -> bool:
            ran.append("last")
            return True

        one = store.queue(first)
        assert busy.wait(10)  # the writer is inside the first round
        gone = store.queue(dropped)
        assert gone.cancel()  # its caller has gone before the writer took it
        after = store.queue(last)
        release.set()
        assert one.result(10) is True
        assert after.result(10) is True
        assert ran == ["first", "last"]
    finally:
        store.close()
