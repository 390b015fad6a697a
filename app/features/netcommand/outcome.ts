/**
 * What running a network command yields, whichever executor ran it: the output to show, or the
 * reason it failed and whether trying once more may help (a router that could not be reached).
 */
export type CommandOutcome = { ok: true; output: string } | { ok: false; message: string; transient: boolean };

/** Maximum output kept from one command: far more than 20 traceroute hops or 4 pings print. */
export const MAX_OUTPUT_BYTES = 64 * 1024;

export const outputCutNote = `\n[output cut at ${MAX_OUTPUT_BYTES / 1024} KiB]`;
