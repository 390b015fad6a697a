/** Unit formatting. Pure and isomorphic. */

const BIT_PREFIXES = ["", "k", "M", "G", "T", "P", "E"] as const;

/**
 * Bit/s with SI (decimal) prefixes and 3 significant digits: 0 → "0 bit/s", 1234 → "1.23 kbit/s",
 * 999_999 → "1.00 Mbit/s" (rounding may carry into the next prefix). Negative values keep their sign;
 * non-finite values give "–".
 */
export function formatBitsPerSecond(bps: number): string {
  if (!Number.isFinite(bps)) return "–";
  if (bps === 0) return "0 bit/s";
  const sign = bps < 0 ? "-" : "";
  const abs = Math.abs(bps);
  let exp = abs < 1 ? 0 : Math.min(BIT_PREFIXES.length - 1, Math.floor(Math.log10(abs) / 3));
  let scaled = abs / 1000 ** exp;
  // log10 rounding and toPrecision rounding can both push the mantissa to 1000: move up one prefix.
  if (Number(scaled.toPrecision(3)) >= 1000 && exp < BIT_PREFIXES.length - 1) {
    exp += 1;
    scaled = abs / 1000 ** exp;
  } else if (scaled < 1 && exp > 0) {
    exp -= 1;
    scaled = abs / 1000 ** exp;
  }
  const mantissa = scaled >= 1000 ? String(Math.round(scaled)) : scaled.toPrecision(3);
  return `${sign}${mantissa} ${BIT_PREFIXES[exp]}bit/s`;
}

/**
 * A fraction as a percentage with 3 significant digits (0.8345 → "83.5 %", 0.05 → "5.00 %",
 * 1.234 → "123 %"); null or non-finite → "–".
 */
export function formatPercent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return "–";
  const p = fraction * 100;
  if (p === 0) return "0 %";
  const abs = Math.abs(p);
  const text = abs >= 100 ? String(Math.round(p)) : p.toPrecision(3);
  return `${text} %`;
}

/**
 * A link's utilisation as people read it: like formatPercent, but a small non-zero one reads
 * "< 1 %" (a direction that carries a little traffic must not look dead, nor be read to the
 * thousandth of a percent); "0 %" only for none at all.
 */
export function formatUtilisation(fraction: number | null | undefined): string {
  if (fraction !== null && fraction !== undefined && fraction > 0 && fraction < 0.01) return "< 1 %";
  return formatPercent(fraction);
}
