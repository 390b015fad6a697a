/**
 * Longest-prefix match over a routing table, as sorted disjoint ranges: the prefixes (nested or
 * not) are flattened once into the address ranges where the longest covering prefix stays the same,
 * each range keeping its start and that prefix's index (-1: no prefix covers it). A lookup is then
 * one binary search over the starts (about 21 steps for a million prefixes), with no allocation.
 *
 * Why ranges rather than a trie: the table is two typed arrays, so it survives structured cloning
 * to worker threads (and can sit in a SharedArrayBuffer, shared rather than copied), and it costs
 * at most 2n + 1 ranges: 8 bytes per range for IPv4 (one 32-bit start word, one index), 20 for IPv6
 * (four words, one index).
 *
 * Addresses are unsigned 32-bit words, most significant first: one per IPv4 address, four per IPv6.
 */

export type PrefixVersion = 4 | 6;

export type PrefixRanges = {
  version: PrefixVersion;
  /** Number of ranges (≥ 1: the first starts at address 0). */
  size: number;
  /** Range starts, ascending: `size` words (IPv4) or 4 × `size` (IPv6). */
  starts: Uint32Array;
  /** Per range: the index (in the input) of the longest prefix covering it, -1 for none. */
  entries: Int32Array;
};

const wordsOf = (version: PrefixVersion) => (version === 4 ? 1 : 4);

/** The network mask of word `w` (0 = most significant) for a prefix of `length` bits. */
function maskWord(length: number, w: number): number {
  const covered = length - w * 32;
  if (covered >= 32) return 0xffffffff;
  if (covered <= 0) return 0;
  return (0xffffffff << (32 - covered)) >>> 0;
}

/**
 * The ranges of `count` prefixes: prefix i is addresses[i·W … i·W+W-1] (host bits are ignored) with
 * length lengths[i] (W = 1 for IPv4, 4 for IPv6). Lengths beyond the address width are skipped. When
 * the same prefix is given twice, the later one wins. Input sorted by (address, length) — as the
 * loader reads it — is taken in one pass; any other order is sorted first.
 */
export function buildPrefixRanges(
  version: PrefixVersion,
  addresses: Uint32Array,
  lengths: Uint8Array,
  count: number = lengths.length,
): PrefixRanges {
  const W = wordsOf(version);
  const bits = W * 32;
  const network = new Uint32Array(count * W);
  for (let i = 0; i < count; i++) {
    const length = lengths[i];
    for (let w = 0; w < W; w++) network[i * W + w] = (addresses[i * W + w] & maskWord(length, w)) >>> 0;
  }
  const compare = (a: number, b: number): number => {
    for (let w = 0; w < W; w++) {
      const x = network[a * W + w];
      const y = network[b * W + w];
      if (x !== y) return x < y ? -1 : 1;
    }
    return lengths[a] - lengths[b] || a - b;
  };
  let order: ArrayLike<number> | null = null;
  for (let i = 1; i < count; i++)
    if (compare(i - 1, i) > 0) {
      order = Uint32Array.from(Array.from({ length: count }, (_, k) => k).sort(compare), (k) => k);
      break;
    }

  const capacity = 2 * count + 1;
  const starts = new Uint32Array(capacity * W);
  const entries = new Int32Array(capacity);
  entries[0] = -1;
  let size = 1;
  // Open prefixes, outermost first: at most one per length, so bits + 1 deep.
  const stackEntry = new Int32Array(bits + 1);
  const stackLength = new Uint8Array(bits + 1);
  const stackEnd = new Uint32Array((bits + 1) * W);
  let depth = 0;
  const next = new Uint32Array(W);

  const sameStart = (at: number, from: Uint32Array, offset: number) => {
    for (let w = 0; w < W; w++) if (starts[at * W + w] !== from[offset + w]) return false;
    return true;
  };
  const emit = (from: Uint32Array, offset: number, entry: number) => {
    if (sameStart(size - 1, from, offset)) {
      entries[size - 1] = entry;
      if (size > 1 && entries[size - 2] === entry) size--;
      return;
    }
    if (entries[size - 1] === entry) return;
    for (let w = 0; w < W; w++) starts[size * W + w] = from[offset + w];
    entries[size++] = entry;
  };
  /** next = the address after the popped prefix's end; false when it ended at the last address. */
  const afterEnd = (at: number): boolean => {
    let carry = 1;
    for (let w = W - 1; w >= 0; w--) {
      const sum = stackEnd[at * W + w] + carry;
      next[w] = sum >>> 0;
      carry = sum > 0xffffffff ? 1 : 0;
    }
    return carry === 0;
  };
  const endsBefore = (at: number, index: number): boolean => {
    for (let w = 0; w < W; w++) {
      const end = stackEnd[at * W + w];
      const start = network[index * W + w];
      if (end !== start) return end < start;
    }
    return false;
  };
  const samePrefix = (a: number, b: number) => {
    for (let w = 0; w < W; w++) if (network[a * W + w] !== network[b * W + w]) return false;
    return true;
  };
  const pop = () => {
    depth--;
    if (afterEnd(depth)) emit(next, 0, depth > 0 ? stackEntry[depth - 1] : -1);
  };

  for (let k = 0; k < count; k++) {
    const index = order ? order[k] : k;
    const length = lengths[index];
    if (length > bits) continue;
    while (depth > 0 && endsBefore(depth - 1, index)) pop();
    emit(network, index * W, index);
    if (depth > 0 && stackLength[depth - 1] === length && samePrefix(stackEntry[depth - 1], index)) {
      // The same prefix again: the later one replaces it.
      stackEntry[depth - 1] = index;
      continue;
    }
    stackEntry[depth] = index;
    stackLength[depth] = length;
    for (let w = 0; w < W; w++) stackEnd[depth * W + w] = (network[index * W + w] | ~maskWord(length, w)) >>> 0;
    depth++;
  }
  while (depth > 0) pop();
  return { version, size, starts: starts.slice(0, size * W), entries: entries.slice(0, size) };
}

/** The index of the longest prefix covering an IPv4 address (unsigned 32-bit value), or -1. */
export function lookupIpv4(table: PrefixRanges, address: number): number {
  const starts = table.starts;
  let low = 0;
  let high = table.size - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (starts[mid] <= address) low = mid;
    else high = mid - 1;
  }
  return table.entries[low];
}

/** The index of the longest prefix covering an IPv6 address (words w0 … w3, most significant first), or -1. */
export function lookupIpv6(table: PrefixRanges, w0: number, w1: number, w2: number, w3: number): number {
  const starts = table.starts;
  let low = 0;
  let high = table.size - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    const at = mid * 4;
    let a = starts[at];
    let b = w0;
    if (a === b) {
      a = starts[at + 1];
      b = w1;
      if (a === b) {
        a = starts[at + 2];
        b = w2;
        if (a === b) {
          a = starts[at + 3];
          b = w3;
        }
      }
    }
    if (a <= b) low = mid;
    else high = mid - 1;
  }
  return table.entries[low];
}
