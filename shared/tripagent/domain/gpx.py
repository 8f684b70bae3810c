"""A trip as GPX 1.1: one track per day (its stage line), one waypoint per located stop."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tripagent.domain.geo import decode_polyline
from tripagent.domain.trip import Trip

GPX_NS = "http://www.topografix.com/GPX/1/1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"


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
        for lat, lon in decode_polyline(day.stage.polyline6):
            ET.SubElement(segment, f"{{{GPX_NS}}}trkpt", {"lat": f"{lat:.6f}", "lon": f"{lon:.6f}"})
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
