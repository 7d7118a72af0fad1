import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * A button that shows and hides a panel (a menu of links and actions). The panel closes on Escape
 * (focus returns to the button), on a click or focus outside both, and when the page changes.
 */
export function useDisclosure<Panel extends HTMLElement>() {
  const { pathname } = useLocation();
  // Open on the page it was opened on only: moving to another page closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<Panel>(null);

  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) =>
      target instanceof Node && (button.current?.contains(target) || panel.current?.contains(target));
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpenOn(null);
      button.current?.focus();
    };
    const onOutside = (event: Event) => {
      if (!inside(event.target)) setOpenOn(null);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onOutside);
    document.addEventListener("focusin", onOutside);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
    };
  }, [open]);

  return {
    open,
    setOpen,
    buttonProps: { ref: button, "aria-expanded": open, onClick: () => setOpen(!open) },
    panelRef: panel,
  };
}
