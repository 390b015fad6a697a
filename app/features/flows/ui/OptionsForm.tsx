import { Button, Group, NativeSelect, Paper, Radio, Stack, TextInput } from "@mantine/core";
import { Form, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { ExplorerData } from "../explorer.server";
import { CUSTOM_RANGE } from "../params";
import { DATE_RANGE_PRESETS } from "../time";

const SUBMIT_DELAY_MS = 400;

const PRESET_LABELS: Record<(typeof DATE_RANGE_PRESETS)[number], string> = {
  LAST_2_DAYS: "Last 2 days",
  LAST_7_DAYS: "Last 7 days",
  LAST_30_DAYS: "Last 30 days",
  LAST_90_DAYS: "Last 90 days",
  CURRENT_MONTH: "Current month",
  LAST_MONTH: "Last month",
  LAST_3_MONTHS: "Last 3 months",
  CURRENT_YEAR: "Current year",
};

function useDebouncedAutoSubmit(formRef: React.RefObject<HTMLFormElement>) {
  const submit = useSubmit();
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(() => submit(form, { method: "get" }), SUBMIT_DELAY_MS);
    };
    const cancel = () => clearTimeout(timer);
    form.addEventListener("change", onChange);
    form.addEventListener("submit", cancel);
    return () => {
      cancel();
      form.removeEventListener("change", onChange);
      form.removeEventListener("submit", cancel);
    };
  }, [formRef, submit]);
}

export function OptionsForm({ data, path, label }: { data: ExplorerData; path: string; label: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  useDebouncedAutoSubmit(formRef);
  const { params } = data;
  const navigation = useNavigation();
  const dimensionOptions = data.dimensions.map((d) => ({ value: d.value, label: d.label }));
  const rangeValue = params.dateRange ?? (params.start !== undefined && params.end !== undefined ? CUSTOM_RANGE : "LAST_2_DAYS");
  return (
    <Form method="get" action={path} ref={formRef} aria-label={`${label} options`}>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group align="flex-end" gap="md" wrap="wrap">
            <NativeSelect label="Dimension" name="dimension" defaultValue={data.dimension?.id} data={dimensionOptions} w={260} />
            <NativeSelect
              label="Date range"
              name="dateRange"
              defaultValue={rangeValue}
              data={[...DATE_RANGE_PRESETS.map((p) => ({ value: p, label: PRESET_LABELS[p] })), { value: CUSTOM_RANGE, label: "Custom (start / end)" }]}
              w={200}
            />
            <TextInput label="Start (unix seconds)" name="start" defaultValue={params.start ?? ""} inputMode="numeric" w={170} />
            <TextInput label="End (unix seconds)" name="end" defaultValue={params.end ?? ""} inputMode="numeric" w={170} />
            <Radio.Group label="IP version" name="ipVersion" defaultValue={params.ipVersion}>
              <Group gap="xs" mt={6}>
                <Radio value="all" label="All" />
                <Radio value="4" label="IPv4" />
                <Radio value="6" label="IPv6" />
              </Group>
            </Radio.Group>
          </Group>
          <Group align="flex-end" gap="md" wrap="wrap">
            <Radio.Group label="View" name="view" defaultValue={params.view}>
              <Group gap="xs" mt={6}>
                <Radio value="timeseries" label="Timeseries" />
                <Radio value="sankey" label="Sankey" />
              </Group>
            </Radio.Group>
            <NativeSelect
              label="Second dimension (sankey)"
              name="dimension2"
              defaultValue={params.dimension2 ?? ""}
              data={[{ value: "", label: "—" }, ...dimensionOptions]}
              w={260}
            />
          </Group>
          <Stack gap={4}>
            {params.filter.map((f, i) => (
              <TextInput key={`${i}:${f}`} name="filter" defaultValue={f} aria-label={`Filter ${i + 1}`} w={520} />
            ))}
            <TextInput
              name="filter"
              defaultValue=""
              label={params.filter.length ? "Add a filter" : "Filter"}
              aria-label="New filter"
              placeholder="AS_SRC_INGRESS:2906,!AS15169"
              description="One dimension per field: DIMENSION:value,value; a leading ! negates a value. Empty a field to remove its filter."
              w={520}
              data-testid="new-filter"
            />
          </Stack>
          <Group>
            <Button type="submit" loading={navigation.state === "loading" && navigation.location?.pathname === path}>
              Show
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Form>
  );
}
