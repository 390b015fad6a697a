import { TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { useCsrfHeaders } from "~/components/CsrfField";

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
  const csrf = useCsrfHeaders();
  const save = useDebouncedCallback(async (raw: string) => {
    if (raw.trim() === "" || !Number.isFinite(Number(raw))) return;
    try {
      const response = await fetch(`/auth/settings/${group}_util_threshold/`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", ...csrf },
        body: JSON.stringify({ value: Number(raw), level }),
      });
      if (response.ok) {
        notifications.show({ color: "green", title: "Saved", message: `${label} set to ${Number(raw)}.` });
      } else {
        const body = (await response.json().catch(() => null)) as { detail?: string; errors?: { message: string }[] } | null;
        notifications.show({
          color: "red",
          title: "Not saved",
          message: body?.errors?.[0]?.message ?? body?.detail ?? `HTTP ${response.status}`,
        });
      }
    } catch {
      notifications.show({
        color: "red",
        title: "Not saved",
        message: "Could not connect to server. Please check your internet connection and refresh the page.",
      });
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
