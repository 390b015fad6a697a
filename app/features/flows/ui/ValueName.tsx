import { SPECIAL_AS_VALUES } from "~/lib/special-as";

const SPECIAL = new Map<string, { name: string; explanation: string }>(SPECIAL_AS_VALUES.map((s) => [String(s.asn), { name: s.name, explanation: s.explanation }]));

/** A value's name; special AS values carry their explanation as a title (a tooltip that needs no JavaScript). */
export function ValueName({ row, isAs }: { row: { key: string; name: string }; isAs: boolean }) {
  const special = isAs ? SPECIAL.get(row.key) : undefined;
  if (!special) return <>{row.name}</>;
  return (
    <span title={special.explanation} data-special-as={row.key} style={{ textDecoration: "underline dotted", cursor: "help" }}>
      {special.name}
    </span>
  );
}
