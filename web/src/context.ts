// What every component of a signed-in page needs: the configuration, the session and the API client.
import { createContext, useContext } from "react";
import type { ApiClient } from "./api/client";
import type { Session } from "./auth";
import type { RuntimeConfig } from "./config";

export interface AppServices {
  config: RuntimeConfig;
  session: Session;
  api: ApiClient;
}

export const ServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices outside a signed-in page");
  return services;
}
