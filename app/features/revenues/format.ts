/** Revenues & Costs' figures for people: EUR with cents, Mbit/s with one decimal. */
export const eur = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "EUR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const mbit = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 1, minimumFractionDigits: 1 });
export const formatEur = (x: number | null) => (x === null || !Number.isFinite(x) ? "–" : eur.format(x));
export const formatMbps = (x: number | null) => (x === null || !Number.isFinite(x) ? "–" : `${mbit.format(x)} Mbit/s`);
