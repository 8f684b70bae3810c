"""Geometry on small scales: encoded polylines (precision 6, as Valhalla writes them) and where a point
lies along a line (a local equirectangular projection: exact enough within a day's ride)."""

from __future__ import annotations

import itertools
import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

LatLon = tuple[float, float]


def decode_polyline(encoded: str, precision: int = 6) -> list[LatLon]:
    factor = 10**precision
    points: list[LatLon] = []
    index = lat = lon = 0
    while index < len(encoded):
        deltas = []
        for _ in range(2):
            shift = result = 0
            while True:
                byte = ord(encoded[index]) - 63
                index += 1
                result |= (byte & 0x1F) << shift
                shift += 5
                if byte < 0x20:
                    break
            deltas.append(~(result >> 1) if result & 1 else result >> 1)
        lat += deltas[0]
        lon += deltas[1]
        points.append((lat / factor, lon / factor))
    return points


def encode_polyline(points: list[LatLon], precision: int = 6) -> str:
    factor = 10**precision
    out: list[str] = []
    prev_lat = prev_lon = 0
    for lat, lon in points:
        ilat, ilon = round(lat * factor), round(lon * factor)
        for delta in (ilat - prev_lat, ilon - prev_lon):
            value = ~(delta << 1) if delta < 0 else delta << 1
            while value >= 0x20:
                out.append(chr((0x20 | (value & 0x1F)) + 63))
                value >>= 5
            out.append(chr(value + 63))
        prev_lat, prev_lon = ilat, ilon
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Projection:
    offset_km: float  # distance from the line
    along_km: float  # distance along the line to the nearest point


def project(point: LatLon, line: list[LatLon]) -> Projection:
    """The nearest point of ``line`` to ``point``: how far off, and how far along."""
    if not line:
        raise ValueError("empty line")
    lat0 = math.radians(point[0])
    kx, ky = 111.320 * math.cos(lat0), 110.574

    def xy(p: LatLon) -> tuple[float, float]:
        return (p[1] - point[1]) * kx, (p[0] - point[0]) * ky

    best = Projection(distance_km(*point, *line[0]), 0.0)
    walked = 0.0
    for a, b in itertools.pairwise(line):
        (ax, ay), (bx, by) = xy(a), xy(b)
        seg = math.hypot(bx - ax, by - ay)
        t = 0.0 if seg == 0 else max(0.0, min(1.0, -(ax * (bx - ax) + ay * (by - ay)) / seg**2))
        px, py = ax + t * (bx - ax), ay + t * (by - ay)
        offset = math.hypot(px, py)
        if offset < best.offset_km:
            best = Projection(offset, walked + t * seg)
        walked += seg
    return best


def line_length_km(line: list[LatLon]) -> float:
    return sum(distance_km(*a, *b) for a, b in itertools.pairwise(line))


def bbox(line: list[LatLon], margin_km: float) -> tuple[float, float, float, float]:
    """south, west, north, east around ``line`` with ``margin_km`` on every side."""
    lats, lons = [p[0] for p in line], [p[1] for p in line]
    dlat = margin_km / 110.574
    dlon = margin_km / (111.320 * max(0.1, math.cos(math.radians(sum(lats) / len(lats)))))
    return min(lats) - dlat, min(lons) - dlon, max(lats) + dlat, max(lons) + dlon


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance (haversine)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0088 * 2 * math.asin(math.sqrt(a))


def interpolate(marks: Sequence[float], values: Sequence[float], at: float) -> float:
    """The value at ``at`` on the line through (``marks[i]``, ``values[i]``) (marks ascending, at least two),
    held at the ends."""
    i = min(max(bisect_right(marks, at) - 1, 0), len(marks) - 2)
    span = marks[i + 1] - marks[i]
    t = 0.0 if span <= 0 else min(1.0, max(0.0, (at - marks[i]) / span))
    return values[i] + t * (values[i + 1] - values[i])


def spaced_along(line: list[LatLon], count: int) -> list[tuple[LatLon, float]]:
    """``count`` points evenly spaced along ``line``, first and last included, each with its distance
    along it (km): where heights sampled at a fixed interval along a route's shape were measured."""
    if count < 2 or len(line) < 2:
        return [(line[0], 0.0)] if line and count else []
    total = line_length_km(line)
    step = total / (count - 1)
    out: list[tuple[LatLon, float]] = []
    walked, i = 0.0, 0
    for k in range(count):
        target = min(k * step, total)
        while i < len(line) - 2 and walked + distance_km(*line[i], *line[i + 1]) < target:
            walked += distance_km(*line[i], *line[i + 1])
            i += 1
        seg = distance_km(*line[i], *line[i + 1])
        t = 0.0 if seg == 0 else min(1.0, max(0.0, (target - walked) / seg))
        (a_lat, a_lon), (b_lat, b_lon) = line[i], line[i + 1]
        out.append(((a_lat + t * (b_lat - a_lat), a_lon + t * (b_lon - a_lon)), target))
    return out
