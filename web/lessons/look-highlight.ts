/**
 * Outlines the regions of the page the open lesson step points at, while it is open. The element
 * that renders a region carries `data-look="<target>"`; a marked one gets `data-look-shown` (the
 * page's style draws a ring for it, app.css) and `aria-describedby` naming the step's text, so a
 * screen reader says why the region is marked. An attribute rather than a class: Svelte may set a
 * component's class attribute anew, but leaves an attribute it does not own alone.
 *
 * The page's views mount and remount on their own schedule (a tab opened, a view below the fold,
 * a table that fills once a checkpoint completes), so while targets are set, elements added to the
 * page are watched and a region that appears is marked too.
 */
import type { LookTarget } from '../../engine/lessons/look-target.ts';

const SHOWN = 'data-look-shown';
/**
 * How long (wall ms) a scroll the learner asked for waits for its region to mount (a tab's code
 * chunk, a view below the fold): a region that comes later is outlined but not scrolled to, so the
 * page does not jump under the learner.
 */
const SCROLL_WAIT_MS = 2000;

export class LookHighlight {
  #targets: readonly LookTarget[] = [];
  #describedBy = '';
  readonly #marked = new Set<Element>();
  #observer: MutationObserver | null = null;
  #scroll: { target: LookTarget; until: number } | null = null;

  /** Outlines the regions `targets` names, now and when they mount, each described by the element with id `describedBy`. */
  show(targets: readonly LookTarget[], describedBy: string): void {
    this.clear();
    if (targets.length === 0) return;
    this.#targets = targets;
    this.#describedBy = describedBy;
    this.#markIn([document]);
    this.#observer = new MutationObserver((records) => {
      const added = records.flatMap((record) => [...record.addedNodes].filter((node) => node instanceof Element));
      if (added.length === 0) return;
      this.#markIn(added);
      this.#scrollIfPresent();
    });
    this.#observer.observe(document.body, { childList: true, subtree: true });
  }

  /** No region outlined any more (the step changed, the lesson closed). */
  clear(): void {
    this.#observer?.disconnect();
    this.#observer = null;
    for (const element of this.#marked) unmark(element, this.#describedBy);
    this.#marked.clear();
    this.#targets = [];
    this.#scroll = null;
  }

  /** Scrolls `target` into view if it is off screen, once it is on the page (for at most SCROLL_WAIT_MS). */
  scrollTo(target: LookTarget): void {
    this.#scroll = { target, until: performance.now() + SCROLL_WAIT_MS };
    this.#scrollIfPresent();
  }

  /**
   * Marks the regions in `roots` and below: the whole page when the step opens, then only what was
   * added (a running page re-renders its timeline and tables many times a second).
   */
  #markIn(roots: readonly (Document | Element)[]): void {
    for (const element of this.#marked) if (!element.isConnected) this.#marked.delete(element);
    const selector = this.#targets.map((target) => `[data-look="${target}"]:not([${SHOWN}])`).join(', ');
    for (const root of roots) {
      const found = [...root.querySelectorAll(selector)];
      if (root instanceof Element && root.matches(selector)) found.push(root);
      for (const element of found) {
        mark(element, this.#describedBy);
        this.#marked.add(element);
      }
    }
  }

  #scrollIfPresent(): void {
    const wanted = this.#scroll;
    if (!wanted) return;
    if (performance.now() > wanted.until) {
      this.#scroll = null;
      return;
    }
    const element = document.querySelector(`[data-look="${wanted.target}"]`);
    if (!element) return;
    this.#scroll = null;
    scrollIntoViewIfOffScreen(element);
  }
}

function mark(element: Element, describedBy: string): void {
  element.setAttribute(SHOWN, '');
  const tokens = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  if (!tokens.includes(describedBy)) element.setAttribute('aria-describedby', [...tokens, describedBy].join(' '));
}

function unmark(element: Element, describedBy: string): void {
  element.removeAttribute(SHOWN);
  const tokens = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((token) => token !== '' && token !== describedBy);
  if (tokens.length > 0) element.setAttribute('aria-describedby', tokens.join(' '));
  else element.removeAttribute('aria-describedby');
}

/**
 * On screen: wholly in the viewport, or, for a region taller than the viewport, its top in the
 * upper third of it (its start is what the learner reads first). Else it is scrolled to, smoothly
 * unless the reader asked for reduced motion.
 */
function scrollIntoViewIfOffScreen(element: Element): void {
  const rect = element.getBoundingClientRect();
  const height = window.innerHeight;
  const fits = rect.height <= height;
  const onScreen = rect.top >= 0 && (fits ? rect.bottom <= height : rect.top <= height / 3);
  if (onScreen) return;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: fits ? 'center' : 'start' });
}
