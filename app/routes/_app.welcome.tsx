import { Button, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { StartTourButton } from "~/features/help/ui/HelpMenu";
import { firstAvailableRoute } from "~/lib/routes";
import { requireUser } from "~/server/auth/guard.server";
import { welcomePageFor } from "~/server/auth/welcome-page.server";

export const meta: MetaFunction = () => [{ title: "Welcome · flowlens" }];

/** Shown only to delegated users, and only when the site enables the welcome page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { services, user, menu } = await requireUser(request);
  const first = firstAvailableRoute(menu);
  const page = await welcomePageFor(services.pg.db, user);
  if (!page) throw redirect(first ?? "/logout?reason=no-permissions");
  return {
    name: user.firstName || user.email,
    continueTo: first ?? "/logout?reason=no-permissions",
    tools: menu.filter((m) => m.permission !== null).map((m) => m.menuLabel),
    flowViews: page.flowViews,
    asNumbers: page.asNumbers,
    text: page.text,
  };
}

export default function Welcome() {
  const { name, continueTo, tools, flowViews, asNumbers, text } = useLoaderData<typeof loader>();
  return (
    <Paper withBorder p="xl" maw={720}>
      <Stack>
        <Title order={1} size="h2">
          Welcome, {name}
        </Title>
        <div data-tour="welcome-text">
          {text ? (
            text.split(/\n\s*\n/).map((p, i) => (
              <Text key={i} style={{ whiteSpace: "pre-line" }} data-testid="welcome-text">
                {p}
              </Text>
            ))
          ) : (
            <Text>Your account shows the part of the network's traffic that was shared with you.</Text>
          )}
        </div>
        <Text>You can use:</Text>
        <List data-tour="welcome-tools">
          {tools.map((t) => (
            <List.Item key={t}>{t}</List.Item>
          ))}
        </List>
        {flowViews.length ? (
          <div data-tour="welcome-restrictions">
            <Text>Your traffic views are limited to:</Text>
            <List>
              {flowViews.map((v) => (
                <List.Item key={v}>{v}</List.Item>
              ))}
            </List>
          </div>
        ) : (
          <Text data-tour="welcome-restrictions">Your traffic views are not limited to particular values.</Text>
        )}
        {asNumbers.length ? <Text>Border links: {asNumbers.map((a) => `AS${a}`).join(", ")}</Text> : null}
        <div>
          <Group gap="sm">
            <Button component={Link} to={continueTo} data-tour="welcome-continue">
              Continue
            </Button>
            <StartTourButton tourId="welcome" label="Take the tour of this page" />
          </Group>
        </div>
      </Stack>
    </Paper>
  );
}
