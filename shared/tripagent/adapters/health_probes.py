"""Health probes for the engines behind the API: the table, the event bus and Valhalla."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tripagent.domain.health import ProbeResult

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_events import EventBridgeClient

    from tripagent.adapters.valhalla import ValhallaClient


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


@dataclass
class TableProbe:
    client: DynamoDBClient
    table_name: str
    name: str = "dynamodb"

    def check(self) -> ProbeResult:
        started = time.perf_counter()
        status = self.client.describe_table(TableName=self.table_name)["Table"].get("TableStatus", "")
        if status != "ACTIVE":
            return ProbeResult("down", _ms(started), f"table {self.table_name} {status}")
        return ProbeResult("ok", _ms(started), f"table {self.table_name} {status}")


@dataclass
class EventBusProbe:
    client: EventBridgeClient
    bus_name: str
    name: str = "eventbridge"

    def check(self) -> ProbeResult:
        started = time.perf_counter()
        arn = self.client.describe_event_bus(Name=self.bus_name).get("Arn", "")
        return ProbeResult("ok", _ms(started), arn)


@dataclass
class RoutingProbe:
    """Valhalla is up *and* its tiles connect two known points (the region build's smoke trip): a bare
    /status is not enough. Without points (a deployment that names none), its status and tiles' age."""

    client: ValhallaClient
    points: list[tuple[float, float]]
    name: str = "valhalla"

    def check(self) -> ProbeResult:
        started = time.perf_counter()
        if not self.points:
            return ProbeResult("ok", _ms(started), self.client.status())
        summary = self.client.route(self.points, costing="bicycle")
        return ProbeResult("ok", _ms(started), f"bicycle route {summary.distance_km:.1f} km")
