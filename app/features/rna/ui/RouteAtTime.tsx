/**
 * The route that carried a raw flow, in a row's detail: the prefix, when it was announced, the AS
 * path with the ASes' names, the communities with their labels, the RPKI state, the peer and next
 * hop, the other routes of the prefix, and the Control Plane at that time (a plain link). Purely
 * presentational: its props are route-at-time.server.ts's answer; it works without JavaScript.
 */
import { Anchor, Stack, Text } from "@mantine/core";
import { Fragment } from "react";
import { RpkiBadge } from "~/features/routing/rpki/ui/RpkiBadge";
import { RIB_VIEW_LABELS } from "~/features/routing/rib-views";
import { formatUnix } from "~/lib/date-format";
import { CARRIED_BECAUSE_LABELS, unmappedVrfNote, type NamedAs, type RouteAtTimeResult, type RouteAtTimeRoute } from "../route-at-time";

const LIST_STYLE = { listStyle: "none", margin: 0, padding: 0 } as const;
const GRID_STYLE = { margin: 0, display: "grid", gridTemplateColumns: "max-content minmax(8rem, 32rem)", gap: "2px 12px" } as const;

function AsName({ as }: { as: NamedAs }) {
  return (
    <span style={{ whiteSpace: "nowrap" }}>
      {as.asn}
      {as.name ? <span style={{ fontWeight: 500 }}> {as.name}</span> : null}
    </span>
  );
}

function AsPath({ route }: { route: RouteAtTimeRoute }) {
  if (route.asPath.length === 0 && route.asPathSet.length === 0) return <>(originated in the network)</>;
  return (
    <span data-testid="route-as-path">
      {route.asPath.map((as, i) => (
        <Fragment key={`${as.asn}-${i}`}>
          {i > 0 ? " › " : null}
          <AsName as={as} />
        </Fragment>
      ))}
      {route.asPathSet.length ? ` {${route.asPathSet.join(", ")}}` : null}
    </span>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div style={{ display: "contents" }}>
      <dt style={{ fontWeight: 600 }}>{label}</dt>
      <dd style={{ margin: 0, overflowWrap: "anywhere" }}>{children}</dd>
    </div>
  );
}

function RouteFields({ route, timezone }: { route: RouteAtTimeRoute; timezone: string }) {
  return (
    <dl style={GRID_STYLE}>
      <Field label="Prefix">{route.prefix}</Field>
      <Field label={`Announced (${timezone})`}>{formatUnix(route.announcedAt, timezone)}</Field>
      <Field label="AS path">
        <AsPath route={route} />
      </Field>
      <Field label="RPKI">
        <RpkiBadge state={route.rpki} />
      </Field>
      <Field label="Communities">
        {route.communities.length ? (
          <ul style={LIST_STYLE} data-testid="route-communities">
            {route.communities.map((c, i) => (
              <li key={`${c.community}-${i}`} style={{ whiteSpace: "nowrap" }}>
                {c.community}
                {c.label ? <span style={{ fontWeight: 500 }}> {c.label}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          "—"
        )}
      </Field>
      <Field label="Next hop">{route.nextHop || "—"}</Field>
      <Field label="Peer">
        {route.peerIp || "—"}
        {route.peerAs.asn ? (
          <>
            {" "}
            (AS <AsName as={route.peerAs} />)
          </>
        ) : null}
      </Field>
      <Field label="Local preference, MED, origin">{`${route.localPref}, ${route.med}, ${route.origin}`}</Field>
      <Field label="Table">{`${RIB_VIEW_LABELS[route.ribView]}${route.pathId ? `, path ${route.pathId}` : ""}`}</Field>
    </dl>
  );
}

export function RouteAtTime({ result, timezone }: { result: RouteAtTimeResult; timezone: string }) {
  const heading = (
    <Text fw={600} size="sm">
      Route at the time of the flow
    </Text>
  );
  if (result.kind === "no-vantage-point" || result.kind === "not-available") {
    return (
      <Stack gap={4} data-testid="route-at-time" data-kind={result.kind}>
        {heading}
        <Text size="sm">{result.message}</Text>
      </Stack>
    );
  }
  const table = result.vrf
    ? `VRF ${result.vrf} (route distinguisher ${result.routeDistinguisher})`
    : `route distinguisher ${result.routeDistinguisher}`;
  const where = `${result.vantagePoint.name}${result.routeDistinguisher ? `, ${table}` : ""}`;
  const unmapped = result.unmappedVrf ? (
    <Text size="sm" c="dimmed" data-testid="route-unmapped-vrf">
      {unmappedVrfNote(result.unmappedVrf, result.vantagePoint.router)}
    </Text>
  ) : null;
  const controlPlane = result.controlPlaneHref ? (
    <Anchor href={result.controlPlaneHref} size="sm" data-testid="route-control-plane">
      Open the Control Plane at that time
    </Anchor>
  ) : null;
  if (result.kind === "no-route") {
    return (
      <Stack gap={4} data-testid="route-at-time" data-kind="no-route">
        {heading}
        <Text size="sm">{result.message}</Text>
        {unmapped}
        {controlPlane}
      </Stack>
    );
  }
  return (
    <Stack gap={4} data-testid="route-at-time" data-kind="route">
      {heading}
      <Text size="sm">
        {`${result.destination} at ${where}, ${formatUnix(result.at, timezone)} (${timezone}): `}
        {`${result.route.prefix}, ${CARRIED_BECAUSE_LABELS[result.carriedBecause]}.`}
      </Text>
      {unmapped}
      <RouteFields route={result.route} timezone={timezone} />
      {result.otherPaths.length ? (
        <details>
          <summary style={{ cursor: "pointer" }}>
            {result.otherPaths.length === 1 ? "1 other route" : `${result.otherPaths.length} other routes`} of {result.route.prefix}
          </summary>
          <Stack gap="xs" mt={4}>
            {result.otherPaths.map((route, i) => (
              <RouteFields key={`${route.peerIp}-${route.ribView}-${route.pathId}-${i}`} route={route} timezone={timezone} />
            ))}
          </Stack>
        </details>
      ) : null}
      {controlPlane}
    </Stack>
  );
}
