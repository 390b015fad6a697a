/**
 * The frame of the public Looking Glass (spec §1, §2; shell §3 style): no login, no menu. A
 * deployment named by the site setting as_name_of_deployment gets the branded layout — its name
 * in the header and a footer with links for contact, terms, imprint and data protection; any other
 * gets the generic layout drawn from the site style: company_name, company_logo (base64 png),
 * font, branded_footer and footer_links.
 */
import { Anchor, Box, Container, Group, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { contrastText } from "~/lib/colors";

export type PublicStyle = {
  companyName: string;
  companyLogo: string | null;
  font: string;
  brandedFooter: boolean;
  footerLinks: { id: number; link: string; text: string }[];
  colorTertiary: string;
};

/** The branded deployment's footer: its four links, found among the style's footer links by their text. */
export const BRANDED_FOOTER_LINKS = ["Contact", "Terms", "Imprint", "Data protection"] as const;

export function brandedFooterLinks(links: PublicStyle["footerLinks"]): { text: string; link: string }[] {
  return BRANDED_FOOTER_LINKS.map((text) => {
    const found = links.find((l) => l.text.trim().toLowerCase() === text.toLowerCase());
    return { text, link: found?.link ?? "#" };
  }).filter((l) => l.link !== "#");
}

export function PublicLayout({
  style,
  asNameOfDeployment,
  children,
}: {
  style: PublicStyle;
  asNameOfDeployment: string;
  children: ReactNode;
}) {
  const branded = asNameOfDeployment.trim() !== "";
  const year = new Date().getUTCFullYear();
  const fontFamily = style.font === "TeleGroteskNext" ? "TeleGroteskNext, system-ui, sans-serif" : undefined;
  const links = branded ? brandedFooterLinks(style.footerLinks) : style.footerLinks;
  return (
    <Box style={{ minHeight: "100vh", display: "flex", flexDirection: "column", fontFamily }} data-layout={branded ? "branded" : "generic"}>
      <Box component="header" bg={style.colorTertiary} c={contrastText(style.colorTertiary)} py="sm">
        <Container size="xl">
          <Group gap="sm">
            {style.companyLogo ? <img src={`data:image/png;base64,${style.companyLogo}`} alt={style.companyName} height={32} /> : null}
            {/* The page's one h1: the screen is this Looking Glass. */}
            <Title order={1} size="h3" c="inherit">
              {branded ? `${asNameOfDeployment} Looking Glass` : `${style.companyName} Looking Glass`}
            </Title>
          </Group>
        </Container>
      </Box>
      <Container size="xl" component="main" py="md" style={{ flex: 1, width: "100%" }}>
        {children}
      </Container>
      <Box component="footer" py="xs" style={{ borderTop: "1px solid var(--mantine-color-gray-3)" }} data-testid="public-footer">
        <Container size="xl">
          <Group gap="md">
            {/* branded_footer: the footer carries the company's logo; otherwise it names the software. */}
            {!branded && style.brandedFooter && style.companyLogo ? (
              <img src={`data:image/png;base64,${style.companyLogo}`} alt="" height={16} />
            ) : null}
            <Text size="xs" c="dimmed">
              © {year} {branded ? asNameOfDeployment : style.companyName}
              {!branded && !style.brandedFooter ? " · Looking Glass by flowlens" : ""}
            </Text>
            {links.map((l) => (
              <Anchor key={l.text + l.link} href={l.link} size="xs" c="dimmed">
                {l.text}
              </Anchor>
            ))}
          </Group>
        </Container>
      </Box>
    </Box>
  );
}
