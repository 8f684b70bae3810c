// An operation of the registry as a sentence in the reader's language ("Add “Lunch in Canillo” (food) to
// day 1"), for the agent's approval cards, the reviewer's toasts and the history. The sentences are the
// dictionaries' op.* templates; ids become the names the trip gives them, 0-based days become "day 1".
import type { Trip } from "./api/client";
import { formatDate, formatNumber, type Locale, type Translate } from "./i18n";

type Args = Record<string, unknown>;
type Key = Parameters<Translate>[0];

/** An operation's name in the reader's language ("Add a stop to a day"), for the forms. */
export function opName(op: string, t: Translate, fallback: string): string {
  const key = `opName.${op}` as Key;
  const name = t(key);
  return name === key ? fallback : name;
}

/** A form field's label and help in the reader's language (the registry's schemas are in English). */
export function fieldLabel(field: string, t: Translate): string | undefined {
  const key = `field.${field}` as Key;
  const label = t(key);
  return label === key ? undefined : label;
}

export function fieldHelp(op: string, field: string, t: Translate): string | undefined {
  if (field === "position") return t(op === "add_day" ? "fieldHelp.dayPosition" : "fieldHelp.stopPosition");
  if (field === "order") return t("fieldHelp.order");
  return undefined;
}

/** A value of a field's list (a stop's kind, a member's role) in words. */
export function optionLabel(field: string, value: string, t: Translate): string {
  if (field === "kind") return t(`kind.${value}` as Key);
  if (field === "role") return t(`role.${value}` as Key);
  return value;
}


export function describeOp(
  op: string,
  args: Args | null | undefined,
  trip: Trip | null,
  t: Translate,
  locale: Locale,
  nameOf: (userId: string) => string = (userId) => userId,
): string {
  const a = args ?? {};
  const key = `op.${op}` as Key; // every operation of the registry has its sentence (a test checks it)
  const stop = trip?.stops?.find((s) => s.stopId === a.stopId);
  const expense = trip?.expenses?.find((e) => e.expenseId === a.expenseId);
  const dayOf = (index: unknown) => (typeof index === "number" ? formatNumber(locale, index + 1, 0) : "?");
  const kind = typeof a.kind === "string" ? t(`kind.${a.kind}` as Parameters<Translate>[0]) : t("kind.poi");
  const role = typeof a.role === "string" ? t(`role.${a.role}` as Parameters<Translate>[0]) : "";
  const names = Array.isArray(a.stopIds)
    ? a.stopIds.map((id) => trip?.stops?.find((s) => s.stopId === id)?.name ?? "?").join(", ")
    : "";
  const amount = typeof a.amount === "string" || typeof a.amount === "number" ? money(locale, a.amount, a.currency) : "";
  const values: Record<string, string> = {
    name: String(a.name ?? stop?.name ?? ""),
    stop: stop?.name ?? String(a.name ?? "?"),
    kind,
    day: dayOf(a.dayIndex ?? stop?.dayIndex),
    from: dayOf(stop?.dayIndex),
    city: String(a.city ?? trip?.days?.find((d) => d.dayIndex === a.dayIndex)?.city ?? ""),
    date: typeof a.date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(a.date) ? formatDate(locale, a.date) : String(a.date ?? ""),
    names,
    order: Array.isArray(a.order) ? a.order.map((i) => dayOf(i)).join(", ") : "",
    label: String(a.label ?? expense?.label ?? "?"),
    amount,
    payer: nameOf(String(a.payer ?? expense?.payer ?? "")),
    user: nameOf(String(a.userId ?? "")),
    role,
  };
  const sentence = t(key, values);
  return sentence === key ? t("op.other", { op: op.replaceAll("_", " ") }) : sentence;
}

/** An amount in its currency, as the reader's language writes it; the model's own words when they are not
 * an amount and a currency code (a card is drawn from what the model said, before any check). */
function money(locale: Locale, amount: string | number, currency: unknown): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: String(currency ?? "EUR") }).format(Number(amount));
  } catch {
    return `${amount} ${String(currency ?? "")}`.trim();
  }
}
