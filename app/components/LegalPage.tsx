import { Alert, Box, Container, Group, List, Stack, Text, Title } from "@mantine/core";
import { useRouteLoaderData } from "@remix-run/react";
import { contrastText, DEFAULT_COLORS } from "~/lib/colors";
import { parsePlainMarkup } from "~/lib/plain-markup";
import type { loader as rootLoader } from "~/root";
import { SiteFooter } from "./AppLayout";

/**
 * A public text page (imprint, privacy policy): no login, no scripts needed. The text is staff's
 * plain markup, rendered as React text nodes, so no HTML it contains is ever interpreted.
 */
export function LegalPage({ title, text, filledIn }: { title: string; text: string; filledIn: boolean }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const style = root?.style;
  const header = style?.colorTertiary ?? DEFAULT_COLORS.tertiary;
  return (
    <Box style={{ minHeight: "100vh", display: "flex", flexDirection: "column" }}>
      <Box component="header" bg={header} c={contrastText(header)} py="sm">
        <Container size="md">
          <Group gap="sm">
            {style?.companyLogo ? <img src={`data:image/png;base64,${style.companyLogo}`} alt="" height={28} /> : null}
            <Text fw={700} size="xl">
              {style?.companyName ?? "flowlens"}
            </Text>
          </Group>
        </Container>
      </Box>
      <Container size="md" component="main" py="lg" style={{ flex: 1, width: "100%" }}>
        <Stack gap="md" data-testid="legal-text">
          <Title order={1} size="h2">
            {title}
          </Title>
          {filledIn ? <MarkupText source={text} /> : <Alert color="gray">{text}</Alert>}
        </Stack>
      </Container>
      <Container size="md" w="100%" pb="sm">
        <SiteFooter companyName={style?.companyName ?? "flowlens"} links={style?.footerLinks ?? []} />
      </Container>
    </Box>
  );
}

function MarkupText({ source }: { source: string }) {
  return (
    <>
      {parsePlainMarkup(source).map((block, i) => {
        if (block.kind === "heading")
          return (
            <Title key={i} order={2} size="h4">
              {block.text}
            </Title>
          );
        if (block.kind === "list")
          return (
            <List key={i}>
              {block.items.map((item, j) => (
                <List.Item key={j}>{item}</List.Item>
              ))}
            </List>
          );
        return (
          <Text key={i}>
            {block.lines.map((line, j) => (
              <span key={j}>
                {j > 0 ? <br /> : null}
                {line}
              </span>
            ))}
          </Text>
        );
      })}
    </>
  );
}
