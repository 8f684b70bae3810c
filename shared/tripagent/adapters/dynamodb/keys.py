"""Key patterns of the single table (docs/data-model.md): the one place they are spelled."""

from __future__ import annotations

META = "META"


def trip_pk(trip_id: str) -> str:
    return f"TRIP#{trip_id}"


def member_sk(user_id: str) -> str:
    return f"MEMBER#{user_id}"


def user_pk(user_id: str) -> str:
    return f"USER#{user_id}"


def user_trip_sk(created_at: str, trip_id: str) -> str:
    return f"TRIP#{created_at}#{trip_id}"


def outbox_sk(operation_id: str) -> str:
    return f"OUTBOX#{operation_id}"


def session_pk(trip_id: str) -> str:
    return f"SESSION#{trip_id}"


TURN_PREFIX = "TURN#"


def turn_sk(seq: int) -> str:
    return f"{TURN_PREFIX}{seq:012d}"  # zero-padded so that the sort key orders turns by number


def dedupe_sk(key: str) -> str:
    return f"DEDUPE#{key}"


def proposal_sk(proposal_id: str) -> str:
    return f"PROPOSAL#{proposal_id}"  # an agent approval or a reviewer suggestion (domain/proposal.py)


def review_op_sk(operation_id: str) -> str:
    return f"REVIEWOP#{operation_id}"


def connection_pk(connection_id: str) -> str:
    return f"WS#{connection_id}"


def subscribers_pk(trip_id: str) -> str:
    return f"SUBS#{trip_id}"


AI_PROVIDER = "AI_PROVIDER"  # SK of a user's own model provider, under user_pk


def rate_pk(key: str) -> str:
    return f"RATE#{key}"


# GSI1 partition of the proposals still open, sorted by expiry, for the sweep that expires them. Decided
# proposals leave it (their GSI1 keys are removed), so the sweep reads only what it may have to expire.
OPEN_PROPOSALS = "PROPOSALS#OPEN"

# GSI1 partition of session items, sorted by last activity. One partition is plenty for a daily purge at
# this scale; shard it (SESSIONS#0..n) if sessions ever number in the millions.
SESSIONS_BY_ACTIVITY = "SESSIONS"


def turn_stream_pk(trip_id: str) -> str:
    return f"AGENTSTREAM#{trip_id}"  # a trip's agent replies as they are written (application/agent_streams)


LATEST_TURN_STREAM = "LATEST"


def turn_stream_sk(stream_id: str, part: str) -> str:
    """``0META`` (status: its changes are pushed), ``1BEAT`` (the writer's beat, the stop request) and
    ``2C#<first chunk>`` (a batch): in that order under the stream's prefix."""
    return f"STREAM#{stream_id}#{part}"


def turn_chunk_part(first: int) -> str:
    return f"2C#{first:07d}"


PROFILE = "PROFILE"  # SK of a user's profile (a name, a verified address), under user_pk


def email_pk(email: str) -> str:
    return f"EMAIL#{email}"  # an address: who has it (SK USER), the invitations waiting for it


def trip_people_pk(trip_id: str) -> str:
    return f"TRIPPEOPLE#{trip_id}"  # a trip's pending invitations and share links, for its owners


def share_pk(token: str) -> str:
    return f"SHARE#{token}"
