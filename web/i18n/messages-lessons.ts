/** UI text of the lesson panel (merged into `en` in messages-en.ts; the Chinese is in zh-CN/, loaded with that locale); the lessons' own text is in engine/lessons/. */

export const lessonsEn = {
  'lessons.title': 'Lessons',
  'lessons.intro': 'Guided lessons on tuning checkpoints, one per point of the two Flink guides this playground is built on. Each runs a job in the simulator and ticks a step off when you have seen it happen.',
  'lessons.steps': '{n, plural, one {# step} other {# steps}}',
  'lessons.progress': '{seen} of {total} seen',
  'lessons.all': 'All lessons',
  'lessons.stepN': 'Step {n}',
  'lessons.doIt': 'Do it for me',
  'lessons.seen': 'Seen',
  'lessons.notSeen': 'Not seen yet',
  /** the open step's regions of the page, each outlined on the page and a button that shows it */
  'lessons.lookAt': 'Look at:',
  /** a region inside the checkpoint dashboard: where it is (Checkpoints › History) */
  'lessons.lookAt.tab': '{panel} › {tab}',
  'lessons.lookAt.inTab': '{region} ({where})',
  'lessons.lookAt.show': 'Show it on the page (outlined)',
  'lessons.openFailed': 'Could not open the lesson: {reason}',
  'scenario.fromLesson': 'Lesson scenario: {name}',
} as const;
