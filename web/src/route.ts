// The app's place, in the URL's hash (#/trips/<id>, #/join/<share link>), so the API's own paths stay the
// server's.
import { useEffect, useState } from "react";

export type Place = { page: "home" } | { page: "trip"; tripId: string } | { page: "join"; token: string };

export function parsePlace(hash: string): Place {
  const trip = /^#\/trips\/([\w-]+)$/.exec(hash);
  if (trip) return { page: "trip", tripId: trip[1] };
  const join = /^#\/join\/([\w-]+)$/.exec(hash);
  return join ? { page: "join", token: join[1] } : { page: "home" };
}

export const joinHref = (token: string): string => `${window.location.origin}/#/join/${token}`;

export function usePlace(): Place {
  const [place, setPlace] = useState(() => parsePlace(window.location.hash));
  useEffect(() => {
    const onChange = () => setPlace(parsePlace(window.location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return place;
}

export const tripHref = (tripId: string): string => `#/trips/${tripId}`;
