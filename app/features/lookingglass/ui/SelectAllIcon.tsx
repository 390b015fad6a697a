import clsx from "clsx";
import type { CheckboxIconProps } from "@mantine/core";
import classes from "./SelectAllIcon.module.css";

/**
 * The select-all box's icon: the check mark and the indeterminate dash (Mantine's two shapes) in one
 * SVG, so the mark can change without a render — the public page does not hydrate, and its script
 * only sets the input's data-indeterminate (public-page-script.ts).
 */
export function SelectAllIcon({ indeterminate: _indeterminate, className, ...others }: CheckboxIconProps) {
  return (
    <svg
      viewBox="0 0 10 7"
      fill="none"
      xmlns="http://www.w3.org/2000/svg"
      aria-hidden
      className={clsx(className, classes.icon)}
      {...others}
    >
      <path
        className={classes.check}
        d="M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
      <rect className={classes.dash} x="0.5" y="2.6" width="9" height="1.8" rx="0.9" fill="currentColor" />
    </svg>
  );
}
