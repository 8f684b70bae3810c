import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createApi } from "./api/client";
import { restoreSession, userManager } from "./auth";
import { App, SignedOut } from "./components/App";
import { loadConfig } from "./config";
// (Leaflet's styles with the app's: a chunk loaded on demand gets its script, not its stylesheet)
import "leaflet/dist/leaflet.css";
import "./styles.css";

async function start(): Promise<void> {
  const root = createRoot(document.getElementById("root")!);
  const config = await loadConfig();
  const manager = userManager(config.oidc);
  const session = await restoreSession(manager).catch(() => null);
  root.render(
    <StrictMode>
      {session ? (
        <App
          services={{
            config,
            session,
            api: createApi(config.apiUrl, session.fetch),
          }}
        />
      ) : (
        <SignedOut manager={manager} />
      )}
    </StrictMode>,
  );
}

// The app on the road (src/sw.ts): the shell and the trips opened, kept for when there is no network.
if ("serviceWorker" in navigator) void navigator.serviceWorker.register("/sw.js").catch(() => undefined);

void start();
