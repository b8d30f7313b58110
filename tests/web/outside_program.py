"""An outside program for the web tests: over a TestClient's socket, it answers every ``act``
with the first action offered and leaves at the hand's end."""

from __future__ import annotations

import json
from typing import Any


def answer_first_until_the_hands_end(client: Any, path: str,
                                     asked: list[dict[str, Any]]) -> None:
    """Play the seat at ``path`` through ``client`` (``actIndex`` 0), each ``act`` message
    kept in ``asked``, until ``episodeOver``."""
    with client.websocket_connect(path) as ws:
        while True:
            msg = json.loads(ws.receive_text())
            if msg.get("stage") == "episodeOver":
                return  # the hand is over: the program leaves
            if msg.get("type") == "act":
                asked.append(msg)
                ws.send_text(json.dumps({"actIndex": 0}))
