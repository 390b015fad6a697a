/**
 * The one list of ingest components. The app's composition root registers each component once, at
 * module load; the app process and `npm run worker` both read this list, so a component registered
 * here runs wherever the placement rule (placement.server.ts) says, with no second registration.
 */
import { assertComponentName, type IngestComponent } from "./contract.server";

const holder = globalThis as unknown as { __flowlensComponents?: Map<string, IngestComponent> };
// On globalThis: Vite's module reloads in development must not register a component twice.
const components = (holder.__flowlensComponents ??= new Map());

/** Adds a component (a second one under the same name replaces the first: a module reload); returns its removal. */
export function registerComponent<Settings>(component: IngestComponent<Settings>): () => void {
  assertComponentName(component.name);
  components.set(component.name, component as IngestComponent);
  return () => {
    if (components.get(component.name) === component) components.delete(component.name);
  };
}

export function registeredComponents(): IngestComponent[] {
  return [...components.values()];
}
