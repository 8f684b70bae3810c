"""Use cases of the realtime channel: who is connected, who follows which trip, and what they are told.

A connection belongs to one authenticated user; it follows the trips it subscribed to, and only trips
its user is a member of (a non-member gets the same answer as for a missing trip); membership is checked
again on every push, so a member who leaves stops hearing about the trip at once. Pushes go to every
connection following the trip; a deny goes to the denier's own connections only. A connection the
management API reports gone is forgotten on the spot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from tripagent.application.trips import TripWorkspace
from tripagent.domain.ops import patch_in_words
from tripagent.domain.proposal import Proposal, SuggestionView
from tripagent.domain.session import Turn

CONNECTION_TTL_S = 2 * 3600 + 600  # API Gateway ends a WebSocket after 2 hours; TTL is the backstop
MAX_TEXT_CHARS = 2000  # a push stays far below the 128 KB frame limit
TOAST_ACTIONS = ("approve", "discuss", "deny")


class ConnectionStore(Protocol):
    def connect(self, connection_id: str, user_id: str, expires_at: int) -> None: ...

    def user_of(self, connection_id: str) -> str | None: ...

    def subscribe(self, connection_id: str, user_id: str, trip_id: str, expires_at: int) -> bool:
        """``False`` when the connection is gone."""
        ...

    def unsubscribe(self, connection_id: str, trip_id: str) -> None: ...

    def disconnect(self, connection_id: str) -> None:
        """Forget the connection and every subscription it had."""
        ...

    def subscribers(self, trip_id: str) -> list[tuple[str, str]]:
        """(connection id, user id) of the live connections following the trip."""
        ...


class Pusher(Protocol):
    def push(self, connection_id: str, message: dict[str, Any]) -> bool:
        """Send ``message``; ``False`` when the connection is gone."""
        ...


@dataclass(frozen=True, slots=True)
class TripChanged:
    trip_id: str
    version: int
    updated_at: str | None


@dataclass(frozen=True, slots=True)
class TurnAdded:
    trip_id: str
    turn: Turn


@dataclass(frozen=True, slots=True)
class SuggestionChanged:
    suggestion: Proposal
    created: bool
    status_changed: bool
    new_deniers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AgentTurnChanged:
    """A reply began to be written (members attach to it and watch it live), or its writing ended."""

    trip_id: str
    turn_id: str
    by: str
    status: str  # "active" when it began; how it ended otherwise
    asked: str = ""  # the member's message it answers


Change = TripChanged | TurnAdded | SuggestionChanged | AgentTurnChanged


@dataclass(frozen=True)
class Realtime:
    connections: ConnectionStore
    workspace: TripWorkspace
    pusher: Pusher
    now: Any  # () -> float

    def connect(self, user_id: str, connection_id: str) -> None:
        self.connections.connect(connection_id, user_id, int(self.now()) + CONNECTION_TTL_S)

    def subscribe(self, connection_id: str, trip_id: str) -> dict[str, Any]:
        user_id = self.connections.user_of(connection_id)
        if user_id is None:
            return {"type": "error", "error": "unauthorized", "message": "Connect again."}
        trip = self.workspace.get_trip(user_id, trip_id)  # NotFound for non-members and missing trips alike
        if not self.connections.subscribe(
            connection_id, user_id, trip_id, int(self.now()) + CONNECTION_TTL_S
        ):
            return {"type": "error", "error": "unauthorized", "message": "Connect again."}
        role = trip.role_of(user_id)
        return {
            "type": "subscribed",
            "tripId": trip_id,
            "version": trip.version,
            "role": role.value if role else None,
        }

    def unsubscribe(self, connection_id: str, trip_id: str) -> dict[str, Any]:
        self.connections.unsubscribe(connection_id, trip_id)
        return {"type": "unsubscribed", "tripId": trip_id}

    def disconnect(self, connection_id: str) -> None:
        self.connections.disconnect(connection_id)

    def notify(self, change: Change) -> int:
        """One stored change → the pushes it deserves; returns how many connections received one."""
        if isinstance(change, TripChanged):
            return self.broadcast(
                change.trip_id, trip_updated(change.trip_id, change.version, change.updated_at)
            )
        if isinstance(change, TurnAdded):
            return self.broadcast(change.trip_id, agent_message(change.trip_id, change.turn))
        if isinstance(change, AgentTurnChanged):
            return self.broadcast(change.trip_id, agent_turn(change))
        suggestion = SuggestionView.of(change.suggestion)
        sent = 0
        if change.created:
            sent += self.broadcast(suggestion.tripId, suggestion_created(suggestion))
        elif change.status_changed:
            sent += self.broadcast(suggestion.tripId, suggestion_updated(suggestion))
        for user_id in change.new_deniers:
            sent += self.broadcast(
                suggestion.tripId, suggestion_denied(suggestion, user_id), only_user=user_id
            )
        return sent

    def broadcast(self, trip_id: str, message: dict[str, Any], *, only_user: str | None = None) -> int:
        """Push to the trip's followers (or to one user's connections); returns how many received it."""
        members = self.workspace.trips.member_ids(trip_id)  # the member items: not the whole trip
        delivered = 0
        for connection_id, user_id in self.connections.subscribers(trip_id):
            if user_id not in members:  # left the trip since subscribing: no more of its news
                self.connections.unsubscribe(connection_id, trip_id)
                continue
            if only_user is not None and user_id != only_user:
                continue
            if self.pusher.push(connection_id, message):
                delivered += 1
            else:
                self.connections.disconnect(connection_id)  # 410: gone, forget it now
        return delivered


# ---------------------------------------------------------------------------- what members are told
def toast(suggestion: SuggestionView) -> dict[str, Any]:
    """Ready to render: severity, reason, the patch in words, and the action keys of the label catalog."""
    patch = suggestion.pendingPatch
    return {
        "severity": suggestion.severity,
        "reason": suggestion.reason,
        "suggestion": suggestion.suggestion,
        "patch": patch_in_words(patch.op, patch.args) if patch else None,
        "actions": [{"action": a, "labelKey": f"agent.toast.{a}"} for a in TOAST_ACTIONS],
        "expiresAt": suggestion.expiresAt,
    }


def suggestion_created(suggestion: SuggestionView) -> dict[str, Any]:
    return {
        "type": "suggestion.created",
        "tripId": suggestion.tripId,
        "suggestion": suggestion.model_dump(mode="json"),
        "toast": toast(suggestion),
    }


def suggestion_updated(suggestion: SuggestionView) -> dict[str, Any]:
    return {
        "type": "suggestion.updated",
        "tripId": suggestion.tripId,
        "suggestionId": suggestion.suggestionId,
        "status": suggestion.status,
        "decidedBy": suggestion.decidedBy,
        "decidedAt": suggestion.decidedAt,
    }


def suggestion_denied(suggestion: SuggestionView, user_id: str) -> dict[str, Any]:
    """For the denier only: their toast goes away; everyone else still sees the suggestion."""
    return {
        "type": "suggestion.updated",
        "tripId": suggestion.tripId,
        "suggestionId": suggestion.suggestionId,
        "status": suggestion.status,
        "deniedBy": user_id,
        "hidden": True,
    }


def agent_message(trip_id: str, turn: Turn) -> dict[str, Any]:
    return {
        "type": "agent.message",
        "tripId": trip_id,
        "message": {
            "seq": turn.seq,
            "role": "assistant" if turn.role == "assistant" else "user",
            "kind": turn.kind,
            "text": turn.text[:MAX_TEXT_CHARS],
            "truncated": len(turn.text) > MAX_TEXT_CHARS,
            "metadata": turn.metadata.model_dump(),
        },
    }


def agent_turn(change: AgentTurnChanged) -> dict[str, Any]:
    """``agent.turn.started`` (attach to ``GET …/agent/chat/stream?id=turnId``) or ``agent.turn.ended``."""
    started = change.status == "active"
    message: dict[str, Any] = {
        "type": "agent.turn.started" if started else "agent.turn.ended",
        "tripId": change.trip_id,
        "turnId": change.turn_id,
        "by": change.by,
    }
    if started:
        message["asked"] = change.asked[:MAX_TEXT_CHARS]
    else:
        message["status"] = change.status
    return message


def trip_updated(trip_id: str, version: int, updated_at: str | None) -> dict[str, Any]:
    return {"type": "trip.updated", "tripId": trip_id, "version": version, "updatedAt": updated_at}
