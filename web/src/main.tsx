import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createApi } from "./api/client";
import { restoreSession, signIn, userManager } from "./auth";
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
            api: createApi(config.apiUrl, session.token, () => void manager.removeUser().then(() => signIn(manager))),
          }}
        />
      ) : (
        <SignedOut manager={manager} />
      )}
    </StrictMode>,
  );
}

void start();
