// One tool call of the agent, as a card written in words: what it would change (in the reader's language,
// with the trip's names for its ids), and, while it waits, Approve and Deny (with an optional reason the
// agent reads) for members who may approve. Its change is drawn on the map until it is answered.
import { getToolName, type UIMessage } from "ai";
import { useState } from "react";
import type { Trip } from "../api/client";
import { useI18n } from "../i18n";
import { describeOp } from "../opWords";
import { useNameOf, type NameOf } from "../people";

type ToolPart = Extract<UIMessage["parts"][number], { toolCallId: string }>;

/** Where a proposal's change is, for the map: the new place, or the stop it changes. */
export interface MapPreview {
  lat: number;
  lon: number;
  label: string;
}

export function previewOf(name: string, input: Record<string, unknown> | undefined, trip: Trip): MapPreview | null {
  const args = input ?? {};
  if (typeof args.lat === "number" && typeof args.lon === "number") {
    return { lat: args.lat, lon: args.lon, label: String(args.name ?? name) };
  }
  const stop = trip.stops?.find((s) => s.stopId === args.stopId);
  return stop?.lat != null && stop.lon != null ? { lat: stop.lat, lon: stop.lon, label: stop.name } : null;
}

export function ToolCard({
  part,
  name,
  trip,
  canApprove,
  busy,
  onDecide,
}: {
  part: ToolPart;
  name: string;
  trip: Trip;
  canApprove: boolean;
  busy: boolean;
  onDecide: (approved: boolean, reason?: string) => void;
}) {
  const { t, locale } = useI18n();
  const nameOf = useNameOf();
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const input = ("input" in part ? part.input : undefined) as Record<string, unknown> | undefined;
  const sentence = describeOp(name || getToolName(part), input, trip, t, locale, nameOf);
  const onMap = part.state === "approval-requested" && previewOf(name, input, trip) !== null;
  return (
    <div className={`tool-card ${part.state}`} data-testid="tool-card" data-state={part.state} data-tool={name}>
      <p className="tool-name">
        <b>{sentence}</b>
      </p>
      {onMap && <p className="muted tool-preview">{t("agent.onMap")}</p>}
      {part.state === "approval-requested" &&
        (!canApprove ? (
          <p className="muted">{t("agent.readOnly")}</p>
        ) : denying ? (
          <form
            className="tool-actions deny-reason"
            onSubmit={(e) => {
              e.preventDefault();
              onDecide(false, reason.trim());
            }}
          >
            <input
              aria-label={t("agent.denyReason")}
              placeholder={t("agent.denyReason")}
              value={reason}
              maxLength={300}
              onChange={(e) => setReason(e.target.value)}
              autoFocus
            />
            <button type="submit" disabled={busy} aria-label={`${t("agent.deny")}: ${sentence}`}>
              {t("agent.deny")}
            </button>
            <button type="button" className="link" onClick={() => setDenying(false)}>
              {t("agent.cancel")}
            </button>
          </form>
        ) : (
          <div className="tool-actions">
            <button type="button" className="primary" disabled={busy} aria-label={`${t("agent.approve")}: ${sentence}`} onClick={() => onDecide(true)}>
              {t("agent.approve")}
            </button>
            <button type="button" disabled={busy} aria-label={`${t("agent.deny")}… ${sentence}`} onClick={() => setDenying(true)}>
              {t("agent.deny")}…
            </button>
          </div>
        ))}
      {part.state === "approval-responded" && <p className="muted">{part.approval.approved ? t("agent.applying") : t("agent.denying")}</p>}
      {part.state === "output-available" && <p className="ok">{outputInWords(part.output, t, nameOf)}</p>}
      {part.state === "output-denied" && <p className="muted">{t("agent.denied")}</p>}
      {part.state === "output-error" && <p className="error">{part.errorText}</p>}
    </div>
  );
}

function outputInWords(output: unknown, t: ReturnType<typeof useI18n>["t"], nameOf: NameOf): string {
  const o = output as { applied?: boolean; approvedBy?: string | null } | undefined;
  if (o?.applied) return o.approvedBy ? t("agent.appliedBy", { user: nameOf(o.approvedBy) }) : t("agent.applied");
  return t("agent.done");
}
