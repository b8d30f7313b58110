"""A protocol client for the tests that checks every message it receives against the
competition's fields (``protocol_fields.py``) and answers a random index of each ``actionList``
(seeded): ``python checking_client.py URL OUT SEED``. At the end (the server closes the
connection) it writes to OUT what it found: ``{"problems", "leads", "messages"}``."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from protocol_fields import Checker


def main() -> None:
    url, out, seed = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    checker = Checker()
    problems: list[str] = []
    with connect(url, max_size=None) as ws:
        for text in ws:
            msg = json.loads(text)
            problems += checker.check(msg)
            if msg.get("type") == "act":
                ws.send(json.dumps({"actIndex": rng.randrange(len(msg["actionList"]))}))
    out.write_text(json.dumps({"problems": problems, "leads": checker.leads,
                               "messages": checker.messages}), encoding="utf-8")


if __name__ == "__main__":
    main()
