"""A misbehaving protocol client for the tests: ``python bad_client.py URL MODE``.

MODE says how it answers every ``act``: ``index`` (an index past ``actionList``), ``json``
(malformed JSON), ``silent`` (no answer), ``drop`` (closes the connection), ``once`` (one bad
index, then index 0 for everything). Each message received is written to stdout, one per line.
"""

from __future__ import annotations

import json
import sys

from websockets.sync.client import connect


def main(url: str, mode: str) -> int:
    acts = 0
    with connect(url, max_size=None) as ws:
        for raw in ws:
            print(raw, flush=True)
            msg = json.loads(raw)
            if msg.get("type") != "act":
                continue
            acts += 1
            if mode == "drop":
                return 0
            if mode == "silent":
                continue
            if mode == "json":
                ws.send("{actIndex: 0")
            elif mode == "index" or (mode == "once" and acts == 1):
                ws.send(json.dumps({"actIndex": len(msg["actionList"]) + 7}))
            else:
                ws.send(json.dumps({"actIndex": 0}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
