import { useState } from "react";
import type { Stop, Trip } from "../api/client";
import { formatDate, formatNumber, useI18n } from "../i18n";
import { ElevationProfile } from "./ElevationProfile";
import { DayStops } from "./DayStops";
import type { RunOp } from "./StopItem";

/** The point of the route someone points at on a day's profile: its day and distance from the day's start. */
export type RoutePoint = { dayIndex: number; km: number } | null;

const hours = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(Math.round(minutes % 60)).padStart(2, "0")}`;
const metres = (locale: Parameters<typeof formatNumber>[0], value: number | null | undefined) =>
  value === null || value === undefined ? "?" : formatNumber(locale, value, 0);

/** The arguments that put a removed stop back where it was (a new stop, the same place in the day). */
function addedBack(stop: Stop): Record<string, unknown> {
  const args: Record<string, unknown> = {
    dayIndex: stop.dayIndex,
    name: stop.name,
    kind: stop.kind,
    lat: stop.lat,
    lon: stop.lon,
    startTime: stop.startTime,
    endTime: stop.endTime,
    notes: stop.notes,
    position: stop.order,
  };
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined && v !== ""));
}

export function DaysList({ trip, onPoint, runOp }: { trip: Trip; onPoint?: (point: RoutePoint) => void; runOp?: RunOp }) {
  const { t, locale } = useI18n();
  const days = trip.days ?? [];
  const [removed, setRemoved] = useState<Stop | null>(null);
  return (
    <section aria-labelledby="days-title" className="card">
      <h2 id="days-title">
        {t("trip.days")} <span className="muted">({days.length})</span>
      </h2>
      {removed && runOp && (
        <p role="status" className="undo">
          {t("stop.removed", { name: removed.name })}{" "}
          <button
            type="button"
            onClick={() => {
              const stop = removed;
              setRemoved(null);
              void runOp("add_stop", addedBack(stop)).catch(() => setRemoved(stop));
            }}
          >
            {t("stop.undo")}
          </button>
        </p>
      )}
      <ol className="days" data-testid="days">
        {days.map((day) => (
          <li key={day.dayIndex} className="day">
            <h3>
              {t("trip.day", { day: day.dayIndex + 1 })}
              {day.date ? ` · ${formatDate(locale, day.date)}` : ""}
              {day.city ? ` · ${day.city}` : ""}
            </h3>
            {day.stage ? (
              <p>
                {day.stage.from} → {(day.stage.via ?? []).length ? `${day.stage.via?.join(", ")} → ` : ""}
                {day.stage.to}: <b>{formatNumber(locale, day.stage.distanceKm, 2)} km</b>, {hours(day.stage.durationMin)}, ↑{" "}
                {metres(locale, day.stage.ascentM)} m ↓ {metres(locale, day.stage.descentM)} m
              </p>
            ) : (
              <p className="muted">{t("trip.noStage")}</p>
            )}
            {day.stage?.elevation && (
              <ElevationProfile day={day} onHover={(km) => onPoint?.(km === null ? null : { dayIndex: day.dayIndex, km })} />
            )}
            <DayStops
              dayIndex={day.dayIndex}
              stops={(trip.stops ?? []).filter((s) => s.dayIndex === day.dayIndex)}
              runOp={runOp}
              onRemoved={setRemoved}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}

export function Expenses({ trip }: { trip: Trip }) {
  const { t, locale } = useI18n();
  const expenses = trip.expenses ?? [];
  if (!expenses.length) return null;
  return (
    <section aria-labelledby="expenses-title" className="card">
      <h2 id="expenses-title">{t("trip.expenses")}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("expenses.what")}</th>
            <th scope="col">{t("expenses.amount")}</th>
            <th scope="col">{t("expenses.paidBy")}</th>
            <th scope="col">{t("expenses.for")}</th>
          </tr>
        </thead>
        <tbody>
          {expenses.map((e) => (
            <tr key={e.expenseId}>
              <td>{e.label}</td>
              <td>
                {new Intl.NumberFormat(locale, { style: "currency", currency: e.currency }).format(Number(e.amount))}
              </td>
              <td>{e.payer}</td>
              <td>{e.participants.join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
