"""Load and invoke the template's functions in-process, as the Lambda runtime would.

Each function is imported on first use (its cold start) from ``functions/<name>/`` under a private
module name, with the environment the template gives it. All functions share one process, so two
functions may not give one variable different values: :func:`function_environment` refuses that.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from tripagent_local.template import FunctionSpec, ResolveContext, Template

REGION = "eu-west-1"
ACCOUNT = "000000000000"


@dataclass
class LambdaContext:
    """The attributes of the Lambda context object that Powertools and our handlers read."""

    function_name: str
    timeout_s: int
    memory_limit_in_mb: int = 512
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    function_version: str = "$LATEST"
    log_group_name: str = "/aws/lambda/local"
    log_stream_name: str = "local"
    _deadline: float = 0.0

    def __post_init__(self) -> None:
        self._deadline = time.monotonic() + self.timeout_s

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


class FunctionRegistry:
    """The template's functions, loaded lazily; thread-safe."""

    def __init__(self, template: Template, context: ResolveContext) -> None:
        self.template = template
        self.specs = template.functions()
        self.context = context
        self._modules: dict[str, ModuleType] = {}
        self._lock = threading.Lock()

    def environment(self) -> dict[str, str]:
        """The variables of the functions this process runs: a web-adapter function (its Function URL
        path) is not run locally, and its adapter's own variables (PORT, ...) must not leak in."""
        runs_here = [spec for spec in self.specs.values() if not spec.web_adapter]
        return function_environment(self.template, runs_here, self.context)

    def module(self, logical_id: str) -> ModuleType:
        with self._lock:
            if logical_id not in self._modules:
                code_root = self.template.path.parent / self.specs[logical_id].code_uri
                self._modules[logical_id] = load_function_module(self.specs[logical_id], code_root)
            return self._modules[logical_id]

    def handler(self, logical_id: str) -> Callable[[dict[str, Any], Any], Any]:
        spec = self.specs[logical_id]
        fn: Callable[[dict[str, Any], Any], Any] = getattr(self.module(logical_id), spec.handler_name)
        return fn

    def invoke(self, logical_id: str, event: dict[str, Any]) -> Any:
        spec = self.specs[logical_id]
        return self.handler(logical_id)(event, LambdaContext(logical_id, spec.timeout))


def load_function_module(spec: FunctionSpec, code_root: Path) -> ModuleType:
    path = code_root / spec.module_file
    name = f"tripagent_fn_{spec.logical_id}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def function_environment(template: Template, specs: Any, context: ResolveContext) -> dict[str, str]:
    merged: dict[str, str] = {}
    owners: dict[str, str] = {}
    for spec in specs:
        for name, raw in spec.environment.items():
            value = template.resolve(raw, context)
            if value is None:
                continue
            value = str(value)
            if name in merged and merged[name] != value:
                raise RuntimeError(
                    f"{spec.logical_id} sets {name}={value!r} but {owners[name]} sets {merged[name]!r}: "
                    "the local stack runs every function in one process and cannot give both"
                )
            merged[name], owners[name] = value, spec.logical_id
    return merged


def apply_environment(env: dict[str, str]) -> dict[str, str | None]:
    """Set ``env`` in this process; return what it replaced, for :func:`restore_environment`."""
    previous = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    return previous


def restore_environment(previous: dict[str, str | None]) -> None:
    for name, value in previous.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
