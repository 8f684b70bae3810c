"""The real engines behind the local stack: DynamoDB Local and Valhalla."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from botocore.exceptions import ClientError
from tripagent.adapters.valhalla import ValhallaClient
from tripagent.errors import RoutingUnavailable
from tripagent_local.engines import dynamodb_client
from tripagent_local.stack import LocalStack
from tripagent_local.template import Template

SANT_JULIA = (42.4636, 1.4913)
SOLDEU = (42.5766, 1.6684)
PAS_DE_LA_CASA = (42.5426, 1.7330)


def test_the_table_is_created_from_the_templates_own_definition(
    local_stack: LocalStack, template: Template
) -> None:
    client = dynamodb_client(local_stack.config.dynamodb_port)
    ((logical_id, definition),) = template.table_definitions().items()
    table = client.describe_table(TableName=local_stack.table_names[logical_id])["Table"]
    assert table["KeySchema"] == definition["create"]["KeySchema"]
    assert {a["AttributeName"] for a in table["AttributeDefinitions"]} == {
        a["AttributeName"] for a in definition["create"]["AttributeDefinitions"]
    }
    assert [g["IndexName"] for g in table["GlobalSecondaryIndexes"]] == ["GSI1"]
    assert table["StreamSpecification"]["StreamViewType"] == "NEW_AND_OLD_IMAGES"
    ttl = client.describe_time_to_live(TableName=table["TableName"])["TimeToLiveDescription"]
    assert ttl["AttributeName"] == "ttl"


def _race(client: Any, table: str, pk: str, contenders: int, conditional: bool) -> int:
    def attempt(i: int) -> bool:
        kwargs: dict[str, Any] = {
            "TableName": table,
            "Key": {"PK": {"S": pk}, "SK": {"S": "META"}},
            "UpdateExpression": "SET version = :next, winner = :who",
            "ExpressionAttributeValues": {":next": {"N": "2"}, ":who": {"N": str(i)}},
        }
        if conditional:
            kwargs["ConditionExpression"] = "version = :expected"
            kwargs["ExpressionAttributeValues"][":expected"] = {"N": "1"}
        try:
            client.update_item(**kwargs)
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            return False
        return True

    client.put_item(TableName=table, Item={"PK": {"S": pk}, "SK": {"S": "META"}, "version": {"N": "1"}})
    with ThreadPoolExecutor(max_workers=contenders) as pool:
        return sum(pool.map(attempt, range(contenders)))


@pytest.mark.parametrize("repetition", range(5))
def test_dynamodb_local_proves_a_conditional_write_race(local_stack: LocalStack, repetition: int) -> None:
    client = dynamodb_client(local_stack.config.dynamodb_port)
    table = next(iter(local_stack.table_names.values()))
    assert _race(client, table, f"race#{repetition}", 20, conditional=True) == 1


def test_without_the_condition_every_writer_wins_the_control(local_stack: LocalStack) -> None:
    client = dynamodb_client(local_stack.config.dynamodb_port)
    table = next(iter(local_stack.table_names.values()))
    assert _race(client, table, "race#control", 20, conditional=False) == 20


def test_valhalla_routes_a_road_bike_between_two_andorran_towns(local_stack: LocalStack) -> None:
    client = ValhallaClient(f"http://127.0.0.1:{local_stack.config.valhalla_port}")
    summary = client.route([SANT_JULIA, SOLDEU], options={"bicycle_type": "Road"})
    assert 20 < summary.distance_km < 35  # about 26 km by the CG-1 and CG-2
    assert summary.duration_s > 0
    assert summary.shape


def test_heights_come_from_the_tiles_with_no_elevation_file_at_run_time(local_stack: LocalStack) -> None:
    """The region build put the SRTM tile's heights into the routing tiles: the service that reads only
    tiles.tar answers a route's heights (and /height, which needs the files, answers none)."""
    assert local_stack.bundle is not None
    config = json.loads(local_stack._valhalla_config.read_text())  # type: ignore[union-attr]
    assert config["mjolnir"]["tile_extract"] == str(local_stack.bundle.tiles_tar)
    assert not config["additional_data"]["elevation"]
    client = ValhallaClient(f"http://127.0.0.1:{local_stack.config.valhalla_port}")
    summary = client.route([SANT_JULIA, PAS_DE_LA_CASA], height_interval_m=100)
    heights = [h for leg in summary.leg_heights for h in leg if h is not None]
    assert len(heights) > 100
    assert 850 < heights[0] < 1000  # Sant Julià
    assert 2000 < max(heights) < 2450  # up to Pas de la Casa, by the Envalira


def test_a_stopped_router_is_routing_unavailable() -> None:
    from tripagent_local.engines import free_port

    with pytest.raises(RoutingUnavailable):
        ValhallaClient(f"http://127.0.0.1:{free_port()}", timeout_s=0.5).route([SANT_JULIA, SOLDEU])
