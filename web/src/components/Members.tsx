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
      setError(sentenceFor(e, t));
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
              <RoleEditor
                userId={m.userId}
                role={m.role}
                onChange={(next) =>
                  void run(
                    unwrap(
                      api.PATCH("/trips/{tripId}/members/{userId}", {
                        params: { path: { ...path, userId: m.userId } },
                        body: { role: next },
                      }),
                    ),
                  )
                }
                onRemove={() =>
                  void run(unwrap(api.DELETE("/trips/{tripId}/members/{userId}", { params: { path: { ...path, userId: m.userId } } })))
                }
              />
            ) : (
              <span className="muted">{t(`role.${m.role}`)}</span>
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
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
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

/** A member's role, changed only on "Change" (arrowing through a closed select fires a change per
 * option in some browsers: a keyboard user must not promote someone to owner on the way). */
function RoleEditor({
  userId,
  role,
  onChange,
  onRemove,
}: {
  userId: string;
  role: Role;
  onChange: (role: Role) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const [chosen, setChosen] = useState<Role>(role);
  return (
    <>
      <label className="visually-hidden" htmlFor={`role-${userId}`}>
        {t("members.role")} ({userId})
      </label>
      <select id={`role-${userId}`} value={chosen} onChange={(e) => setChosen(e.target.value as Role)}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`role.${r}`)}
          </option>
        ))}
      </select>
      <button type="button" disabled={chosen === role} onClick={() => onChange(chosen)} aria-label={`${t("members.change")} (${userId})`}>
        {t("members.change")}
      </button>
      <button type="button" className="link" onClick={onRemove} aria-label={`${t("members.remove")} ${userId}`}>
        {t("members.remove")}
      </button>
    </>
  );
}
