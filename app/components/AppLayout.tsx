import { Anchor, AppShell, Burger, Group, NavLink, ScrollArea, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { AppFrame } from "~/server/app-frame.server";
import { CsrfField } from "./CsrfField";

/** The frame of every logged-in screen: header with the company name, the tool menu, a footer. */
export function AppLayout({ frame, children }: { frame: AppFrame; children: ReactNode }) {
  const { style, menu, user } = frame;
  const [opened, { toggle }] = useDisclosure();
  const location = useLocation();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: "sm", collapsed: { mobile: !opened } }} footer={{ height: 36 }} padding="md">
      <AppShell.Header bg={style.colorTertiary} c="white">
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" color="white" aria-label="Toggle menu" />
            {style.companyLogo ? <img src={`data:image/png;base64,${style.companyLogo}`} alt="" height={28} /> : null}
            <Title order={3} c="white">
              {style.companyName}
            </Title>
          </Group>
          <Group gap="sm">
            <Text size="sm">
              {user.firstName} {user.lastName}
            </Text>
            <Form method="post" action="/logout">
              <CsrfField />
              <button type="submit" style={{ background: "none", border: "1px solid rgba(255,255,255,.6)", color: "white", borderRadius: 4, padding: "2px 10px", cursor: "pointer" }}>
                Log out
              </button>
            </Form>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Tools">
        <ScrollArea>
          {menu.map((item) => (
            <NavLink key={item.path} component={Link} to={item.path} label={item.label} active={location.pathname === item.path} />
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
      <AppShell.Footer px="md">
        <Group h="100%" gap="md">
          <Text size="xs" c="dimmed">
            © {style.companyName}
          </Text>
          {style.footerLinks.map((link) => (
            <Anchor key={link.id} href={link.link} size="xs" c="dimmed">
              {link.text}
            </Anchor>
          ))}
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}
