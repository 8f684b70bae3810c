// Labels. The toast's actions come from the backend's own catalogs (agent.toast.*), so the app and the
// server never name them differently; the app's chrome adds its own keys beside them.
import { createContext, useContext } from "react";
import sharedEn from "../../shared/tripagent/data/labels/en.json";
import sharedFr from "../../shared/tripagent/data/labels/fr.json";
import sharedZh from "../../shared/tripagent/data/labels/zh-Hans.json";
import enChrome from "./locales/en.json";
import frChrome from "./locales/fr.json";
import zhChrome from "./locales/zh-Hans.json";

const en = { ...sharedEn, ...enChrome };
type Key = keyof typeof en;
// Every language has every key: a key missing from a dictionary is a type error here (and
// tests/unit/test_web_dictionaries.py says which, with the placeholders each sentence must keep).
const zh: Record<Key, string> = { ...sharedZh, ...zhChrome };
const fr: Record<Key, string> = { ...sharedFr, ...frChrome };
const DICTIONARIES: Record<Locale, Record<Key, string>> = { en, "zh-Hans": zh, fr };

export type Locale = "en" | "zh-Hans" | "fr";
export const LOCALES: { id: Locale; label: string }[] = [
  { id: "en", label: "English" },
  { id: "fr", label: "Français" },
  { id: "zh-Hans", label: "中文" },
];

export type Translate = (key: Key, values?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  return (key, values) => {
    const text = (DICTIONARIES[locale] ?? en)[key] ?? en[key] ?? key; // (a stored locale may be one we dropped)
    return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? ""));
  };
}

export interface I18n {
  locale: Locale;
  t: Translate;
  setLocale: (locale: Locale) => void;
}

/** Numbers as the reader's language writes them (1,281 · 1 281 · 1,281), at most one decimal. */
export function formatNumber(locale: Locale, value: number, digits = 1): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}

/** A trip's date (YYYY-MM-DD, no time zone) as the reader's language writes it: "Sat 12 Jun". */
export function formatDate(locale: Locale, isoDate: string): string {
  const [y, m, d] = isoDate.split("-").map(Number);
  return new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

export const I18nContext = createContext<I18n>({ locale: "en", t: translator("en"), setLocale: () => {} });
export const useI18n = (): I18n => useContext(I18nContext);
