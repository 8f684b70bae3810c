"""The shared session as the UI messages ``useChat`` restores: text, each proposed write as a tool part in
the state the proposal store says, clarifications as ``data-clarify`` parts."""

from __future__ import annotations

from typing import Any

from tripagent.domain.proposal import Proposal
from tripagent.domain.session import Turn
from tripagent.entrypoints.http.agent_models import HistoryMessage


def ui_messages(turns: list[Turn], proposals: dict[str, Proposal], now: str) -> list[HistoryMessage]:
    messages = []
    for turn in turns:
        metadata: dict[str, Any] = {"seq": turn.seq, **turn.metadata.model_dump()}
        if turn.role == "event":  # with what a client needs to write it in its reader's language
            metadata["event"] = turn.kind
            metadata.update(
                {k: turn.data[k] for k in ("op", "args", "decision", "reason") if turn.data.get(k)}
            )
        if turn.data.get("stopped"):
            metadata["stopped"] = turn.data["stopped"]  # cut short by a member (or the turn's limit)
        parts: list[dict[str, Any]] = [{"type": "text", "text": turn.text}] if turn.text else []
        for call in turn.data.get("toolCalls", []):
            parts.append(tool_part(call, proposals.get(call["approvalId"]), now))
        if turn.data.get("clarify"):
            parts.append({"type": "data-clarify", "id": f"clarify_{turn.seq}", "data": turn.data["clarify"]})
        messages.append(
            HistoryMessage(
                id=str(turn.data.get("messageId") or f"m{turn.seq}"),
                role="assistant" if turn.role == "assistant" else "user",
                parts=parts,
                metadata=metadata,
            )
        )
    return messages


TOOL_ERRORS = {
    "failed": "Approved, but the change could not be applied.",
    "stale": "Approved, but the trip had changed since it was proposed: nothing was applied.",
    "expired": "The proposal expired.",
}


def tool_part(call: dict[str, Any], proposal: Proposal | None, now: str) -> dict[str, Any]:
    """A proposed write as the AI SDK shows it, in the state the store says (a claim in progress is still
    open: nothing has changed yet)."""
    part = {"type": f"tool-{call['toolName']}", "toolCallId": call["toolCallId"], "input": call["input"]}
    approval = {"id": call["approvalId"]}
    status = "expired" if proposal is None else proposal.client_status
    if status == "pending" and proposal is not None and not proposal.open_at(now):
        status = "expired"
    if status == "pending":
        return part | {"state": "approval-requested", "approval": approval}
    if status == "applied":
        return part | {
            "state": "output-available",
            "output": {"applied": True, "approvedBy": proposal.decidedBy if proposal else None},
            "approval": approval | {"approved": True},
        }
    if status == "denied":
        return part | {"state": "output-denied", "approval": approval | {"approved": False}}
    return part | {"state": "output-error", "errorText": TOOL_ERRORS[status]}
