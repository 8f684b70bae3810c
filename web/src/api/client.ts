// The one API client: typed from the API's own OpenAPI document (schema.d.ts is generated from
// /openapi.json by `make web`; a test fails when it is not current), so a route or a shape that the
// server does not have is a type error here.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

export type Schemas = components["schemas"];
export type Trip = Schemas["Trip"];
export type Day = Schemas["Day"];
export type Stop = Schemas["Stop"];
export type Role = Schemas["Role"];
export type BriefReply = Schemas["BriefReply"];
export type Collected = Schemas["Collected"];
export type Operation = Schemas["OperationDescription"];
export type Suggestion = Schemas["SuggestionView"];
export type HistoryMessage = Schemas["UIMessage"];

/** An answer of the API in its error shape `{error, message, details}`, with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type ApiClient = ReturnType<typeof createApi>;

/** The API, through the session's fetch: the token on every call, one renewal and a retry on a 401. */
export function createApi(baseUrl: string, authorizedFetch: typeof fetch) {
  return createClient<paths>({ baseUrl, fetch: authorizedFetch });
}

/** The data of an openapi-fetch answer, or an ApiError with the server's code and sentence. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let answer: { data?: T; error?: unknown; response: Response };
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, "network_error", "The server could not be reached.", {});
  }
  const { data, error, response } = answer;
  if (response.ok) return data as T;
  const body = (error && typeof error === "object" ? error : {}) as Record<string, unknown>;
  const code = typeof body.error === "string" ? body.error : response.status === 401 ? "unauthorized" : "http_error";
  const message = typeof body.message === "string" ? body.message : `The server answered ${response.status}.`;
  throw new ApiError(response.status, code, message, body);
}
