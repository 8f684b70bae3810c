// The reviewer's suggestions as toasts: Approve / Discuss / Deny (labels from the backend's catalogs).
// Their state is the server's: listed on open, then moved by the trip's pushes; a decision by someone
// else turns the toast into "approved by X".
import type { Suggestion, Trip } from "../api/client";
import { useI18n } from "../i18n";
import { describeOp } from "../opWords";
import { useNameOf } from "../people";

export interface ToastState {
  suggestion: Suggestion;
  /** A sentence of our own about the last answer (for example "already decided by alice"). */
  notice?: string;
  busy?: boolean;
}

export function Toasts({
  toasts,
  trip,
  canApprove,
  onAnswer,
  onDiscuss,
  onDismiss,
}: {
  toasts: ToastState[];
  trip: Trip;
  canApprove: boolean;
  onAnswer: (suggestionId: string, approved: boolean) => void;
  onDiscuss: (suggestion: Suggestion) => void;
  onDismiss: (suggestionId: string) => void;
}) {
  const { t, locale } = useI18n();
  const nameOf = useNameOf();
  return (
    <section className="toasts" aria-label={t("toasts.label")} aria-live="polite">
      {toasts.map(({ suggestion: s, notice, busy }) => {
        const open = s.status === "pending";
        return (
          <article key={s.suggestionId} className={`toast ${s.severity}`} data-testid="toast" data-suggestion={s.suggestionId} aria-label={s.reason}>
            <p className="toast-reason">
              <b>{s.reason}</b>
            </p>
            <p>{s.suggestion}</p>
            {s.pendingPatch && (
              <p className="toast-change" data-testid="toast-change">
                {describeOp(s.pendingPatch.op, s.pendingPatch.args as Record<string, unknown>, trip, t, locale, nameOf)}
              </p>
            )}
            {open ? (
              <div className="toast-actions">
                {canApprove && (
                  <button type="button" className="primary" disabled={busy} onClick={() => onAnswer(s.suggestionId, true)}>
                    {t("agent.toast.approve")}
                  </button>
                )}
                <button type="button" onClick={() => onDiscuss(s)}>
                  {t("agent.toast.discuss")}
                </button>
                {canApprove && ( // a viewer's answer is refused (403): only discussing is theirs
                  <button type="button" disabled={busy} onClick={() => onAnswer(s.suggestionId, false)}>
                    {t("agent.toast.deny")}
                  </button>
                )}
              </div>
            ) : (
              <p className="toast-decided" role="status">
                {s.status === "applied"
                  ? t("toast.approvedBy", { user: nameOf(s.decidedBy ?? "?") })
                  : t("toast.decided", { status: s.status, user: s.decidedBy ? nameOf(s.decidedBy) : "system" })}
              </p>
            )}
            {notice && <p className="toast-notice">{notice}</p>}
            {!open && (
              <button type="button" className="link" onClick={() => onDismiss(s.suggestionId)}>
                {t("toast.close")}
              </button>
            )}
          </article>
        );
      })}
    </section>
  );
}
