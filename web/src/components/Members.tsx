// Members and roles; owners invite, change roles and remove (the API refuses anyone else anyway).
import { useState, type FormEvent } from "react";
import { unwrap, type Role, type Trip } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { useI18n } from "../i18n";

const ROLES: Role[] = ["viewer", "editor", "owner"];

export function Members({ trip, role, onChanged }: { trip: Trip; role: Role; onChanged: () => void }) {
  const { api, session } = useServices();
  const { t } = useI18n();
  const [userId, setUserId] = useState("");
  const [newRole, setNewRole] = useState<Role>("editor");
  const [error, setError] = useState<string | null>(null);
  const owner = role === "owner";
  const path = { tripId: trip.tripId };
  const run = async (call: Promise<unknown>) => {
    setError(null);
    try {
      await call;
      onChanged();
    } catch (e) {
      setError(sentenceFor(e));
    }
  };
  const invite = (event: FormEvent) => {
    event.preventDefault();
    void run(unwrap(api.POST("/trips/{tripId}/members", { params: { path }, body: { userId: userId.trim(), role: newRole } })));
    setUserId("");
  };
  return (
    <section aria-labelledby="members-title" className="card">
      <h2 id="members-title">{t("trip.members")}</h2>
      <ul className="members">
        {trip.members.map((m) => (
          <li key={m.userId}>
            <span>{m.userId}</span>{" "}
            {owner && m.userId !== session.userId ? (
              <>
                <label className="visually-hidden" htmlFor={`role-${m.userId}`}>
                  {t("members.role")} ({m.userId})
                </label>
                <select
                  id={`role-${m.userId}`}
                  value={m.role}
                  onChange={(e) =>
                    void run(
                      unwrap(
                        api.PATCH("/trips/{tripId}/members/{userId}", {
                          params: { path: { ...path, userId: m.userId } },
                          body: { role: e.target.value as Role },
                        }),
                      ),
                    )
                  }
                >
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
                <button
                  type="button"
                  className="link"
                  onClick={() =>
                    void run(unwrap(api.DELETE("/trips/{tripId}/members/{userId}", { params: { path: { ...path, userId: m.userId } } })))
                  }
                >
                  {t("members.remove")}
                </button>
              </>
            ) : (
              <span className="muted">{m.role}</span>
            )}
          </li>
        ))}
      </ul>
      {owner && (
        <form onSubmit={invite} className="inline-form">
          <label htmlFor="invite-user">{t("members.user")}</label>
          <input id="invite-user" value={userId} required onChange={(e) => setUserId(e.target.value)} />
          <label htmlFor="invite-role">{t("members.role")}</label>
          <select id="invite-role" value={newRole} onChange={(e) => setNewRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
          <button type="submit">{t("members.invite")}</button>
        </form>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}
