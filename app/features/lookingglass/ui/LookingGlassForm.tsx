/**
 * The Looking Glass form (spec §2 "Looking Glass form (both variants)"). A plain GET form of native
 * controls: without JavaScript the browser submits it and the loader answers with the results;
 * with JavaScript `onSubmit` takes the state instead, and the controls validate as the user types.
 * The private screen adds the RIB view (which routing tables) and a community filter.
 */
import { Button, Checkbox, Group, NativeSelect, Popover, SimpleGrid, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { QUERY_TYPE_HELP, QUERY_TYPE_LABELS, QUERY_TYPE_PLACEHOLDERS, isNetcommandType, type QueryType } from "~/lib/routing-query-types";
import { COMMUNITY_MAX_LENGTH, parseCommunityPattern } from "~/lib/bgp-communities";
import { DEFAULT_RIB_VIEW, RIB_VIEW_CHOICES, RIB_VIEW_CHOICE_LABELS, type RibViewChoice } from "~/features/routing/rib-views";
import { ALL_VANTAGE_POINTS, keepForQueryType, PARAM, type LookingGlassUrlState, type VantagePointRef } from "../url-state";
import { validateTerm } from "../validation";
import { SelectAllIcon } from "./SelectAllIcon";

export type LookingGlassFormProps = {
  action: string;
  vantagePoints: readonly VantagePointRef[];
  queryTypes: readonly QueryType[];
  initial: LookingGlassUrlState;
  pending: boolean;
  /** Errors the server found in the submitted URL. */
  termError?: string | null;
  vantagePointError?: string | null;
  /** The private screen: the RIB view and community fields. */
  routeFilters?: boolean;
  /** A RIB view or community of the URL the server could not apply. */
  filterError?: { field: "ribView" | "community"; message: string } | null;
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
  const [ribView, setRibView] = useState<RibViewChoice>(props.routeFilters ? props.initial.ribView : DEFAULT_RIB_VIEW);
  const [community, setCommunity] = useState(props.routeFilters ? props.initial.community : "");
  const [communityEdited, setCommunityEdited] = useState(false);

  const all = props.vantagePoints.length > 0 && selected.length === props.vantagePoints.length;
  const some = selected.length > 0 && !all;
  const check = validateTerm(queryType, queryTerm);
  // The server's verdict stands until the user edits the term; from then on the live check.
  const termError =
    edited || !props.termError ? (hydrated && !check.ok && (edited || queryTerm !== "") ? check.error : null) : props.termError;
  // The community filter applies to the routing table queries; the server's verdict stands until it is edited.
  const filtersApply = props.routeFilters === true && !isNetcommandType(queryType);
  const communityCheck = community.trim() === "" ? null : parseCommunityPattern(community);
  const communityError = !filtersApply
    ? null
    : !communityEdited && props.filterError?.field === "community"
      ? props.filterError.message
      : hydrated && communityCheck && !communityCheck.ok
        ? communityCheck.error
        : null;
  const ribViewError = filtersApply && props.filterError?.field === "ribView" ? props.filterError.message : null;
  // Without JavaScript the boxes can change without React knowing: only the server can judge then.
  const submitDisabled = props.pending || (hydrated && (selected.length === 0 || termError !== null || communityError !== null));

  const toggle = (name: string, on: boolean) => {
    const next = on ? [...selected, name] : selected.filter((n) => n !== name);
    const ordered = props.vantagePoints.map((vp) => vp.display_name).filter((n) => next.includes(n));
    setSelected(keepForQueryType(ordered, queryType));
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    if (!props.onSubmit) return;
    e.preventDefault();
    if (submitDisabled || !check.ok) return;
    props.onSubmit({
      selectedVantagePoints: selected,
      queryType,
      queryTerm,
      ribView: filtersApply ? ribView : DEFAULT_RIB_VIEW,
      community: filtersApply ? community.trim() : "",
    });
  };

  return (
    <form method="get" action={props.action} onSubmit={onSubmit} data-testid="lookingglass-form">
      <Stack gap="sm">
        <div role="group" aria-label="Vantage points" data-tour="lg-vantage-points">
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
            icon={SelectAllIcon}
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
        <Group align="flex-start" wrap="wrap" data-tour="lg-query">
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
        {filtersApply ? (
          <Group align="flex-start" wrap="wrap" data-testid="lookingglass-route-filters" data-tour="lg-route-filters">
            <NativeSelect
              name={PARAM.ribView}
              label="RIB view"
              description="Which routing tables of the routers to read"
              value={ribView}
              data={RIB_VIEW_CHOICES.map((v) => ({ value: v, label: RIB_VIEW_CHOICE_LABELS[v] }))}
              onChange={(e) => setRibView(e.currentTarget.value as RibViewChoice)}
              error={ribViewError}
              w={{ base: "100%", xs: 260 }}
            />
            <TextInput
              name={PARAM.community}
              label="Community"
              description="Only routes carrying it; * for the last part"
              placeholder="64496:100, 64496:*, RT:64497:42"
              value={community}
              onChange={(e) => {
                setCommunity(e.currentTarget.value);
                setCommunityEdited(true);
              }}
              error={communityError}
              aria-invalid={communityError ? true : undefined}
              maxLength={COMMUNITY_MAX_LENGTH}
              w={{ base: "100%", xs: 320 }}
              autoComplete="off"
            />
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}
