import { Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { useRef } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { indexOfScreen, type TourIndexEntry } from "../tour-index";
import classes from "./HelpMenu.module.css";
import { useTours } from "./TourProvider";

/**
 * The header's help button: the tours of the current screen, each with its help page (/help/<id>, also
 * without JavaScript) and, with JavaScript, a button that starts (or resumes) the tour on the screen; then
 * every tour and the FAQ. `actionClassName`: the header's action style for the summary.
 */
export function HelpMenu({ index, actionClassName }: { index: readonly TourIndexEntry[]; actionClassName: string }) {
  const location = useLocation();
  const hydrated = useHydrated();
  const tours = useTours();
  const details = useRef<HTMLDetailsElement>(null);
  const here = indexOfScreen(location.pathname, index);
  return (
    <details className={classes.help} ref={details} data-testid="help-menu">
      <summary className={`${actionClassName} ${classes.summary}`}>Help</summary>
      <div className={classes.panel}>
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            {here.length ? "Tours of this screen" : "No tour for this screen"}
          </Text>
          {here.map((t) => {
            const state = tours?.statusOf(t.id);
            const resume = state?.status === "Started" && state.step > 0;
            return (
              <Stack key={t.id} gap={4} data-testid="help-tour" data-tour-id={t.id}>
                <Anchor component={Link} to={`/help/${t.id}`} size="sm" fw={500}>
                  {t.title}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {t.summary}
                  {state
                    ? ` (${state.status === "Started" ? `started, step ${state.step + 1} of ${t.steps}` : state.status.toLowerCase()})`
                    : ""}
                </Text>
                {hydrated && tours ? (
                  <Group gap="xs">
                    <Button
                      size="compact-xs"
                      onClick={() => {
                        if (details.current) details.current.open = false;
                        tours.start(t.id);
                      }}
                    >
                      {resume ? `Resume the tour at step ${state.step + 1}` : "Start the tour"}
                    </Button>
                    {resume ? (
                      <Button
                        size="compact-xs"
                        variant="default"
                        onClick={() => {
                          if (details.current) details.current.open = false;
                          tours.start(t.id, { fromStart: true });
                        }}
                      >
                        From the start
                      </Button>
                    ) : null}
                  </Group>
                ) : null}
              </Stack>
            );
          })}
          <Group gap="md" mt={4}>
            <Anchor component={Link} to="/help" size="sm">
              All tours
            </Anchor>
            <Anchor component={Link} to="/faq" size="sm">
              FAQ
            </Anchor>
          </Group>
        </Stack>
      </div>
    </details>
  );
}

/** A "Start the tour" button for a page that names a tour (its help page, the FAQ, the welcome page): JavaScript only. */
export function StartTourButton({ tourId, label = "Start the tour" }: { tourId: string; label?: string }) {
  const hydrated = useHydrated();
  const tours = useTours();
  if (!hydrated || !tours || !tours.available.includes(tourId)) return null;
  const state = tours.statusOf(tourId);
  return (
    <Button size="xs" variant="light" onClick={() => tours.start(tourId)} data-testid="start-tour">
      {state?.status === "Started" && state.step > 0 ? `Resume the tour at step ${state.step + 1}` : label}
    </Button>
  );
}
