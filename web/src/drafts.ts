// What a person is typing, kept in the tab's sessionStorage as they type: a sign-in again (a full
// redirect) or a reload brings it back where it was, and sending it clears it.
import { useCallback, useState } from "react";

const PREFIX = "tripagent.draft.";

export function useDraft(key: string, initial = ""): [string, (value: string | ((current: string) => string)) => void] {
  const [value, setValue] = useState<string>(() => initial || (window.sessionStorage.getItem(PREFIX + key) ?? ""));
  const set = useCallback(
    (next: string | ((current: string) => string)) =>
      setValue((current) => {
        const updated = typeof next === "function" ? next(current) : next;
        if (updated) window.sessionStorage.setItem(PREFIX + key, updated);
        else window.sessionStorage.removeItem(PREFIX + key);
        return updated;
      }),
    [key],
  );
  return [value, set];
}
