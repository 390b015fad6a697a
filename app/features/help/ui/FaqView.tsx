import { Accordion, Anchor, Code, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import { NOT_MAPPED_EXPLANATIONS, NOT_MAPPED_NAME } from "~/features/filter/value-labels";
import { SPECIAL_AS_VALUES, UNCERTAIN_EXPLANATION } from "~/lib/special-as";

type Question = { q: string; a: JSX.Element };

const GENERAL: Question[] = [
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

const t = (text: ReactNode) => <Text size="sm">{text}</Text>;

/** The 95th percentile rule (app/lib/billing-percentile.ts), one text for every screen that shows one. */
const P95_RULE =
  "Of the n samples of the period, sorted ascending, the highest 5 % — n/20 rounded down — are dropped, and the highest remaining sample is the 95th (sorted[n − 1 − floor(n/20)]). With 8,640 five-minute samples in 30 days, the 432 highest are dropped and the 433rd highest is the figure.";

/** Questions per screen: what operators ask of each tool, with the tour that shows it. */
const SCREENS: { screen: string; tour: string | null; questions: Question[] }[] = [
  {
    screen: "Flow Explorer",
    tour: "analytics-chapter-1",
    questions: [
      {
        q: "Which traffic does the total of the Flow Explorer count?",
        a: t(
          "The line next to the total says it: ingress traffic (entering the network from neighbours) for the AS dimensions of the ingress direction, egress traffic (leaving it to neighbours) for those of the egress direction, all traffic — ingress and egress — for routers, interfaces, links, protocols, applications, infrastructures and VRFs, unless a filter on a directed dimension or the AS Flows Egress screen keeps one direction. What a directed view leaves out is said under the total, with a link to a view that shows all of it. Each flow counts once, where it enters the network (an external or access interface): copies exported again by other routers on core interfaces are not added. The total is the sum of the table's rows.",
        ),
      },
      {
        q: "What does the prediction show?",
        a: t(
          "With “Predict the next period” ticked, the timeseries continues after the last bucket with dashed lines: the next period of the same length estimated from the previous weeks' daily and weekly pattern. The note under the chart says what the prediction is based on; without enough history there is none.",
        ),
      },
      {
        q: "What does “Compare with the previous period” compare?",
        a: t(
          "The chosen range with the period of equal length right before it: the chart overlays the previous period's total, and the aggregated table gives each value's previous rate and its change in per cent. Percentages are cut off at +/-1000%.",
        ),
      },
      {
        q: "What is the difference between the Aggregated and the Detailed table?",
        a: t(
          "Aggregated has one row per value of the dimension over the whole range; Detailed has one row per value and bucket, the figures the chart draws. Detailed can be pivoted (one column per value). Exports hold the table that is shown.",
        ),
      },
    ],
  },
  {
    screen: "Sankey and AS Flows Analysis",
    tour: "analytics-chapter-2",
    questions: [
      {
        q: "What does the Sankey view show?",
        a: t(
          "How the traffic of each value of the first dimension spreads over the values of the second dimension in the chosen range, for example which routers each handover AS uses. It needs the SANKEY_TOPOLOGY permission.",
        ),
      },
      {
        q: "What is indirect traffic in the AS Flows Analysis?",
        a: t(
          "Ingress traffic of a source AS that reaches the network through another neighbour (the handover AS is not the source AS itself). Direct traffic is what the source AS hands over itself. The table lists, per source AS, the total, the direct and the indirect part and the handover ASes of the indirect part.",
        ),
      },
      {
        q: "Which traffic does the AS Flows Analysis count?",
        a: t(
          "Ingress traffic only, of the source ASes entered, along its four ASes: source, handover, next hop and destination. Each flow counts once, where it enters the network.",
        ),
      },
    ],
  },
  {
    screen: "Border Planner",
    tour: "border-planner",
    questions: [
      {
        q: "How is the 95th percentile computed?",
        a: (
          <Stack gap={4}>
            {t(`${P95_RULE} In the planners the samples are the link's 5-minute samples present in the range, in and out separately.`)}
            {t(
              "The billed 95th of a link is the higher of its in and out 95th. Revenues & Costs applies the same rule to a contract's billing group for the month, and AS Relations to the hourly samples of a neighbour's links.",
            )}
          </Stack>
        ),
      },
      {
        q: "How is a link's status (Normal, Medium, High) decided?",
        a: t(
          "From the highest peak-hour daily utilisation of either direction over the range: the peak hour of a day is the 4 consecutive complete 15-minute intervals with the most traffic, its value their mean rate divided by the capacity. High is at or above your high threshold, Medium at or above the medium one (Settings; 0.75 and 0.95 by default), otherwise Normal; No data without any daily value.",
        ),
      },
      {
        q: "What does “Build-out due” mean?",
        a: t(
          "The forecast of the link's peak-hour utilisation crosses your build-out threshold within the days (or above the percentage) set in Settings. You are told once per crossing by a notification.",
        ),
      },
      {
        q: "Why does a link show no data?",
        a: t("None of its interfaces has 5-minute samples in the range — no SNMP counters and no flows for them. Choose another range."),
      },
    ],
  },
  {
    screen: "Core Planner",
    tour: "core-planner",
    questions: [
      {
        q: "Which links does the Core Planner show?",
        a: t(
          "The internal links between two routers of the network, each with both ends (router a, interface a, router b, interface b) as the inventory has them.",
        ),
      },
      {
        q: "Which thresholds does the Core Planner use?",
        a: t(
          "Your own internal-link thresholds of Settings (intlinks medium and high, and the internal build-out threshold), apart from the external links' ones of the Border Planner.",
        ),
      },
      {
        q: "Why does the Core Planner differ from the flows?",
        a: t(
          "The planners read interface counters (SNMP, or utilisation derived from the flows where no counters exist) for every interface of a link, while a flows total counts each flow once where it enters the network. Traffic crossing the core shows in the planner but not again in the flows.",
        ),
      },
    ],
  },
  {
    screen: "Looking Glass",
    tour: "looking-glass",
    questions: [
      {
        q: "What is a vantage point?",
        a: t(
          "A router whose routing table the Looking Glass can ask. Select one, several or all; each result row names the vantage point it came from.",
        ),
      },
      {
        q: "What is the difference between pre-policy and post-policy?",
        a: t(
          "Pre-policy is what a neighbour announced, before the router's import policy; post-policy is what the router accepted and uses. A route missing from post-policy but present pre-policy was filtered.",
        ),
      },
      {
        q: "Why does the Looking Glass show fewer rows than match?",
        a: t(
          "Very broad queries are cut at the shown limit, and a banner names how many matched. Narrow the prefix, choose fewer vantage points or filter by a community.",
        ),
      },
    ],
  },
  {
    screen: "Control Plane",
    tour: "control-plane",
    questions: [
      {
        q: "What does the Control Plane show that the Looking Glass does not?",
        a: t(
          "The history: every announcement and withdrawal of the matching routes in the chosen range, per vantage point, where the Looking Glass shows the routing tables as they are now.",
        ),
      },
      {
        q: "Why do I see “To view the data, click the Submit button above”?",
        a: t("The Control Plane runs no query until you submit one: enter a term, choose the range and click Submit."),
      },
      {
        q: "How far back does the routing history go?",
        a: t("As far as the imported routing data: the dates with data are named above the form, and a range outside them shows no rows."),
      },
    ],
  },
  {
    screen: "Raw Network Analyzer",
    tour: "rna",
    questions: [
      {
        q: "How long are raw flow records kept?",
        a: t("7 days. A start before the oldest record moves to it, and the page says so."),
      },
      {
        q: "Are the Raw Network Analyzer's bytes multiplied by the sampling rate?",
        a: t(
          "The sums and the Bytes and Packets columns are scaled by each record's own sampling rate: the traffic the record stands for. The columns of the unscaled bytes and the sampling rate show what the router sent.",
        ),
      },
      {
        q: "Does the Raw Network Analyzer count a flow several times?",
        a: t(
          "No: by default it reads only the observation where the flow entered the network. Include the re-exported copies to see the records of the other routers too; they are marked as re-exported copies.",
        ),
      },
    ],
  },
  {
    screen: "Revenues & Costs",
    tour: "revenues-and-costs",
    questions: [
      {
        q: "How is a Max 95th bill computed?",
        a: t(
          `${P95_RULE} The samples are the month's 5-minute samples of the billing group, in the contract's billing timezone: the summed series of its ports (aggregate) or each port's 95th summed (per port), in the billed direction (the higher of in and out by default). The bill is the commit (in Mbit/s) times the commit price, plus whatever of the billed 95th lies above the commit times the burst price, plus the port and cross-connect fees; it is at least the minimum fee.`,
        ),
      },
      {
        q: "What are the billing methods?",
        a: t(
          "Flatrate: a fixed price per month. free: no traffic charge, the fees still apply (an IX port). Max 95th: commit and burst on the 95th percentile. The currency is EUR.",
        ),
      },
      {
        q: "Why is a month's margin different from last month's?",
        a: t(
          "Each total's change against the previous month is shown under it; the bills table shows which contract changed: its billed 95th, a new or ended contract, a new fee.",
        ),
      },
    ],
  },
  {
    screen: "AS Relations",
    tour: "as-relations",
    questions: [
      {
        q: "Which traffic does AS Relations count, and over which samples is its 95th?",
        a: t(
          `Per neighbour AS, the traffic on its links: in (outbound for the neighbour) is what it hands over to us, out what we hand over to it. ${P95_RULE} Here the samples are the month's hours with any flow; an hour without traffic of that neighbour counts 0.`,
        ),
      },
      {
        q: "Where do names, policies and exchanges come from?",
        a: t(
          "From the last PeeringDB import; the page says when it was imported. An AS PeeringDB does not know keeps the inventory's name.",
        ),
      },
      {
        q: "What does “ratio disagrees” mean?",
        a: t(
          "The traffic ratio the network declares in PeeringDB and the ratio observed in the month's 95th fall into different categories.",
        ),
      },
    ],
  },
  {
    screen: "Delegated Users",
    tour: "delegated-users",
    questions: [
      {
        q: "What does a delegated account see?",
        a: t(
          "Only the traffic of its flows restrictions: each locks a dimension to the customer's values and sets the dimension the traffic is broken down by. The lock is shown, never removable.",
        ),
      },
      {
        q: "Which permissions can I give a delegated account?",
        a: t(
          "The delegable permissions you hold yourself; tools of the whole network (AS Flows Analysis, AS Relations) are not delegable.",
        ),
      },
      {
        q: "How does a delegated account switch between restrictions?",
        a: t(
          "With “Next” in its header; after login the first restriction is current. The welcome page, when the site enables it, lists them.",
        ),
      },
    ],
  },
  {
    screen: "Alerts",
    tour: null,
    questions: [
      {
        q: "When does an alert rule trigger, and when does it resolve?",
        a: t(
          "Every minute the newest complete 5-minute bucket of the rule's view is compared with its limit. The rule triggers once the condition has held for its minimum duration, and resolves only when the value is back inside the limit moved inwards by its hysteresis (above 100 with 10 %: at most 90). A bucket without any traffic is No data, never a trigger.",
        ),
      },
      {
        q: "How do I know whether a rule would be too noisy?",
        a: t(
          "Press “Test against the last 7 days” on its form: the rule as typed runs over the last week's buckets and the page lists when it would have triggered and resolved. Nothing is saved and nobody is told.",
        ),
      },
      {
        q: "What do acknowledge and silence do?",
        a: t(
          "Acknowledging a triggered alert records who saw it; it ends with the next change of state. A silence keeps the changes in the history but tells nobody until it ends (at most a week).",
        ),
      },
    ],
  },
];

export type FaqTour = { id: string; title: string };

/** The FAQ: every answer open, so the page reads (and searches) as one text; then the guided tours the user may take. */
export function FaqView({ tours = [] }: { tours?: readonly FaqTour[] }) {
  const available = new Set(tours.map((x) => x.id));
  const sections = [{ screen: "General", tour: null as string | null, questions: GENERAL }, ...SCREENS];
  return (
    <Stack maw={860}>
      <Title order={1} size="h2">
        FAQ
      </Title>
      {sections.map((section) => (
        <Stack key={section.screen} gap="xs" data-testid="faq-section">
          <Title order={2} size="h3">
            {section.screen}
          </Title>
          {section.tour && available.has(section.tour) ? (
            <Text size="sm">
              Guided tour:{" "}
              <Anchor component={Link} to={`/help/${section.tour}`}>
                {tours.find((x) => x.id === section.tour)?.title}
              </Anchor>
            </Text>
          ) : null}
          <Accordion multiple defaultValue={section.questions.map((_, i) => String(i))}>
            {section.questions.map((item, i) => (
              <Accordion.Item key={item.q} value={String(i)}>
                <Accordion.Control>{item.q}</Accordion.Control>
                <Accordion.Panel>{item.a}</Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </Stack>
      ))}
      {tours.length ? (
        <Stack gap="xs">
          <Title order={2} size="h3">
            Guided tours
          </Title>
          <Text size="sm">Every tour is also a help page; start one on its screen from the Help button in the header.</Text>
          <ul data-testid="faq-tours">
            {tours.map((x) => (
              <li key={x.id}>
                <Anchor component={Link} to={`/help/${x.id}`} size="sm">
                  {x.title}
                </Anchor>
              </li>
            ))}
          </ul>
        </Stack>
      ) : null}
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
