// The trip agent, on the AI SDK UI client: useChat with DefaultChatTransport against the streamed chat,
// the shared history from GET .../agent/messages, proposed writes as approval cards, numbered
// clarifications as buttons. The history is the server's: on open, and whenever the trip says a new
// message landed, the panel reloads it (a reload of the page shows the same pending cards).
import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  getToolName,
  isDataUIPart,
  isTextUIPart,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from "ai";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { unwrap, type Operation, type Role } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { useI18n } from "../i18n";
import { Composer } from "./Composer";
import { mayRun } from "./OpsPanel";

interface Clarify {
  question: string;
  options: { index: number; label: string }[];
}

export function AgentPanel({
  tripId,
  role,
  ops,
  refreshKey,
  draft,
  onClose,
}: {
  tripId: string;
  role: Role;
  ops: Operation[];
  /** Changes when the trip's channel says a message landed: the history is read again. */
  refreshKey: number;
  draft: string;
  onClose: () => void;
}) {
  const { api } = useServices();
  const [history, setHistory] = useState<UIMessage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    unwrap(api.GET("/trips/{tripId}/agent/messages", { params: { path: { tripId } } }))
      .then((answer) => setHistory(answer.messages as unknown as UIMessage[]))
      .catch((e: unknown) => setError(sentenceFor(e, t)));
  }, [api, tripId]);
  const { t } = useI18n();
  return (
    <aside className="agent card" aria-labelledby="agent-title">
      <div className="agent-head">
        <h2 id="agent-title">{t("agent.title")}</h2>
        <button type="button" className="link" onClick={onClose} aria-label={t("agent.close")}>
          ×
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      {history && <AgentChat tripId={tripId} role={role} ops={ops} initial={history} refreshKey={refreshKey} draft={draft} />}
    </aside>
  );
}

function AgentChat({
  tripId,
  role,
  ops,
  initial,
  refreshKey,
  draft,
}: {
  tripId: string;
  role: Role;
  ops: Operation[];
  initial: UIMessage[];
  refreshKey: number;
  draft: string;
}) {
  const { api, config, session } = useServices();
  const { t } = useI18n();
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: `${config.agentUrl}/trips/${tripId}/agent/chat`,
        headers: () => ({ Authorization: `Bearer ${session.token()}` }),
      }),
    [config.agentUrl, tripId, session],
  );
  // The shared history is the server's: read again after every stream (it also holds what others said
  // meanwhile), and whenever the trip's channel says something landed, once no stream is running.
  const reloadRef = useRef<() => void>(() => undefined);
  const { messages, setMessages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    id: `trip-${tripId}`,
    messages: initial,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: () => reloadRef.current(),
    onError: () => reloadRef.current(),
  });
  const [text, setText] = useState(draft);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    setText(draft);
  }, [draft]);
  const idle = status === "ready" || status === "error";
  const reload = useCallback(async () => {
    const answer = await unwrap(api.GET("/trips/{tripId}/agent/messages", { params: { path: { tripId } } }));
    setMessages(answer.messages as unknown as UIMessage[]);
  }, [api, tripId, setMessages]);
  reloadRef.current = () => void reload().catch(() => undefined);
  const seenRefresh = useRef(refreshKey);
  useEffect(() => {
    if (idle && seenRefresh.current !== refreshKey) {
      seenRefresh.current = refreshKey;
      reloadRef.current();
    }
  }, [refreshKey, idle]);

  /** Answer a proposal. The SDK continues the last message; in a shared session the card may sit under
   * later turns (events, other members), so the chat is cut back to its message first: the
   * continuation goes on in that message, and the reload after it brings the later turns back. */
  const decide = (messageId: string, approvalId: string, approved: boolean) => {
    const index = messages.findIndex((m) => m.id === messageId);
    if (index >= 0 && index < messages.length - 1) setMessages(messages.slice(0, index + 1));
    void addToolApprovalResponse({ id: approvalId, approved });
  };
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    input.current?.focus(); // opening the panel (or Discuss) puts you in its composer
  }, []);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // Braced: scrollIntoView returns a promise in recent Chromium, and an effect may return only a cleanup.
    void list.current?.lastElementChild?.scrollIntoView({ block: "nearest" });
  }, [messages]);

  const required = (toolName: string): Role => ops.find((o) => o.name === toolName)?.requiredRole ?? "editor";
  const submit = async () => {
    const message = text.trim();
    if (!message || !idle) return;
    setText("");
    setNotice(null);
    if (/^@agent\b/i.test(message)) {
      // A mention: the answer lands in the shared session for everyone, and comes back over the channel.
      try {
        await unwrap(api.POST("/trips/{tripId}/agent/mentions", { params: { path: { tripId } }, body: { text: message } }));
        setNotice(t("agent.sentToAll"));
        await reload();
      } catch (e) {
        setNotice(sentenceFor(e, t));
      }
      return;
    }
    await sendMessage({ text: message });
  };

  return (
    <div className="agent-chat">
      <ol className="messages" ref={list} aria-label={t("agent.conversation")} tabIndex={0}>
        {messages.map((message) => (
          <li key={message.id} className={`message ${message.role}${eventOf(message) ? " event" : ""}`}>
            <span className="speaker">
              {message.role === "user" ? actorOf(message) ?? t("brief.you") : t("agent.title")}
            </span>
            {message.parts.map((part, i) => {
              if (isTextUIPart(part)) return part.text ? <p key={i}>{part.text}</p> : null;
              if (isToolUIPart(part)) {
                const name = getToolName(part);
                const canApprove = mayRun(role, required(name));
                return (
                  <div key={i} className={`tool-card ${part.state}`} data-testid="tool-card" data-state={part.state}>
                    <p className="tool-name">
                      <b>{name.replaceAll("_", " ")}</b> <code>{JSON.stringify(part.input)}</code>
                    </p>
                    {part.state === "approval-requested" &&
                      (canApprove ? (
                        <div className="tool-actions">
                          <button
                            type="button"
                            className="primary"
                            disabled={!idle}
                            aria-label={`${t("agent.approve")}: ${name.replaceAll("_", " ")}`}
                            onClick={() => decide(message.id, part.approval.id, true)}
                          >
                            {t("agent.approve")}
                          </button>
                          <button
                            type="button"
                            disabled={!idle}
                            aria-label={`${t("agent.deny")}: ${name.replaceAll("_", " ")}`}
                            onClick={() => decide(message.id, part.approval.id, false)}
                          >
                            {t("agent.deny")}
                          </button>
                        </div>
                      ) : (
                        <p className="muted">{t("agent.readOnly")}</p>
                      ))}
                    {part.state === "approval-responded" && <p className="muted">{part.approval.approved ? t("agent.applying") : t("agent.denying")}</p>}
                    {part.state === "output-available" && <p className="ok">{describeOutput(part.output)}</p>}
                    {part.state === "output-denied" && <p className="muted">{t("agent.denied")}</p>}
                    {part.state === "output-error" && <p className="error">{part.errorText}</p>}
                  </div>
                );
              }
              if (isDataUIPart(part) && part.type === "data-clarify") {
                const clarify = part.data as Clarify;
                return (
                  <div key={i} className="clarify" role="group" aria-label={clarify.question}>
                    {clarify.options.map((o) => (
                      <button key={o.index} type="button" disabled={!idle} onClick={() => void sendMessage({ text: String(o.index) })}>
                        {o.index}. {o.label}
                      </button>
                    ))}
                  </div>
                );
              }
              return null;
            })}
          </li>
        ))}
      </ol>
      {status === "submitted" && (
        <p role="status" className="muted">
          {t("agent.thinking")}
        </p>
      )}
      <p className="visually-hidden" aria-live="polite">
        {idle ? lastReply(messages) : ""}
      </p>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
      <Composer
        id="agent-input"
        label={t("agent.placeholder")}
        sendLabel={t("agent.send")}
        value={text}
        disabled={!idle}
        inputRef={input}
        onChange={setText}
        onSend={() => void submit()}
      />
    </div>
  );
}

/** The agent's last finished words, for screen readers (announced once, not every streamed piece). */
function lastReply(messages: UIMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === "assistant");
  return last?.parts.flatMap((p) => (isTextUIPart(p) ? [p.text] : [])).join(" ") ?? "";
}

/** A turn the trip itself wrote (an operation, a decision), not something a member said. */
function eventOf(message: UIMessage): string | null {
  const metadata = message.metadata as { event?: string } | undefined;
  return metadata?.event ?? null;
}

function actorOf(message: UIMessage): string | null {
  const metadata = message.metadata as { actor?: string } | undefined;
  return metadata?.actor ?? null;
}

function describeOutput(output: unknown): string {
  const o = output as { applied?: boolean; approvedBy?: string | null } | undefined;
  if (o?.applied) return o.approvedBy ? `Applied, approved by ${o.approvedBy}.` : "Applied.";
  return "Done.";
}
