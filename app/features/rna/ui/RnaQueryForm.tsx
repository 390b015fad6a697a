import { Anchor, Badge, Button, Checkbox, Group, NativeSelect, Paper, Stack, Text, TextInput } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { DateTimeField } from "~/components/DateFields";
import { useFormReset } from "~/components/EditForms";
import { toDateTimeField } from "~/lib/date-format";
import { DATE_RANGE_PRESETS, PRESET_LABELS, TIME_PRESETS } from "~/lib/time-range";
import { PREFIX_PARAMS, rnaSearch } from "../params";
import type { RnaScreen } from "../screen.server";
import { READABLE_ERROR } from "./field-styles";
import { HiddenFields } from "./hidden-fields";

/** The parameters this form writes itself; the others ride along as hidden fields. */
const OWNED = ["filter", "q", "dateRange", "start", "end", PREFIX_PARAMS.v4, PREFIX_PARAMS.v6, "copies", "after"];

/** The address without the filter at `index` (the chip's remove link). */
function withoutFilter(data: RnaScreen, index: number): string {
  const params = { ...data.params, filters: data.params.filters.filter((_, i) => i !== index) };
  return `?${rnaSearch(params, data.timezone)}`;
}

/**
 * The query: dimension filters (as 'Show in RNA' and the Flow Explorer write them), an nfdump
 * expression, the range, prefix aggregation and the copies switch — one GET form, so the address
 * holds the query and the journey works without JavaScript.
 */
export function RnaQueryForm({ data, path }: { data: RnaScreen; path: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === path;
  const { params, timezone, range } = data;
  // Reset to the new address's values after each navigation, not remounted: the focus stays where it was.
  const ref = useFormReset();
  return (
    <Form method="get" action={path} aria-label="Raw Network Analyzer query" ref={ref}>
      <HiddenFields search={rnaSearch(params, timezone)} owned={OWNED} />
      <Paper withBorder p="md">
        <Stack gap="sm">
          {params.filters.length ? (
            <Group gap="xs" data-testid="rna-filters">
              <Text size="sm">Filters:</Text>
              {params.filters.map((f, i) => (
                <Badge key={`${f.dimension}-${i}`} variant="light" size="lg" tt="none">
                  <input type="hidden" name="filter" value={`${f.dimension}:${f.values.join(",")}`} />
                  {data.filterLabels[i]}{" "}
                  <Anchor
                    component={Link}
                    to={`${path}${withoutFilter(data, i)}`}
                    size="xs"
                    aria-label={`Remove the filter ${data.filterLabels[i]}`}
                  >
                    ✕
                  </Anchor>
                </Badge>
              ))}
            </Group>
          ) : null}
          <Group align="flex-start" gap="md" wrap="wrap">
            <TextInput
              label="Filter expression (nfdump)"
              name="q"
              defaultValue={params.q}
              placeholder="proto tcp and dst port 443"
              description="nfdump's language: proto, src/dst ip, net, port, as, flags, bytes, and / or / not"
              error={params.qError}
              styles={READABLE_ERROR}
              w={{ base: "100%", sm: 420 }}
              data-testid="rna-q"
            />
            <TextInput
              label="Add a filter"
              name="filter"
              defaultValue=""
              placeholder="AS_DST:64500"
              description="DIMENSION:value, as the Flow Explorer writes it"
              w={{ base: "100%", xs: 220 }}
            />
          </Group>
          <Group align="flex-start" gap="md" wrap="wrap">
            <NativeSelect
              label="Date range"
              name="dateRange"
              defaultValue=""
              data={[
                { value: "", label: "Start / end beside" },
                ...[...TIME_PRESETS, ...DATE_RANGE_PRESETS].map((p) => ({ value: p, label: PRESET_LABELS[p] })),
              ]}
              w={{ base: "100%", xs: 190 }}
            />
            <DateTimeField
              label={`Start (${timezone})`}
              name="start"
              defaultValue={toDateTimeField(range.start, timezone)}
              w={{ base: "100%", xs: 200 }}
            />
            <DateTimeField
              label={`End (${timezone})`}
              name="end"
              defaultValue={toDateTimeField(range.end, timezone, "up")}
              w={{ base: "100%", xs: 200 }}
            />
            <TextInput
              label="Aggregate IPv4 to /"
              name={PREFIX_PARAMS.v4}
              defaultValue={params.aggregationText.v4}
              placeholder="24"
              error={params.aggregationErrors.v4}
              styles={READABLE_ERROR}
              w={{ base: "100%", xs: 150 }}
              inputMode="numeric"
            />
            <TextInput
              label="Aggregate IPv6 to /"
              name={PREFIX_PARAMS.v6}
              defaultValue={params.aggregationText.v6}
              placeholder="48"
              error={params.aggregationErrors.v6}
              styles={READABLE_ERROR}
              w={{ base: "100%", xs: 150 }}
              inputMode="numeric"
            />
          </Group>
          <Group gap="md" wrap="wrap">
            <Checkbox
              name="copies"
              value="1"
              defaultChecked={params.includeCopies}
              label="Include re-exported copies"
              description="Records another router exported again, marked as copies in the table"
            />
            <Button type="submit" loading={busy}>
              Submit
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Form>
  );
}
