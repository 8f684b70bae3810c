// A day's distance-elevation profile, drawn from the stage's heights at a fixed step: axes with values,
// the steepest stretch marked, and the point under the pointer shown here and on the map (onHover).
import { useEffect, useMemo, useRef, useState } from "react";
import type { Day } from "../api/client";
import { useI18n } from "../i18n";

const MAX_W = 640;
const H = 150;
const LEFT = 60;
const BOTTOM = 22;
const TOP = 8;
const STEEP_WINDOW_M = 500; // the steepest stretch is the steepest half-kilometre

type Profile = { stepM: number; heightsM: number[] };

/** Distance (km) of each height of a profile whose last height is at the stage's end. */
function distances(profile: Profile, lengthKm: number): number[] {
  return profile.heightsM.map((_, i) => Math.min((i * profile.stepM) / 1000, lengthKm));
}

function niceStep(span: number, target: number): number {
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
}

/** The figure's width in CSS pixels, so that the chart's text keeps its size on a phone. */
function useWidth(): [React.RefObject<HTMLElement | null>, number] {
  const ref = useRef<HTMLElement | null>(null);
  const [width, setWidth] = useState(MAX_W);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width) || MAX_W));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, Math.max(280, Math.min(MAX_W, width))];
}

export function steepest(profile: Profile, km: number[]): { from: number; to: number; grade: number } | null {
  const span = Math.max(1, Math.round(STEEP_WINDOW_M / profile.stepM));
  let best: { from: number; to: number; grade: number } | null = null;
  for (let i = 0; i + span < profile.heightsM.length; i++) {
    const run = (km[i + span] - km[i]) * 1000;
    if (run <= 0) continue;
    const grade = ((profile.heightsM[i + span] - profile.heightsM[i]) / run) * 100;
    if (!best || grade > best.grade) best = { from: i, to: i + span, grade };
  }
  return best && best.grade > 0 ? best : null;
}

export function ElevationProfile({ day, onHover }: { day: Day; onHover: (km: number | null) => void }) {
  const { t, locale } = useI18n();
  const [at, setAt] = useState<number | null>(null);
  const [figure, W] = useWidth();
  const stage = day.stage;
  const profile = stage?.elevation ?? null;
  const shape = useMemo(() => {
    if (!stage || !profile) return null;
    const km = distances(profile, stage.distanceKm);
    const length = km[km.length - 1] || stage.distanceKm || 1;
    const low = Math.floor(Math.min(...profile.heightsM) / 50) * 50;
    const high = Math.max(low + 100, Math.ceil(Math.max(...profile.heightsM) / 50) * 50);
    const x = (k: number) => LEFT + (k / length) * (W - LEFT - 4);
    const y = (h: number) => TOP + (1 - (h - low) / (high - low)) * (H - TOP - BOTTOM);
    const line = profile.heightsM.map((h, i) => `${i ? "L" : "M"}${x(km[i]).toFixed(1)},${y(h).toFixed(1)}`).join("");
    const area = `${line}L${x(length).toFixed(1)},${H - BOTTOM}L${LEFT},${H - BOTTOM}Z`;
    const steep = steepest(profile, km);
    const steepLine = steep
      ? profile.heightsM
          .slice(steep.from, steep.to + 1)
          .map((h, j) => `${j ? "L" : "M"}${x(km[steep.from + j]).toFixed(1)},${y(h).toFixed(1)}`)
          .join("")
      : null;
    const kmStep = niceStep(length, Math.max(3, Math.floor(W / 100)));
    const mStep = niceStep(high - low, 3);
    const xTicks = Array.from({ length: Math.floor(length / kmStep) + 1 }, (_, i) => i * kmStep);
    const yTicks = Array.from({ length: Math.floor((high - low) / mStep) + 1 }, (_, i) => low + i * mStep);
    return { km, length, low, high, x, y, line, area, steep, steepLine, xTicks, yTicks };
  }, [stage, profile, W]);
  if (!stage || !profile || !shape) return null;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const heights = profile.heightsM;
  const highest = Math.max(...heights);
  const summary = t("profile.summary", {
    day: day.dayIndex + 1,
    from: number.format(heights[0]),
    to: number.format(heights[heights.length - 1]),
    highest: number.format(highest),
    up: number.format(stage.ascentM ?? 0),
  });
  const steepText = shape.steep
    ? t("profile.steepest", { grade: number.format(shape.steep.grade), km: number.format(shape.km[shape.steep.from]) })
    : "";
  const index = at === null ? null : Math.min(heights.length - 1, Math.max(0, Math.round((at * 1000) / profile.stepM)));
  const move = (event: React.PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * W;
    const km = Math.min(shape.length, Math.max(0, ((px - LEFT) / (W - LEFT - 4)) * shape.length));
    setAt(km);
    onHover(km);
  };
  const leave = () => {
    setAt(null);
    onHover(null);
  };
  return (
    <figure className="profile" data-testid={`profile-${day.dayIndex}`} ref={figure}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${summary} ${steepText}`}
        onPointerMove={move}
        onPointerLeave={leave}
      >
        {shape.yTicks.map((h) => (
          <g key={`y${h}`}>
            <line x1={LEFT} x2={W - 4} y1={shape.y(h)} y2={shape.y(h)} className="grid" />
            <text x={LEFT - 4} y={shape.y(h) + 3} textAnchor="end" className="tick">
              {number.format(h)} m
            </text>
          </g>
        ))}
        {shape.xTicks.map((k) => (
          <text key={`x${k}`} x={shape.x(k)} y={H - 6} textAnchor={shape.x(k) > W - 24 ? "end" : "middle"} className="tick">
            {number.format(k)} km
          </text>
        ))}
        <path d={shape.area} className="ground" />
        <path d={shape.line} className="height" />
        {shape.steepLine && <path d={shape.steepLine} className="steep" data-testid="steepest" />}
        {index !== null && (
          <g className="cursor">
            <line x1={shape.x(shape.km[index])} x2={shape.x(shape.km[index])} y1={TOP} y2={H - BOTTOM} />
            <circle cx={shape.x(shape.km[index])} cy={shape.y(heights[index])} r={4} />
          </g>
        )}
      </svg>
      <figcaption className="muted" aria-live="polite">
        {index !== null
          ? `${number.format(shape.km[index])} km · ${number.format(heights[index])} m`
          : `${summary}${steepText ? ` ${steepText}` : ""}`}
      </figcaption>
    </figure>
  );
}
