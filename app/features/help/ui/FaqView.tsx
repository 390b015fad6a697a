import { Accordion, Anchor, Code, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import { NOT_MAPPED_EXPLANATIONS, NOT_MAPPED_NAME } from "~/features/filter/value-labels";
import { SPECIAL_AS_VALUES, UNCERTAIN_EXPLANATION } from "~/lib/special-as";

const QUESTIONS: { q: string; a: JSX.Element }[] = [
  {
    q: "What do source, handover, next-hop and destination AS mean?",
    a: (
      <Text size="sm">
        The source AS sends the traffic, the handover AS is the neighbour that hands it to your network, the next-hop AS is the neighbour
        your network hands it on to, and the destination AS receives it. Traffic that starts or ends in your own network has your AS as
        handover or next hop.
      </Text>
    ),
  },
  {
    q: "What are Others, Untracked and Not routable?",
    a: (
      <Stack gap={4}>
        {SPECIAL_AS_VALUES.map((s) => (
          <Text size="sm" key={s.asn}>
            <b>
              {s.name} ({s.asn})
            </b>
            : {s.explanation}
          </Text>
        ))}
        <Text size="sm">{UNCERTAIN_EXPLANATION}</Text>
      </Stack>
    ),
  },
  {
    q: "What is Not mapped?",
    a: (
      <Stack gap={4}>
        {NOT_MAPPED_EXPLANATIONS.map((n) => (
          <Text size="sm" key={n.label}>
            <b>
              {n.label}: {NOT_MAPPED_NAME}
            </b>
            : {n.explanation}
          </Text>
        ))}
      </Stack>
    ),
  },
  {
    q: "Why do totals differ between dimensions?",
    a: (
      <Text size="sm">
        Each view says next to its total which traffic it counts. The AS dimensions of one direction count ingress traffic (entering the
        network from neighbours) or egress traffic (leaving it); routers, interfaces, links, protocols, applications, infrastructures and
        VRFs count all traffic, ingress and egress, unless the screen (AS Flows Egress) or a filter on an AS dimension restricts it to one
        direction.
      </Text>
    ),
  },
  {
    q: "Why are bytes multiplied by the sampling rate?",
    a: (
      <Text size="sm">
        Routers export one packet out of N (the sampling rate). flowlens multiplies the sampled bytes and packets by N when it aggregates,
        so figures estimate the real traffic. Raw flow records show what the router sent.
      </Text>
    ),
  },
  {
    q: "Which time resolution do charts use?",
    a: (
      <Text size="sm">
        5-minute buckets for ranges of up to 1 day, 15 minutes for longer ranges up to 7 days (2 to 6 days), 1 hour from 7 days up to 60
        days (7 to 59 days; &quot;Last 7 days&quot; and &quot;Last 30 days&quot; use hourly buckets) and 1 day from 60 days on. The range is
        the one you chose: that the newest data are a few minutes old (up to two buckets, at least 15 minutes) changes neither the buckets
        nor the range shown, and raises no notice. Times are shown in the timezone of your settings.
      </Text>
    ),
  },
  {
    q: "How do I share what I am looking at?",
    a: (
      <Text size="sm">
        Copy the address of the page: every filter, date range and dimension is in the URL, for example <Code>?dateRange=LAST_7_DAYS</Code>.
        The link works for anyone with the same permissions.
      </Text>
    ),
  },
  {
    q: "How do I call the JSON API from a script?",
    a: (
      <Text size="sm">
        Log in with <Code>POST /auth/login/</Code>, keep the cookies, send the value of the <Code>csrftoken</Code> cookie in the{" "}
        <Code>X-CSRFToken</Code> header of every POST, PUT, PATCH and DELETE, and ask for an API version with{" "}
        <Code>Accept: application/json; version=17</Code> (13 to 17 are supported).
      </Text>
    ),
  },
];

/** The FAQ: every answer open, so the page reads (and searches) as one text. */
export function FaqView() {
  return (
    <Stack maw={860}>
      <Title order={1} size="h2">
        FAQ
      </Title>
      <Accordion multiple defaultValue={QUESTIONS.map((_, i) => String(i))}>
        {QUESTIONS.map((item, i) => (
          <Accordion.Item key={item.q} value={String(i)}>
            <Accordion.Control>{item.q}</Accordion.Control>
            <Accordion.Panel>{item.a}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      <Text size="sm">
        No answer here?{" "}
        <Anchor component={Link} to="/support?type=HELP">
          Contact support
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
