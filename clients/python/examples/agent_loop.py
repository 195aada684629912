"""Mnemo in an agent loop: recall before the model answers, remember after, report what was used.

    MNEMO_URL=http://127.0.0.1:8080 MNEMO_KEY=mnemo_... python3 examples/agent_loop.py

``call_model`` stands in for your LLM call (OpenAI, Anthropic, a local model): it gets the messages,
memory block included, and returns the reply. The stand-in here answers from the block so the
example runs without a model; replace it with your client's chat call.
"""

from __future__ import annotations

import os
from typing import Dict, List

from mnemo_client import Mnemo, Turn


def call_model(messages: List[Dict[str, str]]) -> str:
    """Your LLM goes here. This stand-in repeats the first remembered line it was given."""
    system = messages[0]["content"]
    lines = [l for l in system.splitlines() if l.startswith("- ")]
    return ("From memory: " + lines[0][2:]) if lines else "I don't know that yet."


def answer(memory: Mnemo, user: str, session: str, turn: int, message: str) -> str:
    # 1. Recall: the few memories relevant to this message, as a dated prompt block (empty when
    #    nothing stored is relevant: then the prompt carries nothing).
    recalled = memory.recall(user, message, budget_tokens=400)
    system = "You are a helpful assistant."
    if not recalled.empty:
        system += "\n\n" + recalled.block
    reply = call_model([{"role": "system", "content": system}, {"role": "user", "content": message}])
    # 2. Remember: hand the exchange to the write path, which extracts the facts in the background
    #    (idempotent by turn id, so a retried step does not store twice).
    memory.ingest([
        Turn(id=f"{session}:{turn}:u", owner=user, episode=session, role="user", text=message),
        Turn(id=f"{session}:{turn}:a", owner=user, episode=session, role="assistant", text=reply),
    ])
    # 3. Report what the reply used: recall ranks those higher next time, and the retrieval log's
    #    use rate says whether recall helps.
    if recalled.records:
        memory.mark_used(user, [r.record.id for r in recalled.records], answer=reply, query=message)
    return reply


def main() -> None:
    memory = Mnemo(os.environ.get("MNEMO_URL", "http://127.0.0.1:8080"), key=os.environ.get("MNEMO_KEY"))
    user = os.environ.get("MNEMO_OWNER", "example-user")
    # A fact stated directly, in the third person, one fact per record, keyed because it can change.
    memory.remember(user, "The user's favourite editor is Helix.", fact_key="favorite editor")
    for turn, message in enumerate(["Which editor should I open the project in?", "Thanks!"]):
        print("user:", message)
        print("assistant:", answer(memory, user, "session-1", turn, message))
    memory.await_ingested(timeout=30)


if __name__ == "__main__":
    main()
