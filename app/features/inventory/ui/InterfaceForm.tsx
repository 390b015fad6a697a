import { Button, NativeSelect, Paper, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";
import { INTERFACE_KINDS, PEERING_TYPES } from "../schema";
import { FormProblem, useFormReset } from "~/components/EditForms";
import { type FormState } from "./fields";

/** Adds an interface to a router (no `current`) or edits the one named `current`. */
export function InterfaceForm({
  routerName,
  current,
  state,
  action,
}: {
  routerName: string;
  current: string | null;
  state: FormState;
  action: string;
}) {
  const { values, errors } = state;
  const ref = useFormReset();
  const field = (name: string) => ({ name, defaultValue: values[name] ?? "", error: errors[name] });
  const title = current ? `Edit interface ${current} of ${routerName}` : `Add an interface to ${routerName}`;
  return (
    <Paper withBorder p="md">
      <Form ref={ref} method="post" action={action} aria-label={title}>
        <CsrfField />
        <input type="hidden" name="intent" value={current ? "update-interface" : "create-interface"} />
        <input type="hidden" name="router_name" value={routerName} />
        {current ? <input type="hidden" name="current" value={current} /> : null}
        <Stack>
          <Title order={2} size="h4">
            {title}
          </Title>
          <FormProblem errors={errors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Interface name" required {...field("name")} />
            <TextInput label="SNMP ifIndex" required inputMode="numeric" {...field("ifindex")} />
            <TextInput label="Description" {...field("description")} />
            <TextInput
              label="Capacity (Gbit/s)"
              required
              inputMode="decimal"
              rightSection="Gbit/s"
              rightSectionWidth={60}
              {...field("capacity_gbps")}
            />
            <NativeSelect
              label="Kind: core / external / access"
              {...field("kind")}
              defaultValue={values.kind || "external"}
              data={INTERFACE_KINDS.map((k) => ({ value: k, label: k }))}
            />
            <NativeSelect
              label="Peering type: Transit / Peering / Customer"
              description="External interfaces only."
              {...field("peering")}
              data={[{ value: "", label: "None" }, ...PEERING_TYPES.map((p) => ({ value: p, label: p }))]}
            />
            <TextInput label="Connection" description="PNI, or the exchange's name for a peering at an IX." {...field("connection")} />
            <TextInput label="Neighbour AS" description="External interfaces only." inputMode="numeric" {...field("neighbour_as")} />
            <TextInput label="VRF" {...field("vrf")} />
            <TextInput label="Remote end: router" description="Core links only." {...field("remote_router")} />
            <TextInput label="Remote end: interface" {...field("remote_interface")} />
          </SimpleGrid>
          <Button type="submit" w="fit-content">
            {current ? "Save the interface" : "Add the interface"}
          </Button>
        </Stack>
      </Form>
    </Paper>
  );
}
