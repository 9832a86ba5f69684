/**
 * The page's keyboard shortcuts: one list, read by the key handler and by the `?` help dialog,
 * so the help can never disagree with what the keys do.
 */
import { DASHBOARD_TABS, type DashboardState } from '../dashboard/dashboard-state.svelte.ts';
import type { MessageKey } from '../i18n/i18n.svelte.ts';
import type { PlaygroundState } from '../playground-state.svelte.ts';
import { SPEED_EXPONENT_MAX, SPEED_EXPONENT_MIN, type ControlsState } from './controls-state.svelte.ts';

export interface Shortcut {
  /** `KeyboardEvent.key` values that run it */
  keys: readonly string[];
  /** how the help dialog prints the keys */
  display: string;
  description: MessageKey;
  run: (key: string) => void;
}

export interface ShortcutContext {
  playground: PlaygroundState;
  controls: ControlsState;
  dashboard: DashboardState;
}

const SPEED_MIN = 10 ** SPEED_EXPONENT_MIN;
const SPEED_MAX = 10 ** SPEED_EXPONENT_MAX;

function changeSpeed({ controls, playground }: ShortcutContext, factor: number): void {
  const next = Math.min(SPEED_MAX, Math.max(SPEED_MIN, Number((playground.speed * factor).toPrecision(2))));
  void controls.act(() => controls.api.setSpeed(next));
}

export function shortcuts(context: ShortcutContext): Shortcut[] {
  const { playground, controls, dashboard } = context;
  const api = controls.api;
  return [
    { keys: [' '], display: 'Space', description: 'shortcuts.runPause', run: () => void controls.act(() => (playground.running ? api.pause() : api.start())) },
    { keys: ['.'], display: '.', description: 'shortcuts.step', run: () => void controls.act(() => api.step()) },
    { keys: ['r'], display: 'R', description: 'shortcuts.restart', run: () => playground.restart() },
    { keys: ['+', '='], display: '+', description: 'shortcuts.faster', run: () => changeSpeed(context, 2) },
    { keys: ['-', '_'], display: '−', description: 'shortcuts.slower', run: () => changeSpeed(context, 0.5) },
    { keys: ['c'], display: 'C', description: 'shortcuts.checkpoint', run: () => controls.triggerCheckpoint() },
    { keys: ['s'], display: 'S', description: 'shortcuts.savepoint', run: () => controls.triggerSavepoint() },
    { keys: ['x'], display: 'X', description: 'shortcuts.killTm', run: () => controls.killTaskManager() },
    { keys: ['h'], display: 'H', description: 'shortcuts.loseHost', run: () => controls.loseHost() },
    { keys: ['f'], display: 'F', description: 'shortcuts.failTask', run: () => controls.failTask() },
    { keys: ['t'], display: 'T', description: 'shortcuts.stallTm', run: () => controls.stallTaskManager() },
    { keys: ['d'], display: 'D', description: 'shortcuts.deleteLocalCopy', run: () => controls.deleteLocalCopy() },
    {
      keys: ['1', '2', '3', '4'],
      display: '1 – 4',
      description: 'shortcuts.tabs',
      run: (key) => (dashboard.tab = DASHBOARD_TABS[Number(key) - 1] ?? dashboard.tab),
    },
    { keys: ['?'], display: '?', description: 'shortcuts.help', run: () => (controls.helpOpen = !controls.helpOpen) },
  ];
}

/** Where typing means text, not commands. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && target.type !== 'range' && target.type !== 'checkbox' && target.type !== 'radio';
}

/** Space on a focused button already presses it; the shortcut must not press it again. */
function activatesOnSpace(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('button, a[href], summary, [role="tab"], input') !== null;
}

/** Runs the shortcut for this key, if any; true when the event was used. */
export function handleShortcut(event: KeyboardEvent, context: ShortcutContext): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return false;
  if (isTextEntry(event.target)) return false;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (context.controls.helpOpen && key !== '?') return false;
  if (key === ' ' && activatesOnSpace(event.target)) return false;
  const shortcut = shortcuts(context).find((s) => s.keys.includes(key));
  if (!shortcut) return false;
  shortcut.run(key);
  return true;
}
