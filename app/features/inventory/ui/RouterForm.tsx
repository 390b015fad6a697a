import { Button, Fieldset, NativeSelect, Paper, SimpleGrid, Stack, Textarea, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { ROLE_LABELS } from "../inventory-form";
import type { RouterView } from "../rows.server";
import { ROUTER_ROLES, SNMP_AUTH_PROTOCOLS, SNMP_PRIV_PROTOCOLS } from "../schema";
import { FormProblem, useFormReset } from "~/components/EditForms";
import { SecretField, type FormState } from "./fields";

const NONE = { value: "", label: "None" };

/** Adds a router (no `stored`) or edits one: its place, exporters, VRFs, SNMP and SSH settings. */
export function RouterForm({
  stored,
  state,
  action,
  secretsEnabled,
}: {
  stored: RouterView | null;
  state: FormState;
  action: string;
  secretsEnabled: boolean;
}) {
  const { values, errors } = state;
  const ref = useFormReset();
  const field = (name: string) => ({ name, defaultValue: values[name] ?? "", error: errors[name] });
  const secret = (name: string, label: string, current: "set" | "not set" | undefined, multiline = false) => (
    <SecretField name={name} label={label} stored={current} error={errors[name]} secretsEnabled={secretsEnabled} multiline={multiline} />
  );
  const title = stored ? `Edit router ${stored.name}` : "Add a router";
  return (
    <Paper withBorder p="md">
      <Form ref={ref} method="post" action={action} aria-label={title}>
        <CsrfField />
        <input type="hidden" name="intent" value={stored ? "update-router" : "create-router"} />
        {stored ? <input type="hidden" name="current" value={stored.name} /> : null}
        <Stack>
          <Title order={2} size="h4">
            {title}
          </Title>
          <FormProblem errors={errors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required {...field("name")} />
            <NativeSelect
              label="Role"
              {...field("role")}
              defaultValue={values.role || "edge"}
              data={ROUTER_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
            />
            <TextInput label="City" required {...field("city")} />
            <TextInput label="Country" required {...field("country")} />
            <TextInput label="Vendor" {...field("vendor")} />
            <TextInput label="Loopback address" required {...field("loopback")} />
          </SimpleGrid>
          <Textarea
            label="Exporter addresses"
            description="The addresses this router sends flows from, one per line (IPv4 or IPv6). Without one, its flows are not attributed to it."
            rows={3}
            {...field("exporters")}
          />
          <Textarea
            label="VRFs"
            description="One VRF per line: its name (as the interfaces' VRF names it) and its route distinguisher, e.g. CUST_A 64500:1, or 192.0.2.1:7, or 4200000000:7. The RNA finds a VRF's routes by it."
            rows={3}
            {...field("vrfs")}
          />
          <Fieldset legend="SNMP (for the pollers)">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NativeSelect
                label="SNMP version"
                {...field("snmp_version")}
                data={[
                  { value: "", label: "No SNMP" },
                  { value: "2c", label: "2c (community)" },
                  { value: "3", label: "3 (user and passwords)" },
                ]}
              />
              <TextInput label="SNMP port" inputMode="numeric" {...field("snmp_port")} defaultValue={values.snmp_port || "161"} />
              {secret("snmp_community", "Community", stored?.snmp?.community)}
              <TextInput label="SNMPv3 user" {...field("snmp_user")} />
              <NativeSelect
                label="SNMPv3 authentication protocol"
                {...field("snmp_auth_protocol")}
                data={[NONE, ...SNMP_AUTH_PROTOCOLS.map((p) => ({ value: p, label: p }))]}
              />
              {secret("snmp_auth_password", "Authentication password", stored?.snmp?.auth_password)}
              <NativeSelect
                label="SNMPv3 privacy protocol"
                {...field("snmp_priv_protocol")}
                data={[NONE, ...SNMP_PRIV_PROTOCOLS.map((p) => ({ value: p, label: p }))]}
              />
              {secret("snmp_priv_password", "Privacy password", stored?.snmp?.priv_password)}
            </SimpleGrid>
          </Fieldset>
          <Fieldset legend="SSH (for the Looking Glass's ping and traceroute)">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="SSH host" description="Leave empty for no SSH." {...field("ssh_host")} />
              <TextInput label="SSH port" inputMode="numeric" {...field("ssh_port")} defaultValue={values.ssh_port || "22"} />
              <TextInput label="SSH user" {...field("ssh_user")} />
              {secret("ssh_password", "SSH password", stored?.ssh?.password)}
            </SimpleGrid>
            <Stack mt="sm">
              {secret("ssh_private_key", "SSH private key", stored?.ssh?.private_key, true)}
              <TextInput label="Host key" description={'The router\'s public key, e.g. "ssh-ed25519 AAAA…".'} {...field("ssh_host_key")} />
            </Stack>
          </Fieldset>
          <Button type="submit" w="fit-content">
            {stored ? "Save the router" : "Add the router"}
          </Button>
        </Stack>
      </Form>
    </Paper>
  );
}
