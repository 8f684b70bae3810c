// Sign-in: OpenID Connect, authorization code with PKCE, through oidc-client-ts. The same code signs in
// against the local development provider and against Cognito; only the runtime configuration differs.
//
// A session lasts: the access token is renewed silently before it expires (the refresh token), every
// request path (the API, the agent's stream, the GPX, the WebSocket) goes through one handler that renews
// once on a 401 and tries again, and only when that fails does the app sign in again, keeping the drafts
// (they live in sessionStorage, see drafts.ts) and coming back to the same page.
import { UserManager, WebStorageStateStore, type User } from "oidc-client-ts";
import type { OidcConfig } from "./config";

export interface Session {
  userId: string;
  /** The name the provider gives (the ID token's), for the page's own "signed in as". */
  displayName: string;
  /** The provider's ID token, which the server verifies to learn who this is (PUT /me/profile). */
  idToken: () => string | undefined;
  /** The current access token. */
  token: () => string;
  /** fetch with the access token: a 401 renews the session once and tries again, then signs in again. */
  fetch: typeof fetch;
  /** A token for a path that cannot retry itself (the WebSocket's connect): renewed first if expiring. */
  freshToken: () => Promise<string>;
  signOut: () => Promise<void>;
}

const CALLBACK_PATH = "/";
const RENEW_BEFORE_S = 10; // renew this long before expiry (Cognito's tokens last an hour; the suite's seconds)

export function userManager(config: OidcConfig): UserManager {
  const origin = window.location.origin;
  return new UserManager({
    authority: config.authority,
    metadataUrl: config.metadataUrl ?? undefined,
    client_id: config.clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: "code",
    scope: config.scope ?? "openid profile",
    // Tokens in localStorage: every tab of this browser is the same person, signed in once.
    userStore: new WebStorageStateStore({ store: window.localStorage }),
    automaticSilentRenew: true, // with the refresh token, before the access token expires
    accessTokenExpiringNotificationTimeInSeconds: RENEW_BEFORE_S,
  });
}

function withToken(input: RequestInfo | URL, init: RequestInit | undefined, token: string): [RequestInfo | URL, RequestInit | undefined] {
  if (input instanceof Request) {
    const request = new Request(input, init);
    request.headers.set("Authorization", `Bearer ${token}`);
    return [request, undefined];
  }
  const headers = new Headers(init?.headers);
  headers.set("Authorization", `Bearer ${token}`);
  return [input, { ...init, headers }];
}

function sessionOf(manager: UserManager, user: User): Session {
  let current = user;
  manager.events.addUserLoaded((loaded) => {
    current = loaded;
  });
  let renewing: Promise<boolean> | null = null;
  /** One silent renewal at a time, however many requests were refused at once. */
  const renew = (): Promise<boolean> =>
    (renewing ??= manager
      .signinSilent()
      .then((renewed) => {
        if (renewed) current = renewed;
        return !!renewed;
      })
      .catch(() => false)
      .finally(() => {
        renewing = null;
      }));
  let leaving = false;
  /** The session cannot be renewed: sign in again, back to this page (the drafts are in sessionStorage). */
  const signInAgain = () => {
    if (leaving) return;
    leaving = true;
    void manager.removeUser().then(() => signIn(manager));
  };
  const authorizedFetch: typeof fetch = async (input, init) => {
    const again = input instanceof Request ? input.clone() : input; // a request's body is read once
    const response = await fetch(...withToken(input, init, current.access_token));
    if (response.status !== 401) return response;
    if (!(await renew())) {
      signInAgain();
      return response;
    }
    return fetch(...withToken(again, init, current.access_token));
  };
  const profile = user.profile;
  return {
    userId: profile.sub,
    displayName: String(profile.name ?? profile.preferred_username ?? profile.email ?? profile.sub),
    idToken: () => current.id_token,
    token: () => current.access_token,
    fetch: authorizedFetch,
    freshToken: async () => {
      if ((current.expires_in ?? 0) <= RENEW_BEFORE_S && !(await renew())) signInAgain();
      return current.access_token;
    },
    signOut: async () => {
      navigator.serviceWorker?.controller?.postMessage({ type: "signed-out" }); // its copies of the trips go
      // signoutRedirect forgets the user itself, after reading the id_token_hint it needs. A provider
      // without an end-session endpoint: forget the user here and start again.
      await manager.signoutRedirect().catch(async () => {
        await manager.removeUser();
        window.location.assign("/");
      });
    },
  };
}

/** The signed-in session, finishing a sign-in redirect first; null when nobody is signed in. */
export async function restoreSession(manager: UserManager): Promise<Session | null> {
  const params = new URLSearchParams(window.location.search);
  if ((params.has("code") || params.has("error")) && params.has("state")) {
    let back = "";
    try {
      const user = await manager.signinRedirectCallback();
      back = typeof user.state === "string" ? user.state : "";
      return sessionOf(manager, user);
    } catch {
      await manager.clearStaleState(); // a refused or replayed sign-in: start again from the sign-in page
      return null;
    } finally {
      // The code is single use: never leave it in the URL for a reload to replay.
      window.history.replaceState(null, "", `${CALLBACK_PATH}${back}`);
    }
  }
  const user = await manager.getUser();
  if (user && !user.expired) return sessionOf(manager, user);
  // On the road with no network: the trips kept on this device open with the session they were kept in.
  if (user && !navigator.onLine) return sessionOf(manager, user);
  if (user?.refresh_token) {
    // Back after the access token expired (a closed laptop): renew it silently rather than ask again.
    const renewed = await manager.signinSilent().catch(() => null);
    if (renewed) return sessionOf(manager, renewed);
  }
  return null;
}

/** Start the redirect to the provider; come back to the same place in the app. */
export function signIn(manager: UserManager): Promise<void> {
  return manager.signinRedirect({ state: window.location.hash });
}
