// Labels. The toast's actions come from the backend's own catalogs (agent.toast.*), so the app and the
// server never name them differently; the app's chrome adds its own keys beside them.
import { createContext, useContext } from "react";
import sharedEn from "../../shared/tripagent/data/labels/en.json";
import sharedZh from "../../shared/tripagent/data/labels/zh-Hans.json";

const en = {
  ...sharedEn,
  "app.title": "Tripagent",
  "app.signIn": "Sign in",
  "app.signOut": "Sign out",
  "app.signedInAs": "Signed in as {user}",
  "app.language": "Language",
  "app.tagline": "Plan a cycling trip with an assistant, then refine it together.",
  "home.trips": "Your trips",
  "home.noTrips": "No trips yet: describe one below.",
  "home.plan": "Plan a new trip",
  "brief.placeholder": "Describe your trip: where from, where to, how many days, which bike…",
  "brief.send": "Send",
  "brief.generate": "Generate the trip",
  "brief.generating": "Routing your trip…",
  "brief.collected": "What I have so far",
  "brief.you": "You",
  "brief.assistant": "Assistant",
  "trip.back": "All trips",
  "trip.days": "Days",
  "trip.map": "Route map",
  "trip.effort": "Effort per day",
  "profile.summary": "Day {day}: from {from} m to {to} m, highest {highest} m, {up} m of climbing.",
  "profile.steepest": "Steepest: {grade} % at km {km}.",
  "trip.stops": "Stops",
  "trip.expenses": "Expenses",
  "trip.members": "Members",
  "trip.gpx": "Download GPX",
  "trip.notFound": "Not found: this trip does not exist, or you are not one of its members.",
  "trip.edit": "Change the trip",
  "trip.version": "version {version}",
  "trip.reloaded": "Someone changed the trip meanwhile: it was reloaded, check and try again.",
  "trip.live": "Live",
  "trip.offline": "Reconnecting…",
  "members.invite": "Invite",
  "members.user": "User name",
  "members.role": "Role",
  "members.remove": "Remove",
  "members.change": "Change role",
  "agent.title": "Trip agent",
  "agent.placeholder": "Ask the agent, or mention @agent…",
  "agent.send": "Send",
  "agent.approve": "Approve",
  "agent.deny": "Deny",
  "agent.readOnly": "Waiting for a member who may approve it.",
  "agent.open": "Open the agent",
  "agent.close": "Close the agent",
  "toast.approvedBy": "Approved by {user}",
  "toast.close": "Dismiss",
  "toast.decided": "{status} by {user}",
};

type Key = keyof typeof en;

const zh: Partial<Record<Key, string>> = {
  ...sharedZh,
  "app.signIn": "登录",
  "app.signOut": "退出",
  "app.signedInAs": "当前用户：{user}",
  "app.language": "语言",
  "app.tagline": "与助手一起规划骑行旅程，然后共同完善。",
  "home.trips": "你的行程",
  "home.noTrips": "还没有行程：在下方描述一个。",
  "home.plan": "规划新行程",
  "brief.send": "发送",
  "brief.generate": "生成行程",
  "brief.generating": "正在规划路线…",
  "brief.collected": "已收集的信息",
  "trip.back": "全部行程",
  "trip.days": "每日行程",
  "trip.map": "路线地图",
  "trip.effort": "每日强度",
  "profile.summary": "第 {day} 天：海拔从 {from} 米到 {to} 米，最高 {highest} 米，累计爬升 {up} 米。",
  "profile.steepest": "最陡：第 {km} 公里处 {grade}%。",
  "trip.stops": "停留点",
  "trip.expenses": "费用",
  "trip.members": "成员",
  "trip.gpx": "下载 GPX",
  "trip.notFound": "未找到：该行程不存在，或你不是其成员。",
  "trip.edit": "修改行程",
  "members.invite": "邀请",
  "members.remove": "移除",
  "members.change": "更改角色",
  "agent.title": "行程助手",
  "agent.send": "发送",
  "agent.approve": "批准",
  "agent.deny": "拒绝",
  "toast.approvedBy": "已由 {user} 批准",
  "toast.close": "关闭",
};

export type Locale = "en" | "zh-Hans";
export const LOCALES: { id: Locale; label: string }[] = [
  { id: "en", label: "English" },
  { id: "zh-Hans", label: "中文" },
];

export type Translate = (key: Key, values?: Record<string, string | number>) => string;

export function translator(locale: Locale): Translate {
  return (key, values) => {
    const text = (locale === "zh-Hans" ? zh[key] : undefined) ?? en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? ""));
  };
}

export interface I18n {
  locale: Locale;
  t: Translate;
  setLocale: (locale: Locale) => void;
}

export const I18nContext = createContext<I18n>({ locale: "en", t: translator("en"), setLocale: () => {} });
export const useI18n = (): I18n => useContext(I18nContext);
