// One stop in a day's list: its name and kind, and for members who may edit, rename in place (Enter saves,
// Escape keeps the name) and remove. Each change is one operation of the registry (the page runs it on the
// version shown); a removal offers Undo, which adds the same stop back where it was.
import { useRef, useState, type DragEvent } from "react";
import type { Stop } from "../api/client";
import { useI18n } from "../i18n";

/** Runs an operation on the version shown; resolves when it is applied, rejects (and says why) when not. */
export type RunOp = (op: string, args: Record<string, unknown>) => Promise<void>;

/** How a stop is moved in its day's list (``DayStops``): dragged, or by its handle's arrow keys. */
export interface StopDrag {
  draggable: boolean;
  onDragStart: (e: DragEvent<HTMLLIElement>) => void;
  onDragOver: (e: DragEvent<HTMLLIElement>) => void;
  onDragEnd: () => void;
  onDrop: (e: DragEvent<HTMLLIElement>) => void;
  onMove: (delta: number) => void;
  moveLabel: string;
  target: boolean;
}

export function StopItem({
  stop,
  runOp,
  onRemoved,
  drag,
}: {
  stop: Stop;
  runOp?: RunOp;
  onRemoved: (stop: Stop) => void;
  drag?: StopDrag;
}) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(stop.name);
  const [busy, setBusy] = useState(false);
  const saving = useRef(false); // Enter saves, and the field's blur as it goes would save again
  const kind = t(`kind.${stop.kind}` as Parameters<typeof t>[0]);
  const save = async () => {
    if (saving.current) return;
    saving.current = true;
    const next = name.trim();
    if (!runOp || !next || next === stop.name) {
      setEditing(false);
      setName(stop.name);
      return;
    }
    setBusy(true);
    try {
      await runOp("edit_stop", { stopId: stop.stopId, name: next });
      setEditing(false);
    } catch {
      setName(stop.name); // the page said why
      setEditing(false);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!runOp) return;
    setBusy(true);
    try {
      await runOp("remove_stop", { stopId: stop.stopId });
      onRemoved(stop);
    } catch {
      setBusy(false);
    }
  };
  if (editing) {
    return (
      <li className="stop editing">
        <input
          aria-label={t("stop.newName", { name: stop.name })}
          value={name}
          disabled={busy}
          autoFocus
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.nativeEvent.isComposing) void save();
            if (e.key === "Escape") {
              setName(stop.name);
              setEditing(false);
            }
          }}
          onBlur={() => void save()}
        />
      </li>
    );
  }
  const { onMove, moveLabel, target, ...dragging } = drag ?? { onMove: undefined, moveLabel: "", target: false };
  return (
    <li className={`stop${target ? " drop-target" : ""}`} {...dragging} data-testid="stop">
      {onMove && (
        <button
          type="button"
          className="drag-handle"
          aria-label={moveLabel}
          title={moveLabel}
          onKeyDown={(e) => {
            if (e.key === "ArrowUp" || e.key === "ArrowDown") {
              e.preventDefault();
              onMove(e.key === "ArrowUp" ? -1 : 1);
            }
          }}
        >
          ⠿
        </button>
      )}
      {stop.name} <span className="muted">({kind}{stop.startTime ? `, ${stop.startTime}` : ""})</span>
      {onMove && (
        // On a touch screen there is no drag and drop to rely on, nor arrow keys: a stop moves by a tap
        <span className="move-buttons">
          <button type="button" className="link" aria-label={t("stop.up", { name: stop.name })} onClick={() => onMove(-1)}>
            ▲
          </button>
          <button type="button" className="link" aria-label={t("stop.down", { name: stop.name })} onClick={() => onMove(1)}>
            ▼
          </button>
        </span>
      )}
      {runOp && (
        <span className="stop-actions">
          <button
            type="button"
            className="link"
            disabled={busy}
            onClick={() => {
              saving.current = false;
              setEditing(true);
            }}
            aria-label={t("stop.rename", { name: stop.name })}
          >
            {t("stop.renameShort")}
          </button>
          <button type="button" className="link" disabled={busy} onClick={() => void remove()} aria-label={t("stop.remove", { name: stop.name })}>
            {t("stop.removeShort")}
          </button>
        </span>
      )}
    </li>
  );
}
