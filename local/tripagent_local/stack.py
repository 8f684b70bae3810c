"""The whole local stack: engines, the template's functions and the event bus, wired together."""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tripagent_local import devauth, engines
from tripagent_local.deadletters import DeadLetterLog
from tripagent_local.eventbus import LocalEventBus, LocalRule
from tripagent_local.faults import ConsumerFaults
from tripagent_local.kms import LocalKms
from tripagent_local.lambdas import ACCOUNT, REGION, FunctionRegistry
from tripagent_local.paths import STATE_DIR, TEMPLATE
from tripagent_local.queues import LocalQueues
from tripagent_local.regions import serve
from tripagent_local.regions.bundle import REGIONS_DIR, Bundle
from tripagent_local.regions.valhalla_tiles import serving_config
from tripagent_local.scheduler import LocalScheduler
from tripagent_local.streams import StreamPoller
from tripagent_local.template import QueueSource, ResolveContext, StreamSource, Template, WebSocketApi
from tripagent_local.wsapi import LocalWebSocketApi

STACK_NAME = "tripagent-local"
DYNAMIC_REFERENCE = re.compile(r"\{\{resolve:secretsmanager:([\w-]+):SecretString\}\}")


@dataclass
class StackConfig:
    port: int = 3000
    dynamodb_port: int = 8011
    valhalla_port: int = 8002
    state_dir: Path = STATE_DIR
    template_path: Path = TEMPLATE
    persist: bool = False  # keep DynamoDB Local's data, in persist_dir (default state_dir/dynamodb)
    persist_dir: Path | None = None
    start_engines: bool = True
    overrides: dict[str, str] = field(default_factory=dict)  # values for variables the functions declare
    max_instances: int = 4  # execution environments per function (2 cores: more only queue on the CPU)
    function_log: Any = None  # where the functions' output goes (None: this process's stdout and stderr)
    regions: list[str] = field(default_factory=list)  # built regions or extracts to serve (none: the bundled)
    regions_dir: Path | None = None  # where region bundles are built (default: TRIPAGENT_REGIONS_DIR)

    @classmethod
    def from_env(cls, **kwargs: Any) -> StackConfig:
        env = os.environ
        config = cls(
            port=int(env.get("PORT", 3000)),
            dynamodb_port=int(env.get("DYNAMODB_PORT", 8011)),
            valhalla_port=int(env.get("VALHALLA_PORT", 8002)),
            persist=env.get("PERSIST", "") not in ("", "0", "false") or bool(env.get("PERSIST_DIR")),
            persist_dir=Path(env["PERSIST_DIR"]) if env.get("PERSIST_DIR") else None,
            regions=[r for r in env.get("REGIONS", "").split(",") if r.strip()],
        )
        for key, value in kwargs.items():
            setattr(config, key, value)
        return config

    @classmethod
    def on_free_ports(cls) -> StackConfig:
        """A stack of its own for a tool (``make bench``, ``make eval``): free ports, and the functions'
        INFO lines left out, which would bury the figures."""
        from tripagent_local.engines import free_port

        return cls(
            port=free_port(),
            dynamodb_port=free_port(),
            valhalla_port=free_port(),
            overrides={"POWERTOOLS_LOG_LEVEL": "WARNING"},
        )


class LocalStack:
    def __init__(self, config: StackConfig) -> None:
        self.config = config
        self.template = Template(config.template_path)
        self.engines: dict[str, engines.EngineProcess] = {}  # by name: dynamodb, valhalla
        self.url = f"http://127.0.0.1:{config.port}"
        self.secrets = {
            logical_id: f"local-{logical_id}"
            for logical_id, res in self.template.resources.items()
            if res.get("Type") == "AWS::SecretsManager::Secret"
        }
        self.kms_keys = {
            logical_id: f"local-{logical_id}"
            for logical_id, res in self.template.resources.items()
            if res.get("Type") == "AWS::KMS::Key"
        }
        self.table_names = {
            logical_id: f"{STACK_NAME}-{logical_id}" for logical_id in self.template.table_definitions()
        }
        apis = self.template.websocket_apis()
        self.context = self._resolve_context(apis)
        self.functions = FunctionRegistry(
            self.template,
            self.function_environment,
            max_instances=config.max_instances,
            log=config.function_log,
        )
        self.websocket = (
            LocalWebSocketApi(apis[0], self.functions, f"127.0.0.1:{config.port}") if apis else None
        )
        self.scheduler = LocalScheduler(self.template.schedules(), self.functions.invoke)
        self.dead_letters = DeadLetterLog(config.state_dir / "dead-letters.jsonl")
        # What the event sources invoke, with the faults `tripagent fault consumers` injects (none by default)
        sources: list[StreamSource | QueueSource] = [
            *self.template.stream_sources(),
            *self.template.queue_sources(),
        ]
        self.faults = ConsumerFaults({s.function_id for s in sources if s.report_batch_item_failures})
        consume = self.faults.wrap(self.functions.invoke)
        self.queues = LocalQueues(
            self.queue_specs, self.template.queue_sources(), self.url, consume, self.dead_letters
        )
        self.bus = LocalEventBus(set(self.bus_names.values()), self._rules(), consume, self.dead_letters)
        self._consume = consume
        self.verifier = devauth.verifier(config.state_dir)
        self.kms = LocalKms(config.state_dir / "kms-master.key", set(self.kms_keys.values()))
        self.stream_pollers: list[StreamPoller] = []
        self._valhalla_config: Path | None = None
        self.bundle: Bundle | None = None  # the region served, once started
        self._secrets_lock = threading.Lock()
        declared = {name for spec in self.template.functions().values() for name in spec.environment}
        unknown = set(config.overrides) - declared
        if unknown:  # as `sam local invoke --env-vars`: values only for variables the template declares
            raise ValueError(f"no function declares {', '.join(sorted(unknown))}: the template must")

    # ------------------------------------------------------------------ wiring from the template
    def _parameters(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            name: spec.get("Default", "") for name, spec in self.template.raw.get("Parameters", {}).items()
        }
        params.update(
            {
                "JwtIssuer": devauth.ISSUER,
                "JwtAudience": [devauth.AUDIENCE],
                # The web app is served by this gateway: its origin is the only one a browser may call from.
                "CorsAllowOrigins": [self.url],
                "ValhallaUrl": f"http://127.0.0.1:{self.config.valhalla_port}",
                # make dev runs on the offline rules provider unless the developer names another
                "AiProvider": os.environ.get("AI_PROVIDER", "rules"),
                "AiModel": os.environ.get("AI_MODEL", ""),
                "AiBaseUrl": os.environ.get("AI_BASE_URL", ""),
                # offline by default: no forecasts in reviews unless the developer names a service
                "WeatherBaseUrl": os.environ.get("WEATHER_BASE_URL", ""),
                "AWS::StackName": STACK_NAME,
                "AWS::Region": REGION,
                "AWS::AccountId": ACCOUNT,
                "AWS::Partition": "aws",
                "AWS::URLSuffix": "amazonaws.com",
            }
        )
        if os.environ.get("AI_TIMEOUT_S"):  # the soak holds model calls to a few seconds
            params["AiTimeoutSeconds"] = os.environ["AI_TIMEOUT_S"]
        return params

    def _resolve_context(self, websocket_apis: list[WebSocketApi]) -> ResolveContext:
        params = self._parameters()
        bus_names = {
            logical_id: str(
                self.template.resolve(
                    res.get("Properties", {}).get("Name", f"{STACK_NAME}-{logical_id}"),
                    ResolveContext(params, {}),
                )
            )
            for logical_id, res in self.template.resources.items()
            if res.get("Type") == "AWS::Events::EventBus"
        }
        self.bus_names = bus_names
        self.queue_specs = self.template.queue_specs(ResolveContext(params, {}))
        queue_urls = {q.logical_id: f"{self.url}/{ACCOUNT}/{q.name}" for q in self.queue_specs}
        resources: dict[str, Any] = {
            **self.table_names,
            **bus_names,
            **self.kms_keys,
            **self.secrets,
            **queue_urls,  # Ref of a queue is its URL
            **{api.logical_id: f"local{api.logical_id.lower()}" for api in websocket_apis},
            # The region is served from a local bundle (PLACES_PATH), not from S3 behind an SSM pointer: the
            # variables that name them are left unset, as an absent optional value is
            **{
                logical_id: None
                for logical_id, res in self.template.resources.items()
                if res.get("Type") in ("AWS::S3::Bucket", "AWS::SSM::Parameter")
            },
        }
        attributes: dict[tuple[str, str], Any] = {}
        for q in self.queue_specs:
            attributes[(q.logical_id, "Arn")] = f"arn:aws:sqs:{REGION}:{ACCOUNT}:{q.name}"
            attributes[(q.logical_id, "QueueName")] = q.name
            attributes[(q.logical_id, "QueueUrl")] = queue_urls[q.logical_id]
        for logical_id, name in self.table_names.items():
            attributes[(logical_id, "Arn")] = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"
        for logical_id, key_id in self.kms_keys.items():
            attributes[(logical_id, "Arn")] = f"arn:aws:kms:{REGION}:{ACCOUNT}:key/{key_id}"
        for logical_id, name in bus_names.items():
            attributes[(logical_id, "Arn")] = LocalEventBus.bus_arn(name)
            attributes[(logical_id, "Name")] = name
        return ResolveContext(params, resources, attributes)

    def _rules(self) -> list[LocalRule]:
        rules = []
        for rule in self.template.event_rules():
            bus = self.template.resolve(rule.bus, self.context) if rule.bus else "default"
            rules.append(
                LocalRule(f"{rule.function_id}.{rule.name}", rule.function_id, str(bus), rule.pattern)
            )
        return rules

    def _secret_value(self, name: str) -> str:
        """Local values for the template's generated secrets, made once and kept in .local/. Under a lock:
        environments start concurrently, and two of them must not mint two values for one secret."""
        with self._secrets_lock:
            path = self.config.state_dir / "secrets.json"
            values: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
            if name not in values:
                values[name] = secrets.token_urlsafe(36)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(values))
                path.chmod(0o600)
            return values[name]

    def function_environment(self, logical_id: str) -> dict[str, str]:
        """Exactly what Lambda would give this function: its own variables and the Globals, with the
        parameters and references resolved (a variable the template does not give it is not there), what
        the runtime sets, and the local redirects to the engines the stack emulates."""
        spec = self.functions.specs[logical_id]
        env: dict[str, str] = {}
        for name, raw in spec.environment.items():
            value = self.template.resolve(raw, self.context)
            if value is not None:  # CloudFormation dynamic references, resolved as a deploy would
                env[name] = DYNAMIC_REFERENCE.sub(lambda m: self._secret_value(m.group(1)), str(value))
        declared = set(env)
        env.update({name: value for name, value in self.config.overrides.items() if name in declared})
        env.update(
            {  # the Lambda runtime's own
                "AWS_REGION": REGION,
                "AWS_DEFAULT_REGION": REGION,
                "AWS_ACCESS_KEY_ID": "local",
                "AWS_SECRET_ACCESS_KEY": "local",
                "AWS_LAMBDA_FUNCTION_NAME": logical_id,
                "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
                "AWS_LAMBDA_FUNCTION_TIMEOUT": str(spec.timeout),
                "LAMBDA_TASK_ROOT": str(self.template.path.parent / spec.code_uri),
                "_HANDLER": spec.handler,
                "TZ": ":UTC",
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "LANG": "C.UTF-8",
            }
        )
        env.update(
            {  # the engines the stack runs in place of AWS's (none stands in for a template variable)
                "DYNAMODB_ENDPOINT_URL": f"http://127.0.0.1:{self.config.dynamodb_port}",
                "EVENTS_ENDPOINT_URL": self.url,
                "KMS_ENDPOINT_URL": self.url,
                "SQS_ENDPOINT_URL": self.url,
                "AI_ALLOW_PRIVATE_BASE_URLS": "true",
                "POWERTOOLS_TRACE_DISABLED": "true",
                "POWERTOOLS_METRICS_DISABLED": "true",
                # Functions that check tokens themselves fetch the local issuer's keys from the gateway.
                "JWT_JWKS_URL": f"{self.url}/.well-known/jwks.json",
            }
        )
        if self.bundle is not None:  # the served region's index, as REGION_PARAMETER's copy would be in AWS
            env["PLACES_PATH"] = str(self.bundle.places)
            env["HEALTH_ROUTE"] = self.bundle.health_route
        if self.websocket is not None and "WEBSOCKET_MANAGEMENT_URL" in declared:
            env["WEBSOCKET_MANAGEMENT_URL"] = f"{self.url}/{self.websocket.api.stage}"  # the local API's
        if os.environ.get("AI_API_KEY") and "AI_PROVIDER" in declared:  # a developer's own key
            env["AI_API_KEY"] = os.environ["AI_API_KEY"]
        return env

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if not self.config.start_engines:
            return
        try:
            self.bundle = serve.resolve(self.config.regions, self.config.regions_dir or REGIONS_DIR)
            # A config of this process's own: a stack stopping on the same port cannot delete it.
            port = self.config.valhalla_port
            config_path = self.config.state_dir / "valhalla" / f"valhalla-{port}-{os.getpid()}.json"
            config_path.parent.mkdir(parents=True, exist_ok=True)
            config_path.write_text(
                json.dumps(serving_config(self.bundle.tiles_tar, f"tcp://127.0.0.1:{port}"))
            )
            self._valhalla_config = config_path
            self.start_engine("dynamodb")
            self.start_engine("valhalla")
            self._start_stream_pollers()
            self.queues.start()
            self.scheduler.start()
        except BaseException:
            self.stop()
            raise

    def start_engine(self, name: str) -> None:
        """Start one engine on its port (again, after ``stop_engine``: a fault injected and healed)."""
        if name in self.engines:
            return
        log_dir = self.config.state_dir / "logs"
        if name == "dynamodb":
            db_path = None
            if self.config.persist:
                db_path = self.config.persist_dir or self.config.state_dir / "dynamodb"
            self.engines[name] = engines.start_dynamodb_local(
                self.config.dynamodb_port, log_dir, db_path=db_path
            )
            engines.ensure_tables(
                engines.dynamodb_client(self.config.dynamodb_port), self.template, self.table_names
            )
        elif name == "valhalla":
            assert self._valhalla_config is not None, "the tiles are built when the stack starts"
            self.engines[name] = engines.start_valhalla(
                self._valhalla_config, self.config.valhalla_port, log_dir
            )
        else:
            raise ValueError(f"no engine {name!r}: dynamodb or valhalla")

    def stop_engine(self, name: str) -> None:
        engine = self.engines.pop(name, None)
        if engine is not None:
            engine.stop()
            if name == "valhalla":  # it must free its port before it can start again
                deadline = time.monotonic() + 15
                while not engines.port_is_free(self.config.valhalla_port) and time.monotonic() < deadline:
                    time.sleep(0.1)

    def _start_stream_pollers(self) -> None:
        db = engines.dynamodb_client(self.config.dynamodb_port)
        streams = engines.dynamodb_streams_client(self.config.dynamodb_port)
        for source in self.template.stream_sources():
            name = self.table_names[source.table_id]

            def stream_arn(name: str = name) -> str:
                return str(db.describe_table(TableName=name)["Table"]["LatestStreamArn"])

            poller = StreamPoller(
                streams,
                stream_arn(),
                source,
                self._consume,
                self.dead_letters,
                stream_arn_of=stream_arn,
            )
            poller.start()
            self.stream_pollers.append(poller)

    def wait_idle(self, timeout_s: float = 30.0) -> bool:
        """Wait until nothing is in flight anywhere: the bus, the queues and every stream poller idle, and
        nothing delivered while we looked (one delivery may cause another: the outbox's event, its turn,
        that turn's push). For tests and the soak, instead of sleeping and hoping."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            asked, before = time.monotonic(), self._activity()

            def remaining() -> float:
                return max(0.0, deadline - time.monotonic())

            quiet = (
                self.bus.wait_idle(remaining())
                and self.queues.wait_idle(remaining())
                and all(p.quiet_since(asked, remaining()) for p in self.stream_pollers)
            )
            if not quiet:
                return False
            if self._activity() == before:
                return True
        return False

    def _activity(self) -> int:
        return (
            len(self.bus.deliveries)
            + len(self.dead_letters.records)
            + len(self.queues.invocations)
            + sum(p.delivered for p in self.stream_pollers)
        )

    def stop(self) -> None:
        self.scheduler.stop()
        self.queues.stop()
        for poller in self.stream_pollers:
            poller.stop()
        self.stream_pollers.clear()
        self.bus.shutdown()
        self.functions.close()  # before the engines: a function in flight still reaches them
        for name in reversed(list(self.engines)):
            self.stop_engine(name)
        if self._valhalla_config is not None:  # one config per port: do not leave them piling up
            self._valhalla_config.unlink(missing_ok=True)
            self._valhalla_config = None
