// Members by their names, and their roles. Owners invite by e-mail address (a member at once when the
// address has signed in before, else when it does), withdraw an invitation, change roles, remove, and hand
// out share links that make whoever opens them a viewer or an editor, until they revoke them.
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { unwrap, type Role, type Schemas, type Trip } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { useI18n } from "../i18n";
import { useNameOf } from "../people";
import { joinHref } from "../route";

const ROLES: Role[] = ["viewer", "editor", "owner"];
const JOINABLE: Role[] = ["viewer", "editor"];

export function Members({ trip, role, onChanged }: { trip: Trip; role: Role; onChanged: () => void }) {
  const { api, session } = useServices();
  const { t } = useI18n();
  const nameOf = useNameOf();
  const [email, setEmail] = useState("");
  const [newRole, setNewRole] = useState<Role>("editor");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [invitations, setInvitations] = useState<Schemas["InvitationView"][]>([]);
  const [links, setLinks] = useState<Schemas["ShareLinkView"][]>([]);
  const owner = role === "owner";
  const tripId = trip.tripId;
  const path = { tripId };
  const loadOwnersLists = useCallback(() => {
    if (!owner) return;
    unwrap(api.GET("/trips/{tripId}/invitations", { params: { path: { tripId } } }))
      .then((answer) => setInvitations(answer.invitations))
      .catch(() => undefined);
    unwrap(api.GET("/trips/{tripId}/share-links", { params: { path: { tripId } } }))
      .then((answer) => setLinks(answer.links))
      .catch(() => undefined);
  }, [api, tripId, owner]);
  useEffect(loadOwnersLists, [loadOwnersLists, trip.version]);
  const run = async (call: Promise<unknown>) => {
    setError(null);
    setNotice(null);
    try {
      await call;
      onChanged();
      loadOwnersLists();
    } catch (e) {
      setError(sentenceFor(e, t));
    }
  };
  const invite = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    void run(
      unwrap(api.POST("/trips/{tripId}/invitations", { params: { path }, body: { email: address, role: newRole } })).then((answer) =>
        setNotice(t("members.invited", { email: answer.email })),
      ),
    );
    setEmail("");
  };
  return (
    <section aria-labelledby="members-title" className="card">
      <h2 id="members-title">{t("trip.members")}</h2>
      <ul className="members">
        {trip.members.map((m) => (
          <li key={m.userId}>
            <span>{nameOf(m.userId)}</span>{" "}
            {owner && m.userId !== session.userId ? (
              <RoleEditor
                name={nameOf(m.userId)}
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
        {(owner ? invitations : []).map((i) => (
          <li key={i.email} className="pending" data-testid="invitation">
            <span>{i.email}</span> <span className="muted">{t("members.pending")} · {t(`role.${i.role}`)}</span>{" "}
            <button
              type="button"
              className="link"
              onClick={() => void run(unwrap(api.DELETE("/trips/{tripId}/invitations/{email}", { params: { path: { ...path, email: i.email } } })))}
            >
              {t("members.withdraw")}
            </button>
          </li>
        ))}
      </ul>
      {owner && (
        <form onSubmit={invite} className="inline-form">
          <label htmlFor="invite-email">{t("members.email")}</label>
          <input id="invite-email" type="email" value={email} required onChange={(e) => setEmail(e.target.value)} />
          <label htmlFor="invite-role">{t("members.role")}</label>
          <select id="invite-role" value={newRole} onChange={(e) => setNewRole(e.target.value as Role)}>
            {JOINABLE.map((r) => (
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
            ))}
          </select>
          <button type="submit">{t("members.invite")}</button>
        </form>
      )}
      {owner && <ShareLinks tripId={tripId} links={links} run={run} />}
      {notice && <p role="status">{notice}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

function ShareLinks({
  tripId,
  links,
  run,
}: {
  tripId: string;
  links: Schemas["ShareLinkView"][];
  run: (call: Promise<unknown>) => Promise<void>;
}) {
  const { api } = useServices();
  const { t } = useI18n();
  const [role, setRole] = useState<Role>("viewer");
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async (token: string) => {
    await navigator.clipboard?.writeText(joinHref(token)).catch(() => undefined);
    setCopied(token);
  };
  return (
    <div className="share-links">
      <h3>{t("members.links")}</h3>
      <ul>
        {links.map((link) => (
          <li key={link.token} data-testid="share-link">
            <span className="muted">{t("members.linkFor", { role: t(`role.${link.role}`) })}</span>
            <input readOnly value={joinHref(link.token)} aria-label={t("members.linkFor", { role: t(`role.${link.role}`) })} onFocus={(e) => e.target.select()} />
            <button type="button" onClick={() => void copy(link.token)}>
              {copied === link.token ? t("members.copied") : t("members.copy")}
            </button>
            <button
              type="button"
              className="link"
              onClick={() => void run(unwrap(api.DELETE("/trips/{tripId}/share-links/{token}", { params: { path: { tripId, token: link.token } } })))}
            >
              {t("members.revoke")}
            </button>
          </li>
        ))}
      </ul>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(unwrap(api.POST("/trips/{tripId}/share-links", { params: { path: { tripId } }, body: { role } })));
        }}
      >
        <label htmlFor="link-role">{t("members.linkRole")}</label>
        <select id="link-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {JOINABLE.map((r) => (
            <option key={r} value={r}>
              {t(`role.${r}`)}
            </option>
          ))}
        </select>
        <button type="submit">{t("members.newLink")}</button>
      </form>
    </div>
  );
}

function RoleEditor({
  name,
  role,
  onChange,
  onRemove,
}: {
  name: string;
  role: Role;
  onChange: (role: Role) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const [chosen, setChosen] = useState<Role>(role);
  const id = useId();
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {t("members.role")} ({name})
      </label>
      <select id={id} value={chosen} onChange={(e) => setChosen(e.target.value as Role)}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`role.${r}`)}
          </option>
        ))}
      </select>
      <button type="button" disabled={chosen === role} onClick={() => onChange(chosen)} aria-label={`${t("members.change")} (${name})`}>
        {t("members.change")}
      </button>
      <button type="button" className="link" onClick={onRemove} aria-label={`${t("members.remove")} ${name}`}>
        {t("members.remove")}
      </button>
    </>
  );
}
