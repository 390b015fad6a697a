/**
 * When a link crosses a user's build-out threshold (user_settings extlinks_/intlinks_buildout_type
 * and _threshold): DAYS at daysLeft ≤ threshold, PERCENT at percent ≥ threshold; the figure the
 * type needs must be there. And what the notification says.
 */
import { describe, expect, it } from "vitest";
import { buildoutCrossing, buildoutNotice, type BuildoutLink } from "~/server/notifications/buildout-threshold.server";

const settings = {
  extlinks_buildout_type: "DAYS",
  extlinks_buildout_threshold: 90,
  intlinks_buildout_type: "PERCENT",
  intlinks_buildout_threshold: 80,
} as const;
const external: BuildoutLink = { kind: "external", name: "et-0/0/1", router: "fra1-r1" };
const internal: BuildoutLink = { kind: "internal", name: "ae1", router: "ber1-r1" };

describe("buildoutCrossing", () => {
  it("external links by days left: at or below the threshold", () => {
    expect(buildoutCrossing(settings, { ...external, daysLeft: 91 })).toEqual({
      threshold: { type: "DAYS", threshold: 90 },
      crossed: false,
    });
    expect(buildoutCrossing(settings, { ...external, daysLeft: 90 }).crossed).toBe(true);
    expect(buildoutCrossing(settings, { ...external, daysLeft: 0 }).crossed).toBe(true);
    expect(buildoutCrossing(settings, { ...external, daysLeft: -3 }).crossed).toBe(true);
  });

  it("internal links by percent: at or above the threshold", () => {
    expect(buildoutCrossing(settings, { ...internal, percent: 79.99 })).toEqual({
      threshold: { type: "PERCENT", threshold: 80 },
      crossed: false,
    });
    expect(buildoutCrossing(settings, { ...internal, percent: 80 }).crossed).toBe(true);
    expect(buildoutCrossing(settings, { ...internal, percent: 120 }).crossed).toBe(true);
  });

  it("no decision without the figure the type needs", () => {
    expect(buildoutCrossing(settings, { ...external, percent: 99 }).crossed).toBeNull();
    expect(buildoutCrossing(settings, { ...internal, daysLeft: 1, percent: null }).crossed).toBeNull();
    expect(buildoutCrossing(settings, { ...external, daysLeft: Number.NaN }).crossed).toBeNull();
  });

  it("the type follows the user's setting for the kind", () => {
    const byPercent = { ...settings, extlinks_buildout_type: "PERCENT" as const, extlinks_buildout_threshold: 70 };
    expect(buildoutCrossing(byPercent, { ...external, daysLeft: 1, percent: 69 }).crossed).toBe(false);
    expect(buildoutCrossing(byPercent, { ...external, daysLeft: 500, percent: 70 }).crossed).toBe(true);
  });
});

describe("buildoutNotice", () => {
  it("names the link, its figure, the user's threshold and the planner", () => {
    expect(buildoutNotice({ ...external, daysLeft: 12.25 }, { type: "DAYS", threshold: 90 })).toEqual({
      title: "Build-out due: et-0/0/1 on fra1-r1",
      message: "et-0/0/1 on fra1-r1 needs building out in 12.3 days (your threshold: 90 days). See the Border Planner.",
    });
    expect(buildoutNotice({ ...internal, percent: 85 }, { type: "PERCENT", threshold: 80 })).toEqual({
      title: "Build-out threshold reached: ae1 on ber1-r1",
      message: "ae1 on ber1-r1 is at 85 % utilisation (your threshold: 80 %). See the Core Planner.",
    });
  });
});
