"""Run by a bare Python 3.12 (-S: no site-packages) with only the built layers and one function on
sys.path, as the Lambda runtime would: import the handler, call it with an event, print the result."""

import importlib
import json
import sys

module_name, handler_name, event_path = sys.argv[1:4]


class Context:
    function_name = "built"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:eu-west-1:000000000000:function:built"
    aws_request_id = "built-request"

    def get_remaining_time_in_millis(self):
        return 10_000


handler = getattr(importlib.import_module(module_name), handler_name)
with open(event_path) as fh:
    event = json.load(fh)
result = handler(event, Context())
print(
    json.dumps(
        {"result": result, "paths": [m.__file__ for m in (sys.modules["pydantic"], sys.modules["tripagent"])]}
    )
)
