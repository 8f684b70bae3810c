"""The local stack reads template.yaml itself: intrinsic functions and the table schema."""

from __future__ import annotations

from tripagent_local.template import ResolveContext, Template


def test_intrinsics_resolve_against_local_values(template: Template) -> None:
    context = ResolveContext(
        parameters={"ValhallaUrl": "http://127.0.0.1:8002", "AWS::StackName": "s", "LogLevel": "INFO"},
        resources={"TripagentTable": "local-table"},
        attributes={("TripagentTable", "Arn"): "arn:table"},
    )
    assert template.resolve({"Ref": "TripagentTable"}, context) == "local-table"
    assert template.resolve({"Fn::GetAtt": ["TripagentTable", "Arn"]}, context) == "arn:table"
    assert template.resolve({"Fn::Sub": "${AWS::StackName}-bus"}, context) == "s-bus"
    assert template.resolve({"Fn::Join": ["/", ["a", {"Ref": "LogLevel"}]]}, context) == "a/INFO"
    assert template.condition("CreateValhalla", context) is False
    health = template.functions()["HealthFunction"]
    assert template.resolve(health.environment["VALHALLA_URL"], context) == "http://127.0.0.1:8002"


def test_the_table_definition_comes_from_the_template(template: Template) -> None:
    (definition,) = template.table_definitions().values()
    create = definition["create"]
    assert {k["AttributeName"] for k in create["KeySchema"]} == {"PK", "SK"}
    assert [i["IndexName"] for i in create["GlobalSecondaryIndexes"]] == ["GSI1"]
    assert create["StreamSpecification"]["StreamEnabled"] is True
    assert definition["ttl_attribute"] == "ttl"


def test_routes_carry_their_function_and_auth(template: Template) -> None:
    routes = {r.route_key: r for r in template.http_routes()}
    assert routes["GET /health"].public
    assert routes["GET /health"].function_id == "HealthFunction"
    assert not routes["GET /me"].public
