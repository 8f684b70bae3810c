"""The conversation the agent's model reads: the recent turns of the shared session verbatim, within a
budget, and a rolling summary of the older ones, so the prompt stays bounded however long the session."""

from __future__ import annotations

from tripagent.application.llm import Message
from tripagent.application.sessions import SessionState, SessionStore
from tripagent.domain.session import Turn

HISTORY_CHAR_BUDGET = 6_000  # about 1,500 tokens of recent turns, verbatim
HISTORY_TURN_LIMIT = 60  # turns read per chat turn; more never fit in the budget
SUMMARY_CHAR_BUDGET = 1_500  # the rolling summary of the older turns
SUMMARY_LINE_CHARS = 160
SUMMARY_END = "[then]\n"  # where the rolling summary ends and the conversation goes on


def prompt_history(
    sessions: SessionStore, trip_id: str, state: SessionState, *, upto: int | None = None
) -> list[Message]:
    """Recent turns verbatim within the budget; the older ones are folded into the session's rolling
    summary (which opens the messages, as data), so the prompt stays bounded however long the session."""
    turns = sessions.recent(trip_id, limit=HISTORY_TURN_LIMIT)
    if upto is not None:  # the conversation as it stood when this member spoke: the message ends it,
        turns = [t for t in turns if t.seq <= upto]  # turns landing meanwhile come next time
    kept: list[Turn] = []
    used = 0
    for turn in reversed(turns):  # newest first, until the budget is spent
        used += len(turn.text)
        if used > HISTORY_CHAR_BUDGET and kept:
            break
        kept.append(turn)
    kept.reverse()
    first_kept = kept[0].seq if kept else 0
    dropped = [t for t in turns if state.summary_up_to < t.seq < first_kept]
    summary = state.summary
    if dropped:
        summary = fold_summary(summary, dropped)
        sessions.save_summary(trip_id, summary, dropped[-1].seq)
    messages: list[Message] = []
    for turn in kept:
        if turn.role == "assistant":
            messages.append(Message("assistant", turn.text))
        else:  # members' words and trip events both reach the model as user-side context
            prefix = "" if turn.role == "user" else "[event] "
            messages.append(Message("user", f"{prefix}{turn.metadata.actor}: {turn.text}"))
    while messages and messages[0].role != "user":
        messages.pop(0)
    if summary and messages:  # data like any member's words: user-side, never the system prompt
        opening = f"[summary of the earlier conversation, oldest first]\n{summary}\n\n{SUMMARY_END}"
        messages[0] = Message("user", opening + messages[0].content)
    return messages


def fold_summary(summary: str, turns: list[Turn]) -> str:
    """Fold turns into the rolling summary: one line each, oldest lines dropped past the budget. Built
    without a model, so that folding costs no call and no latency on the chat path."""
    lines = [line for line in summary.splitlines() if line]
    for turn in turns:
        who = "agent" if turn.role == "assistant" else turn.metadata.actor
        text = " ".join(turn.text.split())
        lines.append(f"- #{turn.seq} {who}: {text[:SUMMARY_LINE_CHARS]}")
    while len("\n".join(lines)) > SUMMARY_CHAR_BUDGET and len(lines) > 1:
        lines.pop(0)
    return "\n".join(lines)[-SUMMARY_CHAR_BUDGET:]
