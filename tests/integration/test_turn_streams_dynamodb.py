"""A turn's stream on DynamoDB Local: readers get every chunk in order while it is written; a stop reaches
the writer; a turn ends once; a writer killed mid-turn is seen to end as lost, and a writer that was only
slow is not declared lost on a beat it has already replaced."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.agent_streams import DynamoTurnStreamStore
from tripagent.adapters.system import new_id
from tripagent.application.agent_streams import TurnRecorder, TurnStream, follow
from tripagent_local.stack import LocalStack

from tests.conftest import REPO_ROOT

INTERRUPTED = [b"data: interrupted\n\n"]


def store(stack: LocalStack) -> DynamoTurnStreamStore:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    return DynamoTurnStreamStore(client, next(iter(stack.table_names.values())))


def read_all(streams: DynamoTurnStreamStore, stream: TurnStream, stale_s: float = 30.0) -> list[bytes]:
    return list(
        follow(
            streams,
            stream,
            now=time.time,
            sleep=time.sleep,
            interrupted=lambda: INTERRUPTED,
            stale_s=stale_s,
            poll_s=0.02,
            until=time.time() + 60,
        )
    )


def test_readers_attached_at_any_moment_get_the_whole_reply_in_order(local_stack: LocalStack) -> None:
    streams, trip_id, stream_id = store(local_stack), new_id("trp"), new_id("msg")
    recorder = TurnRecorder(streams, trip_id, stream_id, time.time, flush_s=0.01)
    recorder.start("alice")
    chunks = [f"data: {i}\n\n".encode() for i in range(300)]
    copies: list[list[bytes]] = []

    def reader() -> None:
        stream = streams.latest(trip_id)
        assert stream is not None
        assert stream.stream_id == stream_id
        copies.append(read_all(streams, stream))

    threads = []
    for i, chunk in enumerate(chunks):
        recorder.write(chunk)
        if i % 100 == 50:  # one reader from the start, others mid-reply
            threads.append(threading.Thread(target=reader))
            threads[-1].start()
        time.sleep(0.001)
    recorder.finish("finished")
    for thread in threads:
        thread.join(30)
    assert len(copies) == 3
    assert all(b"".join(copy) == b"".join(chunks) for copy in copies)
    ended = streams.get(trip_id, stream_id)
    assert ended is not None
    assert ended.status == "finished"
    assert not streams.end(trip_id, stream_id, "failed", time.time())  # a turn ends once


def test_a_members_stop_reaches_the_writer_at_its_next_write(local_stack: LocalStack) -> None:
    streams, trip_id, stream_id = store(local_stack), new_id("trp"), new_id("msg")
    recorder = TurnRecorder(streams, trip_id, stream_id, time.time, flush_s=0.0)
    recorder.start("alice")
    recorder.write(b"data: 1\n\n")
    assert not recorder.must_stop
    asked = streams.request_stop(trip_id, stream_id, "bob")
    assert asked is not None
    assert asked.stop_requested_by == "bob"
    assert asked.status == "active"
    recorder.write(b"data: 2\n\n")
    assert recorder.must_stop
    assert (recorder.stop_reason, recorder.stopped_by) == ("stop", "bob")
    recorder.finish("stopped")
    ended = streams.request_stop(trip_id, stream_id, "carol")
    assert ended is not None
    assert ended.status == "stopped"
    assert ended.stop_requested_by == "bob"
    assert streams.request_stop(trip_id, "msg_unknown", "bob") is None


def test_a_slow_writer_is_not_declared_lost_on_a_beat_it_has_replaced(local_stack: LocalStack) -> None:
    streams, trip_id, stream_id = store(local_stack), new_id("trp"), new_id("msg")
    recorder = TurnRecorder(streams, trip_id, stream_id, time.time, beat_s=3600)
    recorder.start("alice")
    seen = streams.get(trip_id, stream_id)
    assert seen is not None
    assert streams.beat(trip_id, stream_id, time.time() + 1) is not None  # the writer beats meanwhile
    assert not streams.end_if_stale(trip_id, stream_id, seen.beat_at, time.time())
    current = streams.get(trip_id, stream_id)
    assert current is not None
    assert current.status == "active"
    assert streams.end_if_stale(trip_id, stream_id, current.beat_at, time.time())
    lost = streams.get(trip_id, stream_id)
    assert lost is not None
    assert lost.status == "lost"
    assert streams.beat(trip_id, stream_id, time.time()) is None  # the writer learns it must stop
    recorder.finish("finished")  # and its end changes nothing
    after = streams.get(trip_id, stream_id)
    assert after is not None
    assert after.status == "lost"


WRITER = textwrap.dedent(
    """
    import sys, time
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.agent_streams import DynamoTurnStreamStore
    from tripagent.application.agent_streams import TurnRecorder

    port, table, trip_id, stream_id = sys.argv[1:5]
    streams = DynamoTurnStreamStore(dynamodb_client("eu-west-1", f"http://127.0.0.1:{port}"), table)
    recorder = TurnRecorder(streams, trip_id, stream_id, time.time, flush_s=0.0, beat_s=0.2)
    recorder.start("alice")
    for i in range(100000):
        recorder.write(f"data: {i}\\n\\n".encode())
        if i == 5:
            print("writing", flush=True)
        time.sleep(0.05)
    """
)


@pytest.mark.parametrize("stale_s", [1.5])
def test_a_writer_killed_mid_turn_is_seen_to_end_as_lost(local_stack: LocalStack, stale_s: float) -> None:
    streams, trip_id, stream_id = store(local_stack), new_id("trp"), new_id("msg")
    table = next(iter(local_stack.table_names.values()))
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(local_stack.config.dynamodb_port), table, trip_id, stream_id],
        stdout=subprocess.PIPE,
        cwd=REPO_ROOT,
        env={**os.environ, "AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local"},
    )
    assert writer.stdout is not None
    assert writer.stdout.readline() == b"writing\n"
    stream = streams.latest(trip_id)
    assert stream is not None
    assert stream.status == "active"
    copies: list[list[bytes]] = []
    reader = threading.Thread(target=lambda: copies.append(read_all(streams, stream, stale_s)))
    reader.start()
    time.sleep(0.5)
    killed_at = time.monotonic()
    writer.send_signal(signal.SIGKILL)
    writer.wait(10)
    reader.join(stale_s + 10)
    assert copies, "the reader never saw the turn end"
    assert time.monotonic() - killed_at < stale_s + 5
    copy = copies[0]
    assert copy[-1:] == INTERRUPTED
    assert copy[:3] == [b"data: 0\n\n", b"data: 1\n\n", b"data: 2\n\n"]
    ended = streams.get(trip_id, stream_id)
    assert ended is not None
    assert ended.status == "lost"
