// The route on a map, drawn from the stages' polylines: Leaflet with no basemap unless a tile URL is
// configured (these machines are offline; the line and the day markers need no tiles).
import { useEffect, useRef } from "react";
import L from "leaflet";
import { unwrap, type Trip } from "../api/client";
import { useServices } from "../context";
import { formatNumber, useI18n } from "../i18n";
import { decodePolyline6 } from "../polyline";
import type { MapPreview } from "./ToolCard";
import type { RoutePoint } from "./TripDetails";

const DAY_COLOURS = ["#1f5fbf", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490"];

/** Leaflet puts a string tooltip in as HTML; place names are members' text, so give it a text node. */
function textElement(text: string): HTMLElement {
  const element = document.createElement("span");
  element.textContent = text;
  return element;
}

/** Where a map with no route yet looks: the areas the deployment plans in (GET /regions), once per page. */
let servedBounds: Promise<L.LatLngBounds | null> | null = null;

/** The point ``km`` along a line of ``lengthKm`` (the stage's own distance), by its share of the way. */
function pointAlong(points: [number, number][], km: number, lengthKm: number): [number, number] {
  const walked = [0];
  for (let i = 1; i < points.length; i++) walked.push(walked[i - 1] + L.latLng(points[i - 1]).distanceTo(L.latLng(points[i])));
  const target = (km / (lengthKm || 1)) * walked[walked.length - 1];
  const i = Math.max(1, walked.findIndex((w) => w >= target));
  const span = walked[i] - walked[i - 1] || 1;
  const t = Math.min(1, Math.max(0, (target - walked[i - 1]) / span));
  const [a, b] = [points[i - 1], points[Math.min(i, points.length - 1)]];
  return [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
}

/** A stop someone adds by clicking the map: the place the click names, on the day whose route passes
 * nearest; clicked on the route itself, at that point of it and in the day's order along it. */
export type StopToAdd = { dayIndex: number; name: string; kind: string; lat: number; lon: number; position?: number };

/** Where a point falls on a day's route: the nearest vertex, and how far along the route it is. */
interface OnRoute {
  dayIndex: number;
  km: number;
  point: [number, number];
}

function alongRoute(points: [number, number][], at: L.LatLng): { km: number; point: [number, number]; metres: number } {
  let walked = 0;
  let best = { km: 0, point: points[0], metres: Infinity };
  points.forEach((p, i) => {
    if (i) walked += L.latLng(points[i - 1]).distanceTo(L.latLng(p));
    const metres = at.distanceTo(L.latLng(p));
    if (metres < best.metres) best = { km: walked / 1000, point: p, metres };
  });
  return best;
}

function onRoute(trip: Trip, at: L.LatLng, dayIndex: number): OnRoute | null {
  const day = trip.days?.find((d) => d.dayIndex === dayIndex);
  if (!day?.stage?.polyline6) return null;
  const found = alongRoute(decodePolyline6(day.stage.polyline6), at);
  return { dayIndex, km: found.km, point: found.point };
}

/** The place in a day's order for a stop ``km`` along its route: before the first stop further along. */
function positionAlong(trip: Trip, where: OnRoute): number {
  const day = trip.days?.find((d) => d.dayIndex === where.dayIndex);
  const stops = (trip.stops ?? []).filter((s) => s.dayIndex === where.dayIndex).sort((a, b) => a.order - b.order);
  if (!day?.stage?.polyline6) return stops.length;
  const points = decodePolyline6(day.stage.polyline6);
  const later = stops.findIndex((s) => s.lat != null && s.lon != null && alongRoute(points, L.latLng(s.lat, s.lon)).km > where.km);
  return later === -1 ? stops.length : later;
}

/** The day whose route passes nearest a point (its line's vertices are dense enough to judge by). */
function nearestDay(trip: Trip, at: L.LatLng): number {
  let best = { day: 0, metres: Infinity };
  for (const day of trip.days ?? []) {
    if (!day.stage?.polyline6) continue;
    for (const p of decodePolyline6(day.stage.polyline6)) {
      const metres = at.distanceTo(L.latLng(p));
      if (metres < best.metres) best = { day: day.dayIndex, metres };
    }
  }
  return best.day;
}

export function RouteMap({
  trip,
  point = null,
  preview = null,
  onAddStop,
}: {
  trip: Trip;
  point?: RoutePoint;
  /** An open proposal's change (the agent's), drawn until it is answered. */
  preview?: MapPreview | null;
  onAddStop?: (stop: StopToAdd) => Promise<void>;
}) {
  const { config, api } = useServices();
  const { t, locale } = useI18n();
  const element = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const fitted = useRef<string | null>(null); // the route the view was last fitted to
  useEffect(() => {
    if (!element.current) return;
    const m = L.map(element.current, { zoomControl: true, attributionControl: !!config.tileUrl });
    if (config.tileUrl) {
      L.tileLayer(config.tileUrl, { attribution: config.tileAttribution ?? "", maxZoom: 18 }).addTo(m);
    }
    map.current = m;
    fitted.current = null; // a new map has no view yet
    return () => {
      m.remove();
      map.current = null;
    };
  }, [config.tileUrl, config.tileAttribution]);
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    const layer = L.featureGroup().addTo(m);
    const stopsLayer = L.layerGroup().addTo(m);
    (trip.days ?? []).forEach((day, i) => {
      if (!day.stage?.polyline6) return;
      const points = decodePolyline6(day.stage.polyline6);
      if (!points.length) return;
      L.polyline(points, { color: DAY_COLOURS[i % DAY_COLOURS.length], weight: 4, className: "route-line" })
        .bindTooltip(
          textElement(t("trip.dayRoute", { day: day.dayIndex + 1, route: [day.stage.from, ...(day.stage.via ?? []), day.stage.to].join(" → ") })),
        )
        .addTo(layer);
      L.circleMarker(points[0], { radius: 5, color: "#1d2430", fillOpacity: 1, className: "stage-start" }).addTo(layer);
      if (i === (trip.days?.length ?? 0) - 1) {
        L.circleMarker(points[points.length - 1], { radius: 5, color: "#1d2430", fillOpacity: 1 }).addTo(layer);
      }
    });
    // The stops placed on the map, each with its name (the nights are the lines' ends)
    for (const stop of trip.stops ?? []) {
      if (stop.lat === null || stop.lat === undefined || stop.lon === null || stop.lon === undefined) continue;
      L.circleMarker([stop.lat, stop.lon], { radius: 6, color: "#7e22ce", weight: 2, fillColor: "#f3e8ff", fillOpacity: 1, className: "stop-marker" })
        .bindTooltip(textElement(`${t("trip.day", { day: stop.dayIndex + 1 })} · ${stop.name}`))
        .addTo(stopsLayer);
    }
    let gone = false;
    if (layer.getLayers().length) {
      // Fit the route once per route: another member's edit (a new version, the same route) keeps the
      // view the person chose; a new route (generated again) is shown whole
      const shape = (trip.days ?? []).map((d) => d.stage?.polyline6 ?? "").join("|");
      if (fitted.current !== shape) m.fitBounds(layer.getBounds(), { padding: [16, 16] });
      fitted.current = shape;
    } else {
      m.setView([0, 0], 2);
      servedBounds ??= unwrap(api.GET("/regions"))
        .then(({ areas }) =>
          areas.length ? L.latLngBounds(areas.flatMap((a) => [[a.bbox[1], a.bbox[0]], [a.bbox[3], a.bbox[2]]] as [number, number][])) : null,
        )
        .catch(() => null);
      void servedBounds.then((bounds) => {
        if (bounds && !gone && map.current === m) m.fitBounds(bounds);
      });
    }
    return () => {
      gone = true;
      layer.remove();
      stopsLayer.remove();
    };
  }, [trip, api, t]);
  // The change an open proposal would make: an orange ring where it is, brought into view
  useEffect(() => {
    const m = map.current;
    if (!m || !preview) return;
    const ring = L.circleMarker([preview.lat, preview.lon], {
      radius: 11,
      color: "#c2410c",
      weight: 3,
      dashArray: "4 3",
      fillColor: "#fed7aa",
      fillOpacity: 0.6,
      className: "preview-marker",
    })
      .bindTooltip(textElement(preview.label), { permanent: true, direction: "top" })
      .addTo(m);
    if (!m.getBounds().contains(ring.getLatLng())) m.panTo(ring.getLatLng());
    return () => {
      ring.remove();
    };
  }, [preview]);
  // Click the map (or the route) to add a stop there, named from the places index (members who may edit)
  useEffect(() => {
    const m = map.current;
    if (!m || !onAddStop) return;
    const onClick = async (event: L.LeafletMouseEvent) => {
      const popup = L.popup().setLatLng(event.latlng);
      let named;
      try {
        named = await unwrap(api.GET("/places/near", { params: { query: { lat: event.latlng.lat, lon: event.latlng.lng } } }));
      } catch {
        popup.setContent(textElement(t("map.nothingNear"))).openOn(m);
        return;
      }
      const dayIndex = nearestDay(trip, event.latlng);
      // Clicked on the route itself: the stop goes at that point of it, in the day's order along it.
      const target = event.originalEvent?.target as Element | null;
      const picked = target?.classList?.contains("route-line") ? onRoute(trip, event.latlng, dayIndex) : null;
      const box = document.createElement("div");
      box.className = "add-stop";
      const question = document.createElement("p");
      question.textContent = picked
        ? t("map.addOnRoute", { name: named.name, day: dayIndex + 1, km: formatNumber(locale, picked.km) })
        : t("map.add", { name: named.name, day: dayIndex + 1 });
      const button = document.createElement("button");
      button.type = "button";
      button.className = "primary";
      button.textContent = t("map.addButton");
      button.onclick = () => {
        button.disabled = true;
        const stop: StopToAdd = picked
          ? { dayIndex, name: named.name, kind: named.stopKind, lat: picked.point[0], lon: picked.point[1], position: positionAlong(trip, picked) }
          : { dayIndex, name: named.name, kind: named.stopKind, lat: named.lat, lon: named.lon };
        void onAddStop(stop).finally(() => m.closePopup(popup));
      };
      box.append(question, button);
      popup.setContent(box).openOn(m);
    };
    const handler = (event: L.LeafletMouseEvent) => void onClick(event);
    m.on("click", handler);
    return () => {
      m.off("click", handler);
    };
  }, [api, trip, onAddStop, t, locale]);

  useEffect(() => {
    const m = map.current;
    const day = point ? trip.days?.find((d) => d.dayIndex === point.dayIndex) : undefined;
    if (!m || !point || !day?.stage?.polyline6) return;
    const points = decodePolyline6(day.stage.polyline6);
    if (points.length < 2) return;
    const marker = L.circleMarker(pointAlong(points, point.km, day.stage.distanceKm), {
      radius: 7,
      color: "#b91c1c",
      weight: 3,
      fillColor: "#fff",
      fillOpacity: 1,
      className: "profile-point",
    }).addTo(m);
    return () => {
      marker.remove();
    };
  }, [point, trip]);
  return <div ref={element} className="map" role="region" aria-label={t("trip.map")} data-testid="route-map" />;
}
