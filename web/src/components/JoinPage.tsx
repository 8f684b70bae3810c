// Opening a share link (#/join/<token>): the signed-in person joins the trip with the link's role, then
// sees it; a revoked or unknown link says so.
import { useEffect, useRef, useState } from "react";
import { ApiError, unwrap } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { useI18n } from "../i18n";
import { tripHref } from "../route";

export function JoinPage({ token }: { token: string }) {
  const { api } = useServices();
  const { t } = useI18n();
  const [failure, setFailure] = useState<unknown>(null);
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (asked.current === token) return; // once per link (not again on a change of language)
    asked.current = token;
    unwrap(api.POST("/join/{token}", { params: { path: { token } } }))
      .then((joined) => window.location.replace(tripHref(joined.tripId)))
      .catch((e: unknown) => setFailure(e ?? "failed"));
  }, [api, token]);
  return (
    <section className="card">
      <h1>{t("join.title")}</h1>
      {failure ? (
        <p role="alert">{failure instanceof ApiError && failure.status === 404 ? t("join.invalid") : sentenceFor(failure, t)}</p>
      ) : (
        <p role="status">{t("join.joining")}</p>
      )}
      <a href="#/">{t("trip.back")}</a>
    </section>
  );
}
