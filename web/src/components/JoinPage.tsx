// Opening a share link (#/join/<token>): the signed-in person joins the trip with the link's role, then
// sees it; a revoked or unknown link says so.
import { useEffect, useState } from "react";
import { ApiError, unwrap } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { useI18n } from "../i18n";
import { tripHref } from "../route";

export function JoinPage({ token }: { token: string }) {
  const { api } = useServices();
  const { t } = useI18n();
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    unwrap(api.POST("/join/{token}", { params: { path: { token } } }))
      .then((joined) => window.location.replace(tripHref(joined.tripId)))
      .catch((e: unknown) => setFailure(e instanceof ApiError && e.status === 404 ? t("join.invalid") : sentenceFor(e, t)));
  }, [api, token, t]);
  return (
    <section className="card">
      <h1>{t("join.title")}</h1>
      {failure ? <p role="alert">{failure}</p> : <p role="status">{t("join.joining")}</p>}
      <a href="#/">{t("trip.back")}</a>
    </section>
  );
}
