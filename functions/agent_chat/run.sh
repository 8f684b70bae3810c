#!/bin/sh
# AgentChatStreamFunction: behind the Lambda Web Adapter (AWS_LAMBDA_EXEC_WRAPPER=/opt/bootstrap), the
# ASGI app serves the Function URL and its response streams to the client as it is produced.
exec python -m uvicorn --host 127.0.0.1 --port "${PORT:-8080}" --no-access-log app:asgi_app
