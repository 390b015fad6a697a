import { Alert, Anchor, AppShell, Badge, Burger, Group, NavLink, ScrollArea, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { AppFrame } from "~/server/app-frame.server";
import { CsrfField } from "./CsrfField";
import { GroupSwitcher } from "./GroupSwitcher";
import { NotificationPoller } from "./NotificationPoller";

const headerButton = { background: "none", border: "1px solid rgba(255,255,255,.6)", color: "white", borderRadius: 4, padding: "2px 10px", cursor: "pointer", textDecoration: "none", fontSize: 14 } as const;

/** The frame of every logged-in screen: header with the company name, the tool menu, a footer. */
export function AppLayout({ frame, children }: { frame: AppFrame; children: ReactNode }) {
  const { style, menu, user } = frame;
  const [opened, { toggle }] = useDisclosure();
  const location = useLocation();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: "sm", collapsed: { mobile: !opened } }} footer={{ height: 36 }} padding="md">
      <AppShell.Header bg={style.colorTertiary} c="white">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" color="white" aria-label="Toggle menu" />
            {style.companyLogo ? <img src={`data:image/png;base64,${style.companyLogo}`} alt="" height={28} /> : null}
            <Title order={3} c="white">
              {style.companyName}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Link to="/notifications" style={headerButton} aria-label={`Notifications, ${frame.unreadNotifications} unread`}>
              Notifications{frame.unreadNotifications ? <Badge size="xs" color="red" ml={6}>{frame.unreadNotifications}</Badge> : null}
            </Link>
            <GroupSwitcher data={frame.groupSwitcher} />
            <Link to="/settings" style={headerButton}>
              Settings
            </Link>
            {frame.canEditSiteSettings ? (
              <Link to="/site-settings" style={headerButton}>
                Site settings
              </Link>
            ) : null}
            <Text size="sm" visibleFrom="md">
              {user.firstName} {user.lastName}
            </Text>
            <Form method="post" action="/logout">
              <CsrfField />
              <button type="submit" style={headerButton}>
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
      <AppShell.Main>
        {frame.overrides.clickhouseDb || frame.overrides.rawFlowDb ? (
          <Alert color="orange" mb="md" title="Database override active">
            {frame.overrides.clickhouseDb ? `Flows are read from the ClickHouse database "${frame.overrides.clickhouseDb}". ` : ""}
            {frame.overrides.rawFlowDb ? `Raw flows are read from "${frame.overrides.rawFlowDb}".` : ""}
          </Alert>
        ) : null}
        {children}
      </AppShell.Main>
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
      <NotificationPoller timezone={frame.timezone} />
    </AppShell>
  );
}
