import { TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { ApiClientError, createApiClient, failureOf } from "~/lib/api-client";

const api = createApiClient();

/** A threshold field: part of the form, and with JavaScript saved by itself 500 ms after the last change. */
export function ThresholdInput({
  group,
  level,
  name,
  label,
  defaultValue,
  error,
}: {
  group: string;
  level: "medium" | "high";
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
}) {
  const [value, setValue] = useState(defaultValue);
  const save = useDebouncedCallback(async (raw: string) => {
    if (raw.trim() === "" || !Number.isFinite(Number(raw))) return;
    try {
      // A setting is a mutation: one attempt (api-client); a later change cancels the pending save.
      await api.request(`auth/settings/${group}_util_threshold/`, {
        method: "POST",
        body: { value: Number(raw), level },
        throwErrors: true,
        requestId: `threshold ${group} ${level}`,
      });
      notifications.show({ color: "green", title: "Saved", message: `${label} set to ${Number(raw)}.` });
    } catch (error) {
      const failure = failureOf(error);
      if (failure.kind === "aborted") return;
      // The field's own reason when the server names it (400), else the reading of the failure.
      const body = error instanceof ApiClientError ? (error.body as { errors?: { message?: unknown }[] } | null) : null;
      const fieldReason = typeof body?.errors?.[0]?.message === "string" ? body.errors[0].message : null;
      notifications.show({ color: "red", title: "Not saved", message: fieldReason ?? failure.message });
    }
  }, 500);
  return (
    <TextInput
      name={name}
      type="number"
      min={0}
      max={1}
      step={0.01}
      label={label}
      value={value}
      error={error}
      data-threshold={name}
      onChange={(event) => {
        setValue(event.currentTarget.value);
        save(event.currentTarget.value);
      }}
    />
  );
}
