// A form for any operation of the registry, from its JSON Schema: a new operation needs no new form.
// Understands what the registry's schemas use: strings (enum, pattern, date), integers and numbers with
// bounds, booleans, arrays of scalars (comma-separated), optional fields (anyOf with null) and $defs.
import { useId, useState, type FormEvent } from "react";
import { useI18n } from "../i18n";

export type JsonSchema = {
  type?: string;
  title?: string;
  description?: string;
  enum?: string[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minLength?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  $ref?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  $defs?: Record<string, JsonSchema>;
};

interface Field {
  name: string;
  label: string;
  schema: JsonSchema; // the non-null alternative, resolved
  alternatives: JsonSchema[];
  required: boolean;
  description?: string;
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (schema.$ref?.startsWith("#/$defs/")) return root.$defs?.[schema.$ref.slice(8)] ?? {};
  return schema;
}

export function fieldsOf(root: JsonSchema): Field[] {
  return Object.entries(root.properties ?? {}).map(([name, raw]) => {
    const alternatives = (raw.anyOf ?? [raw]).map((s) => resolve(s, root)).filter((s) => s.type !== "null");
    return {
      name,
      label: name.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase()),
      schema: alternatives[0] ?? {},
      alternatives,
      required: root.required?.includes(name) ?? false,
      description: raw.description,
    };
  });
}

/** The typed value of one field's text, or undefined when left empty. */
export function valueOf(field: Field, text: string): unknown {
  if (text.trim() === "") return undefined;
  const types = field.alternatives.map((s) => s.type);
  if (field.schema.type === "array") {
    const items = text.split(",").map((s) => s.trim()).filter(Boolean);
    return field.schema.items?.type === "integer" ? items.map(Number) : items;
  }
  if (types.includes("integer")) return Number.parseInt(text, 10);
  if (types.includes("number")) {
    const n = Number(text);
    return Number.isFinite(n) || !types.includes("string") ? n : text;
  }
  if (types.includes("boolean")) return text === "true";
  return text;
}

/** A JSON Schema pattern as an HTML pattern attribute (anchored already, compiled with the v flag),
 * or none when the browser could not compile it: the server validates anyway. */
function htmlPattern(pattern: string | undefined): string | undefined {
  if (!pattern) return undefined;
  const bare = pattern.replace(/^\^/, "").replace(/\$$/, "");
  try {
    new RegExp(`^(?:${bare})$`, "v");
    return bare;
  } catch {
    return undefined;
  }
}

/** What a field may be, as people know it: a day by its number and town, a stop by its name. */
export type Choices = Record<string, { value: string; label: string }[]>;

export function SchemaForm({
  schema,
  submitLabel,
  busy,
  initial,
  onSubmit,
  choices = {},
  labels = {},
  help = {},
  optionLabel = (_field, value) => value,
}: {
  schema: JsonSchema;
  submitLabel: string;
  busy: boolean;
  initial?: Record<string, string>;
  onSubmit: (args: Record<string, unknown>) => void;
  choices?: Choices;
  labels?: Record<string, string>;
  /** A field's help in the reader's language, in place of its schema's (English) description. */
  help?: Record<string, string | undefined>;
  /** A value of a field's list in words (its schema's enum holds codes). */
  optionLabel?: (field: string, value: string) => string;
}) {
  const { t } = useI18n();
  const fields = fieldsOf(schema);
  const [values, setValues] = useState<Record<string, string>>(initial ?? {});
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const args: Record<string, unknown> = {};
    for (const field of fields) {
      let value = valueOf(field, values[field.name] ?? "");
      const named = field.schema.type === "array" ? choices[field.name] : undefined;
      if (named && Array.isArray(value)) {
        // a list said by names ("Caldea, Lunch in Canillo"): each name for its value, as the page shows it
        value = value.map((item) => named.find((c) => c.label.toLowerCase() === String(item).toLowerCase())?.value ?? item);
      }
      if (value !== undefined) args[field.name] = value;
    }
    onSubmit(args);
  };
  return (
    <form className="schema-form" onSubmit={submit}>
      {fields.map((field) => {
        const inputId = `${id}-${field.name}`;
        const s = field.schema;
        const common = {
          id: inputId,
          name: field.name,
          required: field.required,
          value: values[field.name] ?? "",
          "aria-describedby": field.description ? `${inputId}-help` : undefined,
          onChange: (e: { target: { value: string } }) => setValues({ ...values, [field.name]: e.target.value }),
        };
        let control;
        const known = s.type !== "array" ? choices[field.name] : undefined;
        if (known) {
          control = (
            <select {...common}>
              <option value="">{field.required ? t("form.choose") : "—"}</option>
              {known.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          );
        } else if (s.enum) {
          control = (
            <select {...common}>
              <option value="">{field.required ? t("form.choose") : "—"}</option>
              {s.enum.map((v) => (
                <option key={v} value={v}>
                  {optionLabel(field.name, v)}
                </option>
              ))}
            </select>
          );
        } else if (s.type === "boolean") {
          control = (
            <select {...common}>
              <option value="">—</option>
              <option value="true">{t("form.yes")}</option>
              <option value="false">{t("form.no")}</option>
            </select>
          );
        } else if (s.type === "integer" || (s.type === "number" && field.alternatives.length === 1)) {
          control = <input type="number" step={s.type === "integer" ? 1 : "any"} min={s.minimum} max={s.maximum} {...common} />;
        } else if (s.format === "date") {
          control = <input type="date" {...common} />;
        } else {
          control = (
            <input
              type="text"
              maxLength={s.maxLength}
              pattern={s.type === "string" ? htmlPattern(s.pattern) : undefined}
              placeholder={
                s.type === "array" ? (choices[field.name]?.map((c) => c.label).join(", ") ?? t("form.commaSeparated")) : undefined
              }
              {...common}
            />
          );
        }
        return (
          <div className="field" key={field.name}>
            <span className="label-row">
              <label htmlFor={inputId}>{labels[field.name] ?? field.label}</label>
              {field.required && <span aria-hidden="true"> *</span>}
            </span>
            {control}
            {field.description && (
              <small id={`${inputId}-help`} className="muted">
                {help[field.name] ?? field.description}
              </small>
            )}
          </div>
        );
      })}
      <button type="submit" className="primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
