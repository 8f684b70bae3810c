// The runtime configuration: written beside the bundle (locally served by the gateway, in AWS uploaded
// to the bucket by the deploy step), so one build runs anywhere.
export interface OidcConfig {
  authority: string;
  /** Where the discovery document is, when it is not under the authority (the local provider). */
  metadataUrl?: string | null;
  clientId: string;
  scope?: string;
}

export interface RuntimeConfig {
  apiUrl: string;
  agentUrl: string;
  webSocketUrl: string | null;
  oidc: OidcConfig;
  tileUrl: string | null;
  tileAttribution: string | null;
}

export async function loadConfig(): Promise<RuntimeConfig> {
  const response = await fetch("/config.json", { cache: "no-cache" });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  return (await response.json()) as RuntimeConfig;
}
