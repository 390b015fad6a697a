import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";

/** The pointer's last position in the viewport, kept by one listener for every chart's tooltip. */
const pointer = { x: 0, y: 0 };
let listening = false;
function trackPointer() {
  if (listening || typeof window === "undefined") return;
  listening = true;
  window.addEventListener(
    "mousemove",
    (e) => {
      pointer.x = e.clientX;
      pointer.y = e.clientY;
    },
    { passive: true, capture: true },
  );
}
trackPointer();

const GAP = 14;

/**
 * A chart tooltip rendered into document.body at the pointer, never inside the chart's box: a
 * tooltip inside the chart's scrolling container was cut off by it. It sits right of and below the
 * pointer and flips to the other side when it would leave the viewport.
 */
export function FloatingTooltip({ children, testId }: { children: ReactNode; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState({ left: pointer.x + GAP, top: pointer.y + GAP });
  useLayoutEffect(() => {
    const place = () => {
      const box = ref.current?.getBoundingClientRect();
      if (!box) return;
      const fitsRight = pointer.x + GAP + box.width <= window.innerWidth;
      const fitsBelow = pointer.y + GAP + box.height <= window.innerHeight;
      setPosition({
        left: Math.max(0, fitsRight ? pointer.x + GAP : pointer.x - GAP - box.width),
        top: Math.max(0, fitsBelow ? pointer.y + GAP : pointer.y - GAP - box.height),
      });
    };
    place();
    window.addEventListener("mousemove", place, { passive: true });
    return () => window.removeEventListener("mousemove", place);
  }, []);
  if (typeof document === "undefined") return null;
  return createPortal(
    <div
      ref={ref}
      role="tooltip"
      data-testid={testId}
      style={{
        position: "fixed",
        left: position.left,
        top: position.top,
        zIndex: 1000,
        pointerEvents: "none",
        background: "white",
        color: "#1a1a1a",
        border: "1px solid #ced4da",
        borderRadius: 4,
        boxShadow: "0 2px 8px rgba(0, 0, 0, 0.15)",
        padding: "6px 10px",
        fontSize: 12,
        maxHeight: "calc(100vh - 16px)",
        overflow: "hidden",
      }}
    >
      {children}
    </div>,
    document.body,
  );
}
