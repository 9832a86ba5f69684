/**
 * `use:clientWidth={(width) => …}`: an element's clientWidth, reported when it is laid out and
 * whenever it changes, by a ResizeObserver alone. Svelte's `bind:clientWidth` also reads the
 * width once while the component mounts, which forces a layout of the whole page inside the
 * mount's task (about 50 ms of the first page's); here the first width comes with the first
 * layout, before the first paint.
 */
export function clientWidth(element: HTMLElement, report: (width: number) => void): { update(next: (width: number) => void): void; destroy(): void } {
  let current = report;
  // inside a ResizeObserver callback layout is clean: reading clientWidth forces nothing
  const observer = new ResizeObserver(() => current(element.clientWidth));
  observer.observe(element);
  return {
    update(next) {
      current = next;
    },
    destroy() {
      observer.disconnect();
    },
  };
}
