import { eq } from "drizzle-orm";
import { userSettings } from "~db/postgres/schema";
import { MESSAGES } from "~/lib/messages";
import type { Permission } from "~/lib/permissions";
import type { Db } from "../postgres.server";

/**
 * The user's own settings (shell §3 user_settings, §7 POST auth/settings/{name}/, §9 defaults).
 * Every name has one validator; the JSON call and the /settings form both go through it.
 */

/** A failed settings change: 400 bad value, 403 not allowed, 404 unknown name; `errors` names the fields. */
export class SettingsError extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    message: string,
    readonly errors: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export const THRESHOLD_GROUPS = ["timeseries", "intlinks", "extlinks"] as const;
export type ThresholdGroup = (typeof THRESHOLD_GROUPS)[number];
export const THRESHOLD_LEVELS = ["medium", "high"] as const;
export type ThresholdLevel = (typeof THRESHOLD_LEVELS)[number];
export const BUILDOUT_TYPES = ["DAYS", "PERCENT"] as const;
export type BuildoutType = (typeof BUILDOUT_TYPES)[number];
export const CSV_DELIMITERS = [",", ";"] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** The settings a user edits here (enable_2fa belongs to the two-factor module). */
export const EDITABLE_SETTING_NAMES = [
  "timezone",
  "csv_delimiter",
  "timeseries_util_threshold_medium",
  "timeseries_util_threshold_high",
  "intlinks_util_threshold_medium",
  "intlinks_util_threshold_high",
  "extlinks_util_threshold_medium",
  "extlinks_util_threshold_high",
  "extlinks_buildout_threshold",
  "extlinks_buildout_type",
  "intlinks_buildout_threshold",
  "intlinks_buildout_type",
] as const;
export type EditableSettingName = (typeof EDITABLE_SETTING_NAMES)[number];

export type UserSettingsJson = {
  enable_2fa: boolean;
  timezone: string;
  csv_delimiter: CsvDelimiter;
  timeseries_util_threshold_medium: number;
  timeseries_util_threshold_high: number;
  intlinks_util_threshold_medium: number;
  intlinks_util_threshold_high: number;
  extlinks_util_threshold_medium: number;
  extlinks_util_threshold_high: number;
  extlinks_buildout_threshold: number;
  extlinks_buildout_type: BuildoutType;
  intlinks_buildout_threshold: number;
  intlinks_buildout_type: BuildoutType;
};

/** Spec §9 defaults (the column defaults of user_settings say the same). */
export const DEFAULT_USER_SETTINGS: UserSettingsJson = {
  enable_2fa: false,
  timezone: "UTC",
  csv_delimiter: ",",
  timeseries_util_threshold_medium: 0.5,
  timeseries_util_threshold_high: 0.85,
  intlinks_util_threshold_medium: 0.75,
  intlinks_util_threshold_high: 0.95,
  extlinks_util_threshold_medium: 0.75,
  extlinks_util_threshold_high: 0.95,
  extlinks_buildout_threshold: 90,
  extlinks_buildout_type: "DAYS",
  intlinks_buildout_threshold: 90,
  intlinks_buildout_type: "DAYS",
};

/** IANA zone names of the runtime, plus "UTC" (Intl lists only canonical region names). */
export const TIMEZONES: string[] = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];
const TIMEZONE_SET = new Set(TIMEZONES);

export const MAX_BUILDOUT_THRESHOLD = 36_500;

/** Labels for messages and the form. */
export const SETTING_LABELS: Record<EditableSettingName, string> = {
  timezone: "Timezone",
  csv_delimiter: "CSV delimiter",
  timeseries_util_threshold_medium: "Timeseries medium utilization threshold",
  timeseries_util_threshold_high: "Timeseries high utilization threshold",
  intlinks_util_threshold_medium: "Core Planner medium utilization threshold",
  intlinks_util_threshold_high: "Core Planner high utilization threshold",
  extlinks_util_threshold_medium: "Border Planner medium utilization threshold",
  extlinks_util_threshold_high: "Border Planner high utilization threshold",
  extlinks_buildout_threshold: "Border Planner build-out threshold",
  extlinks_buildout_type: "Border Planner build-out type",
  intlinks_buildout_threshold: "Core Planner build-out threshold",
  intlinks_buildout_type: "Core Planner build-out type",
};

const CORE_PLANNER: readonly Permission[] = ["API_LINK_UTIL_INTERNAL"];
const BORDER_PLANNER: readonly Permission[] = ["FRONTEND_LINK_UTIL_EXTERNAL"];

/**
 * The tool a setting concerns, as the permissions that open it (any one will do): internal-link
 * settings belong to the Core Planner, external-link ones to the Border Planner, and the timeseries
 * utilization thresholds colour the link timeseries of both. Timezone and CSV delimiter are everyone's.
 */
const SETTING_PERMISSIONS: Partial<Record<EditableSettingName, readonly Permission[]>> = {
  timeseries_util_threshold_medium: [...CORE_PLANNER, ...BORDER_PLANNER],
  timeseries_util_threshold_high: [...CORE_PLANNER, ...BORDER_PLANNER],
  intlinks_util_threshold_medium: CORE_PLANNER,
  intlinks_util_threshold_high: CORE_PLANNER,
  intlinks_buildout_threshold: CORE_PLANNER,
  intlinks_buildout_type: CORE_PLANNER,
  extlinks_util_threshold_medium: BORDER_PLANNER,
  extlinks_util_threshold_high: BORDER_PLANNER,
  extlinks_buildout_threshold: BORDER_PLANNER,
  extlinks_buildout_type: BORDER_PLANNER,
};

/** The settings a user with these permissions may see and change (a delegated user without the planners: timezone and CSV delimiter). */
export function settingsForPermissions(permissions: readonly string[]): EditableSettingName[] {
  return EDITABLE_SETTING_NAMES.filter((name) => {
    const needed = SETTING_PERMISSIONS[name];
    return !needed || needed.some((p) => permissions.includes(p));
  });
}

function requireAllowed(name: EditableSettingName, allowed: readonly EditableSettingName[] | undefined): void {
  if (allowed && !allowed.includes(name))
    throw new SettingsError(403, MESSAGES.permissionDenied, [{ field: name, message: MESSAGES.permissionDenied }]);
}

export const TWO_FA_MESSAGE = "Two-factor authentication is switched on and off in the two-factor settings (/settings/security), not here.";

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

function parseNumber(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  if (typeof raw === "string" && raw.trim() !== "") {
    const n = Number(raw.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function parseThreshold(raw: unknown): Parsed<number> {
  const n = parseNumber(raw);
  if (n === null || n < 0 || n > 1) return fail("Enter a number between 0 and 1 (for example 0.75 for 75 %).");
  return { ok: true, value: n };
}

function parseBuildoutThreshold(raw: unknown): Parsed<number> {
  const n = parseNumber(raw);
  if (n === null || !Number.isInteger(n) || n < 1 || n > MAX_BUILDOUT_THRESHOLD) {
    return fail(`Enter a whole number from 1 to ${MAX_BUILDOUT_THRESHOLD}.`);
  }
  return { ok: true, value: n };
}

function parseBuildoutType(raw: unknown): Parsed<BuildoutType> {
  const v = typeof raw === "string" ? raw.trim().toUpperCase() : "";
  return (BUILDOUT_TYPES as readonly string[]).includes(v) ? { ok: true, value: v as BuildoutType } : fail("Choose DAYS or PERCENT.");
}

function parseDelimiter(raw: unknown): Parsed<CsvDelimiter> {
  const v = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  if (v === "," || v === "comma") return { ok: true, value: "," };
  if (v === ";" || v === "semicolon") return { ok: true, value: ";" };
  return fail('Choose comma (",") or semicolon (";").');
}

function parseTimezone(raw: unknown): Parsed<string> {
  const v = typeof raw === "string" ? raw.trim() : "";
  return TIMEZONE_SET.has(v)
    ? { ok: true, value: v }
    : fail("Choose a timezone from the list (an IANA name such as Europe/Berlin, or UTC).");
}

const PARSERS: Record<EditableSettingName, (raw: unknown) => Parsed<string | number>> = {
  timezone: parseTimezone,
  csv_delimiter: parseDelimiter,
  timeseries_util_threshold_medium: parseThreshold,
  timeseries_util_threshold_high: parseThreshold,
  intlinks_util_threshold_medium: parseThreshold,
  intlinks_util_threshold_high: parseThreshold,
  extlinks_util_threshold_medium: parseThreshold,
  extlinks_util_threshold_high: parseThreshold,
  extlinks_buildout_threshold: parseBuildoutThreshold,
  extlinks_buildout_type: parseBuildoutType,
  intlinks_buildout_threshold: parseBuildoutThreshold,
  intlinks_buildout_type: parseBuildoutType,
};

export function isEditableSettingName(name: string): name is EditableSettingName {
  return (EDITABLE_SETTING_NAMES as readonly string[]).includes(name);
}

/**
 * The setting a call means: a full name (timezone, extlinks_util_threshold_high, …) or a
 * threshold family (timeseries_util_threshold) plus its level. A level that contradicts the
 * full name is an error.
 */
export function resolveSettingName(name: string, level?: string | null): EditableSettingName {
  if (name === "enable_2fa") throw new SettingsError(400, TWO_FA_MESSAGE, [{ field: "enable_2fa", message: TWO_FA_MESSAGE }]);
  const family = /^(timeseries|intlinks|extlinks)_util_threshold$/.exec(name);
  if (family) {
    if (level !== "medium" && level !== "high") {
      const message = "Thresholds need a level: medium or high.";
      throw new SettingsError(400, message, [{ field: "level", message }]);
    }
    return `${family[1]}_util_threshold_${level}` as EditableSettingName;
  }
  if (!isEditableSettingName(name)) {
    throw new SettingsError(404, `There is no setting named ${JSON.stringify(name)}.`, [{ field: "name", message: "Unknown setting." }]);
  }
  const fixedLevel = /_util_threshold_(medium|high)$/.exec(name);
  if (level != null && level !== "" && (!fixedLevel || fixedLevel[1] !== level)) {
    const message = fixedLevel ? `The level ${JSON.stringify(level)} does not match ${name}.` : `${name} takes no level.`;
    throw new SettingsError(400, message, [{ field: "level", message }]);
  }
  return name;
}

type Row = typeof userSettings.$inferSelect;

function toJson(row: Row | undefined): UserSettingsJson {
  if (!row) return { ...DEFAULT_USER_SETTINGS };
  return {
    enable_2fa: row.enable2fa,
    timezone: row.timezone,
    csv_delimiter: row.csvDelimiter,
    timeseries_util_threshold_medium: row.timeseriesUtilThresholdMedium,
    timeseries_util_threshold_high: row.timeseriesUtilThresholdHigh,
    intlinks_util_threshold_medium: row.intlinksUtilThresholdMedium,
    intlinks_util_threshold_high: row.intlinksUtilThresholdHigh,
    extlinks_util_threshold_medium: row.extlinksUtilThresholdMedium,
    extlinks_util_threshold_high: row.extlinksUtilThresholdHigh,
    extlinks_buildout_threshold: row.extlinksBuildoutThreshold,
    extlinks_buildout_type: row.extlinksBuildoutType,
    intlinks_buildout_threshold: row.intlinksBuildoutThreshold,
    intlinks_buildout_type: row.intlinksBuildoutType,
  };
}

const COLUMNS: Record<EditableSettingName, keyof Omit<Row, "userId" | "enable2fa">> = {
  timezone: "timezone",
  csv_delimiter: "csvDelimiter",
  timeseries_util_threshold_medium: "timeseriesUtilThresholdMedium",
  timeseries_util_threshold_high: "timeseriesUtilThresholdHigh",
  intlinks_util_threshold_medium: "intlinksUtilThresholdMedium",
  intlinks_util_threshold_high: "intlinksUtilThresholdHigh",
  extlinks_util_threshold_medium: "extlinksUtilThresholdMedium",
  extlinks_util_threshold_high: "extlinksUtilThresholdHigh",
  extlinks_buildout_threshold: "extlinksBuildoutThreshold",
  extlinks_buildout_type: "extlinksBuildoutType",
  intlinks_buildout_threshold: "intlinksBuildoutThreshold",
  intlinks_buildout_type: "intlinksBuildoutType",
};

/** The user's settings; a user without a row has the defaults. */
export async function getUserSettings(db: Db, userId: number): Promise<UserSettingsJson> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
  return toJson(row);
}

export type SettingsPatch = Partial<Pick<UserSettingsJson, EditableSettingName>>;

/**
 * Checks raw values (from JSON or a form) against their validators and the medium < high rule,
 * measured against the current settings. Returns the clean patch and the errors by field.
 */
export function validateSettings(
  raw: Partial<Record<EditableSettingName, unknown>>,
  current: UserSettingsJson,
): { patch: SettingsPatch; errors: Partial<Record<EditableSettingName, string>> } {
  const patch: Record<string, string | number> = {};
  const errors: Partial<Record<EditableSettingName, string>> = {};
  for (const name of EDITABLE_SETTING_NAMES) {
    if (!(name in raw)) continue;
    const parsed = PARSERS[name](raw[name]);
    if (parsed.ok) patch[name] = parsed.value;
    else errors[name] = parsed.message;
  }
  for (const group of THRESHOLD_GROUPS) {
    const mediumName = `${group}_util_threshold_medium` as const;
    const highName = `${group}_util_threshold_high` as const;
    if (errors[mediumName] || errors[highName]) continue;
    if (!(mediumName in patch) && !(highName in patch)) continue;
    const medium = (patch[mediumName] as number | undefined) ?? current[mediumName];
    const high = (patch[highName] as number | undefined) ?? current[highName];
    if (!(medium < high)) {
      const field = mediumName in patch ? mediumName : highName;
      errors[field] = `The medium threshold (${medium}) must be lower than the high threshold (${high}).`;
    }
  }
  return { patch: patch as SettingsPatch, errors };
}

async function writePatch(db: Db, userId: number, patch: SettingsPatch): Promise<void> {
  const set: Partial<Row> = {};
  for (const [name, value] of Object.entries(patch) as [EditableSettingName, string | number][]) {
    (set as Record<string, unknown>)[COLUMNS[name]] = value;
  }
  if (Object.keys(set).length === 0) return;
  await db
    .insert(userSettings)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: userSettings.userId, set });
}

function errorList(errors: Partial<Record<EditableSettingName, string>>) {
  return Object.entries(errors).map(([field, message]) => ({ field, message: message as string }));
}

/**
 * POST auth/settings/{name}/: one setting; the answer is the whole, updated settings object. With
 * `allowed` (settingsForPermissions), a setting of a tool the user cannot use is refused with 403.
 */
export async function updateUserSetting(
  db: Db,
  userId: number,
  name: string,
  value: unknown,
  level?: string | null,
  allowed?: readonly EditableSettingName[],
): Promise<UserSettingsJson> {
  const settingName = resolveSettingName(name, level);
  requireAllowed(settingName, allowed);
  const current = await getUserSettings(db, userId);
  const { patch, errors } = validateSettings({ [settingName]: value }, current);
  const list = errorList(errors);
  if (list.length) throw new SettingsError(400, `${SETTING_LABELS[settingName]}: ${list[0].message}`, list);
  await writePatch(db, userId, patch);
  return getUserSettings(db, userId);
}

/** The /settings form: several settings at once, all or nothing. */
export async function updateUserSettings(
  db: Db,
  userId: number,
  raw: Partial<Record<EditableSettingName, unknown>>,
): Promise<{ ok: true; settings: UserSettingsJson } | { ok: false; errors: Partial<Record<EditableSettingName, string>> }> {
  const current = await getUserSettings(db, userId);
  const { patch, errors } = validateSettings(raw, current);
  if (Object.keys(errors).length) return { ok: false, errors };
  await writePatch(db, userId, patch);
  return { ok: true, settings: await getUserSettings(db, userId) };
}
