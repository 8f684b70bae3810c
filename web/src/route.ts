// The app's place, in the URL's hash (#/trips/<id>), so the API's own paths stay the server's.
import { useEffect, useState } from "react";

export type Place = { page: "home" } | { page: "trip"; tripId: string };

export function parsePlace(hash: string): Place {
  const trip = /^#\/trips\/([\w-]+)$/.exec(hash);
  return trip ? { page: "trip", tripId: trip[1] } : { page: "home" };
}

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
