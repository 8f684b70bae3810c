// The trip agent, on the AI SDK UI client: useChat with DefaultChatTransport against the streamed chat,
// the shared history from GET .../agent/messages, proposed writes as approval cards written in words,
// numbered clarifications as buttons. The history is the server's: on open, and whenever the trip says a
// new message landed, the panel reloads it (a reload of the page shows the same pending cards).
//
// A reply is stored as it is written, so the panel reattaches to it (useChat's resume): on open (a reload
// mid-reply), and when the trip says another member's reply began (every member watches it live). A member
// who may edit can stop it, whoever asked; only the new message is sent, the server keeps the history.
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
import { unwrap, type Operation, type Role, type Trip } from "../api/client";
import { useServices } from "../context";
import { chatError, sentenceFor } from "../errors";
import { useI18n } from "../i18n";
import { useDraft } from "../drafts";
import { describeOp } from "../opWords";
import { useNameOf, type NameOf } from "../people";
import { Composer } from "./Composer";
import { ToolCard, type MapPreview, previewOf } from "./ToolCard";
import { mayRun } from "./OpsPanel";

/** A reply another member's question started, as the trip's channel announced it. */
export interface LiveTurn {
  turnId: string;
  by: string;
  asked: string;
}

const LOCAL_STOP_AFTER_MS = 5000; // the server ends a stopped reply at the model's next word; past this, the client lets go

export function AgentPanel({
  trip,
  role,
  ops,
  refreshKey,
  liveTurn,
  draft,
  onClose,
  onPreview,
}: {
  trip: Trip;
  role: Role;
  ops: Operation[];
  /** Changes when the trip's channel says a message landed: the history is read again. */
  refreshKey: number;
  liveTurn: LiveTurn | null;
  draft: string;
  onClose: () => void;
  onPreview: (preview: MapPreview | null) => void;
}) {
  const { api } = useServices();
  const { t } = useI18n();
  const tripId = trip.tripId;
  const [history, setHistory] = useState<UIMessage[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    unwrap(api.GET("/trips/{tripId}/agent/messages", { params: { path: { tripId } } }))
      .then((answer) => setHistory(answer.messages as unknown as UIMessage[]))
      .catch((e: unknown) => setError(sentenceFor(e, t)));
  }, [api, tripId, t]);
  useEffect(() => () => onPreview(null), [onPreview]);
  return (
    <aside className="agent card" aria-labelledby="agent-title">
      <div className="agent-head">
        <h2 id="agent-title">{t("agent.title")}</h2>
        <button type="button" className="link" onClick={onClose} aria-label={t("agent.close")}>
          ×
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      {history && (
        <AgentChat
          trip={trip}
          role={role}
          ops={ops}
          initial={history}
          refreshKey={refreshKey}
          liveTurn={liveTurn}
          draft={draft}
          onPreview={onPreview}
        />
      )}
    </aside>
  );
}

function AgentChat({
  trip,
  role,
  ops,
  initial,
  refreshKey,
  liveTurn,
  draft,
  onPreview,
}: {
  trip: Trip;
  role: Role;
  ops: Operation[];
  initial: UIMessage[];
  refreshKey: number;
  liveTurn: LiveTurn | null;
  draft: string;
  onPreview: (preview: MapPreview | null) => void;
}) {
  const { api, config, session } = useServices();
  const { t, locale } = useI18n();
  const nameOf = useNameOf();
  const tripId = trip.tripId;
  const watching = useRef<LiveTurn | null>(null); // the other member's reply this panel is attached to
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: `${config.agentUrl}/trips/${tripId}/agent/chat`,
        fetch: session.fetch, // the token, and the one 401 handler
        // The server reads only the new message (the history is its own): send nothing else.
        prepareSendMessagesRequest: ({ messages, id, trigger, messageId, body, headers }) => ({
          body: { ...body, id, trigger, messageId, messages: messages.slice(-1) },
          headers,
        }),
        // Reattach to the reply being written: the one announced, else the trip's latest (204: none).
        prepareReconnectToStreamRequest: ({ headers }) => {
          const id = watching.current?.turnId;
          return {
            api: `${config.agentUrl}/trips/${tripId}/agent/chat/stream${id ? `?id=${encodeURIComponent(id)}` : ""}`,
            headers,
          };
        },
      }),
    [config.agentUrl, tripId, session],
  );
  // The shared history is the server's: read again after every stream (it also holds what others said
  // meanwhile), and whenever the trip's channel says something landed, once no stream is running.
  const reloadRef = useRef<() => void>(() => undefined);
  const lastSent = useRef("");
  const asking = useRef(false); // the stream running is this panel's own send (not a watched reply)
  const [text, setText] = useDraft(`agent.${tripId}`, draft);
  const { messages, setMessages, sendMessage, resumeStream, addToolApprovalResponse, status, error, clearError, stop } = useChat({
    id: `trip-${tripId}`,
    messages: initial,
    transport,
    resume: true, // a reload mid-reply reattaches to it
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: ({ message, isError }) => {
      // A send that failed before its reply began left the message unsent: the draft comes back, with
      // Retry. Once the reply began (its stream has an id) the message is stored and shows in the history.
      if (isError && asking.current && !metadataOf(message).streamId) setText((current) => current || lastSent.current);
      asking.current = false;
      reloadRef.current();
    },
    onError: () => {
      if (!asking.current) reloadRef.current(); // (a send's failure is handled as it finishes, above)
    },
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [watcher, setWatcher] = useState<LiveTurn | null>(null);
  useEffect(() => {
    if (draft) setText(draft); // "Discuss" on a suggestion (an empty one would wipe a kept draft)
  }, [draft, setText]);
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

  // Another member's reply began: show their question, then the reply as it is written.
  useEffect(() => {
    if (!liveTurn || !idle || messages.some((m) => m.id === liveTurn.turnId)) return;
    watching.current = liveTurn;
    setWatcher(liveTurn);
    const asked: UIMessage = {
      id: `asked-${liveTurn.turnId}`,
      role: "user",
      parts: [{ type: "text", text: liveTurn.asked }],
      metadata: { actor: liveTurn.by },
    };
    const shown = (all: UIMessage[]) => all.at(-1)?.role === "user" && sameQuestion(textOf(all.at(-1)!), liveTurn.asked);
    setMessages((all) => (shown(all) ? all : [...all, asked])); // (shown before the reply's first word)
    void resumeStream().finally(() => {
      watching.current = null;
      setWatcher(null);
      reloadRef.current();
    });
  }, [liveTurn]); // once per announced reply

  /** Answer a proposal. The SDK continues the last message; in a shared session the card may sit under
   * later turns (events, other members), so the chat is cut back to its message first: the
   * continuation goes on in that message, and the reload after it brings the later turns back. */
  const decide = (messageId: string, approvalId: string, approved: boolean, reason?: string) => {
    const index = messages.findIndex((m) => m.id === messageId);
    if (index >= 0 && index < messages.length - 1) setMessages(messages.slice(0, index + 1));
    void addToolApprovalResponse({ id: approvalId, approved, reason: reason || undefined });
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
  // The change the newest open proposal would make, drawn on the map until it is answered.
  useEffect(() => {
    const open = messages
      .flatMap((m) => m.parts)
      .filter((p) => isToolUIPart(p) && p.state === "approval-requested")
      .at(-1);
    onPreview(open && isToolUIPart(open) ? previewOf(getToolName(open), open.input as Record<string, unknown>, trip) : null);
  }, [messages, trip, onPreview]);

  const required = (toolName: string): Role => ops.find((o) => o.name === toolName)?.requiredRole ?? "editor";
  const submit = async (message: string) => {
    if (!message || !idle) return;
    clearError();
    setText("");
    setNotice(null);
    lastSent.current = message;
    if (/^@agent\b/i.test(message)) {
      // A mention: the answer lands in the shared session for everyone, and comes back over the channel.
      try {
        await unwrap(api.POST("/trips/{tripId}/agent/mentions", { params: { path: { tripId } }, body: { text: message } }));
        setNotice(t("agent.sentToAll"));
        await reload();
      } catch (e) {
        setText(message);
        setNotice(sentenceFor(e, t));
      }
      return;
    }
    asking.current = true;
    await sendMessage({ text: message });
  };

  // The reply being written (asked here or watched): its id is the stream's, known from its first chunk.
  const streaming = status === "streaming" || status === "submitted";
  const current = streaming ? messages.at(-1) : undefined;
  const replying = current?.role === "assistant" ? metadataOf(current) : undefined;
  const turnId = replying ? replying.streamId ?? current?.id : watcher?.turnId;
  // Watching another member's reply: announced by the trip's channel, or found by a resume on its own.
  const watched = watcher?.by ?? (replying?.askedBy && replying.askedBy !== session.userId ? replying.askedBy : undefined);
  const listed = useMemo(() => withQuestions(messages), [messages]);
  const streamingTurn = useRef<string | undefined>(undefined);
  streamingTurn.current = streaming ? turnId : undefined;
  const halt = async () => {
    if (!turnId) return;
    try {
      await unwrap(api.POST("/trips/{tripId}/agent/turns/{turnId}/stop", { params: { path: { tripId, turnId } } }));
      // The server ends it at the model's next word; should that never reach us, let go of this turn
      // only (not of a later one this panel started or attached to meanwhile).
      window.setTimeout(() => {
        if (streamingTurn.current === turnId) void stop();
      }, LOCAL_STOP_AFTER_MS);
    } catch (e) {
      setNotice(sentenceFor(e, t));
      void stop();
    }
  };

  return (
    <div className="agent-chat">
      <ol className="messages" ref={list} aria-label={t("agent.conversation")} tabIndex={0}>
        {listed.map((message) => (
          <li key={message.id} className={`message ${message.role}${eventOf(message) ? " event" : ""}`} data-testid="agent-message">
            <span className="speaker">
              {message.role === "user" ? (actorOf(message) ? nameOf(actorOf(message)!) : t("brief.you")) : t("agent.title")}
            </span>
            {eventOf(message) ? (
              <p>{eventInWords(message, trip, t, locale, nameOf)}</p>
            ) : (
              message.parts.map((part, i) => {
                if (isTextUIPart(part)) return part.text ? <p key={i}>{part.text}</p> : null;
                if (isToolUIPart(part)) {
                  const name = getToolName(part);
                  return (
                    <ToolCard
                      key={part.toolCallId} // stable when the streamed message is replaced by the stored one
                      part={part}
                      name={name}
                      trip={trip}
                      canApprove={mayRun(role, required(name))}
                      busy={!idle}
                      onDecide={(approved, reason) => decide(message.id, part.approval?.id ?? "", approved, reason)}
                    />
                  );
                }
                if (isDataUIPart(part) && part.type === "data-clarify") {
                  const clarify = part.data as Clarify;
                  return (
                    <div key={i} className="clarify" role="group" aria-label={clarify.question}>
                      {clarify.options.map((o) => (
                        <button key={o.index} type="button" disabled={!idle} onClick={() => void submit(String(o.index))}>
                          {o.index}. {o.label}
                        </button>
                      ))}
                    </div>
                  );
                }
                return null;
              })
            )}
            {stoppedOf(message) && (
              <p className="muted" data-testid="stopped">
                {t(STOPPED[stoppedOf(message) ?? "stop"] ?? "agent.stopped")}
              </p>
            )}
          </li>
        ))}
      </ol>
      {watched && streaming && (
        <p role="status" className="muted">
          {t("agent.watching", { user: nameOf(watched) })}
        </p>
      )}
      {status === "submitted" && (
        <p role="status" className="muted">
          {t("agent.thinking")}
        </p>
      )}
      <p className="visually-hidden" aria-live="polite">
        {idle ? lastReply(messages) : ""}
      </p>
      {error && (
        <div role="alert" className="error agent-error">
          <p>{sentenceFor(chatError(error), t)}</p>
          {lastSent.current && text.trim() === lastSent.current && (
            <button type="button" onClick={() => void submit(text.trim() || lastSent.current)}>
              {t("agent.retry")}
            </button>
          )}
        </div>
      )}
      {notice && <p role="status">{notice}</p>}
      {streaming && turnId && mayRun(role, "editor") && (
        <button type="button" className="stop" onClick={() => void halt()}>
          <span aria-hidden="true">■ </span>
          {t("agent.stop")}
        </button>
      )}
      <Composer
        id="agent-input"
        label={t("agent.placeholder")}
        sendLabel={t("agent.send")}
        value={text}
        disabled={!idle}
        inputRef={input}
        onChange={setText}
        onSend={() => void submit(text.trim())}
      />
    </div>
  );
}

interface Clarify {
  question: string;
  options: { index: number; label: string }[];
}

const STOPPED: Record<string, "agent.stopped" | "agent.stoppedTimeout" | "agent.stoppedLength"> = {
  stop: "agent.stopped",
  timeout: "agent.stoppedTimeout",
  length: "agent.stoppedLength",
};

function textOf(message: UIMessage): string {
  return message.parts.flatMap((p) => (isTextUIPart(p) ? [p.text] : [])).join(" ");
}

/** The agent's last finished words, for screen readers (announced once, not every streamed piece). */
function lastReply(messages: UIMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === "assistant");
  return last ? textOf(last) : "";
}

interface TurnMetadata {
  /** A reply being written: its stream, and who asked what (readers attached to it show the question). */
  streamId?: string;
  askedBy?: string;
  asked?: string;
  event?: string;
  actor?: string;
  stopped?: string;
  op?: string;
  args?: Record<string, unknown>;
  decision?: string;
  reason?: string;
}

const metadataOf = (message: UIMessage): TurnMetadata => (message.metadata as TurnMetadata | undefined) ?? {};

/** The messages with each reply being written preceded by its question. A panel that attached to a reply
 * (a reload, a second tab, a watcher) may have read the history before the question was stored; the
 * reply's own metadata says it, and the history read at the reply's end replaces this copy. The question
 * is looked for back to the previous reply (events and other members' questions may come between). */
function withQuestions(messages: UIMessage[]): UIMessage[] {
  const out: UIMessage[] = [];
  for (const message of messages) {
    const { asked, askedBy } = message.role === "assistant" ? metadataOf(message) : {};
    const since = out.slice(out.findLastIndex((m) => m.role === "assistant") + 1);
    if (asked && !since.some((m) => m.role === "user" && sameQuestion(textOf(m), asked))) {
      out.push({ id: `asked-${message.id}`, role: "user", parts: [{ type: "text", text: asked }], metadata: { actor: askedBy } });
    }
    out.push(message);
  }
  return out;
}

/** The same question, though one copy may be cut (the channel's push carries its first 2,000 characters). */
function sameQuestion(a: string, b: string): boolean {
  const [x, y] = [a.trim(), b.trim()];
  return x !== "" && y !== "" && (x.startsWith(y) || y.startsWith(x));
}

/** A turn the trip itself wrote (an operation, a decision), not something a member said. */
function eventOf(message: UIMessage): string | null {
  return metadataOf(message).event ?? null;
}

function actorOf(message: UIMessage): string | null {
  return metadataOf(message).actor ?? null;
}

function stoppedOf(message: UIMessage): string | null {
  return message.role === "assistant" ? metadataOf(message).stopped ?? null : null;
}

/** An operation or a decision, written in the reader's language from what it was (not the server's words). */
function eventInWords(
  message: UIMessage,
  trip: Trip,
  t: ReturnType<typeof useI18n>["t"],
  locale: ReturnType<typeof useI18n>["locale"],
  nameOf: NameOf,
): string {
  const m = metadataOf(message);
  if (!m.op) return textOf(message);
  const change = describeOp(m.op, m.args, trip, t, locale, nameOf);
  const user = nameOf(m.actor ?? "?");
  if (m.event === "decision" && m.decision === "approved") return t("event.approved", { user, change });
  if (m.event === "decision" && m.reason) return t("event.deniedBecause", { user, change, reason: m.reason });
  if (m.event === "decision") return t("event.denied", { user, change });
  return t("event.operation", { user, change });
}
