"""A turn's recorder, with a store in memory and a clock the test moves: chunks reach readers at most
``flush_s`` late, a turn ends itself at its time limit (the streamed function's timeout in AWS is above it)
and past its size limit, and a store that fails leaves readers to see the turn lost, never a wrong copy."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest
from tripagent.application.agent_streams import (
    StoredBatch,
    TurnRecorder,
    TurnStatus,
    TurnStream,
    follow,
)


@dataclass
class MemoryStreams:
    streams: dict[str, TurnStream] = field(default_factory=dict)
    stored: dict[str, list[StoredBatch]] = field(default_factory=dict)
    fail_appends: bool = False

    def open(self, stream: TurnStream, expires_at: int) -> None:
        self.streams[stream.stream_id] = stream
        self.stored[stream.stream_id] = []

    def append(self, trip_id: str, stream_id: str, batch: StoredBatch, now: float) -> TurnStream | None:
        if self.fail_appends:
            raise ConnectionError("the table is not answering")
        beat = self.beat(trip_id, stream_id, now)
        if beat is not None:
            self.stored[stream_id].append(batch)
        return beat

    def beat(self, trip_id: str, stream_id: str, now: float) -> TurnStream | None:
        stream = self.streams[stream_id]
        if stream.ended:
            return None
        self.streams[stream_id] = replace(stream, beat_at=now)
        return self.streams[stream_id]

    def end(self, trip_id: str, stream_id: str, status: TurnStatus, now: float) -> bool:
        if self.streams[stream_id].ended:
            return False
        self.streams[stream_id] = replace(self.streams[stream_id], status=status)
        return True

    def end_if_stale(self, trip_id: str, stream_id: str, beat_at: float, now: float) -> bool:
        if self.streams[stream_id].beat_at != beat_at:
            return False
        return self.end(trip_id, stream_id, "lost", now)

    def request_stop(self, trip_id: str, stream_id: str, by: str) -> TurnStream | None:
        self.streams[stream_id] = replace(self.streams[stream_id], stop_requested_by=by)
        return self.streams[stream_id]

    def get(self, trip_id: str, stream_id: str) -> TurnStream | None:
        return self.streams.get(stream_id)

    def latest(self, trip_id: str) -> TurnStream | None:
        return next(reversed(self.streams.values()), None)

    def batches(self, trip_id: str, stream_id: str, after: int) -> list[StoredBatch]:
        return [b for b in self.stored[stream_id] if b.first >= after]


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def recorder(store: MemoryStreams, clock: Clock, **limits: float) -> TurnRecorder:
    turn = TurnRecorder(store, "trp_1", "msg_1", clock, background=False, **limits)  # type: ignore[arg-type]
    turn.start("ana", "how far?")
    return turn


def test_chunks_are_batched_and_reach_the_store_at_most_flush_s_late() -> None:
    store, clock = MemoryStreams(), Clock()
    turn = recorder(store, clock, flush_s=0.2)
    turn.write(b"a")
    clock.t += 0.1
    turn.write(b"b")
    assert store.stored["msg_1"] == []  # still within the batch's window
    clock.t += 0.15
    turn.write(b"c")
    assert store.stored["msg_1"] == [StoredBatch(0, 3, b"abc")]
    turn.write(b"d")
    turn.finish("finished")
    assert store.stored["msg_1"][-1] == StoredBatch(3, 1, b"d")
    assert store.streams["msg_1"].status == "finished"
    assert store.streams["msg_1"].asked == "how far?"


@pytest.mark.parametrize(("elapsed", "stops"), [(109.0, False), (111.0, True)])
def test_a_turn_ends_itself_at_its_time_limit(elapsed: float, stops: bool) -> None:
    store, clock = MemoryStreams(), Clock()
    turn = recorder(store, clock, deadline_s=110.0)
    clock.t += elapsed
    assert turn.must_stop is stops
    assert turn.stop_reason == ("timeout" if stops else None)


def test_a_runaway_reply_is_stopped_past_its_size() -> None:
    store, clock = MemoryStreams(), Clock()
    turn = recorder(store, clock, flush_s=0.0, max_bytes=1000)
    for _ in range(9):
        turn.write(b"x" * 100)
    assert not turn.must_stop
    turn.write(b"x" * 200)
    assert turn.must_stop
    assert turn.stop_reason == "length"


def test_a_store_that_fails_mid_turn_leaves_readers_to_see_it_lost_not_a_gap() -> None:
    store, clock = MemoryStreams(), Clock()
    turn = recorder(store, clock, flush_s=0.0)
    turn.write(b"1")
    store.fail_appends = True
    with pytest.raises(ConnectionError):
        turn.write(b"2")
    store.fail_appends = False
    turn.write(b"3")  # stored no more: a reader could not tell what is missing
    turn.finish("finished")  # and the turn is not ended as if complete
    assert store.streams["msg_1"].status == "active"
    clock.t += 31
    copy = list(
        follow(
            store,
            store.streams["msg_1"],
            now=clock,
            sleep=lambda _: None,
            interrupted=lambda: [b"!"],
            stale_s=30,
        )
    )
    assert copy == [b"1", b"!"]
    assert store.streams["msg_1"].status == "lost"


def test_what_waits_while_the_model_is_silent_is_stored_by_the_beat_thread() -> None:
    """The turn's start waited for the model's first word: a reader attaching meanwhile got nothing."""
    import time

    store = MemoryStreams()
    turn = TurnRecorder(store, "trp_1", "msg_1", time.time, flush_s=0.05, beat_s=3600)
    turn.start("ana")
    turn.write(b"start")  # within the batch's window: pending
    assert store.stored["msg_1"] == []
    deadline = time.monotonic() + 5
    while not store.stored["msg_1"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert store.stored["msg_1"] == [StoredBatch(0, 1, b"start")]  # with no further write
    turn.finish("finished")
    assert store.streams["msg_1"].status == "finished"
    assert turn._beater is not None
    assert not turn._beater.is_alive()
