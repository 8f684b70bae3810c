"""Run by the tools venv's Python: transform template.yaml with aws-sam-translator, print the result."""

import json
import sys

from samtranslator.parser.parser import Parser
from samtranslator.translator.transform import transform
from samtranslator.yaml_helper import yaml_parse


class NoManagedPolicies:
    """The translator asks IAM for managed policy ARNs only when a template names them by name."""

    def load(self):
        return {}


with open(sys.argv[1]) as fh:
    template = yaml_parse(fh.read())
# What `sam package` does first: local code and nested templates become S3 locations.
for logical_id, resource in template["Resources"].items():
    props = resource.get("Properties", {})
    if resource["Type"] == "AWS::Serverless::Function":
        props["CodeUri"] = f"s3://artifacts/{logical_id}.zip"
    elif resource["Type"] == "AWS::Serverless::LayerVersion":
        props["ContentUri"] = f"s3://artifacts/{logical_id}.zip"
    elif resource["Type"] == "AWS::Serverless::Application":
        props["Location"] = f"https://artifacts.s3.amazonaws.com/{logical_id}.template"
params = {"JwtIssuer": "https://issuer.example/", "JwtAudience": "tripagent", "AWS::Region": "eu-west-1"}
if len(sys.argv) > 2:
    params["ValhallaUrl"] = sys.argv[2]
output = transform(template, params, NoManagedPolicies(), Parser())
json.dump(output, sys.stdout, default=str)
