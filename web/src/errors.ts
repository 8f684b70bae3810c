// What a typed failure means to a person, and what to do next.
import { ApiError } from "./api/client";

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

export function sentenceFor(error: unknown): string {
  if (!(error instanceof ApiError)) return "Something went wrong. Try again.";
  const d = firstDetail(error);
  switch (error.code) {
    case "place_not_found": {
      const also = d.suggestions?.length ? ` Did you mean ${d.suggestions.slice(0, 3).join(", ")}?` : "";
      return `I could not find a place called “${d.query ?? "that"}”.${also} Check the spelling, or name a nearby town.`;
    }
    case "ambiguous_place": {
      const options = d.candidates?.map((c) => c.label).join("; ");
      return `“${d.query ?? "That place"}” could be several places${options ? `: ${options}` : ""}. Say which one in the chat.`;
    }
    case "out_of_coverage":
      return `${d.place ?? "That place"} is outside the area we can route${
        d.coveredRegions?.length ? ` (we route in ${d.coveredRegions.join(", ")})` : ""
      }. Choose a start and end inside it.`;
    case "needs_more_info":
      return `${error.message} Add it in the chat, then generate again.`;
    case "no_route":
      return "No cycling route joins these places. Try other places or another bike.";
    case "routing_unavailable":
      return "The routing service is not answering right now. Try again in a minute.";
    case "version_conflict":
    case "write_conflict":
      return "Someone changed the trip meanwhile: it was reloaded, check and try again.";
    case "already_decided":
      return `This was already decided${typeof error.body.decidedBy === "string" ? ` by ${error.body.decidedBy}` : ""}.`;
    case "forbidden":
      return "Your role on this trip does not allow that.";
    case "rate_limited":
    case "budget_exceeded":
      return `${error.message} Wait a little and try again.`;
    case "validation_error":
      return `That was not accepted: ${error.message}`;
    case "network_error":
      return "The server could not be reached. Check the connection and try again.";
    default:
      return error.message;
  }
}
