// The trip's realtime channel: one WebSocket per open trip, subscribed on open, reconnecting with
// exponential backoff (and jitter) when it drops, each time with a token renewed first if it was expiring
// (a socket refused for an expired token does not retry it for ever).
import { useEffect, useRef, useState } from "react";

export type Push = { type: string; tripId?: string; [key: string]: unknown };

const MAX_BACKOFF_MS = 15_000;

export function useTripChannel(
  url: string | null,
  tripId: string,
  token: () => Promise<string>,
  onPush: (push: Push) => void,
): boolean {
  const [connected, setConnected] = useState(false);
  const handler = useRef(onPush);
  handler.current = onPush;
  useEffect(() => {
    if (!url) return;
    let socket: WebSocket | null = null;
    let attempt = 0;
    let timer: number | undefined;
    let stopped = false;
    const connect = async () => {
      const fresh = await token();
      if (stopped) return;
      socket = new WebSocket(url, ["tripagent", fresh]);
      socket.onopen = () => {
        attempt = 0;
        socket?.send(JSON.stringify({ action: "subscribe", tripId }));
      };
      socket.onmessage = (event) => {
        const push = JSON.parse(String(event.data)) as Push;
        if (push.type === "subscribed") setConnected(true);
        if (push.type === "error") stopped = true; // not a member (or no such trip): retrying cannot help
        handler.current(push);
      };
      socket.onclose = () => {
        setConnected(false);
        if (stopped) return;
        const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt++) * (0.5 + Math.random() / 2);
        timer = window.setTimeout(() => void connect(), delay);
      };
    };
    void connect();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      socket?.close();
    };
  }, [url, tripId, token]);
  return connected;
}
