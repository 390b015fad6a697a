import { Alert, Anchor, AppShell, Badge, Box, Group, NavLink, ScrollArea, Stack, Text, VisuallyHidden } from "@mantine/core";
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { contrastText } from "~/lib/colors";
import type { AppFrame } from "~/server/app-frame.server";
import { BrowserSupportNotice } from "./BrowserSupportNotice";
import classes from "./AppLayout.module.css";
import { CsrfField } from "./CsrfField";
import { GroupSwitcher } from "./GroupSwitcher";
import { NotificationPoller } from "./NotificationPoller";
import { RestrictionSwitcher, type RestrictionBadge } from "./RestrictionSwitcher";

/** The frame, with a delegated account's current flows restriction when it has two or more. */
export type LayoutFrame = AppFrame & { restriction?: RestrictionBadge | null };

/**
 * The frame of every logged-in screen: header with the company name and the account actions, the
 * tool menu, the page, and a footer in the page's flow (a fixed footer covered the end of the page
 * on phones). Below the "sm" breakpoint the menu and the header's actions fold into one "Menu"
 * disclosure (a native <details>: keyboard and no-JavaScript friendly).
 */
export function AppLayout({
  frame,
  children,
  help,
}: {
  frame: LayoutFrame;
  children: ReactNode;
  /** The header's help button (the guided tours of the screen), drawn with the header actions' class. */
  help?: (actionClassName: string) => ReactNode;
}) {
  const { style, menu, user } = frame;
  const headerText = contrastText(style.colorTertiary);
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: "sm", collapsed: { mobile: true } }} padding="md">
      <AppShell.Header bg={style.colorTertiary} c={headerText}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
            {style.companyLogo ? <img src={`data:image/png;base64,${style.companyLogo}`} alt="" height={28} /> : null}
            <Text fw={700} size="xl" truncate data-testid="company-name">
              {style.companyName}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap" visibleFrom="sm" data-testid="header-actions">
            <HeaderActions frame={frame} help={help} />
            <Text size="sm" visibleFrom="md">
              {user.firstName} {user.lastName}
            </Text>
          </Group>
          <Box hiddenFrom="sm" component="details" className={classes.menu} data-testid="phone-menu">
            <summary className={classes.menuSummary}>Menu</summary>
            <div className={classes.menuPanel}>
              <nav aria-label="Tools (phone menu)">
                <ToolMenu menu={menu} />
              </nav>
              <div className={classes.panelActions}>
                <HeaderActions frame={frame} help={help} />
              </div>
            </div>
          </Box>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Tools">
        <ScrollArea>
          <ToolMenu menu={menu} />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main className={classes.main}>
        <div className={classes.content}>
          <BrowserSupportNotice />
          {frame.overrides.clickhouseDb || frame.overrides.rawFlowDb ? (
            <Alert color="orange" mb="md" title="Database override active">
              {frame.overrides.clickhouseDb ? `Flows are read from the ClickHouse database "${frame.overrides.clickhouseDb}". ` : ""}
              {frame.overrides.rawFlowDb ? `Raw flows are read from "${frame.overrides.rawFlowDb}".` : ""}
            </Alert>
          ) : null}
          {children}
        </div>
        <SiteFooter companyName={style.companyName} links={style.footerLinks} />
      </AppShell.Main>
      <NotificationPoller timezone={frame.timezone} />
    </AppShell>
  );
}

function ToolMenu({ menu }: { menu: AppFrame["menu"] }) {
  const location = useLocation();
  return (
    <Stack gap={0}>
      {menu.map((item) => (
        <NavLink
          key={item.path}
          component={Link}
          to={item.path}
          label={item.label}
          active={location.pathname === item.path}
          aria-current={location.pathname === item.path ? "page" : undefined}
        />
      ))}
    </Stack>
  );
}

/** The flows restriction, notifications, group, settings, site settings and log out: in the header, or in the phone menu. */
function HeaderActions({ frame, help }: { frame: LayoutFrame; help?: (actionClassName: string) => ReactNode }) {
  return (
    <>
      <RestrictionSwitcher badge={frame.restriction} className={classes.action} />
      {help ? help(classes.action) : null}
      <Link to="/notifications" className={classes.action}>
        Notifications
        {frame.unreadNotifications ? (
          <Badge size="xs" color="red" variant="filled" component="span">
            {frame.unreadNotifications}
            <VisuallyHidden> unread</VisuallyHidden>
          </Badge>
        ) : null}
      </Link>
      <GroupSwitcher data={frame.groupSwitcher} buttonClassName={classes.action} />
      <Link to="/settings" className={classes.action}>
        Settings
      </Link>
      {frame.canEditSiteSettings ? (
        <Link to="/site-settings" className={classes.action}>
          Site settings
        </Link>
      ) : null}
      <Form method="post" action="/logout">
        <CsrfField />
        <button type="submit" className={classes.action}>
          Log out
        </button>
      </Form>
    </>
  );
}

/** The footer of every page: the company and the style's footer links (imprint and privacy policy by default). */
export function SiteFooter({ companyName, links }: { companyName: string; links: { id: number; link: string; text: string }[] }) {
  return (
    <Group component="footer" gap="md" className={classes.footer} wrap="wrap">
      <Text size="xs" c="dimmed">
        © {companyName}
      </Text>
      {links.map((link) => (
        <Anchor key={link.id} href={link.link} size="xs" c="dimmed" underline="always">
          {link.text}
        </Anchor>
      ))}
    </Group>
  );
}
