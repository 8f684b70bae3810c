"""The template is the one description of the system: it must lint, transform, and agree with the code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tripagent.entrypoints.http.catalog import PUBLIC_ROUTES, routers_by_function
from tripagent.entrypoints.http.docs import openapi_document
from tripagent_local.paths import REPO_ROOT
from tripagent_local.stack import LocalStack
from tripagent_local.template import Template


@pytest.fixture(scope="module")
def function_modules(template: Template, local_stack: LocalStack) -> dict[str, Any]:
    """Every function as its execution environment loads it, with exactly the environment the template
    gives it (its handler, and the routes of its resolver), from a process of its own."""
    return {
        fid: local_stack.functions.describe(fid)
        for fid, spec in template.functions().items()
        if not spec.web_adapter
    }


def test_cfn_lint_reports_no_error_or_warning(tools_bin: Path) -> None:
    result = subprocess.run(
        [tools_bin / "cfn-lint", "template.yaml", "valhalla/service.yaml"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def transformed(tools_bin: Path) -> dict[str, Any]:
    result = subprocess.run(
        [tools_bin / "python", Path(__file__).with_name("transform.py"), "template.yaml"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    output: dict[str, Any] = json.loads(result.stdout)
    return output


def test_sam_translator_transforms_the_template(transformed: dict[str, Any], template: Template) -> None:
    resources = transformed["Resources"]
    lambdas = {k for k, v in resources.items() if v["Type"] == "AWS::Lambda::Function"}
    assert lambdas == set(template.functions())
    for fid in lambdas:
        props = resources[fid]["Properties"]
        assert props["Runtime"] == "python3.12"
        assert props["Architectures"] == ["x86_64"]
        assert props["TracingConfig"] == {"Mode": "Active"}
        layers = [layer.get("Ref", "") for layer in props["Layers"][:2]]  # SAM suffixes layer ids with a hash
        assert [layer.rstrip("0123456789abcdef") for layer in layers] == [
            "DependenciesLayer",
            "TripagentLayer",
        ]


def test_protected_routes_use_the_jwt_authorizer_and_public_ones_do_not(
    transformed: dict[str, Any], template: Template
) -> None:
    # SAM renders HTTP API routes into the OpenAPI body of the API resource, with their authorizer.
    api = next(
        r
        for r in transformed["Resources"].values()
        if r["Type"] == "AWS::ApiGatewayV2::Api" and r["Properties"].get("ProtocolType") != "WEBSOCKET"
    )
    security = {
        (method.upper(), path): op.get("security")
        for path, ops in api["Properties"]["Body"]["paths"].items()
        for method, op in ops.items()
    }
    assert set(security) == {(r.method, r.path) for r in template.http_routes()}
    for route, scheme in security.items():
        expected = [{"NONE": []}] if route in PUBLIC_ROUTES else [{"JwtAuthorizer": []}]
        assert scheme == expected, route
    authorizer = api["Properties"]["Body"]["components"]["securitySchemes"]["JwtAuthorizer"]
    assert authorizer["x-amazon-apigateway-authorizer"]["type"] == "jwt"


def test_every_table_has_recovery_encryption_ttl_and_a_stream(template: Template) -> None:
    for res in template.resources.values():
        if res["Type"] == "AWS::DynamoDB::Table":
            props = res["Properties"]
            assert props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
            assert props["SSESpecification"]["SSEEnabled"] is True
            assert props["TimeToLiveSpecification"]["Enabled"] is True
            assert props["StreamSpecification"]["StreamViewType"]
            assert res["DeletionPolicy"] == "Retain"


def test_every_asynchronous_function_has_a_failure_destination(template: Template) -> None:
    async_ids = {r.function_id for r in template.event_rules()} | {
        s.function_id for s in template.schedules()
    }
    specs = template.functions()
    missing = sorted(fid for fid in async_ids if not specs[fid].async_failure)
    assert missing == []


def test_every_function_handler_resolves_to_a_callable(
    function_modules: dict[str, Any], template: Template, local_stack: LocalStack
) -> None:
    for fid, spec in template.functions().items():
        if spec.web_adapter:  # a script that serves an ASGI app: check both, with the function's environment
            script = (REPO_ROOT / spec.code_uri / spec.handler).read_text()
            module, app = re.search(r"(\w+):(\w+)", script.split("uvicorn", 1)[1]).groups()  # type: ignore[union-attr]
            path = REPO_ROOT / spec.code_uri / replace(spec, handler=f"{module}.{app}").module_file
            check = "from tripagent_local.runtime import load_module; import sys; "
            check += f"assert callable(load_module('served', sys.argv[1]).{app})"
            loaded = subprocess.run(
                [sys.executable, "-c", check, str(path)],
                env=local_stack.function_environment(fid),
                capture_output=True,
                text=True,
                check=False,
            )
            assert loaded.returncode == 0, (fid, loaded.stderr[-2000:])
            assert os.access(REPO_ROOT / spec.code_uri / spec.handler, os.X_OK), fid
            continue
        assert function_modules[fid]["callable"], fid


def _template_routes(template: Template) -> dict[str, set[tuple[str, str]]]:
    by_function: dict[str, set[tuple[str, str]]] = {}
    for route in template.http_routes():
        by_function.setdefault(route.function_id, set()).add((route.method, route.path))
    return by_function


def test_every_route_has_a_handler_and_every_handler_a_route(
    function_modules: dict[str, Any], template: Template
) -> None:
    expected = _template_routes(template)
    assert set(expected) == set(routers_by_function()), "the catalog lists exactly the HTTP functions"
    for fid, routes in expected.items():
        assert {tuple(r) for r in function_modules[fid]["routes"] or ()} == routes, fid


def test_public_routes_agree_with_the_template(template: Template) -> None:
    assert {(r.method, r.path) for r in template.http_routes() if r.public} == PUBLIC_ROUTES


def test_the_openapi_document_describes_exactly_the_templates_routes(template: Template) -> None:
    document = openapi_document()
    assert document["openapi"].startswith("3.1")
    described = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    assert described == {(r.method, r.path) for r in template.http_routes()}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            public = (method.upper(), path) in PUBLIC_ROUTES
            assert (operation.get("security") == []) is public, (method, path)
            assert ("401" in operation["responses"]) is not public


def test_every_function_has_a_sample_event(template: Template) -> None:
    names = {p.name.split(".")[0] for p in (REPO_ROOT / "events").glob("*.json")}
    assert set(template.functions()) <= names


def test_the_layer_pins_are_the_dev_pins() -> None:
    """What ships (layers/dependencies) is what the tests ran against (requirements/dev.txt)."""

    def pins(path: Path) -> dict[str, str]:
        out = {}
        for line in path.read_text().splitlines():
            if "==" in line and not line.startswith("#"):
                name, version = line.split("==", 1)
                out[name.strip().lower().replace("_", "-")] = version.strip()
        return out

    shipped = pins(REPO_ROOT / "layers" / "dependencies" / "requirements.txt")
    tested = pins(REPO_ROOT / "requirements" / "dev.txt")
    assert {name: tested.get(name) for name in shipped} == shipped


def test_the_websocket_api_routes_to_its_function_and_only_connect_is_open(template: Template) -> None:
    """No JWT authorizer exists for WebSocket APIs: $connect is open and its function checks the token."""
    [api] = template.websocket_apis()
    assert set(api.routes) == {"$connect", "$disconnect", "subscribe", "unsubscribe", "$default"}
    assert {r.function_id for r in api.routes.values()} == {"RealtimeFunction"}
    assert {k for k, r in api.routes.items() if r.two_way} == {"subscribe", "unsubscribe", "$default"}
    env = template.functions()["RealtimeFunction"].environment
    assert {"JWT_ISSUER", "JWT_AUDIENCE", "WEBSOCKET_MANAGEMENT_URL"} <= set(env)


def test_the_web_app_bucket_is_private_and_read_only_by_its_distribution(template: Template) -> None:
    bucket = template.resources["WebBucket"]["Properties"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    origin = template.resources["WebDistribution"]["Properties"]["DistributionConfig"]["Origins"][0]
    assert origin["OriginAccessControlId"] == {"Fn::GetAtt": ["WebOriginAccessControl", "Id"]}
    (statement,) = template.resources["WebBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert statement["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    assert statement["Action"] == "s3:GetObject"
    assert "${WebDistribution}" in statement["Condition"]["StringEquals"]["AWS:SourceArn"]["Fn::Sub"]


def _deployed(template: Template, **parameters: Any) -> Any:
    """The template's values as CloudFormation would resolve them for these parameters."""
    from tripagent_local.template import ResolveContext

    defaults = {name: spec.get("Default", "") for name, spec in template.raw["Parameters"].items()}
    return ResolveContext(
        {**defaults, **parameters, "AWS::Region": "eu-west-1"},
        {"WebAppClient": "client123", "UserPool": "eu-west-1_pool"},
        {
            ("WebDistribution", "DomainName"): "d111.cloudfront.net",
            ("UserPool", "ProviderURL"): "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_pool",
        },
    )


@pytest.mark.parametrize(
    ("parameters", "issuer", "audience", "origins"),
    [
        (  # nothing given: the stack's own user pool and web app
            {},
            "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_pool",
            ["client123"],
            ["https://d111.cloudfront.net"],
        ),
        (  # an issuer of the team's own, and the app served from elsewhere
            {
                "JwtIssuer": "https://id.example/",
                "JwtAudience": ["app"],
                "CorsAllowOrigins": ["https://app.example"],
            },
            "https://id.example/",
            ["app"],
            ["https://app.example"],
        ),
    ],
)
def test_the_authorizer_and_cors_follow_the_parameters(
    template: Template, parameters: dict[str, Any], issuer: str, audience: list[str], origins: list[str]
) -> None:
    context = _deployed(template, **parameters)
    api = template.resources["HttpApi"]["Properties"]
    jwt = template.resolve(api["Auth"]["Authorizers"]["JwtAuthorizer"]["JwtConfiguration"], context)
    assert (jwt["issuer"], jwt["audience"]) == (issuer, audience)
    assert template.resolve(api["CorsConfiguration"]["AllowOrigins"], context) == origins
    url = template.resources["AgentChatStreamFunction"]["Properties"]["FunctionUrlConfig"]
    assert template.resolve(url["Cors"]["AllowOrigins"], context) == origins
    assert "*" not in origins
    assert template.condition("UseStackUserPool", context) is (not parameters)
