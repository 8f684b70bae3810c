// Change the trip through any operation of the registry, with the version the member is looking at:
// a 409 reloads the trip and says so, and nothing is applied twice.
import { useState } from "react";
import { ApiError, unwrap, type Operation, type Role, type Trip } from "../api/client";
import { useServices } from "../context";
import { sentenceFor } from "../errors";
import { useI18n } from "../i18n";
import { fieldHelp, fieldLabel, opName, optionLabel } from "../opWords";
import { useNameOf } from "../people";
import { SchemaForm, type Choices, type JsonSchema } from "./SchemaForm";

const RANK: Record<Role, number> = { viewer: 0, editor: 1, owner: 2 };

export function mayRun(role: Role, required: Role): boolean {
  return RANK[role] >= RANK[required];
}

export function OpsPanel({
  trip,
  role,
  ops,
  onTrip,
  reload,
}: {
  trip: Trip;
  role: Role;
  ops: Operation[];
  onTrip: (trip: Trip) => void;
  reload: () => Promise<void>;
}) {
  const { api } = useServices();
  const { t } = useI18n();
  const personName = useNameOf();
  const allowed = ops.filter((op) => mayRun(role, op.requiredRole));
  const [name, setName] = useState(allowed[0]?.name ?? "");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  if (!allowed.length) return null;
  const op = allowed.find((o) => o.name === name) ?? allowed[0];
  // The page names days by their number and stops by their names: the forms choose them the same way
  const dayOf = (i: number) => t("trip.day", { day: i + 1 });
  const choices: Choices = {
    dayIndex: (trip.days ?? []).map((d) => ({ value: String(d.dayIndex), label: d.city ? `${dayOf(d.dayIndex)} · ${d.city}` : dayOf(d.dayIndex) })),
    stopId: [...(trip.stops ?? [])]
      .sort((a, b) => a.dayIndex - b.dayIndex || a.order - b.order)
      .map((s) => ({ value: s.stopId, label: `${dayOf(s.dayIndex)} · ${s.name}` })),
    expenseId: (trip.expenses ?? []).map((e) => ({ value: e.expenseId, label: e.label })),
    // a list of stops (reorder_stops) is written with their names, in the new order
    stopIds: [...(trip.stops ?? [])]
      .sort((a, b) => a.dayIndex - b.dayIndex || a.order - b.order)
      .map((s) => ({ value: s.stopId, label: s.name })),
  };
  const members = (trip.members ?? []).map((m) => ({ value: m.userId, label: personName(m.userId) }));
  if (op.name !== "add_member") choices.userId = members; // (add_member names someone not a member yet: typed)
  choices.payer = members;
  const names = Object.keys((op.argsSchema as JsonSchema).properties ?? {});
  const labels: Record<string, string> = {
    ...Object.fromEntries(names.flatMap((f) => (fieldLabel(f, t) ? [[f, fieldLabel(f, t)!]] : []))),
    dayIndex: t("form.day"),
    stopId: t("form.stop"),
    expenseId: t("form.expense"),
    userId: t("form.member"),
  };
  const help = Object.fromEntries(names.map((f) => [f, fieldHelp(op.name, f, t)]));
  const nameOf = (o: Operation) => opName(o.name, t, o.summary);
  const apply = async (args: Record<string, unknown>) => {
    setBusy(true);
    setNotice(null);
    try {
      const answer = await unwrap(
        api.POST("/trips/{tripId}/ops", {
          params: { path: { tripId: trip.tripId } },
          body: { op: op.name as never, args, expectedVersion: trip.version },
        }),
      );
      onTrip(answer.trip);
      setNotice({ kind: "ok", text: t("ops.done", { op: nameOf(op), version: answer.trip.version }) });
    } catch (e) {
      if (e instanceof ApiError && (e.code === "version_conflict" || e.code === "write_conflict")) await reload();
      setNotice({ kind: "error", text: sentenceFor(e, t) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="ops-title" className="card">
      <h2 id="ops-title">{t("trip.edit")}</h2>
      <label htmlFor="op-choice">{t("ops.operation")}</label>
      <select id="op-choice" value={op.name} onChange={(e) => setName(e.target.value)}>
        {allowed.map((o) => (
          <option key={o.name} value={o.name}>
            {nameOf(o)}
          </option>
        ))}
      </select>
      <SchemaForm
        key={op.name}
        schema={op.argsSchema as JsonSchema}
        submitLabel={nameOf(op)}
        busy={busy}
        onSubmit={(a) => void apply(a)}
        choices={choices}
        labels={labels}
        help={help}
        optionLabel={(field, value) => optionLabel(field, value, t)}
      />
      {notice && (
        <p role={notice.kind === "error" ? "alert" : "status"} className={notice.kind === "error" ? "error" : "ok"}>
          {notice.text}
        </p>
      )}
    </section>
  );
}
