/**
 * A copy-to-clipboard button with the spec's "copied to clipboard" toast (looking glass §8). It needs
 * the Clipboard API, so it renders nothing before hydration (a page without JavaScript shows the text
 * itself, which can be selected) and tells the user when the browser refuses the write.
 */
import { Button } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { MESSAGES } from "~/lib/messages";
import { useHydrated } from "./use-hydrated";

export function CopyAction({ value, label, ariaLabel }: { value: () => string; label: string; ariaLabel?: string }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value());
      notifications.show({ color: "green", message: MESSAGES.copiedToClipboard, style: { maxWidth: "40em" } });
    } catch {
      notifications.show({ color: "red", message: MESSAGES.copyFailed, style: { maxWidth: "40em" } });
    }
  };
  return (
    <Button size="compact-xs" variant="default" onClick={copy} aria-label={ariaLabel}>
      {label}
    </Button>
  );
}
