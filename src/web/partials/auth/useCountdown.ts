import { useEffect, useEffectEvent, useState } from "react";

/**
 * Counts whole seconds down to zero, then calls `onZero`. Unless told it is not `pausable`, Esc pauses
 * it anywhere on the page.
 */
export function useCountdown(seconds: number, onZero: () => void, { pausable = true } = {}) {
  const [remaining, setRemaining] = useState(seconds);
  const [paused, setPaused] = useState(false);
  const reachZero = useEffectEvent(onZero);

  useEffect(() => {
    if (paused) return;
    if (remaining <= 0) {
      reachZero();
      return;
    }
    const timer = window.setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [paused, remaining]);

  useEffect(() => {
    if (!pausable) return;
    const pauseOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setPaused(true);
    };
    document.addEventListener("keydown", pauseOnEscape);
    return () => document.removeEventListener("keydown", pauseOnEscape);
  }, [pausable]);

  return { remaining, paused, setPaused };
}
