/**
 * The inspector's views, one chunk loaded the first time something is inspected: the first page
 * does not need them (InspectorPanel.svelte shows them once a selection was made).
 */
export { default as InspectBuffer } from './InspectBuffer.svelte';
export { default as InspectChannel } from './InspectChannel.svelte';
export { default as InspectStorage } from './InspectStorage.svelte';
export { default as InspectSubtask } from './InspectSubtask.svelte';
