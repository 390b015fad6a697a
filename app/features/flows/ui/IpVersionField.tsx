import { Group, Radio } from "@mantine/core";

/** The IP version filter (all / 4 / 6) as the `ipVersion` field of a GET form. */
export function IpVersionField({ value }: { value: string }) {
  return (
    <Radio.Group label="IP version" name="ipVersion" defaultValue={value}>
      <Group gap="xs" mt={6}>
        <Radio value="all" label="All" />
        <Radio value="4" label="IPv4" />
        <Radio value="6" label="IPv6" />
      </Group>
    </Radio.Group>
  );
}
