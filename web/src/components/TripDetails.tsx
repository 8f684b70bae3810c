import type { Trip } from "../api/client";
import { formatDate, formatNumber, useI18n } from "../i18n";
import { ElevationProfile } from "./ElevationProfile";

/** The point of the route someone points at on a day's profile: its day and distance from the day's start. */
export type RoutePoint = { dayIndex: number; km: number } | null;

const hours = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(Math.round(minutes % 60)).padStart(2, "0")}`;
const metres = (locale: Parameters<typeof formatNumber>[0], value: number | null | undefined) =>
  value === null || value === undefined ? "?" : formatNumber(locale, value, 0);

export function DaysList({ trip, onPoint }: { trip: Trip; onPoint?: (point: RoutePoint) => void }) {
  const { t, locale } = useI18n();
  const days = trip.days ?? [];
  return (
    <section aria-labelledby="days-title" className="card">
      <h2 id="days-title">
        {t("trip.days")} <span className="muted">({days.length})</span>
      </h2>
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
            <ul className="stops">
              {(trip.stops ?? [])
                .filter((s) => s.dayIndex === day.dayIndex)
                .sort((a, b) => a.order - b.order)
                .map((stop) => (
                  <li key={stop.stopId}>
                    {stop.name} <span className="muted">({stop.kind}{stop.startTime ? `, ${stop.startTime}` : ""})</span>
                  </li>
                ))}
            </ul>
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
