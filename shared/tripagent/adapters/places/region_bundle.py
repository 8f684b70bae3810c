"""The places index the functions read: the served region bundle's ``places.sqlite``.

- Locally, the stack points ``PLACES_PATH`` at the bundle it serves.
- In AWS, ``REGION_PARAMETER`` names the SSM parameter the region builder moves (``name/version``) once a
  new version has routed its smoke trip, and ``REGIONS_BUCKET`` holds
  ``regions/<name>/<version>/places.sqlite``. The index is copied into ``/tmp`` once per execution
  environment (a file per version: a new version is a new file) and its version logged. ``/tmp`` rather than
  EFS: a country's index is tens of MB, read at memory speed once copied, with no VPC mount to wait on; a
  continent's (GBs) would be EFS's (README "Regions").
- Without either, or while the parameter still says ``packaged`` (no region built yet), the index
  packaged with the functions (the bundled region).
"""

from __future__ import annotations

import logging
import os
from functools import cache
from pathlib import Path

PACKAGED = Path(__file__).resolve().parents[2] / "data" / "places.sqlite"
logger = logging.getLogger(__name__)


@cache
def places_file() -> Path:
    from tripagent.settings import region_settings

    s = region_settings()
    if s.places_path:
        return Path(s.places_path)
    if s.region_parameter and s.regions_bucket:
        return _downloaded(s.region_parameter, s.regions_bucket, Path(s.regions_cache_dir), s.region)
    return PACKAGED


def _downloaded(parameter: str, bucket: str, cache_dir: Path, region: str) -> Path:
    from tripagent.adapters.aws import s3_client, ssm_client

    current = str(ssm_client(region).get_parameter(Name=parameter)["Parameter"]["Value"]).strip().strip("/")
    if current == "packaged":
        logger.info("places index packaged", extra={"region_bundle": current})
        return PACKAGED
    target = cache_dir / f"places-{current.replace('/', '-')}.sqlite"
    if not target.exists():
        partial = target.with_suffix(f".{os.getpid()}.part")
        s3_client(region).download_file(bucket, f"regions/{current}/places.sqlite", str(partial))
        partial.replace(target)  # a half-copied index is never opened
    logger.info("places index %s", current, extra={"region_bundle": current, "places_file": str(target)})
    return target
