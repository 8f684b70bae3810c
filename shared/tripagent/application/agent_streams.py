"""One agent turn's reply, stored as it is produced, so that anyone allowed can read it while it is written:
the member who asked after a reload, a second tab, every other member with the trip open.

The writer (the function answering ``POST …/agent/chat``) records the UI-message chunks in batches, beats
while the turn is alive, and reads on every beat whether a member asked it to stop. A reader replays what
was written and then tails it to the end. A writer that dies stops beating: the first reader to notice a
beat older than ``stale_s`` ends the turn as lost (conditionally, so that a writer that was only slow
loses nothing), and every reader then ends its copy with an error chunk, never a cut.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from tripagent.domain.trip import Role
from tripagent.errors import Forbidden, NotFound
from tripagent.observability import logger

if TYPE_CHECKING:
    from tripagent.application.trips import TripWorkspace

# ``failed``: the writer ended the reply with an error chunk; ``lost``: the writer is gone (a reader said).
TurnStatus = Literal["active", "finished", "stopped", "failed", "lost"]
ENDED: frozenset[str] = frozenset({"finished", "stopped", "failed", "lost"})

RETENTION_S = 24 * 3600  # a stored reply is for reattaching, not history: the session keeps the turn
FLUSH_S = 0.2  # how long a chunk may wait before readers can see it
BEAT_S = 5.0  # how often a live writer says so, even while the model is silent
STALE_S = 30.0  # a beat older than this: the writer is gone (several beats missed)
MAX_BATCH_BYTES = 64_000  # one stored item, far below DynamoDB's 400 KB
MAX_TURN_BYTES = 2_000_000  # a runaway reply is stopped, not stored without end
POLL_S = 0.15  # how often a reader looks for more while the writer is alive
MAX_ASKED = 2000  # the question as pushed to watchers (a push stays far below the frame limit)


@dataclass(frozen=True, slots=True)
class TurnStream:
    """What readers need to know of a turn's stream: who started it, whether it is still being written,
    when its writer last beat, and whether someone asked it to stop."""

    trip_id: str
    stream_id: str  # the assistant message's id
    by: str
    status: TurnStatus
    started_at: float
    beat_at: float
    stop_requested_by: str | None = None
    asked: str = ""  # the member's message it answers (watchers show it above the reply)

    @property
    def ended(self) -> bool:
        return self.status in ENDED


@dataclass(frozen=True, slots=True)
class StoredBatch:
    first: int  # the index of its first chunk in the turn
    count: int
    data: bytes


class TurnStreamStore(Protocol):
    def open(self, stream: TurnStream, expires_at: int) -> None:
        """Store a new active turn and make it the trip's latest."""
        ...

    def append(self, trip_id: str, stream_id: str, batch: StoredBatch, now: float) -> TurnStream | None:
        """Store a batch and beat; the turn as it now is, ``None`` once it has ended (a reader declared
        the writer gone): the writer must stop."""
        ...

    def beat(self, trip_id: str, stream_id: str, now: float) -> TurnStream | None:
        """As ``append`` with nothing to store."""
        ...

    def end(self, trip_id: str, stream_id: str, status: TurnStatus, now: float) -> bool:
        """Active → ``status``; ``False`` when it had already ended."""
        ...

    def end_if_stale(self, trip_id: str, stream_id: str, beat_at: float, now: float) -> bool:
        """Active with this very beat → lost (its writer is gone); ``False`` when it moved meanwhile."""
        ...

    def request_stop(self, trip_id: str, stream_id: str, by: str) -> TurnStream | None:
        """Ask the writer of an active turn to stop; the turn (ended or not) or ``None`` when unknown."""
        ...

    def get(self, trip_id: str, stream_id: str) -> TurnStream | None: ...

    def latest(self, trip_id: str) -> TurnStream | None:
        """The trip's most recently started turn."""
        ...

    def batches(self, trip_id: str, stream_id: str, after: int) -> list[StoredBatch]:
        """The stored batches from chunk ``after`` on, in order."""
        ...


@dataclass
class TurnRecorder:
    """The writer's side: chunks are batched (at most ``FLUSH_S`` late), a thread beats every ``BEAT_S``,
    and both learn whether the turn must stop (asked by a member, too long, or declared gone)."""

    store: TurnStreamStore
    trip_id: str
    stream_id: str
    now: Callable[[], float]
    flush_s: float = FLUSH_S
    beat_s: float = BEAT_S
    max_bytes: int = MAX_TURN_BYTES
    deadline_s: float | None = None  # the turn's own limit, below the function's timeout
    background: bool = True  # the beat thread (tests of the batching alone go without it)
    stop_reason: str | None = None  # "stop" (a member), "length" (too big), "timeout", "lost"
    stopped_by: str | None = None
    _pending: list[bytes] = field(default_factory=list)
    _pending_bytes: int = 0
    _written: int = 0  # chunks stored
    _bytes: int = 0
    _flushed_at: float = 0.0
    _started: float = 0.0
    _done: threading.Event = field(default_factory=threading.Event)
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _beater: threading.Thread | None = None
    _broken: bool = False
    finished: bool = False

    def start(self, by: str, asked: str = "") -> None:
        now = self.now()
        self._started = self._flushed_at = now
        stream = TurnStream(self.trip_id, self.stream_id, by, "active", now, now, asked=asked[:MAX_ASKED])
        self.store.open(stream, int(now) + RETENTION_S)
        if self.background:
            self._beater = threading.Thread(target=self._beat, name=f"beat-{self.stream_id}", daemon=True)
            self._beater.start()

    @property
    def must_stop(self) -> bool:
        late = self.deadline_s is not None and self.now() - self._started > self.deadline_s
        if self.stop_reason is None and late:
            self.stop_reason = "timeout"
        return self.stop_reason is not None

    def write(self, chunk: bytes) -> None:
        with self._lock:
            self._pending.append(chunk)
            self._pending_bytes += len(chunk)
            due = self._pending_bytes >= MAX_BATCH_BYTES or self.now() - self._flushed_at >= self.flush_s
        if due:
            self.flush()

    def flush(self) -> None:
        """Store what is pending, in order (the writer and the beat thread both call it, one at a time)."""
        with self._lock:
            if not self._pending:
                return
            data = b"".join(self._pending)
            batch = StoredBatch(self._written, len(self._pending), data)
            self._pending, self._pending_bytes = [], 0
            self._written += batch.count
            self._bytes += len(data)
            self._flushed_at = self.now()
            if self.stop_reason == "lost" or self._broken:
                return
            try:
                self._heard(self.store.append(self.trip_id, self.stream_id, batch, self._flushed_at))
            except Exception:
                # A batch the store did not take leaves a gap no reader can fill: stop storing and
                # beating, so that readers end the turn as lost, while the asker's own copy goes on.
                self._broken = True
                self._done.set()
                raise
        if self._bytes > self.max_bytes and self.stop_reason is None:
            self.stop_reason = "length"

    def finish(self, status: TurnStatus) -> None:
        """Store what is left and end the turn (unless a reader already ended it as lost); once."""
        if self.finished:
            return
        self.finished = True
        self._done.set()
        try:
            self.flush()
        finally:
            if self._beater is not None and self._beater is not threading.current_thread():
                self._beater.join(5)
            if self.stop_reason != "lost" and not self._broken:
                self.store.end(self.trip_id, self.stream_id, status, self.now())

    def _heard(self, stream: TurnStream | None) -> None:
        if stream is None:
            self.stop_reason = "lost"
        elif stream.stop_requested_by and self.stop_reason is None:
            self.stop_reason, self.stopped_by = "stop", stream.stop_requested_by

    def _beat(self) -> None:
        """Store what waits past ``flush_s`` (the model may be silent for a while: a reader attaching then
        still gets the turn's start), and beat every ``beat_s``. A turn never ended by its writer (a bug,
        a generator never run) stops beating past its limit, so that readers see it lost."""
        last_beat = self.now()
        give_up = (self.deadline_s or 900.0) + 2 * STALE_S
        while not self._done.wait(min(self.flush_s, self.beat_s) or self.beat_s):
            now = self.now()
            if now - self._started > give_up:
                return
            try:
                if self._pending and now - self._flushed_at >= self.flush_s:
                    self.flush()
                    last_beat = now
                elif now - last_beat >= self.beat_s:
                    with self._lock:
                        self._heard(self.store.beat(self.trip_id, self.stream_id, now))
                    last_beat = now
            except Exception:  # a missed beat is only a beat: the next one tries again
                logger.warning("a turn's beat failed", extra={"streamId": self.stream_id})


def follow(
    store: TurnStreamStore,
    stream: TurnStream,
    *,
    now: Callable[[], float],
    sleep: Callable[[float], None],
    interrupted: Callable[[], Sequence[bytes]],
    stale_s: float = STALE_S,
    poll_s: float = POLL_S,
    until: float | None = None,
    gone: Callable[[], bool] = lambda: False,
) -> Iterator[bytes]:
    """The reader's side: every stored chunk in order, then the rest as it is written, to the end. A
    writer gone quiet for ``stale_s`` ends the turn as lost, and the copy ends with ``interrupted()``.
    Past ``until`` (the reader's own time limit) the copy simply ends: the client may reattach."""
    cursor = 0
    while True:
        read = cursor
        for batch in store.batches(stream.trip_id, stream.stream_id, cursor):
            if batch.first != cursor:
                break  # a gap (a batch the store never took): the writer stopped beating, wait for it
            yield batch.data
            cursor = batch.first + batch.count
        if cursor != read:
            continue
        current = store.get(stream.trip_id, stream.stream_id)
        if current is None:
            return
        if current.ended:
            for batch in store.batches(stream.trip_id, stream.stream_id, cursor):
                if batch.first != cursor:
                    break
                yield batch.data
                cursor = batch.first + batch.count
            if current.status == "lost":
                yield from interrupted()
            return
        moment = now()
        if moment - current.beat_at > stale_s:
            if not store.end_if_stale(stream.trip_id, stream.stream_id, current.beat_at, moment):
                sleep(poll_s)  # it moved meanwhile (a beat, or another reader): look again shortly
            continue  # ended now, by this reader or another: the next round says how
        if (until is not None and moment > until) or gone():
            return  # past the reader's own limit, or the reader went away
        sleep(poll_s)


@dataclass(frozen=True)
class AgentTurns:
    """Who may read and stop a trip's turns: any member reads, a member who may edit stops; anyone else
    gets the missing-trip answer and learns nothing."""

    workspace: TripWorkspace
    store: TurnStreamStore

    def readable(self, caller: str, trip_id: str, stream_id: str | None) -> TurnStream | None:
        """The turn to reattach to: the one named, else the trip's latest; ``None`` when nothing is being
        written (a turn that ended is in the history already)."""
        self.workspace.get_trip(caller, trip_id)
        stream = self.store.get(trip_id, stream_id) if stream_id else self.store.latest(trip_id)
        return stream if stream is not None and not stream.ended else None

    def stop(self, caller: str, trip_id: str, stream_id: str) -> TurnStream:
        trip = self.workspace.get_trip(caller, trip_id)
        role = trip.role_of(caller)
        if role is None or not role.allows(Role.editor):
            raise Forbidden("Only members who may edit the trip can stop the agent.")
        stream = self.store.request_stop(trip_id, stream_id, caller)
        if stream is None:
            raise NotFound("No such turn of this trip's agent.")
        return stream
