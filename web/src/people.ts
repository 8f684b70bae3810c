// Members by their names, not their ids: the trip's people (GET /trips/{id}/people), read with the trip and
// again when it changes; a member who never signed in since is shown by their id.
import { createContext, useContext, useEffect, useState } from "react";
import { unwrap, type ApiClient } from "./api/client";

export type NameOf = (userId: string) => string;

export const PeopleContext = createContext<NameOf>((userId) => userId);
export const useNameOf = (): NameOf => useContext(PeopleContext);

export function usePeople(api: ApiClient, tripId: string, version: number | undefined): NameOf {
  const [names, setNames] = useState<Record<string, string>>({});
  useEffect(() => {
    if (version === undefined) return;
    unwrap(api.GET("/trips/{tripId}/people", { params: { path: { tripId } } }))
      .then((answer) => setNames(Object.fromEntries(answer.people.map((p) => [p.userId, p.displayName]))))
      .catch(() => undefined);
  }, [api, tripId, version]);
  return (userId) => names[userId] ?? userId;
}
