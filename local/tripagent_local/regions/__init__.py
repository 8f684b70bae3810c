"""Region bundles: routing tiles, elevation and places built from any OpenStreetMap extract.

``tripagent region build PBF…`` writes ``REGIONS_DIR/<name>/<version>/`` (``tiles.tar``,
``places.sqlite``, ``coverage.geojson``, ``manifest.json``) and moves ``<name>/current`` to it only once a
route has been planned on it. The local stack serves the regions it is given; in AWS the builder task
publishes the same bundle to S3 and moves an SSM parameter (``aws.py``)."""
