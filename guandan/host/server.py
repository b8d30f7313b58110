"""``guandan host``: the competition protocol's server side, on a WebSocket server.

Outside programs connect to ``ws://HOST:PORT/game/NAME``; each takes the next free place (a
seat of ``--seats``) in the order of connection and learns its seat from ``myPos``. Play starts
when every place is taken. The connections are handled by ``websockets``' threaded server; the
match is played in the calling thread, which waits on each connection's queue of answers.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import IO, Any

from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.sync.server import Server, ServerConnection, serve

from guandan.host.relay import Peer, PeerGone, QueuedPeer, Relay
from guandan.match import Action, Match
from guandan.players import REGISTRY, make_player
from guandan.presets import PRESETS
from guandan.seats import SEATS

PATH = re.compile(r"^/game/([A-Za-z0-9_.\-]{1,64})$")
DEFAULT_PORT = 23456


#: Seconds between a connection's handshake and the first message sent on it. ws4py (which
#: the competition's clients use) breaks when a message comes in the same read as the
#: handshake's response: it parses it in two threads at once.
SETTLE = 1.0


class WebSocketPeer(QueuedPeer):
    """An outside program on a WebSocket connection; what it sends waits in ``inbox``."""

    def __init__(self, connection: ServerConnection, name: str) -> None:
        super().__init__(name)
        self.connection = connection
        self._since = time.monotonic()
        self._settled = False

    def send(self, message: Mapping[str, Any]) -> None:
        if self._gone.is_set():
            raise PeerGone(self.name)
        if not self._settled:
            time.sleep(max(0.0, self._since + SETTLE - time.monotonic()))
            self._settled = True
        try:
            self.connection.send(json.dumps(message, separators=(",", ":")))
        except ConnectionClosed:
            self._gone.set()
            raise PeerGone(self.name) from None

    def close(self, reason: str) -> None:
        self._gone.set()
        self.connection.close(1000, reason)


class Lobby:
    """Places for outside programs (seats, or the arena's two players of a side), given in the
    order of connection; ``log`` hears who came and went."""

    def __init__(self, places: Sequence[int], log: Callable[[str], None] | None = None) -> None:
        self.places = list(places)
        self.log = log or (lambda _text: None)
        self._seated: dict[int, WebSocketPeer] = {}
        self._lock = threading.Condition()
        self.server: Server | None = None

    def check_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Refuse, before the handshake, a path that is not ``/game/NAME``."""
        if PATH.match(request.path) is None:
            body = (f"no game here: connect to /game/NAME (NAME: letters, digits, _ . -), "
                    f"not {request.path[:80]}\n").encode()
            return Response(HTTPStatus.NOT_FOUND.value, "Not Found",
                            Headers([("Content-Type", "text/plain; charset=utf-8"),
                                     ("Content-Length", str(len(body)))]), body)
        return None

    def handler(self, connection: ServerConnection) -> None:
        match = PATH.match(connection.request.path if connection.request else "")
        name = match.group(1) if match else "?"
        peer = WebSocketPeer(connection, name)
        with self._lock:
            place = next((p for p in self.places if p not in self._seated), None)
            if place is not None:
                self._seated[place] = peer
                self._lock.notify_all()
        if place is None:
            self.log(f"{name} connected, but every place is taken: refused")
            try:
                connection.send(json.dumps({"type": "error",
                                            "message": "every seat is taken"}))
            finally:
                connection.close(1013, "every seat is taken")
            return
        self.log(f"{name} connected: place {place}")
        try:
            for message in connection:
                peer.inbox.put(message)
        except ConnectionClosed:
            pass
        finally:
            peer.closed()
            with self._lock:
                if self._seated.get(place) is peer:
                    del self._seated[place]
                self._lock.notify_all()
            self.log(f"{name} (place {place}) disconnected")

    def wait_full(self, timeout: float | None = None) -> bool:
        """Wait until every place is taken; False if ``timeout`` passed first."""
        with self._lock:
            return self._lock.wait_for(lambda: len(self._seated) == len(self.places), timeout)

    def seating(self) -> dict[int, Peer]:
        """The programs connected now, by place."""
        with self._lock:
            return dict(self._seated)

    def start(self, host: str, port: int) -> Server:
        """Listen on ``host``:``port`` in a background thread."""
        # No keepalive pings: the competition's clients (ws4py) answer them in the thread that
        # thinks, so a long think would close the connection; --timeout watches each answer.
        self.server = serve(self.handler, host, port, process_request=self.check_request,
                            compression=None, max_size=1 << 16, ping_interval=None)
        threading.Thread(target=self.server.serve_forever, daemon=True,
                         name="guandan-host").start()
        return self.server

    def stop(self, reason: str = "the session is over") -> None:
        """Close every connection (normal closure) and stop listening."""
        for peer in self.seating().values():
            if isinstance(peer, WebSocketPeer):
                with contextlib.suppress(Exception):  # a broken socket must not stop us
                    peer.close(reason)
        if self.server is not None:
            self.server.shutdown()


def host_session(
    lobby: Lobby,
    seats: Sequence[int],
    *,
    rules: str = "site",
    player: str = "heuristic",
    hands: int = 1,
    seed: int = 0,
    timeout: float = 10.0,
    out: IO[str] | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play ``hands`` hands with outside programs on ``seats`` (already connected to ``lobby``,
    whose places are the seats) and ``player`` on the others; the session's figures."""
    say = log or (lambda _text: None)
    relay = Relay(lobby.seating, fallback=player, timeout=timeout, seed=seed, setting=hands,
                  log=say)
    ours = {s: make_player(player, seed=seed * 4 + s) for s in SEATS if s not in seats}
    match_number = 1
    match = Match(rules, seed=seed, match_number=match_number)
    played = decisions = 0
    start = time.perf_counter()
    while played < hands:
        if match.to_act is None:
            match_number += 1
            match = Match(rules, seed=seed, match_number=match_number)
        relay.sync(match)
        seat = match.to_act
        assert seat is not None
        obs = match.observation(seat)
        action: Action = relay.act(seat, obs) if seat in seats else ours[seat].act(obs)
        before = len(match.records)
        match.apply(action)
        decisions += 1
        relay.applied(match, seat, action, obs)
        if len(match.records) > before:
            played += 1
            if out is not None:
                out.write(json.dumps(match.records[-1], ensure_ascii=False) + "\n")
                out.flush()
            say(f"hand {played}/{hands} done: finish order "
                f"{' '.join(map(str, match.records[-1]['finish_order']))}")
    relay.finish()
    elapsed = time.perf_counter() - start
    st = relay.stats
    return {
        "hands": played, "decisions": decisions, "seconds": elapsed,
        "decisions_per_second": decisions / elapsed if elapsed else 0.0,
        "outside_decisions": st.asked, "refused": st.refused, "replaced": st.replaced,
        "hands_with_replacement": st.hands_replaced,
        "host_ms_per_outside_decision": 1e3 * st.build_seconds / st.asked if st.asked else 0.0,
        "mean_action_list": sum(st.actions) / len(st.actions) if st.actions else 0.0,
        "hands_won_by_seat": dict(relay.wins),
    }


def parse_seats(text: str) -> list[int]:
    """``"2,4"`` -> ``[2, 4]``; ``ValueError`` saying what is wrong."""
    try:
        seats = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--seats takes seat numbers 1-4 separated by commas, not {text!r}") \
            from None
    if not seats or any(s not in SEATS for s in seats) or len(set(seats)) != len(seats):
        raise ValueError(f"--seats takes distinct seat numbers 1-4, not {text!r}")
    return seats


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def port_number(text: str) -> int:
    """A TCP port, 1-65535 (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1-65535, not {value}")
    return value


def host_main(argv: Sequence[str] | None = None) -> int:
    """``guandan host``: wait for the outside programs, play, print the figures."""
    parser = argparse.ArgumentParser(
        prog="guandan host",
        description="Serve the 1st China AI Guandan Competition's WebSocket protocol: outside "
                    "programs connect to ws://HOST:PORT/game/NAME and play --seats; --player "
                    "plays the others.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="interface to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT)
    parser.add_argument("--rules", default="site", choices=list(PRESETS))
    parser.add_argument("--seats", default="2,4",
                        help="seats (1-4) for outside programs, in connection order "
                             "(default 2,4)")
    parser.add_argument("--player", default="heuristic",
                        help="our player on the other seats and for a replaced outside seat")
    parser.add_argument("--hands", type=_positive_int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="write every hand record (JSON Lines) to this file")
    parser.add_argument("--timeout", type=_positive_float, default=10.0,
                        help="seconds an outside program has for each answer (default 10)")
    parser.add_argument("--quiet", action="store_true", help="no log of connections and hands")
    args = parser.parse_args(list(argv) if argv is not None else sys.argv[2:])
    try:
        seats = parse_seats(args.seats)
    except ValueError as e:
        print(f"guandan host: {e}", file=sys.stderr)
        return 2
    if args.player not in REGISTRY:
        print(f"guandan host: --player must be one of {', '.join(sorted(REGISTRY))}, "
              f"not {args.player!r}", file=sys.stderr)
        return 2

    def log(text: str) -> None:
        if not args.quiet:
            print(f"guandan host: {text}", file=sys.stderr, flush=True)

    lobby = Lobby(seats, log)
    try:
        lobby.start(args.host, args.port)
    except OSError as e:
        print(f"guandan host: cannot listen on {args.host}:{args.port}: {e.strerror or e}",
              file=sys.stderr)
        return 2
    shown = ", ".join(map(str, seats))
    print(f"guandan host: listening on ws://{args.host}:{args.port}/game/NAME; waiting for "
          f"{len(seats)} program(s) for seat(s) {shown}", file=sys.stderr, flush=True)
    out: IO[str] | None = None
    try:
        lobby.wait_full()
        out = Path(args.out).open("w", encoding="utf-8") if args.out else None  # noqa: SIM115
        figures = host_session(lobby, seats, rules=args.rules, player=args.player,
                               hands=args.hands, seed=args.seed, timeout=args.timeout, out=out,
                               log=log)
    except KeyboardInterrupt:
        print("guandan host: stopped", file=sys.stderr)
        return 130
    finally:
        if out is not None:
            out.close()
        lobby.stop()
    print(json.dumps(figures))
    return 0


__all__ = ["DEFAULT_PORT", "Lobby", "WebSocketPeer", "host_main", "host_session",
           "parse_seats"]
