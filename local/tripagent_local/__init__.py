"""Tripagent's local stack: real engines (DynamoDB Local, Valhalla) plus a gateway and an event bus
driven by ``template.yaml``. Developer tooling only: nothing here ships to Lambda."""
