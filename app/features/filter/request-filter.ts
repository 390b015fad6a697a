/** A filter of a request: one dimension, values as in the URL form (`"2906"`, `"!AS15169"`). */
export type RequestFilter = { dimension: string; values: readonly string[] };
