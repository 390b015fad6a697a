import { Alert, Button, Text } from "@mantine/core";
import { Form, useLocation } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { CsrfField } from "./CsrfField";

/** The messages of a refused edit form, by field name ("" for the form as a whole). */
export type FormErrors = Record<string, string>;

/**
 * A form's element, reset to its default values after every navigation: after a save they are the
 * stored ones (or empty for an "add" form), after a refusal what was typed. The forms are not
 * re-keyed to start afresh, because remounting them left the old form in the page. The reset runs in
 * the commit (a layout effect), not after it: a passive effect of a navigation's transition may run
 * frames later on a busy machine and wipe what was typed meanwhile.
 *
 * With `defaults` (the values the form's fields default to), the form is reset only when they change: a
 * navigation that brings the same values (a revalidation committed late, after the user typed into a row
 * the previous answer added) leaves what was typed alone.
 */
export function useFormReset(defaults?: unknown) {
  const ref = useRef<HTMLFormElement>(null);
  const { key } = useLocation();
  const trigger = defaults === undefined ? key : JSON.stringify(defaults);
  const first = useRef(true);
  useCommitEffect(() => {
    // The first render shows the defaults already.
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.reset();
  }, [trigger]);
  return ref;
}

/** useLayoutEffect in the browser; on the server (where it warns and never runs) useEffect. */
const useCommitEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** Tables keep their columns on a phone: they scroll sideways inside their box, not the page. */
export function ScrollBox({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div style={{ overflowX: "auto", maxWidth: "100%" }} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A one-button POST form that deletes what `fields` name. */
export function DeleteForm({ intent, fields, label }: { intent: string; fields: Record<string, string>; label: string }) {
  return (
    <Form method="post" aria-label={label} style={{ display: "inline" }}>
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" color="red" variant="light" size="xs">
        {label}
      </Button>
    </Form>
  );
}

export function FormProblem({ errors }: { errors: FormErrors }) {
  if (!Object.keys(errors).length) return null;
  return (
    <Text c="red" size="sm" role="alert">
      {errors[""] ?? "Not saved: please correct the fields marked below."}
    </Text>
  );
}

/**
 * What the last save did: its confirmation (green, a status) and what was not applied as asked
 * (yellow), e.g. values dropped or adjusted. `testId` names both for the tests: `<testId>-saved`, `<testId>-notice`.
 */
export function SavedNotices({ saved, notices, testId }: { saved: string | null | undefined; notices: readonly string[]; testId: string }) {
  return (
    <>
      {saved ? (
        <Alert color="green" role="status" data-testid={`${testId}-saved`}>
          {saved}
        </Alert>
      ) : null}
      {notices.length ? (
        <Alert color="yellow" title="Not applied as asked" data-testid={`${testId}-notice`}>
          {notices.map((n) => (
            <Text key={n} size="sm">
              {n}
            </Text>
          ))}
        </Alert>
      ) : null}
    </>
  );
}
