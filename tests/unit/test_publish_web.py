"""Publishing the web app to a deployed stack (S3 and CloudFront in moto)."""

from __future__ import annotations

import json
from pathlib import Path

import boto3
import pytest
from moto import mock_aws
from tripagent_local.publish_web import IMMUTABLE, REVALIDATE, publish

OUTPUTS = {
    "ApiUrl": "https://api.example/",
    "AgentChatStreamUrl": "https://chat.lambda-url.example/",
    "WebSocketUrl": "wss://ws.example/live",
    "OidcAuthority": "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_pool",
    "OidcClientId": "client123",
    "WebBucketName": "web-bucket",
    "WebUrl": "https://d111.cloudfront.net/",
}


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "app-ABC123.js").write_text(
        "console.log(1)\n//# sourceMappingURL=app-ABC123.js.map"
    )
    (tmp_path / "assets" / "app-ABC123.js.map").write_text('{"sourcesContent": ["the whole source"]}')
    (tmp_path / "index.html").write_text("<!doctype html>")
    (tmp_path / "meta.json").write_text("{}")
    return tmp_path


@mock_aws
def test_the_app_and_its_configuration_are_uploaded_with_their_cache_rules(dist: Path) -> None:
    s3 = boto3.client("s3", region_name="us-east-1")
    s3.create_bucket(Bucket="web-bucket")
    cloudfront = boto3.client("cloudfront", region_name="us-east-1")
    distribution = cloudfront.create_distribution(
        DistributionConfig={
            "CallerReference": "x",
            "Comment": "",
            "Enabled": True,
            "Origins": {"Quantity": 1, "Items": [{"Id": "o", "DomainName": "web-bucket.s3.amazonaws.com"}]},
            "DefaultCacheBehavior": {"TargetOriginId": "o", "ViewerProtocolPolicy": "redirect-to-https"},
        }
    )["Distribution"]["Id"]
    keys = publish(s3, cloudfront, {**OUTPUTS, "WebDistributionId": distribution}, dist=dist)
    # the entry point after its assets; the source maps (the full sources) are never published
    assert keys == ["assets/app-ABC123.js", "index.html", "config.json"]
    asset = s3.get_object(Bucket="web-bucket", Key="assets/app-ABC123.js")
    assert (asset["CacheControl"], asset["ContentType"]) == (IMMUTABLE, "text/javascript")
    assert s3.get_object(Bucket="web-bucket", Key="index.html")["CacheControl"] == REVALIDATE
    config = json.loads(s3.get_object(Bucket="web-bucket", Key="config.json")["Body"].read())
    assert config["apiUrl"] == "https://api.example"
    assert config["agentUrl"] == "https://chat.lambda-url.example"
    assert config["oidc"] == {
        "authority": OUTPUTS["OidcAuthority"],
        "metadataUrl": None,  # Cognito's discovery is under its issuer
        "clientId": "client123",
        "scope": "openid profile",
    }
    invalidations = cloudfront.list_invalidations(DistributionId=distribution)["InvalidationList"]
    assert invalidations["Quantity"] == 1


def test_nothing_is_published_before_the_app_is_built(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="make web"):
        publish(None, None, OUTPUTS, dist=tmp_path)
