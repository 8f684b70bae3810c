// Effort per day, as a small chart: distance as bars, climbing and descent as marks beside them.
import type { Day } from "../api/client";
import { formatNumber, useI18n } from "../i18n";

const W = 320;
const H = 120;

export function EffortChart({ days }: { days: Day[] }) {
  const { t, locale } = useI18n();
  const staged = days.filter((d) => d.stage);
  if (!staged.length) return null;
  const maxKm = Math.max(...staged.map((d) => d.stage!.distanceKm), 1);
  const maxUp = Math.max(...staged.map((d) => Math.max(d.stage!.ascentM ?? 0, d.stage!.descentM ?? 0)), 1);
  const slot = W / staged.length;
  const summary = staged
    .map((d) =>
      t("effort.summary", {
        day: d.dayIndex + 1,
        km: formatNumber(locale, d.stage!.distanceKm),
        up: formatNumber(locale, d.stage!.ascentM ?? 0, 0),
      }),
    )
    .join("; ");
  return (
    <figure className="effort">
      <svg viewBox={`0 0 ${W} ${H + 18}`} role="img" aria-label={`${t("trip.effort")}: ${summary}`}>
        {staged.map((d, i) => {
          const km = d.stage!.distanceKm;
          const up = d.stage!.ascentM ?? 0;
          const barH = (km / maxKm) * (H - 10);
          const upH = (up / maxUp) * (H - 10);
          const x = i * slot + slot * 0.15;
          return (
            <g key={d.dayIndex}>
              <rect x={x} y={H - barH} width={slot * 0.4} height={barH} fill="#1f5fbf" />
              <rect x={x + slot * 0.42} y={H - upH} width={slot * 0.25} height={upH} fill="#c2410c" />
              <text x={x + slot * 0.3} y={H + 14} fontSize="10" textAnchor="middle">
                {d.dayIndex + 1}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="muted">
        <span className="swatch km" /> {t("effort.km")} <span className="swatch up" /> {t("effort.climbing")}
      </figcaption>
    </figure>
  );
}
