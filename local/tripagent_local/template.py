"""Read ``template.yaml`` the way CloudFormation would, for the local stack and the infra tests.

Only what the local stack needs: functions with their handler, environment and events (HTTP API routes,
EventBridge rules, schedules), the table definition, and a resolver for the intrinsic functions the
template uses (Ref, Fn::GetAtt, Fn::If, Fn::Equals, Fn::Sub, Fn::Join).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tripagent_local.paths import TEMPLATE


class _CfnLoader(yaml.SafeLoader):
    """YAML loader that turns ``!Ref x`` into ``{"Ref": x}`` and ``!Sub``... into ``{"Fn::Sub": ...}``."""


def _construct_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> dict[str, Any]:
    key = "Ref" if suffix == "Ref" else f"Fn::{suffix}"
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
        if suffix == "GetAtt" and isinstance(value, str):
            value = value.split(".", 1)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)  # type: ignore[arg-type]
    return {key: value}


_CfnLoader.add_multi_constructor("!", _construct_tag)


def load_yaml(path: Path) -> dict[str, Any]:
    with path.open() as fh:
        data: dict[str, Any] = yaml.load(fh, Loader=_CfnLoader)  # noqa: S506 - SafeLoader subclass
    return data


@dataclass(frozen=True)
class HttpRoute:
    function_id: str
    method: str
    path: str  # template syntax: /trips/{tripId}
    public: bool

    @property
    def route_key(self) -> str:
        return f"{self.method} {self.path}"

    def regex(self) -> re.Pattern[str]:
        pattern = re.sub(r"\{(\w+)\+?\}", r"(?P<\1>[^/]+)", self.path)
        return re.compile(f"^{pattern}$")


@dataclass(frozen=True)
class EventRule:
    function_id: str
    name: str
    pattern: dict[str, Any]
    bus: Any


@dataclass(frozen=True)
class StreamSource:
    """A DynamoDB stream event source: which table's stream feeds which function, and how."""

    function_id: str
    name: str
    table_id: str
    batch_size: int
    filters: list[dict[str, Any]]
    max_retries: int
    report_batch_item_failures: bool
    on_failure: bool


@dataclass(frozen=True)
class QueueSpec:
    logical_id: str
    name: str
    fifo: bool
    delay_s: int
    max_receive_count: int | None


@dataclass(frozen=True)
class QueueSource:
    function_id: str
    name: str
    queue_id: str
    batch_size: int
    report_batch_item_failures: bool


@dataclass(frozen=True)
class WebSocketRoute:
    route_key: str
    function_id: str
    two_way: bool  # has a route response: the function's answer goes back to the client


@dataclass(frozen=True)
class WebSocketApi:
    logical_id: str
    stage: str
    routes: dict[str, WebSocketRoute]


@dataclass(frozen=True)
class Schedule:
    function_id: str
    name: str
    expression: str


@dataclass
class FunctionSpec:
    logical_id: str
    code_uri: str
    handler: str
    environment: dict[str, Any] = field(default_factory=dict)
    timeout: int = 3
    async_failure: bool = False  # has an on-failure destination or a DLQ

    @property
    def web_adapter(self) -> bool:
        """A function run by the Lambda Web Adapter: its handler is a script that starts a web server."""
        return self.handler.endswith(".sh")

    @property
    def module_file(self) -> str:
        return self.handler.rsplit(".", 1)[0].replace(".", "/") + ".py"

    @property
    def handler_name(self) -> str:
        return self.handler.rsplit(".", 1)[1]


class Template:
    def __init__(self, path: Path = TEMPLATE) -> None:
        self.path = path
        self.raw = load_yaml(path)
        self.resources: dict[str, Any] = self.raw.get("Resources", {})
        self.globals: dict[str, Any] = self.raw.get("Globals", {}).get("Function", {})

    # ------------------------------------------------------------------ functions and events
    def functions(self) -> dict[str, FunctionSpec]:
        out = {}
        for logical_id, res in self.resources.items():
            if res.get("Type") != "AWS::Serverless::Function":
                continue
            props = res.get("Properties", {})
            env = dict(self.globals.get("Environment", {}).get("Variables", {}))
            env.update(props.get("Environment", {}).get("Variables", {}))
            event_config = props.get("EventInvokeConfig", {}).get("DestinationConfig", {})
            stream_events = [
                e for e in (props.get("Events") or {}).values() if e.get("Type") in ("DynamoDB", "Kinesis")
            ]
            streams_have_destination = bool(stream_events) and all(
                (e.get("Properties", {}).get("DestinationConfig") or {}).get("OnFailure")
                for e in stream_events
            )
            out[logical_id] = FunctionSpec(
                logical_id=logical_id,
                code_uri=props["CodeUri"],
                handler=props.get("Handler", self.globals.get("Handler", "app.handler")),
                environment=env,
                timeout=int(props.get("Timeout", self.globals.get("Timeout", 3))),
                async_failure=bool(
                    props.get("DeadLetterQueue") or event_config.get("OnFailure") or streams_have_destination
                ),
            )
        return out

    def _events(self, kind: str) -> list[tuple[str, str, dict[str, Any]]]:
        found = []
        for logical_id, res in self.resources.items():
            if res.get("Type") != "AWS::Serverless::Function":
                continue
            for name, event in (res.get("Properties", {}).get("Events") or {}).items():
                if event.get("Type") == kind:
                    found.append((logical_id, name, event.get("Properties", {})))
        return found

    def http_routes(self) -> list[HttpRoute]:
        routes = []
        for logical_id, _, props in self._events("HttpApi"):
            auth = (props.get("Auth") or {}).get("Authorizer")
            routes.append(
                HttpRoute(logical_id, props["Method"].upper(), props["Path"], public=auth == "NONE")
            )
        return routes

    def event_rules(self) -> list[EventRule]:
        return [
            EventRule(fid, name, props.get("Pattern", {}), props.get("EventBusName"))
            for fid, name, props in self._events("EventBridgeRule")
        ]

    def stream_sources(self) -> list[StreamSource]:
        sources = []
        for fid, name, props in self._events("DynamoDB"):
            stream = props["Stream"]
            if not (isinstance(stream, dict) and "Fn::GetAtt" in stream):
                raise ValueError(
                    f"{fid}.{name}: the local stack follows streams given as !GetAtt Table.StreamArn"
                )
            filters = [
                json.loads(f["Pattern"]) for f in (props.get("FilterCriteria") or {}).get("Filters", [])
            ]
            sources.append(
                StreamSource(
                    function_id=fid,
                    name=name,
                    table_id=stream["Fn::GetAtt"][0],
                    batch_size=int(props.get("BatchSize", 100)),
                    filters=filters,
                    max_retries=int(props.get("MaximumRetryAttempts", -1)),
                    report_batch_item_failures="ReportBatchItemFailures"
                    in (props.get("FunctionResponseTypes") or []),
                    on_failure=bool((props.get("DestinationConfig") or {}).get("OnFailure")),
                )
            )
        return sources

    def websocket_apis(self) -> list[WebSocketApi]:
        """WebSocket APIs (AWS::ApiGatewayV2::Api, WEBSOCKET) with their stage and Lambda-proxy routes."""
        apis = []
        for api_id, res in self.resources.items():
            props = res.get("Properties", {})
            if res.get("Type") != "AWS::ApiGatewayV2::Api" or props.get("ProtocolType") != "WEBSOCKET":
                continue
            stage = next(
                (
                    r["Properties"]["StageName"]
                    for r in self.resources.values()
                    if r.get("Type") == "AWS::ApiGatewayV2::Stage"
                    and r["Properties"].get("ApiId") == {"Ref": api_id}
                ),
                "$default",
            )
            routes = {}
            for res_route in self.resources.values():
                route = res_route.get("Properties", {})
                if res_route.get("Type") != "AWS::ApiGatewayV2::Route" or route.get("ApiId") != {
                    "Ref": api_id
                }:
                    continue
                target = route.get("Target", {})
                template = target.get("Fn::Sub", "") if isinstance(target, dict) else str(target)
                found = re.search(r"integrations/\$\{(\w+)\}", template if isinstance(template, str) else "")
                if not found:
                    continue
                uri = self.resources[found.group(1)]["Properties"]["IntegrationUri"]
                uri_text = uri.get("Fn::Sub", "") if isinstance(uri, dict) else str(uri)
                function = re.search(r"\$\{(\w+)\.Arn\}", uri_text)
                if not function:
                    continue
                key = route["RouteKey"]
                routes[key] = WebSocketRoute(
                    key, function.group(1), "RouteResponseSelectionExpression" in route
                )
            apis.append(WebSocketApi(api_id, str(stage), routes))
        return apis

    def queue_specs(self, context: ResolveContext) -> list[QueueSpec]:
        specs = []
        for logical_id, res in self.resources.items():
            if res.get("Type") != "AWS::SQS::Queue":
                continue
            props = res.get("Properties", {})
            fifo = bool(props.get("FifoQueue"))
            name = self.resolve(props.get("QueueName"), context) if props.get("QueueName") else None
            redrive = props.get("RedrivePolicy") or {}
            specs.append(
                QueueSpec(
                    logical_id=logical_id,
                    name=str(name or f"{logical_id}{'.fifo' if fifo else ''}"),
                    fifo=fifo,
                    delay_s=int(self.resolve(props.get("DelaySeconds", 0), context) or 0),
                    max_receive_count=int(redrive["maxReceiveCount"])
                    if redrive.get("maxReceiveCount")
                    else None,
                )
            )
        return specs

    def queue_sources(self) -> list[QueueSource]:
        sources = []
        for fid, name, props in self._events("SQS"):
            queue = props["Queue"]
            if not (isinstance(queue, dict) and "Fn::GetAtt" in queue):
                raise ValueError(f"{fid}.{name}: the local stack follows queues given as !GetAtt Queue.Arn")
            sources.append(
                QueueSource(
                    function_id=fid,
                    name=name,
                    queue_id=queue["Fn::GetAtt"][0],
                    batch_size=int(props.get("BatchSize", 10)),
                    report_batch_item_failures="ReportBatchItemFailures"
                    in (props.get("FunctionResponseTypes") or []),
                )
            )
        return sources

    def schedules(self) -> list[Schedule]:
        out = [
            Schedule(fid, name, props.get("Schedule") or props.get("ScheduleExpression", ""))
            for kind in ("Schedule", "ScheduleV2")
            for fid, name, props in self._events(kind)
        ]
        return out

    # ------------------------------------------------------------------ tables
    def table_definitions(self) -> dict[str, dict[str, Any]]:
        """CreateTable arguments for every ``AWS::DynamoDB::Table`` (the one schema source)."""
        tables = {}
        for logical_id, res in self.resources.items():
            if res.get("Type") != "AWS::DynamoDB::Table":
                continue
            props = res["Properties"]
            definition: dict[str, Any] = {
                "AttributeDefinitions": props["AttributeDefinitions"],
                "KeySchema": props["KeySchema"],
                "BillingMode": props.get("BillingMode", "PAY_PER_REQUEST"),
            }
            if props.get("GlobalSecondaryIndexes"):
                definition["GlobalSecondaryIndexes"] = props["GlobalSecondaryIndexes"]
            if props.get("StreamSpecification"):
                definition["StreamSpecification"] = {"StreamEnabled": True, **props["StreamSpecification"]}
            ttl = props.get("TimeToLiveSpecification")
            tables[logical_id] = {
                "create": definition,
                "ttl_attribute": ttl["AttributeName"] if ttl else None,
            }
        return tables

    # ------------------------------------------------------------------ intrinsics
    def resolve(self, value: Any, context: ResolveContext) -> Any:
        if isinstance(value, list):
            return [self.resolve(v, context) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) != 1:
            return {k: self.resolve(v, context) for k, v in value.items()}
        ((key, arg),) = value.items()
        if key == "Ref":
            return context.ref(arg)
        if key == "Fn::GetAtt":
            return context.get_att(arg[0], arg[1])
        if key == "Fn::If":
            cond, yes, no = arg
            return self.resolve(yes if self.condition(cond, context) else no, context)
        if key == "Fn::Equals":
            left, right = (self.resolve(v, context) for v in arg)
            return left == right
        if key == "Fn::Join":
            sep, items = arg
            resolved = self.resolve(items, context)  # a list, or an intrinsic giving one (a list parameter)
            values = resolved if isinstance(resolved, list) else [resolved]
            return sep.join(str(self.resolve(i, context)) for i in values)
        if key == "Fn::Sub":
            text = arg if isinstance(arg, str) else arg[0]
            return re.sub(r"\$\{([\w:.]+)\}", lambda m: str(context.sub(m.group(1))), text)
        return {key: self.resolve(arg, context)}

    def condition(self, name: str, context: ResolveContext) -> bool:
        return bool(self.resolve(self.raw.get("Conditions", {})[name], context))


@dataclass
class ResolveContext:
    """Local values for parameters, resources and their attributes."""

    parameters: dict[str, Any]
    resources: dict[str, Any]
    attributes: dict[tuple[str, str], Any] = field(default_factory=dict)

    def ref(self, name: str) -> Any:
        if name in self.parameters:
            return self.parameters[name]
        if name in self.resources:
            return self.resources[name]
        if name == "AWS::NoValue":
            return None
        raise KeyError(f"the local stack has no value for Ref {name}")

    def sub(self, name: str) -> Any:
        """A ``${...}`` of Fn::Sub: a Ref, or ``Resource.Attribute`` for a GetAtt."""
        if "." in name and not name.startswith("AWS::"):
            resource, attribute = name.split(".", 1)
            return self.get_att(resource, attribute)
        return self.ref(name)

    def get_att(self, resource: str, attribute: str) -> Any:
        try:
            return self.attributes[(resource, attribute)]
        except KeyError:
            raise KeyError(f"the local stack has no value for {resource}.{attribute}") from None
