import { describe, expect, it } from "vitest";
import { MAX_POPUPS_PER_POLL, newPopUps, poppedUpUpdates } from "~/lib/notification-popups";

const item = (id: number, extra: Partial<{ is_read: boolean; do_pop_up: boolean }> = {}) => ({
  id,
  is_read: false,
  do_pop_up: true,
  ...extra,
});

describe("pop-up notifications per poll", () => {
  it("shows at most three new ones and sums up the rest; read, quiet and already shown ones are skipped", () => {
    expect(MAX_POPUPS_PER_POLL).toBe(3);
    const items = [item(1), item(2, { is_read: true }), item(3, { do_pop_up: false }), item(4), item(5), item(6), item(7), item(8)];
    const { show, more } = newPopUps(items, new Set([5]));
    expect(show.map((i) => i.id)).toEqual([1, 4, 6]);
    expect(more.map((i) => i.id)).toEqual([7, 8]);
    expect(newPopUps([item(1), item(4)], new Set())).toEqual({ show: [item(1), item(4)], more: [] });
  });

  it("marks what popped up, shown or summed up, so the server flags it as popped up", () => {
    expect(poppedUpUpdates([4, 7])).toEqual([
      { id: 4, do_pop_up: false },
      { id: 7, do_pop_up: false },
    ]);
  });
});
