/**
 * The person's gestures anywhere on the page: a wheel or trackpad scroll, a pinch (a wheel event with ctrlKey), a
 * drag with a button or finger down. Each is reported to `notify` as it happens (the session client passes them on
 * to its worker, whose long work then waits: see `Gesture` in the worker protocol). Listened to in the capture
 * phase and passively, so that no handler that stops an event (d3-zoom does) hides it and none is delayed.
 */
export function watchGestures(target: Window, notify: () => void): () => void {
  const options = { capture: true, passive: true } as const;
  const onwheel = () => notify();
  const onpointermove = (event: PointerEvent) => {
    if (event.buttons !== 0) notify();
  };
  target.addEventListener("wheel", onwheel, options);
  target.addEventListener("pointermove", onpointermove, options);
  return () => {
    target.removeEventListener("wheel", onwheel, options);
    target.removeEventListener("pointermove", onpointermove, options);
  };
}
