"""A trip as GPX 1.1: one track per day (its stage line), one waypoint per located stop."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from tripagent.domain.geo import LatLon, decode_polyline, distance_km, interpolate
from tripagent.domain.trip import Stage, Trip

GPX_NS = "http://www.topografix.com/GPX/1/1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"


def heights_at(points: list[LatLon], stage: Stage) -> list[float | None]:
    """Each point's height, from the stage's profile (by its share of the way along the line)."""
    if stage.elevation is None or len(points) < 2:
        return [None] * len(points)
    walked = [0.0, *itertools.accumulate(distance_km(*a, *b) for a, b in itertools.pairwise(points))]
    heights, step = stage.elevation.heightsM, stage.elevation.stepM
    length = stage.distanceKm * 1000 or (len(heights) - 1) * step
    marks = [min(k * step, length) for k in range(len(heights))]
    return [interpolate(marks, heights, along / (walked[-1] or 1.0) * length) for along in walked]


def trip_to_gpx(trip: Trip, *, creator: str = "Tripagent") -> str:
    ET.register_namespace("", GPX_NS)
    root = ET.Element(
        f"{{{GPX_NS}}}gpx",
        {
            "version": "1.1",
            "creator": creator,
            f"{{{XSI}}}schemaLocation": f"{GPX_NS} http://www.topografix.com/GPX/1/1/gpx.xsd",
        },
    )
    metadata = ET.SubElement(root, f"{{{GPX_NS}}}metadata")
    ET.SubElement(metadata, f"{{{GPX_NS}}}name").text = trip.title
    ET.SubElement(metadata, f"{{{GPX_NS}}}desc").text = "Map data © OpenStreetMap contributors (ODbL)"
    # GPX 1.1 orders a document's children: metadata, wpt*, rte*, trk*.
    for stop in sorted(trip.stops, key=lambda s: (s.dayIndex, s.order)):
        if stop.lat is None or stop.lon is None:
            continue
        wpt = ET.SubElement(root, f"{{{GPX_NS}}}wpt", {"lat": f"{stop.lat:.6f}", "lon": f"{stop.lon:.6f}"})
        ET.SubElement(wpt, f"{{{GPX_NS}}}name").text = stop.name
        if stop.notes:
            ET.SubElement(wpt, f"{{{GPX_NS}}}desc").text = stop.notes
        ET.SubElement(wpt, f"{{{GPX_NS}}}type").text = stop.kind
    for day in trip.days:
        if day.stage is None or not day.stage.polyline6:
            continue
        trk = ET.SubElement(root, f"{{{GPX_NS}}}trk")
        ET.SubElement(
            trk, f"{{{GPX_NS}}}name"
        ).text = f"Day {day.dayIndex + 1}: {day.stage.from_} → {day.stage.to}"
        ET.SubElement(trk, f"{{{GPX_NS}}}number").text = str(day.dayIndex + 1)
        segment = ET.SubElement(trk, f"{{{GPX_NS}}}trkseg")
        points = decode_polyline(day.stage.polyline6)
        heights = heights_at(points, day.stage)
        for (lat, lon), height in zip(points, heights, strict=True):
            point = ET.SubElement(segment, f"{{{GPX_NS}}}trkpt", {"lat": f"{lat:.6f}", "lon": f"{lon:.6f}"})
            if height is not None:
                ET.SubElement(point, f"{{{GPX_NS}}}ele").text = f"{height:.0f}"
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
