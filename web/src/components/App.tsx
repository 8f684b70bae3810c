import { useEffect, useMemo, useState } from "react";
import type { UserManager } from "oidc-client-ts";
import { signIn } from "../auth";
import { ServicesContext, type AppServices } from "../context";
import { I18nContext, LOCALES, translator, useI18n, type Locale } from "../i18n";
import { usePlace } from "../route";
import { unwrap } from "../api/client";
import { Home } from "./Home";
import { JoinPage } from "./JoinPage";
// The trip page brings the map (Leaflet) and the agent (the AI SDK): loaded with the first trip opened,
// not with the sign-in page and the list of trips
// (Not React.lazy: Suspense holds revealed content back ~300 ms after a fallback, which every opening of a
// trip would pay.)
type TripPageModule = typeof import("./TripPage");
let tripPageModule: TripPageModule | null = null;
const loadTripPage = () => import("./TripPage").then((m) => (tripPageModule = m));
// Opened on a trip's address: fetch its chunk now, beside the configuration and the sign-in, not after them
if (window.location.hash.startsWith("#/trips/")) void loadTripPage();

function useTripPage(wanted: boolean): TripPageModule["TripPage"] | null {
  const [loaded, setLoaded] = useState(tripPageModule);
  useEffect(() => {
    if (wanted && !loaded) void loadTripPage().then(setLoaded);
  }, [wanted, loaded]);
  return loaded?.TripPage ?? null;
}

const LOCALE_KEY = "tripagent.locale";

/** The chrome's language before anyone chooses one: the browser's, when we have it. */
function browserLocale(): Locale {
  const language = navigator.language.toLowerCase();
  return language.startsWith("fr") ? "fr" : language.startsWith("zh") ? "zh-Hans" : "en";
}

function useLocaleState() {
  const [locale, setLocaleState] = useState<Locale>(
    () => (window.localStorage.getItem(LOCALE_KEY) as Locale | null) ?? browserLocale(),
  );
  useEffect(() => {
    document.documentElement.lang = locale; // screen readers pronounce the page in its language
  }, [locale]);
  return useMemo(
    () => ({
      locale,
      t: translator(locale),
      setLocale: (next: Locale) => {
        window.localStorage.setItem(LOCALE_KEY, next);
        setLocaleState(next);
      },
    }),
    [locale],
  );
}

function LanguageSwitch() {
  const { locale, setLocale, t } = useI18n();
  return (
    <label className="language">
      <span>{t("app.language")}</span>
      <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
        {LOCALES.map((l) => (
          <option key={l.id} value={l.id}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function App({ services }: { services: AppServices }) {
  const i18n = useLocaleState();
  const place = usePlace();
  const TripPage = useTripPage(place.page === "trip");
  const { t } = i18n;
  // Say who this is (the provider's ID token, verified by the server): names on every screen, and the
  // invitations waiting for this address accepted; the list of trips is read again if any was.
  const [joined, setJoined] = useState(0);
  useEffect(() => {
    const idToken = services.session.idToken();
    if (!idToken) return;
    unwrap(services.api.PUT("/me/profile", { body: { idToken } }))
      .then((profile) => {
        if (profile.joined.length) setJoined((n) => n + 1);
      })
      .catch(() => undefined);
  }, [services]);
  return (
    <I18nContext.Provider value={i18n}>
      <ServicesContext.Provider value={services}>
        <header className="topbar">
          <a href="#/" className="brand">
            {t("app.title")}
          </a>
          <div className="topbar-end">
            <LanguageSwitch />
            <span className="who">{t("app.signedInAs", { user: services.session.displayName })}</span>
            <button type="button" onClick={() => void services.session.signOut()}>
              {t("app.signOut")}
            </button>
          </div>
        </header>
        <main id="main">
          {place.page === "trip" ? (
            TripPage ? (
              <TripPage key={place.tripId} tripId={place.tripId} />
            ) : (
              <p role="status">{t("trip.loading")}</p>
            )
          ) : place.page === "join" ? (
            <JoinPage token={place.token} />
          ) : (
            <Home key={joined} />
          )}
        </main>
      </ServicesContext.Provider>
    </I18nContext.Provider>
  );
}

export function SignedOut({ manager }: { manager: UserManager }) {
  const i18n = useLocaleState();
  const { t } = i18n;
  return (
    <I18nContext.Provider value={i18n}>
      <header className="topbar">
        <span className="brand">{t("app.title")}</span>
        <div className="topbar-end">
          <LanguageSwitch />
        </div>
      </header>
      <main id="main" className="signed-out">
        <h1>{t("app.title")}</h1>
        <p>{t("app.tagline")}</p>
        <button type="button" className="primary" onClick={() => void signIn(manager)}>
          {t("app.signIn")}
        </button>
      </main>
    </I18nContext.Provider>
  );
}
