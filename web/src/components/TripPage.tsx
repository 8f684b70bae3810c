// One trip: what it is (days, map, effort, stops, expenses, members), how to change it, its agent, and
// what the others do to it, heard over the trip's channel.
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, unwrap, type Operation, type Suggestion, type Trip } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { formatDate, formatNumber, useI18n } from "../i18n";
import { useTripChannel, type Push } from "../live";
import { useOnline } from "../online";
import { PeopleContext, usePeople } from "../people";
import { AgentPanel, type LiveTurn } from "./AgentPanel";
import { EffortChart } from "./EffortChart";
import { Members } from "./Members";
import { OpsPanel, mayRun } from "./OpsPanel";
import { RouteMap, type StopToAdd } from "./RouteMap";
import { Toasts, type ToastState } from "./Toasts";
import type { MapPreview } from "./ToolCard";
import { DaysList, Expenses, type RoutePoint } from "./TripDetails";

type Load = { state: "loading" } | { state: "missing" } | { state: "failed"; message: string } | { state: "ready"; trip: Trip };

export function TripPage({ tripId }: { tripId: string }) {
  const { api, config, session } = useServices();
  const { t, locale } = useI18n();
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [ops, setOps] = useState<Operation[]>([]);
  const [toasts, setToasts] = useState<ToastState[]>([]);
  const [agentOpen, setAgentOpen] = useState(false);
  const [agentDraft, setAgentDraft] = useState("");
  const [agentRefresh, setAgentRefresh] = useState(0);
  const [liveTurn, setLiveTurn] = useState<LiveTurn | null>(null); // a reply being written, for watching
  const [replying, setReplying] = useState(false);
  const [preview, setPreview] = useState<MapPreview | null>(null); // an open proposal's change, on the map
  // (the same place again, as every streamed chunk recomputes it, leaves the map as it is)
  const showPreview = useCallback(
    (next: MapPreview | null) =>
      setPreview((shown) =>
        shown && next && shown.lat === next.lat && shown.lon === next.lon && shown.label === next.label ? shown : next,
      ),
    [],
  );
  const [notice, setNotice] = useState<string | null>(null);
  const [point, setPoint] = useState<RoutePoint>(null); // where someone points on a day's profile
  const path = { tripId };
  const shownVersion = useRef(0);
  useEffect(() => {
    shownVersion.current = load.state === "ready" ? load.trip.version : 0;
    // The moment the trip is on screen and usable, for `make bench` (navigation → interactive).
    if (load.state === "ready" && !performance.getEntriesByName("trip-interactive").length) {
      performance.mark("trip-interactive");
    }
  }, [load]);

  // Reloads may land out of order: the newest version wins. A failed reload keeps the trip on screen
  // (and the agent panel and forms with it); only a first load that fails shows the failure.
  const showTrip = useCallback((trip: Trip) => {
    // An older answer, or the same version read again (a reconnect, the service worker taking over),
    // changes nothing: the map and the forms keep what they show.
    setLoad((current) =>
      current.state === "ready" &&
      (current.trip.version > trip.version || (current.trip.version === trip.version && current.trip.updatedAt === trip.updatedAt))
        ? current
        : { state: "ready", trip },
    );
  }, []);
  const reload = useCallback(async () => {
    try {
      showTrip(await unwrap(api.GET("/trips/{tripId}", { params: { path: { tripId } } })));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setLoad({ state: "missing" });
      else setLoad((current) => (current.state === "ready" ? current : { state: "failed", message: sentenceFor(e, t) }));
    }
  }, [api, tripId, showTrip]);
  // On the road: the service worker keeps the trips opened and their GPX. Once it serves this page (its
  // first visit installs it), the trip is read again through it, and its GPX is fetched to be kept.
  const online = useOnline();
  const nameOf = usePeople(api, tripId, load.state === "ready" ? load.trip.version : undefined);
  const routed = load.state === "ready" && !!load.trip.days?.some((d) => d.stage);
  useEffect(() => {
    const workers = navigator.serviceWorker;
    if (!workers) return;
    const keepGpx = () => {
      if (routed && navigator.onLine) void session.fetch(`${config.apiUrl}/trips/${tripId}/gpx`).catch(() => undefined);
    };
    if (workers.controller) keepGpx(); // (the trip itself went through it already)
    const keep = () => {
      void reload();
      keepGpx();
    };
    workers.addEventListener("controllerchange", keep);
    return () => workers.removeEventListener("controllerchange", keep);
  }, [reload, routed, session, config.apiUrl, tripId]);
  const mergeToasts = useCallback((suggestions: Suggestion[]) => {
    setToasts((all) => {
      const known = new Set(all.map((x) => x.suggestion.suggestionId));
      return [...suggestions.filter((s) => !known.has(s.suggestionId)).map((suggestion) => ({ suggestion })), ...all];
    });
  }, []);
  const loadSuggestions = useCallback(() => {
    unwrap(api.GET("/trips/{tripId}/agent/suggestions", { params: { path: { tripId } } }))
      .then((answer) => mergeToasts(answer.suggestions))
      .catch(() => undefined);
  }, [api, tripId, mergeToasts]);

  useEffect(() => {
    void reload();
    unwrap(api.GET("/trips/{tripId}/ops", { params: { path: { tripId } } }))
      .then((catalog) => setOps(catalog.ops))
      .catch(() => setOps([]));
    loadSuggestions();
  }, [api, tripId, reload, loadSuggestions]);

  const updateToast = (id: string, change: (toast: ToastState) => ToastState) =>
    setToasts((all) => all.map((toast) => (toast.suggestion.suggestionId === id ? change(toast) : toast)));

  const onPush = useCallback(
    (push: Push) => {
      if (push.tripId !== tripId) return;
      if (push.type === "subscribed") {
        // (Re)subscribed: what was pushed while the channel was down is missed, so catch up on it.
        if (Number(push.version) !== shownVersion.current) void reload();
        loadSuggestions();
        setAgentRefresh((n) => n + 1);
      } else if (push.type === "trip.updated") {
        if (Number(push.version) > shownVersion.current) void reload();
      } else if (push.type === "agent.message") {
        setAgentRefresh((n) => n + 1);
      } else if (push.type === "agent.turn.started") {
        setReplying(true);
        // (the panel that asked is streaming it already: it ignores this)
        setLiveTurn({ turnId: String(push.turnId), by: String(push.by), asked: String(push.asked ?? "") });
      } else if (push.type === "agent.turn.ended") {
        setReplying(false);
        setLiveTurn((turn) => (turn?.turnId === push.turnId ? null : turn)); // (a panel opened later has nothing to attach to)
      } else if (push.type === "suggestion.created") {
        mergeToasts([push.suggestion as Suggestion]);
      } else if (push.type === "suggestion.updated") {
        const id = String(push.suggestionId);
        if (push.hidden) {
          setToasts((all) => all.filter((x) => x.suggestion.suggestionId !== id));
          return;
        }
        updateToast(id, (toast) => ({
          ...toast,
          suggestion: {
            ...toast.suggestion,
            status: push.status as Suggestion["status"],
            decidedBy: (push.decidedBy as string | null) ?? null,
            decidedAt: (push.decidedAt as string | null) ?? null,
          },
        }));
      }
    },
    [tripId, reload, loadSuggestions, mergeToasts],
  );
  const live = useTripChannel(config.webSocketUrl, tripId, session.freshToken, onPush);

  const answer = async (suggestionId: string, approved: boolean) => {
    updateToast(suggestionId, (toast) => ({ ...toast, busy: true, notice: undefined }));
    try {
      const result = await unwrap(
        api.POST("/trips/{tripId}/agent/suggestions/{suggestionId}/approve", {
          params: { path: { ...path, suggestionId } },
          body: { id: suggestionId, approved },
        }),
      );
      if (approved) updateToast(suggestionId, (toast) => ({ ...toast, busy: false, suggestion: result.suggestion as Suggestion }));
      else setToasts((all) => all.filter((x) => x.suggestion.suggestionId !== suggestionId));
      if (approved) void reload();
    } catch (e) {
      const decided = e instanceof ApiError && e.code === "already_decided";
      updateToast(suggestionId, (toast) => ({
        ...toast,
        busy: false,
        notice: sentenceFor(e, t),
        suggestion:
          decided && typeof e.body.decision === "string" && e.body.decision !== "pending"
            ? { ...toast.suggestion, status: e.body.decision as Suggestion["status"], decidedBy: String(e.body.decidedBy ?? "") }
            : toast.suggestion,
      }));
    }
  };

  // A change made where the person looks (the map, the day list): one operation of the registry, on the
  // version shown; a conflict reloads and says so. Rejects when it was not applied (the notice says why).
  const runOp = async (op: string, args: Record<string, unknown>) => {
    setNotice(null);
    try {
      const answer = await unwrap(
        api.POST("/trips/{tripId}/ops", {
          params: { path: { tripId } },
          body: { op: op as never, args, expectedVersion: shownVersion.current },
        }),
      );
      showTrip(answer.trip);
    } catch (e) {
      if (e instanceof ApiError && (e.code === "version_conflict" || e.code === "write_conflict")) await reload();
      setNotice(sentenceFor(e, t));
      throw e;
    }
  };
  const addStop = async (stop: StopToAdd) => {
    await runOp("add_stop", stop)
      .then(() => setNotice(t("map.added", { name: stop.name, day: stop.dayIndex + 1 })))
      .catch(() => undefined);
  };

  const downloadGpx = async (trip: Trip) => {
    setNotice(null);
    const response = await session.fetch(`${config.apiUrl}/trips/${trip.tripId}/gpx`).catch(() => null);
    if (!response?.ok) {
      setNotice(t("trip.gpxFailed"));
      return;
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `${trip.title.replace(/[^\w-]+/g, "-") || "trip"}.gpx`;
    link.click();
    URL.revokeObjectURL(url);
  };

  if (load.state === "loading") return <p role="status">…</p>;
  if (load.state === "missing")
    return (
      <section className="card">
        <h1>{t("trip.notFound")}</h1>
        <a href="#/">{t("trip.back")}</a>
      </section>
    );
  if (load.state === "failed") return <p role="alert">{load.message}</p>;
  const trip = load.trip;
  const role = trip.members.find((m) => m.userId === session.userId)?.role ?? "viewer";
  const km = trip.route?.distanceKm;
  return (
    <PeopleContext.Provider value={nameOf}>
    <div className={`trip-page ${agentOpen ? "with-agent" : ""}`}>
      <div className="trip-main">
        <nav>
          <a href="#/">← {t("trip.back")}</a>
        </nav>
        <header className="trip-head card">
          <h1>{trip.title}</h1>
          <p className="muted">
            {trip.startDate ? formatDate(locale, trip.startDate) : ""} {trip.profile ? `· ${t(`bike.${trip.profile}` as Parameters<typeof t>[0])}` : ""}{" "}
            {km ? `· ${formatNumber(locale, km)} km` : ""}
            {trip.route?.ascentM ? ` · ↑ ${formatNumber(locale, trip.route.ascentM, 0)} m` : ""} ·{" "}
            {t("trip.version", { version: trip.version })} · {t(`role.${role}`)}{" "}
            <span className={`live ${live ? "on" : "off"}`} role="status">
              {live ? t("trip.live") : t("trip.offline")}
            </span>
          </p>
          <div className="trip-actions">
            <button type="button" onClick={() => void downloadGpx(trip)} disabled={!trip.days?.some((d) => d.stage)}>
              {t("trip.gpx")}
            </button>
            <button type="button" onClick={() => setAgentOpen(!agentOpen)} aria-expanded={agentOpen} aria-controls="agent-panel">
              {agentOpen ? t("agent.close") : t("agent.open")}
              {replying && !agentOpen && (
                <span className="replying" role="status">
                  {" "}
                  · {t("agent.replying")}
                </span>
              )}
            </button>
          </div>
          {notice && <p role="alert">{notice}</p>}
          {!online && (
            <p role="status" className="offline-notice">
              {t("trip.offlineCopy")}
            </p>
          )}
        </header>
        <Toasts
          toasts={toasts}
          trip={trip}
          canApprove={mayRun(role, "editor")}
          onAnswer={(id, approved) => void answer(id, approved)}
          onDiscuss={(s) => {
            setAgentDraft(`About the suggestion “${s.suggestion}” (${s.reason}): `);
            setAgentOpen(true);
          }}
          onDismiss={(id) => setToasts((all) => all.filter((x) => x.suggestion.suggestionId !== id))}
        />
        {trip.days?.some((d) => d.stage) && (
          <section className="card" aria-labelledby="map-title">
            <h2 id="map-title">{t("trip.map")}</h2>
            <RouteMap trip={trip} point={point} preview={preview} onAddStop={mayRun(role, "editor") ? addStop : undefined} />
            <h3>{t("trip.effort")}</h3>
            <EffortChart days={trip.days ?? []} />
          </section>
        )}
        <DaysList trip={trip} onPoint={setPoint} runOp={mayRun(role, "editor") ? runOp : undefined} />
        <Expenses trip={trip} />
        <Members trip={trip} role={role} onChanged={() => void reload()} />
        <OpsPanel trip={trip} role={role} ops={ops} onTrip={showTrip} reload={reload} />
      </div>
      {agentOpen && (
        <div id="agent-panel">
          <AgentPanel
            trip={trip}
            role={role}
            ops={ops}
            liveTurn={liveTurn}
            onPreview={showPreview}
            refreshKey={agentRefresh + trip.version}
            draft={agentDraft}
            onClose={() => setAgentOpen(false)}
          />
        </div>
      )}
    </div>
    </PeopleContext.Provider>
  );
}
