import { Group, NativeSelect } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { MESSAGES } from "~/lib/messages";
import { CsrfField } from "./CsrfField";

export type GroupSwitcherProps = {
  /** From groupSwitcherData() in the layout loader; null = the user may not switch (nothing is drawn). */
  data: { groups: { id: number; name: string }[]; current: number | null } | null;
  /** Class of the no-JavaScript "Switch" button, so it looks like the header's other actions. */
  buttonClassName?: string;
};

/** What POST /settings/group answers a script (mode=fetch). */
type GroupActionData = { ok: true } | { ok: false; error: string; reason?: string };

/**
 * The header's group switcher (shell §4: the groups are sent, then the page reloads; on failure a
 * toast reports it). Without JavaScript it is a plain form with a button: the action redirects
 * back, or shows the failure on its own page.
 */
export function GroupSwitcher({ data, buttonClassName }: GroupSwitcherProps) {
  if (!data || data.groups.length === 0) return null;
  return <GroupSwitcherForm groups={data.groups} current={data.current} buttonClassName={buttonClassName} />;
}

function GroupSwitcherForm({
  groups,
  current,
  buttonClassName,
}: {
  groups: { id: number; name: string }[];
  current: number | null;
  buttonClassName?: string;
}) {
  const fetcher = useFetcher<GroupActionData>();
  const location = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      window.location.reload();
      return;
    }
    notifications.show({ color: "red", title: "Group", message: MESSAGES.groupSwitchFailed });
    // Show the group the user is still in, not the one that failed.
    const select = formRef.current?.querySelector("select");
    if (select) select.value = current === null ? "" : String(current);
  }, [fetcher.state, fetcher.data, current]);

  return (
    <fetcher.Form method="post" action="/settings/group" ref={formRef} aria-label="Switch group" data-testid="group-switcher">
      <CsrfField />
      <input type="hidden" name="back" value={location.pathname + location.search} />
      {hydrated ? <input type="hidden" name="mode" value="fetch" /> : null}
      <Group gap={6} wrap="nowrap">
        <NativeSelect
          name="groups"
          size="xs"
          aria-label="Group"
          defaultValue={current === null ? "" : String(current)}
          key={current ?? "none"}
          disabled={fetcher.state !== "idle"}
          onChange={() => {
            if (hydrated && formRef.current) fetcher.submit(formRef.current);
          }}
          data={[
            ...(current === null ? [{ value: "", label: "Choose a group", disabled: true }] : []),
            ...groups.map((g) => ({ value: String(g.id), label: g.name })),
          ]}
        />
        {hydrated ? null : (
          <button type="submit" className={buttonClassName}>
            Switch
          </button>
        )}
      </Group>
    </fetcher.Form>
  );
}
