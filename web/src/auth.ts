// Sign-in: OpenID Connect, authorization code with PKCE, through oidc-client-ts. The same code signs in
// against the local development provider and against Cognito; only the runtime configuration differs.
import { UserManager, WebStorageStateStore, type User } from "oidc-client-ts";
import type { OidcConfig } from "./config";

export interface Session {
  userId: string;
  /** A valid access token, for the API, the agent stream and the WebSocket. */
  token: () => string;
  signOut: () => Promise<void>;
}

const CALLBACK_PATH = "/";

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
    // Tokens in sessionStorage: a tab keeps its sign-in across reloads, another browser is another person.
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    automaticSilentRenew: false,
  });
}

function sessionOf(manager: UserManager, user: User): Session {
  let current = user;
  manager.events.addUserLoaded((loaded) => {
    current = loaded;
  });
  return {
    userId: user.profile.sub,
    token: () => current.access_token,
    signOut: async () => {
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
  return null;
}

/** Start the redirect to the provider; come back to the same place in the app. */
export function signIn(manager: UserManager): Promise<void> {
  return manager.signinRedirect({ state: window.location.hash });
}
