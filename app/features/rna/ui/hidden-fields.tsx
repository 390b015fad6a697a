/**
 * The screen's other controls as hidden fields of a GET form: a form changes its own parameters and
 * keeps every other one, so each form works without JavaScript and loses nothing of the state.
 */
export function HiddenFields({ search, owned }: { search: URLSearchParams; owned: readonly string[] }) {
  return (
    <>
      {[...search.entries()]
        .filter(([name]) => !owned.includes(name))
        .map(([name, value], i) => (
          <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
        ))}
    </>
  );
}
