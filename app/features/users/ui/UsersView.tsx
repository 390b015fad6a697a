import { Alert, Anchor, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { Form, Link } from "@remix-run/react";
import { SavedNotices, ScrollBox } from "~/components/EditForms";
import type { UserSort } from "~/lib/user-admin-request";
import { usersUrl, type UserView } from "../params";
import type { UsersActionResult, UsersScreen } from "../users-screen.server";
import { AccountForm } from "./AccountForm";
import { ActionForm, KindBadges, UserPanel } from "./UserPanel";

const SORT_LABELS: Record<UserSort, string> = {
  email: "E-mail (A–Z)",
  "-email": "E-mail (Z–A)",
  name: "Name (A–Z)",
  "-name": "Name (Z–A)",
  last_login: "Last login (oldest first)",
  "-last_login": "Last login (newest first)",
  created: "Created (oldest first)",
  "-created": "Created (newest first)",
};

/** A column header that sorts by its key (again: the other direction). */
function SortHeader({ data, label, sortKey }: { data: UsersScreen; label: string; sortKey: "email" | "name" | "last_login" | "created" }) {
  const active = data.sort.replace(/^-/, "") === sortKey;
  const descending = data.sort.startsWith("-");
  const next = (active && !descending ? `-${sortKey}` : sortKey) as UserSort;
  return (
    <Table.Th aria-sort={active ? (descending ? "descending" : "ascending") : undefined}>
      <Anchor component={Link} to={usersUrl({ q: data.q, sort: next })} size="sm" fw={600}>
        {label}
        {active ? (descending ? " ↓" : " ↑") : ""}
      </Anchor>
    </Table.Th>
  );
}

function Pages({ data }: { data: UsersScreen }) {
  if (data.pages <= 1) return null;
  return (
    <nav aria-label="Pages of the list">
      <Group gap="sm">
        {data.page > 1 ? (
          <Anchor component={Link} to={usersUrl({ q: data.q, sort: data.sort, page: data.page - 1 })}>
            Previous page
          </Anchor>
        ) : null}
        <Text size="sm">
          Page {data.page} of {data.pages}
        </Text>
        {data.page < data.pages ? (
          <Anchor component={Link} to={usersUrl({ q: data.q, sort: data.sort, page: data.page + 1 })}>
            Next page
          </Anchor>
        ) : null}
      </Group>
    </nav>
  );
}

function Accounts({ data }: { data: UsersScreen }) {
  return (
    <Stack>
      <Form method="get" action={usersUrl()} role="search" aria-label="Search the users">
        <Group align="flex-end" gap="sm">
          <TextInput label="Search by e-mail or name" name="q" defaultValue={data.q} maxLength={200} w={260} />
          <NativeSelect
            label="Order"
            name="sort"
            defaultValue={data.sort}
            data={Object.entries(SORT_LABELS).map(([value, label]) => ({ value, label }))}
            w={230}
          />
          <Button type="submit" variant="light">
            Search
          </Button>
          {data.q ? (
            <Anchor component={Link} to={usersUrl({ sort: data.sort })} size="sm">
              Show all
            </Anchor>
          ) : null}
        </Group>
      </Form>
      <Text size="sm" data-testid="users-count">
        {data.count === 1 ? "1 account" : `${data.count} accounts`}
        {data.q ? ` match "${data.q}"` : ""}.
      </Text>
      {data.rows.length ? (
        <ScrollBox label="Users">
          <Table striped miw={720} data-testid="users-table">
            <Table.Thead>
              <Table.Tr>
                <SortHeader data={data} label="E-mail" sortKey="email" />
                <SortHeader data={data} label="Name" sortKey="name" />
                <Table.Th>Kind</Table.Th>
                <SortHeader data={data} label={`Last login (${data.timezone})`} sortKey="last_login" />
                <SortHeader data={data} label={`Created (${data.timezone})`} sortKey="created" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.rows.map((r) => (
                <Table.Tr key={r.id} aria-current={data.selected?.record.id === r.id ? "true" : undefined}>
                  <Table.Td>
                    <Anchor component={Link} to={usersUrl({ q: data.q, sort: data.sort, page: data.page, user: r.id })}>
                      {r.email}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{r.name}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <KindBadges kinds={r.kinds} />
                    </Group>
                  </Table.Td>
                  <Table.Td>{r.lastLogin}</Table.Td>
                  <Table.Td>{r.created}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">No accounts match.</Text>
      )}
      <Pages data={data} />
    </Stack>
  );
}

function Requests({ data, result }: { data: UsersScreen; result: UsersActionResult | undefined }) {
  const requests = data.requests!;
  const here = usersUrl({ view: "requests" });
  const refused = result && result.intent.endsWith("-request") ? result.errors[""] : undefined;
  return (
    <Stack>
      <Text size="sm">
        People who asked for an account on the sign-up page. Accepting creates the account and mails a link to choose a password (valid 72
        hours); rejecting mails a short notice.
        {data.mayAdminister ? "" : " Deciding is for staff and superusers."}
      </Text>
      {refused ? (
        <Alert color="red" role="alert" data-testid="request-problem">
          {refused}
        </Alert>
      ) : null}
      <Title order={2} size="h3">
        Waiting for a decision
      </Title>
      {requests.pending.length ? (
        <ScrollBox label="Waiting requests">
          <Table striped miw={620} data-testid="pending-requests">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Asked ({data.timezone})</Table.Th>
                {data.mayAdminister ? <Table.Th>Decision</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {requests.pending.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{r.email}</Table.Td>
                  <Table.Td>{r.name}</Table.Td>
                  <Table.Td>{r.created}</Table.Td>
                  {data.mayAdminister ? (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <ActionForm intent="accept-request" id={r.id} action={here} label={`Accept ${r.email}`} color="green" />
                        <ActionForm intent="reject-request" id={r.id} action={here} label={`Reject ${r.email}`} color="red" />
                      </Group>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">No request is waiting.</Text>
      )}
      <Title order={2} size="h3">
        Decided
      </Title>
      {requests.decided.length ? (
        <ScrollBox label="Decided requests">
          <Table striped miw={620} data-testid="decided-requests">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Decision</Table.Th>
                <Table.Th>Asked ({data.timezone})</Table.Th>
                <Table.Th>Decided ({data.timezone})</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {requests.decided.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{r.email}</Table.Td>
                  <Table.Td>{r.name}</Table.Td>
                  <Table.Td>{r.status === "ACCEPTED" ? "Accepted" : "Rejected"}</Table.Td>
                  <Table.Td>{r.created}</Table.Td>
                  <Table.Td>{r.decided ?? ""}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">No request has been decided yet.</Text>
      )}
    </Stack>
  );
}

function Audit({ data }: { data: UsersScreen }) {
  const audit = data.audit!;
  return (
    <Stack>
      <Text size="sm">Every change made on this screen and through the user calls, newest first.</Text>
      {audit.entries.length ? (
        <ScrollBox label="Audit log">
          <Table striped miw={760} data-testid="audit-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When ({data.timezone})</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th>Changes</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {audit.entries.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{e.at}</Table.Td>
                  <Table.Td>{e.actor}</Table.Td>
                  <Table.Td>{e.action}</Table.Td>
                  <Table.Td>{e.target}</Table.Td>
                  <Table.Td>
                    {e.changes.map((c) => (
                      <Text key={c.field} size="xs">
                        <b>{c.field}:</b>{" "}
                        {c.before === null ? c.after : c.after === null ? `${c.before} (removed)` : `${c.before} → ${c.after}`}
                      </Text>
                    ))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollBox>
      ) : (
        <Text size="sm">Nothing has been recorded yet.</Text>
      )}
      {audit.pages > 1 ? (
        <nav aria-label="Pages of the audit log">
          <Group gap="sm">
            {audit.page > 1 ? (
              <Anchor component={Link} to={usersUrl({ view: "audit", auditPage: audit.page - 1 })}>
                Newer entries
              </Anchor>
            ) : null}
            <Text size="sm">
              Page {audit.page} of {audit.pages}
            </Text>
            {audit.page < audit.pages ? (
              <Anchor component={Link} to={usersUrl({ view: "audit", auditPage: audit.page + 1 })}>
                Older entries
              </Anchor>
            ) : null}
          </Group>
        </nav>
      ) : null}
    </Stack>
  );
}

export function UsersView({ data, result }: { data: UsersScreen; result: UsersActionResult | undefined }) {
  const views: { view: UserView; label: string }[] = [
    { view: "accounts", label: "Accounts" },
    { view: "requests", label: `Applicant requests (${data.pendingCount} waiting)` },
    ...(data.mayAdminister ? [{ view: "audit" as const, label: "Audit log" }] : []),
  ];
  const createState = result && result.intent === "create" ? { values: result.values, errors: result.errors } : { values: {}, errors: {} };
  return (
    <Stack>
      <Title order={1} size="h2">
        Users
      </Title>
      <SavedNotices saved={data.savedMessage} notices={data.notices} testId="users" />
      {!data.selected && result?.errors[""] && !["create", "accept-request", "reject-request"].includes(result.intent) ? (
        <Alert color="red" role="alert" data-testid="user-action-problem">
          {result.errors[""]}
        </Alert>
      ) : null}
      <nav aria-label="Parts of the Users screen" data-tour="users-parts">
        <Group gap="md">
          {views.map((v) => (
            <Anchor
              key={v.view}
              component={Link}
              to={usersUrl({ view: v.view })}
              aria-current={v.view === data.view ? "page" : undefined}
              fw={v.view === data.view ? 700 : undefined}
            >
              {v.label}
            </Anchor>
          ))}
          {data.mayAdminister && data.view === "accounts" && !data.newUser ? (
            <Button component={Link} to={usersUrl({ q: data.q, sort: data.sort, newUser: true })} size="xs">
              Add a user
            </Button>
          ) : null}
        </Group>
      </nav>
      {data.view === "accounts" ? (
        <>
          {data.newUser ? (
            <Stack gap="xs">
              <Anchor component={Link} to={usersUrl({ q: data.q, sort: data.sort })}>
                Cancel adding a user
              </Anchor>
              <AccountForm
                data={data}
                id={null}
                action={usersUrl({ newUser: true })}
                state={createState}
                stored={{ permissions: [], feature_flags: [], is_staff: false, is_superuser: false, self: false }}
                viaGroups={[]}
              />
            </Stack>
          ) : null}
          {data.selected ? <UserPanel data={data} result={result} /> : null}
          <Accounts data={data} />
        </>
      ) : null}
      {data.view === "requests" ? <Requests data={data} result={result} /> : null}
      {data.view === "audit" ? <Audit data={data} /> : null}
    </Stack>
  );
}
