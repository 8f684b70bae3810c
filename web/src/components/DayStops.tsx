// A day's stops, in their order. Members who may edit drag a stop to a new place in the list (or move it
// with its handle's arrow keys); the new order is one reorder_stops operation on the version shown, and the
// list shows it at once, going back if the trip refuses it.
import { useState, type DragEvent } from "react";
import type { Stop } from "../api/client";
import { useI18n } from "../i18n";
import { StopItem, type RunOp } from "./StopItem";

export function DayStops({
  dayIndex,
  stops,
  runOp,
  onRemoved,
}: {
  dayIndex: number;
  stops: Stop[];
  runOp?: RunOp;
  onRemoved: (stop: Stop) => void;
}) {
  const { t } = useI18n();
  const ordered = [...stops].sort((a, b) => a.order - b.order);
  const [shown, setShown] = useState<string[] | null>(null); // the order being applied
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const ids = ordered.map((s) => s.stopId);
  const order = shown && shown.length === ids.length && shown.every((id) => ids.includes(id)) ? shown : ids;
  const byId = new Map(ordered.map((s) => [s.stopId, s]));

  const reorder = async (next: string[]) => {
    if (!runOp || next.join() === ids.join()) return;
    setShown(next);
    try {
      await runOp("reorder_stops", { dayIndex, stopIds: next });
    } catch {
      // the page said why; the list goes back to the trip's order
    } finally {
      setShown(null);
    }
  };
  const moved = (id: string, to: number) => {
    const rest = order.filter((x) => x !== id);
    rest.splice(Math.max(0, Math.min(to, rest.length)), 0, id);
    return rest;
  };
  const drag = (stop: Stop) =>
    runOp && ordered.length > 1
      ? {
          draggable: true,
          onDragStart: (e: DragEvent<HTMLLIElement>) => {
            e.dataTransfer.effectAllowed = "move";
            e.dataTransfer.setData("text/plain", stop.stopId);
            setDragged(stop.stopId);
          },
          onDragOver: (e: DragEvent<HTMLLIElement>) => {
            if (!dragged) return;
            e.preventDefault(); // a drop target
            setOver(stop.stopId);
          },
          onDragEnd: () => {
            setDragged(null);
            setOver(null);
          },
          onDrop: (e: DragEvent<HTMLLIElement>) => {
            e.preventDefault();
            const id = dragged ?? e.dataTransfer.getData("text/plain");
            setDragged(null);
            setOver(null);
            if (id && id !== stop.stopId) void reorder(moved(id, order.indexOf(stop.stopId)));
          },
          onMove: (delta: number) => void reorder(moved(stop.stopId, order.indexOf(stop.stopId) + delta)),
          moveLabel: t("stop.move", { name: stop.name }),
          target: over === stop.stopId && dragged !== stop.stopId,
        }
      : undefined;
  return (
    <ul className="stops" aria-busy={shown !== null}>
      {order.map((id) => {
        const stop = byId.get(id);
        return stop ? <StopItem key={id} stop={stop} runOp={runOp} onRemoved={onRemoved} drag={drag(stop)} /> : null;
      })}
    </ul>
  );
}
