import { Button, Checkbox, PasswordInput, Stack, Text, Textarea } from "@mantine/core";
import { Form, useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { CsrfField } from "~/components/CsrfField";
import type { FormErrors, FormValues } from "../inventory-form";
import type { SecretState } from "../rows.server";

/** What a form shows: the values typed when it came back refused, else the stored ones. */
export type FormState = { values: FormValues; errors: FormErrors };

/**
 * A form's element, reset to its default values after every navigation: after a save they are the
 * stored ones (or empty for an "add" form), after a refusal what was typed. The forms are not
 * re-keyed to start afresh, because remounting them left the old form in the page.
 */
export function useFormReset() {
  const ref = useRef<HTMLFormElement>(null);
  const { key } = useLocation();
  useEffect(() => ref.current?.reset(), [key]);
  return ref;
}

/** Tables keep their columns on a phone: they scroll sideways inside their box, not the page. */
export function ScrollBox({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div style={{ overflowX: "auto", maxWidth: "100%" }} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A secret's input: always empty (the stored value is never sent back), with what is stored; left
 * empty it keeps the stored secret, and "clear" removes it.
 */
export function SecretField({
  name,
  label,
  stored,
  error,
  secretsEnabled,
  multiline = false,
}: {
  name: string;
  label: string;
  stored: SecretState | undefined;
  error?: string;
  secretsEnabled: boolean;
  /** For private keys, which span lines (a single-line input would drop the line breaks). */
  multiline?: boolean;
}) {
  const props = {
    name,
    label,
    autoComplete: "off",
    description: `Stored: ${stored ?? "not set"}.${stored === "set" ? " Leave empty to keep it." : ""}${
      secretsEnabled ? "" : " INVENTORY_SECRET_KEY is not set: secrets cannot be saved."
    }`,
    error,
  };
  return (
    <Stack gap={4}>
      {multiline ? <Textarea {...props} rows={4} spellCheck={false} /> : <PasswordInput {...props} autoComplete="new-password" />}
      {stored === "set" ? <Checkbox name={`${name}_clear`} label={`Clear the stored ${label.toLowerCase()}`} /> : null}
    </Stack>
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
