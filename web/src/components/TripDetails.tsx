import type { Trip } from "../api/client";
import { useI18n } from "../i18n";
import { ElevationProfile } from "./ElevationProfile";

/** The point of the route someone points at on a day's profile: its day and distance from the day's start. */
export type RoutePoint = { dayIndex: number; km: number } | null;

const hours = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(Math.round(minutes % 60)).padStart(2, "0")}`;

export function DaysList({ trip, onPoint }: { trip: Trip; onPoint?: (point: RoutePoint) => void }) {
  const { t } = useI18n();
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
              Day {day.dayIndex + 1}
              {day.date ? ` · ${day.date}` : ""}
              {day.city ? ` · ${day.city}` : ""}
            </h3>
            {day.stage ? (
              <p>
                {day.stage.from} → {(day.stage.via ?? []).length ? `${day.stage.via?.join(", ")} → ` : ""}
                {day.stage.to}: <b>{day.stage.distanceKm} km</b>, {hours(day.stage.durationMin)}, ↑{" "}
                {day.stage.ascentM ?? "?"} m ↓ {day.stage.descentM ?? "?"} m
              </p>
            ) : (
              <p className="muted">No stage</p>
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
                    {stop.name} <span className="muted">({stop.kind}{stop.startTime ? `, ${stop.startTime}` : ""})</span>{" "}
                    <code className="muted">{stop.stopId}</code>
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
  const { t } = useI18n();
  const expenses = trip.expenses ?? [];
  if (!expenses.length) return null;
  return (
    <section aria-labelledby="expenses-title" className="card">
      <h2 id="expenses-title">{t("trip.expenses")}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Amount</th>
            <th scope="col">Paid by</th>
            <th scope="col">For</th>
          </tr>
        </thead>
        <tbody>
          {expenses.map((e) => (
            <tr key={e.expenseId}>
              <td>{e.label}</td>
              <td>
                {e.amount} {e.currency}
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
