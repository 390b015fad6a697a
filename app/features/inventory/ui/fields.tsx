import { Checkbox, PasswordInput, Stack, Textarea } from "@mantine/core";
import type { FormErrors, FormValues } from "../inventory-form";
import type { SecretState } from "../rows.server";

/** What a form shows: the values typed when it came back refused, else the stored ones. */
export type FormState = { values: FormValues; errors: FormErrors };

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
