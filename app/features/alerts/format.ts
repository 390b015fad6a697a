/**
 * How the Alerts screen writes a rule for people: its rates in bit/s (the Flow Explorer's
 * formatBitsPerSecond) or packets/s (the same rule: SI prefixes, three significant digits), its
 * condition, severity and state as labels, never codes. Pure and isomorphic.
 */
import { formatBitsPerSecond } from "~/lib/units";
import type { AlertMetric, AlertStatus, ConditionKind } from "./state-machine";

const PREFIXES = ["", "k", "M", "G", "T", "P", "E"] as const;

/** Packets/s as formatBitsPerSecond writes bit/s: 0 → "0 packets/s", 1234 → "1.23 kpackets/s". */
export function formatPacketsPerSecond(pps: number): string {
  const asBits = formatBitsPerSecond(pps);
  return asBits === "–" ? asBits : asBits.replace(/bit\/s$/, "packets/s");
}

export function formatRate(value: number | null | undefined, metric: AlertMetric): string {
  if (value === null || value === undefined) return "–";
  return metric === "bps" ? formatBitsPerSecond(value) : formatPacketsPerSecond(value);
}

export const METRIC_LABELS: Record<AlertMetric, string> = { bps: "bit/s", pps: "packets/s" };

export const CONDITION_LABELS: Record<ConditionKind, string> = {
  above: "Above a threshold",
  below: "Below a threshold",
  outside_band: "Outside the seasonal band",
};

export const SEVERITY_LABELS: Record<"info" | "warning" | "critical", string> = {
  info: "Info",
  warning: "Warning",
  critical: "Critical",
};

export const STATE_COLORS: Record<AlertStatus, string> = { OK: "green", Triggered: "red", Resolved: "blue", "No data": "gray" };

/** The condition in one line: "above 10.0 Mbit/s", "outside the seasonal band × 1.5". */
export function describeCondition(rule: {
  condition: ConditionKind;
  metric: AlertMetric;
  threshold: number | null;
  bandFactor: number | null;
}): string {
  if (rule.condition === "outside_band") return `outside the seasonal band of ${METRIC_LABELS[rule.metric]} × ${rule.bandFactor ?? 0}`;
  return `${rule.condition} ${formatRate(rule.threshold ?? 0, rule.metric)}`;
}

/** A duration in seconds as people write it: 0 → "none", 900 → "15 min", 5400 → "1 h 30 min", 45 → "45 s". */
export function formatSeconds(seconds: number): string {
  if (seconds <= 0) return "none";
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : "", s ? `${s} s` : ""].filter(Boolean).join(" ");
}

/**
 * A threshold as typed: a number with an optional SI prefix ("1.5G", "800 k", "10 M", "2500000").
 * Null when it is not one.
 */
export function parseRate(text: string): number | null {
  const m = /^\s*(\d+(?:[.,]\d+)?|[.,]\d+)\s*([kKMGTP]?)\s*(?:bit\/s|bps|packets\/s|pps)?\s*$/.exec(text);
  if (!m) return null;
  const factor = 1000 ** ["", "k", "M", "G", "T", "P"].indexOf(m[2] === "K" ? "k" : m[2]);
  const value = Number(m[1].replace(",", ".")) * factor;
  return Number.isFinite(value) ? value : null;
}

/** A rate as the threshold field shows it again: its exact prefix form when there is one ("1.5G", "800k"), else the plain number. */
export function rateText(value: number): string {
  for (let i = PREFIXES.length - 1; i > 0; i--) {
    const scaled = value / 1000 ** i;
    if (scaled >= 1 && scaled < 1000 && Math.abs(Math.round(scaled * 1000) / 1000 - scaled) < 1e-9)
      return `${Math.round(scaled * 1000) / 1000}${PREFIXES[i]}`;
  }
  return String(value);
}
