import type { DimensionId } from "~/features/filter/dimensions";
import { valueExplanation } from "~/features/filter/value-labels";

/**
 * A value's name; a value that is not a real one (special AS values, "Not mapped") carries its
 * explanation as a title (a tooltip that needs no JavaScript).
 */
export function ValueName({ row, dimension }: { row: { key: string; name: string }; dimension: DimensionId | null | undefined }) {
  const special = dimension ? valueExplanation(dimension, row.key) : null;
  if (!special) return <>{row.name}</>;
  return (
    <span
      title={special.explanation}
      data-special-value={row.key}
      data-special-as={/^-\d+$/.test(row.key) ? row.key : undefined}
      style={{ textDecoration: "underline dotted", cursor: "help" }}
    >
      {special.name}
    </span>
  );
}
