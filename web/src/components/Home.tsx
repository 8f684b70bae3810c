import { useEffect, useState } from "react";
import { unwrap, type Schemas } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { useI18n } from "../i18n";
import { tripHref } from "../route";
import { BriefChat } from "./BriefChat";

type TripSummary = Schemas["TripSummaryResponse"];

export function Home() {
  const { api } = useServices();
  const { t } = useI18n();
  const [trips, setTrips] = useState<TripSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    unwrap(api.GET("/trips"))
      .then((answer) => setTrips(answer.trips))
      .catch((e: unknown) => setError(sentenceFor(e, t)));
  }, [api]);
  return (
    <div className="home">
      <section aria-labelledby="plan-title" className="card">
        <h1 id="plan-title">{t("home.plan")}</h1>
        <BriefChat />
      </section>
      <section aria-labelledby="trips-title" className="card">
        <h2 id="trips-title">{t("home.trips")}</h2>
        {error && <p role="alert">{error}</p>}
        {trips && trips.length === 0 && <p>{t("home.noTrips")}</p>}
        <ul className="trip-list">
          {trips?.map((trip) => (
            <li key={trip.tripId}>
              <a href={tripHref(trip.tripId)}>{trip.title}</a>{" "}
              <span className="muted">
                {trip.startDate ?? ""} · {trip.role}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
