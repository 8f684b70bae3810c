// The brief chat: the conversation is the client's (the endpoint is stateless), kept in sessionStorage
// so a reload does not lose it; what has been collected is the server's last answer.
import { useEffect, useRef, useState } from "react";
import { useDraft } from "../drafts";
import { unwrap, type BriefReply, type Schemas } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { useI18n } from "../i18n";
import { tripHref } from "../route";
import { Composer } from "./Composer";

type Turn = Schemas["ChatTurn"];
interface Conversation {
  turns: Turn[];
  last: BriefReply | null;
  /** One key per ready brief: a retried Generate (after a timeout) is the same request, not a second trip. */
  generationKey?: string;
}

const STORE_KEY = "tripagent.brief";
const SLOTS: (keyof Schemas["Collected"])[] = [
  "start", "end", "via", "durationDays", "profile", "startDate", "dailyDistanceKm", "dailyClimbM", "roundTrip",
  "accommodation",
];

function loadConversation(): Conversation {
  try {
    return (JSON.parse(window.sessionStorage.getItem(STORE_KEY) ?? "") as Conversation) ?? { turns: [], last: null };
  } catch {
    return { turns: [], last: null };
  }
}

// Each reply ends with the chat's signed state as a Markdown comment: sent back, never shown.
const STATE_MARK = /\n*\[\/\/\]: # \(tripagent-state:[A-Za-z0-9_\-.]+\)\s*$/;
const shown = (content: string): string => content.replace(STATE_MARK, "");

function chipValue(value: unknown): string | null {
  if (value === null || value === undefined || value === false || value === "") return null;
  if (Array.isArray(value)) return value.length ? value.join(" → ") : null;
  return value === true ? "yes" : String(value);
}

export function BriefChat() {
  const { api } = useServices();
  const { t, locale: chrome } = useI18n();
  // The assistant speaks English or French (the chrome may be in Chinese): follow the browser.
  // The brief chat answers in English or French: the chrome's language when it is one of them
  const locale = chrome === "fr" ? "fr" : chrome === "en" ? "en" : navigator.language.startsWith("fr") ? "fr" : "en";
  // "tomorrow" is the rider's: the server dates the brief in this zone
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const [conversation, setConversation] = useState<Conversation>(loadConversation);
  const [draft, setDraft] = useDraft("brief");
  const [busy, setBusy] = useState<"chat" | "generate" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const messages = useRef<HTMLOListElement>(null);
  useEffect(() => {
    window.sessionStorage.setItem(STORE_KEY, JSON.stringify(conversation));
  }, [conversation]);
  // The newest turn in sight: the list scrolls once a conversation outgrows it
  useEffect(() => {
    messages.current?.scrollTo({ top: messages.current.scrollHeight });
  }, [conversation.turns.length]);

  const inFlight = useRef(false); // state updates too late to stop a double Enter
  const send = async (text: string) => {
    if (!text.trim() || inFlight.current) return;
    inFlight.current = true;
    const turns: Turn[] = [...conversation.turns, { role: "user", content: text.trim() }];
    setConversation({ ...conversation, turns });
    setDraft("");
    setBusy("chat");
    setError(null);
    try {
      const reply = await unwrap(api.POST("/trips/ai-chat", { body: { messages: turns, locale, timeZone } }));
      setConversation({ turns: [...turns, { role: "assistant", content: reply.reply }], last: reply });
    } catch (e) {
      setError(sentenceFor(e, t));
    } finally {
      inFlight.current = false;
      setBusy(null);
      input.current?.focus();
    }
  };

  const generate = async () => {
    const last = conversation.last;
    if (!last || inFlight.current) return;
    inFlight.current = true;
    const generationKey = conversation.generationKey ?? crypto.randomUUID();
    setConversation({ ...conversation, generationKey });
    setBusy("generate");
    setError(null);
    try {
      const answer = await unwrap(
        api.POST("/trips/ai-generate", {
          body: { brief: last.brief, locale, collected: last.collected },
          headers: { "Idempotency-Key": generationKey },
        }),
      );
      window.sessionStorage.removeItem(STORE_KEY);
      window.location.hash = tripHref(answer.trip.tripId);
    } catch (e) {
      setError(sentenceFor(e, t));
    } finally {
      inFlight.current = false;
      setBusy(null);
    }
  };

  const last = conversation.last;
  const chips = last ? SLOTS.map((slot) => [slot, chipValue(last.collected[slot])] as const).filter(([, v]) => v) : [];

  return (
    <div className="brief">
      <ol ref={messages} className="messages" aria-live="polite" aria-label={t("brief.conversation")} tabIndex={0}>
        {conversation.turns.map((turn, i) => (
          <li key={i} className={`message ${turn.role}`}>
            <span className="speaker">{turn.role === "user" ? t("brief.you") : t("brief.assistant")}</span>
            <p>{shown(turn.content)}</p>
          </li>
        ))}
      </ol>
      {last?.clarification && (
        <div className="clarify" role="group" aria-label={last.clarification.question}>
          {last.clarification.options.map((option) => (
            <button key={option.index} type="button" disabled={!!busy} onClick={() => void send(String(option.index))}>
              {option.index}. {option.label}
            </button>
          ))}
        </div>
      )}
      {chips.length > 0 && (
        <div className="chips" aria-label={t("brief.collected")}>
          <span className="muted">{t("brief.collected")}:</span>
          {chips.map(([slot, value]) => (
            <span key={slot} className="chip">
              <b>{t(`slot.${slot}` as Parameters<typeof t>[0])}</b> {value}
            </span>
          ))}
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <Composer
        id="brief-input"
        label={t("brief.placeholder")}
        sendLabel={t("brief.send")}
        value={draft}
        disabled={!!busy}
        inputRef={input}
        onChange={setDraft}
        onSend={() => void send(draft)}
      />
      {last?.readyToGenerate && (
        <button type="button" className="primary" disabled={!!busy} onClick={() => void generate()}>
          {busy === "generate" ? t("brief.generating") : t("brief.generate")}
        </button>
      )}
      {busy === "generate" && (
        <p role="status" className="progress">
          <span className="spinner" aria-hidden="true" /> {t("brief.generating")}
        </p>
      )}
    </div>
  );
}
