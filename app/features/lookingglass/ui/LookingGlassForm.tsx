/**
 * The Looking Glass form (spec §2 "Looking Glass form (both variants)"). A plain GET form of native
 * controls: without JavaScript the browser submits it and the loader answers with the results;
 * with JavaScript `onSubmit` takes the state instead, and the controls validate as the user types.
 */
import { Button, Checkbox, Group, NativeSelect, Popover, SimpleGrid, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { QUERY_TYPE_HELP, QUERY_TYPE_LABELS, QUERY_TYPE_PLACEHOLDERS, type QueryType } from "~/lib/routing-query-types";
import { ALL_VANTAGE_POINTS, keepForQueryType, PARAM, type LookingGlassUrlState, type VantagePointRef } from "../url-state";
import { validateTerm } from "../validation";

export type LookingGlassFormProps = {
  action: string;
  vantagePoints: readonly VantagePointRef[];
  queryTypes: readonly QueryType[];
  initial: LookingGlassUrlState;
  pending: boolean;
  /** Errors the server found in the submitted URL. */
  termError?: string | null;
  vantagePointError?: string | null;
  onSubmit?: (state: LookingGlassUrlState) => void;
  onQueryTypeChange?: (queryType: QueryType) => void;
};

export function LookingGlassForm(props: LookingGlassFormProps) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<string[]>(props.initial.selectedVantagePoints);
  const [queryType, setQueryType] = useState<QueryType>(props.initial.queryType);
  const [queryTerm, setQueryTerm] = useState(props.initial.queryTerm);
  const [edited, setEdited] = useState(false);
  const [focused, setFocused] = useState(false);

  const all = props.vantagePoints.length > 0 && selected.length === props.vantagePoints.length;
  const some = selected.length > 0 && !all;
  const check = validateTerm(queryType, queryTerm);
  // The server's verdict stands until the user edits the term; from then on the live check.
  const termError =
    edited || !props.termError ? (hydrated && !check.ok && (edited || queryTerm !== "") ? check.error : null) : props.termError;
  // Without JavaScript the boxes can change without React knowing: only the server can judge then.
  const submitDisabled = props.pending || (hydrated && (selected.length === 0 || termError !== null));

  const toggle = (name: string, on: boolean) => {
    const next = on ? [...selected, name] : selected.filter((n) => n !== name);
    const ordered = props.vantagePoints.map((vp) => vp.display_name).filter((n) => next.includes(n));
    setSelected(keepForQueryType(ordered, queryType));
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    if (!props.onSubmit) return;
    e.preventDefault();
    if (submitDisabled || !check.ok) return;
    props.onSubmit({ selectedVantagePoints: selected, queryType, queryTerm });
  };

  return (
    <form method="get" action={props.action} onSubmit={onSubmit} data-testid="lookingglass-form">
      <Stack gap="sm">
        <div role="group" aria-label="Vantage points">
          <Checkbox
            name={PARAM.vantagePoints}
            value={ALL_VANTAGE_POINTS}
            label={
              <Text fw={600} size="sm">
                Select all vantage points
              </Text>
            }
            checked={all}
            indeterminate={some}
            onChange={(e) =>
              setSelected(
                e.currentTarget.checked
                  ? keepForQueryType(
                      props.vantagePoints.map((vp) => vp.display_name),
                      queryType,
                    )
                  : [],
              )
            }
            mb={6}
          />
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing={4}>
            {props.vantagePoints.map((vp) => (
              <Checkbox
                key={vp.key}
                name={PARAM.vantagePoints}
                value={vp.display_name}
                label={vp.display_name}
                checked={selected.includes(vp.display_name)}
                onChange={(e) => toggle(vp.display_name, e.currentTarget.checked)}
              />
            ))}
          </SimpleGrid>
          {props.vantagePointError ? (
            <Text c="red" size="sm" mt={4} role="alert">
              {props.vantagePointError}
            </Text>
          ) : null}
        </div>
        <Group align="flex-start" wrap="wrap">
          <NativeSelect
            name={PARAM.queryType}
            label="Query type"
            value={queryType}
            data={props.queryTypes.map((t) => ({ value: t, label: QUERY_TYPE_LABELS[t] }))}
            onChange={(e) => {
              const next = e.currentTarget.value as QueryType;
              setQueryType(next);
              setSelected((s) => keepForQueryType(s, next));
              props.onQueryTypeChange?.(next);
            }}
            w={{ base: "100%", xs: 180 }}
          />
          {/* withRoles off: a text input may not carry the aria-expanded a popover target gets; the help repeats the field's error text. */}
          <Popover opened={hydrated && focused && termError !== null} position="bottom-start" withArrow withRoles={false}>
            <Popover.Target>
              <TextInput
                name={PARAM.queryTerm}
                label={
                  <Group gap={4} component="span">
                    Query
                    <Tooltip label={QUERY_TYPE_HELP[queryType]} multiline w={320} withArrow>
                      {/* A text glyph, not an icon component: the public page's JavaScript stays small. */}
                      <span
                        title={QUERY_TYPE_HELP[queryType]}
                        aria-label="Query help"
                        data-testid="term-help"
                        style={{
                          display: "inline-flex",
                          alignItems: "center",
                          justifyContent: "center",
                          width: 15,
                          height: 15,
                          borderRadius: "50%",
                          border: "1px solid currentColor",
                          fontSize: 10,
                          cursor: "help",
                        }}
                      >
                        ?
                      </span>
                    </Tooltip>
                  </Group>
                }
                placeholder={QUERY_TYPE_PLACEHOLDERS[queryType]}
                value={queryTerm}
                onChange={(e) => {
                  setQueryTerm(e.currentTarget.value);
                  setEdited(true);
                }}
                onFocus={() => setFocused(true)}
                onBlur={() => setFocused(false)}
                error={termError}
                data-intent={termError ? "danger" : undefined}
                aria-invalid={termError ? true : undefined}
                w={{ base: "100%", xs: 320 }}
                autoComplete="off"
              />
            </Popover.Target>
            <Popover.Dropdown maw={360}>
              <Text size="xs">{QUERY_TYPE_HELP[queryType]}</Text>
            </Popover.Dropdown>
          </Popover>
          <Button type="submit" mt={25} disabled={submitDisabled} loading={props.pending}>
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
