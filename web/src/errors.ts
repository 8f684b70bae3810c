// What a typed failure means to a person, and what to do next, in the reader's language.
import { ApiError } from "./api/client";
import type { Translate } from "./i18n";

interface Detail {
  slot?: string;
  query?: string;
  suggestions?: string[];
  candidates?: { index: number; label: string }[];
  coveredRegions?: string[];
  missing?: string[];
  place?: string;
}

function firstDetail(error: ApiError): Detail {
  const details = error.body.details;
  return Array.isArray(details) && details.length && typeof details[0] === "object" ? (details[0] as Detail) : {};
}

export function sentenceFor(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  const d = firstDetail(error);
  switch (error.code) {
    case "place_not_found": {
      const also = d.suggestions?.length ? t("error.didYouMean", { names: d.suggestions.slice(0, 3).join(", ") }) : "";
      return t("error.placeNotFound", { query: d.query ?? t("error.thatPlace"), also });
    }
    case "ambiguous_place": {
      const options = d.candidates?.map((c) => c.label).join("; ");
      return t("error.ambiguous", { query: d.query ?? t("error.thatPlace"), options: options ? `: ${options}` : "" });
    }
    case "out_of_coverage":
      return t("error.outside", {
        place: d.place ?? t("error.thatPlace"),
        regions: d.coveredRegions?.length ? t("error.weRouteIn", { regions: d.coveredRegions.join(", ") }) : "",
      });
    case "needs_more_info":
      return t("error.needsMore", { message: error.message });
    case "no_route":
      return t("error.noRoute");
    case "routing_unavailable":
      return t("error.routingDown");
    case "version_conflict":
    case "write_conflict":
      return t("error.conflict");
    case "already_decided":
      return t("error.decided", {
        by: typeof error.body.decidedBy === "string" ? t("error.decidedBy", { user: error.body.decidedBy }) : "",
      });
    case "forbidden":
      return t("error.forbidden");
    case "rate_limited":
    case "budget_exceeded":
      return t("error.slowDown", { message: error.message });
    case "validation_error":
      return t("error.invalid", { message: error.message });
    case "network_error":
      return t("error.network");
    case "ai_unavailable":
      return t("error.aiUnavailable");
    case "reply_interrupted":
      return t("error.interrupted");
    case "dependency_unavailable":
    case "store_busy":
      return t("error.unavailable");
    case "internal_error":
      return t("error.generic");
    default:
      return error.message;
  }
}

/** A failed chat stream or chat request as the API error it carries: the AI SDK hands over an HTTP error's
 * body, and a stream's error chunk, as the message; both are the API's error body ({error, message}). */
export function chatError(error: Error): ApiError {
  if (error instanceof ApiError) return error;
  try {
    const body = JSON.parse(error.message) as Record<string, unknown>;
    if (typeof body.error === "string") return new ApiError(0, body.error, String(body.message ?? ""), body);
  } catch {
    // not an API body: a network failure, or a client-side error
  }
  const network = error instanceof TypeError || /fetch|network/i.test(error.message);
  return new ApiError(0, network ? "network_error" : "internal_error", error.message, {});
}
